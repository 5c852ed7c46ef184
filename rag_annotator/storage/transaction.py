"""One user operation = one SQLite transaction + its history rows.

:class:`Operation` is the only way the app writes entity rows.  Each insert, update and delete
reads the row's previous image, applies the change and appends ``(table, key, kind, old, new)``
to ``history`` under one ``operations`` row (who, when, action, label).  Because the history
holds full before/after images, any operation can be reverted generically: that is how undo,
redo and "revert from the history view" work, with no per-feature inverse code to get wrong.

SQL is built here only from table and column names checked against the live schema, never
from user text; values are always bound parameters.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import Conflict

Row = dict[str, Any]

#: Tables that operations may write (meta included); bookkeeping tables are excluded.
WRITABLE_TABLES = (
    "meta", "assessors", "documents", "cases", "expected_sources", "runs", "retrieved",
    "answers", "citations", "judgments", "adjudications", "claims", "evidence",
    "answer_reviews", "releases",
)




@dataclass
class _TableInfo:
    columns: tuple[str, ...]
    pk: tuple[str, ...]


class SchemaInfo:
    """Column and primary-key names of the writable tables, read once from the file."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._tables: dict[str, _TableInfo] = {}
        for table in WRITABLE_TABLES:
            rows = conn.execute(f"PRAGMA table_info({table})").fetchall()
            columns = tuple(r[1] for r in rows)
            pk = tuple(r[1] for r in sorted((r for r in rows if r[5]), key=lambda r: r[5]))
            self._tables[table] = _TableInfo(columns, pk)

    def table(self, name: str) -> _TableInfo:
        """Return the table's info, refusing a name that is not a writable table."""
        try:
            return self._tables[name]
        except KeyError:
            raise ValueError(f"not a writable table: {name!r}") from None

    def check_columns(self, table: str, names: Iterable[str]) -> None:
        """Refuse column names the table does not have (guards the SQL we build)."""
        known = self.table(table).columns
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ValueError(f"{table} has no column {unknown[0]!r}")


@dataclass
class Operation:
    """A write transaction in progress; collect changes through its methods.

    Use through ``GoldSetStore.operation(...)``; the transaction commits when the ``with``
    block ends without an exception and rolls back otherwise.
    """

    conn: sqlite3.Connection
    schema: SchemaInfo
    operation_id: int
    action: str
    label: str
    log: bool = True
    _touched: dict[str, dict[str, set[int | str]]] = field(default_factory=dict)

    # -- reads inside the transaction ------------------------------------------------------
    def get(self, table: str, key: Mapping[str, Any]) -> Row | None:
        """The current row with this primary key (or unique key), or None."""
        self.schema.check_columns(table, key)
        where = " AND ".join(f"{c} = ?" for c in key)
        cur = self.conn.execute(f"SELECT * FROM {table} WHERE {where}", tuple(key.values()))
        row = cur.fetchone()
        if row is None:
            return None
        return dict(zip([d[0] for d in cur.description], row))

    def select(self, table: str, order_by: str | None = None, **where: Any) -> list[Row]:
        """Rows whose columns equal the given values (``None`` matches NULL)."""
        self.schema.check_columns(table, list(where) + ([order_by] if order_by else []))
        clauses = [f"{c} IS ?" for c in where]
        sql = f"SELECT * FROM {table}"
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        if order_by:
            sql += f" ORDER BY {order_by}"
        cur = self.conn.execute(sql, tuple(where.values()))
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    def ids_by_key(self, table: str) -> dict[str, int]:
        """Natural key → id for cases and documents (``key``), runs and assessors (``name``)."""
        column = {"cases": "key", "documents": "key", "runs": "name", "assessors": "name"}[table]
        return dict(self.conn.execute(f"SELECT {column}, id FROM {table}").fetchall())

    # -- writes ------------------------------------------------------------------------------
    def insert(self, table: str, row: Mapping[str, Any]) -> Row:
        """Insert one row; return it as stored (with its new id)."""
        self.schema.check_columns(table, row)
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        cur = self.conn.execute(
            f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(row.values())
        )
        key = self._key_of(table, row, cur.lastrowid)
        new = self.get(table, key)
        assert new is not None
        self._record(table, key, "insert", None, new)
        return new

    def insert_many(self, table: str, rows: Iterable[Mapping[str, Any]]) -> int:
        """Insert many rows with one prepared statement; history per row when logging.

        Used by bulk loads (sample, imports); without logging the operation row still says
        what happened, but it cannot be reverted row by row.
        """
        count = 0
        columns: tuple[str, ...] | None = None
        batch: list[tuple[Any, ...]] = []
        for row in rows:
            if self.log:
                self.insert(table, row)
                count += 1
                continue
            if columns is None:
                columns = tuple(row)
                self.schema.check_columns(table, columns)
            batch.append(tuple(row[c] for c in columns))
            if len(batch) >= 5000:
                count += self._flush(table, columns, batch)
        if columns is not None and batch:
            count += self._flush(table, columns, batch)
        if count:
            self._touched.setdefault(table, {}).setdefault("insert", set())
        return count

    def _flush(self, table: str, columns: tuple[str, ...], batch: list[tuple[Any, ...]]) -> int:
        sql = (f"INSERT INTO {table} ({', '.join(columns)}) "
               f"VALUES ({', '.join('?' for _ in columns)})")
        self.conn.executemany(sql, batch)
        n = len(batch)
        batch.clear()
        return n

    def update(self, table: str, key: Mapping[str, Any], values: Mapping[str, Any]) -> Row | None:
        """Set columns of one row; return the new row, or None when nothing changed."""
        old = self.get(table, key)
        if old is None:
            raise KeyError(f"{table} {dict(key)} does not exist")
        self.schema.check_columns(table, values)
        changed = {c: v for c, v in values.items() if old.get(c) != v}
        if not changed:
            return None
        pk = self._pk_of(table, old)
        sets = ", ".join(f"{c} = ?" for c in changed)
        where = " AND ".join(f"{c} = ?" for c in pk)
        self.conn.execute(
            f"UPDATE {table} SET {sets} WHERE {where}", (*changed.values(), *pk.values())
        )
        new = self.get(table, pk)
        self._record(table, pk, "update", old, new)
        return new

    def delete(self, table: str, key: Mapping[str, Any]) -> Row | None:
        """Delete one row; return its last image (None if it did not exist)."""
        old = self.get(table, key)
        if old is None:
            return None
        pk = self._pk_of(table, old)
        where = " AND ".join(f"{c} = ?" for c in pk)
        self.conn.execute(f"DELETE FROM {table} WHERE {where}", tuple(pk.values()))
        self._record(table, pk, "delete", old, None)
        return old

    def delete_where(self, table: str, **where: Any) -> int:
        """Delete every row matching; each one recorded.  Returns how many."""
        rows = self.select(table, **where)
        for row in rows:
            self.delete(table, self._pk_of(table, row))
        return len(rows)

    # -- bookkeeping --------------------------------------------------------------------------
    def _pk_of(self, table: str, row: Mapping[str, Any]) -> dict[str, Any]:
        return {c: row[c] for c in self.schema.table(table).pk}

    def _key_of(self, table: str, row: Mapping[str, Any], rowid: int | None) -> dict[str, Any]:
        pk = self.schema.table(table).pk
        if pk == ("id",):
            return {"id": row.get("id", rowid)}
        return {c: row[c] for c in pk}

    def _record(self, table: str, key: Mapping[str, Any], kind: str,
                old: Row | None, new: Row | None) -> None:
        ident = next(iter(key.values())) if len(key) == 1 else json.dumps(dict(key))
        self._touched.setdefault(table, {}).setdefault(kind, set()).add(ident)
        if not self.log:
            return
        self.conn.execute(
            "INSERT INTO history (operation_id, table_name, row_key, kind, old, new) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (self.operation_id, table, _dump(key), kind,
             None if old is None else _dump(old), None if new is None else _dump(new)),
        )

    def changes(self) -> Changes:
        """What this operation changed, for the UI and the caller."""
        return Changes.build(self.operation_id, self.action, self.label, self._touched)


def _dump(value: Mapping[str, Any]) -> str:
    return json.dumps(dict(value), ensure_ascii=False, sort_keys=True, allow_nan=False)


@contextmanager
def immediate_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception.

    IMMEDIATE takes the write lock up front, so no statement inside can fail with
    SQLITE_BUSY half-way (reliability.md B4).
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def revert_rows(op: Operation, history_rows: list[sqlite3.Row | tuple[Any, ...]]) -> None:
    """Put back the before-images of ``history_rows`` (newest first), checking for conflicts.

    Each row must still hold the after-image its history recorded; otherwise something later
    changed it and the revert is refused (whole operation rolled back) with a Conflict.
    """
    for table, key_json, kind, old_json, new_json in history_rows:
        key = json.loads(key_json)
        current = op.get(table, key)
        expected = None if new_json is None else json.loads(new_json)
        if current != expected:
            raise Conflict(
                f"cannot undo: {table} {_describe(key)} was changed since; "
                "undo the later change first."
            )
        old = None if old_json is None else json.loads(old_json)
        if kind == "insert":
            op.delete(table, key)
        elif kind == "delete":
            assert old is not None
            op.insert(table, old)
        else:
            assert old is not None
            op.update(table, key, {c: v for c, v in old.items() if c not in key})


def _describe(key: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in key.items())
