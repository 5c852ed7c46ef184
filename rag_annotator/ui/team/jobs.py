"""Handing out and collecting on a worker thread, with progress and Cancel, like imports.

A :class:`TeamWorker` runs ``team_files.hand_out`` or ``team_files.collect`` on its own
connection to the open file (:class:`~rag_annotator.ui.exchange.store_worker.StoreWorker`);
:class:`TeamJob` shows a progress dialog when it lasts, offers Cancel, and on the main thread
puts what the work changed on the undo stack — one step for a hand-out (the campaign), one
step per collected file — then calls back with the report.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from rag_annotator.domain.changes import Changes
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.exchange.store_worker import StoreWorker

#: A job shorter than this never shows its progress dialog.
SHOW_AFTER_MS = 400

Work = Callable[[GoldSetStore, Callable[[], bool], Callable[[int, int], None]], Any]

translate = QCoreApplication.translate



class TeamWorker(StoreWorker):
    """Runs ``work(store, cancel, progress)`` on the worker's own read-write connection."""

    def __init__(self, path: Path, assessor: str, work: Work) -> None:
        super().__init__(path, read_only=False, assessor=assessor)
        self._work = work

    def work(self, store: GoldSetStore) -> Any:
        return self._work(store, self.cancelled.is_set,
                          lambda done, total: self.progressed.emit(done, total))


def changes_of(report: Any) -> list[Changes]:
    """The Changes a hand-out (one) or a collect (one per file brought in) made."""
    if hasattr(report, "files") and isinstance(report.files, list):
        return [f.changes for f in report.files
                if f.changes is not None and not f.changes.empty]
    changes = getattr(report, "changes", None)
    return [changes] if changes is not None and not changes.empty else []


def _done(changes: Changes) -> Callable[[GoldSetStore], Changes]:
    """An "operation" that already ran on the worker's connection: the undo controller
    records it as one step and announces its Changes."""
    return lambda _store: changes


class TeamJob(QObject):
    """One hand-out or collect in the background (module docstring).

    ``finished(report)`` on the main thread (None when it failed or was cancelled; then
    ``error`` and ``cancelled`` say why).
    """

    finished = Signal(object)

    def __init__(self, ctx: UiContext, parent: QWidget | None, label: str, work: Work) -> None:
        super().__init__(parent)
        store = ctx.hub.store
        assert store is not None
        self.ctx, self.parent_widget = ctx, parent
        self.done = self.cancelled = False
        self.report: Any = None
        self.error: str | None = None
        self.dialog = QProgressDialog(label, translate("TeamJob", "Cancel"), 0, 0, parent)
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setAutoReset(False)
        self.dialog.setAutoClose(False)
        self.dialog.setMinimumDuration(SHOW_AFTER_MS)
        QTimer.singleShot(SHOW_AFTER_MS, self._show_if_running)
        self.dialog.canceled.connect(self.cancel)
        self.worker = TeamWorker(store.path, store.assessor, work)
        self.worker.progressed.connect(self._progress, Qt.ConnectionType.QueuedConnection)
        self.worker.done.connect(self._finished, Qt.ConnectionType.QueuedConnection)
        self.worker.start()

    def _show_if_running(self) -> None:
        if not self.done:
            self.dialog.show()

    def cancel(self) -> None:
        """Stop the work: nothing of it stays (the core undoes a partial hand-out; a
        collect's files commit together, so a cancelled one keeps none)."""
        if self.done:
            return
        self.cancelled = True
        self.worker.cancelled.set()
        self.dialog.setLabelText(translate("TeamJob", "Cancelling…"))

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
            self.finished.emit(None)
            return
        for changes in changes_of(report):
            self.ctx.undo.run(_done(changes))
        self.finished.emit(report)

    def wait_done(self, timeout: float = 60.0) -> bool:
        """Process events until the job has ended (tests); False on timeout."""
        deadline = time.monotonic() + timeout
        while not self.done and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.002)
        return self.done
