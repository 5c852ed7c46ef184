"""Helpers shared by the core tests: raw reads of a gold-set file, CLI runs, file fingerprints.

Everything here reads the file through its own ``sqlite3`` connection (``mode=ro``), never
through the store under test, so a test proves what is committed on disk.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import struct
import subprocess
import sys
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path
from typing import Any

#: Entity tables (what a user edits); bookkeeping tables are listed apart.
ENTITY_TABLES = (
    "meta", "assessors", "documents", "cases", "expected_sources", "runs", "retrieved",
    "answers", "citations", "judgments", "adjudications", "claims", "evidence",
    "answer_reviews", "releases",
)
BOOK_TABLES = ("operations", "history")
TIMESTAMP_COLUMNS = frozenset({"created_at", "updated_at", "at"})


def ro_connect(path: Path) -> sqlite3.Connection:
    """A second, read-only connection to the file (it sees only committed data)."""
    return sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)


def dump(path: Path | sqlite3.Connection, tables: Iterable[str] = ENTITY_TABLES, *,
         drop: frozenset[str] = frozenset()) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of ``tables`` ordered by rowid, without the columns in ``drop``."""
    def read(conn: sqlite3.Connection) -> dict[str, list[tuple[Any, ...]]]:
        out = {}
        for table in tables:
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            keep = [c for c in cols if c not in drop]
            out[table] = conn.execute(
                f"SELECT {', '.join(keep)} FROM {table} ORDER BY rowid").fetchall()
        return out
    if isinstance(path, sqlite3.Connection):
        return read(path)
    with closing(ro_connect(path)) as conn:
        return read(conn)


def full_dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Entity and bookkeeping tables, every column."""
    return dump(path, ENTITY_TABLES + BOOK_TABLES)


def rows(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one read query on a fresh read-only connection."""
    with closing(ro_connect(path)) as conn:
        return conn.execute(sql, params).fetchall()


def scalar(path: Path, sql: str, params: tuple[Any, ...] = ()) -> Any:
    """The first column of the first row of a read query."""
    return rows(path, sql, params)[0][0]


def header_ids(path: Path) -> tuple[int, int]:
    """``(application_id, user_version)`` read from the raw 100-byte header."""
    header = Path(path).read_bytes()[:100]
    return struct.unpack(">I", header[68:72])[0], struct.unpack(">i", header[60:64])[0]


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def fingerprint(path: Path) -> tuple[str, int, int]:
    """Content hash, mtime (ns) and size: what "the file was not touched" means."""
    st = os.stat(path)
    return sha256(path), st.st_mtime_ns, st.st_size


def listing(folder: Path) -> list[str]:
    """Names in a folder (hidden ones included), sorted."""
    return sorted(p.name for p in Path(folder).iterdir())


def run_cli(*args: str, cwd: Path | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m rag_annotator ARGS`` in a subprocess (inherits RAG_ANNOTATOR_HOME)."""
    return subprocess.run(
        [sys.executable, "-m", "rag_annotator", *args], capture_output=True, text=True,
        cwd=cwd, timeout=timeout, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


def stderr_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def schema_up_to(patch: Any, version: int) -> None:
    """Within the monkeypatch context ``patch``, files are created at ``version``: only the
    migrations up to it run, as in a file an older build wrote (to test what comes after)."""
    from sqlite_utils import Migrations

    from rag_annotator.storage import schema
    from rag_annotator.storage import store as store_mod

    older = Migrations(schema.MIGRATIONS.name)
    older._migrations = [m for m in schema.MIGRATIONS._migrations
                         if int(m.name[:4]) <= version]
    patch.setattr(schema, "MIGRATIONS", older)
    patch.setattr(schema, "SCHEMA_VERSION", version)
    patch.setattr(store_mod, "SCHEMA_VERSION", version)
