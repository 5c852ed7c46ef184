"""The start-up benchmark's three child programs, phase by phase.

``bench_startup.py`` times them (:func:`timed`); ``startup_instructions.py`` counts their
instructions under callgrind (:func:`marked`, the same phases with a marker call between
them).  Sharing the phases keeps what is timed and what is counted the same code.

* bare: import PySide6, create a QApplication and show an empty 1280 x 800 QMainWindow;
* floor: the same plus the app's first screen on the 1,000,000-judgment file built in plain
  PySide6 (``startup_floor.py``: no rag_annotator, no SQLite);
* app: the same plus open the file with GoldSetStore and show rag-annotator's main window
  (``app.create_main_window``).

Each runs until its window is exposed and one ``processEvents()`` ran.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

#: (phase name, code) in order; the first phase includes the interpreter's start-up.
Phases = tuple[tuple[str, str], ...]

_START = r"""
import time
T0 = time.perf_counter()
import json, os, sys
from PySide6.QtWidgets import QApplication, QMainWindow
from PySide6.QtTest import QTest

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")

app = QApplication(sys.argv[:1])
"""

_SHOW: Phases = (
    ("show", "window.show()\n"),
    ("exposed", "QTest.qWaitForWindowExposed(window)\n"),
    ("events", "app.processEvents()\n"),
)

CHILDREN: dict[str, Phases] = {
    "bare": (
        ("qapp", _START),
        ("window", "window = QMainWindow()\nwindow.resize(1280, 800)\n"),
        *_SHOW,
    ),
    "floor": (
        ("qapp", _START),
        ("imports", f"sys.path.append({str(HERE)!r})\nfrom startup_floor import FloorWindow\n"),
        ("window", "window = FloorWindow()\n"),
        *_SHOW,
    ),
    "app": (
        ("qapp", _START),
        ("imports", "from rag_annotator.app import create_main_window\n"
                    "from rag_annotator.settings import Settings\n"
                    "from rag_annotator.storage.store import GoldSetStore\n"),
        ("open", 'store = GoldSetStore.open(sys.argv[1], assessor="bench", verify="auto")'
                 "  # as the app does\n"),
        ("window", 'window = create_main_window(store, Settings(assessor="bench"))\n'
                   "window.resize(1280, 800)\n"),
        *_SHOW,
    ),
}

#: The phases' names in the order they come, over the three children.
PHASE_ORDER = ("qapp", "imports", "open", "window", "show", "exposed", "events")

_REPORT = r"""
print(json.dumps({"seconds": shown, "shown_at": time.time(), "cpu": time.thread_time(),
                  "rss_mb": rss_mb(), "code": CODE}))
"""
_CODE = {
    "bare": 'CODE = ""\n',
    "floor": 'CODE = ""\n',
    "app": "import rag_annotator\nCODE = os.path.dirname(rag_annotator.__file__)\n",
}

_MARKER = r"""
_marker = QMainWindow()  # never shown: its icon text marks the phases for callgrind
_phases = []

def mark(name):
    _phases.append(name)
    _marker.setWindowIconText(name)
"""
#: The function whose calls end a phase (``valgrind --dump-after=``).
MARKER_FUNCTION = "QWidget::setWindowIconText(QString const&)"


def timed(child: str) -> str:
    """The child's program for the wall-time benchmark: prints one JSON line (seconds from
    its first line to the window shown, wall time then, main-thread CPU time, RSS, and the
    app's code folder)."""
    return ("".join(code for _name, code in CHILDREN[child])
            + "shown = time.perf_counter() - T0\n" + _CODE[child] + _REPORT)


def marked(child: str) -> str:
    """The child's program for callgrind: the same phases, each followed by a marker call
    (the marker window is made after the QApplication, in the first phase); prints the
    phases' names as a JSON list and ends at once (``os._exit``)."""
    out = []
    for i, (name, code) in enumerate(CHILDREN[child]):
        out.append(code)
        if i == 0:
            out.append(_MARKER)
        out.append(f"mark({name!r})\n")
    out.append("print(json.dumps(_phases), flush=True)\nos._exit(0)\n")
    return "".join(out)
