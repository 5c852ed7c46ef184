"""``kill -9`` in the middle of judging and verifying operations (issue 8, reliability A1).

A child process edits a gold set through the real domain operations (tests/reliability/
workload.py: judgments, claim verdicts, claims added at the top of an answer — a multi-row
operation —, answer reviews, case edits, trajectory reviews) and prints each edit's number once
the operation has returned, i.e. committed. The parent SIGKILLs it after a random delay, then
checks the file: SQLite's integrity check and ``rag-annotator check`` pass, and every entity
row equals a reference run after exactly ``m`` or ``m + 1`` edits where ``m`` is the last edit
the child acknowledged (nothing acknowledged lost, nothing half-applied), the operation count
is the same ``m``, and every row equals its last history after-image.

Short mode: KILLS (200) kills, about a minute; RAG_ANNOTATOR_LONG=1: 2,000.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest

from rag_annotator import cli
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import listing, scalar
from tests.reliability import workload

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("RAG_ANNOTATOR_KILLS9", "2000" if workload.long_mode() else "200"))
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")

CHILD = textwrap.dedent("""
    import sys
    from rag_annotator.storage.store import GoldSetStore
    from tests.reliability.workload import ASSESSOR, step

    store = GoldSetStore.open(sys.argv[1], assessor=ASSESSOR)
    print("ready", flush=True)
    sys.stdin.readline()  # "go": children are started ahead of time
    seq = 0
    while True:
        seq += 1
        step(store, seq)
        print(seq, flush=True)
""")


def _spawn(template: Path, work: Path) -> subprocess.Popen[str]:
    for leftover in work.parent.iterdir():
        leftover.unlink()
    shutil.copyfile(template, work)
    return subprocess.Popen([sys.executable, "-c", CHILD, str(work)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _reap(child: subprocess.Popen[str]) -> tuple[str, str]:
    child.kill()
    out, err = child.communicate()
    return out, err


def _hot_journal(path: Path) -> bool:
    journal = Path(f"{path}-journal")
    return journal.exists() and journal.read_bytes()[:8] == JOURNAL_MAGIC


def test_kill9_during_judging_and_verifying(tmp_path: Path) -> None:
    template = tmp_path / "template.goldset"
    base_ops = workload.build_template(template)
    reference = workload.Reference(template, tmp_path)
    slots = []
    for i in range(2):  # the next child starts while this one is checked
        (tmp_path / f"w{i}").mkdir()
        slots.append(tmp_path / f"w{i}" / "k.goldset")
    rnd = random.Random(20261129)
    stats: Counter[str] = Counter()
    started = time.monotonic()
    pending: subprocess.Popen[str] | None = _spawn(template, slots[0])
    try:
        for attempt in range(KILLS):
            child, work = pending, slots[attempt % 2]
            assert child is not None and child.stdout is not None and child.stdin is not None
            first = child.stdout.readline()
            if first.strip() != "ready":
                out, err = _reap(child)
                pytest.fail(f"child did not start: {first!r} {err}")
            pending = _spawn(template, slots[(attempt + 1) % 2]) if attempt + 1 < KILLS \
                else None
            child.stdin.write("go\n")
            child.stdin.flush()
            time.sleep(rnd.uniform(0.01, 0.2))
            os.kill(child.pid, signal.SIGKILL)
            out, err = _reap(child)
            assert child.returncode == -signal.SIGKILL, err
            acked_lines = [line for line in out.splitlines(keepends=True) if line.endswith("\n")]
            acked = int(acked_lines[-1]) if acked_lines else 0
            stats["acknowledged edits"] += acked
            stats["hot journals"] += _hot_journal(work)

            with GoldSetStore.open(work) as store:
                assert store.integrity_problems() == [], f"kill {attempt}"
            assert not _hot_journal(work), "opening rolls a hot journal back"
            report = io.StringIO()
            with contextlib.redirect_stdout(report), contextlib.redirect_stderr(report):
                assert cli.main(["check", str(work)]) == 0, report.getvalue()

            state = workload.digest(work)
            applied = [m for m in (acked, acked + 1) if state == reference.state(m)]
            assert applied, (f"kill {attempt}: the file is neither after edit {acked} nor "
                             f"after edit {acked + 1}")
            stats["killed mid-edit (edit not acknowledged, applied)"] += applied[0] == acked + 1
            last_kind = workload.KINDS[(acked + 1) % len(workload.KINDS)]
            stats[f"killed during {last_kind}"] += 1
            assert scalar(work, "SELECT count(*) FROM operations") == base_ops + applied[0]
            assert workload.history_problems(work) == [], f"kill {attempt}"
            assert set(listing(work.parent)) <= {"k.goldset", "k.goldset-journal"}
    finally:
        if pending is not None:
            _reap(pending)
        reference.close()
    elapsed = time.monotonic() - started
    print(f"\nkill -9: {KILLS} kills in {elapsed:.0f} s, losses 0; " +
          ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    assert stats["acknowledged edits"] > KILLS, "the child must have been editing when killed"
    # Meaningful only if kills landed in every kind of operation and some mid-commit.
    if KILLS >= 100:
        assert all(stats[f"killed during {kind}"] > 0 for kind in workload.KINDS), stats
        assert stats["hot journals"] > 0, stats


BULK_CHILD = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from rag_annotator.import_export import registry
    from rag_annotator.storage.store import GoldSetStore

    path, folder, size = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    store = GoldSetStore.open(path, assessor="bulk")
    print("ready", flush=True)
    sys.stdin.readline()
    seq = 0
    while True:
        seq += 1
        source = folder / f"corpus-{seq}.jsonl"
        with open(source, "w", encoding="utf-8") as handle:
            for i in range(size):
                handle.write(json.dumps({"_id": f"B{seq}-{i}", "title": f"Lot {seq}",
                                         "text": f"Texte {seq} {i}. " * 40}) + "\\n")
        registry.importer("corpus")(store, source, registry.Options())
        print(seq, flush=True)
""")
BULK_KILLS = 200 if workload.long_mode() else 25
BULK_SIZE = 400


def test_kill9_during_a_bulk_import_is_all_or_nothing(tmp_path: Path) -> None:
    """reliability A2: a big import (hundreds of rows, pages spilled to the file before the
    commit) killed at any point: each import is wholly there or wholly absent."""
    template = tmp_path / "template.goldset"
    base_ops = workload.build_template(template)
    work = tmp_path / "w" / "k.goldset"
    work.parent.mkdir()
    sources = tmp_path / "sources"
    sources.mkdir()
    rnd = random.Random(8)
    stats: Counter[str] = Counter()
    for attempt in range(BULK_KILLS):
        for leftover in [*work.parent.iterdir(), *sources.iterdir()]:
            leftover.unlink()
        shutil.copyfile(template, work)
        child = subprocess.Popen(
            [sys.executable, "-c", BULK_CHILD, str(work), str(sources), str(BULK_SIZE)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "ready"
        child.stdin.write("go\n")
        child.stdin.flush()
        time.sleep(rnd.uniform(0.05, 0.6))
        os.kill(child.pid, signal.SIGKILL)
        out, err = _reap(child)
        assert child.returncode == -signal.SIGKILL, err
        acked_lines = [line for line in out.splitlines(keepends=True) if line.endswith("\n")]
        acked = int(acked_lines[-1]) if acked_lines else 0
        stats["imports acknowledged"] += acked
        stats["hot journals"] += _hot_journal(work)
        with GoldSetStore.open(work) as store:
            assert store.integrity_problems() == []
            imported = store.count("documents") - workload.N_DOCS
        assert imported in (acked * BULK_SIZE, (acked + 1) * BULK_SIZE), \
            f"kill {attempt}: {imported} documents imported, {acked} imports acknowledged"
        assert scalar(work, "SELECT count(*) FROM operations") == \
            base_ops + imported // BULK_SIZE
        stats["killed inside an import (rolled back)"] += imported == acked * BULK_SIZE
    print(f"\nkill -9 during bulk imports of {BULK_SIZE} documents: {BULK_KILLS} kills; " +
          ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    assert stats["imports acknowledged"] > 0
    assert stats["killed inside an import (rolled back)"] > 0
