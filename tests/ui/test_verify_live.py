"""The Verify section within a frame (issue 19): Ctrl+5 shows the first unverified claim
without reading the whole queue, a key pressed before the queue is in still works, and a
verdict key reads back only the claim it changed.

The order and the verdicts are checked against the file read by a separate connection (plain
SQL), not against the section's own reads."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from rag_annotator.import_export.sample import create_sample
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.verify.section import VerifySection
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui

ASSESSOR = "Claire Dubois"
ORDERED = ("SELECT cl.id, cl.answer_id, cl.verdict FROM claims cl "
           "JOIN answers a ON a.id = cl.answer_id JOIN runs r ON r.id = a.run_id "
           "JOIN cases c ON c.id = a.case_id ORDER BY r.name, c.key, cl.position, cl.id")


@pytest.fixture
def sample(goldset_path: Path) -> Path:
    create_sample(goldset_path, assessor=ASSESSOR, with_judge=False).close()
    return goldset_path


@pytest.fixture
def win(qtbot, sample: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, sample, assessor=ASSESSOR)


def ordered(path: Path) -> list[tuple[int, int, str | None]]:
    with sqlite3.connect(path) as conn:
        return [(int(i), int(a), v) for i, a, v in conn.execute(ORDERED)]


def test_ctrl5_shows_the_first_unverified_claim_without_sorting_every_claim(
        qtbot, win: MainWindow, sample: Path) -> None:  # type: ignore[no-untyped-def]
    store = win.store
    assert store is not None
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    qtbot.keyClick(win, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    store._conn.set_trace_callback(None)
    section = win.current_section()
    assert isinstance(section, VerifySection)
    first = next(i for i, _a, v in ordered(sample) if v is None)
    assert section.claim_id() == first
    # the queue (every claim, sorted) and the answers list come from the worker
    assert not any("count(cl.id)" in s or s.startswith("SELECT cl.id, cl.answer_id, cl.verdict")
                   for s in statements), statements
    qtbot.waitUntil(lambda: not section.queue_pending)
    assert [q["id"] for q in section.queue] == [i for i, _a, _v in ordered(sample)]
    with sqlite3.connect(sample) as conn:
        answers = conn.execute("SELECT count(*) FROM answers").fetchone()[0]
    assert section.answers.rowCount() == answers


def test_a_key_pressed_before_the_queue_is_in_still_moves_on(
        qtbot, win: MainWindow, sample: Path) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(win, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = win.current_section()
    assert isinstance(section, VerifySection)
    first = section.claim_id()
    qtbot.keyClick(section.claims_table, Qt.Key.Key_S)  # no event processed in between
    rows = ordered(sample)
    assert next(v for i, _a, v in rows if i == first) == "supported"
    place = next(k for k, (i, _a, _v) in enumerate(rows) if i == first)
    expected = next(i for i, _a, v in rows[place + 1:] + rows[:place] if v is None)
    assert section.claim_id() == expected
    assert not section.queue_pending


def test_a_verdict_key_reads_back_only_the_claim_it_changed(
        qtbot, win: MainWindow, sample: Path) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(win, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = win.current_section()
    assert isinstance(section, VerifySection)
    qtbot.waitUntil(lambda: not section.queue_pending)
    store = win.store
    assert store is not None
    for verdict_key, verdict in ((Qt.Key.Key_N, "not_supported"),
                                 (Qt.Key.Key_C, "contradicted")):
        # the next answer is read once this one is on screen
        qtbot.waitUntil(lambda: not section.prefetch_pending)
        claim = section.claim_id()
        row = next(i for i, c in enumerate(section.claims.rows) if c["id"] == claim)
        statements: list[str] = []
        store._conn.set_trace_callback(statements.append)
        qtbot.keyClick(section.claims_table, verdict_key)
        store._conn.set_trace_callback(None)
        assert next(v for i, _a, v in ordered(sample) if i == claim) == verdict
        # neither the answer's contexts nor its citations were read again
        assert not [s for s in statements if "FROM retrieved" in s or "FROM citations" in s]
        assert sum(s.startswith("UPDATE claims") for s in statements) == 1
        if section.context is not None and any(c["id"] == claim for c in section.claims.rows):
            assert section.claims.rows[row]["verdict"] == verdict
    qtbot.keyClick(section.claims_table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    shown = {c["id"]: c["verdict"] for c in section.claims.rows}
    on_file = {i: v for i, _a, v in ordered(sample) if i in shown}
    assert shown == on_file


def test_the_status_bar_count_follows_verdicts_and_their_undo(
        qtbot, win: MainWindow, sample: Path) -> None:  # type: ignore[no-untyped-def]
    """The unverified count moves by each verdict's history rows instead of a recount; it
    must stay the file's own count through verdicts, a clearing (U) and undo."""
    qtbot.keyClick(win, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = win.current_section()
    assert isinstance(section, VerifySection)
    qtbot.waitUntil(lambda: win.progress.file_totals() is not None)

    def on_file() -> int:
        return sum(1 for _i, _a, v in ordered(sample) if v is None)

    for k in (Qt.Key.Key_S, Qt.Key.Key_N, Qt.Key.Key_C):
        qtbot.keyClick(section.claims_table, k)
        totals = win.progress.file_totals()
        assert totals is not None and totals["unverified"] == on_file()
    qtbot.keyClick(section.claims_table, Qt.Key.Key_K)  # back to the claim just judged
    qtbot.keyClick(section.claims_table, Qt.Key.Key_U)  # back to unverified
    for _ in range(3):
        qtbot.keyClick(section.claims_table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        totals = win.progress.file_totals()
        assert totals is not None and totals["unverified"] == on_file()


def test_a_verdict_key_leaves_the_hidden_dashboard_for_its_next_show(
        qtbot, win: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The Dashboard (its intervals bootstrap thousands of resamples) is recomputed when
    shown, never inside a key pressed elsewhere."""
    from rag_annotator.ui.dashboard.section import DashboardSection

    qtbot.keyClick(win, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    dashboard = win.current_section()
    assert isinstance(dashboard, DashboardSection)
    refreshed: list[int] = []
    monkeypatch.setattr(dashboard, "refresh", lambda: refreshed.append(1))
    qtbot.keyClick(win, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = win.current_section()
    assert isinstance(section, VerifySection)
    qtbot.keyClick(section.claims_table, Qt.Key.Key_S)
    qtbot.wait(50)
    assert refreshed == [] and dashboard.dirty
    qtbot.keyClick(win, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    assert refreshed == [1]


def test_opening_an_empty_file_leaves_no_claim_of_the_previous_one(
        qtbot, win: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Found while testing the first steps: after File → New, Verify still showed the sample's
    claim text (and rationale) in its editable fields, ready to be saved onto nothing."""
    from rag_annotator.storage.store import GoldSetStore

    qtbot.keyClick(win, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = win.current_section()
    assert isinstance(section, VerifySection)
    assert section.claim_text.text()  # the sample's first unverified claim
    empty = tmp_path / "empty.goldset"
    GoldSetStore.create(empty, assessor=ASSESSOR).close()
    assert win.open_file(empty)
    qtbot.keyClick(win, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    assert win.current_section() is section
    assert section.claim_id() is None
    assert section.claim_text.text() == "" and section.rationale.text() == ""


def test_opening_an_empty_file_shows_an_empty_rag_case_form(
        qtbot, win: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Found on the guide's picture of an empty file: the Gold set editor kept the previous
    file's first case's kind (the sample's A01 is an agent case), so an empty file showed
    the agent form with its combos set."""
    from rag_annotator.storage.store import GoldSetStore
    from rag_annotator.ui.goldset.section import GoldSetSection

    qtbot.keyClick(win, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    section = win.current_section()
    assert isinstance(section, GoldSetSection)
    editor = section.editor
    store = win.store
    assert store is not None
    section.table.selectRow(section.model.row_of(store.by_key("cases", "A01")["id"]))
    assert editor.kind.currentData() == "agent"  # A01, an agent case
    empty = tmp_path / "empty.goldset"
    GoldSetStore.create(empty, assessor=ASSESSOR).close()
    assert win.open_file(empty)
    qtbot.keyClick(win, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert editor.case_id is None
    assert editor.kind.currentData() == "rag"
    assert all(combo.currentIndex() == 0 for combo in editor._combos.values())
