"""Agents section at scale: opening it and the latency of a review key (issue 19: p99 <= 16 ms).

Builds a file of ``--trajectories`` agent cases (seed 000's expectations) with one
trajectory each in one run (a fifth of them break an invariant), through the domain
operations, opens the real main window on it (offscreen unless a DISPLAY is set), times
Ctrl+8 until the first trajectory is shown, then sends ``--keys`` Enter keys (accept the
automatic checks, which commits durably, then the next trajectory to review is shown) and as
many J keys (next trajectory).

What one key's latency covers, measured with ``time.perf_counter``: from just before
``QTest.keyClick`` (the shortcut fires, the review commits — synchronous=EXTRA — and the
panes take the next trajectory before ``keyClick`` returns) until events are processed up to
the first Paint of the timeline's viewport after the key, with another trajectory shown (Qt
coalesces a key's repaints into one update request: the next trajectory is then on screen).
Beside it, the CPU time of the GUI thread for the same span, up to the start of that Paint
(``time.thread_time``: what other processes' load inflates least); for Enter, the time to
the durable commit (``agent_ops.confirm_trajectory`` wrapped) and from it to the paint; the
SQL statements per key on the store's connection (before the paint, and in all), and the
Paint and LayoutRequest events per key (``--paints``: an application-wide event filter,
which slows every event a little).

Between keys the bench processes events for ``--pause`` ms (20 by default), outside the
measure: the reviewer reads the trajectory meanwhile, and the section reads and prepares the
next one then (``--pause 0``: keys back to back, that work lands in the next key's measure).
``--profile F`` runs the Enter keys under cProfile and prints the top functions.

The code measured is the checkout this file is in, unless PYTHONPATH is set (then that one:
``PYTHONPATH=OTHER_CHECKOUT python tests/bench/bench_agent_keys.py`` measures that
checkout's code with this bench).

Usage: ``python tests/bench/bench_agent_keys.py [--trajectories 10000] [--keys 300]
[--pause 20] [--paints] [--profile out.prof] [--show-sql N]``
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
from typing import Any, ClassVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if not os.environ.get("PYTHONPATH"):
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


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trajectories", type=int, default=10_000)
    parser.add_argument("--keys", type=int, default=300)
    parser.add_argument("--pause", type=float, default=20.0, metavar="MS",
                        help="milliseconds of events processed between keys, outside the "
                             "measure (0: keys back to back)")
    parser.add_argument("--paints", action="store_true",
                        help="count Paint and LayoutRequest events per key")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the Enter keys here")
    parser.add_argument("--show-sql", type=int, metavar="N",
                        help="print the SQL statements of Enter key N")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="rag-bench-agents-"))
    os.environ["RAG_ANNOTATOR_HOME"] = str(tmp / "home")
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    path = tmp / "agents.goldset"
    imported = build(path, args.trajectories)

    from PySide6.QtCore import QEvent, QObject, Qt
    from PySide6.QtTest import QTest

    from rag_annotator.ui.agents.section import AgentsSection

    app, store, window = open_window(path)
    opened = open_section(app, window, Qt.Key.Key_8)
    section = window.current_section()
    assert isinstance(section, AgentsSection), section
    assert section.trajectory_id() is not None
    section.table.setFocus()
    settle(app)

    statements: list[str] = []

    class PaintSpy(QObject):
        """Records when the timeline's viewport was last painted."""

        painted_at = 0.0
        cpu_then = 0.0
        statements_then = 0

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
            if event.type() == QEvent.Type.Paint:
                PaintSpy.painted_at = time.perf_counter()
                PaintSpy.cpu_then = time.thread_time()
                PaintSpy.statements_then = len(statements)
            return False

    class EventCounter(QObject):
        """Counts every widget's Paint and LayoutRequest events (``--paints``)."""

        counts: ClassVar[dict[str, int]] = {}

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
            kind = event.type()
            if kind in (QEvent.Type.Paint, QEvent.Type.LayoutRequest):
                name = type(watched).__name__
                if name == "QWidget" and watched.parent() is not None:
                    name = f"{type(watched.parent()).__name__}.viewport"
                key = ("paint " if kind == QEvent.Type.Paint else "layout ") + name
                EventCounter.counts[key] = EventCounter.counts.get(key, 0) + 1
            return False

    from rag_annotator.domain import agent_ops

    committed: list[float] = []
    confirm = agent_ops.confirm_trajectory

    def timed_confirm(*a: Any, **k: Any) -> Any:  # the durable write, timed apart
        changes = confirm(*a, **k)
        committed.append(time.perf_counter())
        return changes

    agent_ops.confirm_trajectory = timed_confirm  # type: ignore[assignment]
    spy = PaintSpy()
    section.steps_table.viewport().installEventFilter(spy)
    counter = EventCounter()
    store._conn.set_trace_callback(statements.append)  # the GUI thread's own connection

    def timed(key: Qt.Key, profiler: Any = None) -> dict[str, Any]:
        wall: list[float] = []
        cpu: list[float] = []
        commit: list[float] = []
        before_paint = 0
        n_start = len(statements)
        EventCounter.counts.clear()
        if args.paints:
            app.installEventFilter(counter)
        for i in range(args.keys):
            before = section.trajectory_id()
            n = len(statements)
            if profiler is not None:
                profiler.enable()
            c0 = time.thread_time()
            t0 = time.perf_counter()
            QTest.keyClick(section.table, key)
            while PaintSpy.painted_at < t0 or section.trajectory_id() == before:
                app.processEvents()
                if time.perf_counter() - t0 > 5:
                    raise SystemExit(f"key {i}: the next trajectory not painted within 5 s")
            wall.append(1000 * (PaintSpy.painted_at - t0))
            if committed and committed[-1] > t0:
                commit.append(1000 * (committed[-1] - t0))
            cpu.append(1000 * (PaintSpy.cpu_then - c0))
            if profiler is not None:
                profiler.disable()
            before_paint += PaintSpy.statements_then - n
            if key == Qt.Key.Key_Return and i == args.show_sql:
                print(f"Enter key {i}:\n    " + "\n    ".join(
                    " ".join(s.split())[:150] for s in statements[n:PaintSpy.statements_then])
                    + "\n  -- painted; after it:\n    " + "\n    ".join(
                    " ".join(s.split())[:150] for s in statements[PaintSpy.statements_then:]))
            idle_until = time.perf_counter() + args.pause / 1000
            while time.perf_counter() < idle_until:  # the reviewer reads; reading ahead
                app.processEvents()
                time.sleep(0.001)
        app.removeEventFilter(counter)
        return {"wall": wall, "cpu": cpu, "commit": commit,
                "before_paint": before_paint / args.keys,
                "sql": (len(statements) - n_start) / args.keys,
                "events": dict(EventCounter.counts)}

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    accepted = timed(Qt.Key.Key_Return, profiler)
    reviewed = store.query("SELECT count(*) AS n FROM trajectory_reviews")[0]["n"]
    assert reviewed == args.keys, reviewed
    moved = timed(Qt.Key.Key_J)
    store._conn.set_trace_callback(None)
    print(f"trajectories in the file: {args.trajectories:,} (import: {imported:.1f} s); "
          f"platform {os.environ.get('QT_QPA_PLATFORM', 'xcb')}; "
          f"code: {Path(sys.modules['rag_annotator'].__file__ or '').parents[1]}")
    print(f"Ctrl+8 to the first trajectory: {1000 * opened:.0f} ms")
    print(f"keys: {args.keys} each, {args.pause:g} ms of events processed between keys")
    for name, got in (("Enter (accept, next to review)", accepted), ("J (next)", moved)):
        ms, cpu = got["wall"], got["cpu"]
        print(f"{name} -> painted: median {statistics.median(ms):.1f} ms, "
              f"p90 {percentile(ms, 90):.1f} ms, p99 {percentile(ms, 99):.1f} ms, "
              f"max {max(ms):.1f} ms  (target: p99 <= 16 ms)")
        print(f"    CPU (GUI thread): median {statistics.median(cpu):.1f} ms, "
              f"p90 {percentile(cpu, 90):.1f} ms, p99 {percentile(cpu, 99):.1f} ms, "
              f"max {max(cpu):.1f} ms; SQL per key {got['sql']:.1f} "
              f"({got['before_paint']:.1f} before the paint)")
        if got["commit"]:
            after = [w - c for w, c in zip(ms, got["commit"], strict=True)]
            print(f"    of which key -> committed (the durable write, fsync included): median "
                  f"{statistics.median(got['commit']):.1f} ms, p99 "
                  f"{percentile(got['commit'], 99):.1f} ms; committed -> painted: median "
                  f"{statistics.median(after):.1f} ms, p99 {percentile(after, 99):.1f} ms")
        if args.paints:
            events = sorted(got["events"].items(), key=lambda kv: -kv[1])
            print("    per key: " + ", ".join(f"{k} {v / args.keys:.2f}"
                                              for k, v in events[:14]))
    if profiler is not None:
        import pstats

        profiler.dump_stats(str(args.profile))
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    window.close()
    store.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
