"""The Dashboard's retrieval panel: the measures per family (mean over the report's topics,
with how many that is, and a label saying which topics those are), as a table and as bars
for the measure picked below it, and that measure's distribution over the cases
(undetermined and not defined included)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLocale
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from rag_annotator.metrics import DEFAULT_MEASURES
from rag_annotator.metrics.overview import ALL, distribution, family_means
from rag_annotator.metrics.retrieval import ALL_JUDGED, Report
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui.dashboard.format import (
    error_bar,
    family_keys,
    family_title,
    num_range,
    translate,
)
from rag_annotator.ui.dashboard.widgets import Bar, BarChart, FigureTable


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
        #: Over which topics the means run (issue 18: the same set for every measure).
        self.topics_label = QLabel()
        self.topics_label.setWordWrap(True)
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
        charts = QHBoxLayout()
        charts.addWidget(self.bars, 1)
        charts.addWidget(self.distribution, 1)
        layout.addLayout(charts)
        self.measure_combo.currentIndexChanged.connect(self.show_charts)

    def clear(self) -> None:
        self.figures = None
        self.topics_label.clear()
        self.table.fill([], [])
        self.bars.set_bars([])
        self.distribution.set_bars([])

    def show_figures(self, figures: RunFigures) -> None:
        self.figures = figures
        report = figures.report
        self.topics_label.setText(topics_text(report))
        measures = list(report.measures)
        per_measure = {m: family_means(report, figures.families, m) for m in measures}
        intervals = figures.intervals
        rows = []
        for key in family_keys({k for means in per_measure.values() for k in means}):
            cells = []
            family = None if key == ALL else key
            for m in measures:
                mean, published, other = per_measure[m].get(key, (None, [], []))
                total = len(published) + len(other)
                text = num_range(mean, intervals.mean(m, family)) + (
                    f"  ({len(published)}/{total})" if other else "")
                tip = translate("DashboardSection", "%1 of %2 cases count in the mean; the "
                                "others are undetermined, not defined or not judged.").replace(
                                    "%1", str(len(published))).replace("%2", str(total))
                cells.append((text, published + other, tip))
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
        means = family_means(figures.report, figures.families, measure)
        bars = []
        for key in family_keys(means):
            mean, published, _other = means.get(key, (None, [], []))  # no case: no ALL
            interval = figures.intervals.mean(measure, None if key == ALL else key)
            bars.append(Bar(family_title(key), [(mean or 0.0, accent, measure, published)],
                            f"{measure} {num_range(mean, interval)}", error_bar(interval)))
        self.bars.set_bars(bars)
        self._show_distribution(figures, measure)

    def _show_distribution(self, figures: RunFigures, measure: str) -> None:
        accent = self.palette().color(QPalette.ColorRole.Highlight)
        rows = distribution(figures.report, measure)
        biggest = max([len(cases) for _name, cases in rows] or [1]) or 1
        names = {"undetermined": translate("DashboardSection", "undetermined"),
                 "not_defined": translate("DashboardSection", "not defined")}
        grey = self.palette().color(QPalette.ColorRole.Mid)
        locale = QLocale()

        def title(index: int, name: str) -> str:
            if name in names:
                return names[name]
            low, high = index / 10, (index + 1) / 10  # distribution()'s ten bins
            return f"{locale.toString(low, 'f', 1)}–{locale.toString(high, 'f', 1)}"

        bars = []
        for i, (name, cases) in enumerate(rows):
            bars.append(Bar(title(i, name), [(len(cases) / biggest,
                                              grey if name in names else accent, name, cases)],
                            self.count_text(len(cases))))
        self.distribution.set_bars(bars)


def topics_text(report: Report) -> str:
    """Which topics the means run over, in the user's language."""
    if report.topic_rule == ALL_JUDGED:
        text = translate("DashboardSection", "Means over all %1 judged cases; the %2 the run "
                         "does not cover score 0 (trec_eval -c).")
    else:
        text = translate("DashboardSection", "Means over the %1 judged cases the run covers "
                         "(trec_eval's topics).")
    text = text.replace("%1", str(len(report.topics))).replace(
        "%2", str(len(report.missing_topics)))
    if report.unjudged_topics:
        text += " " + translate("DashboardSection", "%1 cases without any judgment are left "
                                "out.").replace("%1", str(len(report.unjudged_topics)))
    if report.zero_when_undefined:
        text += " " + translate("DashboardSection", "A value not defined (no relevant "
                                "document) counts 0, as in trec_eval.")
    else:
        text += " " + translate("DashboardSection", "Only the cases where a value is "
                                "published count.")
    if report.relevance_level > 1:
        text += " " + translate("DashboardSection", "Relevant means grade %1 or more (nDCG "
                                "keeps the grades).").replace("%1", str(report.relevance_level))
    return text
