"""The Dashboard's structured-answer panel (issue 17, seed 003 "contrôler un résultat JSON"):
per family, the parse and schema-valid rates and seed 003's diagnosis (contract broken /
document missing / right document, wrong field); per decisive field, its accuracy with the
checks not executed beside it (never counted as passed).  Hidden when the run has no answer
to a case with an output contract."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QWidget

from rag_annotator.metrics.structured import StructuredGroup
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui.dashboard.format import family_title, pct, translate
from rag_annotator.ui.dashboard.widgets import FigureTable, TableNotePanel
from rag_annotator.ui.models import number

#: The diagnosis columns, in seed 003's order of the step to fix.
SHOWN = ("contract_broken", "document_missing", "right_document_wrong_field",
         "all_fields_right")


def _headers() -> list[str]:
    return [translate("DashboardSection", "Answers"),
            translate("DashboardSection", "Parse rate"),
            translate("DashboardSection", "Schema-valid rate"),
            translate("DashboardSection", "Contract broken"),
            translate("DashboardSection", "Document missing"),
            translate("DashboardSection", "Right document, wrong field"),
            translate("DashboardSection", "All fields right")]


class StructuredPanel(TableNotePanel):
    """``table`` (per family) and ``fields`` (per decisive field, all families)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.fields = FigureTable()
        super().__init__(translate("DashboardSection", "Structured answers (output "
                                   "contracts)"), parent, extras=(self.fields,))
        self.note.setText(translate(
            "DashboardSection",
            "Accuracy = fields right once reviewed / checks executed. A check not executed "
            "(the answer did not parse or broke the schema) is counted apart, never as "
            "passed."))
        self.hide()

    def clear(self) -> None:
        self.table.fill([], [])
        self.fields.fill([], [])
        self.hide()

    def show_figures(self, figures: RunFigures) -> None:
        summary = figures.structured
        self.setVisible(summary.has_data)
        if not summary.has_data:
            return
        rows = [(family_title(f), self._cells(g)) for f, g in summary.per_family.items()]
        rows.append((translate("DashboardSection", "All families"),
                     self._cells(summary.overall)))
        self.table.fill(_headers(), rows)
        self.fields.fill(
            [translate("DashboardSection", "Accuracy"),
             translate("DashboardSection", "Right"),
             translate("DashboardSection", "Executed"),
             translate("DashboardSection", "Not executed"),
             translate("DashboardSection", "Overruled")],
            [(pointer, [(pct(f.accuracy), None, ""), (number(f.passed), None, ""),
                        (number(f.executed), None, ""), (number(f.not_executed), None, ""),
                        (number(f.overruled), None, "")])
             for pointer, f in summary.overall.fields().items()])

    @staticmethod
    def _cells(group: StructuredGroup) -> list[tuple[str, Sequence[str] | None, str]]:
        counts = group.diagnoses()
        every = [i.case_key for i in group.items]
        return [(number(group.answers), every, ""),
                (pct(group.parse_rate), every, ""),
                (pct(group.schema_valid_rate), every, ""),
                *[(number(counts[d]), group.cases(d), "") for d in SHOWN]]
