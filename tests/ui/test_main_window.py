"""The main window end to end: sections by keyboard in English and French, undo/redo into
the file, known errors as messages, history revert, the cheat sheet, saved window state."""

from __future__ import annotations

import html
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialogButtonBox

from rag_annotator.domain import judging_ops
from rag_annotator.paths import app_paths
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import actions
from rag_annotator.ui.dialogs import CheatSheetDialog, cheat_sheet_html
from rag_annotator.ui.judge.section import JudgeSection
from rag_annotator.ui.main_window import MainWindow
from tests.builders import Rich
from tests.ui.driving import ModalCatcher, open_window

pytestmark = pytest.mark.gui

SECTION_KEYS = [Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_4, Qt.Key.Key_5,
                Qt.Key.Key_6, Qt.Key.Key_7, Qt.Key.Key_8]


def grade_on_disk(path: Path, case: str, doc: str, assessor: str = "alice") -> object:
    """alice's grade for (case, doc) as committed in the file; 'absent' when no row."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        row = conn.execute(
            "SELECT j.grade FROM judgments j JOIN cases c ON c.id = j.case_id "
            "JOIN documents d ON d.id = j.document_id JOIN assessors a ON a.id = j.assessor_id "
            "WHERE c.key = ? AND d.key = ? AND a.name = ?", (case, doc, assessor)).fetchone()
    return "absent" if row is None else row[0]


def visit_every_section(qtbot, window: MainWindow) -> list[str]:  # type: ignore[no-untyped-def]
    """Ctrl+1 … Ctrl+8; returns the navigation titles, checking each section is shown."""
    window.activateWindow()
    titles = []
    for i, key in enumerate(SECTION_KEYS):
        qtbot.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
        assert window.section_stack.currentIndex() == i
        assert window.current_section().loaded
        titles.append(window.nav.item(i).text())
    return titles


def judge_section(window: MainWindow) -> JudgeSection:
    section = window.sections[3]
    assert isinstance(section, JudgeSection)
    return section


def go_to_case(qtbot, window: MainWindow, key: str) -> JudgeSection:  # type: ignore[no-untyped-def]
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = judge_section(window)
    row = judge.progress_model.row_of(window.store.by_key("cases", key)["id"])
    judge.cases.selectRow(row)
    judge.pairs.setFocus()
    return judge


def test_every_section_in_english(qtbot, window: MainWindow) -> None:
    titles = visit_every_section(qtbot, window)
    assert titles == ["Gold Set", "Corpus", "Runs", "Judge", "Verify", "Dashboard", "History",
                      "Agents"]
    goldset, corpus, runs, judge, verify, dashboard, history, _agents = window.sections
    assert goldset.model.rowCount() == 3
    assert goldset.editor.question.toPlainText() == "Question Q1 ?"
    assert corpus.model.rowCount() == 6 and "Texte du document 1" in corpus.text.toPlainText()
    assert runs.model.rowCount() == 2
    assert judge.pool.rowCount() > 0 and judge.document.toPlainText()
    # Opens on the first unverified claim: dense/Q3, whose answer has one claim; the list of
    # answers arrives from a worker thread (issue 19).
    qtbot.waitUntil(lambda: not verify.queue_pending)
    assert verify.answers.rowCount() == 2 and verify.claims.rowCount() == 1
    counts = dashboard.judgments.values()
    assert counts["Relevant"] == "2" and counts["Not relevant"] == "1"
    assert counts["of which disputed"] == "1"
    assert dashboard.families.values()["Ambiguous"] == "1"
    assert "not relevant" in dashboard.policy_note.text()  # the pooling assumption
    assert history.model.rowCount() > 10
    status = window.counts_label.text()
    assert "3 cases" in status and "6 documents" in status and "1 claim unverified" in status
    assert window.windowTitle() == "g.goldset — rag-annotator"


def test_every_section_in_french(qtbot, rich: Rich, goldset_path: Path, french: None) -> None:
    window = open_window(qtbot, goldset_path)
    titles = visit_every_section(qtbot, window)
    assert titles == ["Jeu de référence", "Corpus", "Exécutions", "Juger", "Vérifier",
                      "Tableau de bord", "Historique", "Agents"]
    assert [a.text() for a in window.menuBar().actions()][:2] == ["&Fichier", "&Édition"]
    assert "3 cas" in window.counts_label.text()
    dashboard = window.sections[5]
    assert dashboard.families.values()["Ambiguë"] == "1"
    assert "Pertinent" in dashboard.judgments.values()
    assert window.sections[0].model.headerData(1, Qt.Orientation.Horizontal) == "Question"
    # Qt's own strings come from qtbase_fr.qm.
    close = CheatSheetDialog(window).findChild(QDialogButtonBox).buttons()[0]
    assert close.text().replace("&", "") == "Fermer"
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel
                           | QDialogButtonBox.StandardButton.Yes)
    texts = sorted(b.text().replace("&", "") for b in box.buttons())
    assert texts == ["Annuler", "Oui"]


def test_undo_and_redo_through_the_edit_menu_change_the_file(
        qtbot, window: MainWindow, goldset_path: Path) -> None:
    judge = go_to_case(qtbot, window, "Q2")
    assert judge.pool.row_at(judge.pairs.currentIndex().row())["key"] == "D1"
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)
    assert grade_on_disk(goldset_path, "Q2", "D1") == 1

    edit_menu = window.menuBar().actions()[1].menu()
    undo, redo = window.commands["edit.undo"], window.commands["edit.redo"]
    assert undo in edit_menu.actions() and redo in edit_menu.actions()
    assert undo.text() == "Undo Judge Q2 · D1 → Relevant"
    undo.trigger()
    assert grade_on_disk(goldset_path, "Q2", "D1") == "absent"
    assert redo.text() == "Redo Judge Q2 · D1 → Relevant"
    redo.trigger()
    assert grade_on_disk(goldset_path, "Q2", "D1") == 1
    undo.trigger()
    assert grade_on_disk(goldset_path, "Q2", "D1") == "absent"
    assert not window.undo.stack.canUndo()


def test_judging_keys_label_move_and_update_the_counts(qtbot, window: MainWindow,
                                                        goldset_path: Path) -> None:
    judge = go_to_case(qtbot, window, "Q2")
    keys = [r["key"] for r in judge.pool.rows]
    assert keys == ["D1", "D4", "D6"]
    before = window.progress.totals()
    qtbot.keyClick(judge.pairs, Qt.Key.Key_0)          # D1 not relevant, then next to do
    assert judge.pool.row_at(judge.pairs.currentIndex().row())["key"] == "D4"
    qtbot.keyClick(judge.pairs, Qt.Key.Key_K)          # back to D1
    assert judge.pool.row_at(judge.pairs.currentIndex().row())["key"] == "D1"
    assert judge.pool.rows[0]["my_grade"] == 0
    qtbot.keyClick(judge.pairs, Qt.Key.Key_U)          # D1 back to unjudged, then D4
    assert grade_on_disk(goldset_path, "Q2", "D1") is None
    assert judge.pool.row_at(judge.pairs.currentIndex().row())["key"] == "D4"
    qtbot.keyClick(judge.pairs, Qt.Key.Key_J)          # D6
    qtbot.keyClick(judge.pairs, Qt.Key.Key_K)          # D4
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)          # D4 relevant
    assert grade_on_disk(goldset_path, "Q2", "D4") == 1
    after = window.progress.totals()
    assert after["relevant"] == before["relevant"] + 1
    assert after["mine"] == before["mine"] + 1  # D1's row stays, unjudged; D4 is labelled
    assert window.progress.row(window.store.by_key("cases", "Q2")["id"])["mine"] == 1
    assert "judged" in window.counts_label.text()


def test_a_known_error_shows_a_message_and_the_window_keeps_its_file(
        window: MainWindow, modals: ModalCatcher, tmp_path: Path) -> None:
    bad = tmp_path / "notes.goldset"
    bad.write_text("not a database", encoding="utf-8")
    modals.expect()
    assert not window.open_file(bad)
    assert "not a gold-set file" in modals.texts[0]
    assert window.store is not None and window.store.path.name == "g.goldset"


def test_a_conflict_on_undo_is_a_message_and_the_stack_stays(
        qtbot, window: MainWindow, modals: ModalCatcher, goldset_path: Path) -> None:
    judge = go_to_case(qtbot, window, "Q2")
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)
    case_id = window.store.by_key("cases", "Q2")["id"]
    doc_id = window.store.by_key("documents", "D1")["id"]
    judging_ops.set_judgment(window.store, case_id, doc_id, 0)  # a change outside the undo stack
    index = window.undo.stack.index()
    modals.expect()
    window.commands["edit.undo"].trigger()
    assert "cannot undo" in modals.texts[0]
    assert window.undo.stack.index() == index and window.undo.stack.canUndo()
    assert grade_on_disk(goldset_path, "Q2", "D1") == 0


def test_history_reverts_a_change_and_refuses_a_conflicting_one(
        qtbot, window: MainWindow, modals: ModalCatcher, goldset_path: Path) -> None:
    judge = go_to_case(qtbot, window, "Q2")
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)
    history = window.sections[6]
    assert history.model.index(0, 2).data() == "Judge"
    detail = history.detail.toPlainText()
    assert "Judgment #" in detail and "grade: 1" in detail and "case: Q2" in detail
    qtbot.mouseClick(history.revert_button, Qt.MouseButton.LeftButton)
    assert grade_on_disk(goldset_path, "Q2", "D1") == "absent"
    qtbot.waitUntil(lambda: history.model.index(0, 2).data() == "Revert")
    assert window.commands["edit.undo"].text() == "Undo Revert Q2 · D1 → Relevant"

    # alice set (Q2, D4) to relevant, then back to unjudged: the first cannot be reverted.
    first = next(i for i in history.model.ids
                 if window.store.operation_row(i)["label"] == "Q2 · D4 → relevant")
    history.table.selectRow(history.model.row_of(first))
    modals.expect()
    history.revert_button.click()
    assert "cannot undo" in modals.texts[0]
    assert grade_on_disk(goldset_path, "Q2", "D4") is None


def test_cheat_sheet_lists_every_registered_action(qtbot, window: MainWindow,
                                                   modals: ModalCatcher) -> None:
    sheet = cheat_sheet_html()
    for spec in actions.REGISTRY:
        assert html.escape(actions.tr(spec.label).replace("&", "")) in sheet, spec.id
        if spec.shortcuts:
            assert actions.shortcut_text(spec) in sheet
    for key in ("J", "K", "U", "F1"):
        assert f"<b>{key}" in sheet or f" {key}<" in sheet or f">{key}<" in sheet
    registered = {spec.id for spec in actions.REGISTRY}
    for action in window.findChildren(QAction):
        if not action.shortcuts():
            continue
        assert action.objectName() in registered, action.text()
    window.activateWindow()
    modals.expect()
    qtbot.keyClick(window, Qt.Key.Key_Question)  # F1 is the guide's (issue 21)
    assert modals.titles == ["Keyboard Shortcuts"]


def test_new_close_and_open(qtbot, window: MainWindow, goldset_path: Path,
                            tmp_path: Path) -> None:
    assert window.new_file(tmp_path / "fresh")
    assert window.windowTitle() == "fresh.goldset — rag-annotator"
    assert window.sections[0].model.rowCount() == 0
    window.close_file()
    assert window.pages.currentIndex() == 0 and window.windowTitle() == "rag-annotator"
    assert not window.commands["file.close"].isEnabled()
    assert window.open_file(goldset_path)
    assert window.sections[0].model.rowCount() == 3
    recent = Settings.load(app_paths().settings_file).recent_files
    assert recent[:2] == [str(goldset_path.resolve()), str(tmp_path / "fresh.goldset")]


def test_window_state_and_section_are_kept(qtbot, rich: Rich, goldset_path: Path,
                                           english: None) -> None:
    window = open_window(qtbot, goldset_path)
    window.show_section(5)
    window.close()
    saved = Settings.load(app_paths().settings_file)
    assert saved.last_section == 5 and saved.window_geometry and saved.window_state
    again = MainWindow(saved, app_paths(), assessor="alice")
    qtbot.addWidget(again)
    again.set_store(GoldSetStore.open(goldset_path, assessor="alice"))
    assert again.section_stack.currentIndex() == 5


def test_save_a_copy_language_and_assessor(qtbot, window: MainWindow, modals: ModalCatcher,
                                           tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "copie.goldset"
    assert window.save_copy(copy)
    with GoldSetStore.open(copy, read_only=True) as other:
        assert other.count("cases") == 3
    modals.expect()
    assert not window.save_copy(window.store.path)  # refused, with a message
    assert modals.texts

    modals.expect()
    window.commands["settings.language.fr"].trigger()
    assert "next time" in modals.texts[-1]
    assert Settings.load(app_paths().settings_file).language == "fr"

    monkeypatch.setattr("rag_annotator.ui.dialogs.ask_assessor", lambda *_a: "carol")
    window.commands["settings.assessor"].trigger()
    assert window.store.assessor == "carol" and "carol" in window.assessor_label.text()
    assert Settings.load(app_paths().settings_file).assessor == "carol"
    qtbot.waitUntil(lambda: window.progress.complete)
    assert window.progress.totals()["mine"] == 0  # carol has judged nothing yet


def test_only_the_shown_section_is_built_at_startup(qtbot, window: MainWindow) -> None:
    """Startup builds the visible section only; the others are built on first show."""
    assert [type(s).__name__ for s in window.sections.built()] == ["GoldSetSection"]
    assert window.sections[0].model.rowCount() == 3  # its first rows are loaded
    assert "3 cases" in window.counts_label.text()   # totals counted in the background
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = window.sections.built()[-1]
    assert isinstance(judge, JudgeSection) and judge is window.sections[3]
    assert window.section_stack.currentWidget() is judge and judge.loaded
    assert window.current_section() is judge
    assert len(window.sections.built()) == 2 and window.section_stack.count() == 8
