"""Long imports and exports on a worker thread, each on its own connection to the file.

Every import started from the UI (File → Import, the Runs section's run imports, the cases,
corpus and test-set dialogs) runs as an :class:`ImportWorker`, and every export as an
export worker, while a dialog shows progress and offers Cancel.  ``done`` carries
``(result, error text)``: a known error becomes its message; a bug is reported the same way
so the dialog never waits forever, then raised so it reaches the crash report.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QThread, Signal

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.serial_worker import window_first


class StoreWorker(QThread):
    """Runs :meth:`work` on a store opened for this thread; subclasses say what to do."""

    progressed = Signal(int, int)
    done = Signal(object, object)

    def __init__(self, path: Path, *, read_only: bool, assessor: str = "") -> None:
        super().__init__()
        self.path, self.read_only, self.assessor = path, read_only, assessor
        self.cancelled = threading.Event()

    def with_progress(self, options: registry.Options) -> registry.Options:
        """``options`` wired to this worker's Cancel and progress signal."""
        return replace(options, cancel=self.cancelled.is_set,
                       progress=lambda done, total: self.progressed.emit(done, total))

    def work(self, store: GoldSetStore) -> Any:
        raise NotImplementedError

    def run(self) -> None:
        with window_first():
            self._run()

    def _run(self) -> None:
        try:
            with GoldSetStore.open(self.path, assessor=self.assessor, read_only=self.read_only,
                                   verify="skip") as store:
                result = self.work(store)
        except KnownError as error:
            self.done.emit(None, error.render())
            return
        except Exception as error:  # a bug: shown, never swallowed silently
            self.done.emit(None, f"{type(error).__name__}: {error}")
            raise
        self.done.emit(result, None)


class ImportWorker(StoreWorker):
    """One import through the format registry; ``done`` carries (report, error text).

    The report's ``changes`` (the import's one operation) is applied on the main thread by
    whoever started the worker (:func:`apply_import`); a cancelled import raised ``Cancelled``
    in its transaction, so nothing was stored.
    """

    def __init__(self, path: Path, assessor: str, fmt: str, source: Path,
                 options: registry.Options) -> None:
        super().__init__(path, read_only=False, assessor=assessor)
        self.fmt, self.source = fmt, source
        self.options = self.with_progress(options)

    def work(self, store: GoldSetStore) -> Any:
        return registry.importer(self.fmt)(store, self.source, self.options)
