"""How long the Dashboard takes to show a judgment's effect, intervals included, as figures
rather than a timed test: on the sample and on the 1,000,000-judgment file of
``tests/bench/generate.py`` (the target: a p95 within 200 ms), before and after the
Dashboard followed judgments case by case (``reports.live``), in the same run.

Set-up (not timed): the file copied to a temporary folder (``--file``; the built-in sample
when none is given), the main window offscreen (unless a DISPLAY is set) on the Dashboard,
policy trec, intervals at 95 % with another run to compare with (the Dashboard's default),
its first figures shown and the judging counts complete.

Timed, ``--judgments`` times per mode: a judgment through the window's undo stack that
changes a case's effective label in the shown run's top 5 (on the sample, an unjudged
document judged relevant by a new assessor; on the generated file, ``assessor1`` joining the
two other assessors' label where it disagreed, which settles a dispute), and the clock stops
once the Dashboard shows figures that hold that case's new values (means, counts, intervals,
comparison) and the window has painted them.

Modes, alternated judgment by judgment so both meet the same machine load:

* ``before`` — every change builds every figure anew (``DashboardSection.incremental``
  False: what the Dashboard did before), on the worker thread for a large file;
* ``after`` — a judgment moves only what it touched, on the GUI thread.

Prints each mode's timings, median, p95 and worst, the ratio of the medians, and whether the
after p95 is within the 200 ms target.  Usage:
``python tests/bench/bench_dashboard_refresh.py [--file big.goldset] [--judgments 20]
[--before 5]``
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
from typing import Any

TARGET_MS = 200.0
#: How long to wait for one refresh before giving up (a full build on 10,000 cases, on a
#: busy machine).
TIMEOUT_S = 1800.0


def _candidates(store: Any, run: str, sample: bool) -> list[tuple[int, int, int]]:
    """(case id, document id, grade) whose judgment changes a label in ``run``'s top 5, of
    a case the run's figures hold (not retired)."""
    if sample:  # an unjudged document: a new assessor's label is the effective one
        rows = store.query(
            "SELECT t.case_id, t.document_id FROM retrieved t JOIN runs r ON r.id = t.run_id "
            "JOIN cases c ON c.id = t.case_id AND c.status != 'retired' "
            "WHERE r.name = ? AND t.rank <= 5 AND NOT EXISTS (SELECT 1 FROM judgments j "
            "WHERE j.case_id = t.case_id AND j.document_id = t.document_id "
            "AND j.grade IS NOT NULL) ORDER BY t.case_id, t.rank", (run,))
        return [(int(r["case_id"]), int(r["document_id"]), 1) for r in rows]
    # assessor1 disagrees with the two others, who agree: joining them settles the pair
    rows = store.query(
        "SELECT t.case_id, t.document_id, max(o.grade) AS grade FROM retrieved t "
        "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
        "AND c.status != 'retired' JOIN judgments m ON m.case_id = t.case_id "
        "AND m.document_id = t.document_id JOIN assessors a ON a.id = m.assessor_id "
        "AND a.name = 'assessor1' JOIN judgments o ON o.case_id = t.case_id "
        "AND o.document_id = t.document_id AND o.assessor_id != m.assessor_id "
        "WHERE r.name = ? AND t.rank <= 5 GROUP BY t.case_id, t.document_id "
        "HAVING min(o.grade) = max(o.grade) AND max(o.grade) != min(m.grade) "
        "ORDER BY t.case_id LIMIT 400", (run,))
    return [(int(r["case_id"]), int(r["document_id"]), int(r["grade"])) for r in rows]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def _line(name: str, timings: list[float]) -> str:
    return (f"{name}: {len(timings)} judgments, median {statistics.median(timings):.1f} ms, "
            f"p95 {_percentile(timings, 0.95):.1f} ms, worst {max(timings):.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, help="a gold-set file (copied first)")
    parser.add_argument("--judgments", type=int, default=20, help="timed with 'after'")
    parser.add_argument("--before", type=int, default=5, help="timed with 'before'")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench_dashboard_"))
    os.environ["RAG_ANNOTATOR_HOME"] = str(tmp / "home")
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from rag_annotator.app import create_main_window
    from rag_annotator.domain import judging_ops
    from rag_annotator.import_export.sample import create_sample
    from rag_annotator.settings import Settings
    from rag_annotator.storage.store import GoldSetStore
    from rag_annotator.ui.dashboard.section import DashboardSection
    from rag_annotator.ui.i18n import install_translations

    app = QApplication(sys.argv[:1])
    install_translations("en")
    sample = args.file is None
    assessor = "bench" if sample else "assessor1"
    path = tmp / "bench.goldset"
    if sample:
        create_sample(path, assessor=assessor).close()
    else:
        shutil.copy(args.file, path)
    store = GoldSetStore.open(path, assessor=assessor, lock=True)
    window = create_main_window(store, Settings(assessor=assessor))
    window.resize(1280, 800)
    window.show()
    QTest.qWaitForWindowExposed(window)
    dashboard = next(s for s in window.sections if isinstance(s, DashboardSection))
    shown = [0]
    dashboard.figures_shown.connect(lambda: shown.__setitem__(0, shown[0] + 1))
    window.show_section(window.sections.index(dashboard))

    def wait(until: Any, what: str) -> None:
        start = time.perf_counter()
        while not until():
            app.processEvents()
            if time.perf_counter() - start > TIMEOUT_S:
                raise SystemExit(f"the dashboard never {what}")

    wait(lambda: dashboard.figures is not None and window.progress.complete,
         "showed its first figures")
    figures = dashboard.figures
    assert figures is not None
    run = figures.run
    print(f"{'sample' if sample else args.file}: {store.count('cases'):,} cases, "
          f"{store.count('judgments'):,} judgments; run {run} against "
          f"{figures.options.compare}, intervals {figures.intervals.level:.0%}")
    todo = _candidates(store, run, sample)
    timings: dict[str, list[float]] = {"before": [], "after": []}
    plan = ["before" if i % 2 == 0 and i // 2 < args.before else "after"
            for i in range(args.judgments + args.before)]
    for mode in plan:
        if not todo:
            break
        case_id, doc_id, grade = todo.pop(0)
        key = str(store.query("SELECT key FROM cases WHERE id = ?", (case_id,))[0]["key"])
        follow = mode == "after"
        if dashboard.live is None or dashboard.live.follow != follow:  # not timed: the
            dashboard.incremental = follow  # figures built once more, ready for this mode
            settled = shown[0]
            dashboard.refresh()
            wait(lambda settled=settled: shown[0] > settled and dashboard._pending is None,
                 "rebuilt its figures")
        old = dashboard.figures.report.per_query.get(key) if dashboard.figures else None
        count = shown[0]
        start = time.perf_counter()
        window.undo.run(lambda s, c=case_id, d=doc_id, g=grade:
                        judging_ops.set_judgment(s, c, d, g))

        def done(key: str = key, count: int = count, old: Any = old) -> bool:
            now = dashboard.figures
            return (shown[0] > count and now is not None
                    and now.report.per_query.get(key) != old)

        wait(done, "showed the judgment")
        app.processEvents()  # paint what was just set
        timings[mode].append((time.perf_counter() - start) * 1000)
        print(f"  {mode}: {key} {timings[mode][-1]:.1f} ms", flush=True)
    window.close()
    for mode, found in timings.items():
        if found:
            print(_line(mode, found))
    before, after = timings["before"], timings["after"]
    if before and after:
        print(f"median after / before: {statistics.median(after) / statistics.median(before):.4f}"
              f" ({statistics.median(before) / statistics.median(after):.0f}x faster)")
    if after:
        p95 = _percentile(after, 0.95)
        print(f"target: p95 within {TARGET_MS:.0f} ms with intervals shown: "
              + ("met" if p95 <= TARGET_MS else "MISSED"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
