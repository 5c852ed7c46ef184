"""A remembered digest of this build's reference schema, so that opening a file does not
replay every migration in memory first (issue 19: ~25 ms of each start).

:mod:`~rag_annotator.storage.shape` compares a file's whole ``sqlite_master`` with what this
build's migrations create for the file's version.  The reference is the same for a given
build, so its digest is kept in the app's data folder (``schema/``), named by a key of the
build: SQLite's version (``ALTER TABLE`` rewrites the stored text), the migration steps (their
names and the bytes of the modules defining them and of ``schema_sql``) and the version.  A
file whose objects are *textually identical* to the reference (every file this build or one
with the same migrations wrote) is then known sound from one ``sqlite_master`` read and one
hash; any other file (older SQLite text, an extra object, an edited CHECK) takes the full,
normalising comparison, as before.

Nothing here trusts the file: only its ``sqlite_master`` text is read and hashed.  The
digest file is the app's own (a program able to rewrite it can rewrite the app's settings
and backups too); losing it costs one replay of the migrations.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

#: (type, name, tbl_name, sql) as ``sqlite_master`` holds it.
RawObject = tuple[str, str, str, str | None]

#: Keys already computed in this process, by the steps they describe.
_KEYS: dict[tuple[Callable[..., Any], ...], str] = {}
#: Digests known in this process, by key.
_DIGESTS: dict[str, str] = {}


def digest(objects: Iterable[RawObject]) -> str:
    """One hash of a set of schema objects, whatever their order in ``sqlite_master``."""
    text = "\x1e".join(sorted("\x1f".join((kind, name, table, sql or "\x00"))
                              for kind, name, table, sql in objects))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def build_key(steps: Sequence[Callable[..., Any]], version: int) -> str:
    """What the reference of ``steps`` depends on, hashed (cached per process)."""
    cached = _KEYS.get(tuple(steps))
    if cached is not None:
        return f"{cached}-{version}"
    h = hashlib.sha256(sqlite3.sqlite_version.encode())
    files: dict[str, None] = {}
    for step in steps:
        h.update(f"{step.__module__}.{step.__qualname__}\n".encode())
        module = sys.modules.get(step.__module__)
        if module is not None and getattr(module, "__file__", None):
            files[str(module.__file__)] = None
    from rag_annotator.storage import schema_sql, schema_sql_team

    files[str(schema_sql.__file__)] = None
    files[str(schema_sql_team.__file__)] = None
    for file in files:
        try:
            h.update(Path(file).read_bytes())
        except OSError:
            h.update(b"?" + file.encode())  # no source: the key still names the module
    key = _KEYS[tuple(steps)] = h.hexdigest()[:32]
    return f"{key}-{version}"


def _folder() -> Path:
    from rag_annotator.paths import app_paths  # a leaf module, as for the locks

    return app_paths().data / "schema"


def remembered(key: str) -> str | None:
    """The reference digest recorded for ``key``, or None."""
    known = _DIGESTS.get(key)
    if known is not None:
        return known
    try:
        text = (_folder() / f"{key}.sha256").read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return None
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        return None  # not a digest we wrote: rebuilt and written again
    _DIGESTS[key] = text
    return text


def remember(key: str, value: str) -> None:
    """Record the reference digest of ``key`` (best effort: a folder that cannot be
    written only means the next start replays the migrations again)."""
    _DIGESTS[key] = value
    try:
        folder = _folder()
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{key}.{os.getpid()}.tmp"
        temporary.write_text(value + "\n", encoding="ascii")
        os.replace(temporary, folder / f"{key}.sha256")
    except OSError:
        pass


def forget() -> None:
    """Drop what this process remembers (tests: the folder is then read again)."""
    _KEYS.clear()
    _DIGESTS.clear()
