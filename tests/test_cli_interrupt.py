"""Ctrl+C in the middle of every long CLI command (issue 19): the gold set stays
byte-identical, the command says so in one line on stderr and exits with 130, no traceback;
an interrupted export leaves no half-written destination.

Each command runs in a subprocess with ``RAG_ANNOTATOR_TEST_BUSY`` set (cli/progress.py):
at its first progress poll made inside its write transaction (for ``collect``, which brings
every file in one transaction of one operation per file, the poll after the first file was
brought in; for ``export``, the first poll after rows were written) it writes a marker file
and waits; the test then sends a real SIGINT.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rag_annotator.domain.clock import utc_now
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import listing, run_cli, sha256

CASES, DEPTH = 1_500, 40


def _ctrl_c_as_at_a_terminal() -> None:
    """The command starts with SIGINT's default action, as from a terminal: a test suite
    started in the background (``nohup``, ``cmd &`` in a script) ignores SIGINT, children
    inherit that, and Python then never turns the signal into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI, send SIGINT once it is busy, return what it did."""
    busy = tmp_path / "busy.marker"
    busy.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "RAG_ANNOTATOR_TEST_BUSY": str(busy)}
    process = subprocess.Popen([sys.executable, "-m", "rag_annotator", *args], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_ctrl_c_as_at_a_terminal)
    deadline = time.monotonic() + 120
    while not busy.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            out, err = process.communicate(timeout=30)
            process.kill()
            pytest.fail(f"{args[0]} never got busy (code {process.returncode}): {err[-2000:]}")
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    return subprocess.CompletedProcess(args, process.returncode, out, err)


def _assert_interrupted(done: subprocess.CompletedProcess[str]) -> None:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert lines and lines[-1].startswith("interrupted: ") and "Ctrl+C" in lines[-1]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A gold set of RAG and agent cases and documents; a TREC run, qrels, trajectories;
    the same gold set with the run and the judgments in (merge, assign, export)."""
    folder = tmp_path_factory.mktemp("interrupt")
    base = folder / "base.goldset"
    now = utc_now()
    with GoldSetStore.create(base, assessor="bench") as store, \
            store.operation("load_sample", "test", log=False, undoable=False) as op:
        op.insert_many("documents", ({"key": f"D{i:05d}", "text": "", "content_hash": "",
                                      "created_at": now, "updated_at": now}
                                     for i in range(CASES * 2)))
        op.insert_many("cases", ({"key": f"Q{i:05d}", "created_at": now, "updated_at": now}
                                 for i in range(CASES)))
        op.insert_many("cases", ({"key": f"A{i:05d}", "kind": "agent", "created_at": now,
                                  "updated_at": now} for i in range(CASES)))
    run, qrels, trajectories = (folder / "run.txt", folder / "qrels.txt",
                                folder / "t.jsonl")
    with open(run, "w", encoding="utf-8") as r, open(qrels, "w", encoding="utf-8") as q:
        for c in range(CASES):
            for rank in range(1, DEPTH + 1):
                doc = (c * 7 + rank * 13) % (CASES * 2)
                r.write(f"Q{c:05d} Q0 D{doc:05d} {rank} {100 - rank} sys\n")
                q.write(f"Q{c:05d} 0 D{doc:05d} {rank % 2}\n")
    with open(trajectories, "w", encoding="utf-8") as t:
        for c in range(CASES):
            steps = [{"tool": f"outil{s}", "arguments": {"n": s}, "result": "ok"}
                     for s in range(8)]
            t.write(json.dumps({"case": f"A{c:05d}", "steps": steps, "answer": "fait"}) + "\n")
    full = folder / "full.goldset"
    shutil.copyfile(base, full)
    for args in (("trec-run", str(run), "--run", "sys"), ("qrels", str(qrels))):
        done = run_cli("import", str(full), *args, timeout=300)
        assert done.returncode == 0, done.stderr
    exported = folder / "full.json"
    done = run_cli("export", str(full), "json", str(exported), timeout=300)
    assert done.returncode == 0, done.stderr
    return {"base": base, "full": full, "run": run, "qrels": qrels,
            "trajectories": trajectories, "json": exported}


def _copy(world: dict[str, Path], name: str, tmp_path: Path) -> Path:
    target = tmp_path / f"{name}.goldset"
    shutil.copyfile(world[name], target)
    return target


@pytest.mark.parametrize("kind", ["trec-run", "qrels", "trajectories"])
def test_ctrl_c_in_an_import_leaves_the_file_as_it_was(world: dict[str, Path], tmp_path: Path,
                                                       kind: str) -> None:
    gold = _copy(world, "base", tmp_path)
    before = sha256(gold)
    source = {"trec-run": world["run"], "qrels": world["qrels"],
              "trajectories": world["trajectories"]}[kind]
    _assert_interrupted(_interrupt(tmp_path, "import", str(gold), kind, str(source)))
    assert sha256(gold) == before
    assert listing(tmp_path) == ["base.goldset", "busy.marker"]  # no journal, no lock left


def test_ctrl_c_in_a_json_import_leaves_the_new_file_empty(world: dict[str, Path],
                                                           tmp_path: Path) -> None:
    gold = tmp_path / "new.goldset"
    assert run_cli("new", str(gold)).returncode == 0
    before = sha256(gold)
    _assert_interrupted(_interrupt(tmp_path, "import", str(gold), "json", str(world["json"])))
    assert sha256(gold) == before


def test_ctrl_c_in_a_merge(world: dict[str, Path], tmp_path: Path) -> None:
    gold = _copy(world, "base", tmp_path)
    before = sha256(gold)
    _assert_interrupted(_interrupt(tmp_path, "merge", str(gold), str(world["full"])))
    assert sha256(gold) == before


def test_ctrl_c_in_an_assign_writes_no_campaign_and_no_file(world: dict[str, Path],
                                                            tmp_path: Path) -> None:
    gold = _copy(world, "full", tmp_path)
    before = sha256(gold)
    out = tmp_path / "team"
    _assert_interrupted(_interrupt(tmp_path, "assign", str(gold), "--assessors", "ana,bruno",
                                   "--per-pair", "1", "--out", str(out)))
    assert sha256(gold) == before
    assert not out.exists() or listing(out) == []


def test_ctrl_c_in_a_collect(tmp_path: Path) -> None:
    from tests.team_builders import judge_file, make_team

    master, files = make_team(tmp_path)
    for path in files.values():
        judge_file(path, lambda position, row: position % 2)
    before = sha256(master)
    _assert_interrupted(_interrupt(tmp_path, "collect", str(master), str(tmp_path / "team")))
    # interrupted after a file was brought in (inside the one transaction): nothing is kept
    assert sha256(master) == before
    assert not Path(f"{master}-journal").exists()


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_ctrl_c_in_an_export_leaves_no_destination(world: dict[str, Path], tmp_path: Path,
                                                   fmt: str) -> None:
    gold = _copy(world, "full", tmp_path)
    before = sha256(gold)
    dest = tmp_path / "out" / f"export.{fmt}"
    dest.parent.mkdir()
    _assert_interrupted(_interrupt(tmp_path, "export", str(gold), fmt, str(dest)))
    assert sha256(gold) == before
    assert listing(dest.parent) == []  # neither the file nor a partial one
