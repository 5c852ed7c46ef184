"""Remembered clean damage checks: the CLI's read-only commands skip SQLite's full quick
check of a file nobody changed since its last clean check (issue 19).

The quick check reads every page: ~0.35 s per 200 MB, a third of ``metrics --json`` on a
10,000-case file.  ``info``, ``metrics`` and ``export`` open the file read-only, so when it
is byte-for-byte the file a full check found sound, checking again tells nothing new.

**What "unchanged" means** (:func:`fingerprint`): the same resolved path, device and inode,
size, modification and status-change times (nanoseconds), and the same 100-byte SQLite
header — which holds the *file change counter* (offset 24, bumped by every committed write
in rollback-journal mode, the persisted counterpart of ``PRAGMA data_version``, which only
compares within one connection), the page count, the schema cookie and ``user_version``.
A file in WAL mode (its commits do not bump the counter) or with a ``-journal`` / ``-wal``
beside it is never remembered: it is always checked in full.

**Where it is kept**: one small JSON file per gold set in the app's data folder
(``checks/``, named by a hash of the resolved path), never in the gold set or beside it.
Writing into the file would make a read-only command a writer (a read-only file or folder,
a file being synced or e-mailed, the "left byte-identical" promise of every refusal) and
would itself bump the change counter and mtime it relies on; a file beside it would clutter
the user's folder and travel with copies to machines where it means nothing.  Losing the
folder only costs one full check.

**What a skip cannot see**: damage that keeps the size, both times and the header — bits
rotting on the disk itself, or a tool that rewrites pages in place and then restores the
times (``touch -d`` cannot restore the status-change time on POSIX, so this needs root or a
raw device write).  Such a file still fails loudly when a read meets a broken page (SQLite's
"database disk image is malformed", reported as a damaged file), ``check`` always checks in
full, and the desktop app checks every file it opens.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path

#: Header bytes 18 and 19 (read and write format versions): 1 = rollback journal, 2 = WAL.
_JOURNAL_FORMAT = b"\x01\x01"


def fingerprint(path: Path) -> str | None:
    """What must stay the same for a clean check to still hold, or None when the file's
    state cannot be told from it (WAL mode, a journal beside it, not a regular file)."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return None
        with open(path, "rb") as handle:
            header = handle.read(100)
        for suffix in ("-journal", "-wal"):
            if os.path.lexists(f"{path}{suffix}"):
                return None
    except OSError:
        return None
    if len(header) < 100 or header[18:20] != _JOURNAL_FORMAT:
        return None
    parts = (str(Path(path).resolve()), info.st_dev, info.st_ino, info.st_size,
             info.st_mtime_ns, info.st_ctime_ns, header.hex())
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _record(folder: Path, path: Path) -> Path:
    name = hashlib.sha256(str(Path(path).resolve()).encode("utf-8", "surrogatepass"))
    return folder / f"{name.hexdigest()[:32]}.json"


def was_clean(folder: Path, path: Path, print_: str) -> bool:
    """True when the last full check of ``path`` found it sound and ``print_`` (its
    :func:`fingerprint` now) is the one taken just before that check."""
    try:
        data = json.loads(_record(folder, path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("fingerprint") == print_


def remember_clean(folder: Path, path: Path, print_: str) -> None:
    """Record that a full check found ``path`` sound; ``print_`` must have been taken
    before the check began (a change during the check then shows as a change).  Best
    effort: a folder that cannot be written only means the next command checks again."""
    record = _record(folder, path)
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        partial = record.with_name(f"{record.name}.{os.getpid()}.part")
        partial.write_text(json.dumps({"path": str(Path(path).resolve()),
                                       "fingerprint": print_}), encoding="utf-8")
        os.replace(partial, record)


def forget(folder: Path, path: Path) -> None:
    """Drop ``path``'s record (its next read-only open checks in full)."""
    with contextlib.suppress(OSError):
        _record(folder, path).unlink()
