"""Fuzzing hostile gold sets (issue 20, "Done when"): copies of the sample with random extra
triggers, views, tables and indexes, CHECK constraints edited through ``writable_schema`` (left
edited, or put back over rows they would refuse), dropped tables, a forged ``user_version`` and
forged rows (flipped grades with future, past or garbage timestamps, verdicts, adjudications,
assessors, dangling references), each opened (read-only and read-write), checked and merged.

Asserted over every round: 0 tracebacks (only KnownError subclasses leave the app: ``info``,
``check`` and ``merge`` go through ``cli.main``, which turns a KnownError into one line and
lets anything else out), 0 writes to a refused file (its bytes identical before and after),
0 hostile schemas opened, 0 forged rows trusted (the merge target's assessments identical
afterwards: every row the fuzzer changes is forged, so none may land).

Short mode: ROUNDS (50), seeded; RAG_ANNOTATOR_LONG=1: 500.  Figures are printed at the end.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from datetime import datetime, timedelta, timezone
from functools import partial
from pathlib import Path

import pytest

from rag_annotator import cli
from rag_annotator.domain import operations as ops
from rag_annotator.errors import KnownError
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import dump, sha256
from tests.reliability import workload

pytestmark = pytest.mark.slow
ROUNDS = int(os.environ.get("RAG_ANNOTATOR_HOSTILE_ROUNDS",
                            "500" if workload.long_mode() else "50"))
ASSESSMENTS = ("assessors", "judgments", "adjudications", "claims", "trajectory_reviews",
               "documents", "cases", "history", "operations")
TABLES = ("cases", "documents", "judgments", "claims", "adjudications", "history",
          "operations", "assessors", "meta", "trajectory_reviews")
BODIES = ("UPDATE documents SET text = 'PWNED';", "DELETE FROM history;",
          "UPDATE judgments SET grade = 1 - grade;",
          "SELECT RAISE(ABORT, 'attacker text');",
          "INSERT INTO meta (key, value) VALUES ('pwned', 'yes');")
Mutation = Callable[[random.Random, sqlite3.Connection], str]


# -- schema mutations (each makes the file's schema differ from this build's) -----------------
def extra_trigger(rng: random.Random, conn: sqlite3.Connection) -> str:
    table, event = rng.choice(TABLES), rng.choice(("INSERT", "UPDATE", "DELETE"))
    conn.execute(f"CREATE TRIGGER t{rng.randrange(10**6)} {rng.choice(('BEFORE', 'AFTER'))} "
                 f"{event} ON {table} BEGIN {rng.choice(BODIES)} END")
    return "trigger"


def view_over_table(rng: random.Random, conn: sqlite3.Connection) -> str:
    table = rng.choice(("judgments", "claims", "adjudications", "assessors", "meta"))
    conn.execute(f"ALTER TABLE {table} RENAME TO {table}_real")
    if rng.random() < 0.3:  # a view that never ends if anything reads it
        conn.execute(f"CREATE VIEW {table} AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                     f"SELECT i + 1 FROM n) SELECT * FROM {table}_real, n")
    else:
        flip = "1 - grade AS grade, " if table in ("judgments", "adjudications") else ""
        conn.execute(f"CREATE VIEW {table} AS SELECT {flip}* FROM {table}_real")
    return "view replacing a table"


def extra_view(rng: random.Random, conn: sqlite3.Connection) -> str:
    conn.execute(f"CREATE VIEW v{rng.randrange(10**6)} AS SELECT * FROM "
                 f"{rng.choice(TABLES)}")
    return "view"


def extra_table_or_index(rng: random.Random, conn: sqlite3.Connection) -> str:
    if rng.random() < 0.5:
        conn.execute(f"CREATE TABLE x{rng.randrange(10**6)} (a, b)")
        return "table"
    table = rng.choice(("judgments", "cases", "documents"))
    column = rng.choice(("id", "updated_at", "created_at" if table != "judgments" else "note"))
    conn.execute(f"CREATE INDEX i{rng.randrange(10**6)} ON {table} ({column})")
    return "index"


def dropped_table(rng: random.Random, conn: sqlite3.Connection) -> str:
    conn.execute(f"DROP TABLE {rng.choice(('releases', 'case_reviews', 'judge_verdicts'))}")
    return "dropped table"


def forged_version(rng: random.Random, conn: sqlite3.Connection) -> str:
    conn.execute(f"PRAGMA user_version = {rng.choice((0, 1, 2))}")
    return "user_version"


CHECK_EDITS = (
    ("judgments", "grade >= 0", "grade >= -9",
     "UPDATE judgments SET grade = -7 WHERE id = 1"),
    ("judgments", "CHECK (grade IS NULL OR (typeof(grade) = 'integer' AND grade >= 0))", "",
     "UPDATE judgments SET grade = 'abc' WHERE id = 2"),
    ("claims", "OR verdict IN ('supported', 'not_supported', 'contradicted')",
     "OR verdict IN ('supported', 'not_supported', 'contradicted', 'pwned')",
     "UPDATE claims SET verdict = 'pwned' WHERE id = 1"),
    ("cases", "CHECK (kind IN ('rag', 'agent'))", "",
     "UPDATE cases SET kind = 'evil' WHERE id = 1"),
    ("trajectory_reviews", "task_success IN (0, 1)", "task_success IN (0, 1, 5)",
     "UPDATE trajectory_reviews SET task_success = 5"),
)


def check_edit(rng: random.Random, conn: sqlite3.Connection) -> str:
    """A CHECK edited through writable_schema, odd values written, maybe the CHECK put back
    (then the schema is right and only the rows are wrong)."""
    table, old, new, _odd = rng.choice(CHECK_EDITS)
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    assert old in sql, (table, old)
    conn.execute("PRAGMA writable_schema=ON")
    conn.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?",
                 (sql.replace(old, new), table))
    conn.execute("PRAGMA writable_schema=OFF")
    return "check edited"


SCHEMA_MUTATIONS: tuple[Mutation, ...] = (extra_trigger, view_over_table, extra_view,
                                          extra_table_or_index, dropped_table, forged_version,
                                          check_edit)


# -- row forgeries (the schema stays this build's) --------------------------------------------
def _stamp(rng: random.Random) -> object:
    ahead = datetime.now(timezone.utc) + timedelta(days=rng.choice((2, 400, 3000)))
    return rng.choice(("9999-12-31T23:59:59.000Z", "zzzz not a date", "", 5, 3.5,
                       b"\x00", "2026-13-45T99:99:99Z", "2026-11-29 18:41:37",
                       ahead.isoformat(timespec="milliseconds").replace("+00:00", "Z")))


def flipped_judgments(rng: random.Random, conn: sqlite3.Connection) -> str:
    past = rng.random() < 0.2  # older than ours: "this file's, newer, kept"
    judged = [r[0] for r in conn.execute("SELECT id FROM judgments WHERE grade IS NOT NULL "
                                         "ORDER BY id")]
    for row_id in rng.sample(judged, rng.randint(1, len(judged))):
        conn.execute("UPDATE judgments SET grade = 1 - min(grade, 1), updated_at = ? WHERE id = ?",
                     ("2001-01-01T00:00:00.000Z" if past else _stamp(rng), row_id))
    return "flipped judgments"


def forged_verdicts(rng: random.Random, conn: sqlite3.Connection) -> str:
    conn.execute("UPDATE claims SET verdict = 'contradicted', updated_at = ? "
                 "WHERE verdict IS NULL AND id % ? = 0", (_stamp(rng), rng.randint(1, 5)))
    return "forged verdicts"


def forged_adjudications(rng: random.Random, conn: sqlite3.Connection) -> str:
    conn.execute("INSERT INTO adjudications (case_id, document_id, grade, assessor_id, "
                 "updated_at) SELECT case_id, document_id, rng_grade, assessor_id, ? FROM "
                 "(SELECT *, ? AS rng_grade FROM judgments WHERE grade IS NOT NULL LIMIT 5)",
                 (_stamp(rng), rng.choice((0, 1, 3, 4))))
    return "forged adjudications"


def forged_assessor(rng: random.Random, conn: sqlite3.Connection) -> str:
    name = rng.choice((" Mallory", "Mallory ", "Mallory"))
    stamp = _stamp(rng) if name == "Mallory" else "2026-01-01T00:00:00.000Z"
    conn.execute("INSERT INTO assessors (name, created_at) VALUES (?, ?)", (name, stamp))
    conn.execute("INSERT INTO judgments (case_id, document_id, assessor_id, grade, updated_at)"
                 " SELECT case_id, document_id, last_insert_rowid(), 1, "
                 "'2026-01-01T00:00:00.000Z' FROM judgments LIMIT 3")
    return "forged assessor"


def dangling_rows(rng: random.Random, conn: sqlite3.Connection) -> str:
    column = rng.choice(("case_id", "document_id", "assessor_id"))
    conn.execute(f"UPDATE judgments SET {column} = 99990 + id, grade = 1 - min(grade, 1), "
                 "updated_at = '2026-01-01T00:00:00.000Z' WHERE id IN (3, 4)")
    return "dangling references"


def out_of_scale(rng: random.Random, conn: sqlite3.Connection) -> str:
    conn.execute("UPDATE judgments SET grade = ?, updated_at = ? WHERE id = 5",
                 (rng.choice((2, 3, 4)), datetime.now(timezone.utc).isoformat()))
    return "grade above the scale"


def forged_scale(rng: random.Random, conn: sqlite3.Connection) -> str:
    conn.execute("UPDATE meta SET value = ? WHERE key = 'max_grade'",
                 (rng.choice(("abc", "0", "5", "1e999", "99999999999999999999", "", None)),))
    return "forged grade scale"


ROW_FORGERIES: list[Mutation] = [flipped_judgments, forged_verdicts, forged_adjudications,
                                       forged_assessor, dangling_rows, out_of_scale,
                                       forged_scale]


@pytest.fixture(scope="module")
def sample_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "sample.goldset"
    create_sample(path, assessor="Alice").close()
    return path


def hostile_copy(template: Path, path: Path, rng: random.Random) -> list[str]:
    """A copy of the sample with 1–3 mutations; their names (row forgeries first: a schema
    mutation may rename the table they write)."""
    shutil.copyfile(template, path)
    schema_change = rng.choice(SCHEMA_MUTATIONS) if rng.random() < 0.6 else None
    chosen = rng.sample(ROW_FORGERIES, rng.randint(0 if schema_change else 1, 2))
    if schema_change is not None:
        chosen.append(schema_change)
    done = []
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        for mutate in chosen:
            done.append(mutate(rng, conn))
    if "check edited" in done:
        # A new connection: the one that edited sqlite_master still enforces the old CHECK.
        with closing(sqlite3.connect(path, isolation_level=None)) as conn:
            _write_odd_values(conn)
            if rng.random() < 0.5:
                _put_checks_back(conn, template)
                done[done.index("check edited")] = "check edited and put back"
    return done


def _write_odd_values(conn: sqlite3.Connection) -> None:
    """Write the odd values the edited CHECK lets in."""
    for _table, _old, _new, odd in CHECK_EDITS:
        try:
            conn.execute(odd)
        except sqlite3.IntegrityError:
            pass  # this CHECK was not the edited one


def _put_checks_back(conn: sqlite3.Connection, template: Path) -> None:
    """Restore the original SQL over the odd rows: the schema is right, the rows are not."""
    with closing(sqlite3.connect(f"file:{template}?mode=ro", uri=True)) as ref:
        originals = ref.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                                "AND sql IS NOT NULL").fetchall()
    conn.execute("PRAGMA writable_schema=ON")
    for name, sql in originals:
        conn.execute("UPDATE sqlite_master SET sql = ? WHERE name = ? AND type = 'table'",
                     (sql, name))
    conn.execute("PRAGMA writable_schema=OFF")


def _open_and_close(path: Path) -> None:
    GoldSetStore.open(path, read_only=True).close()


def run(counts: Counter[str], tracebacks: list[str], what: str,
        action: Callable[[], object]) -> object | KnownError:
    """Run ``action``: its result, or the KnownError it raised (counted); anything else is
    a traceback (recorded, the round goes on)."""
    try:
        return action()
    except KnownError as error:
        counts[f"{what}: refused ({type(error).__name__})"] += 1
        return error
    except Exception as error:  # the very thing this test counts
        tracebacks.append(f"{what}: {type(error).__name__}: {error}")
        return error


def test_hostile_gold_sets(sample_template: Path, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(20_2026)
    counts: Counter[str] = Counter()
    tracebacks: list[str] = []
    writes_to_refused: list[str] = []
    hostile_opened: list[str] = []
    forged_trusted: list[str] = []
    mine = tmp_path / "mine" / "mine.goldset"
    mine.parent.mkdir()
    shutil.copyfile(sample_template, mine)
    baseline = dump(mine, ASSESSMENTS)
    for round_no in range(ROUNDS):
        folder = tmp_path / f"r{round_no}"
        folder.mkdir()
        hostile = folder / "colleague.goldset"
        done = hostile_copy(sample_template, hostile, rng)
        counts.update(f"mutation: {name}" for name in done)
        schema_changed = any(not name.startswith(("flipped", "forged", "dangling", "grade"))
                             for name in done) and "check edited and put back" not in done
        label = f"round {round_no} ({', '.join(done)})"
        digest = sha256(hostile)

        # Read-only open (info, export, metrics, merge's side): refused or sound.
        opened = run(counts, tracebacks, "open read-only",
                     partial(_open_and_close, hostile))
        if not isinstance(opened, BaseException) and schema_changed:
            hostile_opened.append(label)
        if sha256(hostile) != digest:
            writes_to_refused.append(f"{label}: read-only open")
        # The CLI's reads and check: a KnownError is one line and exit 2, a traceback escapes.
        for command in ("info", "check"):
            code = run(counts, tracebacks, command, partial(cli.main, [command, str(hostile)]))
            counts[f"{command}: exit {code}"] += 1
            err = capsys.readouterr().err
            if code == 2 and len([line for line in err.splitlines() if line.strip()]) != 1:
                tracebacks.append(f"{label}: {command} printed {err!r}")
        if sha256(hostile) != digest:
            writes_to_refused.append(f"{label}: info/check")
        # Merge into my file: nothing forged may land, the hostile file is only read.
        code = run(counts, tracebacks, "merge",
                   partial(cli.main, ["merge", str(mine), str(hostile)]))
        counts[f"merge: exit {code}"] += 1
        counts["merge: rows skipped and listed"] += capsys.readouterr().err.count(
            "warning: skipped")
        if sha256(hostile) != digest:
            writes_to_refused.append(f"{label}: merge")
        if dump(mine, ASSESSMENTS) != baseline:
            forged_trusted.append(label)
            shutil.copyfile(sample_template, mine)  # go on from a clean file
        # Opening it read-write, as the app does: refused untouched, or sound and editable
        # without anything hidden running.
        store = run(counts, tracebacks, "open read-write",
                    partial(GoldSetStore.open, hostile, assessor="me", lock=True))
        if isinstance(store, GoldSetStore):
            with store:
                if schema_changed:
                    hostile_opened.append(f"{label}: read-write")
                case_id = store.query("SELECT id FROM cases LIMIT 1")[0]["id"]
                run(counts, tracebacks, "edit",
                    partial(ops.edit_case, store, case_id, question="edited"))
                texts = store.query("SELECT count(*) AS n FROM documents WHERE text = 'PWNED'")
                if texts[0]["n"]:
                    forged_trusted.append(f"{label}: a hidden trigger ran")
        elif sha256(hostile) != digest:
            writes_to_refused.append(f"{label}: read-write open")
        shutil.rmtree(folder)

    refused = sum(n for key, n in counts.items() if key.startswith("open read-write: refused"))
    print(f"\nhostile gold sets: {ROUNDS} rounds, {refused} refused at open, "
          f"{len(tracebacks)} tracebacks, {len(writes_to_refused)} writes to a refused file, "
          f"{len(hostile_opened)} hostile schemas opened, {len(forged_trusted)} forged rows "
          "trusted")
    for key, n in sorted(counts.items()):
        print(f"  {key}: {n}")
    assert tracebacks == [], tracebacks[:5]
    assert writes_to_refused == [], writes_to_refused[:5]
    assert hostile_opened == [], hostile_opened[:5]
    assert forged_trusted == [], forged_trusted[:5]
