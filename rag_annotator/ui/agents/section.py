"""Agents section: review an agent's trajectories against their cases (seed 000, issue 9).

Left: the trajectories of the chosen run (or all runs), in review order (run, case key), with
the automatic verdicts and the review marks; below, the review of the current one.  Right:
the case's request, the **timeline** of tool calls (a step that broke an invariant is red,
the broken check's words beside it), every check (held / broken / cannot tell), the final
state beside the expected one, the budgets and the final answer.

The keys (``ui/agents/keys.py``) act on the current trajectory: Enter accepts the automatic checks
and goes to the next trajectory to review, Y / N and A / X mark success and path (a mark that
overrules the automatic verdict asks its reason), U clears, E writes a note, J / K move.
Every change is one domain operation: in the history, undone by Ctrl+Z.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain import agent_ops
from rag_annotator.domain.agent_checks import EQUAL, Evaluation
from rag_annotator.domain.changes import Changes
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import actions
from rag_annotator.ui.agents.label_box import LabelBox
from rag_annotator.ui.agents.prepared import AfterPaint, Prepared, ReadAhead, step_html
from rag_annotator.ui.agents.widgets import (
    ChecksModel,
    StateModel,
    StepsModel,
    TrajectoriesModel,
    VerdictDelegate,
    bold,
    describe,
    review_html,
    reviewed,
    yes_no,
)
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.line_dialog import LineDialog
from rag_annotator.ui.sections.base import (
    Section,
    current_row,
    esc,
    make_table,
    placeholder_label,
    search_field,
    select_row,
)

Row = dict[str, Any]
Index = QModelIndex | QPersistentModelIndex
AGENT_ACTIONS = actions.ids_in("agents")
AGENT_TABLES = ("trajectories", "trajectory_steps", "trajectory_reviews", "cases", "runs",
                "assessors")
MARK_ACTIONS = {"agents.success_yes": ("task_success", True),
                "agents.success_no": ("task_success", False),
                "agents.path_yes": ("path_acceptable", True),
                "agents.path_no": ("path_acceptable", False)}
class AgentsSection(Section):
    """The keyboard review of agent trajectories."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.queue: list[Row] = []  # the run's trajectories: id, marks (review order)
        self._queue_index: dict[int, int] = {}
        self.detail: Row | None = None
        self.evaluation: Evaluation | None = None
        self._own: int | None = None  # the trajectory this section's operation is changing
        self._ahead = ReadAhead()  # the trajectories the next keys show, rendered
        self._after_paint = AfterPaint(self._read_ahead, self)
        self._left = 0  # trajectories of the queue not reviewed (the count line)
        self._shown_step_html = ""
        self.loaded_once = False  # the run chooser takes its first value once

        self.run = QComboBox()
        self.run.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.run.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.to_review = QCheckBox(self.tr("To review only (T)"))
        self.to_review.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.count = QLabel()
        self.search = search_field(self.tr("Case key…"))
        self.search.setMinimumWidth(160)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(250)
        self.model = TrajectoriesModel(self)
        self.table = make_table(self.model)
        self.verdict_delegate = VerdictDelegate(self.table)
        for column in (4, 5):  # Success, Path: their colour stays visible when selected
            self.table.setItemDelegateForColumn(column, self.verdict_delegate)
        self.review = QLabel()
        self.review.setTextFormat(Qt.TextFormat.RichText)
        self.review.setWordWrap(True)
        self.review.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.review.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.keys_hint = QLabel(self.tr(
            "Enter: accept the automatic checks and go on · Y / N: success · A / X: path · "
            "U: clear · E: note · J / K: next / previous · Shift+J: next to review · "
            "H / L: steps · T: to review only · R: run"))
        self.keys_hint.setWordWrap(True)
        self.keys_hint.setEnabled(False)

        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setWordWrap(True)
        self.request = QLabel()
        self.request.setTextFormat(Qt.TextFormat.RichText)
        self.request.setWordWrap(True)
        self.request.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.steps = StepsModel(self)
        self.steps_table = make_table(self.steps)
        self.steps_table.setWordWrap(False)
        self.step_detail = QTextBrowser()
        self.step_detail.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.step_detail.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self.checks = ChecksModel(self)
        self.checks_table = make_table(self.checks)
        self.state = StateModel(self)
        self.state_table = make_table(self.state)
        for view in (self.checks_table, self.state_table):
            view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.budgets = QLabel()
        self.budgets.setTextFormat(Qt.TextFormat.RichText)
        self.budgets.setWordWrap(True)
        self.answer = QTextBrowser()
        self.answer.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.empty = placeholder_label("")

        # Enter belongs to the lists only (in a dialog's field it saves the field).
        self.commands = self.install_commands(
            AGENT_ACTIONS, {"agents.accept": (self.table, self.steps_table)})
        self._connect()
        self._lay_out()
        self._update_actions()

    # -- layout and wiring -------------------------------------------------------------------
    def _lay_out(self) -> None:
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Run:")))
        bar.addWidget(self.run)
        bar.addWidget(self.to_review)
        bar.addWidget(self.search)
        bar.addStretch(1)
        bar.addWidget(LabelBox(self.count))
        left = QSplitter(Qt.Orientation.Vertical)
        review_box = QWidget()
        review_layout = QVBoxLayout(review_box)
        review_layout.setContentsMargins(0, 0, 0, 0)
        review_title = QLabel(bold(self.tr("Review")))
        review_layout.addWidget(review_title)
        review_layout.addWidget(LabelBox(self.review), 1)
        review_layout.addWidget(self.keys_hint)
        left.addWidget(self.table)
        left.addWidget(review_box)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 2)
        left.setSizes([3000, 2000])

        timeline = QWidget()
        timeline_layout = QVBoxLayout(timeline)
        timeline_layout.setContentsMargins(0, 0, 0, 0)
        # a key's new texts: laid out again only when they need another size
        timeline_layout.addWidget(LabelBox(self.header))
        timeline_layout.addWidget(LabelBox(self.request))
        timeline_layout.addWidget(QLabel(bold(self.tr("Steps"))))
        timeline_layout.addWidget(self.steps_table, 1)
        timeline_layout.addWidget(self.step_detail)
        checks_box = QWidget()
        checks_layout = QVBoxLayout(checks_box)
        checks_layout.setContentsMargins(0, 0, 0, 0)
        checks_layout.addWidget(QLabel(bold(self.tr("Checks"))))
        checks_layout.addWidget(self.checks_table, 1)
        state_box = QWidget()
        state_layout = QVBoxLayout(state_box)
        state_layout.setContentsMargins(0, 0, 0, 0)
        state_layout.addWidget(QLabel(bold(self.tr("Final state"))))
        state_layout.addWidget(self.state_table, 1)
        answer_box = QWidget()
        answer_layout = QVBoxLayout(answer_box)
        answer_layout.setContentsMargins(0, 0, 0, 0)
        answer_layout.addWidget(LabelBox(self.budgets))
        answer_layout.addWidget(QLabel(bold(self.tr("Final answer"))))
        answer_layout.addWidget(self.answer, 1)
        right = QSplitter(Qt.Orientation.Vertical)
        # stacked, each as wide as the pane: a check's words and a state's values read whole
        for widget, stretch in ((timeline, 8), (checks_box, 5), (state_box, 3),
                                (answer_box, 2)):
            right.addWidget(widget)
            right.setStretchFactor(right.count() - 1, stretch)
        right.setSizes([8000, 5000, 2500, 2000])
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(left)
        self.split.addWidget(right)
        self.split.setStretchFactor(0, 2)
        self.split.setStretchFactor(1, 3)
        self.split.setSizes([2000, 3000])
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.split, 1)
        layout.addWidget(self.empty, 1)

    def _connect(self) -> None:
        c = self.commands
        c["agents.accept"].triggered.connect(self.accept)
        for action_id, (mark, value) in MARK_ACTIONS.items():
            c[action_id].triggered.connect(
                lambda _c=False, m=mark, v=value: self.set_mark(m, v))
        c["agents.clear"].triggered.connect(self.clear_review)
        c["agents.note"].triggered.connect(self.edit_note)
        c["agents.next"].triggered.connect(lambda: self.step(+1))
        c["agents.previous"].triggered.connect(lambda: self.step(-1))
        c["agents.next_to_review"].triggered.connect(lambda: self.go_to_next_to_review(False))
        c["agents.to_review_only"].toggled.connect(self._set_to_review)
        c["agents.choose_run"].triggered.connect(self.choose_run)
        self.run.activated.connect(
            lambda _i: self.table.setFocus(Qt.FocusReason.OtherFocusReason))
        c["agents.next_step"].triggered.connect(lambda: self.step_in_timeline(+1))
        c["agents.previous_step"].triggered.connect(lambda: self.step_in_timeline(-1))
        self.steps_table.selectionModel().currentRowChanged.connect(self._show_step)
        self.to_review.toggled.connect(c["agents.to_review_only"].setChecked)
        self.run.currentIndexChanged.connect(self._on_run)
        self._debounce.timeout.connect(lambda: self._load_queue(self.trajectory_id()))
        self.search.textChanged.connect(self._debounce.start)
        self.search.returnPressed.connect(self._search_done)
        self.table.selectionModel().currentRowChanged.connect(self._show_current)

    # -- section -----------------------------------------------------------------------------
    def focus_widget(self) -> QWidget:
        return self.table

    def find_field(self) -> QLineEdit:
        return self.search

    def _search_done(self) -> None:
        self._debounce.stop()
        self._load_queue(self.trajectory_id())
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def refresh(self) -> None:
        store = self.store
        if store is None:
            return
        keep = self.trajectory_id()
        self._ahead.forget()
        runs = store.trajectory_run_names()
        chosen = self.run.currentData()
        self.run.blockSignals(True)
        self.run.clear()
        self.run.addItem(self.tr("All runs"), None)
        for name in runs:
            self.run.addItem(name, name)
        # first shown: the first run with trajectories to review ("All runs" stays a choice)
        if not chosen and runs and not self.loaded_once:
            chosen = self._first_run_to_review(store, runs)
        self.loaded_once = True
        self.run.setCurrentIndex(max(self.run.findData(chosen), 0) if chosen else 0)
        self.run.blockSignals(False)
        has = bool(runs)
        self.split.setVisible(has)
        self.empty.setVisible(not has)
        if not has:
            self.empty.setText(self._empty_text(store))
        self._load_queue(keep)

    @staticmethod
    def _first_run_to_review(store: GoldSetStore, runs: list[str]) -> str:
        """The first run (by name) with a trajectory not reviewed yet, else the first run."""
        left = {q["run"] for q in store.trajectory_queue() if not reviewed(q)}
        return next((run for run in runs if run in left), runs[0])

    def _empty_text(self, store: GoldSetStore) -> str:
        if not store.agent_case_ids():
            return self.tr(
                "No agent case in this gold set yet.\n\nAdd one in the Gold set section "
                "(Kind: Agent), with its expected final state and the invariants of an "
                "acceptable path, then import the agent's trajectories: Runs → Import a "
                "Run…, or rag-annotator import FILE trajectories SOURCE --run NAME.")
        return self.tr(
            "No trajectory to review yet.\n\nImport the agent's trajectories: Runs → Import "
            "a Run…, or rag-annotator import FILE trajectories SOURCE --run NAME.")

    def clear(self) -> None:
        self.loaded_once = False
        self._ahead.forget()
        self.queue, self._queue_index, self._left = [], {}, 0
        self.model.queue_ids = []
        self.model.set_store(None)
        self.run.blockSignals(True)
        self.run.clear()
        self.run.blockSignals(False)
        self._show(None)

    def cares(self, changes: Changes) -> bool:
        return changes.touches(*AGENT_TABLES)

    def apply_changes(self, changes: Changes) -> None:
        if not self.cares(changes):
            return
        if (not self.active or changes.reshapes("trajectories", "runs", "cases")
                or "*" in changes.rows):
            self.schedule_refresh()
            return
        # marks, notes, a case's expectations: the same list, rows re-read
        store = self.store
        if store is None:
            return
        own, self._own = self._own, None
        if (own is not None and own in self._queue_index
                and not changes.touches("cases", "trajectory_steps", "trajectories")):
            self._ahead.forget(own)
            # this section's own review: its queue entry, its row and the review shown,
            # from the review row alone (re-reading 10,000 trajectories' marks cost ~30 ms,
            # the trajectory and a repaint of every pane as much again)
            self._own_review(store, own)
            return
        self._ahead.forget()
        before = {q["id"]: (q["task_success"], q["path_acceptable"]) for q in self.queue}
        self._set_queue(store.trajectory_queue(self._run_name()))
        if changes.touches("cases", "trajectory_steps", "trajectories"):
            self.model.refresh_all()
        else:
            changed = [q["id"] for q in self.queue
                       if before.get(q["id"]) != (q["task_success"], q["path_acceptable"])]
            current = self.trajectory_id()
            self.model.refresh_ids(changed + ([current] if current is not None else []))
        self._show(self.trajectory_id())
        self._show_count()

    # -- the list ------------------------------------------------------------------------------
    def _run_name(self) -> str | None:
        data = self.run.currentData()
        return str(data) if data else None

    def _set_queue(self, queue: list[Row]) -> None:
        self.queue = queue
        self._queue_index = {int(q["id"]): i for i, q in enumerate(queue)}
        self._left = sum(1 for q in queue if not reviewed(q))

    def _own_review(self, store: GoldSetStore, trajectory_id: int) -> None:
        """The review key's own change: its list row and count line, and the review pane,
        from the one review row it wrote (the list row is patched, not read again)."""
        review = store.trajectory_review(trajectory_id)
        entry = self.queue[self._queue_index[trajectory_id]]
        self._left -= int(not reviewed(entry))
        marks = {"task_success": (review or {}).get("task_success"),
                 "path_acceptable": (review or {}).get("path_acceptable")}
        entry.update(marks)
        self._left += int(not reviewed(entry))
        self.model.patch_row(trajectory_id, {**marks,
                                             "reviewed_by": (review or {}).get("assessor")})
        if (self.detail is not None and self.evaluation is not None
                and int(self.detail["id"]) == trajectory_id):
            self.detail["review"] = review
            self.review.setText(review_html(self.detail, self.evaluation))
            self._update_actions()
        self._show_count()

    def _run(self, trajectory_id: int, operation: Callable[[GoldSetStore], Changes]
             ) -> Changes | None:
        """Run a review operation on ``trajectory_id`` through the undo controller."""
        self._own = trajectory_id
        try:
            return self.ctx.undo.run(operation)
        finally:
            self._own = None

    def _load_queue(self, keep: int | None) -> None:
        store = self.store
        if store is None:
            return
        self._set_queue(store.trajectory_queue(self._run_name()))
        only = self.commands["agents.to_review_only"].isChecked()
        text = self.search.text().strip().lower()
        found = [q for q in self.queue if not text or text in str(q["case_key"]).lower()]
        ids = [int(q["id"]) for q in found if not (only and reviewed(q))]
        # the trajectory being reviewed stays listed when "to review only" is switched on
        if keep is not None and only and keep not in ids and any(
                q["id"] == keep for q in found):
            listed = set(ids) | {keep}
            ids = [i for i in self._queue_index if i in listed]
        self.model.queue_ids = ids
        self.model.store = store
        self.model.reload()
        # one run: its name is above the list, the family shown; all runs: the run instead
        one_run = self._run_name() is not None
        self.table.setColumnHidden(0, one_run)
        self.table.setColumnHidden(2, not one_run)
        self._show_count()
        row = self.model.row_of(keep) if keep is not None else None
        if row is None and ids:
            first = next((i for i in ids if not reviewed(self.queue[self._queue_index[i]])),
                         ids[0])
            row = self.model.row_of(first)
        if row is not None:
            select_row(self.table, row)
            self._show_current()
        else:
            self._show(None)

    def _on_run(self) -> None:
        self._load_queue(None)

    def choose_run(self) -> None:
        """Open the list of runs (Enter picks one, Esc keeps the current one)."""
        if self.run.count():
            self.run.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.run.showPopup()

    def _set_to_review(self, on: bool) -> None:
        if self.to_review.isChecked() != on:
            self.to_review.setChecked(on)
        if self.store is not None and self.loaded:
            self._load_queue(self.trajectory_id())

    def _show_count(self) -> None:
        self.count.setText(self.tr("%n trajectory(ies)", "", len(self.queue)) + " · "
                           + self.tr("%n to review", "", self._left))

    def trajectory_id(self) -> int | None:
        """The trajectory shown."""
        return self.model.id_at(current_row(self.table))

    def go_to(self, trajectory_id: int) -> bool:
        """Select ``trajectory_id`` (listing everything if the filter hides it)."""
        row = self.model.row_of(trajectory_id)
        if row is None and trajectory_id in self._queue_index:
            self.commands["agents.to_review_only"].setChecked(False)
            row = self.model.row_of(trajectory_id)
        if row is None:
            return False
        select_row(self.table, row)
        return True

    def step(self, delta: int) -> None:
        """Next (+1) or previous (-1) trajectory of the list."""
        row = current_row(self.table) + delta
        if 0 <= row < self.model.rowCount():
            select_row(self.table, row)

    def go_to_next_to_review(self, after_review: bool) -> bool:
        """The next trajectory without both marks after the current one (wrapping round).
        False, with a message, when every one is reviewed."""
        current = self.trajectory_id()
        start = self._queue_index.get(current, -1) if current is not None else -1
        total = len(self.queue)
        for offset in range(1, total + 1):
            item = self.queue[(start + offset) % total]
            if item["id"] != current and not reviewed(item):
                return self.go_to(int(item["id"]))
        self._hint(self.tr("Every trajectory of this list is reviewed.") if after_review
                   or total else self.tr("No trajectory to review."))
        return False

    # -- the current trajectory ----------------------------------------------------------------
    def _show_current(self, *_args: object) -> None:
        self._show(self.trajectory_id())

    def _show(self, trajectory_id: int | None) -> None:
        """Show ``trajectory_id``: the one read and rendered ahead when there is one (a key
        then swaps texts and rows, reading nothing), else read now."""
        ready = (self._ahead.take(self.store, trajectory_id)
                 if trajectory_id is not None else None)
        if trajectory_id is not None:
            self._after_paint.schedule()  # the next ones, read once this one is painted
        self.detail = ready.detail if ready is not None else None
        self.evaluation = ready.evaluation if ready is not None else None
        if ready is None:
            for model in (self.steps, self.checks, self.state):
                model.set_rows([])
            for label in (self.header, self.request, self.review, self.budgets):
                label.clear()
            self.answer.clear()
            self.step_detail.clear()
            self._shown_step_html = ""
            self._update_actions()
            return
        self._swap_in(ready)
        self._update_actions()

    def _swap_in(self, ready: Prepared) -> None:
        """Put a prepared trajectory in the panes: rows replaced in place (the views keep
        their headers and scroll bars), texts set where they differ."""
        position = self.tr("trajectory %1 of %2").replace(
            "%1", str(current_row(self.table) + 1)).replace("%2", str(self.model.rowCount()))
        self.header.setText(f"{ready.title} — {esc(position)}")
        self.request.setText(ready.request)
        self.steps.replace_rows(ready.steps)
        self.checks.replace_rows(ready.checks)
        self.state.replace_rows(ready.state)
        if self.state_table.toolTip() != ready.state_tip:
            self.state_table.setToolTip(ready.state_tip)
        self.budgets.setText(ready.budgets)
        if self.answer.toPlainText() != ready.answer:
            self.answer.setPlainText(ready.answer)
        if ready.first_broken is not None:
            select_row(self.steps_table, ready.first_broken)
        else:
            self.steps_table.selectionModel().clear()
        self._set_step_html(ready.step_html)  # rendered already: _show_step set the same
        self.review.setText(ready.review)

    def _read_ahead(self) -> None:
        """Once the shown trajectory is painted: read and render the ones Enter and J go to
        next (the next to review, the next in the list)."""
        store, shown = self.store, self.trajectory_id()
        start = self._queue_index.get(shown) if shown is not None else None
        if store is None or shown is None or start is None:
            return
        total = len(self.queue)
        to_review = next((int(q["id"]) for q in (self.queue[(start + k) % total]
                                                 for k in range(1, total)) if not reviewed(q)),
                         None)
        ids = [to_review] if to_review is not None else []
        below = self.model.id_at(current_row(self.table) + 1)
        if below is not None and below not in ids:
            ids.append(below)
        self._ahead.read(store, ids)

    def step_in_timeline(self, delta: int) -> None:
        """Select the next (+1) or previous (-1) step; its arguments and result show whole."""
        count = self.steps.rowCount()
        if not count:
            return
        row = current_row(self.steps_table)
        select_row(self.steps_table, 0 if row < 0 else max(0, min(count - 1, row + delta)))

    def _show_step(self, *_args: object) -> None:
        self._set_step_html(step_html(self.steps.row_at(current_row(self.steps_table))))

    def _set_step_html(self, html: str) -> None:
        if html != self._shown_step_html:
            self._shown_step_html = html
            self.step_detail.setHtml(html)

    # -- reviewing -------------------------------------------------------------------------------
    def _marks(self) -> dict[str, int | None]:
        review = (self.detail or {}).get("review") or {}
        return {"task_success": review.get("task_success"),
                "path_acceptable": review.get("path_acceptable")}

    def _automatic(self) -> dict[str, bool | None]:
        evaluation = self.evaluation
        if evaluation is None:
            return {"task_success": None, "path_acceptable": None}
        return {"task_success": evaluation.task_success,
                "path_acceptable": evaluation.path_acceptable}

    def accept(self) -> None:
        """Mark every verdict not yet marked with the automatic one (one operation), then go
        to the next trajectory to review; a verdict the checks cannot give stays for Y / N or
        A / X."""
        tid = self.trajectory_id()
        if tid is None or self.detail is None:
            return
        marks, automatic = self._marks(), self._automatic()
        todo: dict[str, Any] = {m: automatic[m] for m in marks
                                if marks[m] is None and automatic[m] is not None}
        if todo:
            if all(v is None for v in marks.values()):
                changes = self._run(tid, lambda s: agent_ops.confirm_trajectory(s, tid))
            else:
                changes = self._run(
                    tid, lambda s: agent_ops.review_trajectory(s, tid, **todo))
            if changes is None:
                return
        left = [m for m, v in self._marks().items() if v is None]
        if left:
            self._hint(self.tr("The checks cannot tell this verdict: mark task success with "
                               "Y or N, the path with A or X.") if todo == {} else self.tr(
                "Accepted; one verdict is still to mark (Y / N for success, A / X for the "
                "path)."))
            return
        self.go_to_next_to_review(True)

    def set_mark(self, mark: str, value: bool) -> None:
        """Mark task success or the path; overruling the automatic verdict asks the reason;
        the same key on the same mark clears it."""
        tid = self.trajectory_id()
        if tid is None or self.detail is None:
            return
        current = self._marks()[mark]
        automatic = self._automatic()[mark]
        reason_key = agent_ops.MARKS[mark]
        if current is not None and bool(current) == value:
            cleared: dict[str, Any] = {mark: None}
            self._run(tid, lambda s: agent_ops.review_trajectory(s, tid, **cleared))
            return
        reason: str | None = None
        if automatic is not None and automatic != value:
            reason = self.ask_reason(mark, value)
            if reason is None:
                return
        values: dict[str, Any] = {mark: value, reason_key: reason}
        self._run(tid, lambda s: agent_ops.review_trajectory(s, tid, **values))

    def ask_reason(self, mark: str, value: bool) -> str | None:
        """The reason for overruling (None: cancelled)."""
        evaluation = self.evaluation
        if mark == "task_success":
            what = self.tr("Task success: you mark it <b>%1</b>; the final state says "
                           "<b>%2</b>.")
            why = [f"{k.key}: {k.status}" for k in (evaluation.state if evaluation else ())
                   if k.status != EQUAL]
        else:
            what = self.tr("Path acceptable: you mark it <b>%1</b>; the checks say "
                           "<b>%2</b>.")
            why = [describe(c) for c in (evaluation.broken if evaluation else ())]
        text = esc(what).replace("&lt;b&gt;", "<b>").replace("&lt;/b&gt;", "</b>")
        text = text.replace("%1", esc(yes_no(value))).replace("%2", esc(yes_no(not value)))
        if why:
            text += "<br>" + "<br>".join(f"• {esc(w)}" for w in why)
        text += "<br><br>" + esc(self.tr("Why do you overrule the automatic check? (Enter "
                                         "saves, Esc cancels)"))
        dialog = LineDialog(self.tr("Overrule the automatic check"), text, required=True,
                            parent=self)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self.window().activateWindow()
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        return dialog.text if accepted else None

    def clear_review(self) -> None:
        """Remove the review of the current trajectory (undoable)."""
        tid = self.trajectory_id()
        if tid is None or not (self.detail or {}).get("review"):
            return
        self._run(tid, lambda s: agent_ops.clear_trajectory_review(s, tid))

    def edit_note(self) -> None:
        """Write the note of the current trajectory (Enter saves, Esc cancels)."""
        tid = self.trajectory_id()
        if tid is None or self.detail is None:
            return
        review = self.detail.get("review") or {}
        dialog = LineDialog(self.tr("Note on the trajectory"), esc(self.tr(
            "Note on %1 (Enter saves, Esc cancels):").replace(
            "%1", f"{self.detail['case_key']} · {self.detail['run']}")),
            str(review.get("note") or ""), required=False, parent=self)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self.window().activateWindow()
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        if accepted and dialog.text != (review.get("note") or ""):
            text = dialog.text
            self._run(tid, lambda s: agent_ops.review_trajectory(s, tid, note=text))

    # -- helpers -----------------------------------------------------------------------------------
    def _hint(self, text: str) -> None:
        window = self.window()
        status = getattr(window, "statusBar", None)
        if callable(status):
            status().showMessage(text, 8000)

    def _update_actions(self) -> None:
        has = self.detail is not None
        for action_id, action in self.commands.items():
            if action_id in ("agents.next", "agents.previous", "agents.next_to_review",
                             "agents.to_review_only", "agents.next_step",
                             "agents.previous_step", "agents.choose_run"):
                action.setEnabled(self.store is not None)
            else:
                action.setEnabled(has)
