"""The Dashboard's "how many cases are enough" panel (issue 16, item 4): beside each family,
how wide the interval of its success and of the retrieval measure picked above is today, and
how many more cases would bring it under the width the user sets (±10 points by default) —
the honest answer to seed 003's "how many questions are needed?".

The figures come from ``RunFigures.intervals.enough`` (computed with the target the spin box
sets: changing it recomputes the figures, off the GUI thread for a big file as always).
"""

from __future__ import annotations

from PySide6.QtCore import QLocale, Signal
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from rag_annotator.metrics.intervals import Enough
from rag_annotator.metrics.overview import ALL
from rag_annotator.metrics.run_intervals import OVERALL
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui.dashboard.format import family_keys, family_title, translate
from rag_annotator.ui.dashboard.widgets import Cell, FigureTable


class EnoughPanel(QGroupBox):
    """``target`` (the half-width aimed at, in points) and ``table`` (per family: cases,
    ± today and how many more cases, for success and for the chosen measure).

    Signals:
        target_changed(int): the user set another target (points).
    """

    target_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("DashboardSection", "How many cases are enough"), parent)
        self.target = QSpinBox()
        self.target.setRange(1, 50)
        self.target.setValue(10)
        self.target.setPrefix("±")
        self.target.setSuffix(translate("DashboardSection", " points"))
        self.table = FigureTable()
        self.note = QLabel()
        self.note.setWordWrap(True)
        bar = QHBoxLayout()
        label = QLabel(translate("DashboardSection", "&Wanted interval width:"))
        label.setBuddy(self.target)
        bar.addWidget(label)
        bar.addWidget(self.target)
        bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.table)
        layout.addWidget(self.note)
        self.target.valueChanged.connect(self.target_changed)

    def clear(self) -> None:
        self.table.fill([], [])

    def show_figures(self, figures: RunFigures, measure: str) -> None:
        """Per family: success, then ``measure`` (the retrieval panel's choice)."""
        enough = figures.intervals.enough
        figures_shown = [("success", translate("DashboardSection", "Success"))]
        if figures.report.per_query and measure in figures.report.measures:
            figures_shown.append((measure, measure))
        columns = []
        for _key, name in figures_shown:
            columns += [translate("DashboardSection", "%1: cases").replace("%1", name),
                        translate("DashboardSection", "%1: ± today").replace("%1", name),
                        translate("DashboardSection", "%1: more cases").replace("%1", name)]
        keys = family_keys(k for k in enough if k is not OVERALL and k)
        rows = []
        for key in keys:
            family = OVERALL if key == ALL else key
            cells: list[Cell] = []
            for figure, _name in figures_shown:
                cells += _cells(enough.get(family, {}).get(figure))
            rows.append((family_title(key), cells))
        self.table.fill(columns, rows)
        level = QLocale().toString(figures.intervals.level * 100, "f", 0)
        self.note.setText(translate("DashboardSection",
            "± today: half the width of the %1 % interval, in points. More cases: how many "
            "cases to add to the family (at today's rate and spread) for the interval to be "
            "narrower than ±%2 points; 0: it already is; —: cannot be told yet (no case, or "
            "fewer than two values for a mean).").replace("%1", level)
            .replace("%2", str(self.target.value())))


def _cells(enough: Enough | None) -> list[Cell]:
    if enough is None:
        return [("—", None, ""), ("—", None, ""), ("—", None, "")]
    locale = QLocale()
    width = ("—" if enough.half_width is None
             else "±" + locale.toString(enough.half_width * 100, "f", 1))
    more = enough.more
    more_text = "—" if more is None else ("0" if more == 0 else f"+{more}")
    tip = ("" if enough.needed is None else
           translate("DashboardSection",
                     "%1 cases in all would do").replace("%1", str(enough.needed)))
    return [(str(enough.n), None, ""), (width, None, ""), (more_text, None, tip)]
