"""Importing a file through the format registry from the app: one undoable step, a report.

Used by the Runs section (run formats) and by *File → Import* for the formats that bring a
whole gold set or a corpus with its judgments (JSON, a CSV folder, an Excel workbook, a BEIR
folder, DeepEval goldens).  The import runs on an
:class:`~rag_annotator.ui.exchange.store_worker.ImportWorker` (its own connection, its own
thread) while a progress dialog offers Cancel, so the window keeps painting during a
million-line run.  When it ends, the report's ``changes`` — the import's own operation — is
applied on the main thread through the undo controller: one undoable step, one
``changes_applied``.  Cancel rolls the import's transaction back: the file is as it was.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox, QProgressDialog, QWidget

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.messages import render_any
from rag_annotator.paths import user_folder
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.exchange.store_worker import ImportWorker
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

#: File → Import entries beyond cases, corpus and runs: format → (menu text, folder?, filter).
GOLDSET_FORMATS: dict[str, tuple[str, bool, str]] = {
    "json": (QT_TRANSLATE_NOOP("file_import", "Gold Set from Native JSON…"), False,
             "JSON (*.json)"),
    "csv": (QT_TRANSLATE_NOOP("file_import", "Gold Set from a CSV Folder…"), True, ""),
    "xlsx": (QT_TRANSLATE_NOOP("file_import", "Gold Set from an Excel Workbook…"),
             False, "Excel (*.xlsx)"),
    "beir": (QT_TRANSLATE_NOOP("file_import", "BEIR Folder (corpus, queries, qrels)…"),
             True, ""),
    "deepeval": (QT_TRANSLATE_NOOP("file_import", "DeepEval Goldens…"), False,
                 "JSON (*.json)"),
}

# An import that lasts longer than this (ms) shows its progress dialog with Cancel.
SHOW_AFTER_MS = 400


def apply_import(ctx: UiContext, report: Any) -> Changes | None:
    """Put a finished import's Changes on the undo stack and announce it (main thread).

    The operation already ran on the worker's connection; the controller only records it as
    one undoable step and emits ``changes_applied`` with the Changes the import returned.
    """
    changes: Changes | None = getattr(report, "changes", None)
    if changes is None:
        return None
    return ctx.undo.run(lambda _store: changes)


class FileImport(QObject):
    """One import running on a worker thread, with a progress dialog and Cancel.

    ``finished`` is emitted on the main thread with the applied Changes (None when the import
    was refused, cancelled or changed nothing); ``done`` is then True and ``report``,
    ``error``, ``cancelled`` say how it ended.
    """

    finished = Signal(object)

    def __init__(self, ctx: UiContext, parent: QWidget | None, fmt: str, path: Path,
                 options: registry.Options, title: str) -> None:
        super().__init__(parent)
        store = ctx.hub.store
        assert store is not None
        self.ctx, self.parent_widget, self.title = ctx, parent, title
        self.done, self.cancelled = False, False
        self.report: Any = None
        self.error: str | None = None
        self.changes: Changes | None = None
        self.dialog = QProgressDialog(
            QCoreApplication.translate("file_import", "Importing %1…").replace("%1", path.name),
            QCoreApplication.translate("file_import", "Cancel"), 0, 0, parent)
        self.dialog.setWindowTitle(title)
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setAutoReset(False)
        self.dialog.setAutoClose(False)
        # Shown only if the import lasts: a small file never flashes a dialog.  Our own timer:
        # QProgressDialog's minimumDuration only counts once a value is set, so while a file
        # is still being read (no progress yet) it would wait its default four seconds.
        self.dialog.setMinimumDuration(SHOW_AFTER_MS)
        QTimer.singleShot(SHOW_AFTER_MS, self._show_if_running)
        self.dialog.canceled.connect(self.cancel)
        self.worker = ImportWorker(store.path, store.assessor, fmt, path, options)
        self.worker.progressed.connect(self._progress, Qt.ConnectionType.QueuedConnection)
        self.worker.done.connect(self._finished, Qt.ConnectionType.QueuedConnection)
        self.worker.start()

    def _show_if_running(self) -> None:
        if not self.done:
            self.dialog.show()

    def cancel(self) -> None:
        """Stop the import; its transaction rolls back (the file stays as it was)."""
        if self.done:
            return
        self.cancelled = True
        self.worker.cancelled.set()
        self.dialog.setLabelText(QCoreApplication.translate("file_import", "Cancelling…"))

    def _progress(self, done: int, total: int) -> None:
        if not self.done and total > 0:
            self.dialog.setMaximum(total)
            self.dialog.setValue(min(done, total))

    def _finished(self, report: Any, error: str | None) -> None:
        self.worker.wait()
        self.done = True
        self.dialog.canceled.disconnect(self.cancel)
        self.dialog.reset()
        self.dialog.hide()
        self.dialog.deleteLater()
        self.report, self.error = report, error
        if error is not None:
            if not self.cancelled:
                from rag_annotator.ui.errors import show_known_error  # on error only

                show_known_error(self.parent_widget, error)
        else:
            self.changes = apply_import(self.ctx, report)
            self._show_report(report)
        self.finished.emit(self.changes)

    def _show_report(self, report: Any) -> None:
        box = QMessageBox(QMessageBox.Icon.Information,
                          self.title or QCoreApplication.translate("file_import", "Import"),
                          render_any(report.summary()), parent=self.parent_widget)
        if report.warnings:
            box.setDetailedText("\n".join(render_any(w) for w in report.warnings))
        box.open()

    def wait_done(self, timeout: float = 60.0) -> bool:
        """Process events until the import has ended (tests, scripts); False on timeout."""
        deadline = time.monotonic() + timeout
        while not self.done and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.002)
        return self.done


def import_file(ctx: UiContext, parent: QWidget | None, fmt: str, path: Path,
                options: registry.Options | None = None,
                title: str = "") -> FileImport | None:
    """Start one import (see :class:`FileImport`); None when no file is open or it is
    read-only (then a message says so)."""
    store = ctx.hub.store
    if store is None:
        return None
    if store.read_only:
        from rag_annotator.ui.errors import show_known_error  # on error only

        show_known_error(parent, KnownError(
            "this file is open read-only; nothing can be changed.", path=store.path))
        return None
    if not ctx.undo.ensure_name():  # the import's history entry records who made it
        return None
    title = title or QCoreApplication.translate("file_import", "Import")
    return FileImport(ctx, parent, fmt, path, options or registry.Options(), title)


def ask_and_import(ctx: UiContext, parent: QWidget | None, fmt: str) -> FileImport | None:
    """Ask for the file or folder of one of :data:`GOLDSET_FORMATS`, then import it."""
    source, folder, pattern = GOLDSET_FORMATS[fmt]
    text = QCoreApplication.translate("file_import", source)
    start = str(user_folder(ctx.hub.store.path if ctx.hub.store is not None else None))
    if folder:
        chosen = QFileDialog.getExistingDirectory(parent, text, start)
    else:
        chosen, _ = QFileDialog.getOpenFileName(parent, text, start, pattern)
    if not chosen:
        return None
    return import_file(ctx, parent, fmt, Path(chosen), title=text.rstrip("…"))
