"""Agents section at scale: opening it and the latency of a review key.

Builds a file of ``--trajectories`` agent cases (seed 000's expectations) with one
trajectory each in one run (a fifth of them break an invariant), through the domain
operations, opens the real main window on it (offscreen unless a DISPLAY is set), times
Ctrl+8 until the first trajectory is shown, then sends ``--keys`` Enter keys (accept the
automatic checks, which commits durably, then the next trajectory to review is shown) and as
many J keys (next trajectory).  A key's time runs from just before ``QTest.keyClick`` until
pending events are processed (the next trajectory painted).  Prints median, p90, p99.

Usage: ``python tests/bench/bench_agent_keys.py [--trajectories 10000] [--keys 300]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from keybench import open_section, open_window, percentile, settle  # noqa: E402

SPEC = {"kind": "agent", "expected_state": "ticket.category = changement_offre",
        "forbidden_tools": "supprimer_compte", "max_steps": 6,
        "tool_order": "verifier_identite < modifier_offre"}
CLEAN = ["verifier_identite", "modifier_offre", "creer_ticket"]
BROKEN = ["verifier_identite", "supprimer_compte", "modifier_offre", "creer_ticket"]


def build(path: Path, count: int) -> float:
    """The file; returns the seconds its import took."""
    from rag_annotator.domain import agent_ops
    from rag_annotator.domain.agent_ops import TrajectoryInput
    from rag_annotator.storage.store import GoldSetStore

    with GoldSetStore.create(path, assessor="bench") as store:
        with store.operation("bench_load", "agent cases") as op:
            op.insert_rows("cases", ("key", "kind", "question", "expected_state",
                                     "forbidden_tools", "tool_order", "max_steps",
                                     "created_at", "updated_at"),
                           [(f"A{i:05d}", "agent", f"Je veux changer d'offre ({i})",
                             '{"ticket.category": "changement_offre"}',
                             '["supprimer_compte"]',
                             '[["verifier_identite", "modifier_offre"]]', 6,
                             "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z")
                            for i in range(count)])
        items = [TrajectoryInput(
            f"A{i:05d}", [(tool, {"client": f"C-{i}"}, "ok")
                          for tool in (BROKEN if i % 5 == 0 else CLEAN)],
            {"ticket": {"category": "changement_offre"}}, "Fait.", tokens=1000 + i)
            for i in range(count)]
        start = time.perf_counter()
        agent_ops.import_trajectories(store, "agent-v1", items)
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trajectories", type=int, default=10_000)
    parser.add_argument("--keys", type=int, default=300)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="rag-bench-agents-"))
    os.environ["RAG_ANNOTATOR_HOME"] = str(tmp / "home")
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    path = tmp / "agents.goldset"
    imported = build(path, args.trajectories)

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from rag_annotator.ui.agents.section import AgentsSection

    app, store, window = open_window(path)
    opened = open_section(app, window, Qt.Key.Key_8)
    section = window.current_section()
    assert isinstance(section, AgentsSection), section
    assert section.trajectory_id() is not None
    section.table.setFocus()
    settle(app)

    def timed(key: Qt.Key) -> list[float]:
        times = []
        for _ in range(args.keys):
            before = section.trajectory_id()
            t0 = time.perf_counter()
            QTest.keyClick(section.table, key)
            app.processEvents()
            times.append(1000 * (time.perf_counter() - t0))
            assert section.trajectory_id() != before, "the panel did not move on"
        return times

    accepted = timed(Qt.Key.Key_Return)
    reviewed = store.query("SELECT count(*) AS n FROM trajectory_reviews")[0]["n"]
    assert reviewed == args.keys, reviewed
    moved = timed(Qt.Key.Key_J)
    print(f"trajectories in the file: {args.trajectories:,} (import: {imported:.1f} s)")
    print(f"Ctrl+8 to the first trajectory: {1000 * opened:.0f} ms")
    for name, ms in (("Enter (accept, next to review)", accepted), ("J (next)", moved)):
        print(f"{name}, {args.keys} keys: median {statistics.median(ms):.1f} ms, "
              f"p90 {percentile(ms, 90):.1f} ms, p99 {percentile(ms, 99):.1f} ms, "
              f"max {max(ms):.1f} ms")
    window.close()
    store.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
