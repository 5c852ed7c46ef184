"""The history view shows a bulk import's range rows as counts, and reverts it."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt

from rag_annotator.import_export import trec_files
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.main_window import MainWindow
from tests.builders import Rich
from tests.ui.driving import open_window


def test_history_shows_and_reverts_a_bulk_import(qtbot, rich: Rich, goldset_path: Path,  # type: ignore[no-untyped-def]
                                                 tmp_path: Path, english: None) -> None:
    run = tmp_path / "bulk.txt"
    run.write_text("".join(f"q{q} Q0 doc{d} {d + 1} {100 - d} bulk\n"
                           for q in range(30) for d in range(100)), encoding="utf-8")
    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        trec_files.import_run(store, run)
        before = store.count("retrieved")
    window: MainWindow = open_window(qtbot, goldset_path)
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)
    history = window.sections[6]
    detail = history.detail.toPlainText()
    assert re.search(r"#\d+–#\d+ — 3,000 rows added", detail), detail
    assert history.revert_button.isEnabled()
    qtbot.mouseClick(history.revert_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.store.count("retrieved") == before - 3000)
    qtbot.waitUntil(lambda: history.model.index(0, 2).data() == "Revert")
    history.table.selectRow(0)
    assert re.search(r"#\d+–#\d+ — 3,000 rows deleted", history.detail.toPlainText())
