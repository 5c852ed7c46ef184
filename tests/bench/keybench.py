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
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def prepare_copy(source: Path | None, prefix: str) -> tuple[Path, Path]:
    """(temporary folder, copy of ``source``) — ``source`` generated when missing."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["RAG_ANNOTATOR_HOME"] = str(tmp / "home")
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if source is None or not source.exists():
        sys.path.insert(0, str(HERE))
        from generate import generate

        source = tmp / "source.goldset"
        print("generated", source, generate(source))
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
