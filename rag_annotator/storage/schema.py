"""Versioned migrations of the gold-set file.

Each migration is registered in order with :data:`MIGRATIONS` (sqlite-utils' migration set,
recorded in ``_sqlite_migrations``) and ends by setting ``PRAGMA user_version`` to its number,
inside the same transaction, so a file is always at a whole version.  A file listing a
migration name this build does not know, or a ``user_version`` above :data:`SCHEMA_VERSION`,
was written by a newer build and is refused (see ``connection.inspect_read_only``).

Design choices that matter for history and undo:

* entity tables use ``INTEGER PRIMARY KEY AUTOINCREMENT``: ids are never reused, so a row key
  recorded in the history names one row forever;
* foreign keys have no ``ON DELETE CASCADE``: domain operations delete dependants explicitly,
  so every removed row is in the history and an undo can put it back;
* list-valued fields (tags, must-contain points, rights…) are JSON arrays, validated by the
  domain and by ``check`` (a JSON CHECK constraint would need ``trusted_schema=ON``);
* a bulk insert is logged as ``insert_range`` rows (table, first and last id of a batch) and
  its undo as ``delete_range`` rows (the deleted rows as one JSON array), so a 1,000,000-row
  import stays undoable without a history row per row (``transaction.revert_rows``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # sqlite-utils is imported only to migrate: it costs ~0.1 s at start-up
    from sqlite_utils import Database, Migrations

from rag_annotator.storage.schema_sql import (
    CASES_0003,
    DOCUMENT_STRUCTURE,
    EXTRA_FIELDS,
    IDENTITIES_0004,
    MORE_EXTRA_FIELDS,
    SCHEMA_0001,
    SCHEMA_0002,
    SCHEMA_REVIEW_SAMPLES,
    SCHEMA_WIDE_GRADES,
    STRUCTURED_SQL,
    TRAJECTORIES_TRIALS,
)
from rag_annotator.storage.schema_sql_team import SCHEMA_TEAM, SCHEMA_TEAM_ITEMS

MIGRATION_SET = "rag_annotator"
_STEPS: list[tuple[str, Callable[[Database], None]]] = []


def _step(name: str) -> Callable[[Callable[[Database], None]], Callable[[Database], None]]:
    """Register a migration step, in order."""
    def register(fn: Callable[[Database], None]) -> Callable[[Database], None]:
        _STEPS.append((name, fn))
        return fn
    return register


@_step("0001_initial")
def _initial(db: Database) -> None:
    # Not executescript(): it would COMMIT the transaction the migration runs in.
    for statement in _statements(SCHEMA_0001):
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")


def _statements(script: str) -> list[str]:
    """Split a DDL script into statements (it has no ';' inside literals)."""
    return [s.strip() for s in script.split(";") if s.strip()]


@_step("0002_judges_costs_reviews")
def _judges_costs_reviews(db: Database) -> None:
    """Automatic judges as assessors with their own claim verdicts; answer cost and tokens;
    the review queue of imported synthetic cases."""
    for statement in _statements(SCHEMA_0002):
        db.execute(statement)
    db.execute("PRAGMA user_version = 2")


@_step("0003_agent_cases")
def _agent_cases(db: Database) -> None:
    """Agent cases (expected final state, invariants, budgets), trajectories and their
    reviews.  ``cases`` is rebuilt by SQLite's documented procedure: foreign keys are off
    while this runs (:func:`apply_migrations`), and are checked before the commit."""
    for statement in _statements(CASES_0003):
        db.execute(statement)
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:  # never commit a rebuild that lost a parent row
        raise sqlite3.IntegrityError(f"foreign keys broken by the cases rebuild: {broken[:5]}")
    db.execute("PRAGMA user_version = 3")


#: The number of the test-identities migration: kept in this ONE constant (its step, its
#: ``user_version`` and :data:`SCHEMA_VERSION` read it) so a merge renumbers it in one place.
IDENTITIES_VERSION = 4


@_step(f"{IDENTITIES_VERSION:04d}_test_identities")
def _test_identities(db: Database) -> None:
    """Test identities, each a set of groups (the rights matrix of seed 003)."""
    for statement in _statements(IDENTITIES_0004):
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {IDENTITIES_VERSION}")


#: Output contracts of RAG cases (a JSON Schema and the decisive fields, each with its
#: reference value, its comparison and the passage that justifies it), the check of each
#: structured answer (parsed, schema-valid) and one outcome per (answer, decisive field)
#: with the reviewer's confirmation or overrule.  Its number lives in ONE constant so the
#: merge that orders it among other migrations changes one line.
STRUCTURED_VERSION = 5


@_step(f"{STRUCTURED_VERSION:04d}_output_contracts")
def _output_contracts(db: Database) -> None:
    """Output contracts, decisive fields, structured checks and field outcomes."""
    for statement in _statements(STRUCTURED_SQL):
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {STRUCTURED_VERSION}")


#: The number of the team migration below, in ONE place (its name and user_version follow).
TEAM_VERSION = 6


@_step(f"{TEAM_VERSION:04d}_team_campaigns")
def _team_campaigns(db: Database) -> None:
    """Campaigns, assignments, control repeats, "can't judge" and time per judgment."""
    for statement in _statements(SCHEMA_TEAM):
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {TEAM_VERSION}")


#: Review samples of an automatic judge (issue 22); the step's name and user_version follow
#: this one constant.
REVIEW_SAMPLES_VERSION = 7


@_step(f"{REVIEW_SAMPLES_VERSION:04d}_review_samples")
def _review_samples(db: Database) -> None:
    """Seeded, stratified human review samples of an automatic judge (issue 22)."""
    for statement in _statements(SCHEMA_REVIEW_SAMPLES):
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {REVIEW_SAMPLES_VERSION}")


#: Number of the wide-grades migration (issue 18): the step's name, its user_version and
#: SCHEMA_VERSION follow this one constant.
WIDE_GRADES_VERSION = 8



@_step(f"{WIDE_GRADES_VERSION:04d}_wide_grades")
def _wide_grades(db: Database) -> None:
    """Grades above 4: ``judgments`` and ``adjudications`` rebuilt without the upper bound
    of their CHECK (SQLite cannot alter a constraint), rows and ids kept.  ``typeof`` keeps
    a text grade out, which ``BETWEEN 0 AND 4`` did by itself (text sorts above numbers)."""
    for statement in _statements(SCHEMA_WIDE_GRADES):
        db.execute(statement)
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise sqlite3.IntegrityError(f"foreign keys broken by the grades rebuild: {broken[:5]}")
    db.execute(f"PRAGMA user_version = {WIDE_GRADES_VERSION}")


#: The trials migration's number (its step's name and user_version follow it).
TRIALS_VERSION = 9



@_step(f"{TRIALS_VERSION:04d}_trajectory_trials")
def _trajectory_trials(db: Database) -> None:
    """Several trials of one case per run, and the benchmark's reward of each."""
    for statement in _statements(TRAJECTORIES_TRIALS):
        db.execute(statement)
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise sqlite3.IntegrityError(f"foreign keys broken by the trajectories rebuild: "
                                     f"{broken[:5]}")
    db.execute(f"PRAGMA user_version = {TRIALS_VERSION}")


#: The extra-fields migration's number (its step's name and user_version follow it).
EXTRA_VERSION = 10


@_step(f"{EXTRA_VERSION:04d}_extra_fields")
def _extra_fields(db: Database) -> None:
    """``cases.extra`` and ``answers.extra``: the per-record fields an import kept."""
    for statement in _statements(EXTRA_FIELDS):
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {EXTRA_VERSION}")


#: Claims and trajectories in campaigns (issue 15).
TEAM_ITEMS_VERSION = 11


@_step(f"{TEAM_ITEMS_VERSION:04d}_team_items")
def _team_items(db: Database) -> None:
    """Campaigns of claims and trajectories, each assessor's verdict on them, and each queue
    packed into one row of ``queues`` (the ``assignments`` view reads it slot by slot)."""
    for statement in _statements(SCHEMA_TEAM_ITEMS):
        db.execute(statement)
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise sqlite3.IntegrityError(f"foreign keys broken by the queues rebuild: "
                                     f"{broken[:5]}")
    db.execute(f"PRAGMA user_version = {TEAM_ITEMS_VERSION}")


#: Documents' and trajectories' kept import fields (issue 18).
MORE_EXTRA_VERSION = 12


@_step(f"{MORE_EXTRA_VERSION:04d}_more_extra_fields")
def _more_extra_fields(db: Database) -> None:
    """``documents.extra`` and ``trajectories.extra``: the per-record fields an import kept."""
    for statement in _statements(MORE_EXTRA_FIELDS):
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {MORE_EXTRA_VERSION}")


#: The expert's own documents: file kinds, pages, headings, kept files and passages.
DOCUMENT_STRUCTURE_VERSION = 13


@_step(f"{DOCUMENT_STRUCTURE_VERSION:04d}_document_structure")
def _document_structure(db: Database) -> None:
    """Documents keep their kind, page starts and headings; a PDF keeps its file (to show
    its pages); a passage keeps its place in its parent document."""
    for statement in _statements(DOCUMENT_STRUCTURE):
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {DOCUMENT_STRUCTURE_VERSION}")


#: The schema version this build writes (the number of the last migration).
SCHEMA_VERSION = DOCUMENT_STRUCTURE_VERSION


def migration_set() -> Migrations:
    """sqlite-utils' migration set of this build (built on first use)."""
    existing: Migrations | None = globals().get("MIGRATIONS")
    if existing is None:
        from sqlite_utils import Migrations

        existing = Migrations(MIGRATION_SET)
        for name, fn in _STEPS:
            existing(name=name)(fn)
        globals()["MIGRATIONS"] = existing
    return existing


def __getattr__(name: str) -> Any:
    """``schema.MIGRATIONS`` is built lazily (tests replace it with an extended copy)."""
    if name == "MIGRATIONS":
        return migration_set()
    raise AttributeError(name)


def known_migration_names() -> list[str]:
    """Names of every migration this build knows, in order."""
    existing: Migrations | None = globals().get("MIGRATIONS")
    if existing is None:
        return [name for name, _fn in _STEPS]
    return [migration.name for migration in existing._migrations]


def migration_functions() -> list[Callable[[Database], None]]:
    """The steps of every migration this build knows, in order (step ``n`` sets
    ``user_version`` to ``n``); ``shape.reference_objects`` replays them in memory."""
    existing: Migrations | None = globals().get("MIGRATIONS")
    if existing is None:
        return [fn for _name, fn in _STEPS]
    return [migration.fn for migration in existing._migrations]


def pending_migration_names(conn: sqlite3.Connection) -> list[str]:
    """Migrations not yet applied to the file (read-only, without sqlite-utils)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                    "AND name = '_sqlite_migrations'").fetchone() is None:
        return known_migration_names()
    applied = {name for (name,) in conn.execute(
        "SELECT name FROM _sqlite_migrations WHERE migration_set = ?", (MIGRATION_SET,))}
    return [name for name in known_migration_names() if name not in applied]


def apply_migrations(conn: sqlite3.Connection) -> None:
    """Apply every pending migration in ONE transaction: all of them, or none.

    Each step still runs in its own savepoint with its version bump (sqlite-utils nests
    them), but the file only changes at the final commit: a step that fails — on the
    second of two pending migrations too — rolls the file back to the bytes it had
    (rollback journal), with no ``_sqlite_migrations`` table left behind.
    """
    from sqlite_utils import Database

    # A table rebuild (0003) must run with foreign keys off, and the pragma is a no-op
    # inside a transaction: switch it here, around the migrations' transaction.
    (enforced,) = conn.execute("PRAGMA foreign_keys").fetchone()
    conn.execute("PRAGMA foreign_keys=OFF")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            migration_set().apply(Database(conn, execute_plugins=False,
                                           recursive_triggers=False))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    finally:
        if enforced:
            conn.execute("PRAGMA foreign_keys=ON")
