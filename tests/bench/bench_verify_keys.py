"""Verify section at DESIGN section 3's scale: opening it and the latency of a verdict key.

Opens the real main window on a COPY of a generated file (100,000 claims; ``generate.py``
unless ``--file`` names one; the given file is never written to), times Ctrl+5 until the
first unverified claim is shown, then sends ``--keys`` verdict keys (s, n, c in turn) with
``QTest.keyClick`` on the claims table.  A key's time runs from just before ``keyClick`` (the
shortcut fires, ``set_claim_verdict`` commits durably, the section re-reads the answer and
moves to the next unverified claim, all before ``keyClick`` returns) until pending events are
processed.  Prints the median, 90th and 99th percentiles.

Usage: ``python tests/bench/bench_verify_keys.py [--file F] [--keys 300]``
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
sys.path.insert(0, str(HERE.parents[1]))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, help="a generated file to copy (never modified)")
    parser.add_argument("--keys", type=int, default=300)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="rag-bench-verify-"))
    os.environ["RAG_ANNOTATOR_HOME"] = str(tmp / "home")
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    source = args.file
    if source is None or not source.exists():
        sys.path.insert(0, str(HERE))
        from generate import generate

        source = tmp / "source.goldset"
        print("generated", source, generate(source))
    copy = tmp / "bench.goldset"
    shutil.copyfile(source, copy)
    with copy.open("rb+") as handle:
        os.fsync(handle.fileno())

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from rag_annotator.app import create_main_window
    from rag_annotator.settings import Settings
    from rag_annotator.storage.store import GoldSetStore
    from rag_annotator.ui.sections.verify import VerifySection

    app = QApplication(sys.argv[:1])
    store = GoldSetStore.open(copy, assessor="bench", verify="skip")
    claims = store.count("claims")
    window = create_main_window(store, Settings(assessor="bench"))
    window.resize(1280, 800)
    window.show()
    QTest.qWaitForWindowExposed(window)
    for _ in range(20):
        app.processEvents()
    start = time.perf_counter()
    QTest.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    app.processEvents()
    opened = time.perf_counter() - start
    section = window.current_section()
    assert isinstance(section, VerifySection), section
    assert section.claim_id() is not None
    section.claims_table.setFocus()
    for _ in range(20):
        app.processEvents()

    keys = (Qt.Key.Key_S, Qt.Key.Key_N, Qt.Key.Key_C)
    times: list[float] = []
    first = store.claim_counts()
    for i in range(args.keys):
        before = section.claim_id()
        t0 = time.perf_counter()
        QTest.keyClick(section.claims_table, keys[i % 3])
        app.processEvents()
        times.append(time.perf_counter() - t0)
        assert section.claim_id() != before, "the panel did not move on"
    last = store.claim_counts()
    assert first["unverified"] - last["unverified"] == args.keys, (first, last)
    ms = [1000 * t for t in times]
    print(f"claims in the file: {claims:,}")
    print(f"Ctrl+5 to the first unverified claim: {1000 * opened:.0f} ms")
    print(f"verdict key, {args.keys} keys: median {statistics.median(ms):.1f} ms, "
          f"p90 {_percentile(ms, 90):.1f} ms, p99 {_percentile(ms, 99):.1f} ms, "
          f"max {max(ms):.1f} ms")
    window.close()
    store.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
