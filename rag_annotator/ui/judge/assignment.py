"""The Judge section in assignment mode: an expert's own queue of pairs, in the campaign's
order, with no setup.

An *assignment file* (``store.assignment_info()`` is not None; written by File → Team → Hand
Out Assignments… or ``rag-annotator assign``) opens the Judge section without the cases and
their pools: "Your assignment: 37 / 400" on top, then the current pair — the question, the
document — and the same label keys as ever (1 / 0 / 2 / 3 / U), J / K to move, N to the next
pair not done, X "can't judge" (asks the reason; the pair stays unjudged).  The pairs come in
the assignment's order (seeded per assessor, so rank position cannot anchor the expert), and
nothing shows a rank, a score, another assessor's label or the label the expert gave a pair
before it comes back as a blind control repeat.

The queue is read once (:meth:`load`); a key writes one judgment (``team_ops.judge_assigned``
with the active seconds of :class:`~rag_annotator.ui.judge.timing.ActiveClock`) and updates
the slot in memory, so the key path makes no query besides the write.  The next pair's
question and document are read ahead while the expert reads the current one.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.domain.team_ops import cannot_judge, cannot_judge_assigned, judge_assigned
from rag_annotator.errors import KnownError
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.judge.timing import ActiveClock
from rag_annotator.ui.look import colours
from rag_annotator.ui.sections.base import esc

translate = QCoreApplication.translate
Row = dict[str, Any]
#: What assignment mode (the expert's queue, no setup, blind) does not offer.
NOT_IN_ASSIGNMENTS = ("judge.settle", "judge.note", "judge.show_others", "judge.adjudicate",
                      "judge.pool")
#: Operations whose changes the panel already applied in memory when it made them.
OWN_ACTIONS = ("judge_assigned", "cannot_judge")



class CantJudgeDialog(QDialog):
    """Why the expert cannot judge a pair: a common reason or their own words."""

    def __init__(self, current: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Can’t judge this pair"))
        prompt = QLabel(self.tr("Why can’t you judge this pair? The pair stays unjudged and "
                                "your reason goes back to the lead with your file."))
        prompt.setWordWrap(True)
        self.reason = QComboBox()
        self.reason.setEditable(True)
        self.reason.addItems([
            self.tr("Outside my expertise"), self.tr("The document is unreadable or empty"),
            self.tr("The question is unclear"), self.tr("The document is in another language"),
        ])
        self.reason.setCurrentText(current)
        self.reason.setMinimumWidth(460)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.save = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.reason.editTextChanged.connect(
            lambda text: self.save.setEnabled(bool(text.strip())))
        self.save.setEnabled(bool(current.strip()))
        layout = QVBoxLayout(self)
        layout.addWidget(prompt)
        layout.addWidget(self.reason)
        layout.addWidget(buttons)
        self.reason.setFocus()

    def accept(self) -> None:
        if self.text:
            super().accept()

    @property
    def text(self) -> str:
        return self.reason.currentText().strip()


def ask_reason(parent: QWidget, current: str = "") -> str | None:
    """The reason typed or picked (None: cancelled)."""
    focus = QApplication.focusWidget()
    dialog = CantJudgeDialog(current, parent)
    try:
        return dialog.text if dialog.exec() else None
    finally:
        dialog.deleteLater()
        if focus is not None:  # back to judging, keys and all
            focus.window().activateWindow()
            focus.setFocus(Qt.FocusReason.OtherFocusReason)


class AssignmentMode(QObject):
    """One expert's queue (module docstring), shown in the Judge section's own widgets (the
    question, reference, position and document of ``view``) under a ``header``.  ``active``
    while an assignment file is open."""

    def __init__(self, ctx: UiContext, clock: ActiveClock, view: Any) -> None:
        super().__init__(view)
        self.ctx, self.clock, self.view = ctx, clock, view
        self.active = False
        self.max_grade = 1
        self.campaign = ""
        self.queue: list[Row] = []
        self.index = -1
        self._cases: dict[int, Row] = {}
        self._texts: dict[int, str] = {}
        self._own = False
        self._names: dict[str, str] = {}
        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setWordWrap(True)
        colours.paint_banner(self.header, "info_banner")
        self.header.setVisible(False)
        self._prefetch = QTimer(self)
        self._prefetch.setSingleShot(True)
        self._prefetch.setInterval(0)
        self._prefetch.timeout.connect(self._read_ahead)

    # -- loading -----------------------------------------------------------------------------
    def load(self, store: GoldSetStore) -> bool:
        """Read the queue of an assignment file; False (inactive) for any other file."""
        info = store.assignment_info()
        self.active = info is not None
        self._cases.clear()
        self._texts.clear()
        if info is None:
            self.clear()
            return False
        self.max_grade = int(store.meta("max_grade", "1") or 1)
        self.campaign = info["name"]
        if not self.header.isVisibleTo(self.view):
            self.header.setVisible(True)
            self._rename_moves(True)
            QTimer.singleShot(0, self._compact)
        keep = self.queue[self.index]["id"] if 0 <= self.index < len(self.queue) else None
        self.queue = store.assignment_queue()
        target = next((i for i, r in enumerate(self.queue) if r["id"] == keep), None)
        if target is None:
            target = next((i for i, r in enumerate(self.queue) if not r["done"]), 0)
        self.show_slot(target if self.queue else -1)
        return True

    def _compact(self) -> None:
        """Without the pool table the pair's header needs only its own height: give the rest
        to the document (the section's vertical splitter: header block, guidelines,
        document)."""
        top = self.header.parentWidget()
        splitter = top.parentWidget() if top is not None else None
        if not isinstance(splitter, QSplitter) or not self.active:
            return
        sizes = splitter.sizes()
        wanted = top.sizeHint().height() if top is not None else 0
        if len(sizes) == 3 and sizes[0] > wanted:
            splitter.setSizes([wanted, sizes[1], sizes[2] + sizes[0] - wanted])

    def _rename_moves(self, on: bool) -> None:
        """N / P go to the next / previous pair not done here (there are no cases to walk
        through): their buttons say so while the mode lasts."""
        commands = getattr(self.view, "commands", {})
        for action_id, text in (("judge.next_case", translate("AssignmentMode", "Next to do")),
                                ("judge.previous_case",
                                 translate("AssignmentMode", "Previous to do"))):
            action = commands.get(action_id)
            if action is None:
                continue
            if on:
                self._names[action_id] = action.iconText()
                key = action.iconText().rpartition("  ")[2]
                action.setIconText(f"{text}  {key}")
            elif action_id in self._names:
                action.setIconText(self._names.pop(action_id))

    def clear(self) -> None:
        self.active = False
        self._rename_moves(False)
        self.header.setVisible(False)
        self.queue, self.index = [], -1
        self._cases.clear()
        self._texts.clear()

    def apply_changes(self, changes: Changes) -> None:
        """Another change than this panel's own key (undo, redo, a collect…): read the queue
        again."""
        if self._own and changes.action in OWN_ACTIONS:
            return
        store = self.ctx.hub.store
        if store is None or not changes.touches("judgments", "control_judgments",
                                                "cannot_judge", "assignments", "documents",
                                                "cases", "meta"):
            return
        self.load(store)
        pairs = changes.pairs_touched() if changes.action in ("undo", "redo") else None
        if pairs:  # Ctrl+Z after a key: back to the pair it labelled, to label it again
            slots = [i for i, r in enumerate(self.queue)
                     if (int(r["case_id"]), int(r["document_id"])) in pairs]
            open_slots = [i for i in slots if not self.queue[i]["done"]]
            if open_slots or slots:
                self.show_slot((open_slots or slots)[0])

    # -- keys --------------------------------------------------------------------------------
    def allows(self, action_id: str) -> bool:
        """Whether the Judge section's action is enabled in assignment mode."""
        if action_id in NOT_IN_ASSIGNMENTS:
            return False
        if action_id in ("judge.reference", "judge.guidelines"):
            return True
        if action_id in ("judge.grade2", "judge.grade3"):
            return self.current() is not None and self.max_grade >= int(action_id[-1])
        return self.current() is not None

    def current(self) -> Row | None:
        return self.queue[self.index] if 0 <= self.index < len(self.queue) else None

    def judge(self, grade: int | None) -> None:
        """Label the current slot with its active seconds, then the next slot not done."""
        slot = self.current()
        if slot is None or (grade is not None and grade > self.max_grade):
            return
        seconds = self.clock.seconds()
        changes = self._run(lambda s: judge_assigned(s, slot["id"], grade, seconds))
        if changes is None:
            return
        slot.update(grade=grade, seconds=seconds, cannot_judge=None if grade is not None
                    else slot["cannot_judge"])
        slot["done"] = slot["grade"] is not None or slot["cannot_judge"] is not None
        self._advance()

    def cant_judge(self) -> None:
        """Ask the reason, record "can't judge" (the pair stays unjudged), go on."""
        slot = self.current()
        if slot is None:
            return
        reason = ask_reason(self.view, slot["cannot_judge"] or "")
        if reason is None:
            return
        if self._run(lambda s: cannot_judge_assigned(s, slot["id"], reason)) is None:
            return
        slot.update(cannot_judge=reason, grade=None, done=True)
        self._advance()

    def step(self, delta: int) -> None:
        """J / K: the next or previous slot, done or not."""
        if self.queue:
            self.show_slot(max(0, min(len(self.queue) - 1, self.index + delta)))

    def next_to_do(self, delta: int = 1) -> None:
        """N / P: the next (previous) slot not done."""
        n = len(self.queue)
        for offset in range(1, n + 1):
            i = (self.index + delta * offset) % n
            if not self.queue[i]["done"]:
                self.show_slot(i)
                return

    def _run(self, operation: Any) -> Changes | None:
        self._own = True
        try:
            return self.ctx.undo.run(operation)
        finally:
            self._own = False

    def _advance(self) -> None:
        """The next slot not done after this one (wrapping), else stay and say it is done."""
        n = len(self.queue)
        for offset in range(1, n + 1):
            i = (self.index + offset) % n
            if not self.queue[i]["done"]:
                self.show_slot(i)
                return
        self.show_slot(self.index)

    # -- showing -----------------------------------------------------------------------------
    def show_slot(self, index: int) -> None:
        """Show slot ``index`` (its question and document; no rank, no earlier label)."""
        store = self.ctx.hub.store
        self.index = index
        self.clock.restart()
        self._show_header()
        slot = self.current()
        view = self.view
        if store is None or slot is None:
            view.question.clear()
            view.position.clear()
            view.document.setPlainText(
                translate("AssignmentMode", "This assignment holds no pair."))
            view.viewer.clear()
            return
        case = self._case(store, int(slot["case_id"]))
        view.highlighter.set_question(str(case.get("question") or ""))
        view.question.setText(f"<b>{esc(case.get('key', ''))}</b> — "
                              f"{esc(case.get('question', ''))}")
        answer = str(case.get("reference_answer") or "").strip()
        title = translate("AssignmentMode", "Reference answer:")
        missing = translate("AssignmentMode", "(none written yet)")
        view.reference.setText(f"<i>{esc(title)}</i> {esc(answer or missing)}")
        state = (translate("AssignmentMode", "can’t judge: %1").replace("%1", slot["cannot_judge"])
                 if slot["cannot_judge"] else
                 translate("AssignmentMode", "your label: %1").replace(
                     "%1", labels.grade(slot["grade"], self.max_grade)))
        view.position.setText(translate("AssignmentMode", "Pair %1 of %2 · %3")
                              .replace("%1", str(slot["position"]))
                              .replace("%2", str(len(self.queue))).replace("%3", state))
        text = self._text(store, int(slot["document_id"]))
        prefix = f"{slot['document']}\n\n"
        view.document.setPlainText(prefix + text)
        view.viewer.show_structure(store.document_structure(int(slot["document_id"])),
                                   store.path, text, prefix=prefix)
        self._prefetch.start()

    def _show_header(self) -> None:
        done = sum(1 for r in self.queue if r["done"])
        blocked = sum(1 for r in self.queue if r["cannot_judge"])
        text = translate("AssignmentMode", "Your assignment: %1 / %2").replace(
            "%1", str(done)).replace(
            "%2", str(len(self.queue)))
        extra = (translate("AssignmentMode", " (of which %1 can’t judge)")
                 .replace("%1", str(blocked)) if blocked else "")
        finished = (" — " + translate("AssignmentMode", "finished: hand your file back to the lead")
                    if self.queue and done == len(self.queue) else "")
        campaign = getattr(self, "campaign", "")
        named = f" · {esc(campaign)}" if campaign else ""
        self.header.setText(f"<b>{esc(text)}</b>{esc(extra)}{esc(finished)}{named}")

    def _case(self, store: GoldSetStore, case_id: int) -> Row:
        if case_id not in self._cases:
            try:
                self._cases[case_id] = store.case_detail(case_id)
            except KnownError:
                self._cases[case_id] = {}
        return self._cases[case_id]

    def _text(self, store: GoldSetStore, document_id: int) -> str:
        if document_id not in self._texts:
            if len(self._texts) > 64:
                self._texts.clear()
            self._texts[document_id] = store.document_text(document_id)
        return self._texts[document_id]

    def _read_ahead(self) -> None:
        """Read the next slot's case and document now, off the key path."""
        store = self.ctx.hub.store
        n = len(self.queue)
        if store is None or not self.active or n == 0:
            return
        nxt = next((self.queue[(self.index + k) % n] for k in range(1, n + 1)
                    if not self.queue[(self.index + k) % n]["done"]), None)
        if nxt is not None:
            self._case(store, int(nxt["case_id"]))
            self._text(store, int(nxt["document_id"]))


def cant_judge_pair(ctx: UiContext, parent: QWidget, case_id: int | None,
                    document_id: int | None) -> Changes | None:
    """X outside an assignment: "can't judge" the current pair for this session's assessor."""
    if case_id is None or document_id is None:
        return None
    reason = ask_reason(parent)
    if reason is None:
        return None
    return ctx.undo.run(lambda s: cannot_judge(s, case_id, document_id, reason))
