"""History section: every change made to the file (who, when, what), old → new per row.

Any logged change can be reverted from here, as a new change that goes through the undo
stack (so it can itself be undone).  A revert that would overwrite a later change is refused
by the store with a Conflict, shown as a message.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import NotFound
from rag_annotator.ui import labels
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.look.zoom import monospace
from rag_annotator.ui.models import HistoryModel
from rag_annotator.ui.sections.base import (
    Section,
    current_row,
    make_table,
    select_row,
    vertical_split,
)

# Columns whose change is bookkeeping, not content: not listed in the detail.
_QUIET = {"updated_at", "created_at", "content_hash"}
# Reference columns shown by what they point to (key or name) rather than by id.
_REFERENCES = {"case_id": ("cases", "key", "case"), "document_id": ("documents", "key", "document"),
               "assessor_id": ("assessors", "name", "assessor"), "run_id": ("runs", "name", "run"),
               "supersedes_id": ("documents", "key", "supersedes"),
               "parent_id": ("documents", "key", "parent")}


def _short(value: Any, limit: int = 90) -> str:
    text = "∅" if value is None else (value if isinstance(value, str)
                                      else json.dumps(value, ensure_ascii=False))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _key_text(key: Any) -> str:
    if isinstance(key, dict):
        if set(key) == {"id"}:
            return f"#{key['id']}"
        return ", ".join(f"{k}={v}" for k, v in key.items())
    return str(key)


class HistorySection(Section):
    """The operations list, the selected operation's row changes, and Revert."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model = HistoryModel(self)
        self.table = make_table(self.model)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        monospace(self.detail)  # follows the text zoom
        self.revert_button = QPushButton(self.tr("Revert This Change"))
        self.revert_button.setToolTip(self.tr(
            "Put back the values this change replaced, as a new change (which Undo can take "
            "back). Refused if a later change modified the same rows."))
        self.revert_button.clicked.connect(self.revert_current)
        self.count = QLabel()

        bar = QHBoxLayout()
        bar.addWidget(self.count)
        bar.addStretch(1)
        bar.addWidget(self.revert_button)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addLayout(bar)
        lower_layout.addWidget(self.detail, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(vertical_split(self.table, lower, (3, 2)), 1)
        self.table.selectionModel().currentRowChanged.connect(self._show_current)
        self.revert_button.setEnabled(False)

    def focus_widget(self) -> QWidget:
        return self.table

    def refresh(self) -> None:
        keep = self.operation_id()
        self.model.store = self.store
        self.model.reload()
        total = self.model.rowCount()
        self.count.setText(self.tr("%Ln change(s)", "", total))
        row = self.model.row_of(keep) if keep is not None else None
        if total:
            select_row(self.table, row if row is not None else 0)
        else:
            self.detail.setPlainText(self.tr("No change has been made to this file yet."))
            self.revert_button.setEnabled(False)

    def clear(self) -> None:
        self.model.set_store(None)
        self.detail.clear()
        self.count.clear()
        self.revert_button.setEnabled(False)

    def cares(self, changes: Changes) -> bool:
        return True  # every change adds a line to the history

    def operation_id(self) -> int | None:
        """The selected operation."""
        return self.model.id_at(current_row(self.table))

    def revert_current(self) -> None:
        """Revert the selected operation through the undo stack."""
        op_id = self.operation_id()
        if op_id is None:
            return
        self.ctx.undo.run(lambda s: s.revert(op_id, action="revert"))

    def _show_current(self) -> None:
        store, op_id = self.store, self.operation_id()
        info = self.model.row_at(current_row(self.table))
        if store is None or op_id is None or info is None:
            self.detail.clear()
            self.revert_button.setEnabled(False)
            return
        try:
            rows = store.history_of(op_id)
        except NotFound:
            rows = []
        self.revert_button.setEnabled(bool(rows) and bool(info["undoable"]))
        lines = [labels.command_text(info["action"], info["label"]), ""]
        if not rows:
            lines.append(self.tr("This change was recorded without row details (a bulk load); "
                                 "it cannot be reverted row by row."))
        kinds = {"insert": self.tr("added"), "update": self.tr("changed"),
                 "delete": self.tr("deleted")}
        names: dict[tuple[str, int], str] = {}

        def shown(column: str, value: Any) -> tuple[str, str]:
            if column not in _REFERENCES or not isinstance(value, int):
                return column, _short(value)
            table, field, label = _REFERENCES[column]
            if (table, value) not in names:
                try:
                    names[(table, value)] = str(store.by_id(table, value)[field])
                except NotFound:
                    names[(table, value)] = f"#{value}"
            return label, names[(table, value)]

        for row in rows:
            if "count" in row:  # a batch of a bulk insert, or its undo: ids first–last
                key, n = row["row_key"], row["count"]
                what = (self.tr("%Ln row(s) added", "", n) if row["kind"] == "insert_range"
                        else self.tr("%Ln row(s) deleted", "", n))
                lines.append(f"{labels.table_name(row['table_name'])} "
                             f"#{key['first']}–#{key['last']} — {what}")
                continue
            head = (f"{labels.table_name(row['table_name'])} {_key_text(row['row_key'])} — "
                    f"{kinds.get(row['kind'], row['kind'])}")
            lines.append(head)
            old, new = row["old"] or {}, row["new"] or {}
            for column in sorted(set(old) | set(new)):
                if column in _QUIET or column == "id":
                    continue
                before, after = old.get(column), new.get(column)
                if row["kind"] == "update" and before == after:
                    continue
                if row["kind"] == "insert":
                    if after not in (None, "", "[]"):
                        lines.append("    {}: {}".format(*shown(column, after)))
                elif row["kind"] == "delete":
                    if before not in (None, "", "[]"):
                        lines.append("    {}: {}".format(*shown(column, before)))
                else:
                    name, old_text = shown(column, before)
                    lines.append(f"    {name}: {old_text} → {shown(column, after)[1]}")
        self.detail.setPlainText("\n".join(lines))
