"""A second window on a file open elsewhere: told by whom and since when, offered read-only,
shown with a banner; writes refused while read-only."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_annotator.settings import Settings
from rag_annotator.storage.lock import FileInUse, lock_path
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.file_life import FileLife
from rag_annotator.ui.main_window import MainWindow
from tests.builders import Rich

pytestmark = pytest.mark.gui


def _window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    from rag_annotator.paths import app_paths

    window = MainWindow(Settings(assessor="Marc"), app_paths(), assessor="Marc")
    qtbot.addWidget(window)
    window.show()
    return window


def test_second_instance_is_offered_read_only(qtbot, rich: Rich, goldset_path: Path,
                                              tmp_path: Path, english: None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    holder = GoldSetStore.open(goldset_path, assessor="Claire Dubois", lock=True)
    try:
        window = _window(qtbot, tmp_path)
        asked: list[FileInUse] = []

        def decline(self: FileLife, busy: FileInUse) -> bool:
            asked.append(busy)
            return False

        monkeypatch.setattr(FileLife, "ask_read_only", decline)
        assert not window.open_file(goldset_path)
        assert window.store is None and asked[0].holder.assessor == "Claire Dubois"

        monkeypatch.setattr(FileLife, "ask_read_only", lambda self, busy: True)
        assert window.open_file(goldset_path)
        assert window.store is not None and window.store.read_only
        assert window.read_only_banner.isVisible()
        assert "Claire Dubois" in window.read_only_banner.text()
        # Nothing that would write is offered.
        assert not window.commands["file.merge"].isEnabled()
        assert not window.commands["file.restore"].isEnabled()
        assert not window.import_menu.isEnabled()
        assert window.commands["file.save_copy"].isEnabled()  # a copy can be edited
        window.close_file()
    finally:
        holder.close()

    # Once the other copy has closed it, the file opens for writing, banner gone.
    assert window.open_file(goldset_path)
    assert window.store is not None and not window.store.read_only
    assert not window.read_only_banner.isVisible()
    assert lock_path(goldset_path).exists()
    window.close_file()
    assert not lock_path(goldset_path).exists()


def test_the_file_life_cycle_speaks_french(qtbot, rich: Rich, goldset_path: Path,
                                           tmp_path: Path, french: None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """FileLife's texts kept the MainWindow translation context they had before the split."""
    holder = GoldSetStore.open(goldset_path, assessor="Claire Dubois", lock=True)
    try:
        window = _window(qtbot, tmp_path)
        monkeypatch.setattr(FileLife, "ask_read_only", lambda self, busy: True)
        assert window.open_file(goldset_path)
        assert window.read_only_banner.text().startswith("Lecture seule")
        assert "Claire Dubois" in window.read_only_banner.text()
        assert window.save_copy(tmp_path / "copie.goldset")
        assert window.statusBar().currentMessage().startswith("Copie enregistrée dans")
        window.close_file()
    finally:
        holder.close()


def test_a_lock_from_the_future_is_explained_in_the_window(qtbot, goldset_path: Path,
                                                           tmp_path: Path, french: None
                                                           ) -> None:
    """The file-in-use box says why a lock dated in the future still blocks and what to do
    (issue 20, finding 7: the CLI said so; the window did not)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from rag_annotator.storage.lock import FutureLock, LockInfo

    window = _window(qtbot, tmp_path)
    holder = LockInfo("Claire Dubois", "pc-12", 4242, "2099-01-01T10:00:00+00:00")
    seen: list[str] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.informativeText())
        box.reject()

    QTimer.singleShot(0, read_and_close)
    assert window.files.ask_read_only(FutureLock(goldset_path, holder)) is False
    assert len(seen) == 1
    assert "daté dans le futur" in seen[0]
    assert "10 minutes" in seen[0]
    assert lock_path(goldset_path).name in seen[0]
