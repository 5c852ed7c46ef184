"""Startup benchmark at DESIGN section 3's scale (issue: "want <= 2x, <= 300 MB").

Generates (or reuses) a file with 10,000 cases, 100,000 documents and 1,000,000 judgments,
then measures in fresh processes, alternating, N times each:

* baseline: import PySide6, create a QApplication and show a bare QMainWindow;
* floor: the same content as the app's first screen on that file, in plain PySide6
  (``startup_floor.py``): what any PySide window showing it costs;
* app: the same plus open the file with GoldSetStore and show rag-annotator's main window
  (``app.create_main_window``) until it is exposed and its first events are processed.

The children's code is shared with ``startup_instructions.py`` (``startup_children.py``),
which counts their instructions per phase under callgrind (independent of the load).

Each child measures from the first line of its script (``time.perf_counter``, imports
included) to the window being shown, the CPU time of its main thread by then
(``time.thread_time``, interpreter start-up included: it varies less than wall time while
other programs run) and its resident memory (VmRSS) once shown; the parent also reports the
time from launching the process (interpreter start-up included), which is what a user waits
for.
The app's code is the one on PYTHONPATH (else the installed package), named in the output.
Prints medians and the ratio app / baseline, then the floor's figures and the ratios
app / bare, floor / bare and app / floor (A B C alternated in one loop).  Usage:
``python tests/bench/bench_startup.py [--file F.goldset] [--runs 5] [--scale 1.0]
[--before OTHER_CHECKOUT]``
(QT_QPA_PLATFORM=offscreen unless a DISPLAY is set).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

def _child(code: str, *args: str, env: dict[str, str]) -> dict[str, Any]:
    launched = time.time()
    # Run from a neutral folder: ``-c`` puts the current folder first on sys.path, so a run
    # from a checkout imported that checkout's code whatever PYTHONPATH said (--before).
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         env=env, check=False, timeout=600, cwd=tempfile.gettempdir())
    if out.returncode != 0:
        raise SystemExit(f"child failed ({out.returncode}):\n{out.stderr}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["from_launch"] = result["shown_at"] - launched
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, help="reuse this generated file")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--before", type=Path, help="also run the app from this checkout "
                        "(PYTHONPATH), alternated in the same loop: before and after from "
                        "one sitting")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from generate import generate
    from startup_children import timed

    bare_code, floor_code, app_code = timed("bare"), timed("floor"), timed("app")

    tmp = Path(tempfile.mkdtemp(prefix="rag-bench-"))
    env = dict(os.environ, RAG_ANNOTATOR_HOME=str(tmp / "home"))
    # An installed app runs from compiled bytecode; where PYTHONDONTWRITEBYTECODE is set every
    # start recompiles every module (~45 ms here).  Give both children a bytecode cache (in
    # the temporary folder), filled by the warm-up runs, so they start as installed programs do.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    if not env.get("DISPLAY"):
        env["QT_QPA_PLATFORM"] = "offscreen"
    file = args.file
    if file is None or not file.exists():
        file = file or tmp / "bench.goldset"
        counts = generate(file, args.scale)
        print("generated", file, counts)
    print(f"file: {file} ({file.stat().st_size / 1e6:.0f} MB), platform: "
          f"{env.get('QT_QPA_PLATFORM', 'xcb')}, runs: {args.runs}, bytecode cached")
    base, floor, app, before = [], [], [], []
    old_env = dict(env, PYTHONPATH=str(args.before)) if args.before else None
    for _ in range(2):  # warm the OS file cache and the bytecode cache for all
        _child(bare_code, env=env)
        _child(floor_code, env=env)
        _child(app_code, str(file), env=env)
        if old_env is not None:
            _child(app_code, str(file), env=old_env)
    for _ in range(args.runs):
        base.append(_child(bare_code, env=env))
        floor.append(_child(floor_code, env=env))
        app.append(_child(app_code, str(file), env=env))
        if old_env is not None:
            before.append(_child(app_code, str(file), env=old_env))
    _report(base, app, args.runs)
    _report_floor(base, floor, app, args.runs)
    if before:
        print(f"-- before ({args.before}), alternated with the above:")
        _report(base, before, args.runs)
    return 0


def _report(base: list[dict[str, Any]], app: list[dict[str, Any]], runs: int) -> None:
    print(f"app code: {sorted({r['code'] for r in app})}")
    b = statistics.median(r["seconds"] for r in base)
    a = statistics.median(r["seconds"] for r in app)
    bl = statistics.median(r["from_launch"] for r in base)
    al = statistics.median(r["from_launch"] for r in app)
    b_cpu = statistics.median(r["cpu"] for r in base)
    a_cpu = statistics.median(r["cpu"] for r in app)
    b_mem = statistics.median(r["rss_mb"] for r in base)
    a_mem = statistics.median(r["rss_mb"] for r in app)
    b_min = min(r["seconds"] for r in base)
    a_min = min(r["seconds"] for r in app)
    print(f"bare PySide6 window shown : {b:.3f} s (median of {runs}; min {b_min:.3f}), "
          f"RSS {b_mem:.0f} MB")
    print(f"rag-annotator window shown: {a:.3f} s (median of {runs}; min {a_min:.3f}), "
          f"RSS {a_mem:.0f} MB")
    print(f"ratio app / bare          : {a / b:.2f}x  (target <= 2x; of the minima "
          f"{a_min / b_min:.2f}x), from the script's first line")
    print(f"from process launch       : bare {bl:.3f} s, app {al:.3f} s, ratio {al / bl:.2f}x "
          "(interpreter start-up included)")
    print(f"CPU time, main thread     : bare {b_cpu:.3f} s, app {a_cpu:.3f} s, ratio "
          f"{a_cpu / b_cpu:.2f}x (interpreter start-up included; less sensitive to load)")
    print(f"resident memory once shown: {a_mem:.0f} MB  (target <= 300 MB)")


def _report_floor(base: list[dict[str, Any]], floor: list[dict[str, Any]],
                  app: list[dict[str, Any]], runs: int) -> None:
    """The floor's figures and the three ratios (lines added after the historical ones)."""

    def median(runs_: list[dict[str, Any]], key: str) -> float:
        return float(statistics.median(r[key] for r in runs_))

    f, f_min = median(floor, "seconds"), min(r["seconds"] for r in floor)
    print(f"floor window shown        : {f:.3f} s (median of {runs}; min {f_min:.3f}), "
          f"RSS {median(floor, 'rss_mb'):.0f} MB  (the app's first screen in plain PySide6)")
    for what, key in (("from the script's first line", "seconds"),
                      ("from process launch", "from_launch"),
                      ("CPU time, main thread", "cpu")):
        b, fl, a = median(base, key), median(floor, key), median(app, key)
        print(f"ratios, {what + ':':30s} app/bare {a / b:.2f}x, floor/bare {fl / b:.2f}x, "
              f"app/floor {a / fl:.2f}x  (bare {b:.3f} s, floor {fl:.3f} s, app {a:.3f} s)")


if __name__ == "__main__":
    raise SystemExit(main())
