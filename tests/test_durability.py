"""Every acknowledged edit survives ``kill -9``; an operation is all or nothing.

reliability.md A1 (kill harness of section 3.1, driven through the real domain operations),
A8 (an exception inside an operation rolls everything back) and C12 (a hot journal left by a
crash is rolled back on the next open, not reported as damage).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import closing
from pathlib import Path

import pytest

from rag_annotator import cli
from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.storage import transaction
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump, listing, ro_connect, rows, run_cli, scalar

N_DOCS = 300
KILLS = int(os.environ.get("RAG_ANNOTATOR_KILLS", "60"))
EDIT_CASE_EVERY = 7

# The child edits through the real domain operations and prints a sequence number once each
# operation has returned (i.e. committed).  Every edit changes something (the note carries the
# sequence number), so each one is exactly one operation row.
CHILD = textwrap.dedent("""
    import sys
    from rag_annotator.domain import judging_ops
    from rag_annotator.domain import operations as ops
    from rag_annotator.storage.store import GoldSetStore

    path, case_id, n_docs, every = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    store = GoldSetStore.open(path, assessor="killtest")
    print("ready", flush=True)
    sys.stdin.readline()  # the parent says "go" (children are started ahead of time)
    seq = 0
    while True:
        seq += 1
        if seq % every == 0:
            ops.edit_case(store, case_id, notes=f"edit {seq}")
        else:
            judging_ops.set_judgment(store, case_id, 1 + seq % n_docs, seq % 2, note=f"s{seq}")
        print(seq, flush=True)
""")


def expected_state(m: int) -> tuple[dict[int, tuple[int, str]], str]:
    """Judgments {document id: (grade, note)} and the case notes after edits 1..m."""
    judgments: dict[int, tuple[int, str]] = {}
    notes = ""
    for seq in range(1, m + 1):
        if seq % EDIT_CASE_EVERY == 0:
            notes = f"edit {seq}"
        else:
            judgments[1 + seq % N_DOCS] = (seq % 2, f"s{seq}")
    return judgments, notes


def actual_state(path: Path) -> tuple[dict[int, tuple[int, str]], str]:
    judgments = {doc: (grade, note) for doc, grade, note in rows(
        path, "SELECT document_id, grade, note FROM judgments WHERE case_id = 1")}
    return judgments, scalar(path, "SELECT notes FROM cases WHERE id = 1")


@pytest.fixture(scope="module")
def kill_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """One case and N_DOCS documents; returns the file and its number of operations."""
    path = tmp_path_factory.mktemp("kill") / "template.goldset"
    with GoldSetStore.create(path, assessor="prep") as store:
        ops.create_case(store, key="Q1", question="Quelle est la politique de congés ?")
        with store.operation("bulk", "documents") as op:
            op.insert_many("documents", (
                {"key": f"D{i:03d}", "title": f"Doc {i}", "text": f"texte {i} " * 40,
                 "content_hash": f"h{i}", "created_at": "2026-01-01T00:00:00.000Z",
                 "updated_at": "2026-01-01T00:00:00.000Z"} for i in range(1, N_DOCS + 1)))
        base_ops = len(store.operation_ids())
    return path, base_ops


JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


def _hot_journal(path: Path) -> bool:
    """A journal SQLite would play back: it exists and its header was synced (the magic is
    written just before the journal's first sync; until then the header is zeros and the
    file itself was not touched, so a leftover like that is harmless)."""
    journal = Path(f"{path}-journal")
    return journal.exists() and journal.read_bytes()[:8] == JOURNAL_MAGIC


def _check_history_matches(path: Path) -> None:
    """Each judgment and the case hold exactly the after-image their history last recorded;
    every operation has history and every history row its operation (all or nothing)."""
    with closing(ro_connect(path)) as conn:
        last = {(t, k): n for t, k, n in conn.execute(
            "SELECT table_name, row_key, new FROM history ORDER BY id")}
        for table in ("judgments", "cases"):
            cur = conn.execute(f"SELECT * FROM {table}")
            cols = [d[0] for d in cur.description]
            for values in cur.fetchall():
                row = dict(zip(cols, values))
                image = last.get((table, json.dumps({"id": row["id"]})))
                assert image is not None, f"{table} {row['id']} has no history"
                assert json.loads(image) == row
        assert conn.execute("SELECT count(*) FROM operations o WHERE NOT EXISTS "
                            "(SELECT 1 FROM history h WHERE h.operation_id = o.id)"
                            ).fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM history h WHERE NOT EXISTS "
                            "(SELECT 1 FROM operations o WHERE o.id = h.operation_id)"
                            ).fetchone()[0] == 0


def _spawn(template: Path, work: Path) -> subprocess.Popen[str]:
    """Start a child on a fresh copy of the template; it waits for "go" once ready."""
    for leftover in work.parent.iterdir():
        leftover.unlink()
    shutil.copyfile(template, work)
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(work), "1", str(N_DOCS), str(EDIT_CASE_EVERY)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_ready(child: subprocess.Popen[str]) -> None:
    assert child.stdout is not None
    first = child.stdout.readline()
    if first.strip() != "ready":
        child.wait(10)
        pytest.fail(f"child did not start (exit {child.returncode}): {first!r} "
                    f"{child.stderr.read() if child.stderr else ''}")


def _reap(child: subprocess.Popen[str]) -> str:
    """SIGKILL (if still running), wait, and return what it printed."""
    child.kill()
    out = child.stdout.read() if child.stdout else ""
    child.wait()
    for stream in (child.stdin, child.stdout, child.stderr):
        if stream:
            with contextlib.suppress(OSError):
                stream.close()
    return out


def _go_and_kill(child: subprocess.Popen[str], delay: float) -> int:
    """Let the child edit for ``delay`` seconds, SIGKILL it; return the last acknowledged seq."""
    assert child.stdin is not None
    child.stdin.write("go\n")
    child.stdin.flush()
    time.sleep(delay)
    os.kill(child.pid, signal.SIGKILL)
    err = child.stderr.read() if child.stderr and child.poll() is not None else ""
    out = _reap(child)
    assert child.returncode == -signal.SIGKILL, f"the child ended by itself: {err}"
    acked = [int(line) for line in out.splitlines(keepends=True) if line.endswith("\n")]
    return acked[-1] if acked else 0


def test_kill9_never_loses_an_acknowledged_edit(kill_template: tuple[Path, int],
                                                tmp_path: Path) -> None:
    template, base_ops = kill_template
    works = []
    for i in range(2):  # two slots: the next child starts while this one is checked
        (tmp_path / f"w{i}").mkdir()
        works.append(tmp_path / f"w{i}" / "k.goldset")
    rnd = random.Random(20261129)
    journals = 0
    total_acked = 0
    pending: subprocess.Popen[str] | None = _spawn(template, works[0])
    try:
        for attempt in range(KILLS):
            child, work = pending, works[attempt % 2]
            assert child is not None
            _wait_ready(child)
            pending = _spawn(template, works[(attempt + 1) % 2]) if attempt + 1 < KILLS else None
            acked = _go_and_kill(child, rnd.uniform(0.05, 0.30))
            journals += _hot_journal(work)
            total_acked += acked

            with GoldSetStore.open(work) as store:
                assert store.integrity_problems() == [], f"attempt {attempt}"
            assert not _hot_journal(work), "the open rolled the journal back"
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                assert cli.main(["check", str(work)]) == 0, out.getvalue()
            if attempt % 20 == 0:
                assert run_cli("check", str(work)).returncode == 0

            state = actual_state(work)
            matches = [m for m in (acked, acked + 1) if state == expected_state(m)]
            assert matches, f"attempt {attempt}: state is neither edit {acked} nor {acked + 1}"
            assert scalar(work, "SELECT count(*) FROM operations") == base_ops + matches[0]
            _check_history_matches(work)
            assert set(listing(work.parent)) <= {"k.goldset", "k.goldset-journal"}
    finally:
        if pending is not None:
            _reap(pending)
    assert total_acked > KILLS, "the child must have been editing when killed"
    # The harness is only meaningful if some kills landed mid-commit (a hot journal).
    assert journals > 0 or KILLS < 20


def _child_inside_operation(path: Path, body: str) -> None:
    """Run a child that stops inside an open operation, then SIGKILL it."""
    script = "\n".join([
        "import sys, time",
        "from rag_annotator.storage.store import GoldSetStore",
        "store = GoldSetStore.open(sys.argv[1], assessor='crash')",
        "with store.operation('crash', 'mid-way') as op:",
        textwrap.indent(textwrap.dedent(body).strip("\n"), "    "),
        "    print('inside', flush=True)",
        "    time.sleep(60)",
    ])
    child = subprocess.Popen([sys.executable, "-c", script, str(path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip() == "inside", child.stderr.read() if child.stderr else ""
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
        for stream in (child.stdout, child.stderr):
            if stream:
                stream.close()


SPILL = """
    op.conn.execute("PRAGMA cache_size = 2")
    for i in range(400):
        op.insert("documents", {"key": f"G{i}", "text": "y" * 3000, "content_hash": "h",
                                "created_at": "t", "updated_at": "t"})
"""


def test_hot_journal_is_rolled_back_on_open(tmp_path: Path) -> None:
    """C12: a crash after uncommitted pages reached the file leaves a hot journal; opening
    rolls it back (the committed state, no false "damaged")."""
    path = tmp_path / "hot.goldset"
    with GoldSetStore.create(path, assessor="alice") as store:
        ops.create_case(store, key="Q1")
        ops.create_document(store, key="D1", text="x")
    before = full_dump(path)
    size_before = path.stat().st_size
    _child_inside_operation(path, SPILL)
    assert _hot_journal(path), "the crash must leave a hot journal"
    assert path.stat().st_size > size_before, "uncommitted pages reached the file"

    with GoldSetStore.open(path) as store:
        assert store.integrity_problems() == []
        assert store.count("documents") == 1
    assert full_dump(path) == before
    assert listing(tmp_path) == ["hot.goldset"]


def test_crash_before_the_journal_sync_is_harmless(tmp_path: Path) -> None:
    """Killed while the change was still in the page cache: the journal left behind has a
    zeroed header (not hot) and the file holds the committed state."""
    path = tmp_path / "cold.goldset"
    with GoldSetStore.create(path, assessor="alice") as store:
        ops.create_case(store, key="Q1")
    before = full_dump(path)
    _child_inside_operation(path, """
        op.insert("cases", {"key": "GHOST", "created_at": "t", "updated_at": "t"})
    """)
    assert not _hot_journal(path)
    with GoldSetStore.open(path, read_only=True) as store:
        assert store.count("cases") == 1
    with GoldSetStore.open(path) as store:
        ops.create_case(store, key="Q2")
    assert [r[0] for r in rows(path, "SELECT key FROM cases ORDER BY id")] == ["Q1", "Q2"]
    assert full_dump(path)["documents"] == before["documents"]
    assert listing(tmp_path) == ["cold.goldset"]


def test_hot_journal_read_only_open_and_cli(tmp_path: Path) -> None:
    """`info` and `check` open read-only; they too must see the last committed state."""
    path = tmp_path / "hot.goldset"
    with GoldSetStore.create(path, assessor="alice") as store:
        ops.create_case(store, key="Q1")
    _child_inside_operation(path, SPILL)
    assert _hot_journal(path)
    result = run_cli("info", "--json", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["documents"] == 0
    assert json.loads(result.stdout)["cases"] == 1
    with GoldSetStore.open(path, read_only=True) as store:
        assert store.count("documents") == 0
    assert run_cli("check", str(path)).returncode == 0


# -- A8: an exception inside an operation --------------------------------------------------
def test_exception_inside_operation_rolls_everything_back(store: GoldSetStore,
                                                          goldset_path: Path) -> None:
    ops.create_case(store, key="Q1", notes="before")
    ops.create_document(store, key="D1", text="abc")
    before = full_dump(goldset_path)

    with pytest.raises(RuntimeError, match="half-way"), store.operation("t", "t") as op:
        op.insert("cases", {"key": "Q2", "created_at": "t", "updated_at": "t"})
        op.update("cases", {"id": 1}, {"notes": "changed"})
        op.delete("documents", {"id": 1})
        raise RuntimeError("half-way")

    assert full_dump(goldset_path) == before
    # The connection is not left inside a transaction: the next edit commits normally.
    assert not store._conn.in_transaction
    ops.edit_case(store, 1, notes="after")
    assert scalar(goldset_path, "SELECT notes FROM cases WHERE id = 1") == "after"


def test_failure_in_the_middle_of_a_domain_operation(store: GoldSetStore, goldset_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """delete_case fails after deleting some dependants: nothing of it remains."""
    ops.create_case(store, key="Q1")
    for i in range(3):
        ops.create_document(store, key=f"D{i}", text="abc")
        judging_ops.set_judgment(store, 1, i + 1, 1)
    ops.add_expected_source(store, 1, 1)
    before = full_dump(goldset_path)

    real_delete = transaction.Operation.delete
    calls = {"n": 0}

    def flaky(self: transaction.Operation, table: str, key: dict) -> object:
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk went away")
        return real_delete(self, table, key)

    monkeypatch.setattr(transaction.Operation, "delete", flaky)
    with pytest.raises(OSError):
        ops.delete_case(store, 1)
    assert calls["n"] == 3
    assert full_dump(goldset_path) == before


def test_keyboard_interrupt_inside_operation_rolls_back(store: GoldSetStore,
                                                        goldset_path: Path) -> None:
    before = full_dump(goldset_path)
    with pytest.raises(KeyboardInterrupt), store.operation("t", "t") as op:
        op.insert("cases", {"key": "Q", "created_at": "t", "updated_at": "t"})
        raise KeyboardInterrupt
    assert full_dump(goldset_path) == before


def test_sqlite_error_inside_operation_rolls_back(store: GoldSetStore,
                                                  goldset_path: Path) -> None:
    import sqlite3

    ops.create_case(store, key="Q1")
    before = full_dump(goldset_path)
    with pytest.raises(sqlite3.IntegrityError), store.operation("t", "t") as op:
        op.update("cases", {"id": 1}, {"notes": "x"})
        op.insert("cases", {"key": "Q1", "created_at": "t", "updated_at": "t"})  # duplicate
    assert full_dump(goldset_path) == before
