"""Fixtures for the desktop UI tests: a rich gold set, the main window, French, modal boxes.

Every test runs offscreen (``tests/conftest.py``) with ``RAG_ANNOTATOR_HOME`` pointing at a
temporary folder, so settings, the sample and logs never touch the real profile.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from rag_annotator.app import create_main_window
from rag_annotator.paths import app_paths
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.i18n import install_translations, remove_translations
from rag_annotator.ui.main_window import MainWindow
from tests.builders import Rich, build_rich


@pytest.fixture
def rich(goldset_path: Path) -> Rich:
    """A closed gold set with cases, documents, two runs, answers, claims and judgments."""
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        return build_rich(store)


@pytest.fixture
def english() -> Iterator[None]:
    """English UI (plural forms installed), whatever the machine's locale."""
    translators = install_translations("en")
    yield
    remove_translations(translators)


@pytest.fixture
def french() -> Iterator[None]:
    """French UI: our translations and Qt's, installed before any widget is built."""
    translators = install_translations("fr")
    yield
    remove_translations(translators)


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


@pytest.fixture
def window(qtbot, rich: Rich, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    """The main window (English) on the rich gold set, assessor alice."""
    return open_window(qtbot, goldset_path)


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


@pytest.fixture
def modals() -> ModalCatcher:
    """Close modal boxes automatically; ``modals.expect()`` before the action that opens one."""
    return ModalCatcher()
