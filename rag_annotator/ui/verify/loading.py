"""The Verify section's claim queue and answers list, read on a worker thread (issue 19).

Sorting 100,000 claims into verification order and counting them per answer take about half
a second on DESIGN section 3's file; Ctrl+5 must show the first unverified claim within
200 ms.  So the section shows that claim at once (``first_unverified_claim``, an index walk)
and reads the queue and the list here, on a read-only connection of its own, as the judging
counts are (``ui/progress.py``).  Whatever needs them before they arrive (a key pressed in
that half second) waits for them with :meth:`QueueLoader.take`; nothing is ever read twice.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from rag_annotator.storage.store import GoldSetStore

Row = dict[str, Any]
Loaded = tuple[list[Row], list[Row]]  # (claim_queue, answers_overview)


def read_queue(path: Path) -> Loaded:
    """The claim queue and the answers list of the file at ``path`` (worker thread)."""
    reader = GoldSetStore.open(path, read_only=True, verify="skip")
    try:
        return reader.claim_queue(), reader.answers_overview()
    finally:
        reader.close()


class QueueLoader(QObject):
    """One background read at a time; ``ready`` says when the latest one is done.

    Signals:
        ready(int): the read of this generation finished (take it with :meth:`take`).
    """

    ready = Signal(int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._executor: ThreadPoolExecutor | None = None
        self._future: Future[Loaded] | None = None
        self.generation = 0

    @property
    def pending(self) -> bool:
        """A read was started and not taken yet."""
        return self._future is not None

    def start(self, path: Path) -> None:
        """Read ``path``'s queue and answers list in the background."""
        self.generation += 1
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1,
                                                thread_name_prefix="verify-queue")
        self._future = self._executor.submit(self._read, path, self.generation)

    def _read(self, path: Path, generation: int) -> Loaded:
        try:
            return read_queue(path)
        finally:
            self.ready.emit(generation)

    def take(self) -> Loaded | None:
        """The read's result, waiting for it if it is still running; None when no read is
        pending.  A failure of the read is raised here, on the GUI thread."""
        future, self._future = self._future, None
        return None if future is None else future.result()

    def cancel(self) -> None:
        """Forget the pending read (another file, or a full read made meanwhile)."""
        self.generation += 1
        self._future = None

    def close(self) -> None:
        """Wait for the worker to finish (its connection closes with it)."""
        self.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
