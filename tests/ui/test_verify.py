"""The Verify section by keyboard: verdicts, moving, blind mode, rationale, claim editing,
evidence, citations, the answer review, judges' agreement — and undo of each."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from rag_annotator.domain import operations as ops
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import actions
from rag_annotator.ui.look import colours
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.text_views import from_qt, to_qt
from rag_annotator.ui.verify.section import OTHERS_COLUMN, VerifySection
from rag_annotator.ui.verify.widgets import BOOLS, OUTCOMES
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui

ASSESSOR = "Claire Dubois"


def counts(path: Path) -> dict[str, int]:
    """Claims by verdict, read from the file by a separate connection."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT coalesce(verdict, 'unverified'), count(*) FROM claims "
                            "GROUP BY 1").fetchall()
    return {"supported": 0, "not_supported": 0, "contradicted": 0, "unverified": 0,
            **dict(rows)}


def one(path: Path, sql: str, *params: object) -> object:
    with sqlite3.connect(path) as conn:
        row = conn.execute(sql, params).fetchone()
    return None if row is None else row[0]


@pytest.fixture
def sample(goldset_path: Path) -> Path:
    # the sample without its automatic judge (issue 22): these tests bring their own
    create_sample(goldset_path, assessor=ASSESSOR, with_judge=False).close()
    return goldset_path


@pytest.fixture
def win(qtbot, sample: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, sample, assessor=ASSESSOR)


def verify(qtbot, window: MainWindow) -> VerifySection:  # type: ignore[no-untyped-def]
    """Ctrl+5, as a user would press it; then wait for the answers list, which the section
    reads on a worker thread while the first claim is already on screen."""
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = window.sections[4]
    assert isinstance(section, VerifySection)
    assert window.current_section() is section
    qtbot.waitUntil(lambda: not section.queue_pending)
    return section


def key(qtbot, section: VerifySection, k: Qt.Key,  # type: ignore[no-untyped-def]
        modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    widget = QApplication.focusWidget() or section.claims_table
    qtbot.keyClick(widget, k, modifier)


def first_unverified(path: Path) -> int:
    with GoldSetStore.open(path, read_only=True) as store:
        return int(next(q["id"] for q in store.claim_queue() if q["verdict"] is None))


def test_done_when_ctrl5_s_s_c_ctrl_q(qtbot, win: MainWindow, sample: Path) -> None:
    before = counts(sample)
    expected_first = first_unverified(sample)
    section = verify(qtbot, win)
    assert section.claim_id() == expected_first
    assert section.claims_table.hasFocus()
    for k in (Qt.Key.Key_S, Qt.Key.Key_S, Qt.Key.Key_C):
        key(qtbot, section, k)
    qtbot.keyClick(win, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    after = counts(sample)
    assert after["supported"] == before["supported"] + 2
    assert after["contradicted"] == before["contradicted"] + 1
    assert after["not_supported"] == before["not_supported"]
    assert after["unverified"] == before["unverified"] - 3


def _faithfulness(path: Path, run: str) -> tuple[float | None, dict[str, float | None]]:
    """``metrics --json``'s mean faithfulness and per-answer faithfulness, in a new process."""
    import json

    from tests.helpers import run_cli

    result = run_cli("metrics", str(path), "--run", run, "--json")
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout)["answers"]
    return answers["faithfulness_mean"], {a["case"]: a["faithfulness"]
                                          for a in answers["per_answer"]}


def test_done_when_faithfulness_follows_the_verdicts(qtbot, win: MainWindow,
                                                     sample: Path) -> None:
    """Issue 5: after Ctrl+5, s, s, c the run's faithfulness in ``metrics --json`` moves:
    each answer's value is its supported claims over its verified claims, counted here
    straight from the file."""
    first = first_unverified(sample)
    run = str(one(sample, "SELECT r.name FROM claims c JOIN answers a ON a.id = c.answer_id "
                          "JOIN runs r ON r.id = a.run_id WHERE c.id = ?", first))
    mean_before, _ = _faithfulness(sample, run)
    section = verify(qtbot, win)
    for k in (Qt.Key.Key_S, Qt.Key.Key_S, Qt.Key.Key_C):
        key(qtbot, section, k)
    qtbot.keyClick(win, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    mean_after, per_answer = _faithfulness(sample, run)
    assert mean_after != mean_before
    with sqlite3.connect(sample) as conn:
        rows = conn.execute(
            "SELECT k.key, sum(c.verdict = 'supported'), count(c.verdict) FROM claims c "
            "JOIN answers a ON a.id = c.answer_id JOIN runs r ON r.id = a.run_id "
            "JOIN cases k ON k.id = a.case_id WHERE r.name = ? AND k.status != 'retired' "
            "GROUP BY k.key", (run,))
        expected = {case: (supported / verified if verified else None)
                    for case, supported, verified in rows}
    # Retired cases are not measured; an answer with no claim has no faithfulness.
    assert set(expected) <= set(per_answer)
    assert all(per_answer[case] is None for case in set(per_answer) - set(expected))
    assert {case: per_answer[case] for case in expected} == pytest.approx(expected)


def test_verdict_moves_to_next_unverified_and_undo_restores(qtbot, win: MainWindow,
                                                             sample: Path) -> None:
    section = verify(qtbot, win)
    first = section.claim_id()
    assert first is not None
    key(qtbot, section, Qt.Key.Key_N)
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", first) == "not_supported"
    second = section.claim_id()
    assert second != first
    assert next(q for q in section.queue if q["id"] == second)["verdict"] is None
    # j / k walk the claims in queue order (run, case, position)
    ids = [q["id"] for q in section.queue]
    key(qtbot, section, Qt.Key.Key_K)
    assert section.claim_id() == ids[ids.index(second) - 1]
    key(qtbot, section, Qt.Key.Key_J)
    assert section.claim_id() == second
    section.go_to_claim(first)
    key(qtbot, section, Qt.Key.Key_U)  # back to unverified
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", first) is None
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", first) == "not_supported"
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", first) is None
    assert section.claims.rows[current_claim_row(section)]["verdict"] is None


def current_claim_row(section: VerifySection) -> int:
    return section.claims_table.currentIndex().row()


def test_rationale_is_saved_on_enter_and_undoable(qtbot, win: MainWindow,
                                                  sample: Path) -> None:
    section = verify(qtbot, win)
    claim = section.claim_id()
    key(qtbot, section, Qt.Key.Key_W)
    assert section.rationale.hasFocus()
    qtbot.keyClicks(section.rationale, "pas dans le contexte")
    qtbot.keyClick(section.rationale, Qt.Key.Key_Return)
    assert one(sample, "SELECT rationale FROM claims WHERE id = ?", claim) == \
        "pas dans le contexte"
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", claim) is None
    section.claims_table.setFocus()
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert one(sample, "SELECT rationale FROM claims WHERE id = ?", claim) == ""


def test_blind_hides_judges_and_other_assessors_until_b(qtbot, sample: Path,
                                                        english: None) -> None:
    with GoldSetStore.open(sample, assessor="Bob") as store:
        claim = first_unverified(sample)
        ops.set_claim_verdict(store, claim, "contradicted")
    window = open_window(qtbot, sample, assessor=ASSESSOR)
    section = verify(qtbot, window)
    section.go_to_claim(claim)
    row = current_claim_row(section)
    assert section.claims_table.isColumnHidden(OTHERS_COLUMN)
    assert "Contradicted" not in str(section.claims.index(row, 2).data())
    # the current claim is drawn in the "hidden" colour, not the contradicted one
    assert "#adb5bd" in section.answer_view.toHtml().lower()
    assert "#ff8787" not in section.answer_view.toHtml().lower()
    key(qtbot, section, Qt.Key.Key_B)
    assert section.others_revealed
    assert not section.claims_table.isColumnHidden(OTHERS_COLUMN)
    assert str(section.claims.index(row, OTHERS_COLUMN).data()) == "Bob: Contradicted"
    assert str(section.claims.index(row, 2).data()) == "Contradicted"
    assert "#ff8787" in section.answer_view.toHtml().lower()
    key(qtbot, section, Qt.Key.Key_B)
    assert section.claims_table.isColumnHidden(OTHERS_COLUMN)


def test_answer_end_to_end_then_undo_each(qtbot, win: MainWindow, sample: Path) -> None:
    """Verdicts, an evidence span, a citation check, an answer review; then undo of each."""
    section = verify(qtbot, win)
    # an answer with a citation, retrieved contexts and two unverified claims
    store = section.store
    assert store is not None
    answer = next(a for a in section.answer_order
                  if store.answer_context(a)["citations"]
                  and store.answer_context(a)["contexts"]
                  and [c["verdict"] for c in store.answer_context(a)["claims"]][:2]
                  == [None, None])
    section.show_answer(answer)
    section.claims_table.setFocus()
    claims = [c["id"] for c in section.claims.rows]
    section.go_to_claim(claims[0])
    undo_stack = win.undo.stack
    start_index = undo_stack.index()
    context = section.context
    assert context is not None
    review = (context["run_id"], context["case_id"])
    sql_review = "FROM answer_reviews WHERE run_id = ? AND case_id = ?"
    old_outcome = one(sample, f"SELECT outcome {sql_review}", *review)
    old_validated = one(sample, f"SELECT validated {sql_review}", *review)
    new_outcome = OUTCOMES[(OUTCOMES.index(old_outcome) + 1) % len(OUTCOMES)]
    as_bool = None if old_validated is None else bool(old_validated)
    new_validated = BOOLS[(BOOLS.index(as_bool) + 1) % len(BOOLS)]

    # 1. verdicts
    key(qtbot, section, Qt.Key.Key_S)
    section.go_to_claim(claims[1])
    key(qtbot, section, Qt.Key.Key_C)
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", claims[0]) == "supported"
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", claims[1]) == "contradicted"

    # 2. evidence: select words of the shown context, E
    section.go_to_claim(claims[0])
    doc = section.current_document()
    assert doc is not None
    words = doc["text"].split()[1]
    start = doc["text"].index(words)
    cursor = section.context_view.textCursor()
    cursor.setPosition(to_qt(doc["text"], start))
    cursor.setPosition(to_qt(doc["text"], start + len(words)), QTextCursor.MoveMode.KeepAnchor)
    section.context_view.setTextCursor(cursor)
    section.claims_table.setFocus()
    key(qtbot, section, Qt.Key.Key_E)
    assert one(sample, "SELECT count(*) FROM evidence WHERE claim_id = ? AND document_id = ? "
                       "AND span_start = ? AND span_end = ?",
               claims[0], doc["document_id"], start, start + len(words)) == 1
    assert section.context_view.extraSelections(), "the evidence is highlighted"

    # 3. a citation check: y
    citation = section.citations.rows[0]["id"]
    key(qtbot, section, Qt.Key.Key_Y)
    assert one(sample, "SELECT support FROM citations WHERE id = ?", citation) == "yes"

    # 4. the answer review: r, then Space on outcome, down to validated, Space
    key(qtbot, section, Qt.Key.Key_R)
    assert section.review_table.hasFocus()
    section.review_table.selectRow(0)
    qtbot.keyClick(section.review_table, Qt.Key.Key_Space)
    qtbot.keyClick(section.review_table, Qt.Key.Key_Down)
    qtbot.keyClick(section.review_table, Qt.Key.Key_Space)
    assert one(sample, f"SELECT outcome {sql_review}", *review) == new_outcome
    assert one(sample, f"SELECT validated {sql_review}", *review) == (
        None if new_validated is None else int(new_validated))
    assert undo_stack.index() == start_index + 6

    # undo each, newest first
    def undo() -> None:
        qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)

    undo()
    assert one(sample, f"SELECT validated {sql_review}", *review) == old_validated
    assert one(sample, f"SELECT outcome {sql_review}", *review) == new_outcome
    undo()
    assert one(sample, f"SELECT outcome {sql_review}", *review) == old_outcome
    undo()
    assert one(sample, "SELECT support FROM citations WHERE id = ?", citation) is None
    undo()
    assert one(sample, "SELECT count(*) FROM evidence WHERE claim_id = ?", claims[0]) == 0
    undo()
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", claims[1]) is None
    undo()
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", claims[0]) is None


def test_split_merge_delete_add_claims_by_keyboard(qtbot, win: MainWindow,
                                                   sample: Path) -> None:
    section = verify(qtbot, win)
    answer = section.answer_id()
    claim = section.current_claim()
    assert claim is not None and answer is not None
    n = len(section.claims.rows)
    key(qtbot, section, Qt.Key.Key_F2)
    assert section.claim_text.hasFocus()
    cut = claim["text"].index(" ", len(claim["text"]) // 2)
    section.claim_text.setCursorPosition(to_qt(claim["text"], cut))
    qtbot.keyClick(section.claim_text, Qt.Key.Key_T,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: len(section.claims.rows) == n + 1)  # refreshed after the event
    texts = [c["text"] for c in section.claims.rows]
    assert claim["text"][:cut].strip() in texts and claim["text"][cut:].strip() in texts
    # merge back
    section.go_to_claim(claim["id"])
    key(qtbot, section, Qt.Key.Key_M,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: len(section.claims.rows) == n)
    assert [c["text"] for c in section.claims.rows].count(claim["text"]) == 1
    # delete, then undo
    key(qtbot, section, Qt.Key.Key_D,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert one(sample, "SELECT count(*) FROM claims WHERE id = ?", claim["id"]) == 0
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert one(sample, "SELECT count(*) FROM claims WHERE id = ?", claim["id"]) == 1
    qtbot.waitUntil(lambda: len(section.claims.rows) == n)
    # add from words selected in the answer
    context = section.context
    assert context is not None
    text = context["text"]
    cursor = section.answer_view.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(to_qt(text, 10), QTextCursor.MoveMode.KeepAnchor)
    section.answer_view.setTextCursor(cursor)
    assert section.answer_view.toPlainText() == text.replace("\n", "\u2029") or \
        len(section.answer_view.toPlainText()) == len(text)
    key(qtbot, section, Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: len(section.claims.rows) == n + 1)
    added = one(sample, "SELECT text FROM claims WHERE answer_id = ? AND span_start = 0 "
                        "AND span_end <= 10 ORDER BY id DESC", answer)
    assert added == text[:10].strip()
    # edit the text with F2 … Enter
    section.claims_table.setFocus()
    key(qtbot, section, Qt.Key.Key_F2)
    section.claim_text.setText("Reformulée")
    qtbot.keyClick(section.claim_text, Qt.Key.Key_Return)
    assert one(sample, "SELECT count(*) FROM claims WHERE text = 'Reformulée'") == 1


def test_keys_are_registered_in_the_verify_section() -> None:
    ids = actions.ids_in("verify")
    shortcuts = {actions.spec(i).shortcuts[0] for i in ids}
    assert {"S", "N", "C", "U", "J", "K", "B", "E", "R", "G"} <= shortcuts
    assert len(shortcuts) == len(ids)


def test_utf16_offsets_round_trip() -> None:
    text = "a😀b é"
    for i in range(len(text) + 1):
        assert from_qt(text, to_qt(text, i)) == i
    assert to_qt(text, 2) == 3


def test_f6_and_keyboard_selection_make_evidence(qtbot, win: MainWindow,
                                                 sample: Path) -> None:
    section = verify(qtbot, win)
    claim = section.claim_id()
    key(qtbot, section, Qt.Key.Key_F6)
    assert section.context_view.hasFocus()
    doc = section.current_document()
    assert doc is not None
    for _ in range(2):  # select the first two words with Ctrl+Shift+Right
        qtbot.keyClick(section.context_view, Qt.Key.Key_Right,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(section.context_view, Qt.Key.Key_E)
    rows = section.store.query("SELECT * FROM evidence WHERE claim_id = ?", (claim,))
    assert len(rows) == 1 and rows[0]["span_start"] == 0
    words = doc["text"][:rows[0]["span_end"]]
    assert words and words == words.strip()  # the words, not the spaces after them
    # Shift+E removes it; the verdict keys still work from the context
    qtbot.keyClick(section.context_view, Qt.Key.Key_E, Qt.KeyboardModifier.ShiftModifier)
    assert section.store.query("SELECT * FROM evidence WHERE claim_id = ?", (claim,)) == []
    qtbot.keyClick(section.context_view, Qt.Key.Key_S)
    assert one(sample, "SELECT verdict FROM claims WHERE id = ?", claim) == "supported"
    # l / h change the context shown
    first = section.current_document()
    key(qtbot, section, Qt.Key.Key_L)
    assert section.current_document() != first
    key(qtbot, section, Qt.Key.Key_H)
    assert section.current_document() == first
    key(qtbot, section, Qt.Key.Key_F6)
    assert section.answer_view.hasFocus()
    key(qtbot, section, Qt.Key.Key_F6)
    assert section.claims_table.hasFocus()


def test_calibration_dialog_goes_to_a_disagreement(qtbot, sample: Path, tmp_path: Path,
                                                  english: None) -> None:
    from PySide6.QtCore import QTimer

    from rag_annotator.import_export import registry
    from rag_annotator.ui.verify.widgets import CalibrationDialog
    from tests.import_export.judge_files import RUN, verify_at_random, write_ragchecker

    with GoldSetStore.open(sample, assessor=ASSESSOR) as store:
        verify_at_random(store)
        write_ragchecker(store, tmp_path / "r.json")
        registry.importer("ragchecker")(store, tmp_path / "r.json",
                                        registry.Options(run=RUN))
    window = open_window(qtbot, sample, assessor=ASSESSOR)
    section = verify(qtbot, window)
    seen: dict[str, object] = {}

    def answer() -> None:
        dialog = next(w for w in QApplication.topLevelWidgets()
                      if isinstance(w, CalibrationDialog) and w.isVisible())
        seen["summary"] = dialog.summary.text()
        row = dialog.rows.rows[1]
        seen["claim"] = row["claim_id"]
        dialog.table.selectRow(1)
        qtbot.keyClick(dialog.table, Qt.Key.Key_Return)

    QTimer.singleShot(0, answer)
    key(qtbot, section, Qt.Key.Key_G)
    assert "κ" in str(seen["summary"])
    assert section.claim_id() == seen["claim"]
    qtbot.waitUntil(section.claims_table.hasFocus)  # back to the claims, keys work again


def test_answers_list_opens_an_answer_and_follows_verdicts(qtbot, win: MainWindow) -> None:
    section = verify(qtbot, win)
    assert section.answers.rowCount() == 50  # 44 + issue 17's six structured answers
    key(qtbot, section, Qt.Key.Key_O)
    assert section.answers_table.hasFocus()
    row = section.answers.rows.index(next(r for r in section.answers.rows
                                          if r["id"] == section.answer_id()))
    verified = section.answers.rows[row]["verified"]
    target = next(i for i, r in enumerate(section.answers.rows) if r["claims"] == 3)
    section.answers_table.selectRow(target)
    qtbot.keyClick(section.answers_table, Qt.Key.Key_Return)
    assert section.answer_id() == section.answers.rows[target]["id"]
    assert section.claims_table.hasFocus() and section.claims.rowCount() == 3
    key(qtbot, section, Qt.Key.Key_K, Qt.KeyboardModifier.ShiftModifier)  # previous answer
    assert section.answer_id() == section.answers.rows[target - 1]["id"]
    key(qtbot, section, Qt.Key.Key_J, Qt.KeyboardModifier.ShiftModifier)
    assert section.answer_id() == section.answers.rows[target]["id"]
    before = section.answers.rows[target]["verified"]
    section.claims_table.selectRow(0)
    key(qtbot, section, Qt.Key.Key_N)
    assert section.answers.rows[target]["verified"] == before + 1
    assert section.answers.rows[row]["verified"] == verified


def test_t_selects_a_citation_shows_its_document_and_flags_rights(
        qtbot, sample: Path, english: None) -> None:
    # Q01's bm25 answer cites a document; make it readable by managers only
    with GoldSetStore.open(sample, assessor=ASSESSOR) as store:
        answer = store.query("SELECT a.id FROM answers a JOIN runs r ON r.id = a.run_id "
                             "JOIN cases c ON c.id = a.case_id "
                             "WHERE r.name = 'bm25-gpt4o-v1' AND c.key = 'Q01'")[0]["id"]
        cited = store.query("SELECT document_id FROM citations WHERE answer_id = ?",
                            (answer,))[0]["document_id"]
        ops.edit_document(store, cited, rights=["manager"])
    window = open_window(qtbot, sample, assessor=ASSESSOR)
    section = verify(qtbot, window)
    section.show_answer(answer)
    section.claims_table.setFocus()
    key(qtbot, section, Qt.Key.Key_L)  # away from the cited document first
    key(qtbot, section, Qt.Key.Key_T)
    doc = section.current_document()
    assert doc is not None and doc["document_id"] == cited
    assert "may not read" in section.context_label.text()
    assert "may not read" in str(section.citations.index(0, 3).data())
    assert colours.css_bg("marker") in section.answer_view.toHtml().lower()  # the marker is boxed
    key(qtbot, section, Qt.Key.Key_P)
    assert one(sample, "SELECT support FROM citations WHERE answer_id = ?", answer) == "partly"
    key(qtbot, section, Qt.Key.Key_P)  # the same key again clears it
    assert one(sample, "SELECT support FROM citations WHERE answer_id = ?", answer) is None
