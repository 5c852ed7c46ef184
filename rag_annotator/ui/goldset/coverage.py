"""Coverage grid: families × tags with the number of cases in each cell.

Empty cells are highlighted so that where the gold set is thin shows at a glance; Enter or a
double click on a cell closes the grid and lists that cell's cases in the Gold set section.
Retired cases are not counted (a checkbox counts them too).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.look import colours

EMPTY = "bad"  # colour roles (ui/look/colours.py)
THIN = "missing"


class CoverageDialog(QDialog):
    """The grid; ``chosen`` is the (family, tag) cell picked, or None."""

    def __init__(self, store: GoldSetStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.chosen: tuple[str, str] | None = None
        self.setWindowTitle(self.tr("Coverage: tags × families"))
        self.resize(1180, 560)
        self.grid = QTableWidget()
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.grid.cellActivated.connect(self._choose)
        self.grid.cellDoubleClicked.connect(self._choose)
        self.retired = QCheckBox(self.tr("Count retired cases"))
        self.retired.toggled.connect(self.fill)
        legend = QLabel(self.tr("Empty cells are red, cells with a single case orange. Enter or "
                                "double-click shows the cases of a cell."))
        legend.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(legend)
        layout.addWidget(self.grid, 1)
        layout.addWidget(self.retired)
        layout.addWidget(buttons)
        self.families = list(labels.FAMILIES)
        self.tags: list[str] = []
        self.fill()

    def fill(self) -> None:
        """Count again and redraw: one row per tag (many tags scroll), one column per family."""
        counts = self.store.coverage_counts(include_retired=self.retired.isChecked())
        self.counts = counts
        self.totals = self.store.family_totals(include_retired=self.retired.isChecked())
        self.tags = [*sorted({tag for _f, tag in counts if tag}), ""]
        self.grid.clear()
        self.grid.setRowCount(len(self.tags) + 1)
        self.grid.setColumnCount(len(self.families) + 1)
        self.grid.setVerticalHeaderLabels(
            [t or self.tr("(no tag)") for t in self.tags] + [self.tr("Cases")])
        self.grid.setHorizontalHeaderLabels(
            [labels.family(f) for f in self.families] + [self.tr("Total")])
        for r, tag in enumerate(self.tags):
            for c, family in enumerate(self.families):
                n = counts.get((family, tag), 0)
                item = QTableWidgetItem(str(n))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if n == 0:
                    item.setBackground(QBrush(colours.bg(EMPTY)))
                    item.setForeground(QBrush(colours.fg(EMPTY)))
                elif n == 1:
                    item.setBackground(QBrush(colours.bg(THIN)))
                    item.setForeground(QBrush(colours.fg(THIN)))
                self.grid.setItem(r, c, item)
            self.grid.setItem(r, len(self.families), _bold(str(
                sum(counts.get((f, tag), 0) for f in self.families))))
        for c, family in enumerate(self.families):
            self.grid.setItem(len(self.tags), c, _bold(str(self._family_total(family))))
        header = self.grid.horizontalHeader()
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        for c in range(self.grid.columnCount()):
            header_item = self.grid.horizontalHeaderItem(c)
            if header_item is not None:
                header_item.setToolTip(header_item.text())
            self.grid.setColumnWidth(c, min(max(70, header.sectionSizeHint(c)), 112))

    def _family_total(self, family: str) -> int:
        """Cases of a family (a case with several tags counts once)."""
        return self.totals.get(family, 0)

    def cell(self, family: str, tag: str) -> int:
        """The count shown for one cell."""
        return self.counts.get((family, tag), 0)

    def _choose(self, row: int, column: int) -> None:
        if row < len(self.tags) and column < len(self.families):
            self.chosen = (self.families[column], self.tags[row])
            self.accept()

    def position(self, family: str, tag: str) -> tuple[int, int]:
        """(row, column) of a cell."""
        return self.tags.index(tag), self.families.index(family)


def _bold(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    font = item.font()
    font.setBold(True)
    item.setFont(font)
    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
    return item
