"""The review queue driven by keyboard: accept (A), reject (R), move (J/K), edit (E)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog

from rag_annotator.import_export.ragas_testset import import_testset
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.exchange.import_dialog import ImportDialog, header_set_key
from rag_annotator.ui.goldset.review_queue import ReviewQueueDialog
from rag_annotator.ui.main_window import MainWindow
from tests.helpers import rows
from tests.ui.driving import ModalCatcher, open_window

pytestmark = pytest.mark.gui


@pytest.fixture
def queued(rich: object, goldset_path: Path, tmp_path: Path) -> Path:
    source = tmp_path / "testset.jsonl"
    samples = [{"user_input": "Question Q1 ?", "reference": "Doublon"},
               {"user_input": "Combien de jours de RTT ?", "reference": "10"},
               {"user_input": "Qui signe ?", "reference": "Le DRH"}]
    source.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in samples),
                      encoding="utf-8")
    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        import_testset(store, source, Options())
    return goldset_path


def decisions(path: Path) -> list[tuple[object, ...]]:
    return rows(path, "SELECT c.key, r.decision, c.status FROM case_reviews r JOIN cases c "
                      "ON c.id = r.case_id ORDER BY c.key")


def test_review_by_keyboard(qtbot, queued: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    window: MainWindow = open_window(qtbot, queued)
    dialog = ReviewQueueDialog(window.ctx, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    table = dialog.table
    table.setFocus()
    assert dialog.current()["key"] == "GEN001"
    assert "Near-duplicate of Q1" in dialog.detail.toPlainText()
    qtbot.keyClick(table, Qt.Key.Key_R)  # reject the duplicate; on to the next pending one
    assert dialog.current()["key"] == "GEN002"
    qtbot.keyClick(table, Qt.Key.Key_A)
    assert dialog.current()["key"] == "GEN003"
    qtbot.keyClick(table, Qt.Key.Key_K)
    assert dialog.current()["key"] == "GEN002"
    qtbot.keyClick(table, Qt.Key.Key_J)
    assert decisions(queued) == [("GEN001", "rejected", "retired"),
                                 ("GEN002", "accepted", "reviewed"),
                                 ("GEN003", "pending", "draft")]
    assert rows(queued, "SELECT decided_by FROM case_reviews WHERE decision != 'pending'") \
        == [("alice",), ("alice",)]
    assert "1 pending of 3" in dialog.counts.text()

    # E opens the case in the editor; closing it with "Done, accept" records "edited".
    def edit_and_close() -> None:
        editor_dialog = QApplication.activeModalWidget()
        assert isinstance(editor_dialog, QDialog)
        question = editor_dialog.findChildren(type(dialog.detail))  # no browser in the editor
        assert question == []
        focus = QApplication.focusWidget()
        qtbot.keyClicks(focus, " (reformulee)")
        editor_dialog.accept()

    QTimer.singleShot(50, edit_and_close)
    qtbot.keyClick(table, Qt.Key.Key_E)
    assert decisions(queued)[2] == ("GEN003", "edited", "reviewed")
    assert rows(queued, "SELECT question FROM cases WHERE key = 'GEN003'") == [
        ("Qui signe ? (reformulee)",)]
    # Each decision is one undoable step.
    window.undo.undo()
    assert decisions(queued)[2] == ("GEN003", "pending", "draft")
    dialog.close()


def test_import_dialog_preview_mapping_and_import(qtbot, window: MainWindow,
                                                  goldset_path: Path, tmp_path: Path) -> None:
    source = tmp_path / "maison.csv"
    source.write_text("Libellé;Attendu;Thème\nUne ?;Oui;rh\nDeux ?;Non;paie\n",
                      encoding="utf-8")
    dialog = ImportDialog(window.ctx, "cases", source, window)
    qtbot.addWidget(dialog)
    assert dialog.mapping() == {"tags": "Thème"}  # only "Thème" is a known header
    dialog.start()  # no question column: refused with a message, nothing runs
    assert dialog.worker is None and "question" in dialog.warnings.text()
    dialog.set_field(0, "question")
    dialog.set_field(1, "reference_answer")
    dialog.start()
    qtbot.waitUntil(lambda: dialog.report is not None or dialog.error is not None,
                    timeout=10000)
    assert dialog.error is None
    assert rows(goldset_path, "SELECT question, reference_answer, tags FROM cases WHERE "
                              "key LIKE 'Q0%' ORDER BY key") == [("Une ?", "Oui", '["rh"]'),
                                                                 ("Deux ?", "Non", '["paie"]')]
    assert window.sections[0].model.rowCount() == 5
    # The mapping is remembered for this header set.
    key = header_set_key(["Libellé", "Attendu", "Thème"])
    assert window.settings.column_mappings[key]["question"] == "Libellé"
    again = ImportDialog(window.ctx, "cases", source, window)
    qtbot.addWidget(again)
    assert again.mapping() == {"question": "Libellé", "reference_answer": "Attendu",
                               "tags": "Thème"}
    # The import is one step of undo.
    assert window.undo.undo()
    assert rows(goldset_path, "SELECT count(*) FROM cases") == [(3,)]


def test_import_dialog_cancel_leaves_the_file_unchanged(qtbot, window: MainWindow,
                                                        goldset_path: Path,
                                                        tmp_path: Path) -> None:
    source = tmp_path / "long.csv"
    source.write_text("Question\n" + "".join(f"Q {i} ?\n" for i in range(20000)),
                      encoding="utf-8")
    before = rows(goldset_path, "SELECT count(*) FROM operations")
    dialog = ImportDialog(window.ctx, "cases", source, window)
    qtbot.addWidget(dialog)
    dialog.start()
    dialog.cancel()
    assert dialog.wait_done()
    qtbot.waitUntil(lambda: dialog.report is not None or dialog.error is not None,
                    timeout=10000)
    assert dialog.error is not None and "cancelled" in dialog.error
    assert rows(goldset_path, "SELECT count(*) FROM cases") == [(3,)]
    assert rows(goldset_path, "SELECT count(*) FROM operations") == before


def test_open_import_dialog_with_a_given_file(qtbot, window: MainWindow, goldset_path: Path,
                                              tmp_path: Path, modals: ModalCatcher) -> None:
    from rag_annotator.ui.exchange.import_dialog import open_import_dialog

    source = tmp_path / "t.jsonl"
    source.write_text('{"user_input": "Une ?"}\n', encoding="utf-8")
    modals.expect()  # the dialog is modal: closed unused, nothing imported
    dialog = open_import_dialog(window, window.ctx, "ragas-testset", source)
    assert dialog is not None and dialog.report is None
    assert rows(goldset_path, "SELECT count(*) FROM case_reviews") == [(0,)]
    assert dialog.windowTitle() == "Import a generated test set"
