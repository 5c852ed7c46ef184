"""The Dashboard's drawing widgets: QPainter bars and small tables of clickable figures.

PySide6-Essentials has no QtCharts, so :class:`BarChart` draws plain horizontal (optionally
stacked) bars itself, each with its interval as an error bar when it has one; every segment
and every :class:`FigureTable` cell carries the case keys behind it, so a click can list
them.  The dashboard's panels (``*_panel.py``) are made of these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.ui.look.colours import luminance

#: One cell of a :class:`FigureTable`: (text, the cases behind it or None, tooltip).
Cell = tuple[str, Sequence[str] | None, str]


#: The symbol drawn in a bar segment of that name (its word is in the bar's text and note).
SEGMENT_SYMBOLS = {"validated": "✓", "not_validated": "✗", "no_answer": "∅"}


@dataclass
class Bar:
    """One row of a :class:`BarChart`: a label, stacked segments and the text at the end."""

    label: str
    segments: list[tuple[float, QColor, str, list[str]]]  # (fraction, colour, name, cases)
    text: str
    interval: tuple[float, float] | None = None  # an error bar (fractions of the track)


class BarChart(QWidget):
    """Horizontal bars drawn with QPainter; a click on a segment emits its cases.

    Signals:
        clicked(str, list): the segment's name and the cases behind it.
    """

    clicked = Signal(str, list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bars: list[Bar] = []
        self._hits: list[tuple[QRect, str, list[str]]] = []
        self.setMouseTracking(True)

    def set_bars(self, bars: list[Bar]) -> None:
        self.bars = bars
        self.updateGeometry()
        self.update()

    def _row_height(self) -> int:
        return self.fontMetrics().height() + 8

    def sizeHint(self) -> QSize:
        return QSize(420, max(1, len(self.bars)) * self._row_height() + 8)

    def minimumSizeHint(self) -> QSize:
        return QSize(240, self.sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        metrics = self.fontMetrics()
        row_h = self._row_height()
        label_w = min(self.width() // 3, max([metrics.horizontalAdvance(b.label)
                                              for b in self.bars] or [0]) + 12)
        text_w = max([metrics.horizontalAdvance(b.text) for b in self.bars] or [0]) + 12
        bar_w = max(20, self.width() - label_w - text_w - 8)
        palette = self.palette()
        self._hits = []
        for i, bar in enumerate(self.bars):
            top = 4 + i * row_h
            painter.setPen(palette.color(QPalette.ColorRole.WindowText))
            painter.drawText(QRect(0, top, label_w - 6, row_h),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                             metrics.elidedText(bar.label, Qt.TextElideMode.ElideRight,
                                                label_w - 6))
            track = QRect(label_w, top + 3, bar_w, row_h - 6)
            painter.fillRect(track, palette.color(QPalette.ColorRole.AlternateBase))
            x = float(label_w)
            for fraction, colour, name, cases in bar.segments:
                width = max(0.0, min(1.0, fraction)) * bar_w
                rect = QRect(round(x), top + 3, round(width), row_h - 6)
                if width > 0:
                    painter.fillRect(rect, colour)
                    self._symbol(painter, rect, colour, name)
                self._hits.append((rect if width >= 3 else rect.adjusted(0, 0, 3, 0), name,
                                   cases))
                x += width
            if bar.interval is not None:
                self._error_bar(painter, bar.interval, label_w, bar_w, top, row_h)
            painter.setPen(palette.color(QPalette.ColorRole.WindowText))
            painter.drawText(QRect(label_w + bar_w + 6, top, text_w, row_h),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             bar.text)
        painter.end()

    def _symbol(self, painter: QPainter, rect: QRect, colour: QColor, name: str) -> None:
        """The segment's symbol (✓ ✗ ∅) inside it when it fits: no state by colour alone."""
        symbol = SEGMENT_SYMBOLS.get(name)
        if symbol is None or rect.width() < self.fontMetrics().horizontalAdvance(symbol) + 4:
            return
        painter.setPen(QColor("#000000") if luminance(colour) > 0.18 else QColor("#ffffff"))
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), symbol)

    def _error_bar(self, painter: QPainter, interval: tuple[float, float], left: int,
                   width: int, top: int, row_h: int) -> None:
        """The interval as a whisker across the bar: a line from low to high with caps."""
        low, high = (left + max(0.0, min(1.0, v)) * width for v in interval)
        middle = top + row_h // 2
        painter.setPen(QPen(self.palette().color(QPalette.ColorRole.WindowText), 2))
        painter.drawLine(round(low), middle, round(high), middle)
        for x in (low, high):
            painter.drawLine(round(x), top + 5, round(x), top + row_h - 5)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        for rect, name, cases in self._hits:
            if rect.contains(point):
                self.clicked.emit(name, list(cases))
                return
        super().mousePressEvent(event)


class FigureTable(QTableWidget):
    """A small read-only table whose cells carry the cases behind them (:meth:`cases_of`).

    The cases stay Python lists on the table (a cell keeps only their index in ``CASES``):
    a large file's cells each hold thousands of case keys, and converting them for Qt at
    every refresh cost more than the figures themselves."""

    CASES = Qt.ItemDataRole.UserRole

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.setTabKeyNavigation(False)
        self.setAlternatingRowColors(True)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._cases: list[Sequence[str]] = []
        self._titles: tuple[list[str], list[str]] = ([], [])

    def fill(self, columns: Sequence[str],
             rows: Sequence[tuple[str, Sequence[Cell]]]
             ) -> None:
        """``rows``: (row title, [(text, cases or None, tooltip)] per column).  A table of
        the same titles (the same figures, moved by a judgment) only has its cells'
        texts replaced: relabelling the headers, which resizes them, cost more than the
        figures on a large file."""
        titles = [title for title, _cells in rows]
        same = (self.columnCount() == len(columns) and self.rowCount() == len(rows)
                and self._titles == (list(columns), titles))
        if not same:
            self.clear()
            self.setColumnCount(len(columns))
            self.setRowCount(len(rows))
            self.setHorizontalHeaderLabels(list(columns))
            self.setVerticalHeaderLabels(titles)
            self._titles = (list(columns), titles)
        self._cases = []
        headers = (self.horizontalHeader(), self.verticalHeader())
        for header in headers:  # sized once below, not at every cell set
            header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        for r, (_title, cells) in enumerate(rows):
            for c, (text, cases, tip) in enumerate(cells):
                item = self.item(r, c) if same else None
                if item is None:
                    item = QTableWidgetItem(text)
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                    self.setItem(r, c, item)
                elif item.text() != text:
                    item.setText(text)
                item.setData(self.CASES, None if cases is None else len(self._cases))
                if cases is not None:
                    self._cases.append(cases)
                if item.toolTip() != tip:
                    item.setToolTip(tip)
        for header in headers:
            header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.resizeColumnsToContents()
        self._fit_height()

    def _fit_height(self) -> None:
        """As tall as its rows (plus the scroll bar when the columns overflow)."""
        height = self.horizontalHeader().sizeHint().height() + 2 * self.frameWidth()
        for r in range(self.rowCount()):
            height += self.rowHeight(r)
        if self.horizontalHeader().length() + self.verticalHeader().width() \
                + 2 * self.frameWidth() > self.width():
            height += self.horizontalScrollBar().sizeHint().height()
        if height != self.height():
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def cases_of(self, item: QTableWidgetItem) -> list[str] | None:
        """The cases behind a cell (None: the cell is not a count of cases)."""
        index = item.data(self.CASES)
        return None if index is None or index >= len(self._cases) else list(self._cases[index])

    def wheelEvent(self, event: QWheelEvent) -> None:
        """The wheel scrolls the page, not the table sideways: a table as tall as its rows
        has nothing to scroll up or down, and Qt would turn the wheel into a sideways
        scroll.  A sideways wheel (or Shift + wheel) still scrolls the columns."""
        if event.angleDelta().y() and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            event.ignore()
            return
        super().wheelEvent(event)

    def find_item(self, row_title: str, column: str) -> QTableWidgetItem | None:
        """The cell at (row title, column title), or None."""
        for r in range(self.rowCount()):
            header = self.verticalHeaderItem(r)
            if header is None or header.text() != row_title:
                continue
            for c in range(self.columnCount()):
                head = self.horizontalHeaderItem(c)
                if head is not None and head.text() == column:
                    return self.item(r, c)
        return None

    def text_at(self, row_title: str, column: str) -> str:
        """The text of one cell, by row and column titles ("" if absent)."""
        item = self.find_item(row_title, column)
        return item.text() if item is not None else ""


class PageWheel(QObject):
    """An event filter for the fields inside the Dashboard's scrolling page (a measure to
    chart, a wanted width, a family): the wheel over one that does not have the keyboard
    scrolls the page instead of changing its value behind the user's back."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget)
                and not watched.hasFocus()):
            area = watched.parentWidget()
            while area is not None and not isinstance(area, QAbstractScrollArea):
                area = area.parentWidget()
            if area is not None:  # straight to the page (Qt passes a forwarded wheel
                QApplication.sendEvent(area.viewport(), event)  # up to no parent)
            return True  # never for the field itself
        return False

    def watch(self, *widgets: QWidget) -> None:
        for widget in widgets:
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # no focus by wheel
            widget.installEventFilter(self)


class CountsBox(QGroupBox):
    """A titled list of label → count, rebuilt on each refresh."""

    def __init__(self, title: str) -> None:
        super().__init__(title)
        self.form = QFormLayout(self)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft)
        self._shown: list[tuple[str, str]] = []

    def show_counts(self, rows: list[tuple[str, str]]) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self._shown = list(rows)
        for label, value in rows:
            value_label = QLabel(value)
            value_label.setAlignment(Qt.AlignmentFlag.AlignRight)
            value_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.form.addRow(label, value_label)

    def values(self) -> dict[str, str]:
        """Shown label → value (for tests)."""
        return dict(self._shown)


class TableNotePanel(QGroupBox):
    """A titled panel of the Dashboard: a ``table`` of figures, what ``extras`` are given
    (bars…) below it, then a wrapped ``note`` saying what the figures mean."""

    def __init__(self, title: str, parent: QWidget | None = None,
                 extras: Sequence[QWidget] = ()) -> None:
        super().__init__(title, parent)
        self.table = FigureTable()
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        for widget in (self.table, *extras, self.note):
            layout.addWidget(widget)
