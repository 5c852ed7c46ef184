"""The remembered digest of the reference schema (``storage/shape_cache.py``, issue 19): a
sound file is known sound without replaying the migrations, and the digest never lets a
changed schema through — every verdict equals the full comparison's."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from rag_annotator.import_export.sample import create_sample
from rag_annotator.paths import app_paths
from rag_annotator.storage import shape, shape_cache
from rag_annotator.storage.schema import SCHEMA_VERSION


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("s") / "sample.goldset"
    create_sample(path).close()
    return path


@pytest.fixture(autouse=True)
def fresh_process() -> Iterator[None]:
    """As a new start: nothing remembered in memory (the folder is the test's own)."""
    saved = dict(shape._REFERENCES)
    shape._REFERENCES.clear()
    shape_cache.forget()
    yield
    shape._REFERENCES.clear()
    shape._REFERENCES.update(saved)
    shape_cache.forget()


def _copy(sample: Path, tmp_path: Path) -> Path:
    return Path(shutil.copyfile(sample, tmp_path / "copy.goldset"))


def _full_comparison(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The differences as the normalising comparison alone finds them (no digest)."""
    with monkeypatch.context() as patch:
        patch.setattr(shape, "_identical_to_reference", lambda _raw, _version: False)
        return _differences(path)


def _differences(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as conn:
        return shape.schema_differences(conn, SCHEMA_VERSION)


def test_a_sound_file_is_known_sound_without_replaying_the_migrations(
        sample: Path, tmp_path: Path) -> None:
    path = _copy(sample, tmp_path)
    assert _differences(path) == []  # first start: replays them, remembers the digest
    digests = list((app_paths().data / "schema").glob("*.sha256"))
    assert len(digests) == 1 and f"-{SCHEMA_VERSION}." in digests[0].name
    shape._REFERENCES.clear()
    shape_cache.forget()
    assert _differences(path) == []  # next start: from the digest on disk
    assert shape._REFERENCES == {}  # no reference was built


@pytest.mark.parametrize("change", [
    "CREATE TRIGGER wipe AFTER INSERT ON judgments BEGIN DELETE FROM cases; END",
    "CREATE VIEW extra AS SELECT 1",
    "CREATE INDEX extra_index ON cases(question)",
    "CREATE TRIGGER on_record AFTER INSERT ON _sqlite_migrations BEGIN SELECT 1; END",
    "DROP INDEX retrieved_pair",
    "ALTER TABLE cases ADD COLUMN planted TEXT DEFAULT 'x'",
])
def test_a_changed_schema_is_still_refused_with_a_digest_remembered(
        sample: Path, tmp_path: Path, change: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _differences(_copy(sample, tmp_path)) == []  # the digest is remembered
    path = tmp_path / "changed.goldset"
    shutil.copyfile(sample, path)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute(change)
    shape_cache.forget()  # a new start, with the digest on disk
    found = _differences(path)
    assert found, change
    assert found == _full_comparison(path, monkeypatch)


def test_a_damaged_digest_file_is_ignored_and_written_again(sample: Path,
                                                            tmp_path: Path) -> None:
    path = _copy(sample, tmp_path)
    assert _differences(path) == []
    (digest_file,) = (app_paths().data / "schema").glob("*.sha256")
    digest_file.write_text("not a digest\n", encoding="ascii")
    shape._REFERENCES.clear()
    shape_cache.forget()
    assert _differences(path) == []
    assert len(digest_file.read_text(encoding="ascii").strip()) == 64


def test_a_wrong_digest_only_costs_the_full_comparison(sample: Path, tmp_path: Path) -> None:
    """A digest that matches nothing (another build wrote it under the same name) never
    refuses a sound file: the full comparison decides."""
    path = _copy(sample, tmp_path)
    assert _differences(path) == []
    (digest_file,) = (app_paths().data / "schema").glob("*.sha256")
    digest_file.write_text("0" * 64 + "\n", encoding="ascii")
    shape._REFERENCES.clear()
    shape_cache.forget()
    assert _differences(path) == []


def test_the_key_follows_the_migration_steps() -> None:
    from rag_annotator.storage.schema import migration_functions

    steps = migration_functions()
    assert shape_cache.build_key(steps, SCHEMA_VERSION) != shape_cache.build_key(
        steps[:-1], SCHEMA_VERSION - 1)
    assert shape_cache.build_key(steps, SCHEMA_VERSION) == shape_cache.build_key(
        list(steps), SCHEMA_VERSION)
