"""Issue 22 in the app: the "Draw a Review Sample…" dialog draws through the same domain
operation as ``rag-annotator sample`` (size asked, or the domain's proposed size for a
half-width), undoably, and opens the queue; Judge's Q walks a relevance sample by keyboard,
blind to the judge's label until the human's key."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from rag_annotator.domain.review_sample import draw, proposed_size
from rag_annotator.import_export.sample import create_sample
from rag_annotator.ui import labels
from rag_annotator.ui.judge.section import JudgeSection
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.verify.draw_sample import DrawSampleDialog
from rag_annotator.ui.verify.section import VerifySection
from tests.ui.driving import open_window
from tests.ui.relevance_judge import relevance_judge

pytestmark = pytest.mark.gui

ASSESSOR = "Claire Dubois"
JUDGE = "RAGChecker"


def _press(qtbot, window: MainWindow, k: Qt.Key,  # type: ignore[no-untyped-def]
           modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget() or window, k, modifier)


def _fill(monkeypatch, seen: dict[str, object], *, size: int | None = None,  # type: ignore[no-untyped-def]
          half_width: float | None = None, seed: int = 7) -> None:
    """Answer the dialog as a user would: claims of the judge, a size or a half-width."""
    def exec_(dialog: DrawSampleDialog) -> int:
        dialog.level.setCurrentIndex(dialog.level.findData("claims"))
        dialog.judge.setCurrentText(JUDGE)
        if size is not None:
            dialog.by_size.setChecked(True)
            dialog.size_box.setValue(size)
        else:
            dialog.by_width.setChecked(True)
            dialog.half_width.setValue(half_width or 0.05)
        dialog.seed.setValue(seed)
        seen["proposal"] = dialog.proposal.text()
        seen["ok"] = dialog.ok_button.isEnabled()
        return 1

    monkeypatch.setattr(DrawSampleDialog, "exec", exec_)


@pytest.fixture
def win(qtbot, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    create_sample(goldset_path, assessor=ASSESSOR).close()
    return open_window(qtbot, goldset_path, assessor=ASSESSOR)


def _verify(qtbot, window: MainWindow) -> VerifySection:  # type: ignore[no-untyped-def]
    _press(qtbot, window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = window.sections[4]
    assert isinstance(section, VerifySection)
    return section


def test_the_dialog_draws_the_size_asked_and_undo_takes_it_back(
        qtbot, win: MainWindow, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    store = win.store
    assert store is not None
    before = store.review_sample(JUDGE, "claims")
    units = store.judged_units(JUDGE, "claims")
    seen: dict[str, object] = {}
    _fill(monkeypatch, seen, size=25, seed=7)
    section = _verify(qtbot, win)
    _press(qtbot, win, Qt.Key.Key_Q, Qt.KeyboardModifier.ShiftModifier)  # the dialog's key
    assert seen["ok"] and f"25 of the {len(units)} units" in str(seen["proposal"])
    sample = store.review_sample(JUDGE, "claims")
    assert sample is not None and sample["size"] == 25 and sample["seed"] == 7
    # the same draw as the domain's (and the CLI's): same units, same order
    assert [i["unit_id"] for i in sample["items"]] == [d.unit_id for d in draw(units, 25, 7)]
    # the queue opened on the sample's claims
    assert section.sample_judge == JUDGE and section.commands["verify.sample_queue"].isChecked()
    assert section.sample_ids == {c["id"] for c in store.sample_claim_queue(JUDGE)}
    assert win.ctx.undo.undo()
    after = store.review_sample(JUDGE, "claims")
    if before is None:
        assert after is None
    else:
        assert after is not None and (after["size"], after["seed"]) == (
            before["size"], before["seed"])
        assert after["items"] == before["items"]


def test_the_dialog_draws_the_size_proposed_for_a_half_width(
        qtbot, win: MainWindow, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    store = win.store
    assert store is not None
    units = store.judged_units(JUDGE, "claims")
    expected = proposed_size(units, 0.08)
    assert 0 < expected <= len(units)
    seen: dict[str, object] = {}
    _fill(monkeypatch, seen, half_width=0.08, seed=11)
    section = _verify(qtbot, win)
    section.commands["verify.draw_sample"].trigger()
    assert f"Proposed size: {expected} " in str(seen["proposal"])
    sample = store.review_sample(JUDGE, "claims")
    assert sample is not None and sample["size"] == expected == len(sample["items"])
    assert sample["half_width"] == pytest.approx(0.08)


def _row(judge: JudgeSection) -> dict:  # type: ignore[type-arg]
    row = judge.pool.row_at(judge.pairs.currentIndex().row())
    assert row is not None
    return row


def test_judge_walks_a_relevance_sample_by_keyboard_blind_until_the_key(
        qtbot, goldset_path: Path, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    create_sample(goldset_path, assessor=ASSESSOR, with_judge=False).close()
    relevance_judge(goldset_path, tmp_path)
    window = open_window(qtbot, goldset_path, assessor=ASSESSOR)
    store = window.store
    assert store is not None
    queue = store.sample_pair_queue("LLM-rel", ASSESSOR)
    order = [(q["case_id"], q["document_id"]) for q in queue]
    todo = [p for p, q in zip(order, queue, strict=True) if q["my_grade"] is None]
    assert len(todo) >= 3
    _press(qtbot, window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = window.sections[3]
    assert isinstance(judge, JudgeSection)
    judge.pairs.setFocus()
    _press(qtbot, window, Qt.Key.Key_Q)
    assert judge.commands["judge.sample_queue"].isChecked()
    assert (judge.case_id(), judge.document_id()) == todo[0]
    assert judge.sample_banner.isVisible()
    assert "the judge said" not in judge.sample_banner.text()
    _press(qtbot, window, Qt.Key.Key_B)  # reveal the others: not the sampled judge's
    assert judge.others_revealed
    assert "LLM-rel" not in judge._others(_row(judge))
    assert judge._effective(_row(judge)) == "—"
    judge_grade = next(q["judge_grade"] for q in queue
                       if (q["case_id"], q["document_id"]) == todo[0])
    _press(qtbot, window, Qt.Key.Key_0)  # the human's label: now the judge's shows
    said = labels.grade(judge_grade, judge.max_grade)
    assert (f"you said {labels.grade(0, judge.max_grade)}; the judge said {said}"
            in judge.sample_banner.text())
    assert (judge.case_id(), judge.document_id()) == todo[1]  # the next in the sample
    assert "LLM-rel" not in judge._others(_row(judge))
    _press(qtbot, window, Qt.Key.Key_K)  # back to the pair labelled: its label shows
    here = order.index(todo[1]) - 1
    assert (judge.case_id(), judge.document_id()) == order[here]
    if order[here] == todo[0]:
        assert "LLM-rel" in judge._others(_row(judge))
    _press(qtbot, window, Qt.Key.Key_J)
    assert (judge.case_id(), judge.document_id()) == todo[1]
    _press(qtbot, window, Qt.Key.Key_1)
    assert (judge.case_id(), judge.document_id()) == todo[2]
    labelled = {(q["case_id"], q["document_id"]): q["my_grade"]
                for q in store.sample_pair_queue("LLM-rel", ASSESSOR)}
    assert labelled[todo[0]] == 0 and labelled[todo[1]] == 1
    done = len(order) - len(todo) + 2
    assert f"{done} of {len(order)} pairs labelled" in judge.sample_banner.text()
    _press(qtbot, window, Qt.Key.Key_Q)  # leave the queue
    assert not judge.commands["judge.sample_queue"].isChecked()
    assert not judge.sample_banner.isVisible()


def test_a_relevance_draw_opens_judges_queue(
        qtbot, goldset_path: Path, tmp_path: Path, english: None,  # type: ignore[no-untyped-def]
        monkeypatch) -> None:
    create_sample(goldset_path, assessor=ASSESSOR, with_judge=False).close()
    relevance_judge(goldset_path, tmp_path)
    window = open_window(qtbot, goldset_path, assessor=ASSESSOR)
    store = window.store
    assert store is not None
    units = store.judged_units("LLM-rel", "relevance")
    seen: dict[str, object] = {}

    def exec_(dialog: DrawSampleDialog) -> int:
        dialog.level.setCurrentIndex(dialog.level.findData("relevance"))
        dialog.judge.setCurrentText("LLM-rel")
        dialog.by_size.setChecked(True)
        dialog.size_box.setValue(12)
        dialog.seed.setValue(5)
        seen["proposal"] = dialog.proposal.text()
        return 1

    monkeypatch.setattr(DrawSampleDialog, "exec", exec_)
    section = _verify(qtbot, window)
    section.commands["verify.draw_sample"].trigger()
    assert f"12 of the {len(units)} units" in str(seen["proposal"])
    judge = window.sections[3]
    assert isinstance(judge, JudgeSection) and window.current_section() is judge
    assert judge.commands["judge.sample_queue"].isChecked()
    queue = store.sample_pair_queue("LLM-rel", ASSESSOR)
    assert [(q["case_id"], q["document_id"]) for q in queue] == [
        (d.unit_id, d.document_id) for d in draw(units, 12, 5)]
    first = next((q["case_id"], q["document_id"]) for q in queue if q["my_grade"] is None)
    assert (judge.case_id(), judge.document_id()) == first
    assert "LLM-rel" not in judge._others(_row(judge))
    assert window.ctx.undo.undo()  # the draw undone: the earlier sample (40 pairs) is back
    assert len(store.sample_pair_queue("LLM-rel", ASSESSOR)) == 40
    assert "of 40 pairs labelled" in judge.sample_banner.text()
