"""The Dashboard's answers panel: seed 003's decomposition per family (tested / produced /
validated, quality, coverage, success), stacked bars "where do the tested questions go",
unreviewed cases, abstention and faithfulness."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from rag_annotator.metrics.answers import AnswerSummary, Denominators
from rag_annotator.metrics.intervals import Interval
from rag_annotator.metrics.overview import ALL
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui.dashboard.format import (
    error_bar,
    family_keys,
    family_title,
    pct,
    pct_range,
    translate,
)
from rag_annotator.ui.dashboard.widgets import Bar, BarChart, Cell, TableNotePanel
from rag_annotator.ui.look import colours
from rag_annotator.ui.models import number


class AnswersPanel(TableNotePanel):
    """``table`` (counts and shares per family), ``bars`` (validated + not validated + no
    answer = tested) and ``note`` (the definitions, the claims' shares)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.bars = BarChart()
        super().__init__(translate("DashboardSection",
                                   "Answers per family: tested / produced / validated"), parent,
                         extras=(self.bars,))

    def clear(self) -> None:
        self.table.fill([], [])
        self.bars.set_bars([])

    def show_figures(self, figures: RunFigures) -> None:
        summary = figures.answers
        columns = [translate("DashboardSection", "Tested"),
                   translate("DashboardSection", "Produced"),
                   translate("DashboardSection", "Validated"),
                   translate("DashboardSection", "Quality"),
                   translate("DashboardSection", "Coverage"),
                   translate("DashboardSection", "Success"),
                   translate("DashboardSection", "Unreviewed"),
                   translate("DashboardSection", "Abstention"),
                   translate("DashboardSection", "Faithfulness")]
        keys = family_keys(summary.per_family)
        self.table.fill(columns, [(family_title(key),
                                   _cells(_group(summary, key), figures,
                                          None if key == ALL else key))
                                  for key in keys])
        self._show_bars(figures, keys)
        self.note.setText(translate(
            "DashboardSection",
            "Bars: ✓ validated (green) + ✗ not validated (red) + ∅ no answer (grey) = tested; the "
            "whisker is the interval of success. "
            "Quality = validated / produced, coverage = produced / tested, success = "
            "validated / tested; a zero denominator is not computable (—). Claims: %1 "
            "contradicted, %2 unsupported of the verified; must-contain recall %3.")
            .replace("%1", pct(summary.contradicted_share))
            .replace("%2", pct(summary.unsupported_share))
            .replace("%3", pct(summary.must_contain_recall)))

    def _show_bars(self, figures: RunFigures, keys: list[str]) -> None:
        """Stacked bars, with success's interval as the error bar (validated / tested)."""
        summary = figures.answers
        good, bad, missing = (colours.fg(r) for r in ("bar_good", "bar_bad", "bar_missing"))
        bars = []
        for key in keys:
            group = _group(summary, key)
            tested = group.tested or 1
            bars.append(Bar(family_title(key), [
                (group.validated / tested, good, "validated", list(group.cases("validated"))),
                (len(group.cases("not_validated")) / tested, bad, "not_validated",
                 list(group.cases("not_validated"))),
                (len(group.cases("no_answer")) / tested, missing, "no_answer",
                 list(group.cases("no_answer"))),
            ], f"✓{group.validated} + ✗{len(group.cases('not_validated'))} + "
               f"∅{len(group.cases('no_answer'))} = {group.tested}",
                error_bar(_interval(figures, "success", None if key == ALL else key))))
        self.bars.set_bars(bars)


def _group(summary: AnswerSummary, key: str) -> Denominators:
    return summary.group(None if key == ALL else key)


def _interval(figures: RunFigures, name: str, family: str | None) -> Interval | None:
    figure = figures.figure(name, family)
    return None if figure is None else figure.interval


def _cells(group: Denominators, figures: RunFigures, family: str | None) -> list[Cell]:
    """A family's row: its counts, then each share of the run's figures with its interval
    ("33.3% [6–79]")."""
    def ranged(name: str) -> str:
        figure = figures.figure(name, family)
        return "—" if figure is None else pct_range(figure.value, figure.interval)

    abst = (f"{len(group.abstention_correct_cases)}/{len(group.abstention_cases)}"
            if group.abstention_cases else "—")
    return [
        (number(group.tested), list(group.cases("tested")), ""),
        (number(group.produced), list(group.cases("produced")), ""),
        (number(group.validated), list(group.cases("validated")), ""),
        (ranged("quality"), list(group.cases("produced")),
         translate("DashboardSection", "validated / produced")),
        (ranged("coverage"), list(group.cases("tested")),
         translate("DashboardSection", "produced / tested")),
        (ranged("success"), list(group.cases("tested")),
         translate("DashboardSection", "validated / tested")),
        (number(len(group.unreviewed_cases)), list(group.unreviewed_cases),
         translate("DashboardSection", "expecting an answer, review not complete: not "
                   "counted as tested (%1 more have no answer from this run at all)").replace(
                       "%1", str(len(group.not_generated_cases)))),
        (abst, list(group.abstention_cases),
         translate("DashboardSection",
                   "cases expecting an abstention or escalation, reviewed")),
        (ranged("faithfulness_mean"), list(group.cases("produced")),
         translate("DashboardSection", "mean of supported / verified claims per answer")),
    ]
