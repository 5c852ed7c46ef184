"""The Agents section by keyboard: review three trajectories (seed 000), overrule a check
with its reason, undo; the broken steps highlighted; Esc stores nothing; empty states."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QSplitter

from rag_annotator.domain import operations as ops
from rag_annotator.domain.agent_checks import evaluate_row
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.agents.section import AgentsSection
from rag_annotator.ui.agents.widgets import (
    BAD,
    BROKEN_ROLE,
    ChecksModel,
    StateModel,
    StepsModel,
)
from rag_annotator.ui.line_dialog import LineDialog
from rag_annotator.ui.look import colours
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.sections.base import current_row
from rag_annotator.ui.sections.history import HistorySection
from tests.helpers import rows
from tests.ui.agent_data import RUN, build_agents
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def agents_file(goldset_path: Path) -> Path:
    return build_agents(goldset_path)


@pytest.fixture
def win(qtbot, agents_file: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, agents_file)


def agents(qtbot, window: MainWindow) -> AgentsSection:  # type: ignore[no-untyped-def]
    """Ctrl+8, as a user would press it."""
    qtbot.keyClick(window, Qt.Key.Key_8, Qt.KeyboardModifier.ControlModifier)
    section = window.current_section()
    assert isinstance(section, AgentsSection)
    assert section.table.hasFocus()
    return section


def press(qtbot, key: Qt.Key,  # type: ignore[no-untyped-def]
          modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """One key on the focused widget (after a dialog, once the window has it back)."""
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=2000)
    widget = QApplication.focusWidget()
    assert widget is not None
    qtbot.keyClick(widget, key, modifier)


def in_dialog(qtbot, keys: Callable[[LineDialog], None]) -> list[str]:  # type: ignore[no-untyped-def]
    """Answer the next modal LineDialog with ``keys`` (typed on its focused field); returns
    the prompt it showed."""
    seen: list[str] = []
    tries = [0]

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        tries[0] += 1
        ready = isinstance(dialog, LineDialog) and dialog.field.hasFocus()
        if not ready and tries[0] < 300:  # shown, and the keyboard in its field
            QTimer.singleShot(10, answer)
            return
        assert isinstance(dialog, LineDialog)
        seen.append(dialog.windowTitle())
        try:
            keys(dialog)
        finally:
            if dialog.isVisible():  # never leave the test waiting on a modal dialog
                seen.append("left open")
                dialog.reject()

    QTimer.singleShot(0, answer)
    return seen


def typed(qtbot, text: str, final: Qt.Key) -> Callable[[LineDialog], None]:  # type: ignore[no-untyped-def]
    def keys(dialog: LineDialog) -> None:
        assert dialog.field.hasFocus()
        qtbot.keyClicks(dialog.field, text)
        qtbot.keyClick(dialog.field, final)
    return keys


def reviews(path: Path) -> dict[str, tuple[object, ...]]:
    """Case key → (task_success, success_reason, path_acceptable, path_reason, note),
    read by a separate read-only connection (no text reads "")."""
    found = rows(path, "SELECT c.key, v.task_success, v.success_reason, v.path_acceptable, "
                 "v.path_reason, v.note FROM trajectory_reviews v "
                 "JOIN trajectories t ON t.id = v.trajectory_id "
                 "JOIN cases c ON c.id = t.case_id ORDER BY c.key")
    return {r[0]: (r[1], r[2] or "", r[3], r[4] or "", r[5] or "") for r in found}


def current_key(section: AgentsSection) -> str:
    assert section.detail is not None
    return str(section.detail["case_key"])


def test_done_when_three_trajectories_by_keyboard_one_overruled_then_undone(
        qtbot, win: MainWindow, agents_file: Path) -> None:
    section = agents(qtbot, win)
    assert section.model.rowCount() == 3 and current_key(section) == "A01"
    # A01 is clean: Enter confirms both automatic verdicts and goes on
    press(qtbot, Qt.Key.Key_Return)
    assert reviews(agents_file) == {"A01": (1, "", 1, "", "")}
    assert current_key(section) == "A02"
    # A02 called supprimer_compte at step 2: Enter confirms "path not acceptable"
    press(qtbot, Qt.Key.Key_Return)
    assert reviews(agents_file)["A02"] == (1, "", 0, "", "")
    assert current_key(section) == "A03"
    # A03 reversed the order: the reviewer finds the path acceptable (A), which overrules
    # the check: the dialog asks why; Enter saves the mark with its reason
    seen = in_dialog(qtbot, typed(qtbot, "identity checked by phone first", Qt.Key.Key_Return))
    press(qtbot, Qt.Key.Key_A)
    assert seen == ["Overrule the automatic check"]
    assert reviews(agents_file)["A03"] == (None, "", 1,
                                           "identity checked by phone first", "")
    assert current_key(section) == "A03"  # a mark stays on the trajectory
    assert "identity checked by phone first" in section.review.text()
    # Enter confirms the verdict left (success: no, the category differs); all reviewed
    press(qtbot, Qt.Key.Key_Return)
    assert reviews(agents_file)["A03"] == (0, "", 1, "identity checked by phone first", "")
    assert "0 to review" in section.count.text()
    assert section.model.data(section.model.index(2, 6)) == "overruled"

    # Ctrl+Z: the last confirmation, then the overruling mark, each one step
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert reviews(agents_file)["A03"] == (None, "", 1, "identity checked by phone first",
                                           "")
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "A03" not in reviews(agents_file)
    assert set(reviews(agents_file)) == {"A01", "A02"}
    assert "1 to review" in section.count.text()
    assert "identity checked" not in section.review.text()
    # every change is in the History under its title
    qtbot.keyClick(win, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)
    history = win.current_section()
    assert isinstance(history, HistorySection)
    titles = [history.model.data(history.model.index(r, 2))
              for r in range(history.model.rowCount())]
    assert "Confirm automatic checks" in titles and "Review trajectory" in titles
    assert "Import trajectories" in titles


def test_the_broken_step_is_highlighted_with_its_check(qtbot, win: MainWindow) -> None:
    section = agents(qtbot, win)
    press(qtbot, Qt.Key.Key_J)
    assert current_key(section) == "A02"
    steps = section.steps
    assert steps.rowCount() == 4
    broken = steps.index(1, 0)  # step 2 called the forbidden tool
    assert steps.data(broken, BROKEN_ROLE) == ["forbidden tool supprimer_compte"]
    assert steps.data(broken, Qt.ItemDataRole.BackgroundRole).color().name() == colours.css_bg(BAD)
    assert steps.data(steps.index(1, 4)) == "forbidden tool supprimer_compte"
    assert section.checks.data(section.checks.index(0, 0)) == (
        "forbidden tool supprimer_compte called at step 2")
    for clean in (0, 2, 3):
        assert steps.data(steps.index(clean, 0), BROKEN_ROLE) == []
        assert steps.data(steps.index(clean, 0), Qt.ItemDataRole.BackgroundRole) is None
    press(qtbot, Qt.Key.Key_J)  # A03: modifier_offre came before verifier_identite
    assert steps.data(steps.index(0, 0), BROKEN_ROLE) == [
        "modifier_offre before verifier_identite"]
    checks = {section.checks.data(section.checks.index(r, 0)):
              section.checks.data(section.checks.index(r, 1))
              for r in range(section.checks.rowCount())}
    assert checks["forbidden tool supprimer_compte never called"] == "held"
    assert checks["tokens budget 4000: not given by the trajectory"] == "cannot tell"
    state = [(section.state.data(section.state.index(r, 0)),
              section.state.data(section.state.index(r, 3)))
             for r in range(section.state.rowCount())]
    assert state == [("ticket.category", "differs"), ("ticket.client", "equal")]
    assert section.state.data(section.state.index(0, 0),
                              Qt.ItemDataRole.BackgroundRole).color().name() == colours.css_bg(BAD)
    # the first broken step is selected, its arguments and result shown whole; H / L move
    assert current_row(section.steps_table) == 0
    assert "modifier_offre before verifier_identite" in section.step_detail.toPlainText()
    press(qtbot, Qt.Key.Key_L)
    assert current_row(section.steps_table) == 1
    detail = section.step_detail.toPlainText()
    assert "Step 2 · verifier_identite" in detail and '"methode": "sms"' in detail
    assert "identité vérifiée (client C-42)" in detail
    press(qtbot, Qt.Key.Key_H)
    press(qtbot, Qt.Key.Key_H)  # stays on the first step
    assert current_row(section.steps_table) == 0
    assert section.table.hasFocus()  # the review keys keep working
    press(qtbot, Qt.Key.Key_K)
    press(qtbot, Qt.Key.Key_K)
    assert current_key(section) == "A01"
    assert current_row(section.steps_table) == -1  # a clean trajectory: no step picked


def test_esc_in_the_reason_dialog_stores_nothing(qtbot, win: MainWindow,
                                                 agents_file: Path) -> None:
    section = agents(qtbot, win)
    press(qtbot, Qt.Key.Key_J)  # A02: path not acceptable by the checks
    stack = win.undo.stack.count()
    in_dialog(qtbot, typed(qtbot, "half a reason", Qt.Key.Key_Escape))
    press(qtbot, Qt.Key.Key_A)
    assert reviews(agents_file) == {}
    assert win.undo.stack.count() == stack
    # Enter on an empty reason does not save either; Esc then leaves
    def empty_then_escape(dialog: LineDialog) -> None:
        qtbot.keyClick(dialog.field, Qt.Key.Key_Return)
        assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
        qtbot.keyClick(dialog.field, Qt.Key.Key_Escape)
    in_dialog(qtbot, empty_then_escape)
    press(qtbot, Qt.Key.Key_A)
    assert reviews(agents_file) == {}
    # a mark that agrees with the checks needs no reason: X (path not acceptable)
    press(qtbot, Qt.Key.Key_X)
    assert reviews(agents_file)["A02"] == (None, "", 0, "", "")
    press(qtbot, Qt.Key.Key_X)  # the same key again clears the mark
    assert reviews(agents_file)["A02"][2] is None
    assert section.table.hasFocus()


def test_marks_note_clear_and_navigation(qtbot, win: MainWindow, agents_file: Path) -> None:
    section = agents(qtbot, win)
    press(qtbot, Qt.Key.Key_Y)  # agrees with the final state
    press(qtbot, Qt.Key.Key_A)
    assert reviews(agents_file)["A01"] == (1, "", 1, "", "")
    in_dialog(qtbot, typed(qtbot, "fast and clean", Qt.Key.Key_Return))
    press(qtbot, Qt.Key.Key_E)
    assert reviews(agents_file)["A01"][4] == "fast and clean"
    in_dialog(qtbot, typed(qtbot, " but costly", Qt.Key.Key_Escape))
    press(qtbot, Qt.Key.Key_E)  # Esc: the note is kept as it was
    assert reviews(agents_file)["A01"][4] == "fast and clean"
    assert "fast and clean" in section.review.text()
    press(qtbot, Qt.Key.Key_J, SHIFT)  # next to review
    assert current_key(section) == "A02"
    press(qtbot, Qt.Key.Key_K)
    press(qtbot, Qt.Key.Key_U)  # clear the review of A01
    assert reviews(agents_file) == {}
    win.undo.undo()
    assert reviews(agents_file)["A01"][4] == "fast and clean"
    # T lists only the trajectories to review
    press(qtbot, Qt.Key.Key_T)
    assert section.to_review.isChecked()
    assert section.model.rowCount() == 3  # the current one stays listed
    press(qtbot, Qt.Key.Key_J)
    press(qtbot, Qt.Key.Key_T)
    press(qtbot, Qt.Key.Key_T)
    assert section.model.rowCount() == 2 and current_key(section) == "A02"
    # Ctrl+F: the search field; typing a case key narrows the list, Enter back to the list
    press(qtbot, Qt.Key.Key_T)
    qtbot.keyClick(win, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert section.search.hasFocus()
    qtbot.keyClicks(section.search, "a03")  # letters go to the field, not to the keys
    qtbot.keyClick(section.search, Qt.Key.Key_Return)
    assert section.model.rowCount() == 1 and current_key(section) == "A03"
    assert section.table.hasFocus() and reviews(agents_file).keys() == {"A01"}


def test_empty_states_say_what_to_do(qtbot, goldset_path: Path, english: None) -> None:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        ops.create_case(store, key="Q1", question="?")
    window = open_window(qtbot, goldset_path)
    section = agents(qtbot, window)
    assert section.empty.isVisible() and not section.split.isVisible()
    assert "No agent case" in section.empty.text()
    assert "rag-annotator import FILE trajectories SOURCE --run NAME" in section.empty.text()
    ops.create_case(window.store, key="A01", kind="agent", question="go")
    section.refresh()
    assert "No trajectory to review yet" in section.empty.text()
    press(qtbot, Qt.Key.Key_Return)  # nothing to act on: no error
    press(qtbot, Qt.Key.Key_Y)


def test_runs_are_chosen_and_imported_trajectories_appear(qtbot, win: MainWindow,
                                                          agents_file: Path) -> None:
    from rag_annotator.domain import agent_ops
    from tests.ui.agent_data import FINAL, steps

    section = agents(qtbot, win)
    assert section.run.currentData() == RUN
    win.undo.run(lambda s: agent_ops.import_trajectories(s, "agent-v2", [
        agent_ops.TrajectoryInput("A01", steps("verifier_identite", "modifier_offre"),
                                  FINAL)]))
    qtbot.waitUntil(lambda: section.run.count() == 3)  # all runs, agent-v1, agent-v2
    press(qtbot, Qt.Key.Key_R)  # the list of runs opens; Down, Enter picks agent-v2
    qtbot.waitUntil(lambda: section.run.view().isVisible())
    qtbot.keyClick(section.run.view(), Qt.Key.Key_Down)
    qtbot.keyClick(section.run.view(), Qt.Key.Key_Return)
    assert section.run.currentData() == "agent-v2"
    assert section.model.rowCount() == 1 and current_key(section) == "A01"
    qtbot.waitUntil(lambda: section.table.hasFocus())
    section.run.setCurrentIndex(0)
    assert section.model.rowCount() == 4 and not section.table.isColumnHidden(0)
    win.undo.undo()
    qtbot.waitUntil(lambda: section.run.count() == 2)
    assert section.model.rowCount() == 3


def test_a_case_edit_reevaluates_the_trajectory_shown(qtbot, win: MainWindow,
                                                      agents_file: Path) -> None:
    section = agents(qtbot, win)
    press(qtbot, Qt.Key.Key_J)
    press(qtbot, Qt.Key.Key_J)  # A03: the category differs, the order is reversed
    assert section.evaluation is not None and section.evaluation.task_success is False
    case_id = int(win.store.by_key("cases", "A03")["id"])
    win.undo.run(lambda s: ops.edit_case(s, case_id, expected_state="ticket.client = C-42",
                                         tool_order=""))
    assert current_key(section) == "A03"
    assert section.evaluation.task_success is True
    assert section.evaluation.path_acceptable is True
    assert section.steps.data(section.steps.index(0, 0), BROKEN_ROLE) == []
    assert section.model.data(section.model.index(2, 4)) == "yes"
    # a case that states nothing checkable: Enter confirms nothing and says what to do
    win.undo.run(lambda s: ops.edit_case(s, case_id, expected_state="", forbidden_tools="",
                                         max_steps=None, max_tokens=None))
    press(qtbot, Qt.Key.Key_Return)
    assert "A03" not in reviews(agents_file)
    assert "mark task success with Y or N" in win.statusBar().currentMessage()
    press(qtbot, Qt.Key.Key_N)  # no automatic verdict: a mark needs no reason
    press(qtbot, Qt.Key.Key_A)
    assert reviews(agents_file)["A03"] == (0, "", 1, "", "")


def test_a_selected_trajectory_keeps_its_verdict_colours(qtbot, win: MainWindow) -> None:
    """The selected row's Success / Path cells still show green or red (the selection is a
    frame around them), where a plain selection fill would hide the verdict."""
    section = agents(qtbot, win)
    press(qtbot, Qt.Key.Key_J)  # A02: path not acceptable (supprimer_compte at step 2)
    table, model = section.table, section.model
    row = table.currentIndex().row()
    path = model.index(row, 5)
    assert model.data(path, Qt.ItemDataRole.BackgroundRole).color().name() == colours.css_bg(BAD)
    assert table.selectionModel().isSelected(path)
    image = table.viewport().grab().toImage()
    centre = table.visualRect(path).center()
    assert image.pixelColor(centre).name() == colours.css_bg(BAD)
    highlight = table.palette().color(table.palette().ColorRole.Highlight).name()
    review = table.visualRect(model.index(row, 6))  # an ordinary cell keeps the fill
    assert image.pixelColor(review.left() + 2, review.center().y()).name() == highlight


def test_enter_reads_back_only_the_review_it_wrote(qtbot, win: MainWindow,
                                                    agents_file: Path) -> None:
    """Issue 19: Enter writes one review and reads back that review row, not the trajectory
    with its steps; the next trajectory was read while the current one was on screen."""
    section = agents(qtbot, win)
    store = win.store
    assert store is not None
    qtbot.wait(20)  # the next trajectory to review is read once this one is shown
    marked = section.trajectory_id()
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    press(qtbot, Qt.Key.Key_Return)
    store._conn.set_trace_callback(None)
    assert section.trajectory_id() != marked
    # (the operation itself reads the steps it evaluates; the section reads none)
    assert not [s for s in statements if s.startswith("SELECT position, tool")], statements
    review = rows(agents_file, "SELECT task_success, path_acceptable FROM trajectory_reviews "
                               "WHERE trajectory_id = ?", (marked,))
    assert len(review) == 1 and None not in review[0]
    entry = section.queue[section._queue_index[marked]]
    assert (entry["task_success"], entry["path_acceptable"]) == tuple(review[0])


def _cells(model: QAbstractItemModel) -> list[list[object]]:
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def test_enter_swaps_in_the_next_trajectory_read_while_idle(qtbot, win: MainWindow,
                                                             agents_file: Path) -> None:
    """Issue 19: once a trajectory is painted the next one is read and rendered; Enter then
    commits its one review and swaps the prepared panes in: no read of the next trajectory,
    no model reset, no layout of the section or its splitters; and the panes show what a
    fresh read of that trajectory shows."""
    section = agents(qtbot, win)
    store = win.store
    assert store is not None
    qtbot.wait(100)  # the window laid out, the trajectory painted, the next one read
    assert section._ahead.ids
    resets: list[str] = []
    for name in ("model", "steps", "checks", "state"):
        getattr(section, name).modelReset.connect(lambda n=name: resets.append(n))
    layouts: list[str] = []

    class Spy(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
            if event.type() == QEvent.Type.LayoutRequest:
                layouts.append(type(watched).__name__)
            return False

    spy = Spy()
    for widget in (section, section.split, *section.split.findChildren(QSplitter)):
        widget.installEventFilter(spy)
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    press(qtbot, Qt.Key.Key_Return)
    shown = section.trajectory_id()
    QApplication.processEvents()  # the repaint (and the read ahead after it)
    store._conn.set_trace_callback(None)
    assert current_key(section) == "A02" and reviews(agents_file)["A01"] == (1, "", 1, "", "")
    reads = [s for s in statements if s.startswith("SELECT")]
    before_commit = statements.index("COMMIT")
    after = [s for s in statements[before_commit + 1:] if f"= {shown}" in s]
    assert not after, after  # A02 was read before the key, not by it
    assert any("trajectory_reviews" in s for s in reads[-4:])  # the review written, read back
    assert resets == [] and layouts == [], (resets, layouts)

    fresh = store.trajectory_detail(int(shown))
    evaluation = evaluate_row(fresh)
    steps, checks, state = StepsModel(), ChecksModel(), StateModel()
    steps.set_steps(fresh["steps"], evaluation)
    checks.set_checks(evaluation.checks)
    state.set_state(evaluation.state)
    for mine, theirs in ((section.steps, steps), (section.checks, checks),
                         (section.state, state)):
        assert _cells(mine) == _cells(theirs)
    assert section.steps.data(section.steps.index(1, 0), BROKEN_ROLE) == [
        "forbidden tool supprimer_compte"]
    assert section.steps_table.currentIndex().row() == 1  # the broken step, in full below
    assert "supprimer_compte" in section.step_detail.toPlainText()
    assert "A02" in section.header.text() and "trajectory 2 of 3" in section.header.text()
    assert section.answer.toPlainText() == "C'est fait."
    assert "not reviewed" in section.review.text()
    assert "1 to review" not in section.count.text() and "2 to review" in section.count.text()


def test_a_case_edit_drops_what_was_read_ahead(qtbot, win: MainWindow) -> None:
    """The next trajectory read ahead is not shown stale after its case changed."""
    section = agents(qtbot, win)
    qtbot.waitUntil(lambda: len(section._ahead.ids) > 0, timeout=2000)
    case_id = int(win.store.by_key("cases", "A02")["id"])
    win.undo.run(lambda s: ops.edit_case(s, case_id, forbidden_tools=""))
    press(qtbot, Qt.Key.Key_J)
    assert current_key(section) == "A02"
    assert section.evaluation is not None and section.evaluation.path_acceptable is True
    assert section.steps.data(section.steps.index(1, 0), BROKEN_ROLE) == []
    assert "forbidden" not in section.step_detail.toPlainText()
