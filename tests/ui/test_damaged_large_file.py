"""A large damaged file: the window shows it while the quick check runs in the background,
then says it is damaged and keeps it read-only; nothing is written to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_annotator.paths import app_paths
from rag_annotator.settings import Settings
from rag_annotator.storage import store as store_mod
from rag_annotator.ui.main_window import MainWindow
from tests.damage import garbage_page
from tests.helpers import fingerprint
from tests.ui.driving import ModalCatcher

pytestmark = pytest.mark.gui


def test_damage_found_in_the_background_is_reported(qtbot, big_template: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    english: None) -> None:
    monkeypatch.setattr(store_mod, "BACKGROUND_CHECK_BYTES", 0)
    path = tmp_path / "damaged.goldset"
    garbage_page("history")(big_template, path)
    before = fingerprint(path)
    window = MainWindow(Settings(assessor="ana"), app_paths())
    qtbot.addWidget(window)
    window.show()  # the check starts once the window is painted (issue 19)
    qtbot.waitExposed(window)
    catcher = ModalCatcher()
    catcher.expect()
    assert window.open_file(path)
    qtbot.waitUntil(lambda: not catcher.pending, timeout=10_000)
    assert "damaged" in catcher.texts[0]
    assert window.store is not None and window.store.read_only
    window.close_file()
    assert fingerprint(path) == before
