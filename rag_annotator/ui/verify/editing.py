"""Claim editing in the Verify section: the claim's text (F2, Enter), split at the cursor,
merge with the next, delete, add, the rationale field (W; Enter or leaving saves), and the
evidence spans bound to the claim.

A mixin of :class:`~rag_annotator.ui.verify.section.VerifySection` (kept apart so each module
stays short); every edit is one domain operation run through the undo controller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QInputDialog,
    QLineEdit,
    QPlainTextEdit,
    QTableView,
    QTextBrowser,
    QWidget,
)

from rag_annotator.domain import operations as ops
from rag_annotator.domain import verify_ops
from rag_annotator.ui.text_views import from_qt

if TYPE_CHECKING:
    from rag_annotator.ui.context import UiContext
    from rag_annotator.ui.verify.context_pane import ContextPane

Row = dict[str, Any]
translate = QCoreApplication.translate


class ClaimEditing:
    """Claim text, split, merge, delete, add and rationale (needs the section's widgets)."""

    ctx: UiContext
    claims_table: QTableView
    claim_text: QLineEdit
    rationale: QLineEdit
    answer_view: QTextBrowser
    context_view: QPlainTextEdit
    pane: ContextPane
    context: Row | None
    _rationale_claim: int | None

    def current_claim(self) -> Row | None:  # provided by the section
        raise NotImplementedError

    def claim_id(self) -> int | None:  # provided by the section
        raise NotImplementedError

    def current_document(self) -> Row | None:  # provided by the section
        raise NotImplementedError

    def _hint(self, text: str) -> None:  # provided by the section
        raise NotImplementedError

    def _edit_field(self, field: QLineEdit) -> None:
        if self.current_claim() is None:
            return
        field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if field is self.rationale:
            field.selectAll()

    def _save_rationale(self) -> None:
        claim_id = self._rationale_claim
        if claim_id is None or not self.rationale.isModified():
            return
        text = self.rationale.text()
        self.rationale.setModified(False)
        self.ctx.undo.run(lambda s: verify_ops.set_claim_rationale(s, claim_id, text))

    def _save_claim_text(self) -> None:
        claim = self.current_claim()
        text = self.claim_text.text()
        if claim is None or text == claim["text"]:
            self.claims_table.setFocus()
            return
        claim_id = int(claim["id"])
        if self.ctx.undo.run(lambda s: ops.edit_claim(s, claim_id, text)) is not None:
            self.claims_table.setFocus()

    def split_claim(self) -> None:
        """Split the current claim at the cursor of the claim field."""
        claim = self.current_claim()
        if claim is None:
            return
        claim_id = int(claim["id"])
        offset = from_qt(claim["text"], self.claim_text.cursorPosition())
        self.ctx.undo.run(lambda s: verify_ops.split_claim(s, claim_id, offset))
        self.claims_table.setFocus()

    def merge_claim(self) -> None:
        """Merge the current claim with the next one."""
        claim_id = self.claim_id()
        if claim_id is not None:
            self.ctx.undo.run(lambda s: verify_ops.merge_with_next(s, claim_id))

    def delete_claim(self) -> None:
        """Delete the current claim (undoable)."""
        claim_id = self.claim_id()
        if claim_id is not None:
            self._rationale_claim = None
            self.ctx.undo.run(lambda s: ops.delete_claim(s, claim_id))

    def add_claim(self) -> None:
        """Add a claim: the words selected in the answer (with their span), else typed."""
        context = self.context
        if context is None:
            return
        answer_id, text = int(context["id"]), context["text"]
        cursor = self.answer_view.textCursor()
        claims = context["claims"]
        if cursor.hasSelection():
            start = from_qt(text, cursor.selectionStart())
            end = from_qt(text, cursor.selectionEnd())
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            words, span = text[start:end], (start, end)
            position: int | None = 1 + sum(1 for c in claims if c["span_start"] is not None
                               and c["span_start"] < start)
        else:
            parent = self if isinstance(self, QWidget) else None
            words, accepted = QInputDialog.getText(
                parent, translate("VerifySection", "Add a claim"), translate(
                    "VerifySection",
                    "Claim (or select words in the answer before pressing Ctrl+Shift+A):"))
            if not accepted or not words.strip():
                return
            span = None
            current = self.current_claim()
            position = (current["position"] + 1) if current else None
        self.ctx.undo.run(lambda s: ops.add_claim(s, answer_id, words.strip(), span=span,
                                                  position=position))

    # -- evidence ----------------------------------------------------------------------------
    def add_evidence(self) -> None:
        """Bind the words selected in the context (its text, or its PDF page: then the
        words' offsets in that document's text) to the current claim."""
        claim_id, doc = self.claim_id(), self.current_document()
        selected = self.pane.selected_evidence(doc) if doc is not None else None
        if claim_id is None or doc is None or selected is None:
            self._hint(translate("VerifySection",
                                 "Select some words in the context first (mouse, or Shift "
                                 "with the arrow keys), then press E."))
            return
        document_id, start, end = selected
        changes = self.ctx.undo.run(lambda s: verify_ops.add_evidence(s, claim_id, document_id,
                                                                      (start, end)))
        page = self.pane.viewer.layout_of().page_of(start) \
            if document_id == self.pane.viewer.structure_id() else None
        if changes is not None and self.pane.viewer.showing_pages():
            self.pane.viewer.page_view.clear_selection()  # the evidence mark shows instead
        if changes is not None and page is not None:
            self._hint(translate("VerifySection", "Evidence: page %1, characters %2–%3.")
                       .replace("%1", str(page)).replace("%2", str(start))
                       .replace("%3", str(end)))

    def remove_evidence(self) -> None:
        """Remove the current claim's last evidence span."""
        claim = self.current_claim()
        if claim is None or not claim["evidence"]:
            return
        evidence_id = int(claim["evidence"][-1]["id"])
        self.ctx.undo.run(lambda s: verify_ops.remove_evidence(s, evidence_id))
