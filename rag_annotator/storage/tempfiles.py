"""Temporary files and folders that exports, backups and migrations make, and their cleanup.

Every temporary thing is created beside its destination (so the final ``os.replace`` is a
rename on one file system) under an unpredictable name, with ``O_CREAT | O_EXCL`` (a file) or
``mkdir`` (a folder): neither follows a link planted at the name, and neither reuses what is
there.  The names carry a fixed prefix, a short hash of this host's name and the process id
(``.rag-annotator-tmp-HOST-PID-RANDOM…``), so that :func:`clean_leftovers` can remove, on a
later start, exactly what a process killed mid-way left — only our own names, only from this
host (a process id means nothing on another machine of a shared folder), only when that
process is gone.

Not ``tempfile.mkstemp``: its files are 0600, and an export or a gold set is meant to be
shared; the umask decides, as for any file the user writes.

:func:`use_private_temp_folder` points Python's ``tempfile`` (which openpyxl uses for its
write-only sheets, holding gold-set content) at a folder of this process inside the app's own
folder, removed on exit and, if the process was killed, on the next start.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import re
import shutil
import sys
import tempfile
import threading
from pathlib import Path

PREFIX = ".rag-annotator-tmp-"
_NAME = re.compile(r"^\.rag-annotator-tmp-([0-9a-f]{8})-([0-9]+)-")
_lock = threading.Lock()
_private: Path | None = None


def _host() -> str:
    uname = getattr(os, "uname", None)
    name = str(uname().nodename) if uname is not None else os.environ.get("COMPUTERNAME", "")
    return hashlib.sha256(name.encode("utf-8", "replace")).hexdigest()[:8]


def _stem() -> str:
    import secrets  # here: hmac and base64 with it, none needed to open a file

    return f"{PREFIX}{_host()}-{os.getpid()}-{secrets.token_hex(8)}"


def is_ours(name: str) -> bool:
    """Whether a file name is one of the temporary names made here (any process, any host)."""
    return _NAME.match(name) is not None


def open_temp_file(folder: Path, suffix: str = "") -> tuple[int, Path]:
    """Create a new empty file with a temporary name in ``folder``: ``(open fd, path)``."""
    flags = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    for _attempt in range(100):
        path = folder / f"{_stem()}{suffix}"
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")


def temp_file(folder: Path, suffix: str = "") -> Path:
    """Create a new empty file with a temporary name in ``folder``; returns its path (for
    writers that open it themselves: SQLite, openpyxl)."""
    fd, path = open_temp_file(folder, suffix)
    os.close(fd)
    return path


def temp_folder(folder: Path, suffix: str = "") -> Path:
    """Create a new empty folder with a temporary name in ``folder``; returns its path."""
    for _attempt in range(100):
        path = folder / f"{_stem()}{suffix}"
        try:
            path.mkdir(mode=0o777)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"no free temporary name in {folder}")


def remove(path: Path) -> None:
    """Remove a temporary file or folder (and SQLite's journal of a temporary copy)."""
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        path.with_name(path.name + "-journal").unlink(missing_ok=True)


def process_alive(pid: int) -> bool:
    """Whether a process of this machine still runs (True when in doubt)."""
    if pid == os.getpid():
        return True
    if sys.platform == "win32":  # pragma: no cover - os.kill(pid, 0) would kill it there
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # type: ignore[attr-defined]
        if not handle:
            return False
        code = ctypes.c_ulong()
        ctypes.windll.kernel32.GetExitCodeProcess(handle, ctypes.byref(code))  # type: ignore[attr-defined]
        ctypes.windll.kernel32.CloseHandle(handle)  # type: ignore[attr-defined]
        return code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def clean_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files and folders left in ``folder`` by dead processes of this
    host; returns what was removed.  Never raises (a read-only folder keeps them)."""
    removed: list[Path] = []
    host = _host()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _NAME.match(entry.name)
        if match is None or match.group(1) != host or process_alive(int(match.group(2))):
            continue
        path = Path(entry.path)
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


def use_private_temp_folder(root: Path) -> Path | None:
    """Make ``tempfile`` use a folder of this process under ``root`` (idempotent).

    Leftovers of dead processes under ``root`` are removed first; ours is removed on exit.
    Returns the folder, or None when ``root`` cannot be written (``tempfile`` is left as is).
    """
    global _private
    with _lock:
        if _private is not None and _private.is_dir():
            return _private
        try:
            root.mkdir(parents=True, exist_ok=True, mode=0o700)
            clean_leftovers(root)
            folder = temp_folder(root)
            folder.chmod(0o700)
        except OSError:
            return None
        _private = folder
        tempfile.tempdir = str(folder)
        atexit.register(shutil.rmtree, folder, True)
        return folder
