"""Opening refuses what is not a sound gold-set file, and never writes to it.

reliability.md C1, C4–C7, C9, C10: each bad file is built here from a real gold-set file (or
from scratch); opening it raises the right :class:`KnownError`, the CLI prints one ``error:``
line, and the file and its folder are left exactly as they were.
"""

from __future__ import annotations

import shutil
import sqlite3
import struct
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from rag_annotator.errors import (
    DamagedFile,
    EmptyFile,
    FileNotFound,
    FileTooNew,
    KnownError,
    NotAGoldSetFile,
)
from rag_annotator.storage.connection import APPLICATION_ID
from rag_annotator.storage.schema import SCHEMA_VERSION
from rag_annotator.storage.store import GoldSetStore
from tests.damage import garbage_page, page_size
from tests.helpers import fingerprint, header_ids, listing, run_cli, stderr_lines

PAGE = 4096


# -- the bad-file factory ------------------------------------------------------------------
def _text(good: Path, out: Path) -> None:
    out.write_text("qid,docid,rel\nQ1,D1,1\n" * 50, encoding="utf-8")


def _zip(good: Path, out: Path) -> None:
    out.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 8)


def _zero(good: Path, out: Path) -> None:
    out.write_bytes(b"")


def _truncate(fraction: float) -> Callable[[Path, Path], None]:
    def make(good: Path, out: Path) -> None:
        data = good.read_bytes()
        out.write_bytes(data[: int(len(data) * fraction)])
    return make


def _header_only(good: Path, out: Path) -> None:
    out.write_bytes(good.read_bytes()[:100])


def _other_app(application_id: int) -> Callable[[Path, Path], None]:
    def make(good: Path, out: Path) -> None:
        with closing(sqlite3.connect(out)) as conn:
            conn.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
            conn.executemany("INSERT INTO moz_places (url) VALUES (?)",
                             [(f"https://example.org/{i}",) for i in range(50)])
            if application_id:
                conn.execute(f"PRAGMA application_id = {application_id}")
            conn.commit()
        assert header_ids(out)[0] == application_id
    return make


def _newer_by_header_patch(good: Path, out: Path) -> None:
    data = bytearray(good.read_bytes())
    data[60:64] = struct.pack(">i", SCHEMA_VERSION + 1)
    out.write_bytes(bytes(data))


def _newer_by_pragma(good: Path, out: Path) -> None:
    shutil.copyfile(good, out)
    with closing(sqlite3.connect(out)) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


def _unknown_migration(good: Path, out: Path) -> None:
    shutil.copyfile(good, out)
    with closing(sqlite3.connect(out)) as conn:
        conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                     "VALUES ('rag_annotator', '0099_from_the_future', '2031-01-01')")
        conn.commit()


BAD_FILES: dict[str, tuple[Callable[[Path, Path], None], type[KnownError]]] = {
    "text_named_goldset": (_text, NotAGoldSetFile),
    "zip_bytes": (_zip, NotAGoldSetFile),
    "zero_bytes": (_zero, EmptyFile),
    "truncated_50": (_truncate(0.50), DamagedFile),
    "truncated_99": (_truncate(0.99), DamagedFile),
    "header_only_100_bytes": (_header_only, DamagedFile),
    "garbage_in_documents_root": (garbage_page("documents"), DamagedFile),
    "garbage_in_cases_root": (garbage_page("cases"), DamagedFile),
    "garbage_in_history_root": (garbage_page("history"), DamagedFile),
    "other_app_application_id_0": (_other_app(0), NotAGoldSetFile),
    "other_app_foreign_application_id": (_other_app(0x0F055112), NotAGoldSetFile),
    "newer_schema_header_patch": (_newer_by_header_patch, FileTooNew),
    "newer_schema_pragma": (_newer_by_pragma, FileTooNew),
    "unknown_migration": (_unknown_migration, FileTooNew),
}


@pytest.fixture
def good_copy(big_template: Path, tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    return Path(shutil.copyfile(big_template, src / "good.goldset"))


def _make_bad(kind: str, good: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "bad"
    folder.mkdir()
    out = folder / "x.goldset"
    BAD_FILES[kind][0](good, out)
    return out


def test_template_is_big_and_sound(big_template: Path, tmp_path: Path) -> None:
    """The source of the truncated and garbled copies spans many pages and opens fine."""
    size = big_template.stat().st_size
    assert size // page_size(big_template) > 100
    assert header_ids(big_template) == (APPLICATION_ID, SCHEMA_VERSION)
    copy = Path(shutil.copyfile(big_template, tmp_path / "copy.goldset"))
    with GoldSetStore.open(copy) as store:
        assert store.count("documents") == 300
        assert store.integrity_problems() == []


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
@pytest.mark.parametrize("read_only", [False, True], ids=["rw", "ro"])
def test_open_refuses_bad_file_without_touching_it(kind: str, read_only: bool,
                                                   good_copy: Path, tmp_path: Path) -> None:
    bad = _make_bad(kind, good_copy, tmp_path)
    before, names = fingerprint(bad), listing(bad.parent)
    expected = BAD_FILES[kind][1]

    with pytest.raises(KnownError) as caught:
        GoldSetStore.open(bad, read_only=read_only)

    assert type(caught.value) is expected, str(caught.value)
    assert str(bad.resolve()) in str(caught.value)
    assert caught.value.path == bad.resolve()
    assert "\n" not in str(caught.value)
    assert fingerprint(bad) == before
    assert listing(bad.parent) == names


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
@pytest.mark.parametrize("command", ["info", "check"])
def test_cli_refuses_bad_file_with_one_error_line(kind: str, command: str, good_copy: Path,
                                                  tmp_path: Path) -> None:
    bad = _make_bad(kind, good_copy, tmp_path)
    before, names = fingerprint(bad), listing(bad.parent)

    result = run_cli(command, str(bad))

    assert result.returncode != 0
    assert result.returncode != 1 or command != "check", "a refused file is not 'problems found'"
    lines = stderr_lines(result)
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error:")
    assert str(bad.resolve()) in lines[0]
    assert "Traceback" not in result.stderr
    assert fingerprint(bad) == before
    assert listing(bad.parent) == names


def test_refusal_messages_say_what_the_file_is(good_copy: Path, tmp_path: Path) -> None:
    """Spot-check the wording users see: the reason is specific, not a generic failure."""
    def message(kind: str) -> str:
        sub = tmp_path / kind
        sub.mkdir()
        bad = sub / "x.goldset"
        BAD_FILES[kind][0](good_copy, bad)
        with pytest.raises(KnownError) as caught:
            GoldSetStore.open(bad)
        return str(caught.value).lower()

    assert "empty" in message("zero_bytes")
    foreign = message("other_app_foreign_application_id")
    assert "another application" in foreign
    assert "0xf055112" in foreign
    garbled = message("garbage_in_documents_root")
    assert "damaged" in garbled and "page" in garbled, "say where the damage is"
    assert "newer" in message("newer_schema_pragma")
    assert str(SCHEMA_VERSION + 1) in message("newer_schema_header_patch")
    assert "0099_from_the_future" in message("unknown_migration")
    assert "damaged" in message("truncated_50")


def test_directory_named_goldset_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "dir.goldset"
    folder.mkdir()
    with pytest.raises(NotAGoldSetFile):
        GoldSetStore.open(folder)
    assert listing(folder) == []


@pytest.mark.parametrize("read_only", [False, True], ids=["rw", "ro"])
def test_missing_path_is_not_found_and_not_created(tmp_path: Path, read_only: bool) -> None:
    missing = tmp_path / "nope.goldset"
    with pytest.raises(FileNotFound) as caught:
        GoldSetStore.open(missing, read_only=read_only)
    assert str(missing) in str(caught.value)
    assert listing(tmp_path) == []


@pytest.mark.parametrize("command", ["info", "check"])
def test_cli_missing_path(tmp_path: Path, command: str) -> None:
    missing = tmp_path / "nope.goldset"
    result = run_cli(command, str(missing))
    assert result.returncode == 2
    lines = stderr_lines(result)
    assert len(lines) == 1 and lines[0].startswith("error:") and str(missing) in lines[0]
    assert listing(tmp_path) == []


def test_sound_file_opened_read_only_is_not_written(good_copy: Path) -> None:
    """The guard reads before writing; a read-only session never writes at all."""
    before, names = fingerprint(good_copy), listing(good_copy.parent)
    with GoldSetStore.open(good_copy, read_only=True) as store:
        assert store.count("cases") == 301
        with pytest.raises(KnownError), store.operation("x", "y"):
            pass
    result = run_cli("info", str(good_copy))
    assert result.returncode == 0, result.stderr
    assert fingerprint(good_copy) == before
    assert listing(good_copy.parent) == names
