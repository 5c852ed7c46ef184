"""A start that says what to do (issue 21, point 3): a new, empty gold set shows its three first
steps as buttons that open the existing import flows; each section with nothing to show says
what fills it, with the button that does; the steps go away once done or hidden."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_annotator.domain import operations
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.agents.section import AgentsSection
from rag_annotator.ui.dashboard.section import DashboardSection
from rag_annotator.ui.guide.empty import HINTS, hints_of, tr
from rag_annotator.ui.main_window import MainWindow
from tests.team_builders import make_team
from tests.ui.driving import ModalCatcher, open_window

pytestmark = pytest.mark.gui


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of file the import flows asked for (the file chooser is answered "cancel")."""
    kinds: list[str] = []

    def ask_source(_parent: object, kind: str, _start: str = "") -> None:
        kinds.append(kind)

    monkeypatch.setattr("rag_annotator.ui.exchange.import_dialog.ask_source", ask_source)
    return kinds


@pytest.fixture
def empty_window(window: MainWindow, tmp_path: Path) -> MainWindow:
    """The window on a new, empty gold set."""
    assert window.new_file(tmp_path / "nouveau")
    return window


def test_a_new_file_shows_three_steps_that_open_the_imports(
        qtbot, empty_window: MainWindow, asked: list[str], modals: ModalCatcher) -> None:  # type: ignore[no-untyped-def]
    steps = empty_window.start_steps
    assert steps.isVisible()
    assert list(steps.buttons) == ["cases", "documents", "run"]
    steps.buttons["cases"].click()
    steps.buttons["documents"].click()
    steps.folder_button.click()
    assert asked == ["cases", "corpus", "corpus-folder"]
    modals.expect()
    steps.buttons["run"].click()  # the Runs section's own dialog
    assert modals.titles == ["Import a Run"]
    assert empty_window.section_stack.currentIndex() == 2
    assert all(not state.text() for state in steps.states.values())


def test_each_done_step_is_marked_and_the_steps_leave_when_all_are(
        qtbot, empty_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    steps = empty_window.start_steps
    empty_window.undo.run(
        lambda s: operations.create_case(s, key="Q1", question="Combien de jours ?"))
    qtbot.waitUntil(lambda: steps.states["cases"].text() != "", timeout=2000)
    assert "1" in steps.states["cases"].text() and steps.isVisible()
    assert steps.states["documents"].text() == ""
    steps.hide_for_this_file()
    assert not steps.isVisible()
    empty_window.undo.undo()
    assert not steps.isVisible()  # hidden for this file, whatever changes


def test_a_full_file_shows_no_steps(window: MainWindow) -> None:
    assert window.store is not None and window.store.count("runs") > 0
    assert not window.start_steps.isVisible()


def test_a_full_file_opens_without_counting_its_tables(window: MainWindow, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Counting a 100,000-document table took 27 ms of the start-up (issue 19): a file that
    has cases, documents and runs is told apart with one row each, and nothing is counted."""
    store = window.store
    assert store is not None
    counted: list[str] = []
    monkeypatch.setattr(store, "count", lambda table: counted.append(table) or 1)
    window.start_steps.update_state()
    assert counted == [] and not window.start_steps.isVisible()


def test_each_empty_section_says_what_fills_it(qtbot, empty_window: MainWindow,  # type: ignore[no-untyped-def]
                                               asked: list[str]) -> None:
    for index in range(len(empty_window.sections)):
        empty_window.show_section(index)
        section = empty_window.sections[index]
        qtbot.wait(10)
        if isinstance(section, DashboardSection):
            assert section.empty.isVisible() and "import" in section.empty.text().lower()
            continue
        if isinstance(section, AgentsSection):
            assert section.empty.isVisible() and "Import" in section.empty.text()
            continue
        hints = hints_of(section)
        assert len(hints) == len(HINTS[index]) >= 1, type(section).__name__
        for hint, spec in zip(hints, HINTS[index]):
            qtbot.waitUntil(hint.isVisible, timeout=2000)
            assert hint.spec is spec and hint.label.text() == tr(spec.fill)
            assert hint.geometry() == hint.view.viewport().rect()
            assert [b.isVisible() for b in hint.buttons] == [True] * len(spec.imports)
    empty_window.show_section(1)
    [corpus] = hints_of(empty_window.sections[1])
    corpus.buttons[0].click()
    corpus.buttons[1].click()
    empty_window.show_section(3)
    judge_cases, _pairs = hints_of(empty_window.sections[3])
    judge_cases.buttons[0].click()
    assert asked == ["corpus", "corpus-folder", "cases"]


def test_a_search_that_hides_every_row_says_so_and_offers_no_import(
        qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.show_section(0)
    goldset = window.sections[0]
    # A list that shows rows gets no hint yet: making one reaches the list's viewport, which
    # costs PySide a search through every widget class (start-up, issue 19).
    assert hints_of(goldset) == []
    goldset.search.setText("zzz-nothing-like-this")
    goldset.search.returnPressed.emit()
    qtbot.waitUntil(lambda: len(hints_of(goldset)) == 1, timeout=2000)
    [hint] = hints_of(goldset)
    qtbot.waitUntil(hint.isVisible, timeout=2000)
    assert hint.geometry() == hint.view.viewport().rect()
    assert hint.label.text() == tr(HINTS[0][0].hidden)
    assert not any(b.isVisible() for b in hint.buttons)
    goldset.search.clear()
    goldset.search.returnPressed.emit()
    qtbot.waitUntil(lambda: not hint.isVisible(), timeout=2000)


def test_the_hints_speak_french(qtbot, french: None, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The texts go through the catalogue (context EmptyHint); until the lead adds the
    French lines from the branch's TSV, they fall back to English, never to nothing."""
    path = tmp_path / "vide.goldset"
    GoldSetStore.create(path, assessor="alice").close()
    window = open_window(qtbot, path)
    window.show_section(0)
    [hint] = hints_of(window.sections[0])
    qtbot.waitUntil(hint.isVisible, timeout=2000)
    assert hint.label.text() == tr(HINTS[0][0].fill) != ""


def test_an_assignment_file_shows_no_steps(qtbot, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    """An expert's assignment file holds pairs to judge, not a gold set to build."""
    _master, files = make_team(tmp_path, ("ana", "bruno"))
    window = open_window(qtbot, files["ana"], assessor="ana")
    assert window.store is not None and window.store.assignment_info() is not None
    assert not window.start_steps.isVisible()
