"""The Dashboard's exposure panel: what the run showed each test identity it may not read.

Per identity: the (run, case) pairs checked, then the forbidden documents retrieved, passed
to the model (context) and cited, each with the cases behind it; below, seed 003's three
outcomes of the run kept apart (wrong answer, missing evidence, out-of-scope exposure).  An
exposure is a critical error: it is counted here and never averaged into a quality figure.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from rag_annotator.metrics.exposure import STAGES
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui.dashboard.format import translate
from rag_annotator.ui.dashboard.widgets import FigureTable, TableNotePanel
from rag_annotator.ui.models import number


def _stage_names() -> dict[str, str]:
    return {"retrieved": translate("DashboardSection", "Retrieved"),
            "context": translate("DashboardSection", "Passed to the model"),
            "cited": translate("DashboardSection", "Cited")}


class ExposurePanel(TableNotePanel):
    """``table``: per identity, exposures by stage (cases behind each); ``outcomes``: the
    run's three outcomes (cases behind each)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.outcomes = FigureTable()
        super().__init__(translate("DashboardSection",
                                   "Out-of-scope exposure (critical, per identity)"),
                         parent, extras=(self.outcomes,))

    def clear(self) -> None:
        self.table.fill([], [])
        self.outcomes.fill([], [])
        self.note.clear()

    def show_figures(self, figures: RunFigures) -> None:
        exposure = figures.rights.exposure
        stages = _stage_names()
        columns = [translate("DashboardSection", "Groups"),
                   translate("DashboardSection", "Cases checked"),
                   *(stages[s] for s in STAGES),
                   translate("DashboardSection", "Cases exposed")]
        rows = []
        for who, row in exposure.per_identity().items():
            rows.append((who, [
                (", ".join(row["groups"]) or "—", None, ""),
                (number(row["checked"]), None, ""),
                *((number(row[s]["count"]), row[s]["cases"], "") for s in STAGES),
                (number(len(row["cases"])), row["cases"], "")]))
        self.table.fill(columns, rows)
        outcomes = figures.rights.outcomes
        self.outcomes.fill(
            [translate("DashboardSection", "Wrong answer"),
             translate("DashboardSection", "Missing evidence"),
             translate("DashboardSection", "Out-of-scope exposure")],
            [(translate("DashboardSection", "Cases"), [
                (number(len(cases)), list(cases), "")
                for cases in (outcomes.wrong_answer, outcomes.missing_evidence,
                              outcomes.exposure)])])
        total = exposure.total
        self.note.setText(translate(
            "DashboardSection",
            "%1 exposure(s) in this run. A forbidden document retrieved, passed to the model "
            "(the top %2 of an answered case) or cited is a critical error: it is counted "
            "here, never averaged into quality. The three outcomes are kept apart: a right "
            "answer built on a forbidden document is exposed, not wrong.")
            .replace("%1", number(total)).replace("%2", str(exposure.depth)))
