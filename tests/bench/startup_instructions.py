"""Instructions executed by the start-up benchmark's children, phase by phase (callgrind).

Wall times vary with the machine's load; the number of instructions a program executes does
not, so this is the start-up figure to quote beside ``bench_startup.py``'s times.  Each child
of the benchmark (bare window, floor, app: ``startup_children.py``, the same code the timed
benchmark runs) runs once under::

    valgrind --tool=callgrind --separate-threads=yes \
        --dump-after='QWidget::setWindowIconText(QString const&)'

with a marker call (the icon text of a hidden spare QMainWindow) after each phase: after the
QApplication (interpreter start-up and PySide6's import included), after the imports, after
opening the file (app), after building the window, after show(), after
qWaitForWindowExposed() and after processEvents(); then the child ends at once
(``os._exit``).  Callgrind writes one profile per phase and thread; the main thread's
instruction counts (Ir) are printed per phase and in total, with the total less that of
``python -c "import os; os._exit(0)"`` (the interpreter's own start, which the wall time
"from the script's first line" does not include), and the ratios app / bare, floor / bare and
app / floor.  Each child first runs once without valgrind, with the same bytecode cache
(PYTHONPYCACHEPREFIX), so no module is compiled while counted.

The spare marker window is made in the first phase, right after the QApplication: it moves
the cost of Qt's first QMainWindow (style, fonts) from the bare and floor windows' "window"
phase into "qapp", and adds the same few thousand instructions to every child's total.
Threads (the app's background damage check) are counted apart and not shown.

Usage: ``python tests/bench/startup_instructions.py [--file F.goldset] [--scale 1.0]``
(QT_QPA_PLATFORM=offscreen unless a DISPLAY is set; the app's code is the one on PYTHONPATH).
Under callgrind a child runs some 50 times slower: about a minute for the app.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
_SUMMARY = re.compile(rb"^(?:summary|totals): (\d+)", re.MULTILINE)
_PART = re.compile(r"^cg\.(\d+)-01$")  # the main thread's profile of one phase


def _instructions(profile: Path) -> int:
    """The Ir count of one callgrind profile (its ``summary:`` line, else ``totals:``)."""
    found = _SUMMARY.search(profile.read_bytes())
    if found is None:
        raise SystemExit(f"{profile}: no summary line; is it a callgrind profile?")
    return int(found.group(1))


def _callgrind(code: str, args: list[str], env: dict[str, str], out: Path, marker: str
               ) -> tuple[list[str], list[int], int]:
    """Run ``python -c code args`` under callgrind into folder ``out``; return the phases'
    names (printed by the child as its last line, or none), the main thread's instructions
    per marked phase, and those after the last marker (the exit)."""
    out.mkdir(parents=True)
    command = ["valgrind", "--tool=callgrind", "--separate-threads=yes",
               f"--dump-after={marker}",
               f"--callgrind-out-file={out / 'cg'}", sys.executable, "-c", code, *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False,
                          timeout=3600, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise SystemExit(f"valgrind failed ({done.returncode}):\n{done.stderr[-3000:]}")
    lines = done.stdout.strip().splitlines()
    names: list[str] = json.loads(lines[-1]) if lines else []
    parts = sorted((int(m.group(1)), f) for f in out.iterdir()
                   if (m := _PART.match(f.name)))
    counts = [_instructions(f) for _i, f in parts]
    rest = out / "cg-01"
    if len(counts) != len(names):
        raise SystemExit(f"{out}: {len(counts)} phase profiles for {len(names)} markers "
                         f"({names}); is {marker!r} called elsewhere?")
    return names, counts, _instructions(rest) if rest.exists() else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, help="reuse this generated file")
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed (apt-get install valgrind); instruction "
              "counts need callgrind")
        return 0
    sys.path.insert(0, str(HERE))
    from generate import generate
    from startup_children import CHILDREN, MARKER_FUNCTION, PHASE_ORDER, marked, timed

    tmp = Path(tempfile.mkdtemp(prefix="rag-instructions-"))
    env = dict(os.environ, RAG_ANNOTATOR_HOME=str(tmp / "home"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")  # filled by the runs without valgrind
    if not env.get("DISPLAY"):
        env["QT_QPA_PLATFORM"] = "offscreen"
    file = args.file
    if file is None or not file.exists():
        file = file or tmp / "bench.goldset"
        print("generated", file, generate(file, args.scale))
    child_args = {"bare": [], "floor": [], "app": [str(file)]}
    for child in CHILDREN:  # warm the bytecode cache (and the OS file cache)
        subprocess.run([sys.executable, "-c", timed(child), *child_args[child]], env=env,
                       check=True, capture_output=True, timeout=600, cwd=tempfile.gettempdir())
    print(f"file: {file} ({file.stat().st_size / 1e6:.0f} MB), platform: "
          f"{env.get('QT_QPA_PLATFORM', 'xcb')}, bytecode cached, main thread, "
          "millions of instructions (Ir)")
    _names, interpreter_parts, interpreter_exit = _callgrind(
        "import os; os._exit(0)", [], env, tmp / "interpreter", MARKER_FUNCTION)
    interpreter = sum(interpreter_parts) + interpreter_exit
    phases: dict[str, dict[str, int]] = {}
    for child in CHILDREN:
        names, counts, _exit = _callgrind(marked(child), child_args[child], env, tmp / child,
                                        MARKER_FUNCTION)
        phases[child] = dict(zip(names, counts))
    _report(phases, PHASE_ORDER, interpreter)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


def _report(phases: dict[str, dict[str, int]], order: tuple[str, ...], interpreter: int
            ) -> None:
    children = list(phases)
    print(f"{'phase':28s}" + "".join(f"{c:>10s}" for c in children))
    for name in order:
        if any(name in phases[c] for c in children):
            print(f"{name:28s}" + "".join(
                f"{phases[c][name] / 1e6:10.1f}" if name in phases[c] else f"{'-':>10s}"
                for c in children))
    totals = {c: sum(phases[c].values()) for c in children}
    print(f"{'total':28s}" + "".join(f"{totals[c] / 1e6:10.1f}" for c in children))
    net = {c: totals[c] - interpreter for c in children}
    print(f"{'total - interpreter start':28s}" + "".join(f"{net[c] / 1e6:10.1f}"
                                                          for c in children)
          + f"   (python -c 'import os; os._exit(0)': {interpreter / 1e6:.1f})")
    for what, figures in (("total", totals), ("total - interpreter start", net)):
        if {"bare", "floor", "app"} <= figures.keys():
            b, f, a = figures["bare"], figures["floor"], figures["app"]
            print(f"ratios, {what + ':':27s} app/bare {a / b:.2f}x, floor/bare {f / b:.2f}x, "
                  f"app/floor {a / f:.2f}x")


if __name__ == "__main__":
    raise SystemExit(main())
