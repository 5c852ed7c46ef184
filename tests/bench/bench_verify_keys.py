"""Verify section at DESIGN section 3's scale: opening it and the latency of a verdict key.

Opens the real main window on a COPY of a generated file (100,000 claims; ``generate.py``
unless ``--file`` names one; the given file is never written to), times Ctrl+5 until the
first unverified claim is shown, then sends ``--keys`` verdict keys (s, n, c in turn) with
``QTest.keyClick`` on the claims table.  A key's time runs from just before ``keyClick`` (the
shortcut fires, ``set_claim_verdict`` commits durably, the section re-reads the answer and
moves to the next unverified claim, all before ``keyClick`` returns) until pending events are
processed.  The keys start once the section has its queue (read on a worker thread after
Ctrl+5; the time it took is printed too): the steady state an expert works in, as the judging
bench waits for its counts.  Prints the median, 90th and 99th percentiles and the maximum,
the median time to the durable commit (``set_claim_verdict`` returned), the process CPU time
per key (what the machine's load does not inflate) and the SQL statements per key.

Usage: ``python tests/bench/bench_verify_keys.py [--file F] [--keys 300]``
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from keybench import open_section, open_window, percentile, prepare_copy, settle  # noqa: E402

sys.path.insert(0, str(HERE.parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, help="a generated file to copy (never modified)")
    parser.add_argument("--keys", type=int, default=300)
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
    section.claims_table.setFocus()
    settle(app)

    from rag_annotator.domain import operations

    set_claim_verdict = operations.set_claim_verdict
    committed: list[float] = []

    def timed(*a: object, **k: object) -> object:
        changes = set_claim_verdict(*a, **k)  # type: ignore[arg-type]
        committed.append(time.perf_counter())
        return changes

    operations.set_claim_verdict = timed  # type: ignore[assignment]
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    keys = (Qt.Key.Key_S, Qt.Key.Key_N, Qt.Key.Key_C)
    times: list[float] = []
    to_commit: list[float] = []
    cpu: list[float] = []
    first = store.claim_counts()
    for i in range(args.keys):
        before = section.claim_id()
        c0 = time.process_time()
        t0 = time.perf_counter()
        QTest.keyClick(section.claims_table, keys[i % 3])
        app.processEvents()
        times.append(time.perf_counter() - t0)
        cpu.append(1000 * (time.process_time() - c0))
        to_commit.append(1000 * (committed[-1] - t0))
        assert section.claim_id() != before, "the panel did not move on"
    store._conn.set_trace_callback(None)
    last = store.claim_counts()
    assert first["unverified"] - last["unverified"] == args.keys, (first, last)
    ms = [1000 * t for t in times]
    print(f"claims in the file: {claims:,}")
    print(f"Ctrl+5 to the first unverified claim: {1000 * opened:.0f} ms "
          f"(queue and answers list in: {1000 * queued:.0f} ms after Ctrl+5)")
    print(f"verdict key, {args.keys} keys: median {statistics.median(ms):.1f} ms, "
          f"p90 {percentile(ms, 90):.1f} ms, p99 {percentile(ms, 99):.1f} ms, "
          f"max {max(ms):.1f} ms")
    print(f"key -> committed: median {statistics.median(to_commit):.1f} ms; CPU per key: "
          f"median {statistics.median(cpu):.1f} ms, p99 {percentile(cpu, 99):.1f} ms; "
          f"SQL per key: {len(statements) / args.keys:.1f} statements")
    window.close()
    store.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
