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

import itertools
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
    "answer_reviews", "releases", "judge_verdicts", "case_reviews", "trajectories",
    "trajectory_steps", "trajectory_reviews", "identities",
    "output_contracts", "decisive_fields", "structured_checks", "field_outcomes",
    "campaigns", "campaign_assessors", "queues", "control_judgments", "cannot_judge",
    "review_samples", "review_sample_items", "claim_assessments", "trajectory_assessments",
    "document_files",
)

#: Content-addressed tables: a row is named by the hash of its bytes, written once, shared by
#: every row that refers to it, and never updated or deleted by an operation.  Its inserts are
#: not in the history (a kept PDF's bytes would be copied into the history's JSON, and an
#: undo that deleted the row would leave a redo nothing to point at): an undo takes back the
#: rows that refer to it and leaves the content for a redo or a later import of the same
#: bytes.
CONTENT_TABLES = frozenset({"document_files"})

#: Rows per ``insert_range`` history row: bounds the JSON an undo writes per history row.
RANGE_BATCH = 50_000
_END: Any = object()  # the end of an iterator of rows

#: Page cache (KiB) while a bulk insert runs (SQLite's default is 2,000 KiB).
BULK_CACHE_KIB = 256 * 1024

#: History kinds that stand for a contiguous id range of rows instead of one row.
RANGE_KINDS = ("insert_range", "delete_range")

#: Tables whose rows name a judging (case, document) pair: ``Changes.pairs``.
PAIR_TABLES = frozenset(("judgments", "adjudications", "retrieved", "expected_sources",
                         "control_judgments", "cannot_judge"))


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
    _pairs: set[tuple[int, int]] = field(default_factory=set)
    _claims: set[int] = field(default_factory=set)
    _every_pair: bool = False
    _every_claim: bool = False

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

    def select_columns(self, table: str, columns: Sequence[str],
                       **where: Any) -> list[tuple[Any, ...]]:
        """``columns`` of the rows whose columns equal the given values, as tuples: a bulk
        operation's lookups (20,000 trajectories' ids), without a dict of every column per
        row."""
        self.schema.check_columns(table, [*columns, *where])
        sql = f"SELECT {', '.join(columns)} FROM {table}"
        if where:
            sql += " WHERE " + " AND ".join(f"{c} IS ?" for c in where)
        return self.conn.execute(sql, tuple(where.values())).fetchall()

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
        # a content row is not read back: it is what was given (a kept PDF read again would
        # double the memory of its import)
        new = {**row, **key} if table in CONTENT_TABLES else self.get(table, key)
        assert new is not None
        self._record(table, key, "insert", None, new)
        return new

    def insert_many(self, table: str, rows: Iterable[Mapping[str, Any]]) -> int:
        """Insert many rows with one prepared statement, in batches; return how many.

        With logging, each batch of an id-keyed table is recorded as ONE ``insert_range``
        history row holding its first and last id instead of one full image per row: the
        operation holds the write lock and ids are AUTOINCREMENT, so a batch's ids are
        consecutive, and the rows themselves are the after-image.  That keeps a
        1,000,000-row import within a small factor of a raw ``executemany`` while it stays
        undoable (see :func:`revert_rows`).  Rows that carry their own ``id``, or tables
        keyed otherwise, are logged row by row.  Without logging the operation row still says
        what happened, but it cannot be reverted.
        """
        it = iter(rows)
        first = next(it, None)
        if first is None:
            return 0
        columns = tuple(first)
        self.schema.check_columns(table, columns)
        if self.log and not self._ranged(table, columns):
            count = 0
            for row in itertools.chain((first,), it):
                self.insert(table, row)
                count += 1
            return count
        return self.insert_rows(table, columns, (
            tuple(row[c] for c in columns) for row in itertools.chain((first,), it)))

    def insert_rows(self, table: str, columns: Sequence[str],
                    rows: Iterable[Sequence[Any]]) -> int:
        """:meth:`insert_many` for rows given as tuples in ``columns`` order.

        The bulk path of imports: a million dicts would cost more than SQLite's inserts.
        Logged as ``insert_range`` rows when the table is id-keyed and ``id`` is not given;
        otherwise row by row (or not at all without logging).
        """
        columns = tuple(columns)
        self.schema.check_columns(table, columns)
        count = 0
        if self.log and not self._ranged(table, columns):
            for row in rows:
                self.insert(table, dict(zip(columns, row)))
                count += 1
            return count
        # A bulk insert updates several indexes in random order and checks foreign keys in
        # tables bigger than SQLite's default 2 MB page cache: a larger cache for its
        # duration makes a 1,000,000-row import ~20 % faster; it is given back after.
        previous = int(self.conn.execute("PRAGMA cache_size").fetchone()[0])
        self.conn.execute(f"PRAGMA cache_size = {-BULK_CACHE_KIB}")
        try:
            # each batch goes from the rows' iterator straight to SQLite (islice): no list
            # built by a Python step per row (issue 19: 180,000 trajectory steps)
            rows = iter(rows)
            while (first := next(rows, _END)) is not _END:
                count += self._flush(table, columns, itertools.chain(
                    (first,), itertools.islice(rows, RANGE_BATCH - 1)))
        finally:
            self.conn.execute(f"PRAGMA cache_size = {previous}")
        if count:
            self._touched.setdefault(table, {}).setdefault("insert", set())
            self._ranged_rows(table)
        return count

    def insert_select(self, table: str, columns: Sequence[str], select_sql: str,
                      params: Sequence[Any] | Mapping[str, Any] = ()) -> int:
        """``INSERT INTO table (columns) SELECT …`` in one statement (the rows never reach
        Python: a collect brings 200,000 judgments from an attached file this way), logged
        like :meth:`insert_rows` as ``insert_range`` rows of at most :data:`RANGE_BATCH` ids.
        ``select_sql`` is built by the storage layer from names, never from user text."""
        columns = tuple(columns)
        self.schema.check_columns(table, columns)
        if not self._ranged(table, columns):
            raise ValueError(f"{table}: insert_select needs an id-keyed table without ids")
        before = self._sequence(table)
        count = self.conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) {select_sql}",
                                  params).rowcount
        if count <= 0:
            return 0
        last = self._sequence(table)
        if last - before != count:  # cannot happen under the write lock; never log a lie
            raise RuntimeError(f"{table}: {count} rows took ids {before + 1}–{last}")
        if self.log:
            for first in range(before + 1, last + 1, RANGE_BATCH):
                end = min(first + RANGE_BATCH - 1, last)
                self._record_range(table, "insert_range", first, end, None,
                                   _dump({"first": first, "last": end,
                                          "count": end - first + 1}))
        else:
            self._touched.setdefault(table, {}).setdefault("insert", set())
            self._ranged_rows(table)
        return count

    def _ranged(self, table: str, columns: tuple[str, ...]) -> bool:
        """True when inserts into ``table`` get consecutive AUTOINCREMENT ids (and are
        logged as ranges: never a content table's, which are not logged at all)."""
        return (self.schema.table(table).pk == ("id",) and "id" not in columns
                and table not in CONTENT_TABLES)

    def _flush(self, table: str, columns: tuple[str, ...], batch: Iterable[Sequence[Any]]
               ) -> int:
        """Insert ``batch`` (at most :data:`RANGE_BATCH` rows); return how many it held."""
        sql = (f"INSERT INTO {table} ({', '.join(columns)}) "
               f"VALUES ({', '.join('?' for _ in columns)})")
        before = self._sequence(table) if self.log else 0
        n = self.conn.executemany(sql, batch).rowcount  # a plain INSERT: one change per row
        if n <= 0:
            return 0
        if self.log:
            last = self._sequence(table)
            if last - before != n:  # cannot happen under the write lock; never log a lie
                raise RuntimeError(f"{table}: {n} rows took ids {before + 1}–{last}")
            self._record_range(table, "insert_range", before + 1, last, None,
                               _dump({"first": before + 1, "last": last, "count": n}))
        return n

    def _sequence(self, table: str) -> int:
        """The largest id the table ever used (AUTOINCREMENT's counter; 0 before any)."""
        row = self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = ?",
                                (table,)).fetchone()
        return 0 if row is None else int(row[0])

    def delete_range(self, table: str, first: int, last: int) -> int:
        """Delete the rows with ids ``first``–``last``, recorded as ONE ``delete_range`` row.

        Its ``old`` holds the rows compactly (``{"columns": [...], "rows": [[...], ...]}``),
        so reverting it (redo of an undone import) puts them back with the same ids.
        """
        _refuse_content(table)
        self.schema.table(table)
        cur = self.conn.execute(f"SELECT * FROM {table} WHERE id BETWEEN ? AND ? ORDER BY id",
                                (first, last))
        columns = [d[0] for d in cur.description]
        found = cur.fetchall()
        if not found:
            return 0
        self.conn.execute(f"DELETE FROM {table} WHERE id BETWEEN ? AND ?", (first, last))
        old = json.dumps({"columns": columns, "rows": found}, ensure_ascii=False,
                         allow_nan=False, separators=(",", ":"))
        self._record_range(table, "delete_range", first, last, old, None)
        return len(found)

    def insert_range(self, table: str, columns: list[str], rows: list[list[Any]]) -> int:
        """Insert rows with their own consecutive ids (``id`` among ``columns``), recorded as
        ONE ``insert_range`` row: the inverse of :meth:`delete_range`."""
        self.schema.check_columns(table, columns)
        ids = [r[columns.index("id")] for r in rows]
        first, last = min(ids), max(ids)
        if last - first + 1 != len(rows):
            raise ValueError(f"{table}: ids {first}–{last} are not {len(rows)} consecutive ids")
        self.conn.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' for _ in columns)})", rows)
        self._record_range(table, "insert_range", first, last, None,
                           _dump({"first": first, "last": last, "count": len(rows)}))
        return len(rows)

    def _record_range(self, table: str, kind: str, first: int, last: int,
                      old: str | None, new: str | None) -> None:
        simple = "insert" if kind == "insert_range" else "delete"
        self._touched.setdefault(table, {}).setdefault(simple, set())
        self._ranged_rows(table)
        self.conn.execute(
            "INSERT INTO history (operation_id, table_name, row_key, kind, old, new) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (self.operation_id, table, _dump({"first": first, "last": last}), kind, old, new),
        )

    def update(self, table: str, key: Mapping[str, Any], values: Mapping[str, Any]) -> Row | None:
        """Set columns of one row; return the new row, or None when nothing changed."""
        _refuse_content(table)
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
        _refuse_content(table)
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

    def _ranged_rows(self, table: str) -> None:
        """Rows written by range name no pair or claim: say "every" for what they hold (new
        or removed cases too: their pairs are not named either)."""
        if table in PAIR_TABLES or table == "cases":
            self._every_pair = True
        elif table in ("claims", "evidence"):
            self._every_claim = True

    def _note_judging(self, table: str, image: Row) -> None:
        """Remember the pair or claim a judging, pool or claim row names."""
        if table in PAIR_TABLES:
            self._pairs.add((int(image["case_id"]), int(image["document_id"])))
        elif table == "claims":
            self._claims.add(int(image["id"]))
        elif table == "evidence":
            self._claims.add(int(image["claim_id"]))

    def _record(self, table: str, key: Mapping[str, Any], kind: str,
                old: Row | None, new: Row | None) -> None:
        ident = next(iter(key.values())) if len(key) == 1 else json.dumps(dict(key))
        self._touched.setdefault(table, {}).setdefault(kind, set()).add(ident)
        for image in (old, new):
            if image is not None:
                self._note_judging(table, image)
        if not self.log or table in CONTENT_TABLES:
            return
        self.conn.execute(
            "INSERT INTO history (operation_id, table_name, row_key, kind, old, new) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (self.operation_id, table, _dump(key), kind,
             None if old is None else _dump(old), None if new is None else _dump(new)),
        )

    def changes(self) -> Changes:
        """What this operation changed, for the UI and the caller: rows by table, and the
        judging pairs and claims they name (see :class:`Changes`)."""
        return Changes.build(self.operation_id, self.action, self.label, self._touched,
                             pairs=self._pairs, claims=self._claims,
                             every_pair=self._every_pair, every_claim=self._every_claim)


def _refuse_content(table: str) -> None:
    """A content-addressed row is never changed in place (see :data:`CONTENT_TABLES`)."""
    if table in CONTENT_TABLES:
        raise ValueError(f"{table} rows are written once and never changed or deleted")


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


@contextmanager
def savepoint(conn: sqlite3.Connection, name: str = "operation") -> Iterator[None]:
    """``SAVEPOINT`` … ``RELEASE`` inside an open transaction: one operation of a batch
    (``GoldSetStore.batch``).  On any exception only its own changes are rolled back (the
    batch's earlier operations stay, to be committed or rolled back with the batch)."""
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute(f"ROLLBACK TO {name}")
            conn.execute(f"RELEASE {name}")
        raise
    conn.execute(f"RELEASE {name}")


def revert_rows(op: Operation, history_rows: list[sqlite3.Row | tuple[Any, ...]]) -> None:
    """Put back the before-images of ``history_rows`` (newest first), checking for conflicts.

    Rows are ``(history id, table, row key, kind, old, new)``.  Each row must still hold the
    after-image its history recorded; otherwise something later changed it and the revert is
    refused (whole operation rolled back) with a Conflict.  A range row is checked without
    its images: an ``insert_range`` needs every id of its range present and no later history
    row naming one of them; a ``delete_range`` needs none of its ids present.
    """
    for history_id, table, key_json, kind, old_json, new_json in history_rows:
        key = json.loads(key_json)
        if kind in RANGE_KINDS:
            _revert_range(op, history_id, table, kind, int(key["first"]), int(key["last"]),
                          old_json)
            continue
        current = op.get(table, key)
        expected = None if new_json is None else json.loads(new_json)
        if current is not None and expected is not None and set(expected) < set(current):
            # images recorded before a migration added columns lack them: compare what the
            # history recorded (the operation being undone never touched the new columns)
            current = {c: current[c] for c in expected}
        if current != expected:
            raise Conflict(
                "cannot undo: {table} {describe} was changed since; "
                "undo the later change first.", table=table, describe=_describe(key)
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


def _revert_range(op: Operation, history_id: int, table: str, kind: str, first: int,
                  last: int, old_json: str | None) -> None:
    op.schema.table(table)  # refuses a name that is not ours before it reaches SQL
    present = int(op.conn.execute(f"SELECT count(*) FROM {table} WHERE id BETWEEN ? AND ?",
                                  (first, last)).fetchone()[0])
    span = f"{table} #{first}–#{last}"
    if kind == "insert_range":
        if present != last - first + 1 or not _range_unchanged(op, history_id, table, first,
                                                                last):
            raise Conflict("cannot undo: rows of {span} were changed since; "
                           "undo the later change first.", span=span)
        op.delete_range(table, first, last)
        return
    if present:
        raise Conflict("cannot undo: rows of {span} exist again; undo the later change first.",
                       span=span)
    assert old_json is not None
    old = json.loads(old_json)
    try:
        op.insert_range(table, old["columns"], old["rows"])
    except sqlite3.IntegrityError as error:
        raise Conflict("cannot undo: rows of {span} refer to rows deleted since ({error}); "
                       "undo the later change first.", span=span, error=error) from None


def _range_unchanged(op: Operation, history_id: int, table: str, first: int,
                     last: int) -> bool:
    """True when every row of an inserted range is still as it was inserted.

    Ids are never reused, so only later history rows naming an id of the range matter.  They
    are found by scanning the history *after* the range's row (``+table_name`` keeps SQLite
    off the ``history_row`` index): an undo, the common case, scans next to nothing, where
    the index would walk every change ever made to the table.  Another range row
    overlapping it (the range was undone and redone since) is a change.  For single rows, the
    first later change of each id holds, as its before-image, the row as inserted: the row
    must be back to that image (an edit that was undone since does not block the revert).
    """
    inserted: dict[int, str | None] = {}
    for key_json, kind, old_json in op.conn.execute(
            "SELECT row_key, kind, old FROM history WHERE id > ?2 AND +table_name = ?1 AND ("
            "json_extract(row_key, '$.id') BETWEEN ?3 AND ?4 OR (json_extract(row_key, "
            "'$.first') <= ?4 AND json_extract(row_key, '$.last') >= ?3)) ORDER BY id",
            (table, history_id, first, last)):
        if kind in RANGE_KINDS:
            return False
        inserted.setdefault(int(json.loads(key_json)["id"]), old_json)
    for row_id, old_json in inserted.items():
        if old_json is None or op.get(table, {"id": row_id}) != json.loads(old_json):
            return False
    return True


def _describe(key: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in key.items())
