"""When the open file is backed up: on opening, every 30 minutes while it changes, on closing.

A large file is copied only once the user has paused for a few seconds, so no judgment waits
for the copy's read lock.

The copies themselves (``storage.backups``) run on a worker thread with their own read-only
connection, so a 200 MB file never freezes the window; a failure (full disk, damaged file)
is logged and never interrupts the user — the file itself is intact either way.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rag_annotator.storage.store import GoldSetStore

if TYPE_CHECKING:
    from rag_annotator.storage.backups import Backup

log = logging.getLogger(__name__)


#: Files above this size are copied only after the user has paused (see ``maybe``).
BIG_FILE_BYTES = 32 * 1024 * 1024
#: The pause needed: a 200 MB copy holds SQLite's read lock ~0.3 s, and a judgment's commit
#: would wait for it.
IDLE_SECONDS = 15.0


class BackupScheduler:
    """Starts backups of the open file when due; at most one copy runs at a time."""

    def __init__(self, root: Path | Callable[[], Path]) -> None:
        self._root = root  # or how to find it: the app's folders are resolved when needed
        self.last_change = 0.0  # time.monotonic() of the last edit (set by the window)
        self._thread: threading.Thread | None = None
        self._backed_up_at: dict[Path, int] = {}  # file → newest operation id copied
        self.taken: list[Backup] = []  # this session's copies (for tests and logs)

    @property
    def root(self) -> Path:
        """The backups folder."""
        if not isinstance(self._root, Path):
            self._root = self._root()
        return self._root

    def maybe(self, store: GoldSetStore | None) -> None:
        """Back up ``store``'s file if a copy is due and it changed since the last one."""
        if store is None or store.read_only or self.running:
            return
        if self._busy(store.path):
            return
        newest = _newest_operation(store)
        if self._backed_up_at.get(store.path) == newest and newest != 0:
            return
        from rag_annotator.storage import backups  # only once a file is open a while

        if not backups.is_due(store.path, self.root):
            return
        self._start(store.path, newest)

    def on_close(self, store: GoldSetStore) -> None:
        """A last copy when the file changed since the last one (the schedule then decides
        what to keep)."""
        if store.read_only:
            return
        newest = _newest_operation(store)
        if self._backed_up_at.get(store.path, -1) == newest:
            return
        self.wait()
        self._start(store.path, newest)

    def changed(self) -> None:
        """An edit was just made (a big file's copy waits for a pause)."""
        self.last_change = time.monotonic()

    def _busy(self, path: Path) -> bool:
        try:
            big = path.stat().st_size > BIG_FILE_BYTES
        except OSError:
            return False
        return big and time.monotonic() - self.last_change < IDLE_SECONDS

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float = 60) -> None:
        """Let a running copy finish (closing the window, restoring)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _start(self, path: Path, newest: int) -> None:
        self._backed_up_at[path] = newest

        from rag_annotator.storage import backups

        def run() -> None:
            try:
                taken = backups.take(path, self.root)
            except Exception as error:
                log.warning("backup of %s failed: %s", path, error)
                return
            if taken is None:
                log.warning("backup of %s skipped: the file fails its quick check", path)
            else:
                self.taken.append(taken)

        self._thread = threading.Thread(target=run, name="backup", daemon=True)
        self._thread.start()


def _newest_operation(store: GoldSetStore) -> int:
    return store.newest_operation_id()
