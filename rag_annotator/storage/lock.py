"""One writer per gold-set file: a lock file beside it, held for as long as the file is open.

SQLite already serialises transactions, but two copies of the app editing one file would each
show the other's work only after a reload and undo each other's history; so the app (and the
CLI's writing commands) take ``FILE.lock`` first.  The lock file says who holds it (assessor,
host, process, since when) so a second instance can tell the user by whom and since when the
file is open, and offer it read-only.

A crashed holder must not lock the file forever.  On one machine the operating-system lock on
the open lock file (``fcntl.flock``; ``msvcrt.locking`` on Windows) vanishes with the process,
so a lock file nobody holds is stale and is taken over at once.  On a shared folder other
machines' OS locks may not be visible, so the holder also refreshes the lock every
:data:`HEARTBEAT_SECONDS` — its time and its content (a beat counter); a lock written by another
host whose heartbeat is older than :data:`STALE_AFTER_SECONDS` is stale too.  A lock whose time
is ahead of ours (another machine's clock, or a planted file) cannot be aged by its time: it
is stale once its content has not changed for the same :data:`STALE_AFTER_SECONDS`, measured
by our clock between attempts (each attempt notes what it saw in the app's lock folder), and
the refusal says so.  Taking over is reported (``took_over``; the CLI prints a line).

Hostile lock files: the lock is opened with ``O_NOFOLLOW`` and must be a regular file, so a
``FILE.lock`` that is a symbolic link (a shared folder, zip or repository can carry one) is
refused with a line naming it — never written through, never deleted.

Hard links: two names of one gold set have two ``FILE.lock``; so the holder also takes an OS
lock on ``DEV-INODE.lock`` in the app's own lock folder (``AppPaths.locks``), named after the
file's device and inode, which every name of the file shares.  Why both: the lock beside the
file is what other users and machines of a shared folder see (it names the holder); the one
named by inode is what makes hard links one file on this machine, for this user — which is
where the two copies of a hard-linked file can be open at once in practice.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import IO

from rag_annotator.domain.clock import utc_now
from rag_annotator.errors import FileBusy, KnownError
from rag_annotator.messages import N_, Message

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
        return str(self.message())

    def message(self) -> Message:
        """:meth:`describe` as a message, rendered in the reader's language."""
        who: str | Message = self.assessor or Message("someone")
        try:
            since = datetime.fromisoformat(self.since)
        except ValueError:  # a lock file written by hand: shown as it is
            return Message("{who} (host {host}, process {pid}) since {since} UTC", who=who,
                           host=self.host, pid=self.pid, since=self.since[:16])
        return Message("{who} (host {host}, process {pid}) since {since:%Y-%m-%d %H:%M} UTC",
                       who=who, host=self.host, pid=self.pid, since=since)


class FileInUse(FileBusy):
    """The file is open for writing in another copy of the app."""

    def __init__(self, path: Path, holder: LockInfo) -> None:
        super().__init__(
            N_("this file is open in rag-annotator by {holder}; only one copy of "
               "the app may change it at a time: close it there, or open it read-only."),
            path=path, holder=holder.message())
        self.holder = holder


class UnsafeLockFile(KnownError):
    """The lock file is a symbolic link or not a regular file: never written through."""


#: A heartbeat ahead of our clock by more than this is "from the future".
CLOCK_SKEW_SECONDS = 60


class FutureLock(FileInUse):
    """Another host's lock whose heartbeat is dated ahead of our clock."""

    def __init__(self, path: Path, holder: LockInfo) -> None:
        FileBusy.__init__(
            self,
            N_("this file is locked by {holder}, with a heartbeat dated in the future "
               "(that computer's clock is ahead, or the lock file was copied); it counts as "
               "stale once it has not changed for {minutes} minutes (try "
               "again then), or, if nobody has the file open, delete {lock}."),
            path=path, holder=holder.message(), minutes=STALE_AFTER_SECONDS // 60,
            lock=lock_path(path).name)
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
    """Who the lock file names (None when there is none, or it is unreadable or a link)."""
    return _parse(_read_nofollow(lock_path(file)))


def _read_nofollow(path: Path) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, 64 * 1024)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _parse(raw: bytes) -> LockInfo | None:
    try:
        data = json.loads(raw.decode("utf-8"))
        return LockInfo(str(data["assessor"]), str(data["host"]), int(data["pid"]),
                        str(data["since"]))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def locks_folder() -> Path:
    """The app's own lock folder (the locks named by device and inode)."""
    from rag_annotator.paths import app_paths  # a leaf module; imported when locking only

    return app_paths().locks


def inode_lock_path(file: Path) -> Path:
    """The lock every name (hard link) of ``file`` shares: named by device and inode."""
    st = os.stat(file)
    return locks_folder() / f"{st.st_dev:x}-{st.st_ino:x}.lock"


class WriterLock:
    """The lock on one gold-set file, held until :meth:`release`."""

    def __init__(self, file: Path, handle: IO[str], info: LockInfo,
                 took_over: LockInfo | None,
                 inode: tuple[IO[str], Path] | None = None) -> None:
        self.file = file
        self.info = info
        self.took_over = took_over
        self._handle: IO[str] | None = handle
        self._inode = inode
        self._beat = 0

    @classmethod
    def acquire(cls, file: Path, assessor: str) -> WriterLock:
        """Take the lock or raise :class:`FileInUse` naming the holder.

        Raises ``OSError`` when the lock file cannot be written (read-only folder): the
        caller opens the gold set read-only then; :class:`UnsafeLockFile` when the lock file
        is a link or not a file; :class:`FutureLock` for a fresh lock dated ahead of us.
        """
        info = LockInfo(assessor, host_name(), os.getpid(), utc_now())
        inode = _take_inode_lock(file, info)
        try:
            handle, previous = _take_file_lock(file, info)
        except BaseException:
            if inode is not None:
                _release_handle(*inode)
            raise
        return cls(file, handle, info, previous, inode)

    @property
    def held(self) -> bool:
        return self._handle is not None

    def heartbeat(self) -> None:
        """Show other hosts the holder is alive: a new beat in the lock file, and its time."""
        handle = self._handle
        if handle is None:
            return
        self._beat += 1
        with contextlib.suppress(OSError, ValueError):
            # Same length every time, written in place: a reader never sees a short file.
            handle.seek(0)
            handle.write(_content(self.info, self._beat))
            handle.flush()
        with contextlib.suppress(OSError):
            os.utime(handle.fileno() if os.utime in os.supports_fd else lock_path(self.file))

    def release(self) -> None:
        """Give the file back: remove the lock files, then drop the OS locks."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        _release_handle(handle, lock_path(self.file))
        inode, self._inode = self._inode, None
        if inode is not None:
            _release_handle(*inode)


def _content(info: LockInfo, beat: int) -> str:
    """The lock file's JSON: the holder, and a fixed-width beat the heartbeat advances."""
    return json.dumps({**asdict(info), "beat": f"{beat:012d}"}, ensure_ascii=False)


def _open_lock(path: Path) -> IO[str]:
    """Open (creating) a lock file without following a link; refuse what is not a file."""
    flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW | _NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as error:
        if os.path.islink(path):
            raise UnsafeLockFile(
                "the lock file is a symbolic link (to {readlink}); rag-annotator "
                "never writes through one: delete the link, then open the file again.",
                readlink=os.readlink(path),
                path=path) from None
        raise error
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafeLockFile("the lock file is not a regular file; delete it, then open "
                             "the file again.", path=path)
    return os.fdopen(fd, "r+", encoding="utf-8")


def _locked_handle(path: Path) -> IO[str] | None:
    """The lock file at ``path``, open and OS-locked by us; None when another process holds
    it."""
    for _attempt in range(5):
        handle = _open_lock(path)
        if not _try_os_lock(handle):
            handle.close()
            return None
        # The holder may have released (unlinked) the path between our open and our lock:
        # then we locked a dead inode; start again on the current file.
        if _same_file(handle, path):
            return handle
        _os_unlock(handle)
        handle.close()
    raise FileBusy("the lock file keeps changing under us; try again.", path=path)


def _write(handle: IO[str], info: LockInfo) -> None:
    handle.seek(0)
    handle.truncate()
    handle.write(_content(info, 0))
    handle.flush()
    os.fsync(handle.fileno())


def _take_inode_lock(file: Path, info: LockInfo) -> tuple[IO[str], Path] | None:
    """The lock named by the file's device and inode (None when the app's lock folder
    cannot be written: the lock beside the file still holds)."""
    try:
        path = inode_lock_path(file)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = _locked_handle(path)
    except (OSError, UnsafeLockFile):
        return None
    if handle is None:
        holder = _parse(_read_nofollow(path))
        raise FileInUse(file, holder or LockInfo("", "?", 0, "?"))
    try:
        _write(handle, info)
    except OSError:
        _release_handle(handle, path)
        return None
    return handle, path


def _take_file_lock(file: Path, info: LockInfo) -> tuple[IO[str], LockInfo | None]:
    """The lock beside the file: ``(handle, the stale holder taken over)``."""
    path = lock_path(file)
    handle = _locked_handle(path)
    if handle is None:
        raise FileInUse(file, read_holder(file) or LockInfo("", "?", 0, "?"))
    try:
        raw = _read_nofollow(path)
        previous = _parse(raw)
        if previous is not None and previous.host != host_name():
            _check_other_host(file, path, previous, raw)
        _write(handle, info)
    except BaseException:
        _os_unlock(handle)
        handle.close()
        raise
    return handle, previous


def _release_handle(handle: IO[str], path: Path) -> None:
    """Remove the lock file if it is still ours (never what a link points to), unlock."""
    with contextlib.suppress(OSError):
        if _same_file(handle, path):
            path.unlink()
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
    """Whether ``path`` (not what it may link to) is the file ``handle`` has open."""
    try:
        return os.path.samestat(os.fstat(handle.fileno()), os.lstat(path))
    except OSError:
        return False


def _check_other_host(file: Path, path: Path, holder: LockInfo, raw: bytes) -> None:
    """Raise FileInUse while another host's lock looks alive.

    Its OS lock may be invisible to us (network share), so its heartbeat decides: alive while
    its time is less than :data:`STALE_AFTER_SECONDS` old.  A time ahead of ours cannot be
    aged: then the lock is alive until its content stayed the same for that long, by our
    clock — each attempt notes the content it saw and when (:func:`_unchanged_for`).
    """
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        return
    if age >= STALE_AFTER_SECONDS:
        return
    if age >= -CLOCK_SKEW_SECONDS:
        raise FileInUse(file, holder)
    if _unchanged_for(path, raw) < STALE_AFTER_SECONDS:
        raise FutureLock(file, holder)


def _unchanged_for(path: Path, raw: bytes) -> float:
    """Seconds (by our clock) since an attempt first saw the lock file with this content;
    0 the first time.  Notes are kept in the app's lock folder; without one, 0."""
    digest = hashlib.sha256(raw).hexdigest()
    key = hashlib.sha256(str(path).encode("utf-8", "replace")).hexdigest()[:16]
    now = time.time()
    try:
        note = locks_folder() / f"seen-{key}.json"
        try:
            seen = json.loads(note.read_text(encoding="utf-8"))
            if seen["digest"] == digest:
                return max(0.0, now - float(seen["at"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass
        note.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _note_temp(note)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"digest": digest, "at": now}, out)
        os.replace(tmp, note)
    except OSError:
        pass
    return 0.0


def _note_temp(note: Path) -> tuple[int, Path]:
    from rag_annotator.storage.tempfiles import open_temp_file

    return open_temp_file(note.parent)
