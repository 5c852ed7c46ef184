"""Review queue: the synthetic cases a generator produced, accepted, edited or rejected by
keyboard (A, E, R; J/K to move).  Near-duplicates of existing cases are flagged and the
similar case is shown beside the generated one.  Every decision is kept (``case_reviews``)
and is one undoable operation; after a decision the queue moves to the next pending case.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain import goldset_ops
from rag_annotator.errors import NotFound
from rag_annotator.ui import actions, labels
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.goldset.case_editor import CaseEditor
from rag_annotator.ui.look import colours
from rag_annotator.ui.models import Column, RowsModel, local_time, one_line
from rag_annotator.ui.sections.base import (
    current_row,
    esc,
    html_list,
    make_table,
    select_row,
    vertical_split,
)

REVIEW_ACTIONS = ("review.accept", "review.edit", "review.reject", "review.next",
                  "review.previous")


class ReviewQueueDialog(QDialog):
    """The queue: a list of generated cases and the selected one in full."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Review queue"))
        self.resize(1000, 700)
        decisions = {"pending": self.tr("Pending"), "accepted": self.tr("Accepted"),
                     "edited": self.tr("Edited"), "rejected": self.tr("Rejected")}
        self.decisions = decisions
        self.model = RowsModel([
            Column(self.tr("Key"), lambda r: r["key"], 8),
            Column(self.tr("Question"), lambda r: one_line(r["question"]), 40, stretch=True),
            Column(self.tr("Decision"), lambda r: decisions.get(r["decision"], r["decision"]),
                   9),
            Column(self.tr("Near-duplicate of"), lambda r: r["near_duplicate"] or "", 12),
            Column(self.tr("Origin"), lambda r: r["origin"], 18),
        ], self)
        self.table = make_table(self.model)
        self.detail = QTextBrowser()
        self.pending_only = QCheckBox(self.tr("Pending only"))
        self.counts = QLabel()
        self.commands = actions.make_actions(REVIEW_ACTIONS, self,
                                             Qt.ShortcutContext.WidgetWithChildrenShortcut)
        for action in self.commands.values():
            self.addAction(action)
        c = self.commands
        c["review.accept"].triggered.connect(lambda: self.decide("accepted"))
        c["review.reject"].triggered.connect(lambda: self.decide("rejected"))
        c["review.edit"].triggered.connect(self.edit)
        c["review.next"].triggered.connect(lambda: self.step(+1))
        c["review.previous"].triggered.connect(lambda: self.step(-1))
        bar = QHBoxLayout()
        for action_id, text in (("review.accept", self.tr("Accept (A)")),
                                ("review.edit", self.tr("Edit (E)")),
                                ("review.reject", self.tr("Reject (R)"))):
            button = QPushButton(text)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(c[action_id].trigger)
            bar.addWidget(button)
        bar.addStretch(1)
        bar.addWidget(self.pending_only)
        bar.addWidget(self.counts)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(vertical_split(self.table, self.detail, (1, 1)), 1)
        layout.addWidget(buttons)
        self.table.selectionModel().currentRowChanged.connect(self._show)
        self.pending_only.toggled.connect(lambda _on: self.fill())
        self.fill()
        first = next((i for i, r in enumerate(self.model.rows) if r["decision"] == "pending"), 0)
        select_row(self.table, first)
        self.table.setFocus()

    def fill(self, keep: int | None = None) -> None:
        """Read the queue again, keeping the case ``keep`` selected if listed."""
        store = self.ctx.hub.store
        if store is None:
            return
        rows = store.review_queue(pending_only=self.pending_only.isChecked())
        self.model.set_rows(rows)
        all_rows = store.review_queue()
        pending = sum(1 for r in all_rows if r["decision"] == "pending")
        self.counts.setText(self.tr("%1 pending of %2").replace("%1", str(pending))
                            .replace("%2", str(len(all_rows))))
        if keep is not None:
            for i, row in enumerate(rows):
                if row["id"] == keep:
                    select_row(self.table, i)
                    break
        if not rows:
            empty = self.tr("No generated case to review.")
            self.detail.setHtml(f"<p><i>{esc(empty)}</i></p>")

    def current(self) -> dict[str, object] | None:
        """The selected queue row."""
        return self.model.row_at(current_row(self.table))

    def _show(self) -> None:
        row = self.current()
        store = self.ctx.hub.store
        if row is None or store is None:
            return
        try:
            case = store.case_detail(int(str(row["id"])))
        except NotFound:
            return
        none = self.tr("None")
        decision = self.tr("Decision:")
        reference, sources, notes = (self.tr("Reference answer"), self.tr("Expected sources"),
                                     self.tr("Notes"))
        parts = [f"<h3>{esc(case['key'])} — {esc(case['question'])}</h3>",
                 f"<p><b>{esc(decision)}</b> "
                 f"{esc(self.decisions.get(str(row['decision']), ''))}"
                 + (f" · {esc(row['decided_by'])} · {esc(local_time(row['decided_at']))}"
                    if row["decided_at"] else "")
                 + f" · {esc(labels.case_status(case['status']))}</p>"]
        if row["near_duplicate"]:
            try:
                other = store.by_key("cases", str(row["near_duplicate"]))
                text = self.tr("Near-duplicate of %1: “%2”").replace(
                    "%1", str(other["key"])).replace("%2", str(other["question"]))
                warning = colours.coloured("text_warning", "⚠ " + esc(text), bold=True)
                parts.append(f"<p>{warning}</p>")
            except NotFound:
                pass
        parts += [f"<h4>{esc(reference)}</h4>",
                  f"<p>{esc(case['reference_answer']) or '<i>' + esc(none) + '</i>'}</p>",
                  f"<h4>{esc(sources)}</h4>",
                  html_list([f"{s['key']} — {s['title']}" for s in case["expected_sources"]],
                            none),
                  f"<h4>{esc(notes)}</h4>",
                  f"<p>{esc(case['notes']) or '<i>' + esc(none) + '</i>'}</p>"]
        self.detail.setHtml("".join(parts))

    def step(self, delta: int) -> None:
        """Next or previous row."""
        row = current_row(self.table) + delta
        if 0 <= row < self.model.rowCount():
            select_row(self.table, row)

    def decide(self, decision: str) -> None:
        """Record a decision on the selected case, then go to the next pending one."""
        row = self.current()
        if row is None:
            return
        case_id = int(str(row["id"]))
        if self.ctx.undo.run(lambda s: goldset_ops.review_case(s, case_id, decision)) is None:
            return
        self.fill(keep=case_id)
        rows = self.model.rows
        position = next((i for i, r in enumerate(rows) if r["id"] == case_id), 0)
        pending = [i for i, r in enumerate(rows) if r["decision"] == "pending"]
        after = [i for i in pending if i > position]
        target = (after or pending or [min(position, len(rows) - 1)])[0]
        if rows:
            select_row(self.table, target)
            self._show()

    def edit(self) -> None:
        """Edit the case in full; closing the editor records the decision "edited"."""
        row = self.current()
        if row is None:
            return
        case_id = int(str(row["id"]))
        dialog = QDialog(self)
        dialog.setWindowTitle(self.tr("Edit the generated case"))
        dialog.resize(760, 700)
        editor = CaseEditor(self.ctx, dialog)
        editor.set_case(case_id)
        def follow(_changes: object) -> None:
            editor.reload(keep_typing=True)

        self.ctx.hub.changes_applied.connect(follow)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Done, accept"))
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(editor, 1)
        layout.addWidget(buttons)
        editor.focus_field("question")
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        editor.flush()
        self.ctx.hub.changes_applied.disconnect(follow)
        if accepted:
            self.decide("edited")
        else:
            self.fill(keep=case_id)
