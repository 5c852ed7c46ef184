"""The Judge section beyond labels: case keys, the note, reference answer and guidelines,
highlighted terms, the adjudication queue, the pool, and merging a colleague's file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.judge import dialogs as judging_dialogs
from rag_annotator.ui.judge.dialogs import PoolDialog
from rag_annotator.ui.judge.section import JudgeSection
from rag_annotator.ui.main_window import MainWindow
from tests.builders import Rich
from tests.helpers import rows
from tests.ui.driving import judge_on_case

pytestmark = pytest.mark.gui


def _case_key(judge: JudgeSection) -> str:
    row = judge.progress_model.row_at(judge.cases.currentIndex().row())
    assert row is not None
    return str(row["key"])


def test_n_and_p_move_between_cases(qtbot, window: MainWindow) -> None:
    judge = judge_on_case(qtbot, window, "Q1")
    qtbot.keyClick(judge.pairs, Qt.Key.Key_N)
    assert _case_key(judge) == "Q2"
    qtbot.keyClick(judge.pairs, Qt.Key.Key_N)
    assert _case_key(judge) == "Q3"
    qtbot.keyClick(judge.pairs, Qt.Key.Key_N)  # last case: stays
    assert _case_key(judge) == "Q3"
    qtbot.keyClick(judge.pairs, Qt.Key.Key_P)
    assert _case_key(judge) == "Q2"


def test_note_is_written_by_keyboard_kept_with_the_label_and_undoable(
        qtbot, window: MainWindow, goldset_path: Path, rich: Rich) -> None:
    judge = judge_on_case(qtbot, window, "Q1")
    judge.pairs.selectRow(next(i for i, r in enumerate(judge.pool.rows) if r["key"] == "D1"))
    qtbot.keyClick(judge.pairs, Qt.Key.Key_E)
    assert judge.note.hasFocus()
    qtbot.keyClicks(judge.note, "cite l'article 3")  # digits typed here are not labels
    qtbot.keyClick(judge.note, Qt.Key.Key_Return)
    assert judge.pairs.hasFocus()
    sql = ("SELECT j.grade, j.note FROM judgments j JOIN assessors a ON a.id = j.assessor_id "
           "WHERE a.name = 'alice' AND j.case_id = ? AND j.document_id = ?")
    assert rows(goldset_path, sql, (rich.cases["Q1"], rich.docs["D1"])) == [
        (1, "cite l'article 3")]
    window.undo.undo()
    assert rows(goldset_path, sql, (rich.cases["Q1"], rich.docs["D1"])) == [(1, "")]
    # Esc abandons an edit.
    qtbot.keyClick(judge.pairs, Qt.Key.Key_E)
    qtbot.keyClicks(judge.note, "brouillon")
    qtbot.keyClick(judge.note, Qt.Key.Key_Escape)
    assert judge.note.text() == "" and judge.pairs.hasFocus()
    assert rows(goldset_path, sql, (rich.cases["Q1"], rich.docs["D1"])) == [(1, "")]


def test_reference_answer_and_guidelines_toggle(qtbot, window: MainWindow) -> None:
    store = window.store
    assert store is not None
    ops.edit_case(store, store.by_key("cases", "Q1")["id"],
                  reference_answer="Trois mois de préavis.")
    ops.set_meta(store, "guidelines", "# Règles\n\n**Pertinent** : contient la réponse.")
    judge = judge_on_case(qtbot, window, "Q1")
    window.show_section(3)
    assert not judge.reference.isVisible() and not judge.guidelines.isVisible()
    qtbot.keyClick(judge.pairs, Qt.Key.Key_R)
    assert judge.reference.isVisible()
    assert "Trois mois de préavis." in judge.reference.text()
    qtbot.keyClick(judge.pairs, Qt.Key.Key_G)
    assert judge.guidelines.isVisible()
    assert "Pertinent" in judge.guidelines.toPlainText()
    assert "**" not in judge.guidelines.toPlainText()  # rendered as markdown
    qtbot.keyClick(judge.pairs, Qt.Key.Key_R)
    assert not judge.reference.isVisible()


def test_question_terms_are_highlighted_in_the_document(qtbot, window: MainWindow) -> None:
    judge = judge_on_case(qtbot, window, "Q1")
    store = window.store
    assert store is not None
    ops.edit_case(store, store.by_key("cases", "Q1")["id"], question="Que dit ce texte ?")
    judge.refresh()
    judge.pairs.selectRow(0)
    block = judge.document.document().begin()
    highlighted = []
    while block.isValid():
        for fmt in block.layout().formats():
            highlighted.append(block.text()[fmt.start:fmt.start + fmt.length])
        block = block.next()
    assert highlighted and {h.casefold() for h in highlighted} == {"texte"}


def test_adjudication_queue_settles_a_dispute(qtbot, window: MainWindow, goldset_path: Path,
                                              rich: Rich) -> None:
    judge = judge_on_case(qtbot, window, "Q1")
    assert not judge.others_revealed
    qtbot.keyClick(judge.pairs, Qt.Key.Key_D)
    assert judge.adjudicating and judge.others_revealed and judge.banner.isVisibleTo(judge)
    # Q1: D2 disputed (alice 1, bob 0), D3 adjudicated before; nothing else listed.
    assert [r["key"] for r in judge.pool.rows] == ["D2", "D3"]
    assert judge.pool.rows[judge.pairs.currentIndex().row()]["key"] == "D2"
    qtbot.keyClick(judge.pairs, Qt.Key.Key_0)
    sql = "SELECT grade FROM adjudications WHERE case_id = ? AND document_id = ?"
    assert rows(goldset_path, sql, (rich.cases["Q1"], rich.docs["D2"])) == [(0,)]
    # alice's own judgment is untouched: the adjudication is a separate record.
    assert rows(goldset_path, "SELECT grade FROM judgments j JOIN assessors a ON "
                "a.id = j.assessor_id WHERE a.name = 'alice' AND case_id = ? AND "
                "document_id = ?", (rich.cases["Q1"], rich.docs["D2"])) == [(1,)]
    labels = {doc: (grade, disputed) for case, doc, grade, disputed
              in window.store.effective_labels() if case == "Q1"}
    assert labels["D2"] == (0, False)
    qtbot.keyClick(judge.pairs, Qt.Key.Key_D)
    assert not judge.adjudicating and not judge.others_revealed


def test_pool_dialog_and_pool_change_reach_the_panel(qtbot, window: MainWindow) -> None:
    dialog = PoolDialog(["bm25", "dense"], None, None)
    qtbot.addWidget(dialog)
    assert dialog.choice() == (None, None)
    dialog.every.setChecked(False)
    dialog.runs.item(0).setCheckState(Qt.CheckState.Unchecked)
    dialog.depth_box.setValue(1)
    assert dialog.choice() == (["dense"], 1)
    assert isinstance(dialog.depth(), int)  # QWidget.depth() is not hidden by the spin box
    dialog.runs.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()

    judge = judge_on_case(qtbot, window, "Q1")
    before = [r["key"] for r in judge.pool.rows]
    assert before == ["D1", "D2", "D3", "D5"]
    window.undo.run(lambda s: judging_ops.set_pool(s, ["dense"], 1))
    # dense's top 1 is D2; D1 (expected source) and the judged pairs stay.
    assert [r["key"] for r in judge.pool.rows] == ["D1", "D2", "D3", "D5"]
    window.undo.run(lambda s: judging_ops.set_pool(s, ["bm25"], 1))
    qtbot.waitUntil(lambda: window.progress.complete, timeout=5000)
    q2 = window.progress.row(window.store.by_key("cases", "Q2")["id"])
    # Q2: bm25 ranks D4, D1: top 1 is D4; D6 is expected; D1 (rank 2) leaves the pool.
    assert q2 is not None and q2["pairs"] == 2
    window.undo.undo()
    window.undo.undo()
    assert window.store.pool_settings() == (None, None)


def test_merge_menu_brings_a_colleagues_judgments_in(
        qtbot, window: MainWindow, tmp_path: Path, rich: Rich,
        monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "colleague.goldset"
    assert window.store is not None
    window.store.save_copy(other)
    with GoldSetStore.open(other, assessor="carol") as theirs:
        judging_ops.set_judgment(theirs, rich.cases["Q2"], rich.docs["D4"], 1)
        judging_ops.set_judgment(theirs, rich.cases["Q1"], rich.docs["D2"], 1)
    shown = []
    monkeypatch.setattr(judging_dialogs, "show_merge_report",
                        lambda parent, report: shown.append(report))
    report = window.files.merge_file(other)
    assert report is not None and shown == [report]
    assert report.counts["judgments"]["added"] == 2
    carol = [r for r in window.store.judgment_rows() if r[2] == "carol"]
    assert len(carol) == 2
    window.undo.undo()
    assert [r for r in window.store.judgment_rows() if r[2] == "carol"] == []


def test_merging_a_file_that_brings_nothing_refreshes_nothing(
        qtbot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A merge that changed nothing announces nothing and adds no undo step: its report's
    Changes is empty, never "everything"."""
    other = tmp_path / "same.goldset"
    assert window.store is not None
    window.store.save_copy(other)
    monkeypatch.setattr(judging_dialogs, "show_merge_report", lambda parent, report: None)
    announced = []
    window.hub.changes_applied.connect(announced.append)
    steps = window.undo.stack.count()
    report = window.files.merge_file(other)
    assert report is not None and report.changes is not None and report.changes.empty
    assert announced == [] and window.undo.stack.count() == steps


def test_s_jumps_to_the_pair_that_settles_most(qtbot, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    from rag_annotator.import_export.sample import create_sample
    from rag_annotator.reports.inputs import suggestions
    from tests.ui.driving import open_window

    path = tmp_path / "sample.goldset"
    create_sample(path, assessor="Claire Dubois").close()
    window = open_window(qtbot, path, assessor="Marc")
    judge = judge_on_case(qtbot, window, "Q01")
    assert window.store is not None
    best = suggestions(window.store)[0]
    assert best.settles >= 1
    qtbot.keyClick(judge.pairs, Qt.Key.Key_S)
    assert _case_key(judge) == best.case_key
    pair = judge.pool.rows[judge.pairs.currentIndex().row()]
    assert pair["key"] == best.document_key and pair["effective_grade"] is None
    assert f"Settles {best.settles}" in judge.position.text()
