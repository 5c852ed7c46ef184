"""The whole schema of a gold-set file, compared with the one this build writes.

A colleague's file is untrusted input (DESIGN section 9): an extra trigger runs on our next
write (wiping texts, flipping labels, emptying the history undo relies on), a view can stand
in for a table and forge what we read, a CHECK edited through ``writable_schema`` lets odd
values in.  So a file is opened only when every object in its ``sqlite_master`` — tables
(columns and CHECK constraints are in their ``CREATE`` text), indexes, triggers, views — is
exactly what this build's migrations create for the file's ``user_version``.

The reference is built in memory by running the first ``user_version`` migrations of this
build (the same code that made the file), so an older file is compared with its own
version's schema before it is migrated; once it is known, the migrations turn it into the
current shape.  Only the text of ``sqlite_master`` is read: nothing in the file (a trigger,
a view, a CHECK) is run by the comparison.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

from rag_annotator.messages import Message
from rag_annotator.storage import shape_cache
from rag_annotator.storage.shape_cache import RawObject

#: Tables SQLite itself may add to a sound file (``ANALYZE``); they only steer the planner.
_SQLITE_STAT_TABLES = frozenset({"sqlite_stat1", "sqlite_stat2", "sqlite_stat3",
                                 "sqlite_stat4"})
#: sqlite-utils' record of applied migrations: its exact DDL depends on the sqlite-utils
#: version that made the file, so it is checked by kind, not by text.
_MIGRATIONS_TABLE = "_sqlite_migrations"
#: A plain index on listed columns (no expression, no WHERE): evaluates nothing.
_PLAIN_INDEX = re.compile(r"CREATE (UNIQUE )?INDEX \w+ ON \w+ ?\(\w+( ?, ?\w+)*\)",
                          re.IGNORECASE)
#: sqlite-utils' table as any of its versions makes it: text and integer columns, a primary
#: key, nothing that evaluates an expression (no CHECK, DEFAULT, generated column).
_PLAIN_MIGRATIONS_TABLE = re.compile(
    r"CREATE TABLE _sqlite_migrations ?\(\w+ (INTEGER|TEXT)( PRIMARY KEY)?"
    r"(,\w+ (INTEGER|TEXT)( PRIMARY KEY)?)*(,PRIMARY KEY ?\(\w+(,\w+)*\))?\)",
    re.IGNORECASE)
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\[[^\]]*\]|`(?:[^`]|``)*`|\s+|.",
                    re.DOTALL)
_WORD = re.compile(r"\w+")


class SchemaObject(NamedTuple):
    """One row of ``sqlite_master``, its SQL normalised (see :func:`normalise_sql`)."""

    type: str
    name: str
    table: str
    sql: str | None


def normalise_sql(sql: str | None) -> str | None:
    """The statement with whitespace runs made one space (none next to punctuation) and
    identifier quotes dropped where the name is a plain word: SQLite's ``ALTER TABLE``
    and older builds quote and indent differently, string literals are kept as they are."""
    if sql is None:
        return None
    out: list[str] = []
    for token in _TOKEN.findall(sql.strip()):
        if token.isspace():
            out.append(" ")
            continue
        if token[0] in "\"[`" and len(token) >= 2 and _WORD.fullmatch(token[1:-1]):
            token = token[1:-1]
        out.append(token)
    joined: list[str] = []
    for token in out:  # no space next to punctuation (literals are single tokens)
        if token == " " and joined and joined[-1] in "(),;":
            continue
        if token in "(),;" and joined and joined[-1] == " ":
            joined.pop()
        joined.append(token)
    return "".join(joined)


def _raw_objects(conn: sqlite3.Connection) -> list[RawObject]:
    return [(str(kind), str(name), str(table), sql if isinstance(sql, str) else None)
            for kind, name, table, sql in conn.execute(
                "SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY rowid")]


def _normalised(raw: list[RawObject]) -> list[SchemaObject]:
    return [SchemaObject(kind, name, table, normalise_sql(sql))
            for kind, name, table, sql in raw]


def read_objects(conn: sqlite3.Connection) -> list[SchemaObject]:
    """Every schema object of the main database, in ``sqlite_master`` order (reads text)."""
    return _normalised(_raw_objects(conn))


class _ReferenceDb:
    """The part of sqlite-utils' ``Database`` the migration steps use (``execute``), so that
    building a reference does not import sqlite-utils (~0.1 s at start-up)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> sqlite3.Cursor:
        return self.conn.execute(sql, tuple(parameters or ()))


#: References already built, by the exact steps replayed (tests register extra migrations).
_REFERENCES: dict[tuple[Callable[..., None], ...], list[SchemaObject]] = {}


def reference_objects(version: int) -> list[SchemaObject]:
    """What this build's migrations create up to ``version`` (built in memory, cached)."""
    from rag_annotator.storage.schema import migration_functions

    steps = tuple(migration_functions()[:version])
    cached = _REFERENCES.get(steps)
    if cached is None:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        try:
            conn.execute("PRAGMA foreign_keys=OFF")
            conn.execute("BEGIN")
            for step in steps:
                step(cast(Any, _ReferenceDb(conn)))  # steps only call ``db.execute``
            raw = _raw_objects(conn)
            conn.execute("ROLLBACK")
        finally:
            conn.close()
        cached = _REFERENCES[steps] = _normalised(raw)
        shape_cache.remember(shape_cache.build_key(steps, version), shape_cache.digest(raw))
    return cached


def _beside_reference(obj: RawObject) -> bool:
    """Objects no migration step creates: SQLite's statistics, sqlite-utils' record."""
    _kind, name, table, _sql = obj
    return (name in _SQLITE_STAT_TABLES or name == _MIGRATIONS_TABLE
            or table == _MIGRATIONS_TABLE)


def _identical_to_reference(actual: list[RawObject], version: int) -> bool:
    """Whether the file's objects are, text for text, the reference's (plus only tolerated
    objects): then nothing differs, told by one hash against the remembered digest
    (:mod:`~rag_annotator.storage.shape_cache`) without replaying the migrations."""
    from rag_annotator.storage.schema import migration_functions

    steps = migration_functions()[:version]
    key = shape_cache.build_key(steps, version)
    known = shape_cache.remembered(key)
    if known is None:
        reference_objects(version)  # replays them once, and remembers the digest
        known = shape_cache.remembered(key)
    own = [obj for obj in actual if not _beside_reference(obj)]
    if known is None or shape_cache.digest(own) != known:
        return False
    return all(_tolerated(obj) for obj in _normalised(
        [obj for obj in actual if _beside_reference(obj)]))


def schema_differences(conn: sqlite3.Connection, version: int) -> list[str]:
    """How the file's schema differs from this build's at ``version``, one phrase each
    (empty when identical); the most telling first: missing or replaced objects, changed
    definitions, then objects this build never creates."""
    if version < 0:  # the header's field is signed; no build writes a negative one
        return [f"user_version {version} is not a schema version"]
    raw = _raw_objects(conn)
    if _identical_to_reference(raw, version):
        return []
    expected = {(o.type, o.name): o for o in reference_objects(version)}
    actual = _normalised(raw)
    by_name = {o.name: o for o in actual}
    problems: list[str] = []
    for obj in expected.values():
        found = by_name.get(obj.name)
        if found is None:
            problems.append(Message("{type} {name} is missing", type=obj.type, name=obj.name))
        elif found.type != obj.type:
            problems.append(Message("{name} is a {type}, not a {type2}",
                                    name=obj.name, type=found.type, type2=obj.type))
        elif found.table != obj.table:
            problems.append(Message(
                            "{type} {name} belongs to {table}, not {table2}",
                            type=obj.type, name=obj.name, table=found.table, table2=obj.table))
        elif found.sql != obj.sql:
            problems.append(Message("{type} {name} is defined differently "
                                    "({first_change})",
                                    type=obj.type, name=obj.name,
                                    first_change=_first_change(obj.sql, found.sql)))
    names = {name for (_kind, name) in expected}
    for obj in actual:
        if obj.name in names or _tolerated(obj):
            continue
        if obj.name == _MIGRATIONS_TABLE:
            problems.append(Message("{type} {name} is not the plain table sqlite-utils makes",
                                    type=obj.type, name=obj.name))
            continue
        on = Message(" on {table}", table=obj.table) if obj.type in ("trigger", "index") else ""
        problems.append(Message("unexpected {type} {name}{on}",
                                type=obj.type, name=obj.name, on=on))
    return problems


def _tolerated(obj: SchemaObject) -> bool:
    """Objects a sound file may hold beyond the reference, none of which runs anything."""
    if obj.type == "table" and obj.name in _SQLITE_STAT_TABLES:
        return True
    if obj.type == "table" and obj.name == _MIGRATIONS_TABLE:
        return bool(obj.sql and _PLAIN_MIGRATIONS_TABLE.fullmatch(obj.sql))
    return (obj.type == "index" and obj.table == _MIGRATIONS_TABLE
            and (obj.sql is None or bool(_PLAIN_INDEX.fullmatch(obj.sql))))


def _first_change(expected: str | None, actual: str | None) -> str:
    """Where the file's definition departs from the expected one, quoted briefly."""
    if expected is None or actual is None:
        return "no definition" if actual is None else "a definition where none is expected"
    at = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b),
              min(len(expected), len(actual)))
    start = max(0, at - 12)
    found = actual[start:at + 28] or "(ends early)"
    wanted = expected[start:at + 28] or "(nothing more)"
    return f"has '{found}' where this build has '{wanted}'"


def check_violation(conn: sqlite3.Connection) -> str | None:
    """The first table holding a row that one of this build's CHECK constraints refuses.

    For a connection whose quick check cannot see them (SQLite skips CHECKs on a read-only
    connection): this build's own CHECK expressions, taken from the reference schema (never
    the file's text), are evaluated over the file's rows.  Only run on a file whose schema
    is this build's (else None: a table may be missing, or a view standing in for it).
    """
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if schema_differences(conn, int(version)):
        return None
    for obj in reference_objects(int(version)):
        if obj.type != "table" or not obj.sql:
            continue
        checks = _check_expressions(obj.sql)
        if checks:
            refused = " OR ".join(f"NOT coalesce(({expr}), 1)" for expr in checks)
            if conn.execute(f'SELECT 1 FROM "{obj.name}" WHERE {refused} LIMIT 1').fetchone():
                return f"CHECK constraint failed in {obj.name}"
    return None


def _check_expressions(sql: str) -> list[str]:
    """The expressions of every ``CHECK (...)`` in a CREATE TABLE statement (parentheses
    and the word CHECK inside string literals do not count)."""
    literal = [False] * len(sql)
    for match in re.finditer(r"'(?:[^']|'')*'", sql):
        literal[match.start():match.end()] = [True] * (match.end() - match.start())
    found: list[str] = []
    for match in re.finditer(r"(?<!\w)CHECK\s*\(", sql, re.IGNORECASE):
        if literal[match.start()]:
            continue
        depth, start = 0, match.end() - 1
        for k in range(start, len(sql)):
            if not literal[k]:
                depth += {"(": 1, ")": -1}.get(sql[k], 0)
            if depth == 0:
                found.append(sql[start + 1:k])
                break
    return found
