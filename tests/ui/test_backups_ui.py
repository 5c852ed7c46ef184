"""Backups from the window: taken when due, shown with what they hold, restored on demand."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.paths import app_paths
from rag_annotator.storage import backups
from rag_annotator.ui.backup_dialog import RestoreDialog
from rag_annotator.ui.main_window import MainWindow
from tests.builders import Rich
from tests.helpers import dump

pytestmark = pytest.mark.gui


def test_backup_preview_and_restore(qtbot, window: MainWindow, goldset_path: Path,
                                    rich: Rich) -> None:
    root = app_paths().backups
    window.backups.maybe(window.store)
    window.backups.wait()
    taken = backups.listing(goldset_path, root)
    assert len(taken) == 1
    snapshot = dump(taken[0].path)
    assert snapshot == dump(goldset_path)

    window.undo.run(lambda s: ops.create_case(s, key="APRES", question="après la copie"))
    # Not due again so soon: no second copy.
    window.backups.maybe(window.store)
    window.backups.wait()
    assert len(backups.listing(goldset_path, root)) == 1

    dialog = RestoreDialog(goldset_path, root, window)
    qtbot.addWidget(dialog)
    assert dialog.model.rowCount() == 1
    assert "3 cases" in dialog.details.text() and "6 documents" in dialog.details.text()

    assert window.files.restore_backup(taken[0].path)
    assert window.store is not None and not window.store.read_only
    keys = [r["key"] for r in window.store.query("SELECT key FROM cases ORDER BY key")]
    assert keys == ["Q1", "Q2", "Q3"]
    listed = backups.listing(goldset_path, root)
    before = [b for b in listed if "before-restore" in b.path.name]
    assert len(before) == 1
    assert "APRES" in {row[1] for row in dump(before[0].path)["cases"]}


def test_closing_a_changed_file_takes_a_copy(qtbot, window: MainWindow,
                                             goldset_path: Path) -> None:
    root = app_paths().backups
    window.undo.run(lambda s: ops.create_case(s, key="NOUVEAU", question="?"))
    window.close_file()
    window.backups.wait()
    listed = backups.listing(goldset_path, root)
    assert len(listed) == 1
    assert "NOUVEAU" in {row[1] for row in dump(listed[0].path)["cases"]}


def test_a_big_files_copy_waits_for_a_pause(qtbot, window: MainWindow, goldset_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from rag_annotator.ui import backups as scheduler

    root = app_paths().backups
    monkeypatch.setattr(scheduler, "BIG_FILE_BYTES", 0)  # every file is "big"
    window.undo.run(lambda s: ops.create_case(s, key="EN_COURS", question="?"))
    window.backups.maybe(window.store)  # the user is judging: no copy now
    window.backups.wait()
    assert backups.listing(goldset_path, root) == []
    monkeypatch.setattr(scheduler, "IDLE_SECONDS", 0.0)  # ... after a pause
    window.backups.maybe(window.store)
    window.backups.wait()
    assert len(backups.listing(goldset_path, root)) == 1
