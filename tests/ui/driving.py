"""Driving the desktop UI in tests: open the main window on a file, answer modal boxes, go
to a case in the Judge section.  Fixtures built on these are in ``conftest.py``; tests import
these helpers from here (never from another test module or from a conftest).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QThread, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from rag_annotator.app import create_main_window
from rag_annotator.paths import app_paths
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.judge.section import JudgeSection
from rag_annotator.ui.main_window import MainWindow


def open_window(qtbot, path: Path, assessor: str = "alice") -> MainWindow:  # type: ignore[no-untyped-def]
    """The main window on ``path``, shown, with the judging counts complete."""
    store = GoldSetStore.open(path, assessor=assessor)
    window = create_main_window(store, Settings(assessor=assessor), paths=app_paths())
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.progress.complete, timeout=5000)
    return window


def judge_on_case(qtbot, window: MainWindow, key: str) -> JudgeSection:  # type: ignore[no-untyped-def]
    """The Judge section (Ctrl+4) on case ``key``, the pairs table focused."""
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = window.sections[3]
    assert isinstance(judge, JudgeSection)
    judge.cases.selectRow(judge.progress_model.row_of(window.store.by_key("cases", key)["id"]))
    judge.pairs.setFocus()
    return judge


class ModalCatcher:
    """Answers the next modal dialogs (message boxes) and records what they said."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.buttons: list[list[str]] = []
        self.titles: list[str] = []
        self._armed = 0

    @property
    def pending(self) -> bool:
        """Some expected dialogs have not appeared (and been closed) yet."""
        return self._armed > 0

    def expect(self, count: int = 1) -> None:
        """Close the next ``count`` modal dialogs as soon as they appear."""
        self._armed += count
        QTimer.singleShot(0, self._poll)

    def _poll(self) -> None:
        if self._armed <= 0:
            return
        widget = QApplication.activeModalWidget()
        if widget is None:
            QTimer.singleShot(10, self._poll)
            return
        self.titles.append(widget.windowTitle())
        if isinstance(widget, QMessageBox):
            self.texts.append(f"{widget.text()}\n{widget.informativeText()}")
            self.buttons.append([b.text() for b in widget.buttons()])
        if isinstance(widget, QDialog):
            widget.done(0)
        else:
            widget.close()
        self._armed -= 1
        if self._armed > 0:
            QTimer.singleShot(10, self._poll)


def run_and_inspect(modals: ModalCatcher, check, ready=lambda w: True) -> None:  # type: ignore[no-untyped-def]
    """Once run_gui's event loop runs, its window is up, the expected message boxes were
    answered and ``ready(window)`` holds: ``check(window)``, then close the window."""
    def inspect() -> None:
        windows = [w for w in QApplication.topLevelWidgets()
                   if isinstance(w, MainWindow) and w.isVisible()]
        # Not before app.exec() runs (e.g. inside the assessor dialog's own loop).
        if (not windows or modals.pending or QApplication.activeModalWidget() is not None
                or QThread.currentThread().loopLevel() != 1 or not ready(windows[0])):
            QTimer.singleShot(20, inspect)
            return
        try:
            check(windows[0])
        finally:
            # As a user quits: closing the last window ends app.exec().  (QApplication.quit()
            # would leave the Quit event this posts for a later test's event loop.)
            for window in windows:
                window.close()
    QTimer.singleShot(50, inspect)
