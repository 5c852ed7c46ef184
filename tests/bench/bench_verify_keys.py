"""Verify section at DESIGN section 3's scale: opening it and the latency of a verdict key.

Opens the real main window on a COPY of a generated file (100,000 claims; ``generate.py``
unless ``--file`` names one; the given file is never written to), times Ctrl+5 until the
first unverified claim is shown, then sends ``--keys`` verdict keys (s, n, c in turn) with
``QTest.keyClick`` on the claims table.  The keys start once the section has its queue (read
on a worker thread after Ctrl+5; the time it took is printed too) and the judging counts
of the file (read on another worker at opening): the steady state an expert works in, as the
judging bench waits for its counts.

What one key's latency covers, measured with ``time.perf_counter`` as in
``bench_judge_keys.py``: from just before ``keyClick`` (the shortcut fires,
``set_claim_verdict`` commits durably, the section moves to the next unverified claim, all
before ``keyClick`` returns) until the claims table's viewport has received a Paint event
after the key and the panel shows another claim.  Qt paints every widget a key changed in
one pass, so this is the moment the next claim — and, one key in five, the next answer — is
on screen (offscreen: in the backing store).  Between keys the bench processes events for
``--pause`` ms (20 by default), outside the measure: the expert reads the claim, and the
panel reads and prepares the next answer meanwhile (``--pause 0``: keys back to back, that
work then lands in the next key's measure).

Prints the median, 90th and 99th percentiles and the maximum of key → painted, those of
the keys that moved to another answer apart, the median time to the durable commit
(``set_claim_verdict`` returned), the GUI thread's CPU time per key up to the paint
(``time.thread_time``: what other processes' load does not inflate) and during the pause
after it (the reading ahead), and the SQL statements per key (before the paint apart).
``--paints`` counts the Paint and LayoutRequest events per key by widget class (an
application-wide event filter, which slows every event a little: a separate run);
``--profile F`` runs the key loop under cProfile and prints the top functions.

Usage: ``python tests/bench/bench_verify_keys.py [--file F] [--keys 300] [--pause 20]
[--paints] [--profile out.prof]``
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from keybench import (  # noqa: E402
    EventCounter,
    PaintSpy,
    open_section,
    open_window,
    percentile,
    prepare_copy,
    settle,
)


def _figures(values: list[float]) -> str:
    return (f"median {statistics.median(values):.1f} ms, p90 {percentile(values, 90):.1f} ms, "
            f"p99 {percentile(values, 99):.1f} ms, max {max(values):.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, help="a generated file to copy (never modified)")
    parser.add_argument("--keys", type=int, default=300)
    parser.add_argument("--pause", type=float, default=20.0, metavar="MS",
                        help="milliseconds of events processed between keys, outside the "
                             "measure (the expert reads; 0: keys back to back)")
    parser.add_argument("--paints", action="store_true",
                        help="count Paint and LayoutRequest events per key, by widget class")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the key loop here")
    args = parser.parse_args()

    tmp, copy = prepare_copy(args.file, "rag-bench-verify-")

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from rag_annotator.ui.verify.section import VerifySection

    app, store, window = open_window(copy)
    claims = store.count("claims")
    opened = open_section(app, window, Qt.Key.Key_5)
    section = window.current_section()
    assert isinstance(section, VerifySection), section
    assert section.claim_id() is not None
    start = time.perf_counter()
    while getattr(section, "queue_pending", False):
        app.processEvents()
        time.sleep(0.002)
    queued = opened + time.perf_counter() - start
    deadline = time.monotonic() + 300  # the judging counts too, as the judging bench does
    while not window.progress.complete and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.005)
    section.claims_table.setFocus()
    settle(app)

    from rag_annotator.domain import operations

    set_claim_verdict = operations.set_claim_verdict
    committed: list[float] = []

    def timed(*a: Any, **k: Any) -> Any:
        changes = set_claim_verdict(*a, **k)
        committed.append(time.perf_counter())
        return changes

    operations.set_claim_verdict = timed  # type: ignore[assignment]
    statements: list[str] = []
    spy = PaintSpy(statements)
    section.claims_table.viewport().installEventFilter(spy)
    counter = EventCounter()
    if args.paints:
        app.installEventFilter(counter)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU, not the load's waits
        profiler.enable()
    store._conn.set_trace_callback(statements.append)
    keys = (Qt.Key.Key_S, Qt.Key.Key_N, Qt.Key.Key_C)
    times: list[float] = []
    to_commit: list[float] = []
    cpu: list[float] = []
    cpu_after: list[float] = []
    switches: list[int] = []
    before_paint = 0
    first = store.claim_counts()
    for i in range(args.keys):
        before, answer = section.claim_id(), section.answer_id()
        n_statements = len(statements)
        c0 = time.thread_time()
        t0 = time.perf_counter()
        QTest.keyClick(section.claims_table, keys[i % 3])
        while spy.painted_at < t0 or section.claim_id() == before:
            app.processEvents()
            if time.perf_counter() - t0 > 5:
                raise SystemExit(f"key {i}: the next claim was not painted within 5 s")
        times.append(1000 * (spy.painted_at - t0))
        cpu.append(1000 * (time.thread_time() - c0))
        to_commit.append(1000 * (committed[-1] - t0))
        before_paint += spy.statements_then - n_statements
        if section.answer_id() != answer:
            switches.append(i)
        c1 = time.thread_time()
        idle_until = time.perf_counter() + args.pause / 1000
        while time.perf_counter() < idle_until:  # what runs after the paint (reading ahead)
            app.processEvents()
            time.sleep(0.001)
        cpu_after.append(1000 * (time.thread_time() - c1))
    store._conn.set_trace_callback(None)
    if profiler is not None:
        import pstats

        profiler.disable()
        profiler.dump_stats(str(args.profile))
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    last = store.claim_counts()
    assert first["unverified"] - last["unverified"] == args.keys, (first, last)
    import rag_annotator

    print(f"claims in the file: {claims:,} (code: {Path(rag_annotator.__file__).parent})")
    print(f"Ctrl+5 to the first unverified claim: {1000 * opened:.0f} ms "
          f"(queue and answers list in: {1000 * queued:.0f} ms after Ctrl+5)")
    print(f"verdict key -> next claim painted, {args.keys} keys ({args.pause:g} ms of events "
          f"between keys): {_figures(times)}")
    if switches:
        print(f"  keys that moved to another answer ({len(switches)}): "
              f"{_figures([times[i] for i in switches])}")
    print(f"key -> committed: median {statistics.median(to_commit):.1f} ms")
    print(f"CPU per key (GUI thread, to the paint): {_figures(cpu)}")
    if switches:
        print(f"  moving to another answer: {_figures([cpu[i] for i in switches])}")
    print(f"CPU after the paint (reading ahead, per key): median "
          f"{statistics.median(cpu_after):.1f} ms, max {max(cpu_after):.1f} ms")
    print(f"SQL per key: {len(statements) / args.keys:.1f} statements, "
          f"{before_paint / args.keys:.1f} before the paint")
    if args.paints:
        app.removeEventFilter(counter)
        print(counter.summary(args.keys))
    window.close()
    store.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
