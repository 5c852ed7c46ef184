"""The schema comparison of ``storage/shape.py``: what a sound file may differ in (quoting,
spacing, SQLite's own statistics, sqlite-utils' bookkeeping) and what it may not."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from itertools import pairwise
from pathlib import Path

import pytest

from rag_annotator.errors import UnexpectedSchema
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.schema import SCHEMA_VERSION
from rag_annotator.storage.shape import normalise_sql, reference_objects, schema_differences
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import sha256


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("s") / "sample.goldset"
    create_sample(path).close()
    return path


def _copy(sample: Path, tmp_path: Path) -> Path:
    return Path(shutil.copyfile(sample, tmp_path / "copy.goldset"))


def test_quoting_and_spacing_do_not_count_but_literals_do() -> None:
    assert normalise_sql('CREATE TABLE "t" (\n  [a]  TEXT ,  `b` INTEGER\n)') == \
        normalise_sql("CREATE TABLE t(a TEXT, b INTEGER)")
    assert normalise_sql("CHECK (k IN ('a  b'))") != normalise_sql("CHECK (k IN ('a b'))")
    assert normalise_sql("CHECK (k IN ('a'))") != normalise_sql("CHECK (k IN ('A'))")


def test_a_sound_file_matches_and_analyze_is_tolerated(sample: Path, tmp_path: Path) -> None:
    path = _copy(sample, tmp_path)
    with closing(sqlite3.connect(path)) as conn:
        assert schema_differences(conn, SCHEMA_VERSION) == []
        conn.execute("ANALYZE")
        conn.commit()
        assert schema_differences(conn, SCHEMA_VERSION) == []
    GoldSetStore.open(path).close()


def test_every_version_has_a_reference() -> None:
    names = [{o.name for o in reference_objects(v)} for v in range(SCHEMA_VERSION + 1)]
    assert names[0] == set()
    # no migration loses an object, but version 11's: it packs each queue into one row of
    # ``queues`` and turns ``assignments`` into a view, so the per-slot table's indexes go
    dropped = {11: {"assignments_pair", "assignments_document",
                    "sqlite_autoindex_assignments_1"}}
    assert all(a - dropped.get(version, set()) <= b
               for version, (a, b) in enumerate(pairwise(names), start=1))
    assert all(not (dropped.get(version, set()) & b)
               for version, (_a, b) in enumerate(pairwise(names), start=1))
    # each migration changes the schema: adds objects, or rebuilds some (CHECKs, trajectories)
    objects = [set(reference_objects(v)) for v in range(SCHEMA_VERSION + 1)]
    assert all(a != b for a, b in pairwise(objects))


def test_a_migrations_table_with_an_expression_is_refused(sample: Path, tmp_path: Path) -> None:
    path = _copy(sample, tmp_path)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("ALTER TABLE _sqlite_migrations RENAME TO old")
        conn.execute("CREATE TABLE _sqlite_migrations (id INTEGER PRIMARY KEY, migration_set "
                     "TEXT, name TEXT, applied_at TEXT DEFAULT (random()))")
        conn.execute("INSERT INTO _sqlite_migrations SELECT * FROM old")
        conn.execute("DROP TABLE old")
    digest = sha256(path)
    with pytest.raises(UnexpectedSchema) as refused:
        GoldSetStore.open(path)
    assert "_sqlite_migrations is not the plain table" in str(refused.value)
    assert sha256(path) == digest
