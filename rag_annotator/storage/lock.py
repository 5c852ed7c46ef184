"""One writer per gold-set file: a lock file beside it, held for as long as the file is open.

SQLite already serialises transactions, but two copies of the app editing one file would each
show the other's work only after a reload and undo each other's history; so the app (and the
CLI's writing commands) take ``FILE.lock`` first.  The lock file says who holds it (assessor,
host, process, since when) so a second instance can tell the user by whom and since when the
file is open, and offer it read-only.

A crashed holder must not lock the file forever.  On one machine the operating-system lock on
the open lock file (``fcntl.flock``; ``msvcrt.locking`` on Windows) vanishes with the process,
so a lock file nobody holds is stale and is taken over at once.  On a shared folder other
machines' OS locks may not be visible, so the holder also refreshes the file's time every
:data:`HEARTBEAT_SECONDS`; a lock written by another host whose heartbeat is older than
:data:`STALE_AFTER_SECONDS` is stale too.  Taking over is reported (``took_over``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from rag_annotator.domain.clock import utc_now
from rag_annotator.errors import FileBusy

HEARTBEAT_SECONDS = 60
STALE_AFTER_SECONDS = 10 * 60


@dataclass(frozen=True)
class LockInfo:
    """Who holds a file."""

    assessor: str
    host: str
    pid: int
    since: str  # UTC, ISO 8601

    def describe(self) -> str:
        """"Claire Dubois (host pc-12, process 4242) since 2026-11-29 14:02 UTC"."""
        who = self.assessor or "someone"
        since = self.since.replace("T", " ")[:16]
        return f"{who} (host {self.host}, process {self.pid}) since {since} UTC"


class FileInUse(FileBusy):
    """The file is open for writing in another copy of the app."""

    def __init__(self, path: Path, holder: LockInfo) -> None:
        super().__init__(
            f"this file is open in rag-annotator by {holder.describe()}; only one copy of "
            "the app may change it at a time: close it there, or open it read-only.",
            path=path)
        self.holder = holder


def host_name() -> str:
    """This machine's name (``os.uname`` where it exists: no socket import at start-up)."""
    uname = getattr(os, "uname", None)
    if uname is not None:
        return str(uname().nodename)
    import socket  # Windows

    return socket.gethostname()


def lock_path(file: Path) -> Path:
    """The lock file of a gold-set file."""
    return file.with_name(file.name + ".lock")


def read_holder(file: Path) -> LockInfo | None:
    """Who the lock file names (None when there is none or it is unreadable)."""
    try:
        data = json.loads(lock_path(file).read_text(encoding="utf-8"))
        return LockInfo(str(data["assessor"]), str(data["host"]), int(data["pid"]),
                        str(data["since"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


class WriterLock:
    """The lock on one gold-set file, held until :meth:`release`."""

    def __init__(self, file: Path, handle: IO[str], info: LockInfo,
                 took_over: LockInfo | None) -> None:
        self.file = file
        self.info = info
        self.took_over = took_over
        self._handle: IO[str] | None = handle

    @classmethod
    def acquire(cls, file: Path, assessor: str) -> WriterLock:
        """Take the lock or raise :class:`FileInUse` naming the holder.

        Raises ``OSError`` when the lock file cannot be written (read-only folder): the
        caller opens the gold set read-only then.
        """
        path = lock_path(file)
        for _attempt in range(5):
            handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held while locked)
            if not _try_os_lock(handle):
                handle.close()
                raise FileInUse(file, read_holder(file) or LockInfo("", "?", 0, "?"))
            # The holder may have released (unlinked) the path between our open and our lock:
            # then we locked a dead inode; start again on the current file.
            if not _same_file(handle, path):
                _os_unlock(handle)
                handle.close()
                continue
            try:
                previous = read_holder(file)
                if previous is not None and _alive_elsewhere(previous, path):
                    raise FileInUse(file, previous)
                info = LockInfo(assessor, host_name(), os.getpid(), utc_now())
                handle.seek(0)
                handle.truncate()
                handle.write(json.dumps(asdict(info), ensure_ascii=False))
                handle.flush()
                os.fsync(handle.fileno())
            except BaseException:
                _os_unlock(handle)
                handle.close()
                raise
            return cls(file, handle, info, previous)
        raise FileBusy("the lock file keeps changing under us; try again.", path=path)

    @property
    def held(self) -> bool:
        return self._handle is not None

    def heartbeat(self) -> None:
        """Refresh the lock file's time so other hosts see the holder is alive."""
        if self._handle is not None:
            with contextlib.suppress(OSError):
                os.utime(lock_path(self.file))

    def release(self) -> None:
        """Give the file back: remove the lock file, then drop the OS lock."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        with contextlib.suppress(OSError):
            if _same_file(handle, lock_path(self.file)):
                lock_path(self.file).unlink()
        _os_unlock(handle)
        handle.close()


# -- platform details ------------------------------------------------------------------------
def _try_os_lock(handle: IO[str]) -> bool:
    """Non-blocking exclusive lock on the open lock file; False if another process holds it."""
    try:
        if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _os_unlock(handle: IO[str]) -> None:
    with contextlib.suppress(OSError):
        if sys.platform == "win32":  # pragma: no cover
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _same_file(handle: IO[str], path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(handle.fileno()), os.stat(path))
    except OSError:
        return False


def _alive_elsewhere(holder: LockInfo, path: Path) -> bool:
    """A holder on another host whose heartbeat is recent: its OS lock may just be invisible
    to us (network share).  On this host the OS lock says it all: we got it, so it is dead."""
    if holder.host == host_name():
        return False
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        return False
    return age < STALE_AFTER_SECONDS
