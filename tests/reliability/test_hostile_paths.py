"""Issue 20, findings 1, 2 and 7: hostile destinations, lock files and leftovers.

Real links, real hard links, a real ``kill -9`` and a really read-only folder (as root, whom
permissions do not stop, a read-only tmpfs mount; skipped where it cannot be mounted).
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.sample import create_sample
from rag_annotator.paths import app_paths
from rag_annotator.storage.lock import FileInUse, LockInfo, host_name, lock_path
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import run_cli, sha256

RUN = "agent-support-v1"
TEMP_PREFIX = ".rag-annotator-tmp-"
ROOT_USER = os.geteuid() == 0


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    path = tmp_path / "g.goldset"
    create_sample(path, assessor="owner").close()
    return path


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def _leftovers(*folders: Path) -> list[str]:
    return sorted(p.name for folder in folders if folder.is_dir() for p in folder.rglob("*")
                  if p.name.startswith(TEMP_PREFIX) or "openpyxl" in p.name
                  or ".tmp-" in p.name)


# -- finding 1: an export never replaces the gold set or what keeps it safe ------------------
def test_exports_onto_the_open_gold_set_are_refused_for_every_format(sample: Path) -> None:
    digest = sha256(sample)
    hard = sample.with_name("hard.goldset")
    os.link(sample, hard)
    link = sample.with_name("link.json")
    link.symlink_to(sample.name)
    targets = {
        sample: "gold set itself",
        sample.parent / "sub" / ".." / sample.name: "gold set itself",
        hard: "another name of the same file",
        link: "gold set itself",
        sample.with_name(sample.name + "-journal"): "journal",
        lock_path(sample): "lock file",
        app_paths().backups / "g-1234" / "x.goldset": "backups folder",
    }
    (sample.parent / "sub").mkdir()
    with GoldSetStore.open(sample, read_only=True) as store:
        for fmt in registry.EXPORTS:
            for dest, what in targets.items():
                with pytest.raises(KnownError, match=what) as refused:
                    registry.exporter(fmt)(store, dest, registry.Options(run=RUN))
                assert "choose another destination" in str(refused.value)
    assert sha256(sample) == digest and sha256(hard) == digest
    assert not sample.with_name(sample.name + "-journal").exists()
    assert not lock_path(sample).exists() and link.is_symlink()

    result = run_cli("export", str(sample), "json", str(sample))
    assert str(sample) in _one_error_line(result)
    assert sha256(sample) == digest
    assert run_cli("info", str(sample)).returncode == 0


# -- finding 2: lock files -----------------------------------------------------------------
def test_a_symlinked_lock_file_is_refused_and_its_target_untouched(sample: Path) -> None:
    victim = sample.parent / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    lock_path(sample).symlink_to(victim)
    result = run_cli("import", str(sample), "qrels", os.devnull)
    line = _one_error_line(result)
    assert "symbolic link" in line and "delete the link" in line
    with pytest.raises(KnownError, match="symbolic link"):
        GoldSetStore.open(sample, assessor="me", lock=True)
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert lock_path(sample).is_symlink()


def test_a_hard_link_to_the_gold_set_shares_its_lock(sample: Path) -> None:
    other = sample.with_name("other-name.goldset")
    os.link(sample, other)
    with GoldSetStore.open(sample, assessor="Claire", lock=True):
        with pytest.raises(FileInUse, match="Claire"):
            GoldSetStore.open(other, assessor="Marc", lock=True)
        result = run_cli("import", str(other), "qrels", os.devnull)
        assert "Claire" in _one_error_line(result)
    with GoldSetStore.open(other, assessor="Marc", lock=True) as store:
        assert store.lock is not None


def _plant_lock(file: Path, host: str, mtime: float) -> None:
    info = LockInfo("Bob", host, 999_999, "2026-11-29T08:00:00+00:00")
    lock_path(file).write_text(json.dumps(info.__dict__), encoding="utf-8")
    os.utime(lock_path(file), (mtime, mtime))


def test_the_cli_says_when_it_takes_over_a_stale_lock(sample: Path) -> None:
    _plant_lock(sample, host_name(), time.time())  # a dead process of this host
    qrels = sample.parent / "labels.qrels"
    qrels.write_text("Q1 0 D1 1\n", encoding="utf-8")
    result = run_cli("import", str(sample), "qrels", str(qrels))
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if "took over" in line]
    assert len(notes) == 1 and "Bob" in notes[0] and str(sample) in notes[0]


def test_a_lock_from_the_future_is_stale_after_ten_minutes_without_change(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = time.time()
    _plant_lock(sample, "another-host", start + 3600)
    with pytest.raises(FileInUse) as refused:
        GoldSetStore.open(sample, assessor="Marc", lock=True)
    message = str(refused.value)
    assert "future" in message and "10 minutes" in message and "\n" not in message
    # Nine minutes later, unchanged: still refused.
    monkeypatch.setattr(time, "time", lambda: start + 9 * 60)
    with pytest.raises(FileInUse, match="future"):
        GoldSetStore.open(sample, assessor="Marc", lock=True)
    # Ten minutes and more without a change of its content: stale, taken over.
    monkeypatch.setattr(time, "time", lambda: start + 10 * 60 + 5)
    with GoldSetStore.open(sample, assessor="Marc", lock=True) as store:
        assert store.lock is not None and store.lock.took_over is not None
        assert store.lock.took_over.host == "another-host"


def test_a_future_lock_whose_content_changes_stays_alive(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = time.time()
    _plant_lock(sample, "another-host", start + 3600)
    with pytest.raises(FileInUse, match="future"):
        GoldSetStore.open(sample, assessor="Marc", lock=True)
    # Its holder beats (new content) though its clock is ahead: alive.
    data = json.loads(lock_path(sample).read_text(encoding="utf-8"))
    lock_path(sample).write_text(json.dumps({**data, "beat": "000000000001"}),
                                 encoding="utf-8")
    os.utime(lock_path(sample), (start + 4200, start + 4200))
    monkeypatch.setattr(time, "time", lambda: start + 11 * 60)
    with pytest.raises(FileInUse, match="future"):
        GoldSetStore.open(sample, assessor="Marc", lock=True)


# -- finding 7: leftovers of a kill -9 --------------------------------------------------------
EXPORTER = """
import sys, time
from pathlib import Path
from rag_annotator.import_export import registry
from rag_annotator.storage.store import GoldSetStore

def pause(done, total):
    print("inside", flush=True)
    time.sleep(120)

store = GoldSetStore.open(sys.argv[1], read_only=True)
registry.exporter(sys.argv[2])(store, Path(sys.argv[3]),
                               registry.Options(run="agent-support-v1", progress=pause))
"""


def _kill_when(args: list[str], ready: str) -> None:
    child = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip() == ready, child.stderr.read() if child.stderr else ""
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
        for stream in (child.stdout, child.stderr):
            if stream:
                stream.close()


@pytest.mark.parametrize("fmt", ["json", "csv", "xlsx"])
def test_a_killed_export_leaves_nothing_after_the_next_start(sample: Path, fmt: str) -> None:
    dest = sample.parent / f"out.{fmt}"
    temp_root = app_paths().data / "tmp"  # the app's own temporary folder
    system = Path(tempfile.gettempdir())
    system_before = set(_names(system))
    _kill_when(["-c", EXPORTER, str(sample), fmt, str(dest)], "inside")
    # Nothing of gold-set content lands in the system's temporary folder.
    assert not [n for n in set(_names(system)) - system_before if n.startswith("openpyxl.")]
    left = _leftovers(sample.parent, temp_root)
    assert left, "the export must have been killed while writing"
    assert all(name.startswith(TEMP_PREFIX) or name.startswith("openpyxl.") for name in left)
    assert not any(f".{dest.name}.tmp-" in name for name in left)  # no predictable name
    assert not dest.exists()
    if fmt == "xlsx":
        assert any(name.startswith("openpyxl.") for name in left)
    # The next start (any command opening the file) removes them.
    assert run_cli("info", str(sample)).returncode == 0
    assert _leftovers(sample.parent, temp_root) == []
    assert sorted(p.name for p in sample.parent.iterdir()) == ["g.goldset"]


BACKUPS = """
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from rag_annotator.storage import backups

now = datetime(2026, 1, 1, tzinfo=timezone.utc)
print("go", flush=True)
for i in range(100000):
    backups.take(Path(sys.argv[1]), Path(sys.argv[2]), now + timedelta(minutes=31 * i))
"""


def test_a_killed_backup_copy_is_removed_on_the_next_backup(tmp_path: Path) -> None:
    from rag_annotator.storage import backups

    path = tmp_path / "big.goldset"
    with create_sample(path, assessor="owner") as store, store.operation("pad", "pad") as op:
        op.conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                            [(f"pad{i}", "x" * 4000) for i in range(4000)])
    root = tmp_path / "backups"
    folder = backups.folder_for(path, root)
    child = subprocess.Popen([sys.executable, "-c", BACKUPS, str(path), str(root)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "go"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if any(name.startswith(".") for name in _names(folder)):  # a copy under way
                os.kill(child.pid, signal.SIGKILL)
                break
    finally:
        child.kill()
        child.wait()
        if child.stdout:
            child.stdout.close()
    left = [n for n in _names(folder) if n.startswith(".")]
    assert left, "the copy must have been killed mid-way"
    assert all(n.startswith(TEMP_PREFIX) for n in left)
    backups.take(path, root)
    assert [n for n in _names(folder) if n.startswith(".")] == []


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


# -- finding 7: read-only folders, pipes, huge values and warnings ---------------------------
def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"as root, a read-only folder needs a read-only mount: {done.stderr}")


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody can write, made so by :func:`make_read_only` once filled."""
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = False
    if ROOT_USER:
        _mount("-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder))
        mounted = True
    try:
        yield folder
    finally:
        gc.collect()
        if mounted:
            if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
                subprocess.run(["umount", "--lazy", str(folder)], check=False)
        else:
            folder.chmod(0o700)


def make_read_only(folder: Path) -> None:
    if ROOT_USER:
        _mount("-o", "remount,ro", str(folder))
    else:
        folder.chmod(0o500)
    assert not os.access(folder, os.W_OK) or ROOT_USER


#: Killed inside an operation whose pages spilled into the file: a hot journal beside it.
CRASH_MID_COMMIT = """
import sys, time
from rag_annotator.storage.store import GoldSetStore
store = GoldSetStore.open(sys.argv[1], assessor="crash")
with store.operation("crash", "mid-way") as op:
    op.conn.execute("PRAGMA cache_size = 2")
    for i in range(400):
        op.insert("documents", {"key": f"G{i}", "text": "y" * 3000, "content_hash": "h",
                                "created_at": "t", "updated_at": "t"})
    print("inside", flush=True)
    time.sleep(120)
"""


@pytest.mark.parametrize("fmt", ["csv", "beir"])
def test_a_folder_export_into_a_read_only_folder_is_one_line(sample: Path,
                                                             read_only_folder: Path,
                                                             fmt: str) -> None:
    make_read_only(read_only_folder)
    result = run_cli("export", str(sample), fmt, str(read_only_folder / "out"))
    line = _one_error_line(result)
    assert "folder you can write" in line
    assert os.listdir(read_only_folder) == []


def test_a_crash_journal_in_a_read_only_folder_is_named(read_only_folder: Path) -> None:
    from rag_annotator.domain import operations as ops

    path = read_only_folder / "hot.goldset"
    with GoldSetStore.create(path, assessor="alice") as store:
        ops.create_case(store, key="Q1")
    _kill_when(["-c", CRASH_MID_COMMIT, str(path)], "inside")
    journal = path.with_name(path.name + "-journal")
    assert journal.read_bytes()[:8] == bytes.fromhex("d9d505f920a163d7"), "a hot journal"
    make_read_only(read_only_folder)
    for args in (["info", str(path)], ["import", str(path), "qrels", os.devnull]):
        line = _one_error_line(run_cli(*args))
        assert "journal" in line and "crash" in line and "copy both files" in line
        assert "disk" not in line and "damaged" not in line


def test_a_closed_pipe_ends_quietly(sample: Path) -> None:
    child = subprocess.Popen([sys.executable, "-m", "rag_annotator", "info", str(sample)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # like `| head -0`: the reader is gone before anything is written
    err = child.stderr.read().decode()
    child.stderr.close()
    assert child.wait(60) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err and err == ""


def test_a_huge_number_in_a_trajectory_is_one_line(sample: Path) -> None:
    source = sample.parent / "t.jsonl"
    source.write_text(json.dumps({"case": "A01", "steps": [], "final_state": {},
                                  "answer": "x", "tokens": 10**30}) + "\n", encoding="utf-8")
    digest = sha256(sample)
    line = _one_error_line(run_cli("import", str(sample), "trajectories", str(source)))
    assert "t.jsonl:1" in line and "tokens" in line
    assert sha256(sample) == digest


def test_a_header_of_many_columns_gives_a_short_warning(sample: Path) -> None:
    source = sample.parent / "wide.csv"
    names = ["question"] + [f"extra column {i}" for i in range(200_000)]
    source.write_text(",".join(names) + "\n" + ",".join(["Q?"] + ["x"] * 200_000) + "\n",
                      encoding="utf-8")
    result = run_cli("import", str(sample), "cases", str(source))
    assert result.returncode == 0, result.stderr[:500]
    assert len(result.stderr) < 1000
    assert "200,000 in all" in result.stderr
