"""The Dashboard's retrieval panel: the measures per family (mean over the report's topics,
with how many that is, and a label saying which topics those are), as a table and as bars
for the measure picked below it, and the histogram of that measure's overall mean (the very
cases it counts, then those it leaves out, by reason).  Every number is a
:class:`~rag_annotator.reports.figure.Figure` of the run's figures: nothing is averaged or
counted here."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLocale
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from rag_annotator.metrics import DEFAULT_MEASURES
from rag_annotator.metrics.overview import ALL, NOT_DEFINED, NOT_JUDGED, UNDETERMINED
from rag_annotator.metrics.retrieval import ALL_JUDGED, Report
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui.dashboard.explained import Explained
from rag_annotator.ui.dashboard.format import (
    error_bar,
    family_keys,
    family_title,
    num_range,
    translate,
)
from rag_annotator.ui.dashboard.widgets import Bar, BarChart, Cell, FigureTable


class RetrievalPanel(QGroupBox):
    """``table`` (measures per family), ``bars`` and ``distribution`` (for the measure of
    ``measure_combo``); every cell and bar carries its cases."""

    def __init__(self, count_text: Callable[[int], str], parent: QWidget | None = None
                 ) -> None:
        super().__init__(translate("DashboardSection", "Retrieval"), parent)
        # "%n case(s)" in the user's language: the section's own tr(), because
        # pyside6-lupdate reads translate(context, text, "", n) as a plain text, not plurals.
        self.count_text = count_text
        self.figures: RunFigures | None = None
        self.table = FigureTable()
        #: Over which topics the means run (the same set for every measure), the rule
        #: folded away.
        self.topics_label = Explained()
        self.bars = BarChart()
        self.distribution = BarChart()
        self.measure_combo = QComboBox()
        for name in DEFAULT_MEASURES:
            self.measure_combo.addItem(name, name)
        measure_row = QHBoxLayout()
        measure_label = QLabel(translate("DashboardSection",
                                         "&Measure for bars and distribution:"))
        measure_label.setBuddy(self.measure_combo)
        measure_row.addWidget(measure_label)
        measure_row.addWidget(self.measure_combo)
        measure_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.topics_label)
        layout.addWidget(self.table)
        layout.addLayout(measure_row)
        self.distribution_label = QLabel()
        self.distribution_label.setWordWrap(True)
        histogram = QVBoxLayout()
        histogram.addWidget(self.distribution_label)
        histogram.addWidget(self.distribution, 1)
        charts = QHBoxLayout()
        charts.addWidget(self.bars, 1)
        charts.addLayout(histogram, 1)
        layout.addLayout(charts)
        self.measure_combo.currentIndexChanged.connect(self.show_charts)

    def clear(self) -> None:
        self.figures = None
        self.topics_label.clear()
        self.distribution_label.clear()
        self.table.fill([], [])
        self.bars.set_bars([])
        self.distribution.set_bars([])

    def show_figures(self, figures: RunFigures) -> None:
        """The table of every measure's mean per family, as the run's figures hold them."""
        self.figures = figures
        report = figures.report
        self.topics_label.set_texts(*topics_text(report))
        measures = list(report.measures)
        rows = []
        for key in family_keys(k for k in figures.groups if k is not None):
            family = None if key == ALL else key
            cells: list[Cell] = []
            for m in measures:
                figure = figures.figure(m, family)
                if figure is None:
                    cells.append(("—", [], ""))
                    continue
                total = figure.n + len(figure.left_out)
                # the cases the mean counts, always said ("of how many" when some are out)
                text = num_range(figure.value, figure.interval) + (
                    f"  ({figure.n}/{total})" if figure.left_out else f"  ({figure.n})")
                tip = translate("DashboardSection", "%1 of %2 cases count in the mean; the "
                                "others are undetermined, not defined or not judged.").replace(
                                    "%1", str(figure.n)).replace("%2", str(total))
                cells.append((text, list(figure.cases) + list(figure.left_out), tip))
            rows.append((family_title(key), cells))
        self.table.fill(measures, rows)
        self.show_charts()

    def show_charts(self) -> None:
        """The bars and the distribution of the measure chosen in ``measure_combo``."""
        figures = self.figures
        if figures is None:
            return
        measure = self.measure_combo.currentData() or DEFAULT_MEASURES[0]
        if measure not in figures.report.measures:
            return
        accent = self.palette().color(QPalette.ColorRole.Highlight)
        bars = []
        for key in family_keys(k for k in figures.groups if k is not None):
            figure = figures.figure(measure, None if key == ALL else key)
            if figure is None:
                continue
            bars.append(Bar(family_title(key),
                            [(figure.value or 0.0, accent, measure, list(figure.cases))],
                            f"{measure} {num_range(figure.value, figure.interval)} "
                            f"({self.count_text(figure.n)})", error_bar(figure.interval)))
        self.bars.set_bars(bars)
        self._show_distribution(figures, measure)

    def _show_distribution(self, figures: RunFigures, measure: str) -> None:
        """The histogram of the overall mean: exactly the cases it counts, by value, then
        those it leaves out, by reason (grey)."""
        accent = self.palette().color(QPalette.ColorRole.Highlight)
        rows = figures.histogram(measure)
        biggest = max([len(cases) for _name, cases in rows] or [1]) or 1
        names = {NOT_JUDGED: translate("DashboardSection", "not judged"),
                 UNDETERMINED: translate("DashboardSection", "undetermined"),
                 NOT_DEFINED: translate("DashboardSection", "not defined")}
        grey = self.palette().color(QPalette.ColorRole.Mid)
        locale = QLocale()

        def title(name: str) -> str:
            if name in names:
                return names[name]
            low, high = int(name) / 10, (int(name) + 1) / 10  # the histogram's ten bins
            return f"{locale.toString(low, 'f', 1)}–{locale.toString(high, 'f', 1)}"

        bars = []
        for name, cases in rows:
            if name in names and not cases:
                continue  # no case left out for that reason: no empty grey row
            bars.append(Bar(title(name), [(len(cases) / biggest,
                                           grey if name in names else accent, name, cases)],
                            self.count_text(len(cases))))
        self.distribution.set_bars(bars)
        overall = figures.figure(measure)
        n = 0 if overall is None else overall.n
        left = 0 if overall is None else len(overall.left_out)
        text = translate("DashboardSection", "Distribution of %1 over the %2 of its mean") \
            .replace("%1", measure).replace("%2", self.count_text(n))
        if left:
            text += translate("DashboardSection", "; %1 not in the mean (grey)").replace(
                "%1", str(left))
        self.distribution_label.setText(text)


def topics_text(report: Report) -> tuple[str, str]:
    """Over which cases the means run, in the user's language: (what to read at once, the
    rule in trec_eval's terms, folded away)."""
    if report.topic_rule == ALL_JUDGED:
        short = translate("DashboardSection", "Means over all %1 judged cases; the %2 the "
                          "run does not cover score 0.")
        long = translate("DashboardSection", "As trec_eval -c does.")
    else:
        short = translate("DashboardSection", "Means over the %1 judged cases the run "
                          "covers.")
        long = translate("DashboardSection", "These are trec_eval's topics.")
    short = short.replace("%1", str(len(report.topics))).replace(
        "%2", str(len(report.missing_topics)))
    if report.unjudged_topics:
        short += " " + translate("DashboardSection", "%1 cases without any judgment are left "
                                 "out.").replace("%1", str(len(report.unjudged_topics)))
    if report.zero_when_undefined:
        long += " " + translate("DashboardSection", "A value not defined (no relevant "
                                "document) counts 0, as in trec_eval.")
    else:
        long += " " + translate("DashboardSection", "Only the cases where a value is "
                                "published count.")
    if report.relevance_level > 1:
        long += " " + translate("DashboardSection", "Relevant means grade %1 or more (nDCG "
                                "keeps the grades).").replace("%1", str(report.relevance_level))
    return short, long
