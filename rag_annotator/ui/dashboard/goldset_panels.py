"""The Dashboard's gold-set panels (not about one run): agreement between assessors on
relevance, per family, and the counts of cases, labels and verdicts."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtWidgets import QGridLayout, QWidget

from rag_annotator.metrics.agreement import Agreement, AgreementReport
from rag_annotator.ui import labels
from rag_annotator.ui.dashboard.format import translate
from rag_annotator.ui.dashboard.widgets import Cell, CountsBox, TableNotePanel
from rag_annotator.ui.models import number


class AgreementPanel(TableNotePanel):
    """Percent agreement, Cohen's kappa (two assessors) and Krippendorff's alpha, overall and
    per family (``table``), as ``info --json`` gives them, with a ``note``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("DashboardSection", "Agreement between assessors on "
                                   "relevance (relevant or not)"), parent)

    def clear(self) -> None:
        self.table.fill([], [])
        self.note.clear()

    def show_too_many(self) -> None:
        """Too many judgments to recount at every change: say where to find the figures."""
        self.table.fill([], [])
        self.table.hide()
        self.note.setText(translate(
            "DashboardSection", "Too many judgments to recount here at every change: "
            "'rag-annotator info FILE --json' and the Excel summary give the agreement."))

    def show_report(self, report: AgreementReport) -> None:
        """The file's agreement (``FileFigures.agreement``), overall and per family."""
        overall = report.overall
        if overall.assessors < 2 or overall.units == 0:
            self.table.hide()
            self.note.setText(translate(
                "DashboardSection", "No pair has been judged by two assessors yet: nothing "
                "to compare. Merge a colleague's file (File → Merge a Colleague's File…) to "
                "measure agreement."))
            return
        table = [(labels.family(family), _cells(a))
                 for family, a in sorted(report.by_family.items()) if a.units]
        table.append((translate("DashboardSection", "All families"), _cells(overall)))
        self.table.show()
        self.table.fill([translate("DashboardSection", "Assessors"),
                         translate("DashboardSection", "Pairs judged by 2+"),
                         translate("DashboardSection", "Agreement"),
                         translate("DashboardSection", "Cohen's κ"),
                         translate("DashboardSection", "Krippendorff's α")], table)
        self.note.setText(translate(
            "DashboardSection", "Pairs judged by at least two assessors; a dispute (relevant "
            "vs not relevant) waits in the Judge section's adjudication queue (D). — means "
            "not defined."))


def _cells(a: Agreement) -> list[Cell]:
    def figure(value: float | None, spec: str) -> str:
        return "—" if value is None else format(value, spec)

    return [(number(a.assessors), None, ""), (number(a.units), None, ""),
            (figure(a.percent, ".1f") + ("" if a.percent is None else " %"), None, ""),
            (figure(a.kappa, ".3f"), None,
             translate("DashboardSection", "only with exactly two assessors")),
            (figure(a.alpha, ".3f"), None, "")]


class CountsPanel(QWidget):
    """Cases by family and by status, claims by verdict, pairs by effective label."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.families = CountsBox(translate("DashboardSection", "Cases by family"))
        self.statuses = CountsBox(translate("DashboardSection", "Cases by status"))
        self.judgments = CountsBox(translate("DashboardSection", "Pairs by effective label"))
        self.claims = CountsBox(translate("DashboardSection", "Claims by verdict"))
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.families, 0, 0, 2, 1)
        grid.addWidget(self.statuses, 0, 1)
        grid.addWidget(self.claims, 1, 1)
        grid.addWidget(self.judgments, 0, 2, 2, 1)

    def clear(self) -> None:
        for box in (self.families, self.statuses, self.judgments, self.claims):
            box.show_counts([])

    def show_counts(self, families: Mapping[str, int], statuses: Mapping[str, int],
                    claims: Mapping[str, int]) -> None:
        """The store's counts by family, by case status and by claim verdict."""
        self.families.show_counts([(labels.family(k), number(v)) for k, v in families.items()])
        self.statuses.show_counts([(labels.case_status(k), number(statuses.get(k, 0)))
                                   for k in labels.CASE_STATUSES])
        self.claims.show_counts([(labels.verdict(k), number(claims.get(k, 0)))
                                 for k in ("supported", "not_supported", "contradicted",
                                           "unverified")])

    def show_judgments(self, totals: Mapping[str, int] | None) -> None:
        """Pairs by effective label (the judging progress' totals; None: still counting)."""
        if totals is None:
            self.judgments.show_counts([(translate("DashboardSection",
                                                   "Counting judgments…"), "")])
            return
        self.judgments.show_counts([
            (labels.judgment("relevant"), number(totals["relevant"])),
            (labels.judgment("not_relevant"), number(totals["not_relevant"])),
            (labels.judgment("unjudged"), number(totals["unjudged"])),
            (translate("DashboardSection", "of which disputed"), number(totals["disputed"])),
            (translate("DashboardSection", "Pairs in the pools"), number(totals["pairs"])),
        ])
