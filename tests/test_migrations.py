"""Migrations (backup first, one transaction), file creation, and the connection contract.

reliability.md C2, C3 and section 0 items 1–3.  A temporary migration "next_test" (schema
``SCHEMA_VERSION + 1``) is registered on a copy of the real migration set, with
``SCHEMA_VERSION`` patched where it is read (``store`` and ``cli`` import the name;
``schema`` functions read ``MIGRATIONS``).
"""

from __future__ import annotations

import os
import shutil
import stat
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlite_utils import Database, Migrations

from rag_annotator import cli
from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.errors import FileNotFound, FileTooNew, KnownError
from rag_annotator.storage import connection, schema
from rag_annotator.storage import store as store_mod
from rag_annotator.storage.connection import APPLICATION_ID, EXPECTED_PRAGMAS, SQLITE_MAGIC
from rag_annotator.storage.schema import SCHEMA_VERSION
from rag_annotator.storage.snapshot import pre_migration_backup_path
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich
from tests.helpers import dump, fingerprint, header_ids, listing, rows, scalar, schema_up_to, sha256

#: The version and name of the temporary migration the tests register after the real ones.
NEXT = SCHEMA_VERSION + 1
TEST_MIGRATION = "next_test"
REAL_MIGRATIONS = tuple(schema.known_migration_names())


def _register_next(monkeypatch: pytest.MonkeyPatch,
                   body: Callable[[Database], None]) -> None:
    migrations = Migrations(schema.MIGRATIONS.name)
    migrations._migrations = [m for m in schema.MIGRATIONS._migrations if m.name != TEST_MIGRATION]
    migrations(name=TEST_MIGRATION)(body)
    monkeypatch.setattr(schema, "MIGRATIONS", migrations)
    monkeypatch.setattr(schema, "SCHEMA_VERSION", NEXT)
    monkeypatch.setattr(store_mod, "SCHEMA_VERSION", NEXT)
    monkeypatch.setattr(cli, "SCHEMA_VERSION", NEXT)


def _add_column(db: Database) -> None:
    db.execute("ALTER TABLE cases ADD COLUMN test_col TEXT NOT NULL DEFAULT 'migrated'")
    db.execute(f"PRAGMA user_version = {NEXT}")


def _without_counters(data: bytes) -> bytes:
    """The file minus the change counter (24–27), schema cookie (40–43), version-valid-for
    (92–95): the header fields SQLite's backup API rewrites in the copy."""
    return data[:24] + data[28:40] + data[44:92] + data[96:]


class Boom(RuntimeError):
    pass


def _add_column_then_fail(db: Database) -> None:
    db.execute("ALTER TABLE cases ADD COLUMN test_col TEXT NOT NULL DEFAULT 'migrated'")
    db.execute("UPDATE cases SET question = 'half-migrated'")
    db.execute(f"PRAGMA user_version = {NEXT}")
    raise Boom("step next_test failed")


@pytest.fixture
def v1_file(goldset_path: Path) -> Path:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        build_rich(store)
    assert header_ids(goldset_path) == (APPLICATION_ID, SCHEMA_VERSION)
    return goldset_path


def test_opening_a_v1_file_migrates_it_after_a_backup(v1_file: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    v1_bytes = v1_file.read_bytes()
    v1_data = dump(v1_file)
    _register_next(monkeypatch, _add_column)

    with GoldSetStore.open(v1_file, assessor="alice") as store:
        assert store.schema_version == NEXT
        assert store.query("SELECT DISTINCT test_col FROM cases") == [{"test_col": "migrated"}]
        # The store works on the migrated file.
        ops.create_case(store, key="NEW")

    assert header_ids(v1_file) == (APPLICATION_ID, NEXT)
    names = [r[0] for r in rows(v1_file, "SELECT name FROM _sqlite_migrations ORDER BY id")]
    assert names == [*REAL_MIGRATIONS, TEST_MIGRATION]
    migrated = dump(v1_file)
    assert migrated["judgments"] == v1_data["judgments"]
    assert migrated["claims"] == v1_data["claims"]

    backup = v1_file.with_name(f"{v1_file.name}.before-{TEST_MIGRATION}.bak")
    assert backup == pre_migration_backup_path(v1_file, TEST_MIGRATION, None)
    assert sorted(listing(v1_file.parent)) == sorted([v1_file.name, backup.name])
    # The backup API copies pages verbatim: the copy is the v1 file byte for byte, except the
    # header counters SQLite bumps in a backup's destination (see _without_counters).
    assert _without_counters(backup.read_bytes()) == _without_counters(v1_bytes)
    assert header_ids(backup) == (APPLICATION_ID, SCHEMA_VERSION)
    assert dump(backup) == v1_data
    assert scalar(backup, "PRAGMA integrity_check") == "ok"

    # Opening again: nothing pending, no second backup, same backup file untouched.
    backup_print = fingerprint(backup)
    with GoldSetStore.open(v1_file) as store:
        assert store.schema_version == NEXT
    assert fingerprint(backup) == backup_print
    assert len(listing(v1_file.parent)) == 2


def test_backup_dir_is_honoured(v1_file: Path, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    _register_next(monkeypatch, _add_column)
    elsewhere = tmp_path / "backups"
    GoldSetStore.open(v1_file, backup_dir=elsewhere).close()
    assert listing(elsewhere) == [f"{v1_file.name}.before-{TEST_MIGRATION}.bak"]
    assert header_ids(elsewhere / listing(elsewhere)[0]) == (APPLICATION_ID, SCHEMA_VERSION)
    assert listing(v1_file.parent) == [v1_file.name]


def test_a_failing_migration_changes_nothing(v1_file: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    v1_hash, v1_data = sha256(v1_file), dump(v1_file)
    _register_next(monkeypatch, _add_column_then_fail)

    with pytest.raises(Boom):
        GoldSetStore.open(v1_file)

    assert header_ids(v1_file) == (APPLICATION_ID, SCHEMA_VERSION)
    assert sha256(v1_file) == v1_hash
    assert dump(v1_file) == v1_data
    assert "test_col" not in [r[1] for r in rows(v1_file, "PRAGMA table_info(cases)")]
    backup = v1_file.with_name(f"{v1_file.name}.before-{TEST_MIGRATION}.bak")
    assert sorted(listing(v1_file.parent)) == sorted([v1_file.name, backup.name])
    assert header_ids(backup) == (APPLICATION_ID, SCHEMA_VERSION)
    assert dump(backup) == v1_data
    assert scalar(backup, "PRAGMA integrity_check") == "ok"

    # Still failing on retry, still intact.
    with pytest.raises(Boom):
        GoldSetStore.open(v1_file)
    assert sha256(v1_file) == v1_hash

    # With the migration fixed, the next open migrates.
    _register_next(monkeypatch, _add_column)
    with GoldSetStore.open(v1_file) as store:
        assert store.schema_version == NEXT
    monkeypatch.undo()
    # And this build, which knows only schema 1, now refuses the file it cannot read.
    with pytest.raises(FileTooNew):
        GoldSetStore.open(v1_file)


def test_failing_migration_file_reopens_with_the_real_build(
        v1_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v1_data = dump(v1_file)
    with monkeypatch.context() as patch:
        _register_next(patch, _add_column_then_fail)
        with pytest.raises(Boom):
            GoldSetStore.open(v1_file)
    with GoldSetStore.open(v1_file) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.integrity_problems() == []
    assert dump(v1_file) == v1_data


def test_read_only_open_of_an_older_file_asks_for_an_upgrade(
        v1_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = fingerprint(v1_file)
    _register_next(monkeypatch, _add_column)
    with pytest.raises(KnownError) as caught:
        GoldSetStore.open(v1_file, read_only=True)
    assert "older schema" in str(caught.value) and str(v1_file) in str(caught.value)
    assert fingerprint(v1_file) == before
    assert listing(v1_file.parent) == [v1_file.name]


# -- creation --------------------------------------------------------------------------------
def test_create_leaves_only_the_file(tmp_path: Path) -> None:
    path = tmp_path / "new.goldset"
    GoldSetStore.create(path).close()
    assert listing(tmp_path) == ["new.goldset"]


def test_create_failure_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(db: Database) -> None:
        raise Boom("cannot initialise")

    monkeypatch.setattr(store_mod, "apply_migrations", broken)
    with pytest.raises(Boom):
        GoldSetStore.create(tmp_path / "new.goldset")
    assert listing(tmp_path) == []


def test_create_refuses_an_existing_path(tmp_path: Path) -> None:
    path = tmp_path / "taken.goldset"
    path.write_text("precious", encoding="utf-8")
    before = fingerprint(path)
    with pytest.raises(KnownError) as caught:
        GoldSetStore.create(path)
    assert str(path) in str(caught.value)
    assert fingerprint(path) == before
    assert listing(tmp_path) == ["taken.goldset"]


def test_create_in_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFound):
        GoldSetStore.create(tmp_path / "no" / "such" / "x.goldset")
    assert listing(tmp_path) == []


def test_new_file_header(tmp_path: Path) -> None:
    path = tmp_path / "h.goldset"
    GoldSetStore.create(path, name="Mon jeu").close()
    header = path.read_bytes()[:100]
    assert header.startswith(SQLITE_MAGIC)
    assert struct.unpack(">I", header[68:72])[0] == APPLICATION_ID == 0x52414741
    assert header[68:72] == b"RAGA"
    assert struct.unpack(">i", header[60:64])[0] == SCHEMA_VERSION
    # Rollback journal (not WAL): header bytes 18–19 are 1 for legacy/rollback mode.
    assert header[18:20] == b"\x01\x01"
    assert scalar(path, "SELECT value FROM meta WHERE key = 'name'") == "Mon jeu"
    assert scalar(path, "SELECT value FROM meta WHERE key = 'max_grade'") == "1"


def test_new_file_permissions_follow_the_umask(tmp_path: Path) -> None:
    """A gold set is shared (DESIGN section 3): it gets the mode any new file gets."""
    reference = tmp_path / "reference.txt"
    reference.write_text("x", encoding="utf-8")
    path = tmp_path / "p.goldset"
    GoldSetStore.create(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == stat.S_IMODE(reference.stat().st_mode)


# -- the connection contract ------------------------------------------------------------------
def test_connection_contract(store: GoldSetStore, goldset_path: Path) -> None:
    assert store.pragmas() == EXPECTED_PRAGMAS
    assert store._conn.execute("PRAGMA mmap_size").fetchone()[0] == 0
    with GoldSetStore.open(goldset_path) as again:
        assert again.pragmas() == EXPECTED_PRAGMAS
        assert again._conn.execute("PRAGMA mmap_size").fetchone()[0] == 0


def test_read_only_connection_contract(store: GoldSetStore, goldset_path: Path) -> None:
    with GoldSetStore.open(goldset_path, read_only=True) as ro:
        values = ro.pragmas()
        for name in ("foreign_keys", "trusted_schema", "cell_size_check", "busy_timeout"):
            assert values[name] == EXPECTED_PRAGMAS[name]
        assert ro._conn.execute("PRAGMA mmap_size").fetchone()[0] == 0
        assert ro.read_only


def test_missing_file_is_never_created_by_connect(tmp_path: Path) -> None:
    """mode=rw: the low-level connect refuses a missing path instead of creating it."""
    with pytest.raises(KnownError):
        connection.connect_existing(tmp_path / "absent.goldset")
    assert listing(tmp_path) == []


def test_every_write_uses_begin_immediate(store: GoldSetStore) -> None:
    """reliability.md B4: no deferred BEGIN that could fail with BUSY half-way."""
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1", text="abc")
    changes = judging_ops.set_judgment(store, 1, 1, 1)
    store.revert(changes.operation_id)
    store._conn.set_trace_callback(None)
    begins = [s.strip().upper() for s in statements if s.strip().upper().startswith("BEGIN")]
    assert len(begins) == 4
    assert all(b.startswith("BEGIN IMMEDIATE") for b in begins)


def test_old_sqlite_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """reliability.md C8."""
    monkeypatch.setattr(connection.sqlite3, "sqlite_version_info", (3, 36, 0))
    monkeypatch.setattr(connection.sqlite3, "sqlite_version", "3.36.0")
    with pytest.raises(KnownError) as caught:
        GoldSetStore.create(tmp_path / "x.goldset")
    assert "3.36.0" in str(caught.value)
    assert listing(tmp_path) == []


def test_foreign_keys_are_enforced(store: GoldSetStore) -> None:
    import sqlite3

    with pytest.raises(sqlite3.IntegrityError), store.operation("t", "t") as op:
        op.insert("judgments", {"case_id": 999, "document_id": 999, "assessor_id": 999,
                                "grade": 1, "updated_at": "x"})
    assert store.count("judgments") == 0
    assert store.operation_ids() == []


def test_copy_of_template_keeps_identity(big_template: Path, tmp_path: Path) -> None:
    """A closed file is self-contained (rollback journal): a plain copy opens and checks."""
    copy = Path(shutil.copyfile(big_template, tmp_path / "copy.goldset"))
    assert not os.path.exists(f"{big_template}-journal")
    with GoldSetStore.open(copy, read_only=True) as store:
        assert store.integrity_problems() == [] and store.cross_reference_problems() == []


def test_a_real_version_1_file_migrates_to_judges_costs_and_reviews(
        goldset_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file written by a build that only knew 0001 opens in this build: backed up, migrated,
    nothing of its content changed, the 0002 tables and columns usable."""
    with monkeypatch.context() as patch:
        only_first = Migrations(schema.MIGRATIONS.name)
        only_first._migrations = [m for m in schema.MIGRATIONS._migrations
                                  if m.name == "0001_initial"]
        patch.setattr(schema, "MIGRATIONS", only_first)
        patch.setattr(schema, "SCHEMA_VERSION", 1)
        patch.setattr(store_mod, "SCHEMA_VERSION", 1)
        with GoldSetStore.create(goldset_path, assessor="alice") as store:
            build_rich(store)
    assert header_ids(goldset_path) == (APPLICATION_ID, 1)
    before = dump(goldset_path)

    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.schema_problems() == []
        kinds = {r["kind"] for r in store.query("SELECT kind FROM assessors")}
        assert kinds == {"human"}
        assert store.query("SELECT count(*) AS n FROM judge_verdicts") == [{"n": 0}]
    after = dump(goldset_path)
    for table in ("claims", "expected_sources"):
        assert after[table] == before[table], table
    # documents keep every value and gain an empty extra (0012), then no kind, no layout, no
    # file and no passage span (0013: eight columns).
    assert [row[:-9] for row in after["documents"]] == before["documents"]
    assert {row[-9:] for row in after["documents"]} == {("{}", "", None, None, None, None, None,
                                                          None, None)}
    # judgments gain their active seconds (0004), unknown (NULL) for what was judged before.
    assert [row[:-1] for row in after["judgments"]] == before["judgments"]
    assert {row[-1] for row in after["judgments"]} == {None}
    # cases (rebuilt by 0003) keep every value; the agent columns follow, at their defaults.
    width = len(before["cases"][0])
    assert [row[:width] for row in after["cases"]] == before["cases"]
    assert {row[width:] for row in after["cases"]} == {
        ("{}", "[]", "[]", "[]", None, None, None, None, "{}")}  # + extra (0010)
    # answers gain cost and tokens, unknown (NULL) for what was imported before, and extra.
    assert [row[:-3] for row in after["answers"]] == before["answers"]
    assert {row[-3:] for row in after["answers"]} == {(None, None, "{}")}
    assert (goldset_path.parent / f"{goldset_path.name}.before-0002_judges_costs_reviews.bak"
            ).exists()


def test_a_version_2_file_gains_agent_cases_by_a_rebuild_that_keeps_history(
        goldset_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """0003 rebuilds ``cases`` (its kind CHECK must accept 'agent'): every reference to a
    case still resolves, foreign keys are enforced again afterwards, and an edit made
    before the migration is still undone exactly after it."""
    with monkeypatch.context() as patch:
        first_two = Migrations(schema.MIGRATIONS.name)
        first_two._migrations = [m for m in schema.MIGRATIONS._migrations
                                 if m.name in ("0001_initial", "0002_judges_costs_reviews")]
        patch.setattr(schema, "MIGRATIONS", first_two)
        patch.setattr(schema, "SCHEMA_VERSION", 2)
        patch.setattr(store_mod, "SCHEMA_VERSION", 2)
        with GoldSetStore.create(goldset_path, assessor="alice") as store:
            rich = build_rich(store)
            case_id = next(iter(rich.cases.values()))
            original = store.query("SELECT question FROM cases WHERE id = ?", (case_id,))
            edit = ops.edit_case(store, case_id, question="edited before the migration")
    assert header_ids(goldset_path) == (APPLICATION_ID, 2)
    before = dump(goldset_path, drop=frozenset({"updated_at"}))

    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        assert store.schema_version == SCHEMA_VERSION >= 3
        assert store.schema_problems() == []
        assert store.integrity_problems() == []
        # foreign keys point at the rebuilt table: a judgment of a missing case is refused
        import sqlite3

        with pytest.raises(sqlite3.IntegrityError), store.operation("t", "t") as op:
            op.insert("judgments", {"case_id": 999_999, "document_id": 1, "assessor_id": 1,
                                    "grade": 1, "updated_at": "x"})
        ops.create_case(store, key="AGENT-1", kind="agent")
        assert store.query("SELECT kind FROM cases WHERE key = 'AGENT-1'") == [
            {"kind": "agent"}]
        store.revert(edit.operation_id)
        assert store.query("SELECT question FROM cases WHERE id = ?", (case_id,)) == original
    after = dump(goldset_path, drop=frozenset({"updated_at"}))
    for table in ("expected_sources", "retrieved", "answer_reviews"):
        assert after[table] == before[table], table
    assert [row[:-1] for row in after["answers"]] == before["answers"]  # + extra (0010)
    assert [row[:-1] for row in after["judgments"]] == before["judgments"]  # + seconds (0004)
    width = len(before["cases"][0])
    unchanged = [row[:width] for row in after["cases"] if row[1] != "AGENT-1"]
    assert [row[:3] + row[4:] for row in unchanged] == [
        row[:3] + row[4:] for row in before["cases"]]  # all but the question, undone above


def test_an_older_file_gains_trials_by_a_rebuild_that_keeps_trajectories(
        goldset_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The trials migration rebuilds ``trajectories`` (UNIQUE(run, case) becomes
    UNIQUE(run, case, trial)): ids, steps and reviews stay attached, old trajectories are
    trial 0 without a reward, and a second trial of the same case in the same run is then
    accepted."""
    from rag_annotator.domain.agent_ops import TrajectoryInput, import_trajectories

    with monkeypatch.context() as patch:
        before_trials = schema.TRIALS_VERSION - 1
        schema_up_to(patch, before_trials)
        with GoldSetStore.create(goldset_path, assessor="alice") as store:
            ops.create_case(store, key="A01", kind="agent", question="q")
            with store.operation("seed", "seed") as op:
                run_id = op.insert("runs", {"name": "r", "created_at": "t", "notes": ""})["id"]
                case_id = op.select("cases", key="A01")[0]["id"]
                t_id = op.insert("trajectories", {"run_id": run_id, "case_id": case_id,
                                                  "final_answer": "ok"})["id"]
                op.insert("trajectory_steps", {"trajectory_id": t_id, "position": 1,
                                               "tool": "t", "arguments": "{}", "result": ""})
                assessor = op.insert("assessors", {"name": "alice", "created_at": "t"})["id"]
                op.insert("trajectory_reviews", {"trajectory_id": t_id, "assessor_id": assessor,
                                                 "task_success": 1, "updated_at": "t"})
    assert header_ids(goldset_path) == (APPLICATION_ID, schema.TRIALS_VERSION - 1)
    kept = ("trajectory_steps", "trajectory_reviews", "cases", "runs")
    before = dump(goldset_path, kept)
    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        assert store.schema_version == SCHEMA_VERSION >= schema.TRIALS_VERSION
        assert store.schema_problems() == [] and store.integrity_problems() == []
        after = dump(goldset_path, kept)
        assert [row[:-1] for row in after.pop("cases")] == before.pop("cases")  # + extra
        assert after == before
        assert store.query("SELECT id, trial, reward, final_answer FROM trajectories") == [
            {"id": t_id, "trial": 0, "reward": None, "final_answer": "ok"}]
        import_trajectories(store, "r", [TrajectoryInput(case="A01", trial=1, reward=1.0)])
        assert [r["trial"] for r in store.query(
            "SELECT trial FROM trajectories ORDER BY trial")] == [0, 1]
