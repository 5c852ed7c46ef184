"""Fixtures for the desktop UI tests: a rich gold set, the main window, French, modal boxes.

Every test runs offscreen (``tests/conftest.py``) with ``RAG_ANNOTATOR_HOME`` pointing at a
temporary folder, so settings, the sample and logs never touch the real profile.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.i18n import install_translations, remove_translations
from rag_annotator.ui.main_window import MainWindow
from tests.builders import Rich, build_rich
from tests.ui.driving import ModalCatcher, open_window


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


@pytest.fixture
def window(qtbot, rich: Rich, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    """The main window (English) on the rich gold set, assessor alice."""
    return open_window(qtbot, goldset_path)


@pytest.fixture
def modals() -> ModalCatcher:
    """Close modal boxes automatically; ``modals.expect()`` before the action that opens one."""
    return ModalCatcher()


@pytest.fixture
def hooks_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_gui installs process-wide hooks; put pytest's back afterwards."""
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    monkeypatch.setenv("RAG_ANNOTATOR_LANG", "en")
