"""Runs section: import a run, edit its version notes, delete it — each undoable."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.sections import runs as runs_module
from rag_annotator.ui.sections.runs import RunsSection
from tests.helpers import rows

pytestmark = pytest.mark.gui


def _runs(window: MainWindow) -> RunsSection:
    window.show_section(2)
    section = window.sections[2]
    assert isinstance(section, RunsSection)
    return section


def _names(section: RunsSection) -> list[str]:
    return [str(r["name"]) for r in section.model.rows]


def test_import_a_trec_run_then_undo(qtbot, window: MainWindow, tmp_path: Path,
                                     goldset_path: Path) -> None:
    section = _runs(window)
    run_file = tmp_path / "new.run"
    run_file.write_text("Q1 Q0 D4 1 2.5 splade\nQ1 Q0 D6 2 1.5 splade\n", encoding="utf-8")
    job = section.import_run("trec-run", run_file)
    assert job is not None and job.wait_done()
    assert job.changes is not None and job.changes.operation_id
    qtbot.waitUntil(lambda: "splade" in _names(section), timeout=3000)
    assert rows(goldset_path, "SELECT count(*) FROM retrieved r JOIN runs n ON n.id = r.run_id "
                "WHERE n.name = 'splade'") == [(2,)]
    window.undo.undo()
    qtbot.waitUntil(lambda: "splade" not in _names(section), timeout=3000)
    assert rows(goldset_path, "SELECT count(*) FROM runs WHERE name = 'splade'") == [(0,)]


def test_a_bad_run_file_is_refused_and_changes_nothing(
        qtbot, window: MainWindow, tmp_path: Path, goldset_path: Path, modals) -> None:  # type: ignore[no-untyped-def]
    section = _runs(window)
    bad = tmp_path / "bad.run"
    bad.write_text("Q1 Q0 D4 1 2.5 splade\nQ1 Q0 D6 two 1.5 splade\n", encoding="utf-8")
    before = rows(goldset_path, "SELECT count(*) FROM retrieved")
    modals.expect()
    job = section.import_run("trec-run", bad)
    assert job is not None and job.wait_done() and job.changes is None
    qtbot.waitUntil(lambda: not modals.pending, timeout=3000)
    assert "bad.run:2:" in modals.texts[0]  # names the file and the line
    assert rows(goldset_path, "SELECT count(*) FROM retrieved") == before


def test_edit_version_notes_and_delete(qtbot, window: MainWindow, goldset_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    section = _runs(window)
    section.table.selectRow(_names(section).index("dense"))

    def fake_exec(dialog: runs_module.RunDialog) -> int:
        dialog.edits["prompt_version"].setText("p-2026-11")
        dialog.notes.setPlainText("reranker on")
        return 1

    monkeypatch.setattr(runs_module.RunDialog, "exec", fake_exec)
    section.edit_current()
    assert rows(goldset_path, "SELECT prompt_version, notes, model FROM runs "
                "WHERE name = 'dense'") == [("p-2026-11", "reranker on", "model-dense")]

    monkeypatch.setattr(QMessageBox, "question",
                        lambda *args, **kwargs: QMessageBox.StandardButton.Yes)
    section.table.selectRow(_names(section).index("dense"))
    section.delete_current()
    assert rows(goldset_path, "SELECT count(*) FROM runs WHERE name = 'dense'") == [(0,)]
    window.undo.undo()
    assert rows(goldset_path, "SELECT count(*) FROM retrieved r JOIN runs n ON n.id = r.run_id "
                "WHERE n.name = 'dense'") == [(2,)]
