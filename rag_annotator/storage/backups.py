"""Rolling backups of the open gold-set file in the app's data folder, and restoring one.

The file on disk is always consistent (every edit is one committed transaction), so backups
are not about crashes: they are about the edit nobody meant (a wrong bulk import, a merge of
the wrong colleague's file undone too late, a file damaged by a failing disk).  In the spirit
of Anki's schedule, the app keeps the :data:`KEEP_RECENT` newest copies, plus the newest of
each of the last :data:`KEEP_DAYS` days and of each of the last :data:`KEEP_WEEKS` weeks, and
deletes the rest.  A copy is taken only from a file that passes SQLite's quick check — a damaged
file must never push the last sound copies out of the schedule.

Copies go through SQLite's backup API on their own read-only connection (safe on a worker
thread while the app writes: SQLite makes the writer wait, at most a moment).  Restoring keeps
a copy of the current file first, so a restore is itself reversible.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from rag_annotator.errors import DamagedFile, KnownError
from rag_annotator.storage import tempfiles
from rag_annotator.storage.connection import fsync_directory, quick_check_file
from rag_annotator.storage.snapshot import backup_file

KEEP_RECENT = 12
KEEP_DAYS = 7
KEEP_WEEKS = 8
#: A new copy is due when the newest one is older than this (and the file changed).
EVERY = timedelta(minutes=30)
_STAMP = "%Y%m%d-%H%M%S"
SUFFIX = ".goldset"


@dataclass(frozen=True)
class Backup:
    """One backup copy."""

    path: Path
    taken_at: datetime  # UTC
    size: int


def folder_for(file: Path, root: Path) -> Path:
    """The backups of one gold-set file: its name plus a short hash of its full path, so two
    ``exemple.goldset`` in different folders never share a schedule."""
    digest = hashlib.sha256(str(file.expanduser().resolve()).encode("utf-8")).hexdigest()[:8]
    return root / f"{file.stem}-{digest}"


def listing(file: Path, root: Path) -> list[Backup]:
    """The backups of ``file``, newest first."""
    folder = folder_for(file, root)
    found = []
    if folder.is_dir():
        for entry in folder.iterdir():
            taken = _parse_stamp(entry.name)
            if taken is not None and entry.is_file():
                found.append(Backup(entry, taken, entry.stat().st_size))
    # Same second: the later copy has the later modification time.
    return sorted(found, key=lambda b: (b.taken_at, b.path.stat().st_mtime_ns), reverse=True)


def is_due(file: Path, root: Path, now: datetime | None = None) -> bool:
    """True when the newest backup is older than :data:`EVERY`, or there is none."""
    backups = listing(file, root)
    now = now or datetime.now(timezone.utc)
    return not backups or now - backups[0].taken_at >= EVERY


def take(file: Path, root: Path, now: datetime | None = None) -> Backup | None:
    """Copy ``file`` into its backup folder and apply the schedule.

    Returns None (and copies nothing, deletes nothing) when the file fails its quick check.
    """
    if quick_check_file(file) is not None:
        return None
    now = now or datetime.now(timezone.utc)
    dest = _free_name(folder_for(file, root), now.strftime(_STAMP))
    source = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
    try:
        source.execute("PRAGMA busy_timeout=5000")
        backup_file(source, dest)
    finally:
        source.close()
    prune(file, root, now)
    return Backup(dest, _parse_stamp(dest.name) or now, dest.stat().st_size)


def kept(backups: list[Backup], now: datetime) -> set[Path]:
    """Which backups the schedule keeps: the newest few, one per recent day, one per week."""
    ordered = sorted(backups, key=lambda b: b.taken_at, reverse=True)
    keep = {b.path for b in ordered[:KEEP_RECENT]}
    days: set[object] = set()
    weeks: set[object] = set()
    for backup in ordered:  # newest first: the first seen of a day or week is its newest
        age = now - backup.taken_at
        day = backup.taken_at.date()
        week = backup.taken_at.isocalendar()[:2]
        if age <= timedelta(days=KEEP_DAYS) and day not in days:
            days.add(day)
            keep.add(backup.path)
        if age <= timedelta(weeks=KEEP_WEEKS) and week not in weeks:
            weeks.add(week)
            keep.add(backup.path)
    return keep


def prune(file: Path, root: Path, now: datetime | None = None) -> list[Path]:
    """Delete the backups the schedule no longer keeps, and the temporary copies of backups
    killed mid-way; returns the backups deleted."""
    now = now or datetime.now(timezone.utc)
    tempfiles.clean_leftovers(folder_for(file, root))  # copies killed mid-way
    backups = listing(file, root)
    keep = kept(backups, now)
    removed = []
    for backup in backups:
        if backup.path not in keep:
            backup.path.unlink(missing_ok=True)
            removed.append(backup.path)
    return removed


def restore(file: Path, backup: Path, root: Path, now: datetime | None = None) -> Path:
    """Replace ``file`` (closed by the caller) with ``backup``; returns the copy of the file
    as it was, taken first (it appears in the backup list, so the restore can be undone).

    The backup is checked before anything changes; the replacement is atomic (a temporary
    file beside ``file``, fsynced, renamed over it).
    """
    damage = quick_check_file(backup)
    if damage is not None:
        raise DamagedFile("this backup is damaged ({damage}); choose another one.", damage=damage,
                          path=backup)
    now = now or datetime.now(timezone.utc)
    before = _free_name(folder_for(file, root), f"{now.strftime(_STAMP)}-before-restore")
    source = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
    try:
        backup_file(source, before)
    finally:
        source.close()
    try:
        source = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
        try:
            backup_file(source, file)  # a temporary copy beside it, fsynced, renamed over it
        finally:
            source.close()
    except OSError as error:
        raise KnownError("could not restore the backup ({value}); the "
                         "file is as it was.", value=error.strerror or error, path=file) from error
    fsync_directory(file.parent)
    return before


def _free_name(folder: Path, stem: str) -> Path:
    """``stem.goldset`` in ``folder``, or ``stem-2.goldset``… when two copies share a second."""
    candidate = folder / f"{stem}{SUFFIX}"
    n = 1
    while candidate.exists():
        n += 1
        candidate = folder / f"{stem}-{n}{SUFFIX}"
    return candidate


def _parse_stamp(name: str) -> datetime | None:
    if not name.endswith(SUFFIX):
        return None
    try:
        return datetime.strptime(name[:15], _STAMP).replace(tzinfo=timezone.utc)
    except ValueError:
        return None
