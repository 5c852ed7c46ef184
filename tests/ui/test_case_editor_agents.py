"""The case editor's agent fields: kind, expected final state, tools, order, budgets — each
saved on leaving the field as one undoable step, refused with the reason when invalid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from rag_annotator.ui.goldset.section import GoldSetSection
from rag_annotator.ui.main_window import MainWindow
from tests.helpers import rows
from tests.ui.agent_data import build_agents
from tests.ui.driving import ModalCatcher, open_window

pytestmark = pytest.mark.gui


@pytest.fixture
def win(qtbot, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    build_agents(goldset_path)
    return open_window(qtbot, goldset_path)


def goldset(qtbot, window: MainWindow, row: int) -> GoldSetSection:  # type: ignore[no-untyped-def]
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    section = window.sections[0]
    assert isinstance(section, GoldSetSection)
    section.table.selectRow(row)
    return section


def case(path: Path, key: str) -> dict[str, object]:
    names = ["kind", "expected_state", "forbidden_tools", "required_tools", "tool_order",
             "max_steps", "max_tokens", "max_seconds", "max_cost"]
    [found] = rows(path, f"SELECT {', '.join(names)} FROM cases WHERE key = ?", (key,))
    return dict(zip(names, found))


def leave(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """Tab out of the focused field (what saves it)."""
    widget = QApplication.focusWidget()
    assert widget is not None
    qtbot.keyClick(widget, Qt.Key.Key_Tab)


def test_agent_fields_round_trip_save_on_leaving_and_undo(qtbot, win: MainWindow,
                                                          goldset_path: Path) -> None:
    section = goldset(qtbot, win, 0)  # A01
    editor = section.editor
    assert editor.case["key"] == "A01" and editor.kind.currentData() == "agent"
    # agent fields shown, RAG-only ones hidden; the text forms of domain.agents
    assert editor.form.isRowVisible(editor.expected_state)
    assert not editor.form.isRowVisible(editor.reference_answer)
    assert not editor.form.isRowVisible(editor.source_box)
    assert editor.expected_state.toPlainText() == ("ticket.category = changement_offre\n"
                                                   "ticket.client = C-42")
    assert editor.tool_order.toPlainText() == "verifier_identite < modifier_offre"
    assert editor.forbidden_tools.text() == "supprimer_compte"
    assert (editor.max_steps.text(), editor.max_tokens.text(), editor.max_cost.text()) == (
        "6", "4000", "")
    stack = win.undo.stack.count()

    editor.focus_field("expected_state")
    qtbot.keyClick(editor.expected_state, Qt.Key.Key_Return)
    qtbot.keyClicks(editor.expected_state, "ticket.priority = 2")
    leave(qtbot, win)
    assert json.loads(str(case(goldset_path, "A01")["expected_state"])) == {
        "ticket.category": "changement_offre", "ticket.client": "C-42", "ticket.priority": 2}
    editor.required_tools.setFocus()
    qtbot.keyClicks(editor.required_tools, "creer_ticket, verifier_identite")
    leave(qtbot, win)
    editor.max_seconds.setFocus()
    qtbot.keyClicks(editor.max_seconds, "12,5")
    leave(qtbot, win)
    stored = case(goldset_path, "A01")
    assert json.loads(str(stored["required_tools"])) == ["creer_ticket", "verifier_identite"]
    assert stored["max_seconds"] == 12.5
    assert editor.max_seconds.text() == "12.5"
    assert win.undo.stack.count() == stack + 3  # one step per field
    # leaving a field unchanged stores nothing
    editor.max_steps.setFocus()
    leave(qtbot, win)
    assert win.undo.stack.count() == stack + 3

    win.undo.undo()
    assert case(goldset_path, "A01")["max_seconds"] is None
    assert editor.max_seconds.text() == ""
    win.undo.undo()
    win.undo.undo()
    assert json.loads(str(case(goldset_path, "A01")["expected_state"])) == {
        "ticket.category": "changement_offre", "ticket.client": "C-42"}
    assert "ticket.priority" not in editor.expected_state.toPlainText()


def test_invalid_agent_fields_are_refused_with_the_reason(qtbot, win: MainWindow,
                                                          goldset_path: Path,
                                                          modals: ModalCatcher) -> None:
    section = goldset(qtbot, win, 0)
    editor = section.editor
    before = case(goldset_path, "A01")
    for name, lines, words in (("tool_order", ["", "modifier_offre < modifier_offre"],
                                "cannot come before itself"),
                               ("max_steps", ["x"], "not a number"),
                               ("expected_state", ["", "no equals sign here"],
                                "is not 'key = value'")):
        win.activateWindow()  # back from the previous message box
        qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
        editor.focus_field(name)  # the keyboard lands after the text
        field = editor._text_fields[name]
        if name == "max_steps":
            qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        for i, line in enumerate(lines):
            if i:
                qtbot.keyClick(field, Qt.Key.Key_Return)
            qtbot.keyClicks(field, line)
        modals.expect()
        leave(qtbot, win)
        qtbot.waitUntil(lambda: not modals.pending)
        assert words in modals.texts[-1]
    assert case(goldset_path, "A01") == before
    assert editor.max_steps.text() == "6"  # the stored value shown again


def test_kind_switches_the_fields_and_the_list_shows_it(qtbot, win: MainWindow,
                                                        goldset_path: Path) -> None:
    section = goldset(qtbot, win, 3)  # Q1, a RAG case
    editor = section.editor
    assert editor.case["key"] == "Q1" and editor.kind.currentData() == "rag"
    assert section.model.data(section.model.index(3, 7)) == ""
    assert section.model.data(section.model.index(0, 7)) == "Agent"
    assert not editor.form.isRowVisible(editor.expected_state)
    assert editor.form.isRowVisible(editor.reference_answer)
    editor.kind.setFocus()
    qtbot.keyClick(editor.kind, Qt.Key.Key_Down)  # RAG → Agent, saved at once
    assert case(goldset_path, "Q1")["kind"] == "agent"
    assert editor.form.isRowVisible(editor.expected_state)
    assert not editor.form.isRowVisible(editor.reference_answer)
    assert editor.form.labelForField(editor.question).text() == "User's request"
    qtbot.waitUntil(lambda: section.model.data(section.model.index(3, 7)) == "Agent")
    win.undo.undo()
    assert case(goldset_path, "Q1")["kind"] == "rag"
    assert editor.form.isRowVisible(editor.reference_answer)


def test_alt_a_and_alt_m_reach_the_agent_fields_on_an_agent_case(qtbot, win: MainWindow) -> None:
    """The reference answer and must-contain fields are hidden on an agent case: their
    shortcuts reach the expected final state and the forbidden tools instead."""
    section = goldset(qtbot, win, 0)  # A01, an agent case
    editor = section.editor
    for key, field in ((Qt.Key.Key_A, editor.expected_state),
                       (Qt.Key.Key_M, editor.forbidden_tools)):
        qtbot.keyClick(section.table, key, Qt.KeyboardModifier.AltModifier)
        assert QApplication.focusWidget() is field


def test_empty_agent_fields_show_empty_without_the_agent_code() -> None:
    """What an empty field is stored as (``agent_column``) reads back empty, through the
    editor's shortcut for RAG cases and through the agent formatters alike."""
    from rag_annotator.domain import agents
    from rag_annotator.ui.goldset import case_editor

    for name, stored in case_editor._STORED_EMPTY.items():
        assert agents.agent_column(name, "") == stored
        assert case_editor.agent_text(name, stored) == ""
    assert agents.format_state({}) == "" and agents.format_order(iter([])) == ""
