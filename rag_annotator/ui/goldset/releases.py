"""Releases dialog: the frozen versions of the gold set, freezing a new one, comparing two,
and starting a new draft version (which makes the frozen approved cases editable again)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain import releases
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.models import Column, RowsModel, local_time
from rag_annotator.ui.sections.base import current_row, make_table, select_row, vertical_split


class ReleasesDialog(QDialog):
    """Lists releases with their changelog; Freeze…, Compare, Start a new draft version."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Releases"))
        self.resize(900, 620)
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.model = RowsModel([
            Column(self.tr("Name"), lambda r: r["name"], 12),
            Column(self.tr("Frozen on"), lambda r: local_time(r["created_at"]), 18),
            Column(self.tr("By"), lambda r: r["created_by"], 10),
            Column(self.tr("Cases"), lambda r: r["cases"], 6, numeric=True),
            Column(self.tr("Content hash"), lambda r: str(r["content_hash"] or "")[:19] + "…",
                   22, stretch=True),
        ], self)
        self.table = make_table(self.model)
        self.changelog = QPlainTextEdit()
        self.changelog.setReadOnly(True)
        self.freeze_button = QPushButton(self.tr("Freeze a release…"))
        self.draft_button = QPushButton(self.tr("Start a new draft version"))
        self.left = QComboBox()
        self.right = QComboBox()
        self.compare_button = QPushButton(self.tr("Compare"))
        self.freeze_button.clicked.connect(self.ask_freeze)
        self.draft_button.clicked.connect(self.start_draft)
        self.compare_button.clicked.connect(self.compare)
        self.table.selectionModel().currentRowChanged.connect(self._show)
        top = QHBoxLayout()
        top.addWidget(self.freeze_button)
        top.addWidget(self.draft_button)
        top.addStretch(1)
        compare = QHBoxLayout()
        compare.addWidget(QLabel(self.tr("Compare")))
        compare.addWidget(self.left)
        compare.addWidget(QLabel(self.tr("with")))
        compare.addWidget(self.right)
        compare.addWidget(self.compare_button)
        compare.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.state)
        layout.addLayout(top)
        layout.addWidget(vertical_split(self.table, self.changelog, (1, 1)), 1)
        layout.addLayout(compare)
        layout.addWidget(buttons)
        ctx.hub.changes_applied.connect(self._on_changes)
        self.fill()

    def _on_changes(self, _changes: object) -> None:
        if self.isVisible():
            self.fill()

    def fill(self) -> None:
        """Read the releases and the state again."""
        store = self.ctx.hub.store
        if store is None:
            return
        rows = store.release_rows()
        self.model.set_rows(rows)
        state, name = store.release_state()
        if state == "frozen":
            self.state.setText(self.tr("Release “%1” is frozen: its approved cases are "
                                       "read-only until a new draft version starts.")
                               .replace("%1", name))
        else:
            self.state.setText(self.tr("Draft version: every case can be edited."))
        self.draft_button.setEnabled(state == "frozen")
        names = [r["name"] for r in rows]
        current = self.tr("(current gold set)")
        for combo, default in ((self.left, len(names) - 2), (self.right, len(names))):
            combo.clear()
            for name in names:
                combo.addItem(name, name)
            combo.addItem(current, "")
            combo.setCurrentIndex(max(default, 0))
        if rows:
            select_row(self.table, len(rows) - 1)
        else:
            self.changelog.setPlainText(self.tr("No release yet. Freeze one to hand the gold "
                                                "set over with a changelog."))

    def _show(self) -> None:
        row = self.model.row_at(current_row(self.table))
        if row is not None:
            self.changelog.setPlainText(f"{row['name']} — {row['content_hash']}\n\n"
                                        f"{row['changelog']}")

    def ask_freeze(self) -> None:
        """Ask a name and a note, then freeze."""
        dialog = QDialog(self)
        dialog.setWindowTitle(self.tr("Freeze a release"))
        name = QLineEdit()
        store = self.ctx.hub.store
        if store is None:
            return
        name.setText(f"v{len(store.release_rows()) + 1}")
        note = QPlainTextEdit()
        note.setPlaceholderText(self.tr("What this version is for (optional)…"))
        form = QFormLayout()
        form.addRow(self.tr("Name"), name)
        form.addRow(self.tr("Note"), note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(QLabel(self.tr("The approved cases become read-only until a new draft "
                                        "version starts.")))
        layout.addLayout(form)
        layout.addWidget(buttons)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.freeze(name.text().strip(), note.toPlainText())

    def freeze(self, name: str, note: str = "") -> bool:
        """Freeze the gold set as ``name``; True on success."""
        changes = self.ctx.undo.run(lambda s: releases.freeze_release(s, name, note))
        self.fill()
        return changes is not None

    def start_draft(self) -> None:
        """Make the frozen approved cases editable again."""
        self.ctx.undo.run(releases.start_draft)
        self.fill()

    def compare(self) -> str:
        """Show what changed from the left release to the right one (or the current set)."""
        store = self.ctx.hub.store
        if store is None:
            return ""
        snapshots = []
        for combo in (self.left, self.right):
            name = combo.currentData()
            snapshots.append(store.release_snapshot(name) if name else store.release_content())
        diff = releases.diff_snapshots(snapshots[0], snapshots[1])
        left, right = self.left.currentText(), self.right.currentText()
        text = f"{left} → {right}\n\n{diff.text()}"
        self.changelog.setPlainText(text)
        return text

