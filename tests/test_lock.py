"""One writer per file: the lock names its holder, dies with it, and is taken over when stale."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rag_annotator.errors import ReadOnlyLocation
from rag_annotator.storage import lock as lock_mod
from rag_annotator.storage.lock import FileInUse, LockInfo, WriterLock, lock_path, read_holder
from rag_annotator.storage.store import GoldSetStore


@pytest.fixture
def created(goldset_path: Path) -> Path:
    GoldSetStore.create(goldset_path, assessor="alice").close()
    return goldset_path


def test_a_second_writer_is_told_by_whom_and_since_when(created: Path) -> None:
    first = GoldSetStore.open(created, assessor="Claire Dubois", lock=True)
    try:
        assert first.lock is not None and lock_path(created).exists()
        with pytest.raises(FileInUse) as caught:
            GoldSetStore.open(created, assessor="Marc", lock=True)
        holder = caught.value.holder
        assert holder.assessor == "Claire Dubois" and holder.pid == os.getpid()
        message = str(caught.value)
        assert "Claire Dubois" in message and "since" in message and "read-only" in message
        # Read-only opening needs no lock, and readers without a lock are not refused.
        with GoldSetStore.open(created, read_only=True) as viewer:
            assert viewer.count("cases") == 0
    finally:
        first.close()
    assert not lock_path(created).exists()
    with GoldSetStore.open(created, assessor="Marc", lock=True) as second:
        assert second.lock is not None and second.lock.took_over is None


def test_without_lock_no_lock_file(created: Path) -> None:
    with GoldSetStore.open(created):
        assert not lock_path(created).exists()


HOLDER = """
import sys, time
from rag_annotator.storage.store import GoldSetStore
store = GoldSetStore.open(sys.argv[1], assessor="crashed", lock=True)
print("locked", flush=True)
time.sleep(60)
"""


def test_a_crashed_holders_lock_is_taken_over(created: Path) -> None:
    with subprocess.Popen([sys.executable, "-c", HOLDER, str(created)],
                          stdout=subprocess.PIPE, text=True) as child:  # closes its pipe
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "locked"
            with pytest.raises(FileInUse, match="crashed"):
                GoldSetStore.open(created, assessor="Marc", lock=True)
            child.send_signal(signal.SIGKILL)
            child.wait(10)
        finally:
            child.kill()
    assert read_holder(created) is not None  # the dead process left its lock file
    with GoldSetStore.open(created, assessor="Marc", lock=True) as store:
        assert store.lock is not None
        assert store.lock.took_over is not None and store.lock.took_over.assessor == "crashed"
        assert read_holder(created) == store.lock.info


def _foreign_lock(file: Path, age_seconds: float) -> None:
    info = LockInfo("Bob", "another-host", 4242, "2026-11-29T08:00:00+00:00")
    path = lock_path(file)
    path.write_text(json.dumps(info.__dict__), encoding="utf-8")
    stamp = time.time() - age_seconds
    os.utime(path, (stamp, stamp))


def test_another_hosts_lock_counts_while_its_heartbeat_is_fresh(created: Path) -> None:
    _foreign_lock(created, age_seconds=30)
    with pytest.raises(FileInUse, match="Bob"):
        GoldSetStore.open(created, assessor="Marc", lock=True)
    _foreign_lock(created, age_seconds=lock_mod.STALE_AFTER_SECONDS + 60)
    with GoldSetStore.open(created, assessor="Marc", lock=True) as store:
        assert store.lock is not None and store.lock.took_over is not None
        assert store.lock.took_over.host == "another-host"


def test_heartbeat_refreshes_the_lock_time(created: Path) -> None:
    with GoldSetStore.open(created, assessor="Marc", lock=True) as store:
        path = lock_path(created)
        os.utime(path, (1_000_000, 1_000_000))
        assert store.lock is not None
        store.lock.heartbeat()
        assert time.time() - path.stat().st_mtime < 60


def test_an_unwritable_folder_means_read_only(created: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(cls: type, file: Path, assessor: str) -> WriterLock:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(WriterLock, "acquire", classmethod(refuse))
    with pytest.raises(ReadOnlyLocation, match="read-only"):
        GoldSetStore.open(created, assessor="Marc", lock=True)


def test_a_failed_open_gives_the_lock_back(tmp_path: Path) -> None:
    bad = tmp_path / "not-ours.goldset"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    with pytest.raises(Exception):  # noqa: B017 - whatever the refusal, no lock remains
        GoldSetStore.open(bad, assessor="Marc", lock=True)
    assert not lock_path(bad).exists()


def test_a_read_only_file_is_reported_as_such(created: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests may run as root, for whom permissions do not apply: ask os.access to refuse.
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if Path(path) == created
                        and mode == os.W_OK else real_access(path, mode))
    with pytest.raises(ReadOnlyLocation, match="cannot be written"):
        GoldSetStore.open(created, assessor="Marc")
    with GoldSetStore.open(created, read_only=True) as store:  # reading still works
        assert store.read_only
    assert not lock_path(created).exists()
