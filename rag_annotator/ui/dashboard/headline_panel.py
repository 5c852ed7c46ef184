"""The Dashboard's first panel: the run's headline figures, the very ones the manager's page
prints (``reports.manager.run_headlines``: the same figures, the same words, the same
ranges), so what an expert sees on opening the Dashboard is what her manager reads.

Each row: the value, large; what it is; how many cases it counts and its range in words.
A click on a row lists the cases behind the figure, as every figure of the Dashboard does.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QMouseEvent
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from rag_annotator.reports.manager import Headline, run_headlines
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui.dashboard.format import translate
from rag_annotator.ui.guide.pages import ui_language


class _Row(QWidget):
    """One headline figure (clickable: it lists the cases behind it)."""

    clicked = Signal(str, list)

    def __init__(self, item: Headline, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.value = QLabel(item.value)
        font = QFont(self.value.font())
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setBold(True)
        self.value.setFont(font)
        self.value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.value.setMinimumWidth(self.value.fontMetrics().horizontalAdvance("100 %") + 8)
        self.label = QLabel(f"<b>{_escape(item.label)}</b>")
        details = item.count + (" — " + item.range if item.range else "")
        self.details = QLabel(details)
        self.details.setWordWrap(True)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 2, 0, 2)
        grid.addWidget(self.value, 0, 0, 2, 1)
        grid.addWidget(self.label, 0, 1)
        grid.addWidget(self.details, 1, 1)
        grid.setColumnStretch(1, 1)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(translate("DashboardSection", "Click to list the cases behind it"))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.clicked.emit(self.item.label, list(self.item.figure.cases))
        super().mousePressEvent(event)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class HeadlinePanel(QGroupBox):
    """The headline figures of the shown run (``rows``: what tests and the cases list read).

    Signals:
        clicked(str, list): a figure's label and the cases behind it.
    """

    clicked = Signal(str, list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("DashboardSection", "Headline figures"), parent)
        self.rows: list[_Row] = []
        self.body = QVBoxLayout(self)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.body.addWidget(self.note)

    def clear(self) -> None:
        self.show_headlines([])

    def show_figures(self, figures: RunFigures) -> None:
        self.setTitle(translate("DashboardSection", "Headline figures of %1").replace(
            "%1", figures.run))
        self.show_headlines(run_headlines(figures, ui_language()))

    def show_headlines(self, headlines: Sequence[Headline]) -> None:
        for row in self.rows:
            row.deleteLater()
        self.rows = []
        for item in headlines:
            row = _Row(item)
            row.clicked.connect(self.clicked)
            self.body.insertWidget(len(self.rows), row)
            self.rows.append(row)
        self.note.setText(translate(
            "DashboardSection", "The figures of the manager's page (File → Export: PDF or "
            "Excel), with the range where the true figure lies given how many cases count.")
            if headlines else translate("DashboardSection", "No headline figure yet: review "
                                        "answers (Verify) or judge documents (Judge)."))

    def texts(self) -> list[tuple[str, str, str, str]]:
        """(value, label, count, range) of each row, as shown (for tests)."""
        return [(r.item.value, r.item.label, r.item.count, r.item.range) for r in self.rows]
