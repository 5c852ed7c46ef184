"""File → Restore from Backup…: the open file's backups, what each holds, and restoring one."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.errors import KnownError
from rag_annotator.storage import backups
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.models import Column, RowsModel, number
from rag_annotator.ui.sections.base import current_row, esc, make_table


def preview(path: Path) -> dict[str, object]:
    """What a backup holds, read without changing it."""
    with GoldSetStore.open(path, read_only=True, verify="skip") as store:
        judgments = store.judgment_counts()
        claims = store.claim_counts()
        last = store.operations_rows(store.operation_ids()[:1])
        return {
            "cases": store.count("cases"),
            "documents": store.count("documents"),
            "runs": store.count("runs"),
            "judged": judgments.get("relevant", 0) + judgments.get("not_relevant", 0),
            "verified": sum(n for verdict, n in claims.items() if verdict != "unverified"),
            "last": next(iter(last.values()), None),
        }


class RestoreDialog(QDialog):
    """The backups of one file, newest first; the selected one previewed before restoring."""

    def __init__(self, file: Path, root: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Restore from Backup"))
        self.resize(720, 480)
        self.file = file
        self.chosen: Path | None = None
        self.model = RowsModel([
            Column(self.tr("Taken"), lambda r: r["taken"], 18),
            Column(self.tr("Size"), lambda r: f"{r['size'] / 1_048_576:.1f} MB", 9,
                   numeric=True),
            Column(self.tr("Kind"), lambda r: r["kind"], 20, stretch=True),
        ], self)
        rows = []
        for backup in backups.listing(file, root):
            local = backup.taken_at.astimezone()
            kind = (self.tr("copy taken before a restore")
                    if "before-restore" in backup.path.name else self.tr("automatic"))
            rows.append({"path": backup.path, "taken": local.strftime("%Y-%m-%d %H:%M"),
                         "size": backup.size, "kind": kind})
        self.model.set_rows(rows)
        self.table = make_table(self.model)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.restore_button = QPushButton(self.tr("Restore This Backup…"))
        self.restore_button.clicked.connect(self._restore)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        hint = QLabel(self.tr(
            "Backups of “%1” are taken when it is opened and every 30 minutes while it "
            "changes: the newest 12, one a day for a week, one a week for 8 weeks. Restoring "
            "keeps a copy of the file as it is now, so it can be undone the same way.")
            .replace("%1", file.name))
        hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addWidget(buttons)
        self.table.selectionModel().currentRowChanged.connect(self._show)
        if rows:
            self.table.selectRow(0)
        else:
            self.details.setText(esc(self.tr("No backup of this file yet.")))
        self._show()

    def selected(self) -> Path | None:
        row = self.model.row_at(current_row(self.table))
        return None if row is None else Path(row["path"])

    def _show(self, *_args: object) -> None:
        path = self.selected()
        self.restore_button.setEnabled(path is not None)
        if path is None:
            return
        try:
            held = preview(path)
        except KnownError as error:
            self.details.setText(esc(error.render()))
            self.restore_button.setEnabled(False)
            return
        last = held["last"]
        last_text = (f"{esc(str(last['at']).replace('T', ' ')[:16])} — "  # type: ignore[index]
                     f"{esc(str(last['label']) or str(last['action']))}"  # type: ignore[index]
                     if last else "—")
        self.details.setText(self.tr(
            "<b>This backup holds</b> %1 cases, %2 documents, %3 runs, %4 judged pairs, "
            "%5 verified claims.<br>Last change in it: %6")
            .replace("%1", number(held["cases"])).replace("%2", number(held["documents"]))
            .replace("%3", number(held["runs"])).replace("%4", number(held["judged"]))
            .replace("%5", number(held["verified"])).replace("%6", last_text))

    def _restore(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        path = self.selected()
        if path is None:
            return
        answer = QMessageBox.question(
            self, self.tr("Restore from Backup"),
            self.tr("Replace the content of “%1” with this backup? A copy of the file as it "
                    "is now is kept in the backups first.").replace("%1", self.file.name))
        if answer == QMessageBox.StandardButton.Yes:
            self.chosen = path
            self.accept()
