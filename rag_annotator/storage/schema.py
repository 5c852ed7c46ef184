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

MIGRATION_SET = "rag_annotator"
_STEPS: list[tuple[str, Callable[[Database], None]]] = []


def _step(name: str) -> Callable[[Callable[[Database], None]], Callable[[Database], None]]:
    """Register a migration step, in order."""
    def register(fn: Callable[[Database], None]) -> Callable[[Database], None]:
        _STEPS.append((name, fn))
        return fn
    return register

SCHEMA_0001 = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT
);

CREATE TABLE assessors (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    created_at TEXT NOT NULL
);

CREATE TABLE documents (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    key           TEXT NOT NULL UNIQUE CHECK (length(key) > 0),
    title         TEXT NOT NULL DEFAULT '',
    text          TEXT NOT NULL DEFAULT '',
    content_hash  TEXT NOT NULL,
    owner         TEXT NOT NULL DEFAULT '',
    rights        TEXT NOT NULL DEFAULT '[]',
    valid_from    TEXT,
    valid_until   TEXT,
    status        TEXT NOT NULL DEFAULT 'current'
                  CHECK (status IN ('current', 'outdated', 'withdrawn')),
    version       TEXT NOT NULL DEFAULT '',
    supersedes_id INTEGER REFERENCES documents(id),
    parent_id     INTEGER REFERENCES documents(id),
    origin        TEXT NOT NULL DEFAULT 'corpus'
                  CHECK (origin IN ('corpus', 'placeholder', 'unmatched_context')),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);

CREATE TABLE cases (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    key                TEXT NOT NULL UNIQUE CHECK (length(key) > 0),
    kind               TEXT NOT NULL DEFAULT 'rag' CHECK (kind IN ('rag')),
    question           TEXT NOT NULL DEFAULT '',
    variants           TEXT NOT NULL DEFAULT '[]',
    reference_answer   TEXT,
    must_contain       TEXT NOT NULL DEFAULT '[]',
    forbidden          TEXT NOT NULL DEFAULT '[]',
    expected_behaviour TEXT NOT NULL DEFAULT 'answer'
                       CHECK (expected_behaviour IN ('answer', 'abstain', 'escalate')),
    family             TEXT NOT NULL DEFAULT 'ordinary'
                       CHECK (family IN ('ordinary', 'ambiguous', 'sensitive', 'out_of_scope',
                              'no_answer', 'conflicting_sources', 'outdated_document',
                              'prompt_injection', 'access_restricted')),
    tags               TEXT NOT NULL DEFAULT '[]',
    difficulty         TEXT CHECK (difficulty IS NULL OR difficulty IN ('easy', 'medium', 'hard')),
    role               TEXT NOT NULL DEFAULT '',
    notes              TEXT NOT NULL DEFAULT '',
    status             TEXT NOT NULL DEFAULT 'draft'
                       CHECK (status IN ('draft', 'reviewed', 'approved', 'retired')),
    author             TEXT NOT NULL DEFAULT '',
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);
CREATE INDEX cases_family ON cases(family);
CREATE INDEX cases_status ON cases(status);

CREATE TABLE expected_sources (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    span_start  INTEGER CHECK (span_start IS NULL OR span_start >= 0),
    span_end    INTEGER CHECK (span_end IS NULL OR span_end >= span_start),
    note        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX expected_sources_case ON expected_sources(case_id, document_id);
CREATE INDEX expected_sources_document ON expected_sources(document_id);

CREATE TABLE runs (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    name           TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    model          TEXT NOT NULL DEFAULT '',
    corpus_version TEXT NOT NULL DEFAULT '',
    prompt_version TEXT NOT NULL DEFAULT '',
    index_version  TEXT NOT NULL DEFAULT '',
    notes          TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL
);

CREATE TABLE retrieved (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    score       REAL,
    UNIQUE (run_id, case_id, document_id),
    UNIQUE (run_id, case_id, rank)
);
CREATE INDEX retrieved_pair ON retrieved(case_id, document_id);
CREATE INDEX retrieved_document ON retrieved(document_id);

CREATE TABLE answers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    case_id    INTEGER NOT NULL REFERENCES cases(id),
    text       TEXT NOT NULL DEFAULT '',
    latency_ms INTEGER CHECK (latency_ms IS NULL OR latency_ms >= 0),
    UNIQUE (run_id, case_id)
);
CREATE INDEX answers_case ON answers(case_id);

CREATE TABLE citations (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    answer_id   INTEGER NOT NULL REFERENCES answers(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    marker      TEXT NOT NULL DEFAULT '',
    span_start  INTEGER,
    span_end    INTEGER,
    support     TEXT CHECK (support IS NULL OR support IN ('yes', 'partly', 'no')),
    note        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX citations_answer ON citations(answer_id);
CREATE INDEX citations_document ON citations(document_id);

CREATE TABLE judgments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    grade       INTEGER CHECK (grade IS NULL OR grade BETWEEN 0 AND 4),
    note        TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    UNIQUE (case_id, document_id, assessor_id)
);
CREATE INDEX judgments_document ON judgments(document_id);
CREATE INDEX judgments_assessor ON judgments(assessor_id);

CREATE TABLE adjudications (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    grade       INTEGER NOT NULL CHECK (grade BETWEEN 0 AND 4),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    note        TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    UNIQUE (case_id, document_id)
);
CREATE INDEX adjudications_document ON adjudications(document_id);

CREATE TABLE claims (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    answer_id   INTEGER NOT NULL REFERENCES answers(id),
    position    INTEGER NOT NULL,
    text        TEXT NOT NULL,
    span_start  INTEGER,
    span_end    INTEGER,
    verdict     TEXT CHECK (verdict IS NULL
                        OR verdict IN ('supported', 'not_supported', 'contradicted')),
    rationale   TEXT NOT NULL DEFAULT '',
    assessor_id INTEGER REFERENCES assessors(id),
    updated_at  TEXT
);
CREATE INDEX claims_answer ON claims(answer_id, position);
CREATE INDEX claims_verdict ON claims(verdict);

CREATE TABLE evidence (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id    INTEGER NOT NULL REFERENCES claims(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    span_start  INTEGER NOT NULL CHECK (span_start >= 0),
    span_end    INTEGER NOT NULL CHECK (span_end >= span_start)
);
CREATE INDEX evidence_claim ON evidence(claim_id);
CREATE INDEX evidence_document ON evidence(document_id);

CREATE TABLE answer_reviews (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id             INTEGER NOT NULL REFERENCES runs(id),
    case_id            INTEGER NOT NULL REFERENCES cases(id),
    assessor_id        INTEGER NOT NULL REFERENCES assessors(id),
    outcome            TEXT CHECK (outcome IS NULL
                               OR outcome IN ('answered', 'abstained', 'escalated')),
    validated          INTEGER CHECK (validated IS NULL OR validated IN (0, 1)),
    failure_categories TEXT NOT NULL DEFAULT '[]',
    must_contain_found TEXT NOT NULL DEFAULT '[]',
    forbidden_present  INTEGER CHECK (forbidden_present IS NULL OR forbidden_present IN (0, 1)),
    note               TEXT NOT NULL DEFAULT '',
    updated_at         TEXT NOT NULL,
    UNIQUE (run_id, case_id)
);
CREATE INDEX answer_reviews_case ON answer_reviews(case_id);

CREATE TABLE releases (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL DEFAULT '',
    changelog  TEXT NOT NULL DEFAULT '',
    snapshot   TEXT NOT NULL
);

CREATE TABLE operations (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    at       TEXT NOT NULL,
    assessor TEXT NOT NULL DEFAULT '',
    action   TEXT NOT NULL,
    label    TEXT NOT NULL,
    reverts  INTEGER REFERENCES operations(id),
    undoable INTEGER NOT NULL DEFAULT 1 CHECK (undoable IN (0, 1))
);

CREATE TABLE history (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    operation_id INTEGER NOT NULL REFERENCES operations(id),
    table_name   TEXT NOT NULL,
    row_key      TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('insert', 'update', 'delete',
                                               'insert_range', 'delete_range')),
    old          TEXT,
    new          TEXT
);
CREATE INDEX history_operation ON history(operation_id);
CREATE INDEX history_row ON history(table_name, row_key);
"""


@_step("0001_initial")
def _initial(db: Database) -> None:
    # Not executescript(): it would COMMIT the transaction the migration runs in.
    for statement in _statements(SCHEMA_0001):
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")


def _statements(script: str) -> list[str]:
    """Split a DDL script into statements (it has no ';' inside literals)."""
    return [s.strip() for s in script.split(";") if s.strip()]


SCHEMA_0002 = """
ALTER TABLE assessors ADD COLUMN kind TEXT NOT NULL DEFAULT 'human'
    CHECK (kind IN ('human', 'judge'));
CREATE TABLE judge_verdicts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id    INTEGER NOT NULL REFERENCES claims(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    verdict     TEXT CHECK (verdict IS NULL
                            OR verdict IN ('supported', 'not_supported', 'contradicted')),
    raw_label   TEXT NOT NULL DEFAULT '',
    rationale   TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    UNIQUE (claim_id, assessor_id)
);
CREATE INDEX judge_verdicts_assessor ON judge_verdicts(assessor_id);
ALTER TABLE answers ADD COLUMN cost REAL CHECK (cost IS NULL OR cost >= 0);
ALTER TABLE answers ADD COLUMN tokens INTEGER CHECK (tokens IS NULL OR tokens >= 0);
CREATE TABLE case_reviews (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id           INTEGER NOT NULL UNIQUE REFERENCES cases(id),
    origin            TEXT NOT NULL DEFAULT '',
    decision          TEXT NOT NULL DEFAULT 'pending'
                      CHECK (decision IN ('pending', 'accepted', 'edited', 'rejected')),
    near_duplicate_of INTEGER REFERENCES cases(id),
    decided_by        TEXT NOT NULL DEFAULT '',
    decided_at        TEXT
);
"""


@_step("0002_judges_costs_reviews")
def _judges_costs_reviews(db: Database) -> None:
    """Automatic judges as assessors with their own claim verdicts; answer cost and tokens;
    the review queue of imported synthetic cases."""
    for statement in _statements(SCHEMA_0002):
        db.execute(statement)
    db.execute("PRAGMA user_version = 2")


#: ``cases`` rebuilt so ``kind`` may be 'agent' (SQLite cannot alter a CHECK in place), with
#: the agent case's expectations as columns beside the RAG ones: the case editor, the
#: history, releases and every export see one row per case, whatever its kind.
CASES_0003 = """
CREATE TABLE cases_0003 (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    key                TEXT NOT NULL UNIQUE CHECK (length(key) > 0),
    kind               TEXT NOT NULL DEFAULT 'rag' CHECK (kind IN ('rag', 'agent')),
    question           TEXT NOT NULL DEFAULT '',
    variants           TEXT NOT NULL DEFAULT '[]',
    reference_answer   TEXT,
    must_contain       TEXT NOT NULL DEFAULT '[]',
    forbidden          TEXT NOT NULL DEFAULT '[]',
    expected_behaviour TEXT NOT NULL DEFAULT 'answer'
                       CHECK (expected_behaviour IN ('answer', 'abstain', 'escalate')),
    family             TEXT NOT NULL DEFAULT 'ordinary'
                       CHECK (family IN ('ordinary', 'ambiguous', 'sensitive', 'out_of_scope',
                              'no_answer', 'conflicting_sources', 'outdated_document',
                              'prompt_injection', 'access_restricted')),
    tags               TEXT NOT NULL DEFAULT '[]',
    difficulty         TEXT CHECK (difficulty IS NULL OR difficulty IN ('easy', 'medium', 'hard')),
    role               TEXT NOT NULL DEFAULT '',
    notes              TEXT NOT NULL DEFAULT '',
    status             TEXT NOT NULL DEFAULT 'draft'
                       CHECK (status IN ('draft', 'reviewed', 'approved', 'retired')),
    author             TEXT NOT NULL DEFAULT '',
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    expected_state     TEXT NOT NULL DEFAULT '{}',
    forbidden_tools    TEXT NOT NULL DEFAULT '[]',
    required_tools     TEXT NOT NULL DEFAULT '[]',
    tool_order         TEXT NOT NULL DEFAULT '[]',
    max_steps          INTEGER CHECK (max_steps IS NULL OR max_steps >= 0),
    max_tokens         INTEGER CHECK (max_tokens IS NULL OR max_tokens >= 0),
    max_seconds        REAL CHECK (max_seconds IS NULL OR max_seconds >= 0),
    max_cost           REAL CHECK (max_cost IS NULL OR max_cost >= 0)
);
INSERT INTO cases_0003 (id, key, kind, question, variants, reference_answer, must_contain,
                        forbidden, expected_behaviour, family, tags, difficulty, role, notes,
                        status, author, created_at, updated_at)
    SELECT id, key, kind, question, variants, reference_answer, must_contain, forbidden,
           expected_behaviour, family, tags, difficulty, role, notes, status, author,
           created_at, updated_at FROM cases;
DROP TABLE cases;
ALTER TABLE cases_0003 RENAME TO cases;
CREATE INDEX cases_family ON cases(family);
CREATE INDEX cases_status ON cases(status);
CREATE INDEX cases_kind ON cases(kind);

CREATE TABLE trajectories (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    case_id      INTEGER NOT NULL REFERENCES cases(id),
    final_state  TEXT,
    final_answer TEXT NOT NULL DEFAULT '',
    tokens       INTEGER CHECK (tokens IS NULL OR tokens >= 0),
    seconds      REAL CHECK (seconds IS NULL OR seconds >= 0),
    cost         REAL CHECK (cost IS NULL OR cost >= 0),
    UNIQUE (run_id, case_id)
);
CREATE INDEX trajectories_case ON trajectories(case_id);

CREATE TABLE trajectory_steps (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    trajectory_id INTEGER NOT NULL REFERENCES trajectories(id),
    position      INTEGER NOT NULL CHECK (position >= 1),
    tool          TEXT NOT NULL CHECK (length(tool) > 0),
    arguments     TEXT NOT NULL DEFAULT '{}',
    result        TEXT NOT NULL DEFAULT '',
    UNIQUE (trajectory_id, position)
);

CREATE TABLE trajectory_reviews (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    trajectory_id   INTEGER NOT NULL UNIQUE REFERENCES trajectories(id),
    assessor_id     INTEGER NOT NULL REFERENCES assessors(id),
    task_success    INTEGER CHECK (task_success IS NULL OR task_success IN (0, 1)),
    success_reason  TEXT NOT NULL DEFAULT '',
    path_acceptable INTEGER CHECK (path_acceptable IS NULL OR path_acceptable IN (0, 1)),
    path_reason     TEXT NOT NULL DEFAULT '',
    note            TEXT NOT NULL DEFAULT '',
    updated_at      TEXT NOT NULL
);
CREATE INDEX trajectory_reviews_assessor ON trajectory_reviews(assessor_id);
"""


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


#: Migration 0004's number (the lead renumbers it at merge if another lands first).
TRIALS_VERSION = 4

#: ``trajectories`` rebuilt so one run may hold several trials of one case (tau-bench runs
#: each task k times; pass^k needs them side by side): UNIQUE(run_id, case_id) becomes
#: UNIQUE(run_id, case_id, trial); ``reward`` keeps the benchmark's own automatic score
#: (tau-bench's ``reward``; success is a reward of 1), apart from any reviewer's mark.
#: SQLite cannot alter a UNIQUE in place: same procedure as 0003, ids kept, so the steps
#: and reviews that reference them stay attached.
TRAJECTORIES_0004 = """
CREATE TABLE trajectories_0004 (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    case_id      INTEGER NOT NULL REFERENCES cases(id),
    trial        INTEGER NOT NULL DEFAULT 0 CHECK (trial >= 0),
    final_state  TEXT,
    final_answer TEXT NOT NULL DEFAULT '',
    tokens       INTEGER CHECK (tokens IS NULL OR tokens >= 0),
    seconds      REAL CHECK (seconds IS NULL OR seconds >= 0),
    cost         REAL CHECK (cost IS NULL OR cost >= 0),
    reward       REAL,
    UNIQUE (run_id, case_id, trial)
);
INSERT INTO trajectories_0004 (id, run_id, case_id, final_state, final_answer, tokens,
                               seconds, cost)
    SELECT id, run_id, case_id, final_state, final_answer, tokens, seconds, cost
    FROM trajectories;
DROP TABLE trajectories;
ALTER TABLE trajectories_0004 RENAME TO trajectories;
CREATE INDEX trajectories_case ON trajectories(case_id);
"""


@_step("0004_trajectory_trials")
def _trajectory_trials(db: Database) -> None:
    """Several trials of one case per run, and the benchmark's reward of each."""
    for statement in _statements(TRAJECTORIES_0004):
        db.execute(statement)
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise sqlite3.IntegrityError(f"foreign keys broken by the trajectories rebuild: "
                                     f"{broken[:5]}")
    db.execute(f"PRAGMA user_version = {TRIALS_VERSION}")


#: The schema version this build writes (the number of the last migration).
SCHEMA_VERSION = TRIALS_VERSION


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
