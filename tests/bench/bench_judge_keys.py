"""Judging-key latency at DESIGN section 3's scale (issue: median <= 8 ms, p99 <= 16 ms).

Opens the real main window on a COPY of a 1,000,000-judgment file (generated with
``generate.py`` unless ``--file`` names one; the given file is never written to), goes to the
Judge section with Ctrl+4 and waits until the background judging counts are complete (the
steady state an assessor works in).  Then it sends ``--keys`` judging keys with
``QTest.keyClick`` on the pairs table, as a user types them, alternating 1 and 0.

What one key's latency covers, measured with ``time.perf_counter``:

* start: just before ``QTest.keyClick`` (the key press and release are delivered
  synchronously, so the shortcut fires, ``set_judgment`` runs and commits — durably, the file
  uses ``synchronous=EXTRA`` — and every view reacts before ``keyClick`` returns);
* committed: when ``set_judgment`` returned (the panel's call is wrapped to record it), i.e.
  the transaction is committed and synced; also checks that each key committed once;
* painted: events are processed until the pairs table's viewport has received a Paint event
  after the key (an event filter records it) and the panel shows another pair than before.
  Qt coalesces the repaint requests of a key into one UpdateRequest, so this is the moment
  the next pair is on screen (offscreen: in the backing store).

Prints the count, median, p95, p99 and max of key → painted, the median of key →
committed, and the SQL statements per key on the store's connection (counted with
``sqlite3.Connection.set_trace_callback``; SELECTs apart, since reads are what a key should
not need many of), the GUI thread's CPU time per key up to the paint (``time.thread_time``:
what other processes' load inflates least; and apart, during the pause after it) and
the keys that moved to another case apart (they read the next pool).  Between keys the bench
processes events for ``--pause`` ms (20 by default), outside the measure: the assessor reads
the document, and the panel reads the next pair and case ahead meanwhile (with keys back to
back, that reading would land in the next key's measure, which no assessor types).
``--paints`` also counts the Paint events per key over the whole window (an application-wide
event filter, which slows every event a little: a separate run).  ``--show-sql N`` prints the
statements of key N and of the keys that moved to another case.  Usage:
``python tests/bench/bench_judge_keys.py [--file F.goldset] [--keys 2000] [--profile out.prof]
[--paints] [--show-sql N] [--pdf]`` (QT_QPA_PLATFORM=offscreen unless a DISPLAY is set).
``--profile`` runs the key loop under cProfile and prints the top functions by cumulative
time.

``--pdf``: the file is PDF-heavy (``generate_pdf.py`` unless ``--file`` names one: every pair
is a passage of a 400-page PDF, each on a page of its own), and the keys run twice in the
same window, the same number each: first with the document shown as text (what the panel did
before it showed pages: the baseline), then as its PDF page, so every key asks for a page the
worker renders while the next keys come.  Both are printed, with the pages rendered during
the second loop and their render times.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from keybench import open_window, percentile, prepare_copy  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, help="a generated file to copy (never modified)")
    parser.add_argument("--keys", type=int, default=2000)
    parser.add_argument("--profile", type=Path, help="write a cProfile of the key loop here")
    parser.add_argument("--show-sql", type=int, metavar="N",
                        help="print the SQL statements of key N (to see what a key reads)")
    parser.add_argument("--pause", type=float, default=20.0, metavar="MS",
                        help="milliseconds of events processed between keys, outside the "
                             "measure (the assessor reads the document; 0: keys back to back)")
    parser.add_argument("--paints", action="store_true",
                        help="count the Paint events per key, by widget class")
    parser.add_argument("--pdf", action="store_true",
                        help="a PDF-heavy file; the keys with the document as text, then as "
                             "its page")
    args = parser.parse_args()

    if args.pdf and args.file is None:
        from generate_pdf import generate_pdf

        tmp, copy = prepare_copy(None, "rag-bench-keys-", make=generate_pdf)
    else:
        tmp, copy = prepare_copy(args.file, "rag-bench-keys-")

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from rag_annotator.ui.judge.section import JudgeSection

    app, store, window = open_window(copy)
    QTest.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = window.current_section()
    assert isinstance(judge, JudgeSection), judge
    deadline = time.monotonic() + 300
    while not window.progress.complete and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.005)
    assert window.progress.complete, "judging counts not complete after 300 s"
    judge.pairs.setFocus()
    for _ in range(20):
        app.processEvents()
    described = args.file or ("a generated PDF-heavy file" if args.pdf else "a generated file")
    print(f"file: copy of {described} ({copy.stat().st_size / 1e6:.0f} MB), platform: "
          f"{os.environ.get('QT_QPA_PLATFORM', 'xcb')}")
    if not args.pdf:
        measure(app, store, judge, args)
    else:
        compare_pages(app, store, judge, window, args)
    window.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


def measure(app: Any, store: Any, judge: Any, args: Any, count: int | None = None,
            quiet: bool = False) -> dict[str, list[float]]:
    """Send ``count`` (default ``args.keys``) judging keys on the pairs table and print their
    latency (unless ``quiet``); return the measures (ms per key)."""
    from PySide6.QtCore import QEvent, QObject, Qt
    from PySide6.QtTest import QTest

    class PaintSpy(QObject):
        """Records when the pairs table's viewport was last painted."""

        painted_at = 0.0
        statements_then = 0  # statements run when the viewport was painted

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
            if event.type() == QEvent.Type.Paint:
                PaintSpy.painted_at = time.perf_counter()
                PaintSpy.statements_then = len(statements)
            return False

    class PaintCounter(QObject):
        """Counts every widget's Paint events (``--paints``)."""

        counts: ClassVar[dict[str, int]] = {}

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
            if event.type() == QEvent.Type.Paint:
                name = type(watched).__name__
                if name == "QWidget" and watched.parent() is not None:
                    name = f"{type(watched.parent()).__name__}.viewport"
                PaintCounter.counts[name] = PaintCounter.counts.get(name, 0) + 1
            return False

    statements: list[str] = []
    before_paint = 0
    spy = PaintSpy()
    judge.pairs.viewport().installEventFilter(spy)
    counter = PaintCounter()
    if args.paints:
        app.installEventFilter(counter)
    committed: list[float] = []
    from rag_annotator.ui.judge import section as judge_module

    set_judgment = judge_module.set_judgment

    def timed_set_judgment(*a: Any, **k: Any) -> Any:
        changes = set_judgment(*a, **k)
        committed.append(time.perf_counter())
        return changes

    judge_module.set_judgment = timed_set_judgment  # type: ignore[assignment]

    def pair_shown() -> tuple[int | None, int | None]:
        return judge.case_id(), judge.document_id()

    to_paint: list[float] = []
    to_commit: list[float] = []
    cpu: list[float] = []
    cpu_after: list[float] = []
    per_key: list[list[str]] = []
    case_switches: list[int] = []
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU, not the load's waits
        profiler.enable()
    store._conn.set_trace_callback(statements.append)  # the GUI thread's own connection
    keys = (Qt.Key.Key_1, Qt.Key.Key_0)
    for i in range(args.keys if count is None else count):
        before = pair_shown()
        n_committed = len(committed)
        n_statements = len(statements)
        c0 = time.thread_time()
        start = time.perf_counter()
        QTest.keyClick(judge.pairs, keys[i % 2])
        while PaintSpy.painted_at < start or pair_shown() == before:
            app.processEvents()
            if time.perf_counter() - start > 5:
                raise SystemExit(f"key {i}: the next pair was not painted within 5 s")
        to_paint.append((PaintSpy.painted_at - start) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        before_paint += PaintSpy.statements_then - n_statements
        if pair_shown()[0] != before[0]:
            case_switches.append(i)
        if args.show_sql is not None and i in (args.show_sql, *case_switches[-1:]):
            shown = statements[n_statements:PaintSpy.statements_then]
            per_key.append([f"key {i}{' (case switch)' if i in case_switches else ''}:",
                            *shown, "-- the pairs table painted; read after it:",
                            *statements[PaintSpy.statements_then:]])
        if len(committed) != n_committed + 1:
            raise SystemExit(f"key {i}: {len(committed) - n_committed} commits instead of 1")
        to_commit.append((committed[-1] - start) * 1000)
        c1 = time.thread_time()
        idle_until = time.perf_counter() + args.pause / 1000
        while time.perf_counter() < idle_until:  # what runs after the paint (reading ahead)
            app.processEvents()
            time.sleep(0.001)
        cpu_after.append((time.thread_time() - c1) * 1000)
    store._conn.set_trace_callback(None)
    if profiler is not None:
        import pstats

        profiler.disable()
        profiler.dump_stats(str(args.profile))
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)

    judge_module.set_judgment = set_judgment
    judge.pairs.viewport().removeEventFilter(spy)
    measured = {"paint": to_paint, "commit": to_commit, "cpu": cpu, "cpu_after": cpu_after}
    if quiet:
        return measured
    mine = store.query("SELECT count(*) AS n FROM judgments j JOIN assessors s "
                       "ON s.id = j.assessor_id WHERE s.name = 'bench'")[0]["n"]
    print(f"judgments by 'bench' now: {mine}; keys: {len(to_paint)} (alternating 1 and 0 on "
          f"the pairs table, {args.pause:g} ms of events processed between keys)")
    print(f"key -> committed  : median {statistics.median(to_commit):.2f} ms")
    print(f"key -> next pair painted: median {statistics.median(to_paint):.2f} ms, "
          f"p95 {percentile(to_paint, 95):.2f} ms, p99 {percentile(to_paint, 99):.2f} ms, "
          f"max {max(to_paint):.2f} ms  (target: median <= 8 ms, p99 <= 16 ms)")
    selects = sum(1 for s in statements if s.lstrip().upper().startswith(("SELECT", "WITH")))
    print(f"SQL per key: {len(statements) / len(to_paint):.1f} statements, "
          f"{selects / len(to_paint):.1f} reads (SELECT/WITH), "
          f"{before_paint / len(to_paint):.1f} before the paint (the rest: read ahead)")
    print(f"CPU per key (GUI thread, to the paint): median "
          f"{statistics.median(cpu):.2f} ms, p95 {percentile(cpu, 95):.2f} ms, "
          f"p99 {percentile(cpu, 99):.2f} ms, max {max(cpu):.2f} ms; after the paint "
          f"(reading ahead): median {statistics.median(cpu_after):.2f} ms")
    switching = [to_paint[i] for i in case_switches]
    if switching:
        print(f"keys that moved to another case: {len(switching)}, median "
              f"{statistics.median(switching):.2f} ms, max {max(switching):.2f} ms")
    if args.paints:
        app.removeEventFilter(counter)
        total = sum(PaintCounter.counts.values())
        print(f"Paint events per key: {total / len(to_paint):.1f} ("
              + ", ".join(f"{name} {n / len(to_paint):.2f}" for name, n in
                          sorted(PaintCounter.counts.items(), key=lambda kv: -kv[1])[:8])
              + ")")
    for lines in per_key[:3]:
        print("\n    ".join(" ".join(line.split())[:160] for line in lines))
    slowest = sorted(range(len(to_paint)), key=to_paint.__getitem__, reverse=True)[:5]
    print("slowest keys (index: ms): "
          + ", ".join(f"{i}: {to_paint[i]:.1f}" for i in slowest))
    return measured


def compare_pages(app: Any, store: Any, judge: Any, window: Any, args: Any) -> None:
    """``--pdf``: the same keys with the document as text and as its page, in alternate
    rounds of ``args.keys / 10`` keys (the machine's load falls on both alike), then both
    summaries side by side."""
    renders: list[float] = []
    window.ctx.pages.page_ready.connect(lambda page: renders.append(page.milliseconds))
    rounds = 10
    per_round = max(1, args.keys // rounds)
    results: dict[bool, dict[str, list[float]]] = {
        False: {"paint": [], "commit": [], "cpu": [], "cpu_after": []}}
    results[True] = {k: [] for k in results[False]}
    rendered_in_pages = 0
    for round_ in range(2 * rounds):
        pages = bool(round_ % 2)
        judge.viewer.set_pages(pages)
        before = len(renders)
        for name, values in measure(app, store, judge, args, per_round, quiet=True).items():
            results[pages][name] += values
        if pages:
            rendered_in_pages += len(renders) - before
    print(f"{rounds} rounds of {per_round} keys each way, alternating, "
          f"{args.pause:g} ms of events processed between keys")
    for pages, label in ((False, "document as text (baseline)"),
                         (True, "document as its PDF page")):
        m = results[pages]
        print(f"-- {label}: key -> committed median {statistics.median(m['commit']):.2f} ms; "
              f"key -> next pair painted median {statistics.median(m['paint']):.2f} ms, "
              f"p95 {percentile(m['paint'], 95):.2f} ms, p99 {percentile(m['paint'], 99):.2f}"
              f" ms, max {max(m['paint']):.2f} ms; GUI-thread CPU per key median "
              f"{statistics.median(m['cpu']):.2f} ms, p99 {percentile(m['cpu'], 99):.2f} ms; "
              f"after the paint median {statistics.median(m['cpu_after']):.2f} ms")
        if pages:
            paint = [p - c for p, c in zip(m["paint"], m["commit"])]
            base = [p - c for p, c in zip(results[False]["paint"], results[False]["commit"])]
            print(f"   commit -> painted (the key's own work, the fsync left out): median "
                  f"{statistics.median(paint):.2f} ms vs {statistics.median(base):.2f} ms, "
                  f"p99 {percentile(paint, 99):.2f} ms vs {percentile(base, 99):.2f} ms")
    if renders:
        print(f"pages rendered on the worker during the page rounds: {rendered_in_pages} "
              f"(all rounds: {len(renders)}), render median {statistics.median(renders):.1f}"
              f" ms, p95 {percentile(renders, 95):.1f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
