"""The Verify section's structured answer, by keyboard only, in the real window (issue 17):
open a structured answer, move between decisive fields, confirm one and overrule one with a
reason; the file holds both and Ctrl+Z undoes each."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from rag_annotator.import_export.sample import create_sample
from rag_annotator.ui.line_dialog import LineDialog
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.verify.section import VerifySection
from rag_annotator.ui.verify.structured_panel import outcome_text
from tests.helpers import rows
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui

ASSESSOR = "Claire Dubois"
NONE = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def sample(goldset_path: Path) -> Path:
    create_sample(goldset_path, assessor=ASSESSOR).close()
    return goldset_path


def press(qtbot, section: VerifySection, key: Qt.Key,  # type: ignore[no-untyped-def]
          modifier: Qt.KeyboardModifier = NONE) -> None:
    """One key on the focused widget (after a dialog, once the window has it back)."""
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=2000)
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)


def in_dialog(qtbot, text: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Type ``text`` then Enter in the next modal LineDialog; returns its title once done."""
    seen: list[str] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not (isinstance(dialog, LineDialog) and dialog.field.hasFocus()):
            QTimer.singleShot(10, answer)
            return
        seen.append(dialog.windowTitle())
        qtbot.keyClicks(dialog.field, text)
        qtbot.keyClick(dialog.field, Qt.Key.Key_Return)
        if dialog.isVisible():
            seen.append("left open")
            dialog.reject()

    QTimer.singleShot(0, answer)
    return seen


def reviews(path: Path) -> list[tuple[object, ...]]:
    """(pointer, outcome, review, reason) of bm25's S01 answer, read from the file."""
    return rows(path, "SELECT f.pointer, o.outcome, o.review, o.review_reason "
                "FROM field_outcomes o JOIN decisive_fields f ON f.id = o.field_id "
                "JOIN answers a ON a.id = o.answer_id JOIN runs r ON r.id = a.run_id "
                "JOIN cases c ON c.id = a.case_id WHERE r.name = 'bm25-gpt4o-v1' "
                "AND c.key = 'S01' ORDER BY f.position")


def test_done_when_a_structured_answer_by_keyboard(qtbot, sample: Path,  # type: ignore[no-untyped-def]
                                                   english: None) -> None:
    win: MainWindow = open_window(qtbot, sample, assessor=ASSESSOR)
    qtbot.keyClick(win, Qt.Key.Key_5, CTRL)
    section = win.sections[4]
    assert isinstance(section, VerifySection)
    # O: the list of answers; Ctrl+Home, then Down to bm25's S01 (keys only), Enter opens it
    press(qtbot, section, Qt.Key.Key_O)
    assert section.answers_table.hasFocus()
    target = next(i for i, r in enumerate(section.answers.rows)
                  if r["run"] == "bm25-gpt4o-v1" and r["case_key"] == "S01")
    press(qtbot, section, Qt.Key.Key_Home, CTRL)
    for _ in range(target):
        press(qtbot, section, Qt.Key.Key_Down)
    press(qtbot, section, Qt.Key.Key_Return)
    assert section.context is not None and section.context["case_key"] == "S01"
    # D: the structured answer, its tree focused on the first decisive field
    press(qtbot, section, Qt.Key.Key_D)
    panel = section.structured
    assert panel.tree.hasFocus() and section.claim_tabs.currentWidget() is panel
    assert panel.current_field()["pointer"] == "/date_effet"
    assert "parses and satisfies the schema" in panel.status.text()
    # F twice: /plafond_mensuel, which differs (symbol and word, not colour alone)
    press(qtbot, section, Qt.Key.Key_F)
    press(qtbot, section, Qt.Key.Key_F)
    field = panel.current_field()
    assert field["pointer"] == "/plafond_mensuel"
    assert panel.tree.currentItem().text(1) == outcome_text("differs") == "✗ differs"
    assert "dans la limite de 40 € par mois" in panel.passage.toPlainText()
    # Shift+F back to /indemnite_jour; V confirms its "equal"
    press(qtbot, section, Qt.Key.Key_F, SHIFT)
    assert panel.current_field()["pointer"] == "/indemnite_jour"
    press(qtbot, section, Qt.Key.Key_V)
    # F: /plafond_mensuel again; Shift+V overrules "differs" with a typed reason
    press(qtbot, section, Qt.Key.Key_F)
    seen = in_dialog(qtbot, "avenant de 2025 : 50 euros")
    press(qtbot, section, Qt.Key.Key_V, SHIFT)
    qtbot.waitUntil(lambda: bool(seen))
    assert seen == ["Overrule the field's outcome"]
    assert reviews(sample)[1:3] == [
        ("/indemnite_jour", "equal", "confirmed", ""),
        ("/plafond_mensuel", "differs", "overruled", "avenant de 2025 : 50 euros")]
    assert panel.current_field()["pointer"] == "/plafond_mensuel"
    assert "overruled: avenant de 2025" in panel.tree.currentItem().text(1)
    # Ctrl+Z undoes each, last first
    press(qtbot, section, Qt.Key.Key_Z, CTRL)
    assert reviews(sample)[2][2:] == (None, "")
    assert reviews(sample)[1][2] == "confirmed"
    press(qtbot, section, Qt.Key.Key_Z, CTRL)
    assert [r[2] for r in reviews(sample)] == [None] * 6


def test_a_not_executed_field_cannot_be_overruled_and_says_why(  # type: ignore[no-untyped-def]
        qtbot, sample: Path, english: None) -> None:
    win: MainWindow = open_window(qtbot, sample, assessor=ASSESSOR)
    qtbot.keyClick(win, Qt.Key.Key_5, CTRL)
    section = win.sections[4]
    assert isinstance(section, VerifySection)
    qtbot.waitUntil(lambda: not section.queue_pending)  # the list is read in the background
    answer = next(r["id"] for r in section.answers.rows
                  if r["run"] == "hybride-mistral-v2" and r["case_key"] == "S02")
    section.show_answer(int(answer))
    press(qtbot, section, Qt.Key.Key_D)
    panel = section.structured
    assert "not strict JSON" in panel.status.text()
    assert [panel.tree.topLevelItem(i).text(0) for i in range(2)] == ["answer",
                                                                      "Not in the answer"]
    assert panel.tree.currentItem().text(1) == "– not executed"
    press(qtbot, section, Qt.Key.Key_V, SHIFT)  # no dialog: nothing to overrule
    assert "no outcome to overrule" in win.statusBar().currentMessage()


def test_the_dashboard_shows_the_structured_figures_of_the_run(  # type: ignore[no-untyped-def]
        qtbot, sample: Path, english: None) -> None:
    from rag_annotator.ui.dashboard.section import DashboardSection

    win: MainWindow = open_window(qtbot, sample, assessor=ASSESSOR)
    dashboard = win.sections[5]
    assert isinstance(dashboard, DashboardSection)
    win.show_section(5)
    qtbot.waitUntil(lambda: dashboard.figures is not None, timeout=3000)
    if dashboard.figures.run != "bm25-gpt4o-v1":
        with qtbot.waitSignal(dashboard.figures_shown, timeout=3000):
            dashboard.run_combo.setCurrentIndex(dashboard.run_combo.findData("bm25-gpt4o-v1"))
    panel = dashboard.structured_panel
    assert panel.isVisible()
    overall = dashboard.figures.structured.overall
    assert panel.table.text_at("All families", "Answers") == str(overall.answers) == "3"
    assert panel.table.text_at("All families", "Contract broken") == "1"
    assert panel.table.text_at("All families", "Document missing") == "1"
    assert panel.table.text_at("All families", "Right document, wrong field") == "1"
    assert panel.fields.text_at("/plafond_mensuel", "Accuracy") == "0.0%"
    assert panel.fields.text_at("/valeur_faciale", "Not executed") == "1"


def test_the_contract_dialog_edits_a_case_s_contract_undoably(  # type: ignore[no-untyped-def]
        qtbot, sample: Path, english: None) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from rag_annotator.ui.goldset.contract_dialog import ContractDialog
    from rag_annotator.ui.goldset.section import GoldSetSection

    win: MainWindow = open_window(qtbot, sample, assessor=ASSESSOR)
    qtbot.keyClick(win, Qt.Key.Key_1, CTRL)
    section = win.sections[0]
    assert isinstance(section, GoldSetSection)
    section.search.setText("S01")
    qtbot.waitUntil(lambda: section.model.rowCount() == 1, timeout=2000)
    section.table.selectRow(0)
    section.table.setFocus()
    assert section.editor.case["key"] == "S01"
    seen: list[str] = []

    def edit() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ContractDialog):
            QTimer.singleShot(10, edit)
            return
        text = dialog.editor.toPlainText()
        seen.append(dialog.problem.text())
        dialog.editor.setPlainText(text.replace('"reference": 40', '"reference": 50'))
        seen.append(dialog.problem.text())
        dialog.editor.setPlainText(text.replace('"pointer": "/jours_max"',
                                                '"pointer": "jours_max"'))
        save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
        seen.append(f"{save.isEnabled()} {dialog.problem.text()}")
        dialog.editor.setPlainText(text.replace('"reference": 40', '"reference": 50'))
        qtbot.keyClick(dialog.editor, Qt.Key.Key_Tab)  # Tab leaves the text for the buttons
        save.click()

    QTimer.singleShot(0, edit)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_K, CTRL | SHIFT)
    assert seen[0] == seen[1] == "✓ The contract is valid."
    assert seen[2].startswith("False ✗ 'jours_max' is not a JSON Pointer")
    # the bm25 answer said 50, now the reference, but no passage says 50 (checked on save)
    assert reviews(sample)[2][:2] == ("/plafond_mensuel", "not_supported")
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=2000)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z, CTRL)
    assert reviews(sample)[2][:2] == ("/plafond_mensuel", "differs")
