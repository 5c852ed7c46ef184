"""Keys and rows that follow what the user just did: the next verdict key after a typed
rationale, the adjudicated row, the rights matrix's key from any section, an expert's
assignment file opening on their queue, the hand-out dialog's team."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.judge.section import JudgeSection
from rag_annotator.ui.sections.corpus import CorpusSection
from rag_annotator.ui.verify.section import VerifySection
from tests.team_builders import make_team
from tests.ui.driving import judge_on_case, open_window

pytestmark = pytest.mark.gui

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def _press(qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,  # type: ignore[no-untyped-def]
           ) -> None:
    """A key where the keyboard is, as the user types it."""
    widget = QApplication.focusWidget()
    assert widget is not None
    qtbot.keyClick(widget, key, modifier)


def test_after_a_rationale_and_enter_the_next_key_is_a_verdict(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None) -> None:
    path = tmp_path / "s.goldset"
    create_sample(path, assessor="Claire", with_judge=False).close()
    window = open_window(qtbot, path, assessor="Claire")
    qtbot.keyClick(window, Qt.Key.Key_5, CTRL)
    verify = window.sections[4]
    assert isinstance(verify, VerifySection)
    qtbot.waitUntil(lambda: not verify.queue_pending)
    claim = verify.claim_id()
    _press(qtbot, Qt.Key.Key_W)
    assert verify.rationale.hasFocus()
    qtbot.keyClicks(verify.rationale, "absent du contexte")
    _press(qtbot, Qt.Key.Key_Return)
    assert verify.claims_table.hasFocus()  # the keyboard is back on the claims
    _press(qtbot, Qt.Key.Key_N)  # a verdict, not an "n" typed into the reason
    with sqlite3.connect(path) as conn:
        verdict, rationale = conn.execute(
            "SELECT verdict, rationale FROM claims WHERE id = ?", (claim,)).fetchone()
    assert (verdict, rationale) == ("not_supported", "absent du contexte")
    window.close()


def test_an_adjudication_shows_in_its_row_at_once(qtbot, rich, goldset_path: Path,  # type: ignore[no-untyped-def]
                                                   english: None) -> None:
    """carol never judged Q1: in the adjudication queue her key settles D2, and the row says
    her decision (it said "Your label: Unjudged", her own judgment, which she has none of)."""
    window = open_window(qtbot, goldset_path, assessor="carol")
    judge = judge_on_case(qtbot, window, "Q1")
    qtbot.keyClick(judge.pairs, Qt.Key.Key_D)
    assert judge.adjudicating
    assert judge.pool.headerData(2, Qt.Orientation.Horizontal) == "Your decision"
    row = next(i for i, r in enumerate(judge.pool.rows) if r["key"] == "D2")
    judge.pairs.selectRow(row)
    assert judge.pool.index(row, 2).data() == "—"  # not adjudicated yet
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)
    assert judge.pool.index(row, 2).data() == labels.grade(1)
    assert judge.pool.index(row, 4).data() == labels.grade(1)  # the effective label too
    qtbot.keyClick(judge.pairs, Qt.Key.Key_D)  # out of the queue: her own label again
    assert judge.pool.headerData(2, Qt.Orientation.Horizontal) == "Your label"
    row = next(i for i, r in enumerate(judge.pool.rows) if r["key"] == "D2")
    assert judge.pool.index(row, 2).data() == labels.grade(None)
    window.close()


@pytest.mark.parametrize("section", [0, 3, 5])
def test_ctrl_shift_x_opens_the_rights_matrix_from_any_section(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, english: None, section: int) -> None:
    path = tmp_path / "s.goldset"
    create_sample(path).close()
    window = open_window(qtbot, path)
    window.show_section(section)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    _press(qtbot, Qt.Key.Key_X, CTRL_SHIFT)
    corpus = window.current_section()
    assert isinstance(corpus, CorpusSection)
    assert corpus.tabs.currentWidget() is corpus.matrix
    qtbot.waitUntil(lambda: corpus.matrix.table.hasFocus()
                    and corpus.matrix.model.rowCount() > 0)
    window.close()


def test_an_assignment_file_opens_on_the_experts_queue(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                        english: None) -> None:
    """Last time the window showed the Gold set; the expert's file opens on Judge, in
    assignment mode, with the keyboard on the queue."""
    master, files = make_team(tmp_path)
    window = open_window(qtbot, master, assessor="lead")
    window.show_section(0)
    assert window.open_file(files["ana"])
    judge = window.current_section()
    assert isinstance(judge, JudgeSection)
    assert judge.assignment.active
    assert "Your assignment: 0 / " in judge.assignment.header.text()
    qtbot.waitUntil(lambda: judge.isAncestorOf(QApplication.focusWidget()))
    window.close()


def test_a_started_window_on_an_assignment_file_shows_the_queue(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                 english: None) -> None:
    """The window made at start-up (the last section remembered: the Gold set)."""
    _master, files = make_team(tmp_path)
    window = open_window(qtbot, files["bruno"], assessor="bruno")
    judge = window.current_section()
    assert isinstance(judge, JudgeSection) and judge.assignment.active
    window.close()


def test_the_hand_out_dialog_proposes_no_one_before_a_first_campaign(  # type: ignore[no-untyped-def]
        tmp_path: Path) -> None:
    """The sample's fictional assessor is not the lead's team: nobody is proposed until a
    campaign has named one, and then its team is."""
    from rag_annotator.ui.team.menu import hand_out_defaults

    path = tmp_path / "s.goldset"
    with create_sample(path, assessor="lead") as store:
        assert list(hand_out_defaults(store).assessors) == []
    (tmp_path / "team").mkdir()
    master, _files = make_team(tmp_path / "team")
    with GoldSetStore.open(master, read_only=True) as store:
        assert list(hand_out_defaults(store).assessors) == ["ana", "bruno", "chloe"]
