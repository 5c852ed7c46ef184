"""Set-up shared by the key-latency benchmarks (bench_judge_keys.py, bench_verify_keys.py).

Both open the real main window on a fresh COPY of a large generated file (the given file is
never written to), offscreen unless a DISPLAY is set, with an app home of their own.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QEvent, QObject

HERE = Path(__file__).resolve().parent


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def prepare_copy(source: Path | None, prefix: str,
                 make: Callable[[Path], object] | None = None) -> tuple[Path, Path]:
    """(temporary folder, copy of ``source``) — ``source`` generated when missing (by
    ``make``: ``generate.generate`` by default; ``generate_pdf.generate_pdf`` for the
    PDF-heavy file)."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["RAG_ANNOTATOR_HOME"] = str(tmp / "home")
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if source is None or not source.exists():
        sys.path.insert(0, str(HERE))
        if make is None:
            from generate import generate as make

        source = tmp / "source.goldset"
        print("generated", source, make(source))
    copy = tmp / "bench.goldset"
    shutil.copyfile(source, copy)
    # Flush the copy now: otherwise the first commit's fsync writes the whole 200 MB copy
    # out (~80 ms here), a cost of the benchmark's set-up that no user's file has.
    with copy.open("rb+") as handle:
        os.fsync(handle.fileno())
    return tmp, copy


def open_window(copy: Path) -> tuple[Any, Any, Any]:
    """(QApplication, store, main window) shown and exposed on ``copy``."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from rag_annotator.app import create_main_window
    from rag_annotator.settings import Settings
    from rag_annotator.storage.store import GoldSetStore

    app = QApplication(sys.argv[:1])
    store = GoldSetStore.open(copy, assessor="bench", verify="skip")
    window = create_main_window(store, Settings(assessor="bench"))
    window.resize(1280, 800)
    window.show()
    QTest.qWaitForWindowExposed(window)
    return app, store, window


def open_section(app: Any, window: Any, digit: Any) -> float:
    """Let the shown window settle, press Ctrl+``digit`` (a ``Qt.Key``); return the seconds
    until the section is built and shown."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    settle(app)
    start = time.perf_counter()
    QTest.keyClick(window, digit, Qt.KeyboardModifier.ControlModifier)
    app.processEvents()
    return time.perf_counter() - start


def settle(app: Any) -> None:
    """Process what the last action queued (refreshes, deferred reads)."""
    for _ in range(20):
        app.processEvents()


class PaintSpy(QObject):
    """Installed on a viewport: records when it was last painted, and how many statements
    (of the list given) had run by then."""

    def __init__(self, statements: list[str]) -> None:
        super().__init__()
        self.statements = statements
        self.painted_at = 0.0
        self.statements_then = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Paint:
            self.painted_at = time.perf_counter()
            self.statements_then = len(self.statements)
        return False


class EventCounter(QObject):
    """Installed on the application: counts Paint and LayoutRequest events by widget class
    (a viewport by its view's class)."""

    KINDS: ClassVar[dict[QEvent.Type, str]] = {QEvent.Type.Paint: "Paint",
                                               QEvent.Type.LayoutRequest: "LayoutRequest"}

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, dict[str, int]] = {kind: {} for kind in self.KINDS.values()}

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        kind = self.KINDS.get(event.type())
        if kind is not None:
            name = type(watched).__name__
            parent = watched.parent()
            if name == "QWidget" and parent is not None:
                name = f"{type(parent).__name__}.viewport"
            counts = self.counts[kind]
            counts[name] = counts.get(name, 0) + 1
        return False

    def summary(self, keys: int) -> str:
        """One line per kind: events per key in all, then the busiest classes."""
        lines = []
        for kind, counts in self.counts.items():
            total = sum(counts.values())
            top = sorted(counts.items(), key=lambda kv: -kv[1])[:8]
            lines.append(f"{kind} events per key: {total / keys:.1f} ("
                         + ", ".join(f"{name} {n / keys:.2f}" for name, n in top) + ")")
        return "\n".join(lines)
