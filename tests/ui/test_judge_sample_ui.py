"""Issue 22 in the real window, by keyboard: Verify's review queue of a judge's sample is
blind to the judge's verdict until the human's key, and the Dashboard's corrected figures
follow the verdicts given."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from rag_annotator.import_export.sample import create_sample
from rag_annotator.ui import labels
from rag_annotator.ui.dashboard.section import DashboardSection
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.verify.section import VerifySection
from tests.ui.driving import open_window
from tests.ui.relevance_judge import relevance_judge

pytestmark = pytest.mark.gui

ASSESSOR = "Claire Dubois"
JUDGE = "RAGChecker"
SUPPORTED = "Supported share of claims"


@pytest.fixture
def win(qtbot, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    create_sample(goldset_path, assessor=ASSESSOR).close()
    return open_window(qtbot, goldset_path, assessor=ASSESSOR)


def _press(qtbot, window: MainWindow, k: Qt.Key,  # type: ignore[no-untyped-def]
           modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget() or window, k, modifier)


def _on_screen(section: VerifySection) -> str:
    """Every text the Verify section shows: its visible labels and the claims table's
    visible cells."""
    texts = [w.text() for w in section.findChildren(QLabel) if w.isVisible()]
    model = section.claims
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            if not section.claims_table.isColumnHidden(column):
                texts.append(str(model.data(model.index(row, column))))
    texts.append(section.answer_view.toPlainText())
    return "\n".join(texts)


def _judge_says(section: VerifySection, claim_id: int) -> str:
    row = next(c for c in section.claims.rows if c["id"] == claim_id)
    verdict = next(v for name, v, _raw in row["judges"] if name == JUDGE)
    return f"{JUDGE}: {labels.verdict(verdict)}"


def _verify_sample(qtbot, window: MainWindow) -> VerifySection:  # type: ignore[no-untyped-def]
    _press(qtbot, window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = window.sections[4]
    assert isinstance(section, VerifySection) and window.current_section() is section
    _press(qtbot, window, Qt.Key.Key_Q)
    assert section.sample_judge == JUDGE
    return section


def test_the_judges_verdict_is_hidden_until_the_humans_key(
        qtbot, win: MainWindow) -> None:  # type: ignore[no-untyped-def]
    section = _verify_sample(qtbot, win)
    claim_id = section.claim_id()
    assert claim_id is not None and claim_id in section.sample_ids
    assert section.current_claim()["verdict"] is None  # type: ignore[index]
    said = _judge_says(section, claim_id)
    _press(qtbot, win, Qt.Key.Key_B)  # reveal the others' verdicts: still not the judge's
    assert section.others_revealed
    assert said not in _on_screen(section)
    assert "the judge said" not in _on_screen(section)
    _press(qtbot, win, Qt.Key.Key_N)  # the human decides
    assert section.claim_id() != claim_id  # moved on to the next sampled claim
    shown = _on_screen(section)
    judged = next(v for n, v, _r in section._last_reviewed["judges"]  # type: ignore[index]
                  if n == JUDGE)
    assert f"the judge said {labels.verdict(judged)}" in shown
    if any(c["id"] == claim_id for c in section.claims.rows):  # same answer: the column too
        assert said in shown


def _corrected(dashboard: DashboardSection) -> tuple[str, str]:
    box = dashboard.judge_sample_panel.boxes[(JUDGE, "claims")]
    return (box.figures.text_at(SUPPORTED, "Corrected"),
            box.figures.text_at(SUPPORTED, "Reviewed / judged"))


def test_three_verdicts_in_the_queue_move_the_corrected_figures(
        qtbot, win: MainWindow) -> None:  # type: ignore[no-untyped-def]
    _press(qtbot, win, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    dashboard = win.sections[5]
    assert isinstance(dashboard, DashboardSection)
    qtbot.waitUntil(lambda: dashboard.figures is not None, timeout=3000)
    assert dashboard.judge_sample_panel.isVisible()
    before, reviewed = _corrected(dashboard)
    assert before not in ("", "—") and reviewed.endswith("/ 93")
    section = _verify_sample(qtbot, win)
    left = section._unverified
    for k in (Qt.Key.Key_N, Qt.Key.Key_N, Qt.Key.Key_C):
        _press(qtbot, win, k)
    assert section._unverified == left - 3
    _press(qtbot, win, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: _corrected(dashboard)[1] != reviewed, timeout=3000)
    after, reviewed_after = _corrected(dashboard)
    assert int(reviewed_after.split("/")[0]) == int(reviewed.split("/")[0]) + 3
    assert after != before


def test_judge_section_hides_a_relevance_judges_sampled_label(
        qtbot, goldset_path: Path, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    from rag_annotator.ui.judge.section import JudgeSection

    create_sample(goldset_path, assessor=ASSESSOR, with_judge=False).close()
    case_id, document_id = relevance_judge(goldset_path, tmp_path)
    window = open_window(qtbot, goldset_path, assessor=ASSESSOR)
    _press(qtbot, window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = window.sections[3]
    assert isinstance(judge, JudgeSection)
    judge.cases.selectRow(judge.progress_model.row_of(case_id))
    row = next(i for i, r in enumerate(judge.pool.rows) if r["document_id"] == document_id)
    judge.pairs.selectRow(row)
    judge.pairs.setFocus()
    _press(qtbot, window, Qt.Key.Key_B)
    assert judge.others_revealed
    assert "LLM-rel" not in str(judge.pool.index(row, 3).data())
    assert str(judge.pool.index(row, 4).data()) == "—"
    judge.pairs.selectRow(row)
    _press(qtbot, window, Qt.Key.Key_1)  # the human labels it: the judge's label shows
    row = next(i for i, r in enumerate(judge.pool.rows) if r["document_id"] == document_id)
    assert "LLM-rel" in str(judge.pool.index(row, 3).data())


def test_answers_sample_stays_blind_until_the_answer_is_decided(
        qtbot, goldset_path: Path, english: None,
        monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QInputDialog

    from tests.helpers import run_cli

    create_sample(goldset_path, assessor=ASSESSOR).close()
    drawn = run_cli("sample", str(goldset_path), "--judge", JUDGE, "--level", "answers",
                    "--size", "8", "--seed", "4")
    assert drawn.returncode == 0, drawn.stderr
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(
        lambda _p, _t, _l, items, *_a: (next(i for i in items if "answers" in i), True)))
    window = open_window(qtbot, goldset_path, assessor=ASSESSOR)
    section = _verify_sample(qtbot, window)
    assert section.sample_level == "answers"
    review = (section.context or {}).get("review") or {}
    assert review.get("validated") is None  # the first sampled answer still to decide
    _press(qtbot, window, Qt.Key.Key_B)
    answer = section.answer_id()
    for _claim in range(len(section.claims.rows)):  # every claim verified: still blind
        _press(qtbot, window, Qt.Key.Key_S)
    section.show_answer(answer)
    assert all(c["verdict"] == "supported" for c in section.claims.rows)
    assert f"{JUDGE}:" not in _on_screen(section)
    assert "the judge said" not in _on_screen(section)
    _press(qtbot, window, Qt.Key.Key_R)  # the answer review: Validated, then Space
    validated = next(i for i, r in enumerate(section.review.rows)
                     if r["item"] == "Validated")
    section.review_table.selectRow(validated)
    _press(qtbot, window, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: ((section.context or {}).get("review") or {}).get("validated")
                    is not None, timeout=2000)
    assert f"{JUDGE}:" in _on_screen(section)
