"""macOS hands double-clicked files to the app as QFileOpenEvent (ui/file_open.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QUrl
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

from rag_annotator.ui.file_open import install_file_open_handler, opened_path

pytestmark = pytest.mark.gui


def test_a_file_open_event_reaches_the_handler(qapp: QApplication, tmp_path: Path) -> None:
    opened: list[Path] = []
    file_filter = install_file_open_handler(qapp, opened.append)
    try:
        target = tmp_path / "équipe RH.goldset"
        QCoreApplication.sendEvent(qapp, QFileOpenEvent(str(target)))
        QCoreApplication.sendEvent(qapp, QFileOpenEvent(QUrl.fromLocalFile(str(target))))
        assert opened == [target, target]
    finally:
        qapp.removeEventFilter(file_filter)
        file_filter.deleteLater()


def test_paths_arriving_before_the_window_are_kept(qapp: QApplication, tmp_path: Path) -> None:
    file_filter = install_file_open_handler(qapp)
    try:
        QCoreApplication.sendEvent(qapp, QFileOpenEvent(str(tmp_path / "a.goldset")))
        QCoreApplication.sendEvent(qapp, QFileOpenEvent(str(tmp_path / "b.goldset")))
        assert file_filter.pending == [tmp_path / "a.goldset", tmp_path / "b.goldset"]
        opened: list[Path] = []
        file_filter.set_handler(opened.append)
        assert opened == [tmp_path / "a.goldset", tmp_path / "b.goldset"]
        assert file_filter.pending == []
        QCoreApplication.sendEvent(qapp, QFileOpenEvent(str(tmp_path / "c.goldset")))
        assert opened[-1] == tmp_path / "c.goldset"
    finally:
        qapp.removeEventFilter(file_filter)
        file_filter.deleteLater()


def test_other_events_and_remote_urls_are_ignored(qapp: QApplication) -> None:
    assert opened_path(QEvent(QEvent.Type.User)) is None
    assert opened_path(QFileOpenEvent(QUrl("https://example.org/x.goldset"))) is None
    opened: list[Path] = []
    file_filter = install_file_open_handler(qapp, opened.append)
    try:
        QCoreApplication.sendEvent(qapp, QFileOpenEvent(QUrl("https://example.org/x.goldset")))
        QCoreApplication.sendEvent(qapp, QEvent(QEvent.Type.User))
        assert opened == []
    finally:
        qapp.removeEventFilter(file_filter)
        file_filter.deleteLater()
