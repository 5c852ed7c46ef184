"""Rolling backups: sound copies only, the recent/daily/weekly schedule, reversible restore."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.errors import DamagedFile
from rag_annotator.storage import backups
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich
from tests.helpers import dump

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def rich_file(goldset_path: Path) -> Path:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        build_rich(store)
    return goldset_path


def test_take_copies_the_file_and_lists_it(rich_file: Path, tmp_path: Path) -> None:
    root = tmp_path / "backups"
    assert backups.is_due(rich_file, root, NOW)
    taken = backups.take(rich_file, root, NOW)
    assert taken is not None and taken.taken_at == NOW
    assert dump(taken.path) == dump(rich_file)
    assert backups.listing(rich_file, root) == [taken]
    assert not backups.is_due(rich_file, root, NOW + timedelta(minutes=10))
    assert backups.is_due(rich_file, root, NOW + backups.EVERY)


def test_two_copies_in_the_same_second_are_both_kept(rich_file: Path, tmp_path: Path) -> None:
    root = tmp_path / "backups"
    first = backups.take(rich_file, root, NOW)
    with GoldSetStore.open(rich_file, assessor="alice") as store:
        ops.create_case(store, key="LATE", question="?")
    second = backups.take(rich_file, root, NOW)
    assert first is not None and second is not None and first.path != second.path
    assert dump(first.path) != dump(second.path)
    assert len(backups.listing(rich_file, root)) == 2


def test_same_name_in_two_folders_never_share_backups(tmp_path: Path) -> None:
    a, b = tmp_path / "x" / "g.goldset", tmp_path / "y" / "g.goldset"
    assert backups.folder_for(a, tmp_path) != backups.folder_for(b, tmp_path)


def test_a_damaged_file_is_not_backed_up_and_old_copies_stay(rich_file: Path,
                                                             tmp_path: Path) -> None:
    root = tmp_path / "backups"
    first = backups.take(rich_file, root, NOW)
    assert first is not None
    data = bytearray(rich_file.read_bytes())
    page = 4096
    data[2 * page:3 * page] = b"\xff" * page  # garble a b-tree page
    rich_file.write_bytes(bytes(data))
    assert backups.take(rich_file, root, NOW + timedelta(hours=1)) is None
    assert backups.listing(rich_file, root) == [first]


def _fake(root: Path, file: Path, when: datetime) -> None:
    folder = backups.folder_for(file, root)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{when.strftime('%Y%m%d-%H%M%S')}.goldset").write_bytes(b"x")


def test_schedule_keeps_recent_daily_and_weekly(tmp_path: Path) -> None:
    file = tmp_path / "g.goldset"
    root = tmp_path / "backups"
    times = [NOW - timedelta(hours=6 * i) for i in range(0, 4 * 70)]  # 70 days, 4 a day
    for when in times:
        _fake(root, file, when)
    removed = backups.prune(file, root, NOW)
    left = [b.taken_at for b in backups.listing(file, root)]
    assert len(left) + len(removed) == len(times)
    assert left[:backups.KEEP_RECENT] == times[:backups.KEEP_RECENT]
    # one per day for the last week (the newest of each day), one per week for 8 weeks
    for day in range(backups.KEEP_DAYS):
        date = (NOW - timedelta(days=day)).date()
        assert max(t for t in times if t.date() == date) in left
    weeks = {t.isocalendar()[:2] for t in left}
    assert len(weeks) >= backups.KEEP_WEEKS
    assert min(left) >= NOW - timedelta(weeks=backups.KEEP_WEEKS + 1)
    assert len(left) < 40  # and the rest is gone
    # Pruning again changes nothing.
    assert backups.prune(file, root, NOW) == []


def test_restore_brings_the_backup_back_and_keeps_the_current_file(rich_file: Path,
                                                                    tmp_path: Path) -> None:
    root = tmp_path / "backups"
    taken = backups.take(rich_file, root, NOW)
    assert taken is not None
    with GoldSetStore.open(rich_file, assessor="alice") as store:
        ops.create_case(store, key="LATE", question="ajouté après la copie")
    edited = dump(rich_file)
    before = backups.restore(rich_file, taken.path, root, NOW + timedelta(hours=1))
    assert dump(rich_file) == dump(taken.path)
    assert dump(before) == edited
    assert before in [b.path for b in backups.listing(rich_file, root)]
    with GoldSetStore.open(rich_file) as store:  # opens, and passes its checks
        assert store.integrity_problems() == []


def test_a_damaged_backup_is_refused_and_the_file_is_untouched(rich_file: Path,
                                                               tmp_path: Path) -> None:
    root = tmp_path / "backups"
    taken = backups.take(rich_file, root, NOW)
    assert taken is not None
    data = bytearray(taken.path.read_bytes())
    data[2 * 4096:3 * 4096] = b"\xff" * 4096
    taken.path.write_bytes(bytes(data))
    original = rich_file.read_bytes()
    with pytest.raises(DamagedFile, match="choose another one"):
        backups.restore(rich_file, taken.path, root, NOW)
    assert rich_file.read_bytes() == original
