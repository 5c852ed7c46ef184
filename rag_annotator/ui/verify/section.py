"""Verify section: check generated answers claim by claim, by keyboard.

It opens on the first unverified claim of all runs and cases (ordered by run name, case key,
claim position).  Left: the case (question, reference answer, must-contain points, what it
must never say), the answer with its claims highlighted (the current one stronger), the
claims with their verdicts, the claim's text and its rationale.  Right: the run's retrieved
contexts one at a time (the current claim's evidence highlighted), the answer's citations,
and the answer review.  Every key is listed in ``ui/verify/keys.py`` (and the cheat sheet); every
change is one domain operation, so it lands in the history and on the undo stack.

Verifying is blind by default, like judging: a verdict set by another assessor shows as
"hidden" and the automatic judges' verdicts are not shown until B reveals them, so a verdict
is the expert's own reading of the context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain import operations as ops
from rag_annotator.domain import structured_ops
from rag_annotator.domain.changes import Changes
from rag_annotator.errors import NotFound
from rag_annotator.ui import actions, labels
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.models import Column, RowsModel, number, one_line
from rag_annotator.ui.pages.keys import VIEWER_ACTIONS
from rag_annotator.ui.sections.base import Section, current_row, esc, make_table, select_row
from rag_annotator.ui.text_views import QuietLabel, set_html
from rag_annotator.ui.verify.citations import CitationsAndReview
from rag_annotator.ui.verify.context_pane import ContextPane
from rag_annotator.ui.verify.editing import ClaimEditing
from rag_annotator.ui.verify.live import LiveUpdates, Prepared
from rag_annotator.ui.verify.outcomes import outcomes_html
from rag_annotator.ui.verify.sample_review import SampleReview
from rag_annotator.ui.verify.structured_panel import StructuredPanel, bind_review
from rag_annotator.ui.verify.widgets import (
    SUPPORT,
    CalibrationDialog,
    answer_html,
    case_html,
    review_items,
)
from rag_annotator.ui.verify.widgets import tr as vtr

Row = dict[str, Any]
VERIFY_ACTIONS = actions.ids_in("verify")
VERDICT_KEYS = {"verify.supported": "supported", "verify.not_supported": "not_supported",
                "verify.contradicted": "contradicted", "verify.unverified": None}
#: Claims-table column hidden while verifying blind.
OTHERS_COLUMN = 3


class VerifySection(LiveUpdates, ClaimEditing, CitationsAndReview, SampleReview, Section):
    """The keyboard verification panel."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self._queue: list[Row] = []         # every claim: id, answer_id, verdict
        self._queue_index: dict[int, int] = {}  # claim id → its place in the queue
        self._unverified = 0                # claims of the queue without a verdict
        self._filling = False               # an answer is being shown: one _on_claim
        self._answer_order: list[int] = []  # every answer id, in the same order
        self.context: Row | None = None     # the current answer (store.answer_context)
        self.context_index = 0
        self.others_revealed = False
        self._rationale_claim: int | None = None
        self._init_live()

        self.answers = RowsModel([
            Column(self.tr("Run"), lambda r: r["run"], 16),
            Column(self.tr("Case"), lambda r: r["case_key"], 7),
            Column(self.tr("Question"), lambda r: one_line(r["question"]), 30, stretch=True),
            Column(self.tr("Claims"), lambda r: number(r["claims"]), 6, numeric=True),
            Column(self.tr("Verified"), lambda r: number(r["verified"]), 7, numeric=True),
        ], self)
        self.answers_table = make_table(self.answers)
        self.header = QuietLabel(wrap=False)  # changes at every key: no section re-layout
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.case_view = QTextBrowser()
        self.case_view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.answer_view = QTextBrowser()
        self.answer_view.setOpenLinks(False)
        self.answer_view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.answer_view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.claims = RowsModel([
            Column(self.tr("#"), lambda r: number(r["position"]), 3, numeric=True),
            Column(self.tr("Claim"), lambda r: one_line(r["text"]), 40, stretch=True),
            Column(self.tr("Verdict"), self._verdict_text, 13),
            Column(self.tr("Others' verdicts"), self._others_text, 22),
            Column(self.tr("Evidence"), lambda r: ", ".join(
                e["key"] if e.get("page") is None else
                self.tr("%1 p. %2").replace("%1", e["key"]).replace("%2", str(e["page"]))
                for e in r["evidence"]), 10),
        ], self)
        self.claims_table = make_table(self.claims)
        self.claim_text = QLineEdit()
        self.rationale = QLineEdit()
        self.rationale.setPlaceholderText(self.tr("Why this verdict (W to write; Enter saves)"))

        self.pane = ContextPane(ctx.pages)  # the retrieved document: text or PDF page
        self.context_label, self.context_view = self.pane.label, self.pane.text
        self.citations = RowsModel([
            Column(self.tr("Marker"), lambda r: r["marker"], 6),
            Column(self.tr("Document"), lambda r: r["key"], 10),
            Column(self.tr("Supports it"), lambda r: vtr(SUPPORT.get(r["support"], "—")), 9),
            Column(self.tr("Rights"), self._rights_text, 20, stretch=True),
        ], self)
        self.citations_table = make_table(self.citations)
        self.review = RowsModel([
            Column(self.tr("Answer review"), lambda r: r["item"], 30, stretch=True),
            Column(self.tr("Value"), lambda r: r["value"], 10),
        ], self)
        self.review_table = make_table(self.review)
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.structured = StructuredPanel()

        self.commands = self.install_commands(
            (*VERIFY_ACTIONS, *VIEWER_ACTIONS), {"verify.review_cycle": (self.review_table,)})
        self.pane.viewer.connect_commands(self.commands)
        self._connect()
        self._init_sample()
        self._lay_out()
        self.show_others(False)
        self._update_actions()

    # -- layout and wiring -------------------------------------------------------------------
    def _lay_out(self) -> None:
        fields = QWidget()
        form = QFormLayout(fields)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Claim (F2)"), self.claim_text)
        form.addRow(self.tr("Rationale (W)"), self.rationale)
        claims_box = QWidget()
        claims_layout = QVBoxLayout(claims_box)
        claims_layout.setContentsMargins(0, 0, 0, 0)
        claims_layout.addWidget(self.claims_table, 1)
        claims_layout.addWidget(fields)
        self.claim_tabs = QTabWidget()
        self.claim_tabs.addTab(claims_box, self.tr("Claims"))
        self.claim_tabs.addTab(self.structured, self.tr("Structured answer (D)"))
        self.claim_tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.case_view, self.tr("Case"))
        self.tabs.addTab(self.answers_table, self.tr("All answers (O)"))
        self.tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        left = QSplitter(Qt.Orientation.Vertical)
        parts: tuple[tuple[QWidget, int], ...] = (
            (self.tabs, 2), (self.answer_view, 2), (self.claim_tabs, 3))
        for widget, stretch in parts:
            left.addWidget(widget)
            left.setStretchFactor(left.count() - 1, stretch)
        left.setSizes([1800, 1800, 3000])
        right = QSplitter(Qt.Orientation.Vertical)
        for widget, stretch in ((self.pane, 4), (self.citations_table, 1),
                                (self.review_table, 2)):
            right.addWidget(widget)
            right.setStretchFactor(right.count() - 1, stretch)
        right.setSizes([4000, 1200, 2400])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([1100, 900])
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.sample_note)
        layout.addWidget(split, 1)
        layout.addWidget(self.empty)

    def _connect(self) -> None:
        c = self.commands
        for action_id, verdict in VERDICT_KEYS.items():
            c[action_id].triggered.connect(lambda _c=False, v=verdict: self.set_verdict(v))
        c["verify.next"].triggered.connect(lambda: self.step_claim(+1))
        c["verify.previous"].triggered.connect(lambda: self.step_claim(-1))
        c["verify.next_answer"].triggered.connect(lambda: self.step_answer(+1))
        c["verify.previous_answer"].triggered.connect(lambda: self.step_answer(-1))
        c["verify.show_others"].toggled.connect(self.show_others)
        c["verify.rationale"].triggered.connect(lambda: self._edit_field(self.rationale))
        c["verify.edit_claim"].triggered.connect(lambda: self._edit_field(self.claim_text))
        c["verify.split_claim"].triggered.connect(self.split_claim)
        c["verify.merge_claims"].triggered.connect(self.merge_claim)
        c["verify.delete_claim"].triggered.connect(self.delete_claim)
        c["verify.add_claim"].triggered.connect(self.add_claim)
        c["verify.next_context"].triggered.connect(lambda: self.step_context(+1))
        c["verify.next_pane"].triggered.connect(self.next_pane)
        c["verify.previous_context"].triggered.connect(lambda: self.step_context(-1))
        c["verify.add_evidence"].triggered.connect(self.add_evidence)
        c["verify.remove_evidence"].triggered.connect(self.remove_evidence)
        c["verify.next_citation"].triggered.connect(self.step_citation)
        for action_id, support in (("verify.citation_yes", "yes"),
                                   ("verify.citation_partly", "partly"),
                                   ("verify.citation_no", "no")):
            c[action_id].triggered.connect(lambda _c=False, s=support: self.set_support(s))
        c["verify.review"].triggered.connect(self.focus_review)
        c["verify.answers"].triggered.connect(self.toggle_answers)
        self.answers_table.activated.connect(self._open_listed_answer)
        c["verify.review_cycle"].triggered.connect(self.cycle_review)
        c["verify.calibration"].triggered.connect(self.open_calibration)
        self._connect_structured()
        self.claims_table.selectionModel().currentRowChanged.connect(self._on_claim)
        self.citations_table.selectionModel().currentRowChanged.connect(
            lambda *_: None if self._filling else self._show_answer_text())
        self.rationale.editingFinished.connect(self._save_rationale)
        # Enter ends the reason: the keyboard goes back to the claims, so the next verdict
        # key is a verdict and not a letter typed into the reason
        self.rationale.returnPressed.connect(self.claims_table.setFocus)
        self.claim_text.returnPressed.connect(self._save_claim_text)
        for field in (self.rationale, self.claim_text):
            field.installEventFilter(self)

    def _connect_structured(self) -> None:
        """D shows the structured answer; F / Shift+F move, V confirms, Shift+V overrules."""
        c, panel = self.commands, self.structured
        c["verify.structured"].triggered.connect(self.focus_structured)
        for action_id, step in (("verify.next_field", +1), ("verify.previous_field", -1)):
            c[action_id].triggered.connect(lambda _c=False, s=step: self.step_field(s))
        for action_id, overrule in (("verify.confirm_field", False),
                                    ("verify.overrule_field", True)):
            c[action_id].triggered.connect(lambda _c=False, o=overrule: bind_review(
                panel, self.ctx.undo.run, structured_ops.review_field_outcome, o, self._hint))
        c["verify.check_structured"].triggered.connect(
            lambda: self.ctx.undo.run(structured_ops.check_structured))

    def step_field(self, step: int) -> None:
        """Show the structured answer and select its next (+1) / previous (-1) field."""
        self.focus_structured()
        self.structured.step_field(step)

    def focus_structured(self) -> None:
        """Show the structured-answer tab and put the keyboard in its tree."""
        self.claim_tabs.setCurrentWidget(self.structured)
        self.structured.tree.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Esc in the claim or rationale field goes back to the claims (the rationale is
        saved, the claim's text edit dropped)."""
        if (event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Escape
                and watched in (self.rationale, self.claim_text)):
            if watched is self.claim_text:
                claim = self.current_claim()
                self.claim_text.setText("" if claim is None else claim["text"])
            self.claims_table.setFocus()
            return True
        return super().eventFilter(watched, event)

    # -- section -----------------------------------------------------------------------------
    def focus_widget(self) -> QWidget:
        return self.claims_table

    def apply_changes(self, changes: Changes) -> None:
        if changes.touches("documents") or "*" in changes.rows:
            self.pane.forget()  # a document's pages or passage span may have changed
        super().apply_changes(changes)

    def refresh(self) -> None:
        store = self.store
        if store is None:
            return
        if self.context is None and not self._queue and self.sample_judge is None:
            self._open_first(store)
            return
        keep_claim = self.claim_id()
        keep_answer = self.answer_id()
        self._loader.cancel()
        self._set_queue(self.claim_queue_rows())
        self._install_overview(store.answers_overview())
        if keep_answer is not None and keep_answer in self.answer_order:
            # claims added, split, merged or removed: read the answer again, keep the place
            self._reload_answer(keep_claim, keep_row=current_row(self.claims_table))
        elif keep_claim is not None and keep_claim in self._queue_index:
            self.go_to_claim(keep_claim)
        else:
            first = next((q for q in self.queue if q["verdict"] is None), None)
            if first is not None:
                self.go_to_claim(int(first["id"]))
            elif self.answer_order:
                self.show_answer(self.answer_order[0])
            else:
                self.show_answer(None)

    def _show_empty(self, has_answers: bool) -> None:
        self.empty.setText("" if has_answers else self.tr(
            "No run has generated answers in this gold set yet: import a run with its answers "
            "to verify them claim by claim."))
        self.empty.setVisible(not has_answers)

    def clear(self) -> None:
        self._loader.cancel()
        self._set_queue([])
        self.answer_order, self.context, self._prefetched = [], None, None
        self._set_overview([])
        self.claims.set_rows([])
        self.citations.set_rows([])
        self.review.set_rows([])
        for view in (self.case_view, self.answer_view):
            view.clear()
        self.pane.clear()
        self.header.clear()
        # the editable fields too: an old claim's text must not wait there to be saved
        self._rationale_claim = None
        for field in (self.claim_text, self.rationale):
            field.clear()
            field.setModified(False)
        self._update_actions()

    # -- where we are ------------------------------------------------------------------------
    def answer_id(self) -> int | None:
        """The answer shown."""
        return None if self.context is None else int(self.context["id"])

    def current_claim(self) -> Row | None:
        """The selected claim's row."""
        return self.claims.row_at(current_row(self.claims_table))

    def claim_id(self) -> int | None:
        """The selected claim."""
        claim = self.current_claim()
        return None if claim is None else int(claim["id"])

    def go_to_claim(self, claim_id: int) -> None:
        """Show the claim's answer and select the claim."""
        self.ensure_queue()
        index = self._queue_index.get(claim_id)
        if index is None:
            return
        item = self.queue[index]
        if item["answer_id"] != self.answer_id():
            self.show_answer(int(item["answer_id"]), claim_id)
        else:
            row = next((i for i, c in enumerate(self.claims.rows) if c["id"] == claim_id), 0)
            select_row(self.claims_table, row)

    def show_answer(self, answer_id: int | None, claim_id: int | None = None) -> None:
        """Show one answer (None: nothing) and select ``claim_id`` (else its first unverified
        claim, else its first)."""
        self._save_rationale()
        self.context, prepared = None, None
        if self.store is not None and answer_id is not None:
            try:
                prepared = self.read_answer(answer_id)
                self.context = prepared.context
            except NotFound:
                self.context = None
        self.context_index = 0
        self._fill_answer(claim_id, structured=prepared.structured if prepared else None,
                          prepared=prepared)
        if self.context is not None:
            self.prefetch_after(int(self.context["id"]))

    def _reload_answer(self, keep_claim: int | None, keep_row: int = -1) -> None:
        store, answer_id = self.store, self.answer_id()
        if store is None or answer_id is None:
            return
        try:
            self.context = store.answer_context(answer_id)
        except NotFound:
            self.schedule_refresh()
            return
        self._fill_answer(keep_claim, keep_context=True, keep_row=keep_row,
                          structured=store.structured_answer(answer_id))

    def _fill_answer(self, claim_id: int | None, keep_context: bool = False,
                     keep_row: int = -1, structured: Row | None = None,
                     prepared: Prepared | None = None) -> None:
        """Show ``self.context`` (with what ``prepared`` made ready of it).  Rows are
        replaced in place, not reset: the tables keep their header and scroll bar."""
        self.answer_filled()
        context = self.context
        if context is None:
            self.claims.set_rows([])
            self.citations.set_rows([])
            self.review.set_rows([])
            for view in (self.case_view, self.answer_view):
                view.clear()
            self.pane.clear()
            self.structured.show_answer(None)
            self._show_header()
            self._update_actions()
            return
        self._filling = True
        self.structured.show_answer(structured)
        self._show_case(prepared.case_html if prepared else None)
        claims = context["claims"]
        self.claims.replace_rows(claims)
        keep_citation = current_row(self.citations_table) if keep_context else 0
        self.citations.replace_rows(context["citations"])
        select_row(self.citations_table, max(keep_citation, 0))
        keep_review = current_row(self.review_table)
        self.review.replace_rows(prepared.review if prepared else review_items(context),
                                 changed_only=True)  # mostly the same rows
        select_row(self.review_table, max(keep_review, 0))
        row = next((i for i, c in enumerate(claims) if c["id"] == claim_id), None)
        if row is None and keep_row >= 0:
            row = min(keep_row, len(claims) - 1)  # the claim was deleted: stay in place
        if row is None:
            row = next((i for i, c in enumerate(claims) if c["verdict"] is None), 0)
        if claims:
            select_row(self.claims_table, row)
        self._filling = False
        self._on_claim(keep_context=keep_context)

    def _on_claim(self, *_args: object, keep_context: bool = False) -> None:
        if self._filling:
            return  # _fill_answer calls it once when done
        claim = self.current_claim()
        if self._rationale_claim is not None and (
                claim is None or claim["id"] != self._rationale_claim):
            self._save_rationale()
        self._rationale_claim = None if claim is None else int(claim["id"])
        self.claim_shown()
        self.rationale.setText("" if claim is None else claim["rationale"])
        self.rationale.setModified(False)
        self.claim_text.setText("" if claim is None else claim["text"])
        if claim is not None and claim["evidence"] and not keep_context and self.context:
            index = self.pane.index_for(self.store, self.context["contexts"],
                                        int(claim["evidence"][0]["document_id"]))
            if index is not None:
                self.context_index = index
        self._show_answer_text()
        self._show_context()
        self._show_header()
        self._update_actions()

    def _show_case(self, html: str | None = None) -> None:
        """The case pane (``html``: rendered beforehand, when the answer was prepared)."""
        if self.context is not None:
            set_html(self.case_view, html if html is not None else
                     case_html(self.context) + outcomes_html(self.context))

    def _render_answer_text(self) -> None:
        if self.context is None:
            return
        citation = self.citations.row_at(current_row(self.citations_table))
        marker = None if citation is None or citation["span_start"] is None else (
            int(citation["span_start"]), int(citation["span_end"]))
        set_html(self.answer_view, answer_html(self.context["text"], self.context["claims"],
                                               self.claim_id(), self._shown_verdict, marker))

    def _show_header(self) -> None:
        context = self.context
        self.show_sample_status()
        if context is None:
            self.header.setText("")
            return
        left = self._unverified
        row = current_row(self.claims_table)
        position = (self.tr("claim %1 of %2").replace("%1", str(row + 1))
                    .replace("%2", str(self.claims.rowCount())) if row >= 0
                    else self.tr("no claim"))
        self.header.setText(
            f"<b>{esc(context['run'])} · {esc(context['case_key'])}</b> — {esc(position)} — "
            + esc(self.tr("%n claim(s) left to verify in the sample", "", left)
                  if self.sample_judge else
                  self.tr("%n claim(s) left to verify in all runs", "", left)))

    # -- contexts and evidence ----------------------------------------------------------------
    def _show_context(self) -> None:
        contexts = self.context["contexts"] if self.context else []
        if not contexts:
            self.pane.show_nothing(self.tr("The run retrieved no document for this case."))
            return
        self.context_index = max(0, min(self.context_index, len(contexts) - 1))
        doc = contexts[self.context_index]
        where = (self.tr("Context %1 of %2 (rank %3): ").replace("%3", str(doc["rank"]))
                 if doc["rank"] is not None else
                 self.tr("Context %1 of %2 (cited, not retrieved): "))
        role = str(self.context.get("role") or "") if self.context else ""
        self.pane.show_context(self.store, doc, where.replace(
            "%1", str(self.context_index + 1)).replace("%2", str(len(contexts))), role,
            self.current_claim())

    def current_document(self) -> Row | None:
        """The context (retrieved document) shown."""
        contexts = self.context["contexts"] if self.context else []
        return contexts[self.context_index] if 0 <= self.context_index < len(contexts) else None

    def step_context(self, step: int) -> None:
        """Show the next (+1) or previous (-1) retrieved document."""
        contexts = self.context["contexts"] if self.context else []
        if contexts:
            self.context_index = (self.context_index + step) % len(contexts)
            self._show_context()

    def next_pane(self) -> None:
        """Move the keyboard focus: claims → context → answer → claims."""
        order: list[QWidget] = [self.claims_table, self.pane.focus_target(), self.answer_view]
        focused = next((i for i, w in enumerate(order) if w.hasFocus()), -1)
        order[(focused + 1) % len(order)].setFocus(Qt.FocusReason.ShortcutFocusReason)

    # -- verdicts and moving --------------------------------------------------------------------
    def set_verdict(self, verdict: str | None) -> None:
        """Give the current claim a verdict (with the rationale typed), then move on."""
        claim = self.current_claim()
        if claim is None:
            return
        claim_id = int(claim["id"])
        self.ensure_queue()  # before writing: the worker's read would hold the commit
        rationale = self.rationale.text() if self.rationale.isModified() else None
        self.rationale.setModified(False)
        self.begin_key()
        try:
            changes = self.ctx.undo.run(
                lambda s: ops.set_claim_verdict(s, claim_id, verdict, rationale))
            if changes is not None and verdict is not None:
                self.sample_reviewed(next((c for c in self.claims.rows
                                           if c["id"] == claim_id), None))
                self._advance(claim_id)
        finally:
            self.end_key()

    def _advance(self, claim_id: int) -> None:
        """The next unverified claim after this one (wrapping round), else the next claim."""
        self.ensure_queue()
        start = self._queue_index.get(claim_id)
        if start is None:
            return
        total = len(self.queue)
        for offset in range(1, total if self._unverified else 1):
            item = self.queue[(start + offset) % total]
            if item["verdict"] is None:
                self.go_to_claim(int(item["id"]))
                return
        self.step_claim(+1)

    def step_claim(self, step: int) -> None:
        """Next (+1) or previous (-1) claim, crossing into the next or previous answer."""
        self.ensure_queue()
        claim_id = self.claim_id()
        place = None if claim_id is None else self._queue_index.get(claim_id)
        if place is None:
            self.step_answer(step)
            return
        index = place + step
        if 0 <= index < len(self.queue):
            self.go_to_claim(int(self.queue[index]["id"]))

    def step_answer(self, step: int) -> None:
        """Next (+1) or previous (-1) answer (including answers without claims)."""
        self.ensure_queue()
        if not self.answer_order:
            return
        current = self.answer_id()
        index = self.answer_order.index(current) + step if current in self.answer_order else 0
        if 0 <= index < len(self.answer_order):
            self.show_answer(self.answer_order[index])

    def show_others(self, shown: bool) -> None:
        """Reveal (True) or hide others' and the judges' verdicts."""
        self.others_revealed = shown
        self.claims_table.setColumnHidden(OTHERS_COLUMN, not shown)
        action = self.commands["verify.show_others"]
        if action.isChecked() != shown:
            action.setChecked(shown)
        if self.claims.rowCount():
            self.claims.dataChanged.emit(
                self.claims.index(0, 0),
                self.claims.index(self.claims.rowCount() - 1, self.claims.columnCount() - 1))
        self._show_answer_text()

    def _mine(self, claim: Row) -> bool:
        store = self.store
        return claim["assessor"] in (None, "") or (store is not None
                                                   and claim["assessor"] == store.assessor)

    def _shown_verdict(self, claim: Row) -> str | None:
        if claim["verdict"] is not None and not self._mine(claim) and not self.others_revealed:
            return "hidden"
        verdict: str | None = claim["verdict"]
        return verdict

    def _verdict_text(self, claim: Row) -> str:
        shown = self._shown_verdict(claim)
        if shown == "hidden":
            return self.tr("set by another (B)")
        return labels.verdict(shown or "unverified")

    def _others_text(self, claim: Row) -> str:
        parts = [f"{name}: {labels.verdict(verdict) if verdict else raw}"
                 for name, verdict, raw in claim["judges"] if not self.sample_blind(claim)]
        if claim["verdict"] is not None and not self._mine(claim):
            parts.insert(0, f"{claim['assessor']}: {labels.verdict(claim['verdict'])}")
        return ", ".join(parts)

    # -- judges ----------------------------------------------------------------------------------
    def open_calibration(self) -> None:
        """The agreement with an automatic judge; Enter on a disagreement goes to it."""
        store = self.store
        if store is None:
            return
        judges = store.judge_names()
        if not judges:
            self._hint(self.tr("No automatic judge's verdicts in this file yet: import them "
                               "with rag-annotator import FILE ragchecker (or ragas-verdicts, "
                               "deepeval-verdicts) SOURCE --run RUN."))
            return
        from rag_annotator.reports.inputs import calibration_report  # the dialog's only

        report: Callable[[str], Row] = lambda judge: calibration_report(store, judge)  # noqa: E731
        dialog = CalibrationDialog(judges, report, self)
        accepted = dialog.exec()
        self.window().activateWindow()
        self.claims_table.setFocus(Qt.FocusReason.OtherFocusReason)
        if accepted and dialog.chosen is not None:
            self.go_to_claim(dialog.chosen)

    # -- helpers -----------------------------------------------------------------------------------
    def _hint(self, text: str) -> None:
        window = self.window()
        status = getattr(window, "statusBar", None)
        if callable(status):
            status().showMessage(text, 8000)

    def _update_actions(self) -> None:
        has_claim = self.current_claim() is not None
        has_answer = self.context is not None
        for action_id, action in self.commands.items():
            if action_id in VERDICT_KEYS or action_id in (
                    "verify.rationale", "verify.edit_claim", "verify.split_claim",
                    "verify.merge_claims", "verify.delete_claim", "verify.add_evidence",
                    "verify.remove_evidence"):
                action.setEnabled(has_claim)
            elif action_id in ("verify.calibration", "verify.sample_queue",
                               "verify.draw_sample"):
                action.setEnabled(self.store is not None)
            else:
                action.setEnabled(has_answer)

