"""Large files are quick-checked on a background thread when the app opens them; no write may
reach a file before that check has found it sound."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.errors import DamagedFile, KnownError
from rag_annotator.storage import store as store_mod
from rag_annotator.storage.store import GoldSetStore
from tests.damage import garbage_page
from tests.helpers import fingerprint


@pytest.fixture(autouse=True)
def _every_file_is_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_mod, "BACKGROUND_CHECK_BYTES", 0)


def _copy(big_template: Path, tmp_path: Path) -> Path:
    return Path(shutil.copyfile(big_template, tmp_path / "copy.goldset"))


def test_sound_file_opens_and_takes_writes(big_template: Path, tmp_path: Path) -> None:
    path = _copy(big_template, tmp_path)
    with GoldSetStore.open(path, assessor="ana", verify="auto") as store:
        assert store.damage(timeout=30) is None
        changes = ops.create_case(store, key="NEW-1", question="Q?")
        assert changes.operation_id
    with GoldSetStore.open(path, read_only=True) as again:
        assert again.by_key("cases", "NEW-1")["question"] == "Q?"


def test_the_check_starts_with_the_first_question_or_write(big_template: Path,
                                                          tmp_path: Path) -> None:
    """Opening starts no thread (the app asks once its window is painted); a write that
    comes first starts the check itself and waits for it."""
    path = _copy(big_template, tmp_path)
    with GoldSetStore.open(path, assessor="ana", verify="auto") as store:
        assert not [t for t in threading.enumerate() if t.name == "quick-check"]
        assert store.damage(timeout=30) is None  # asked: checked now
    with GoldSetStore.open(path, assessor="ana", verify="auto") as store:
        ops.create_case(store, key="NEW-1", question="Q?")  # starts the check, waits for it
        assert store.damage(timeout=0) is None


def test_damaged_file_refuses_every_write_and_stays_untouched(big_template: Path,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "damaged.goldset"
    garbage_page("documents")(big_template, path)
    before = fingerprint(path)
    # the synchronous check would refuse it outright ...
    with pytest.raises(DamagedFile):
        GoldSetStore.open(path, assessor="ana")
    # ... the background one lets the window show it, but nothing can be written
    with GoldSetStore.open(path, assessor="ana", verify="auto") as store:
        damage = store.damage(timeout=30)
        assert isinstance(damage, DamagedFile) and "damaged" in str(damage)
        with pytest.raises(DamagedFile):
            ops.create_case(store, key="NEW-1", question="Q?")
    assert fingerprint(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.goldset"]


def test_migration_waits_for_the_check(big_template: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A pending migration never runs (nor backs up) a file the check has not passed."""
    path = tmp_path / "damaged.goldset"
    garbage_page("cases")(big_template, path)
    monkeypatch.setattr(store_mod, "pending_migration_names", lambda conn: ["0002_future"])
    before = fingerprint(path)
    with pytest.raises(DamagedFile):
        GoldSetStore.open(path, assessor="ana", verify="auto")
    assert fingerprint(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.goldset"]


def test_unknown_verify_mode_is_a_bug_not_a_user_error(tmp_path: Path,
                                                       big_template: Path) -> None:
    with pytest.raises(ValueError) as info:
        GoldSetStore.open(_copy(big_template, tmp_path), verify="later")
    assert not isinstance(info.value, KnownError)
