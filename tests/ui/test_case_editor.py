"""The case editor driven by keyboard: new case, fields, next/previous, status; bulk edits,
coverage grid, releases, and the corpus registry editor."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QPlainTextEdit

from rag_annotator.ui.goldset.coverage import CoverageDialog
from rag_annotator.ui.goldset.releases import ReleasesDialog
from rag_annotator.ui.goldset.section import GoldSetSection
from rag_annotator.ui.look import colours
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.sections.corpus import CorpusSection
from tests.helpers import rows
from tests.ui.driving import ModalCatcher

pytestmark = pytest.mark.gui
ALT = Qt.KeyboardModifier.AltModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def goldset(qtbot, window: MainWindow) -> GoldSetSection:  # type: ignore[no-untyped-def]
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    section = window.sections[0]
    assert isinstance(section, GoldSetSection)
    section.table.setFocus()
    return section


def focused() -> object:
    return QApplication.focusWidget()


def case_row(path: Path, key: str) -> dict[str, object]:
    names = ["question", "reference_answer", "tags", "status", "must_contain", "family"]
    [found] = rows(path, f"SELECT {', '.join(names)} FROM cases WHERE key = ?", (key,))
    return dict(zip(names, found))


def type_into(qtbot, text: str) -> None:  # type: ignore[no-untyped-def]
    """Type ASCII text into the focused widget (QTest simulates ASCII keys only)."""
    widget = focused()
    assert widget is not None
    qtbot.keyClicks(widget, text)


def test_write_a_case_without_the_mouse(qtbot, window: MainWindow,
                                        goldset_path: Path) -> None:
    section = goldset(qtbot, window)
    assert section.editor.case["key"] == "Q1"
    qtbot.keyClick(section.table, Qt.Key.Key_Down, ALT)
    assert section.editor.case["key"] == "Q2"
    qtbot.keyClick(section.table, Qt.Key.Key_Up, ALT)
    assert section.editor.case["key"] == "Q1"

    qtbot.keyClick(section.table, Qt.Key.Key_N, CTRL_SHIFT)  # new case, keyboard in question
    assert section.editor.case["key"] == "Q04"
    assert focused() is section.editor.question
    type_into(qtbot, "Pretez-vous des telescopes ?")
    qtbot.keyClick(focused(), Qt.Key.Key_A, ALT)  # reference answer; the question commits
    assert focused() is section.editor.reference_answer
    assert case_row(goldset_path, "Q04")["question"] == "Pretez-vous des telescopes ?"
    type_into(qtbot, "Non.")
    qtbot.keyClick(focused(), Qt.Key.Key_M, ALT)
    type_into(qtbot, "non")
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    type_into(qtbot, "redirection vers l'observatoire")
    qtbot.keyClick(focused(), Qt.Key.Key_T, ALT)
    type_into(qtbot, "pret, astronomie")
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.keyClick(focused(), Qt.Key.Key_Right, ALT)  # draft → reviewed
    stored = case_row(goldset_path, "Q04")
    assert stored["reference_answer"] == "Non."
    assert json.loads(str(stored["must_contain"])) == ["non", "redirection vers l'observatoire"]
    assert json.loads(str(stored["tags"])) == ["pret", "astronomie"]
    assert stored["status"] == "reviewed"
    qtbot.keyClick(focused(), Qt.Key.Key_Right, ALT)
    assert case_row(goldset_path, "Q04")["status"] == "approved"
    qtbot.keyClick(focused(), Qt.Key.Key_Left, ALT)
    assert case_row(goldset_path, "Q04")["status"] == "reviewed"

    # Every change is one step of undo.
    assert window.undo.undo()
    assert case_row(goldset_path, "Q04")["status"] == "approved"
    assert window.undo.undo() and window.undo.undo()
    assert case_row(goldset_path, "Q04")["status"] == "draft"
    assert section.editor.status.currentData() == "draft"


def test_text_being_typed_is_kept_when_moving_to_the_next_case(qtbot, window: MainWindow,
                                                               goldset_path: Path) -> None:
    section = goldset(qtbot, window)
    qtbot.keyClick(section.table, Qt.Key.Key_Q, ALT)
    assert isinstance(focused(), QPlainTextEdit)
    type_into(qtbot, " (revisee)")
    qtbot.keyClick(focused(), Qt.Key.Key_Down, ALT)  # commits, then Q2
    assert case_row(goldset_path, "Q1")["question"] == "Question Q1 ? (revisee)"
    assert section.editor.case["key"] == "Q2"
    assert focused() is section.editor.question  # the keyboard stays in the same field


def test_family_rules_are_shown(qtbot, window: MainWindow) -> None:
    section = goldset(qtbot, window)
    section.table.selectRow(2)  # Q3: no answer in corpus, but expects an answer
    assert section.editor.case["key"] == "Q3"
    assert "no_answer_behaviour" in section.editor.rule_codes
    assert "abstain" in section.editor.warnings.text()
    section.editor.expected_behaviour.setCurrentIndex(
        section.editor.expected_behaviour.findData("abstain"))
    section.editor.commit("expected_behaviour")
    assert "no_answer_behaviour" not in section.editor.rule_codes


def test_bulk_edit_of_a_selection(qtbot, window: MainWindow, goldset_path: Path) -> None:
    section = goldset(qtbot, window)
    qtbot.keyClick(section.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    ids = section.selected_ids()
    assert len(ids) == 3
    section.apply_bulk(ids, "sensitive", "reviewed", ["lot-1"], ["rh"])
    assert rows(goldset_path, "SELECT DISTINCT family, status FROM cases") == [
        ("sensitive", "reviewed")]
    assert rows(goldset_path, "SELECT tags FROM cases ORDER BY key") == [
        ('["q1", "lot-1"]',), ('["q2", "lot-1"]',), ('["q3", "lot-1"]',)]
    assert window.undo.stack.count() == 3  # one undoable step per kind of change
    window.undo.undo()
    assert rows(goldset_path, "SELECT DISTINCT status FROM cases") == [("draft",)]
    section.tag.setCurrentIndex(section.tag.findData("lot-1"))
    section._apply_filters()
    assert section.model.rowCount() == 3


def test_frozen_approved_case_is_read_only(qtbot, window: MainWindow, goldset_path: Path,
                                           modals: ModalCatcher) -> None:
    section = goldset(qtbot, window)
    qtbot.keyClick(section.table, Qt.Key.Key_Right, ALT)
    qtbot.keyClick(section.table, Qt.Key.Key_Right, ALT)
    assert case_row(goldset_path, "Q1")["status"] == "approved"
    dialog = ReleasesDialog(window.ctx, window)
    assert dialog.freeze("v1", "première")
    assert section.editor.read_only and section.editor.question.isReadOnly()
    assert "v1" in section.editor.banner.text()
    assert "Release v1 frozen" in section.release_label.text()
    modals.expect()
    qtbot.keyClick(section.table, Qt.Key.Key_Left, ALT)  # refused, with the reason
    qtbot.waitUntil(lambda: not modals.pending)
    assert "frozen release 'v1'" in modals.texts[0]
    assert case_row(goldset_path, "Q1")["status"] == "approved"
    ops_count = rows(goldset_path, "SELECT count(*) FROM operations")
    section.editor.commit("question")
    assert rows(goldset_path, "SELECT count(*) FROM operations") == ops_count
    text = dialog.compare()
    assert "v1 → (current gold set)" in text and "No change" in text
    dialog.start_draft()
    assert not section.editor.read_only and section.release_label.text() == ""
    assert window.store.release_state() == ("draft", "")


def test_coverage_grid_lists_a_cell(qtbot, window: MainWindow) -> None:
    section = goldset(qtbot, window)
    dialog = CoverageDialog(window.store, window)
    assert dialog.cell("ordinary", "rh") == 1 and dialog.cell("sensitive", "rh") == 0
    assert dialog.cell("no_answer", "q3") == 1
    row, column = dialog.position("sensitive", "rh")
    empty = colours.css_bg("bad")
    assert dialog.grid.item(row, column).background().color().name() == empty
    assert dialog.grid.item(*dialog.position("ordinary", "rh")).text() == "1"
    dialog._choose(*dialog.position("ambiguous", "rh"))
    assert dialog.chosen == ("ambiguous", "rh")
    section.show_cell(*dialog.chosen)
    assert [section.model.row_at(i)["key"] for i in range(section.model.rowCount())] == ["Q2"]
    section.clear_cell()
    assert section.model.rowCount() == 3


def test_corpus_registry_edit_and_find(qtbot, window: MainWindow, goldset_path: Path,
                                       modals: ModalCatcher) -> None:
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    corpus = window.sections[1]
    assert isinstance(corpus, CorpusSection)
    corpus.table.selectRow(0)
    assert corpus.document["key"] == "D1"
    corpus.owner.setText("Direction RH")
    corpus.rights.setText("salarié, manager")
    corpus.flush()
    assert rows(goldset_path, "SELECT owner, rights FROM documents WHERE key = 'D1'") == [
        ("Direction RH", '["salarié", "manager"]')]
    corpus.doc_status.setCurrentIndex(corpus.doc_status.findData("withdrawn"))
    corpus.commit("status")
    assert "case Q1 cites D1 (withdrawn)" in corpus.source_warnings.text()
    corpus.text_finder.setText("document 1")
    assert corpus.text.textCursor().selectedText() == "document 1"
    corpus.text_finder.setText("introuvable")
    assert corpus.find_status.text() == "not found"
    corpus.supersedes.setText("D9")
    modals.expect()
    corpus.commit("supersedes")
    qtbot.waitUntil(lambda: not modals.pending)
    assert "D9" in modals.texts[0]
    assert rows(goldset_path, "SELECT supersedes_id FROM documents WHERE key = 'D1'") == [
        (None,)]


def test_expected_source_with_a_selected_passage(qtbot, window: MainWindow,
                                                 goldset_path: Path) -> None:
    from PySide6.QtGui import QTextCursor

    from rag_annotator.ui.goldset.source_dialog import SourceDialog

    section = goldset(qtbot, window)
    section.table.selectRow(2)  # Q3: no source yet
    dialog = SourceDialog(window.ctx, section.editor)
    qtbot.addWidget(dialog)
    dialog.search.setText("D4")
    assert dialog.model.rowCount() == 1 and dialog.document_id is not None
    text = dialog.text.toPlainText()
    start = text.index("document 4")
    cursor = dialog.text.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len("document 4"), QTextCursor.MoveMode.KeepAnchor)
    dialog.text.setTextCursor(cursor)
    assert dialog.use_passage.isChecked()
    assert dialog.span() == (start, start + len("document 4"))
    dialog.note.setText("le passage exact")
    case_id, doc_id, span = section.editor.case_id, dialog.document_id, dialog.span()
    from rag_annotator.domain import operations as ops

    window.undo.run(lambda s: ops.add_expected_source(s, case_id, doc_id, span,
                                                      dialog.note.text()))
    assert rows(goldset_path, "SELECT d.key, e.span_start, e.span_end, e.note FROM "
                              "expected_sources e JOIN documents d ON d.id = e.document_id "
                              "JOIN cases c ON c.id = e.case_id WHERE c.key = 'Q3'") == [
        ("D4", start, start + 10, "le passage exact")]
    assert section.editor.sources_model.rowCount() == 1
    assert section.editor.sources_model.row_at(0)["passage"] == "document 4"
    # Delete in the sources list removes it (one undoable step).
    section.editor.sources.selectRow(0)
    section.editor.sources.setFocus()
    qtbot.keyClick(section.editor.sources, Qt.Key.Key_Delete)
    assert rows(goldset_path, "SELECT count(*) FROM expected_sources e JOIN cases c "
                              "ON c.id = e.case_id WHERE c.key = 'Q3'") == [(0,)]


def test_corpus_folder_through_the_import_dialog(qtbot, window: MainWindow,
                                                goldset_path: Path, tmp_path: Path) -> None:
    from rag_annotator.ui.exchange.import_dialog import ImportDialog

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "D1.txt").write_text("Texte changé", encoding="utf-8")
    (folder / "NOUVEAU.md").write_text("# Nouveau\ntexte", encoding="utf-8")
    dialog = ImportDialog(window.ctx, "corpus", folder, window)
    qtbot.addWidget(dialog)
    dialog.start()
    qtbot.waitUntil(lambda: dialog.report is not None or dialog.error is not None,
                    timeout=10000)
    assert dialog.error is None
    text = dialog.outcome.text()
    assert "1 document(s) added, 1 changed, 0 unchanged, 5 disappeared" in text
    assert "touch 2 case(s) (Q1, Q2)" in text  # D1 and D6 are expected sources
    assert window.store.count("documents") == 7
    # one undoable step, refreshed from the import's own Changes
    assert window.undo.stack.count() == 1
    # bug: a label named ``result`` hid QDialog.result(), which Qt and callers use
    assert dialog.result() == QDialog.DialogCode.Rejected


def test_a_refused_edit_says_why_once_and_shows_the_stored_value(
        qtbot, window: MainWindow, goldset_path: Path, modals: ModalCatcher) -> None:
    section = goldset(qtbot, window)
    section.editor.focus_field("key")
    section.editor.key.setText("Q2")  # taken
    modals.expect()
    qtbot.keyClick(section.editor.key, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not modals.pending)
    qtbot.wait(50)
    assert len(modals.texts) == 1 and "already exists" in modals.texts[0]
    assert section.editor.key.text() == "Q1"
    assert rows(goldset_path, "SELECT count(*) FROM cases WHERE key = 'Q1'") == [(1,)]


def _answer_line_dialog(qtbot, keys) -> list[str]:  # type: ignore[no-untyped-def]
    """Answer the next LineDialog with ``keys(dialog)``; returns what it showed."""
    from PySide6.QtCore import QTimer

    from rag_annotator.ui.line_dialog import LineDialog

    seen: list[str] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not (isinstance(dialog, LineDialog) and dialog.field.hasFocus()):
            QTimer.singleShot(10, answer)  # shown, and the keyboard in its field
            return
        seen.append(dialog.field.text())
        keys(dialog)
        if dialog.isVisible():
            dialog.reject()

    QTimer.singleShot(0, answer)
    return seen


def test_an_expected_source_note_is_written_with_f2_and_undone(
        qtbot, window: MainWindow, goldset_path: Path) -> None:  # type: ignore[no-untyped-def]
    """F2 in the sources list writes the source's note (one undoable step); Esc keeps it."""
    section = goldset(qtbot, window)
    section.table.selectRow(0)  # Q1, whose expected source is D1
    sources = section.editor.sources
    sources.selectRow(0)
    sources.setFocus()

    def note() -> object:
        return rows(goldset_path, "SELECT e.note FROM expected_sources e JOIN cases c "
                                  "ON c.id = e.case_id WHERE c.key = 'Q1'")[0][0]

    before = note()

    def type_note(dialog) -> None:  # type: ignore[no-untyped-def]
        dialog.field.clear()
        qtbot.keyClicks(dialog.field, "la regle de 2026")
        qtbot.keyClick(dialog.field, Qt.Key.Key_Return)

    seen = _answer_line_dialog(qtbot, type_note)
    qtbot.keyClick(sources, Qt.Key.Key_F2)
    assert seen == [before] and note() == "la regle de 2026"
    assert section.editor.sources_model.row_at(0)["note"] == "la regle de 2026"
    assert sources.currentIndex().row() == 0  # still on the source, the keyboard back in
    qtbot.waitUntil(lambda: QApplication.focusWidget() is sources, timeout=2000)  # the list

    seen = _answer_line_dialog(qtbot, lambda d: qtbot.keyClick(d.field, Qt.Key.Key_Escape))
    qtbot.keyClick(sources, Qt.Key.Key_F2)
    assert seen == ["la regle de 2026"] and note() == "la regle de 2026"

    qtbot.waitUntil(lambda: QApplication.focusWidget() is sources, timeout=2000)
    qtbot.keyClick(sources, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert note() == before
