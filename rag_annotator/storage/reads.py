"""The read half of the store's base: one connection, rows as dicts.

``GoldSetStore`` is assembled from this base and one read mixin per area (gold set, verify,
metrics, exchange) so that each area's SQL sits in its own small module while one class still
owns every SQL string of the application.  Mixins only read; writes go through
:meth:`GoldSetStore.operation`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag_annotator.errors import NotFound

if TYPE_CHECKING:
    from rag_annotator.storage.transaction import SchemaInfo

Row = dict[str, Any]


class ReadBase:
    """Connection access shared by the store and its read mixins."""

    _conn: sqlite3.Connection
    _schema: SchemaInfo  # the tables and columns this build knows (refuses unknown names)
    path: Path

    def _many(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cur = self._conn.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = self._many(sql, params)
        return rows[0] if rows else None

    @property
    def schema_version(self) -> int:
        """``PRAGMA user_version`` of the open file."""
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def meta(self, key: str, default: str = "") -> str:
        """A gold-set setting (name, guidelines, max_grade…)."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None or row[0] is None else str(row[0])

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Read-only query for storage-side helpers (reporting, tests).  Never for writes."""
        if not sql.lstrip().upper().startswith(("SELECT", "WITH")):
            raise ValueError("query() is for reads only")
        return self._many(sql, params)

    def count(self, table: str) -> int:
        """Number of rows in an entity table."""
        self._schema.table(table)  # refuses unknown names
        return int(self._conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    def has_rows(self, table: str) -> bool:
        """Whether an entity table holds any row: one index step, where ``count`` walks the
        whole table (27 ms for the start steps on a 100,000-document file, at start-up)."""
        self._schema.table(table)  # refuses unknown names
        return self._conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is not None

    def by_key(self, table: str, key: str) -> Row:
        """A case or document by its key, or a run/assessor by name (raises NotFound)."""
        column = {"cases": "key", "documents": "key", "runs": "name", "assessors": "name",
                  "releases": "name"}[table]
        row = self._one(f"SELECT * FROM {table} WHERE {column} = ?", (key,))
        if row is None:
            raise NotFound("no {table} named '{key}' in {name}.",
                           table=table[:-1], key=key, name=self.path.name)
        return row

    def by_id(self, table: str, row_id: int) -> Row:
        """Any entity row by id (raises NotFound)."""
        self._schema.table(table)
        row = self._one(f"SELECT * FROM {table} WHERE id = ?", (row_id,))
        if row is None:
            raise NotFound("no {table} with id {row_id}.", table=table[:-1], row_id=row_id)
        return row


def json_list(text: str | None) -> list[Any]:
    """A JSON list column as a list (an unreadable value shows as empty, never raises: the
    reads serve views and figures, and ``check`` reports a column that is not a list)."""
    if not text or text == "[]":  # most rows: no parse (30,000 per ``metrics``, issue 19)
        return []
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return value if isinstance(value, list) else []
