"""The Dashboard's drawing widgets: QPainter bars and small tables of clickable figures.

PySide6-Essentials has no QtCharts, so :class:`BarChart` draws plain horizontal (optionally
stacked) bars itself; every segment and every :class:`FigureTable` cell carries the case keys
behind it, so a click can list them.  :class:`AgentsPanel` lays out the agent figures of a
run (issue 9) with those two.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.metrics.agents import AgentGroup, AgentSummary


@dataclass
class Bar:
    """One row of a :class:`BarChart`: a label, stacked segments and the text at the end."""

    label: str
    segments: list[tuple[float, QColor, str, list[str]]]  # (fraction, colour, name, cases)
    text: str


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
                self._hits.append((rect if width >= 3 else rect.adjusted(0, 0, 3, 0), name,
                                   cases))
                x += width
            painter.setPen(palette.color(QPalette.ColorRole.WindowText))
            painter.drawText(QRect(label_w + bar_w + 6, top, text_w, row_h),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             bar.text)
        painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        for rect, name, cases in self._hits:
            if rect.contains(point):
                self.clicked.emit(name, list(cases))
                return
        super().mousePressEvent(event)


class FigureTable(QTableWidget):
    """A small read-only table whose cells carry the cases behind them (UserRole)."""

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

    def fill(self, columns: Sequence[str],
             rows: Sequence[tuple[str, Sequence[tuple[str, Sequence[str] | None, str]]]]
             ) -> None:
        """``rows``: (row title, [(text, cases or None, tooltip)] per column)."""
        self.clear()
        self.setColumnCount(len(columns))
        self.setRowCount(len(rows))
        self.setHorizontalHeaderLabels(list(columns))
        self.setVerticalHeaderLabels([title for title, _cells in rows])
        for r, (_title, cells) in enumerate(rows):
            for c, (text, cases, tip) in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter)
                item.setData(self.CASES, None if cases is None else list(cases))
                if tip:
                    item.setToolTip(tip)
                self.setItem(r, c, item)
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




class AgentsPanel(QGroupBox):
    """The agent figures of a run: per family and overall, then per invariant.

    ``table`` (task success, path, both, undecided, means, cost per success, overruled),
    ``violations`` (rate, broken, checked, unknown per invariant) and ``bars`` (violation
    rates) carry the cases behind every figure, like the other tables of the dashboard.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Agents: task success, path and invariants per family"),
                         parent)
        self.table = FigureTable()
        self.violations = FigureTable()
        self.bars = BarChart()
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(QLabel(self.tr("Violation rate per invariant (broken / checked)")))
        layout.addWidget(self.violations)
        layout.addWidget(self.bars)
        layout.addWidget(self.note)

    def clear(self) -> None:
        self.table.fill([], [])
        self.violations.fill([], [])
        self.bars.set_bars([])

    def show_summary(self, summary: AgentSummary, families: Sequence[tuple[str, str | None]],
                     pct: Callable[[float | None], str],
                     num: Callable[[float | None, int], str]) -> None:
        """Fill from ``summary``; ``families``: (row title, family code or None for all)."""
        columns = [self.tr("Trajectories"), self.tr("Task success"), self.tr("Failed"),
                   self.tr("Path acceptable"), self.tr("Path not acceptable"),
                   self.tr("Both"), self.tr("Undecided"), self.tr("Mean steps"),
                   self.tr("Mean tokens"), self.tr("Mean seconds"),
                   self.tr("Cost per success"), self.tr("Overruled")]
        rows = [(title, self._cells(summary.group(code), pct, num))
                for title, code in families]
        self.table.fill(columns, rows)
        overall = summary.overall
        red = QColor(198, 40, 40)
        vrows = []
        bars = []
        for code, v in overall.violations.items():
            name = self.invariant(code)
            vrows.append((name, [
                (pct(v.rate), list(v.broken_cases),
                 self.tr("trajectories that broke it / trajectories where it was checked")),
                (str(len(v.broken_cases)), list(v.broken_cases), ""),
                (str(len(v.checked_cases)), list(v.checked_cases), ""),
                (str(len(v.unknown_cases)), list(v.unknown_cases),
                 self.tr("the trajectory gives no figure for this budget: not counted")),
            ]))
            bars.append(Bar(name, [(v.rate or 0.0, red, name, list(v.broken_cases))],
                            f"{pct(v.rate)}  ({len(v.broken_cases)}/{len(v.checked_cases)})"))
        self.violations.fill([self.tr("Violation rate"), self.tr("Broken"), self.tr("Checked"),
                              self.tr("Unknown")], vrows)
        self.violations.setVisible(bool(vrows))
        self.bars.set_bars(bars)
        self.bars.setVisible(bool(bars))
        self.note.setText(self.tr(
            "%1 trajectories. A reviewer's mark overrides the automatic check; a trajectory "
            "that can be decided neither way (no expected state or no final state, not "
            "marked) is undecided and left out of the rate. Means are over the trajectories "
            "that carry the figure; cost per success = total cost / successful tasks. "
            "Retired cases are left out (%2). — means not computable.")
            .replace("%1", str(overall.trajectories)).replace("%2", str(summary.retired)))

    def _cells(self, group: AgentGroup, pct: Callable[[float | None], str],
               num: Callable[[float | None, int], str]
               ) -> list[tuple[str, list[str] | None, str]]:
        success, failure = group.cases("success"), group.cases("failure")
        ok, bad = group.cases("path_ok"), group.cases("path_bad")
        overruled = sorted({*group.cases("overruled_success"), *group.cases("overruled_path")})
        tokens, seconds = group.cases("tokens"), group.cases("seconds")
        return [
            (str(group.trajectories), list(group.cases("trajectories")), ""),
            (f"{pct(group.task_success_rate)}  ({len(success)}/{len(success) + len(failure)})",
             list(success), self.tr("successful tasks / trajectories with a verdict")),
            (str(len(failure)), list(failure), ""),
            (f"{pct(group.path_acceptable_rate)}  ({len(ok)}/{len(ok) + len(bad)})", list(ok),
             self.tr("acceptable paths / trajectories with a verdict")),
            (str(len(bad)), list(bad), ""),
            (pct(group.both_rate), list(group.cases("both")),
             self.tr("success with an acceptable path")),
            (str(len(group.cases("success_undecided"))), list(group.cases("success_undecided")),
             self.tr("task success cannot be decided yet: mark it in the review")),
            (num(group.mean_steps, 1), list(group.cases("steps")), ""),
            (f"{num(group.mean_tokens, 0)}  ({len(tokens)})", list(tokens),
             self.tr("over the trajectories that give tokens")),
            (f"{num(group.mean_seconds, 1)}  ({len(seconds)})", list(seconds),
             self.tr("over the trajectories that give seconds")),
            (num(group.cost_per_success, 4), list(group.cases("cost")),
             self.tr("total cost / successful tasks")),
            (f"{len(group.cases('overruled_success'))} / {len(group.cases('overruled_path'))}",
             overruled, self.tr("automatic verdicts a review overruled: success / path")),
        ]

    def invariant(self, code: str) -> str:
        """An invariant code in words (tool names stay as they are)."""
        kind, _sep, rest = code.partition(":")
        if kind == "forbidden":
            return self.tr("forbidden: %1").replace("%1", rest)
        if kind == "required":
            return self.tr("required: %1").replace("%1", rest)
        if kind == "order":
            return rest.replace("<", " < ")
        return {"max_steps": self.tr("step budget"), "max_tokens": self.tr("token budget"),
                "max_seconds": self.tr("time budget"),
                "max_cost": self.tr("cost budget")}.get(code, code)
