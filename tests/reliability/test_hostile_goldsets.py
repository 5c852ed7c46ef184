"""Hostile gold sets (issue 20, findings 3 and 6): files with our application id but another
shape — an extra trigger, a view standing in for a table, a missing table, a CHECK edited
through ``writable_schema``, a forged merge file, a migration that fails, a FIFO named
``.goldset``.  Each is refused with one KnownError line (the CLI: one ``error:`` line, exit
2), the refused file left byte-identical, or (merge) its untrustworthy rows skipped and listed.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

import pytest
from sqlite_utils import Migrations

from rag_annotator.errors import (
    DamagedFile,
    MigrationFailed,
    NotAGoldSetFile,
    UnexpectedSchema,
)
from rag_annotator.import_export.merge import merge_file
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage import connection, schema
from rag_annotator.storage import store as store_mod
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich
from tests.helpers import dump, header_ids, listing, rows, run_cli, sha256, stderr_lines

PWN_TRIGGER = ("CREATE TRIGGER pwn AFTER UPDATE ON cases BEGIN "
               "UPDATE documents SET text = 'PWNED'; END")


@pytest.fixture(scope="module")
def sample_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "sample.goldset"
    create_sample(path, assessor="Alice").close()
    return path


def copy_of(template: Path, folder: Path, name: str) -> Path:
    folder.mkdir(exist_ok=True)
    return Path(shutil.copyfile(template, folder / name))


def tamper(path: Path, statements: Iterable[str | tuple[str, tuple[object, ...]]], *,
           writable_schema: bool = False) -> None:
    """What an attacker does with the ``sqlite3`` shell: raw SQL, foreign keys off."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        if writable_schema:
            conn.execute("PRAGMA writable_schema=ON")
        for statement in statements:
            sql, params = (statement, ()) if isinstance(statement, str) else statement
            conn.execute(sql, params)


def assert_one_error_line(result: subprocess.CompletedProcess[str], path: Path) -> str:
    """The CLI refused: exit 2, one ``error:`` line naming the file, no traceback."""
    assert result.returncode == 2, result
    lines = stderr_lines(result)
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert "Traceback" not in result.stderr
    assert str(path) in lines[0]
    return lines[0]


# -- finding 3: a real trigger ---------------------------------------------------------------
def test_an_extra_trigger_is_refused_before_it_can_run(sample_template: Path,
                                                       tmp_path: Path) -> None:
    hostile = copy_of(sample_template, tmp_path / "in", "colleague.goldset")
    tamper(hostile, [PWN_TRIGGER])
    digest = sha256(hostile)

    with pytest.raises(UnexpectedSchema) as refused:
        GoldSetStore.open(hostile, assessor="me")
    assert "unexpected trigger pwn on cases" in str(refused.value)
    assert "\n" not in str(refused.value)
    assert sha256(hostile) == digest and listing(hostile.parent) == [hostile.name]

    for command in (("info", str(hostile)), ("metrics", str(hostile), "--run", "x"),
                    ("export", str(hostile), "json", str(tmp_path / "out.json"))):
        line = assert_one_error_line(run_cli(*command), hostile)
        assert "unexpected trigger pwn" in line
    mine = copy_of(sample_template, tmp_path / "mine", "mine.goldset")
    before = dump(mine)
    assert_one_error_line(run_cli("merge", str(mine), str(hostile)), hostile)
    assert dump(mine) == before
    assert sha256(hostile) == digest and listing(hostile.parent) == [hostile.name]

    # check lists the difference instead of refusing, and exits 1.
    result = run_cli("check", str(hostile))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{hostile}: schema: unexpected trigger pwn on cases" in result.stdout
    assert sha256(hostile) == digest


# -- finding 3: a real view ------------------------------------------------------------------
def test_a_view_forging_judgments_is_refused_by_merge(sample_template: Path,
                                                      tmp_path: Path) -> None:
    hostile = copy_of(sample_template, tmp_path / "in", "colleague.goldset")
    tamper(hostile, [
        "ALTER TABLE judgments RENAME TO judgments_real",
        "CREATE VIEW judgments AS SELECT id, case_id, document_id, assessor_id, "
        "1 - grade AS grade, note, '9999-12-31T00:00:00.000Z' AS updated_at "
        "FROM judgments_real"])
    digest = sha256(hostile)
    mine = copy_of(sample_template, tmp_path / "mine", "mine.goldset")
    before = dump(mine)

    with GoldSetStore.open(mine, assessor="me") as store, \
            pytest.raises(UnexpectedSchema) as refused:
        merge_file(store, hostile)
    assert "judgments is a view, not a table" in str(refused.value)
    assert dump(mine) == before
    assert sha256(hostile) == digest

    result = run_cli("check", str(hostile))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "schema: judgments is a view, not a table" in result.stdout
    assert "unexpected table judgments_real" in result.stdout


# -- finding 3: a forged merge file ----------------------------------------------------------
def test_forged_timestamps_do_not_flip_labels_in_a_merge(sample_template: Path,
                                                         tmp_path: Path) -> None:
    forged = copy_of(sample_template, tmp_path / "in", "colleague.goldset")
    tamper(forged, [
        "UPDATE judgments SET grade = 1 - grade, updated_at = '9999-12-31T23:59:59.000Z' "
        "WHERE grade IS NOT NULL",
        "UPDATE judgments SET updated_at = 'zzzz not a date' WHERE id = (SELECT min(id) "
        "FROM judgments WHERE grade IS NOT NULL)"])
    flipped = rows(forged, "SELECT count(*) FROM judgments WHERE grade IS NOT NULL")[0][0]
    assert flipped >= 40
    mine = copy_of(sample_template, tmp_path / "mine", "mine.goldset")
    before = dump(mine)

    with GoldSetStore.open(mine, assessor="me") as store:
        report = merge_file(store, forged)
    assert dump(mine)["judgments"] == before["judgments"]
    assert report.counts["judgments"]["updated"] == 0
    future = [s for s in report.skipped if "in the future" in s]
    garbage = [s for s in report.skipped if "'zzzz not a date' is not an ISO 8601" in s]
    assert len(future) == flipped - 1 and len(garbage) == 1
    assert rows(mine, "SELECT count(*) FROM judgments WHERE updated_at LIKE 'zzzz%' "
                "OR updated_at LIKE '9999%'") == [(0,)]

    result = run_cli("merge", str(mine), str(forged))
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "49 skipped" in result.stdout or f"{flipped} skipped" in result.stdout
    assert dump(mine)["judgments"] == before["judgments"]


# -- finding 6: wrong or missing tables, a CHECK edited away -----------------------------------
def test_a_missing_table_is_one_line_in_info_check_and_merge(sample_template: Path,
                                                             tmp_path: Path) -> None:
    hostile = copy_of(sample_template, tmp_path / "in", "colleague.goldset")
    tamper(hostile, ["DROP TABLE releases", "CREATE TABLE notes (x)"])
    digest = sha256(hostile)
    line = assert_one_error_line(run_cli("info", str(hostile)), hostile)
    assert "table releases is missing" in line
    mine = copy_of(sample_template, tmp_path / "mine", "mine.goldset")
    assert_one_error_line(run_cli("merge", str(mine), str(hostile)), hostile)
    result = run_cli("check", str(hostile))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "schema: table releases is missing" in result.stdout
    assert "schema: unexpected table notes" in result.stdout
    assert sha256(hostile) == digest


def test_odd_grades_under_an_edited_check_are_refused(sample_template: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (original,) = rows(sample_template, "SELECT sql FROM sqlite_master WHERE name = 'judgments'")[0]
    loose = original.replace(
        "CHECK (grade IS NULL OR (typeof(grade) = 'integer' AND grade >= 0))", "")
    assert loose != original
    set_sql = "UPDATE sqlite_master SET sql = ? WHERE name = 'judgments'"
    # CHECK removed, odd grades written, CHECK left removed: the schema differs.
    removed = copy_of(sample_template, tmp_path / "a", "removed.goldset")
    tamper(removed, [(set_sql, (loose,))], writable_schema=True)
    tamper(removed, ["UPDATE judgments SET grade = 'abc' WHERE id = 1",
                     "UPDATE judgments SET grade = -7 WHERE id = 2"])
    # ... and put back afterwards: the schema is right, the rows are not.
    restored = copy_of(removed, tmp_path / "b", "restored.goldset")
    tamper(restored, [(set_sql, (original,))], writable_schema=True)

    digest = sha256(removed)
    with pytest.raises(UnexpectedSchema):
        GoldSetStore.open(removed, read_only=True)
    assert "table judgments is defined differently" in assert_one_error_line(
        run_cli("info", str(removed)), removed)
    result = run_cli("check", str(removed))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "schema: table judgments is defined differently" in result.stdout
    assert sha256(removed) == digest

    digest = sha256(restored)
    with pytest.raises(DamagedFile):
        GoldSetStore.open(restored, read_only=True)
    with monkeypatch.context() as patch:  # a file we cannot write: read-only check only
        patch.setattr(connection, "_constraint_checker", lambda path: None)
        with pytest.raises(DamagedFile) as damaged:
            GoldSetStore.open(restored, read_only=True)
        assert "CHECK constraint failed in judgments" in str(damaged.value)
    for command in ("info", "check"):
        line = assert_one_error_line(run_cli(command, str(restored)), restored)
        assert "CHECK constraint failed in judgments" in line
    assert sha256(restored) == digest


def test_a_forged_grade_scale_is_refused(sample_template: Path, tmp_path: Path) -> None:
    """``meta`` has no CHECK: a scale of 'abc' gave ValueError tracebacks in every reader."""
    hostile = copy_of(sample_template, tmp_path / "in", "colleague.goldset")
    tamper(hostile, ["UPDATE meta SET value = 'abc' WHERE key = 'max_grade'"])
    digest = sha256(hostile)
    for command in (("info", str(hostile)), ("metrics", str(hostile), "--run", "x")):
        line = assert_one_error_line(run_cli(*command), hostile)
        assert "max_grade = 'abc'" in line
    result = run_cli("check", str(hostile))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "settings: its grade scale (meta max_grade = 'abc')" in result.stdout
    assert sha256(hostile) == digest


# -- finding 6: a failing migration ------------------------------------------------------------
def test_a_failing_migration_leaves_the_exact_bytes(goldset_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A real version-1 file whose judgment points at a missing case: 0002 applies, then
    0003's rebuild finds the broken reference and fails.  Nothing of 0002 stays either."""
    with monkeypatch.context() as patch:
        only_first = Migrations(schema.MIGRATIONS.name)
        only_first._migrations = [m for m in schema.MIGRATIONS._migrations
                                  if m.name == "0001_initial"]
        patch.setattr(schema, "MIGRATIONS", only_first)
        patch.setattr(schema, "SCHEMA_VERSION", 1)
        patch.setattr(store_mod, "SCHEMA_VERSION", 1)
        with GoldSetStore.create(goldset_path, assessor="alice") as store:
            build_rich(store)
    tamper(goldset_path, ["UPDATE judgments SET case_id = 999999 WHERE id = 1"])
    assert header_ids(goldset_path)[1] == 1
    digest = sha256(goldset_path)

    with pytest.raises(MigrationFailed) as failed:
        GoldSetStore.open(goldset_path, assessor="alice")
    message = str(failed.value)
    backup = goldset_path.with_name(f"{goldset_path.name}.before-0002_judges_costs_reviews.bak")
    assert "rolled back" in message and str(backup) in message and "\n" not in message
    assert sha256(goldset_path) == digest
    assert sorted(listing(goldset_path.parent)) == sorted([goldset_path.name, backup.name])

    other = goldset_path.with_name("other.goldset")
    create_sample(other).close()
    result = run_cli("merge", str(goldset_path), str(other))
    assert_one_error_line(result, goldset_path)
    assert "rolled back" in result.stderr
    assert sha256(goldset_path) == digest


# -- finding 6: a FIFO -------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_named_goldset_is_refused_without_opening_it(sample_template: Path,
                                                            tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.goldset"
    os.mkfifo(fifo)
    mine = copy_of(sample_template, tmp_path / "mine", "mine.goldset")
    digest = sha256(mine)
    for command in (("info", str(fifo)), ("check", str(fifo)),
                    ("merge", str(mine), str(fifo)), ("merge", str(fifo), str(mine))):
        line = assert_one_error_line(run_cli(*command, timeout=20), fifo)
        assert "named pipe (FIFO)" in line
    with pytest.raises(NotAGoldSetFile):
        GoldSetStore.open(fifo, assessor="me")  # the app's open: refused, not waiting
    assert sha256(mine) == digest



# -- the app: the same refusals, shown as a message; no file opened ----------------------------
@pytest.mark.gui
def test_the_app_shows_the_refusal_and_opens_nothing(qtbot, sample_template: Path,  # type: ignore[no-untyped-def]
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from rag_annotator.paths import app_paths
    from rag_annotator.settings import Settings
    from rag_annotator.ui import file_life
    from rag_annotator.ui.main_window import MainWindow

    shown: list[object] = []
    monkeypatch.setattr(file_life, "show_known_error", lambda parent, error: shown.append(error))
    window = MainWindow(Settings(assessor="Marc"), app_paths(), assessor="Marc")
    qtbot.addWidget(window)
    hostile = copy_of(sample_template, tmp_path / "in", "colleague.goldset")
    tamper(hostile, [PWN_TRIGGER])
    digest = sha256(hostile)
    fifo = tmp_path / "pipe.goldset"
    os.mkfifo(fifo)

    assert not window.open_file(hostile)
    assert not window.open_file(fifo)
    assert window.store is None
    assert [type(error) for error in shown] == [UnexpectedSchema, NotAGoldSetFile]
    assert sha256(hostile) == digest and listing(hostile.parent) == [hostile.name]
