"""The rights matrix in the Corpus section, keyboard only, and its "what if" dialog."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from rag_annotator.import_export.sample import create_sample
from rag_annotator.ui.sections.rights_matrix import FIXED
from rag_annotator.ui.sections.rights_replay import ReplayDialog
from tests.ui.driving import open_window

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def _matrix(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "files" / "s.goldset"
    path.parent.mkdir(exist_ok=True)
    create_sample(path).close()
    window = open_window(qtbot, path)
    qtbot.keyClick(window, Qt.Key.Key_2, CTRL)
    corpus = window.sections[1]
    qtbot.keyClick(corpus, Qt.Key.Key_X, CTRL_SHIFT)
    matrix = corpus.matrix
    qtbot.waitUntil(lambda: matrix.table.hasFocus() and matrix.model.rowCount() == 20)
    return window, matrix


def test_keyboard_toggle_of_a_cell_and_ctrl_z_restores_it(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                         english: None) -> None:
    window, matrix = _matrix(qtbot, tmp_path)
    table = matrix.table
    names = [i.name for i in matrix.model.shown]
    assert names[:3] == ["salarie", "manager", "rh"]
    # keyboard only: down to RH-SAL-2025, right to the manager column
    while matrix.model.row_at(table.currentIndex().row())["key"] != "RH-SAL-2025":
        qtbot.keyClick(table, Qt.Key.Key_Down)
    while table.currentIndex().column() != FIXED + names.index("manager"):
        qtbot.keyClick(table, Qt.Key.Key_Right)
    index = table.currentIndex()
    assert matrix.model.data(index).endswith("forbidden")
    qtbot.keyClick(table, Qt.Key.Key_Space)
    stored = window.store.by_key("documents", "RH-SAL-2025")
    assert json.loads(stored["rights"]) == ["rh", "manager"]
    assert matrix.model.data(table.currentIndex()).endswith("allowed")
    # the salarie column did not change: its groups are not the manager's
    row = table.currentIndex().row()
    assert matrix.model.data(matrix.model.index(row, FIXED)).endswith("forbidden")
    qtbot.keyClick(table, Qt.Key.Key_Z, CTRL)
    assert json.loads(window.store.by_key("documents", "RH-SAL-2025")["rights"]) == ["rh"]
    assert matrix.model.data(matrix.model.index(row, FIXED + 1)).endswith("forbidden")


def test_filters_by_document_and_identity(qtbot, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    _window, matrix = _matrix(qtbot, tmp_path)
    matrix.search.setText("RH-SAL")
    matrix.reload()
    assert matrix.model.rowCount() == 1
    matrix.identity_combo.setCurrentIndex(matrix.identity_combo.findData("rh"))
    matrix.reload()
    assert [i.name for i in matrix.model.shown] == ["rh"]
    assert matrix.model.columnCount() == FIXED + 1


def test_replay_dialog_lists_the_answers_and_applies(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                    english: None) -> None:
    window, matrix = _matrix(qtbot, tmp_path)
    seen: dict[str, object] = {}

    def inspect() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ReplayDialog):
            QTimer.singleShot(20, inspect)
            return
        dialog.identity.setCurrentIndex(dialog.identity.findData("manager"))
        dialog.group.setCurrentIndex(dialog.group.findData("manager"))
        seen["answers"] = {(r["run"], r["case"]) for r in dialog.answers.rows}
        seen["figures"] = dialog.figures.rowCount()
        dialog.apply_button.click()

    QTimer.singleShot(0, inspect)
    qtbot.keyClick(matrix.table, Qt.Key.Key_P, CTRL_SHIFT)
    assert seen["answers"] == {("bm25-gpt4o-v1", "Q16"), ("bm25-gpt4o-v1", "Q18"),
                               ("hybride-mistral-v2", "Q16"), ("hybride-mistral-v2", "Q18")}
    assert seen["figures"]
    manager = next(r for r in window.store.identity_rows() if r["name"] == "manager")
    assert manager["groups"] == ["tous"]
    window.activateWindow()  # the dialog is gone: the window is active again
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(matrix.table, Qt.Key.Key_Z, CTRL)
    manager = next(r for r in window.store.identity_rows() if r["name"] == "manager")
    assert manager["groups"] == ["tous", "manager"]


def test_dashboard_exposure_panel(qtbot, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    window, _shown = _matrix(qtbot, tmp_path)
    qtbot.keyClick(window, Qt.Key.Key_6, CTRL)
    dashboard = window.sections[5]
    dashboard.run_combo.setCurrentIndex(dashboard.run_combo.findData("hybride-mistral-v2"))
    panel = dashboard.exposure_panel
    qtbot.waitUntil(lambda: dashboard.figures is not None
                    and dashboard.figures.run == "hybride-mistral-v2")
    rows = [panel.table.verticalHeaderItem(r).text() for r in range(panel.table.rowCount())]
    assert rows == ["manager", "rh", "salarie"]
    header = [panel.table.horizontalHeaderItem(c).text()
              for c in range(panel.table.columnCount())]
    cited = panel.table.item(rows.index("salarie"), header.index("Cited"))
    assert cited.text() == "1" and panel.table.cases_of(cited) == ["Q08"]
    assert panel.outcomes.columnCount() == 3


def test_verify_shows_the_three_outcomes_apart(qtbot, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    window, _shown = _matrix(qtbot, tmp_path)
    store = window.store
    answer = store.query("SELECT a.id FROM answers a JOIN runs r ON r.id = a.run_id "
                         "JOIN cases c ON c.id = a.case_id WHERE r.name = 'hybride-mistral-v2' "
                         "AND c.key = 'Q08'")[0]["id"]
    qtbot.keyClick(window, Qt.Key.Key_5, CTRL)
    verify = window.sections[4]
    verify.show_answer(answer)
    text = verify.case_view.toPlainText()
    assert "Three outcomes, kept apart" in text
    assert ("wrong answer: yes · missing evidence: no · out-of-scope exposure: ⚠ retrieved: "
            "RH-SAL-2025, RH-MGR-2025; cited: RH-SAL-2025") in text


def _answer(texts: list[str]) -> None:
    """Type each text into the next line dialogs, in order, and save."""
    from rag_annotator.ui.line_dialog import LineDialog

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, LineDialog):
            QTimer.singleShot(10, step)
            return
        dialog.field.setText(texts.pop(0))
        dialog.accept()
        if texts:
            QTimer.singleShot(10, step)

    QTimer.singleShot(0, step)


def test_identities_are_added_regrouped_renamed_and_removed_undoably(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None) -> None:
    window, matrix = _matrix(qtbot, tmp_path)
    store = window.store

    def names() -> list[str]:
        return [r["name"] for r in store.identity_rows()]

    _answer(["direction", "tous, direction"])
    matrix._buttons["add"].click()
    assert names() == ["salarie", "manager", "rh", "direction"]
    assert [i.name for i in matrix.model.shown][3] == "direction"
    column = FIXED + 3
    matrix.table.setCurrentIndex(matrix.model.index(0, column))
    _answer(["tous, direction, rh"])
    matrix._buttons["groups"].click()
    assert store.identity_rows()[3]["groups"] == ["tous", "direction", "rh"]
    row = next(r for r in range(matrix.model.rowCount())
               if matrix.model.row_at(r)["key"] == "RH-SAL-2025")
    assert matrix.model.data(matrix.model.index(row, column)).endswith("allowed")
    matrix.table.setCurrentIndex(matrix.model.index(0, FIXED + 1))
    _answer(["encadrant"])
    matrix._buttons["rename"].click()
    assert names()[1] == "encadrant" and store.by_key("cases", "Q16")["role"] == "encadrant"
    matrix._buttons["remove"].click()
    assert "encadrant" not in names()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    for _ in range(4):
        qtbot.keyClick(matrix.table, Qt.Key.Key_Z, CTRL)
    assert names() == ["salarie", "manager", "rh"]
    assert store.by_key("cases", "Q16")["role"] == "manager"


def test_what_if_on_the_current_cell(qtbot, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    """Any matrix change replays: opening RH-SAL-2025 to the salarie identity (the cell
    toggled as a what-if) removes the Q08 citation's exposure and adds none."""
    window, matrix = _matrix(qtbot, tmp_path)
    row = next(r for r in range(matrix.model.rowCount())
               if matrix.model.row_at(r)["key"] == "RH-SAL-2025")
    matrix.table.setCurrentIndex(matrix.model.index(row, FIXED))  # salarie
    seen: dict[str, object] = {}

    def inspect() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ReplayDialog):
            QTimer.singleShot(20, inspect)
            return
        dialog.mode.setCurrentIndex(dialog.mode.findData("cell"))
        seen["change"] = dict(dialog.change.document_rights)
        seen["gone"] = {(e.run, e.case, e.stage) for e in dialog.replayed.gone}
        seen["new"] = dialog.replayed.new
        dialog.reject()

    QTimer.singleShot(0, inspect)
    qtbot.keyClick(matrix.table, Qt.Key.Key_P, CTRL_SHIFT)
    assert seen["change"] == {"RH-SAL-2025": ("tous",)}  # salarie holds only an open group
    assert ("hybride-mistral-v2", "Q08", "cited") in seen["gone"] and seen["new"] == ()
    assert json.loads(window.store.by_key("documents", "RH-SAL-2025")["rights"]) == ["rh"]


def _answer_box(seen: list[str], button: str | None) -> None:
    """Read the next message box, then press its button named ``button`` (None: Esc)."""
    from PySide6.QtWidgets import QMessageBox

    tries = [300]  # 3 s: a box that never comes must not answer a later test's

    def step() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            tries[0] -= 1
            if tries[0] > 0:
                QTimer.singleShot(10, step)
            return
        seen.append(f"{box.windowTitle()}\n{box.text()}\n{box.informativeText()}")
        seen.append(box.defaultButton().text() if box.defaultButton() else "")
        chosen = next((b for b in box.buttons() if b.text().replace("&", "") == button), None)
        if chosen is None:
            box.reject()
        else:
            chosen.click()

    QTimer.singleShot(0, step)


def _focus(qtbot, window, widget) -> None:  # type: ignore[no-untyped-def]
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    widget.setFocus()


def test_space_that_opens_a_document_to_others_asks_first_and_names_them(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None) -> None:
    """salarie holds only the open group "tous": allowing it on the salary grid would open
    the grid to everyone (manager too).  Space asks first, naming who gains access; Esc (the
    default) changes nothing; Allow makes the change."""
    window, matrix = _matrix(qtbot, tmp_path)
    row = next(r for r in range(matrix.model.rowCount())
               if matrix.model.row_at(r)["key"] == "RH-SAL-2025")
    matrix.table.setCurrentIndex(matrix.model.index(row, FIXED))  # salarie

    def rights() -> list[str]:
        return list(json.loads(window.store.by_key("documents", "RH-SAL-2025")["rights"]))

    seen: list[str] = []
    _answer_box(seen, None)
    qtbot.keyClick(matrix.table, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: len(seen) == 2)
    assert rights() == ["rh"]
    question, default = seen
    assert "RH-SAL-2025" in question and "everyone" in question
    assert "salarie, manager" in question  # who gains access, by name
    assert "rh," not in question  # rh could read it already
    assert default == "Cancel"
    _focus(qtbot, window, matrix.table)  # offscreen, the closed box leaves no window active
    seen.clear()
    _answer_box(seen, "Allow")
    qtbot.keyClick(matrix.table, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: rights() == ["tous"])
    _focus(qtbot, window, matrix.table)
    # allowing manager only adds its own group: nobody else gets in, no question
    qtbot.keyClick(matrix.table, Qt.Key.Key_Z, CTRL)
    assert rights() == ["rh"]
    matrix.table.setCurrentIndex(matrix.model.index(row, FIXED + 1))  # manager
    qtbot.keyClick(matrix.table, Qt.Key.Key_Space)
    assert rights() == ["rh", "manager"]


def test_the_corpus_rights_field_asks_before_opening_a_document(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None) -> None:
    """Typing the open group into a document's Rights field is the same widening."""
    window, _matrix_view = _matrix(qtbot, tmp_path)
    corpus = window.sections[1]
    corpus.tabs.setCurrentIndex(0)
    corpus.search.setText("RH-SAL")
    corpus._apply_filters()
    assert corpus.document.get("key") == "RH-SAL-2025"
    seen: list[str] = []
    _answer_box(seen, None)
    corpus.rights.setText("rh, tous")
    corpus.commit("rights")
    assert "salarie, manager" in seen[0]
    assert json.loads(window.store.by_key("documents", "RH-SAL-2025")["rights"]) == ["rh"]
    assert corpus.rights.text() == "rh"  # the field shows what is stored
    seen.clear()
    _answer_box(seen, "Allow")
    corpus.rights.setText("rh, tous")
    corpus.commit("rights")
    assert json.loads(window.store.by_key("documents", "RH-SAL-2025")["rights"]) == [
        "rh", "tous"]
