"""Citations, the answers list and the answer review in the Verify section: step through the
citations (T) and mark their support (Y / P / X), list every answer (O), and change the review
items (R, then Space).

A mixin of :class:`~rag_annotator.ui.verify.section.VerifySection` (kept apart so each module
stays short, like :mod:`~rag_annotator.ui.verify.editing`); every change is one domain
operation run through the undo controller.  Its texts keep the ``VerifySection`` context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QTableView, QTabWidget, QTextBrowser

from rag_annotator.domain import operations as ops
from rag_annotator.ui.models import RowsModel
from rag_annotator.ui.sections.base import current_row, select_row
from rag_annotator.ui.verify.widgets import next_review_values

if TYPE_CHECKING:
    from rag_annotator.ui.context import UiContext

Row = dict[str, Any]
translate = QCoreApplication.translate


class CitationsAndReview:
    """Citation support, the answers list and the review items (needs the section's
    widgets)."""

    ctx: UiContext
    context: Row | None
    context_index: int
    claims_table: QTableView
    citations: RowsModel
    citations_table: QTableView
    answers: RowsModel
    answers_table: QTableView
    review: RowsModel
    review_table: QTableView
    tabs: QTabWidget
    case_view: QTextBrowser

    def _show_context(self) -> None:  # provided by the section
        raise NotImplementedError

    def _show_answer_text(self) -> None:  # provided by the section
        raise NotImplementedError

    def _hint(self, text: str) -> None:  # provided by the section
        raise NotImplementedError

    def answer_id(self) -> int | None:  # provided by the section
        raise NotImplementedError

    def show_answer(self, answer_id: int | None, claim_id: int | None = None) -> None:
        raise NotImplementedError  # provided by the section

    def ensure_queue(self) -> None:  # provided by the section
        raise NotImplementedError

    def _rights_text(self, citation: Row) -> str:
        if citation["restricted"]:
            role = self.context.get("role", "") if self.context else ""
            return translate("VerifySection", "⚠ role %1 may not read it").replace("%1", role)
        return ", ".join(citation["rights"]) or translate("VerifySection", "anyone")

    def step_citation(self) -> None:
        """Select the next citation (wrapping round) and show the document it cites."""
        count = self.citations.rowCount()
        if not count or self.context is None:
            return
        row = (current_row(self.citations_table) + 1) % count
        select_row(self.citations_table, row)
        cited = self.citations.rows[row]["document_id"]
        index = next((i for i, c in enumerate(self.context["contexts"])
                      if c["document_id"] == cited), None)
        if index is not None:
            self.context_index = index
            self._show_context()
        self._show_answer_text()

    def set_support(self, support: str) -> None:
        """Record whether the selected citation supports what it is attached to."""
        row = self.citations.row_at(current_row(self.citations_table))
        if row is None:
            self._hint(translate("VerifySection", "This answer has no citation to check."))
            return
        citation_id = int(row["id"])
        value = None if row["support"] == support else support
        self.ctx.undo.run(lambda s: ops.set_citation_support(s, citation_id, value))

    def toggle_answers(self) -> None:
        """Show the list of all answers and focus it; again: back to the case and claims."""
        if self.tabs.currentWidget() is self.answers_table:
            self.tabs.setCurrentWidget(self.case_view)
            self.claims_table.setFocus()
            return
        self.ensure_queue()
        self.tabs.setCurrentWidget(self.answers_table)
        answer = self.answer_id()
        row = next((i for i, r in enumerate(self.answers.rows) if r["id"] == answer), 0)
        select_row(self.answers_table, row)
        self.answers_table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _open_listed_answer(self) -> None:
        row = self.answers.row_at(current_row(self.answers_table))
        if row is not None:
            self.show_answer(int(row["id"]))
            self.tabs.setCurrentWidget(self.case_view)
            self.claims_table.setFocus()

    def focus_review(self) -> None:
        """Go to the answer review list (R again: back to the claims)."""
        if self.review_table.hasFocus():
            self.claims_table.setFocus()
        elif self.review.rowCount():
            self.review_table.setFocus(Qt.FocusReason.ShortcutFocusReason)
            if current_row(self.review_table) < 0:
                select_row(self.review_table, 0)

    def cycle_review(self) -> None:
        """Change the selected review item to its next value."""
        context = self.context
        item = self.review.row_at(current_row(self.review_table))
        if context is None or item is None:
            return
        run_id, case_id = int(context["run_id"]), int(context["case_id"])
        values = next_review_values(context, item)
        self.ctx.undo.run(lambda s: ops.set_answer_review(s, run_id, case_id, **values))
