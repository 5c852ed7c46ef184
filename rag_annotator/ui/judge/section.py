"""Judge section: judging progress per case, and a keyboard judging panel.

Left, every case with its pool size and how much of it is judged (counts from
:class:`~rag_annotator.ui.progress.JudgingProgress`, filled in the background on big files).
Right, the selected case's pool: the expert reads each document and labels the pair with one
key (1 relevant, 0 not relevant, U back to unjudged; 2 and 3 on a graded scale); J and K move
between pairs, N and P between cases.  After a label the panel moves to the next pair nobody
has labelled yet, then to the next pair this assessor has not judged (double judging), then
on to the next case with work left.  The pool is listed by document key, without ranks
or scores, so the label reflects the document rather than a run's opinion of it.

Judging is blind by default: the other assessors' labels and the effective label they make
are hidden, so the assessor's label is their own reading and not agreement with a colleague.
B ("Show others' labels", a toggle) reveals them, e.g. to discuss a disputed pair.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.domain.judging_ops import set_adjudication, set_judgment
from rag_annotator.ui import actions, labels
from rag_annotator.ui.after_paint import AfterPaint
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.judge.assignment import AssignmentMode, cant_judge_pair
from rag_annotator.ui.judge.pool_reads import PoolReads
from rag_annotator.ui.judge.sample_blind import SampleQueue
from rag_annotator.ui.judge.timing import ActiveClock
from rag_annotator.ui.judge.widgets import (
    JudgeProgressModel,
    NoteField,
    TermHighlighter,
    counting_text,
    show_guidelines,
)
from rag_annotator.ui.look import colours
from rag_annotator.ui.look.flow import FlowLayout
from rag_annotator.ui.look.zoom import RowsFloor, WrappedFloor
from rag_annotator.ui.models import Column, RowsModel, one_line
from rag_annotator.ui.pages.keys import VIEWER_ACTIONS
from rag_annotator.ui.pages.viewer import DocumentViewer
from rag_annotator.ui.progress import JUDGING_TABLES
from rag_annotator.ui.sections.base import (
    Section,
    current_row,
    esc,
    make_table,
    select_row,
)
from rag_annotator.ui.text_views import QuietLabel, set_plain_text

Row = dict[str, Any]
JUDGE_ACTIONS = actions.ids_in("judge")
LABEL_ACTIONS = ("judge.relevant", "judge.not_relevant", "judge.grade2", "judge.grade3",
                 "judge.unjudged", "judge.cant_judge")
MOVE_ACTIONS = ("judge.previous", "judge.next", "judge.previous_case", "judge.next_case",
                "judge.settle")
VIEW_ACTIONS = ("judge.show_others", "judge.reference", "judge.guidelines", "judge.adjudicate",
                "judge.pool")
#: Pool columns hidden while judging blind (see the module docstring).
BLIND_COLUMNS = (3, 4)
# The pool's column of this assessor's label (of the decision, in the adjudication queue).
MINE_COLUMN = 2


class JudgeSection(SampleQueue, Section):
    """Judging progress and the keyboard judging panel."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.max_grade = 1
        self.progress_model = JudgeProgressModel(ctx.progress, self)
        self.cases = make_table(self.progress_model)
        self.counting = QuietLabel()  # both change at every key: no window re-layout
        self.pool = RowsModel([
            Column(self.tr("Document"), lambda r: r["key"], 14),
            Column(self.tr("Title"), lambda r: one_line(r["title"]), 24, stretch=True),
            Column(self.tr("Your label"), self._mine, 12),
            Column(self.tr("Others' labels"), self._others, 18),
            Column(self.tr("Effective label"), self._effective, 12),
        ], self)
        self.pairs = make_table(self.pool)
        RowsFloor(self.pairs, 5)  # the pairs stay in view when the buttons wrap
        self.reads = PoolReads(lambda: self.store)  # pools and texts, the next ones read ahead
        self._ahead_due = False
        self._after_paint = AfterPaint(self.pairs.viewport(), self._read_ahead)
        self._loading = False  # a pool is being replaced: its rows' pair is shown after
        self.others_revealed = False
        self._revealed_before = False
        self.adjudicating = False
        self.question = QLabel()
        self.question.setWordWrap(True)
        self.question.setTextFormat(Qt.TextFormat.RichText)
        self.reference = QLabel()
        for label in (self.question, self.reference):
            WrappedFloor(label)  # its lines count in the pane's minimum
        self.reference.setWordWrap(True)
        self.reference.setTextFormat(Qt.TextFormat.RichText)
        self.reference.setVisible(False)
        self.banner = QLabel(self.tr(
            "Adjudication queue: disputed pairs only, every label shown; your label settles "
            "the pair for everyone. D to leave."))
        self.banner.setWordWrap(True)
        colours.paint_banner(self.banner, "attention_banner")
        self.banner.setVisible(False)
        self.position = QuietLabel()
        self.guidelines = QTextBrowser()
        self.guidelines.setOpenExternalLinks(False)
        self.guidelines.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.guidelines.setVisible(False)
        self.document = QPlainTextEdit()
        self.document.setReadOnly(True)
        self.document.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.highlighter = TermHighlighter(self.document.document(), self.document)
        # the document's PDF page (the retrieved passage highlighted) or its text: F7
        self.viewer = DocumentViewer(ctx.pages, self.document, self.highlighter)
        self.note = NoteField()
        self.note.setPlaceholderText(self.tr(
            "Note on this pair (E to write, Enter to save, Esc to go back)"))
        self.note.returnPressed.connect(self._save_note)
        self.note.dropped.connect(self._drop_note)
        self.clock = ActiveClock(self, follow=True)  # the active seconds of each judgment
        self.assignment = AssignmentMode(ctx, self.clock, self)
        self._connect_commands()
        self._lay_out()
        self.cases.selectionModel().currentRowChanged.connect(self._on_case)
        self.pairs.selectionModel().currentRowChanged.connect(self._on_pair)
        ctx.hub.assessor_changed.connect(self._on_assessor)
        ctx.progress.updated.connect(self._show_counting)
        ctx.progress.completed.connect(self._show_counting)
        self._update_actions()

    def _connect_commands(self) -> None:
        """The section's actions (keys, menus, buttons) and what they do."""
        self.commands = self.install_commands((*JUDGE_ACTIONS, *VIEWER_ACTIONS))
        self.viewer.connect_commands(self.commands)
        grades = {"judge.relevant": 1, "judge.not_relevant": 0, "judge.grade2": 2,
                  "judge.grade3": 3, "judge.unjudged": None}
        for action_id, grade in grades.items():
            self.commands[action_id].triggered.connect(
                lambda _checked=False, g=grade: self.judge(g))
        self.commands["judge.next"].triggered.connect(lambda: self.step_pair(+1))
        self.commands["judge.previous"].triggered.connect(lambda: self.step_pair(-1))
        self.commands["judge.next_case"].triggered.connect(lambda: self.step_case(+1))
        self.commands["judge.previous_case"].triggered.connect(lambda: self.step_case(-1))
        self.commands["judge.note"].triggered.connect(self._edit_note)
        self.commands["judge.cant_judge"].triggered.connect(self.cant_judge)
        self.commands["judge.settle"].triggered.connect(self.jump_to_settling)
        self.commands["judge.show_others"].toggled.connect(self.show_others)
        self.commands["judge.reference"].toggled.connect(self.reference.setVisible)
        self.commands["judge.guidelines"].toggled.connect(self._show_guidelines)
        self.commands["judge.adjudicate"].toggled.connect(self.set_adjudicating)
        self.commands["judge.pool"].triggered.connect(self.choose_pool)
        self._connect_sample_queue()
        self.show_others(False)

    def _button_rows(self) -> tuple[QWidget, QWidget, QWidget]:
        """One tool button per action, in three rows: labels, moves, views."""
        # Three short rows (labels; moves and position; views) keep the panel narrow enough
        # to leave the progress table its columns.
        rows = self._button_row_widgets = (QWidget(), QWidget(), QWidget())  # rows wrap
        label_row, move_row, view_row = (FlowLayout(row) for row in rows)
        self._buttons: list[QToolButton] = []
        # Button texts short enough for one row; menus and the cheat sheet say it in full.
        short = {"judge.show_others": self.tr("Others"), "judge.reference": self.tr("Reference"),
                 "judge.guidelines": self.tr("Guidelines"), "judge.adjudicate": self.tr("Disputes"),
                 "judge.pool": self.tr("Pool…"), "judge.previous": self.tr("Previous"),
                 "judge.next": self.tr("Next"), "judge.previous_case": self.tr("Previous case"),
                 "judge.next_case": self.tr("Next case"), "judge.settle": self.tr("Settles most"),
                 "judge.cant_judge": self.tr("Can’t judge…")}
        for action_id in (*LABEL_ACTIONS, *MOVE_ACTIONS, *VIEW_ACTIONS):
            button = QToolButton()
            button.setDefaultAction(self.commands[action_id])
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            declared = actions.spec(action_id)
            text = short.get(action_id, actions.tr(declared.label))
            if declared.shortcuts:
                text = f"{text}  [{actions.shortcut_text(declared)}]"
            self.commands[action_id].setIconText(text)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self._buttons.append(button)
            row = (label_row if action_id in LABEL_ACTIONS
                   else move_row if action_id in MOVE_ACTIONS else view_row)
            row.addWidget(button)
        return rows

    def _lay_out(self) -> None:
        """Cases on the left; the pool, the buttons, the guidelines and the document on the
        right."""
        label_row, move_row, view_row = self._button_rows()
        self._left = left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.cases, 1)
        left_layout.addWidget(self.counting)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.banner)
        top_layout.addWidget(self.sample_banner)
        top_layout.addWidget(self.assignment.header)
        top_layout.addWidget(self.question)
        top_layout.addWidget(self.reference)
        top_layout.addWidget(self.pairs, 1)
        top_layout.addWidget(self.position)
        for row_widget in (label_row, move_row, view_row):
            top_layout.addWidget(row_widget)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.viewer, 1)
        bottom_layout.addWidget(self.note)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(top)
        right.addWidget(self.guidelines)
        right.addWidget(bottom)
        right.setStretchFactor(0, 2)
        right.setStretchFactor(1, 1)
        right.setStretchFactor(2, 3)
        right.setSizes([2000, 1000, 3000])
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([1000, 1000])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)

    # -- section -------------------------------------------------------------------------------
    def focus_widget(self) -> QWidget:
        return self.document if self.assignment.active else self.pairs

    def refresh(self) -> None:
        store = self.store
        if store is None:
            return
        self.max_grade = int(store.meta("max_grade", "1") or 1)
        self.reads.forget(None)
        self.load_sampled_pairs(store)
        self._load_guidelines()
        if self._show_mode(self.assignment.load(store)):
            return
        keep = self.case_id()
        self.progress_model.store = store
        self.progress_model.reload()
        row = self.progress_model.row_of(keep) if keep is not None else None
        if row is None:
            row = self._next_case_with_work(-1)
        select_row(self.cases, row if row is not None else 0)
        self._show_counting()
        self._update_actions()

    def clear(self) -> None:
        self.reads.forget(None)
        self.assignment.clear()
        self._show_mode(False)
        self.progress_model.set_store(None)
        self.pool.set_rows([])
        self.question.clear()
        self.document.clear()
        self.viewer.clear()
        self.position.clear()
        self._update_actions()

    def apply_changes(self, changes: Changes) -> None:
        self.reads.forget(changes)
        self.sample_changes(changes)
        if self.assignment.active:
            self.assignment.apply_changes(changes)
            return
        if changes.reshapes("cases"):
            self.schedule_refresh()
            return
        if changes.touches("cases"):
            self.progress_model.refresh_ids(changes.ids("cases"))
        if changes.touches("meta"):
            self.max_grade = int(self.store.meta("max_grade", "1") or 1) if self.store else 1
            self._load_guidelines()
            if changes.action in ("set_pool", "undo", "redo", "revert"):
                self._reload_pool(keep=self.document_id())
                return
        if (changes.touches(*JUDGING_TABLES, "documents", "assessors")
                and not self._update_pairs(changes)):
            self._reload_pool(keep=self.document_id())

    # -- current case and pair -----------------------------------------------------------------
    def case_id(self) -> int | None:
        """The case being judged."""
        return self.progress_model.id_at(current_row(self.cases))

    def document_id(self) -> int | None:
        """The document of the current pair."""
        row = self.pool.row_at(current_row(self.pairs))
        return None if row is None else int(row["document_id"])

    def judge(self, grade: int | None) -> None:
        """Label the current pair for this session's assessor, then go to the next to do."""
        if self.assignment.active:
            return self.assignment.judge(grade)
        case_id, document_id = self.case_id(), self.document_id()
        if case_id is None or document_id is None or self.store is None:
            return
        if grade is not None and grade > self.max_grade:
            return
        if self.adjudicating:
            changes = self.ctx.undo.run(
                lambda s: set_adjudication(s, case_id, document_id, grade))
        else:
            changes = self.ctx.undo.run(lambda s: set_judgment(
                s, case_id, document_id, grade, seconds=self.clock.seconds()))
        if changes is not None:
            self._advance()

    def step_case(self, step: int) -> None:
        """Next (+1) or previous (-1) case (in the adjudication queue: with a dispute)."""
        if self.assignment.active:
            return self.assignment.next_to_do(step)
        row = current_row(self.cases)
        count = self.progress_model.rowCount()
        target = row + step
        if self.adjudicating:
            rows = range(row + step, count if step > 0 else -1, step)
            target = next((r for r in rows if self._has_dispute(r)), -1)
        if 0 <= target < count:
            select_row(self.cases, target)

    def jump_to_settling(self) -> bool:
        """Go to the unjudged pair that settles the most undetermined metric values (see
        :func:`~rag_annotator.ui.judge.settling.jump_to_settling`)."""
        from rag_annotator.ui.judge.settling import jump_to_settling

        return jump_to_settling(self)

    def set_adjudicating(self, on: bool) -> None:
        """Enter (True) or leave the adjudication queue.

        In the queue the pool shows only disputed (and already adjudicated) pairs, every
        assessor's label is shown — an adjudicator settles a disagreement they can see — and
        the label keys record an adjudication instead of a judgment.
        """
        if on == self.adjudicating:
            return
        self.adjudicating = on
        if on:
            self._revealed_before = self.others_revealed
            self.show_others(True)
        else:
            self.show_others(self._revealed_before)
        self.commands["judge.show_others"].setEnabled(not on)
        self.banner.setVisible(on)
        # the keys record a decision for everyone, not this assessor's label: the column
        # says which, or a settled pair would still read "Your label: Unjudged"
        self.pool.columns[MINE_COLUMN] = replace(
            self.pool.columns[MINE_COLUMN],
            title=self.tr("Your decision") if on else self.tr("Your label"))
        self.pool.headerDataChanged.emit(Qt.Orientation.Horizontal, MINE_COLUMN, MINE_COLUMN)
        action = self.commands["judge.adjudicate"]
        if action.isChecked() != on:
            action.setChecked(on)
        if on and not self._has_dispute(current_row(self.cases)):
            row = self._next_case_with_work(-1)
            if row is not None:
                select_row(self.cases, row)
                return
        self._reload_pool(keep=self.document_id())

    def choose_pool(self) -> None:
        """Which runs and how deep: the pool dialog, applied as one undoable operation."""
        from rag_annotator.ui.judge.dialogs import choose_pool

        choose_pool(self.ctx, self)

    def step_pair(self, step: int) -> None:
        """Next (+1) or previous (-1) pair, crossing into the next or previous case."""
        if self.assignment.active:
            return self.assignment.step(step)
        if self.in_sample_queue():
            return self.sample_step(step)
        row = current_row(self.pairs) + step
        if 0 <= row < self.pool.rowCount():
            select_row(self.pairs, row)
            return
        case_row = current_row(self.cases) + step
        if 0 <= case_row < self.progress_model.rowCount():
            select_row(self.cases, case_row)
            if step < 0:
                select_row(self.pairs, self.pool.rowCount() - 1)
            else:
                select_row(self.pairs, 0)

    def show_others(self, shown: bool) -> None:
        """Reveal (True) or hide the other assessors' labels and the effective label.

        The columns are hidden rather than emptied: a hidden column is never painted, so its
        text is not even computed, and revealing needs no query.
        """
        self.others_revealed = shown
        for column in BLIND_COLUMNS:
            self.pairs.setColumnHidden(column, not shown)
        action = self.commands["judge.show_others"]
        if action.isChecked() != shown:
            action.setChecked(shown)

    def cant_judge(self) -> None:
        """X: "can't judge" the pair, with a reason (it stays unjudged), then the next."""
        if self.assignment.active:
            return self.assignment.cant_judge()
        if cant_judge_pair(self.ctx, self, self.case_id(), self.document_id()) is not None:
            self._advance()

    def _show_mode(self, assignment: bool) -> bool:
        """Assignment mode (the expert's queue) or the cases and their pools."""
        for widget in (self._left, self.pairs, self.note):
            widget.setVisible(not assignment)
        self._update_actions()
        return assignment

    # -- internals -----------------------------------------------------------------------------
    def _mine(self, row: Row) -> str:
        """This assessor's label; in the adjudication queue, the decision ('—' before)."""
        if self.adjudicating:
            decided = row.get("adjudicated")
            return "—" if decided is None else labels.grade(decided, self.max_grade)
        return labels.grade(row["my_grade"], self.max_grade)

    def _others(self, row: Row) -> str:
        return ", ".join(f"{name}: {labels.grade(grade, self.max_grade)}"
                         for name, grade in self.visible_others(self.case_id(), row))

    def _effective(self, row: Row) -> str:
        if self.sample_hidden(self.case_id(), row):  # a judge's sampled pair (issue 22)
            return "—"
        if row["disputed"]:
            return labels.judgment("disputed")
        return labels.grade(row["effective_grade"], self.max_grade)

    def _advance(self) -> None:
        """The next pair of this case without the assessor's label, else the next case's."""
        if self.in_sample_queue():
            return self.sample_advance()
        pair_row, case_row = self._next_target()
        if pair_row is not None:
            select_row(self.pairs, pair_row)
        elif case_row is not None:
            select_row(self.cases, case_row)

    def _next_target(self) -> tuple[int | None, int | None]:
        """Where :meth:`_advance` goes: (pool row, None) in this case, else (None, the next
        case's row with work), else (the next row or None, None)."""
        rows = self.pool.rows
        start = current_row(self.pairs)
        for first_pass in (True, False):
            for offset in range(1, len(rows) + 1):
                row = (start + offset) % len(rows)
                if row != start and self._to_do(rows[row], first_pass=first_pass):
                    return row, None
            if self.adjudicating:
                break
        case_row = self._next_case_with_work(current_row(self.cases))
        if case_row is not None:
            return None, case_row
        return (start + 1 if start + 1 < len(rows) else None), None

    def _read_ahead(self) -> None:
        """Once the pair is painted: read the next pair's text and the next case's pool."""
        self._ahead_due = False
        if self.store is None or self.assignment.active or self.in_sample_queue():
            return
        pair_row, case_row = self._next_target()
        pair = self.pool.row_at(pair_row) if pair_row is not None else None
        after = self._next_case_with_work(current_row(self.cases)) if case_row is None \
            else case_row
        next_case = self.progress_model.id_at(after) if after is not None else None
        self.reads.read_ahead(int(pair["document_id"]) if pair else None, next_case)
        if pair is not None:  # its highlighting and page too: the key then only shows them
            self.highlighter.prepare(self.reads.text(int(pair["document_id"])))
        self._prefetch_page(int(pair["document_id"]) if pair is not None
                            else self.reads.first_document(next_case) if next_case else None)
        first = self.reads.first_text(next_case) if next_case is not None else None
        if first is not None and after is not None:
            case = self.progress_model.row_at(after) or {}
            self.highlighter.prepare(first, str(case.get("question") or ""))

    def _prefetch_page(self, document_id: int | None) -> None:
        """Render ahead the page the next key will show (see ``pages/render.py``)."""
        if document_id is not None and self.store is not None:
            self.viewer.prefetch(self.reads.structure(document_id), self.store.path)

    def _update_pairs(self, changes: Changes) -> bool:
        """Refresh in place the pool rows whose labels ``changes`` set; False when the pool
        must be read again instead (see :meth:`PoolReads.fresh_pairs`)."""
        case_id = self.case_id()
        fresh = None if case_id is None else self.reads.fresh_pairs(case_id, self.pool.rows,
                                                                      changes)
        if fresh is None:
            return False
        for place, row in fresh:
            self.pool.update_row(place, row)
        return True

    def _to_do(self, row: Row, *, first_pass: bool = True) -> bool:
        """Whether a pool row waits for this assessor: first the pairs nobody labelled (no
        effective label) they have not judged either — they add to what the gold set knows;
        then (``first_pass`` False) any they have not judged.  Adjudicating: a dispute."""
        if self.adjudicating:
            return bool(row["disputed"])
        if first_pass:
            return row["my_grade"] is None and row["effective_grade"] is None
        return row["my_grade"] is None

    def _has_dispute(self, case_row: int) -> bool:
        case_id = self.progress_model.id_at(case_row)
        counts = self.ctx.progress.row(case_id) if case_id is not None else None
        return counts is not None and counts["disputed"] > 0

    def _next_case_with_work(self, after: int) -> int | None:
        """The next case with a pair nobody labelled (and this assessor has not judged),
        else the next one with a pair this assessor has not judged; adjudicating, the next
        case with a dispute."""
        model = self.progress_model
        passes = (True,) if self.adjudicating else (True, False)
        for first_pass in passes:
            for row in range(after + 1, model.rowCount()):
                if self.adjudicating:
                    if self._has_dispute(row):
                        return row
                    continue
                case_id = model.id_at(row)
                counts = self.ctx.progress.row(case_id) if case_id is not None else None
                if counts is None or counts["mine"] >= counts["pairs"]:
                    continue
                if not first_pass or counts["unjudged"] > 0:
                    return row
        return None

    def _load_guidelines(self) -> None:
        show_guidelines(self.guidelines, self.store)

    def _show_guidelines(self, shown: bool) -> None:
        self.guidelines.setVisible(shown)

    def _edit_note(self) -> None:
        if self.document_id() is not None:
            self.note.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.note.selectAll()

    def _save_note(self) -> None:
        """Store the note on the current pair (keeping its label), then back to judging."""
        case_id, document_id = self.case_id(), self.document_id()
        pair = self.pool.row_at(current_row(self.pairs))
        if case_id is None or document_id is None or pair is None:
            return
        text = self.note.text().strip()
        if text != (pair.get("my_note") or ""):
            grade = pair["my_grade"]
            self.ctx.undo.run(lambda s: set_judgment(s, case_id, document_id, grade, text))
        self.pairs.setFocus(Qt.FocusReason.OtherFocusReason)

    def _drop_note(self) -> None:
        """Esc in the note field: the stored note back, the keyboard back on the pairs."""
        pair = self.pool.row_at(current_row(self.pairs))
        self.note.setText((pair or {}).get("my_note") or "")
        self.pairs.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_case(self) -> None:
        self._reload_pool(keep=None)

    def _on_assessor(self, _name: str) -> None:
        self.reads.forget(None)
        self._reload_pool(self.document_id())

    def _reload_pool(self, keep: int | None) -> None:
        store, case_id = self.store, self.case_id()
        if store is None or case_id is None:
            self.pool.set_rows([])
            self.question.clear()
            self._on_pair()
            return
        rows = self.reads.pool(case_id)
        if self.adjudicating:
            rows = [r for r in rows if r["disputed"] or r["adjudicated"] is not None]
        case = self.progress_model.row_at(current_row(self.cases)) or {}
        self.question.setText(f"<b>{esc(case.get('key', ''))}</b> — "
                              f"{esc(case.get('question', ''))}")
        self.highlighter.set_question(str(case.get("question") or ""))
        self._show_reference(case_id)
        self._loading = True
        try:
            self.pool.replace_rows(rows)
        finally:
            self._loading = False
        target = next((i for i, r in enumerate(rows) if r["document_id"] == keep), None)
        if target is None:
            target = next((i for i, r in enumerate(rows) if self._to_do(r)), None)
        if target is None:
            target = next((i for i, r in enumerate(rows)
                           if self._to_do(r, first_pass=False)), 0)
        if rows:
            select_row(self.pairs, target)
        elif self.adjudicating:
            totals = self.ctx.progress.totals() or {}
            self.document.setPlainText(
                self.tr("No disputed pair in this case (N for the next case with one).")
                if totals.get("disputed") else
                self.tr("No disputed pair in the gold set: nothing to adjudicate. Disputes "
                        "appear when assessors disagree (relevant vs not relevant), e.g. "
                        "after merging a colleague's file."))
        else:
            self.document.setPlainText(self.tr(
                "No document has been retrieved for this case yet and it has no expected "
                "source: there is nothing to judge."))
        self._on_pair()

    def _show_reference(self, case_id: int) -> None:
        detail = self.reads.detail(case_id)
        answer = str(detail.get("reference_answer") or "").strip()
        if detail.get("expected_behaviour") in ("abstain", "escalate") and not answer:
            answer = labels.behaviour(detail.get("expected_behaviour"))
        title, missing = self.tr("Reference answer:"), self.tr("(none written yet)")
        self.reference.setText(f"<i>{esc(title)}</i> {esc(answer) if answer else esc(missing)}")

    def _on_pair(self) -> None:
        if self._loading:
            return
        self.clock.restart()
        store = self.store
        row = current_row(self.pairs)
        pair = self.pool.row_at(row)
        if store is not None and pair is not None:
            document_id = int(pair["document_id"])
            text = self.reads.text(document_id)
            prefix = f"{pair['key']} — {pair['title']}\n\n"
            set_plain_text(self.document, prefix + text)
            self.viewer.show_structure(self.reads.structure(document_id), store.path, text,
                                       prefix=prefix)
            self.position.setText(self.tr("Pair %1 of %2").replace("%1", str(row + 1))
                                  .replace("%2", str(self.pool.rowCount())))
            if not self.note.hasFocus():
                self.note.setText(str(pair.get("my_note") or ""))
        else:
            self.viewer.clear()
            self.position.clear()
            self.note.clear()
        self._update_actions()
        if store is not None and pair is not None and not self._ahead_due:
            # Once the pair is painted, while the assessor reads it (ui/after_paint.py: a
            # timer may run before the repaint, and delay the very paint it means to spare).
            self._ahead_due = True
            self._after_paint.arm()

    def _update_actions(self) -> None:
        has_pair = self.document_id() is not None
        has_cases = self.progress_model.rowCount() > 0
        self.note.setEnabled(has_pair and not self.adjudicating)
        for action_id, action in self.commands.items():
            if action_id == "judge.show_others":
                action.setEnabled(has_cases and not self.adjudicating)
            elif action_id in (*VIEW_ACTIONS[1:], "judge.sample_queue"):
                action.setEnabled(self.store is not None)
            elif action_id in ("judge.next", "judge.previous", "judge.next_case",
                               "judge.previous_case"):
                action.setEnabled(has_cases)
            elif action_id == "judge.settle":
                action.setEnabled(has_cases and not self.adjudicating)
            elif action_id == "judge.note":
                action.setEnabled(has_pair and not self.adjudicating)
            elif action_id == "judge.grade2":
                action.setEnabled(has_pair and self.max_grade >= 2)
            elif action_id == "judge.grade3":
                action.setEnabled(has_pair and self.max_grade >= 3)
            else:
                action.setEnabled(has_pair)
        if self.assignment.active:
            for action_id, action in self.commands.items():
                action.setEnabled(self.assignment.allows(action_id))
        for button in self._buttons:
            button.setVisible(button.defaultAction().isEnabled()
                              or button.defaultAction().objectName() not in
                              ("judge.grade2", "judge.grade3"))

    def _show_counting(self, *_args: object) -> None:
        self.counting.setText(counting_text(self.ctx.progress))
