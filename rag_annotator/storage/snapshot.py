"""Consistent copies of an open file through SQLite's backup API.

A plain file copy of a live database can be corrupt after a power cut (backup.html); the
backup API gives a bit-wise snapshot.  The copy is written to a temporary name, fsynced and
renamed, so the destination holds either nothing or a whole file; the temporary name is new and
unpredictable, and a copy killed mid-way is removed on a later start (``storage.tempfiles``).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from rag_annotator.storage import tempfiles
from rag_annotator.storage.connection import fsync_directory

#: The temporary copy's suffix: not ``.goldset``, so that a backup listing never shows one.
SUFFIX = ".copy"


def backup_file(source: sqlite3.Connection, destination: Path) -> None:
    """Copy the open database to ``destination`` atomically (temp + fsync + rename)."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    tmp = tempfiles.temp_file(destination.parent, SUFFIX)
    try:
        target = sqlite3.connect(tmp)
        try:
            source.backup(target)
        finally:
            target.close()
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, destination)
    except BaseException:
        tempfiles.remove(tmp)
        raise
    fsync_directory(destination.parent)


def pre_migration_backup_path(file: Path, first_pending: str, backup_dir: Path | None) -> Path:
    """Where the copy taken before a migration goes: beside the file unless told otherwise."""
    folder = backup_dir if backup_dir is not None else file.parent
    return folder / f"{file.name}.before-{first_pending}.bak"
