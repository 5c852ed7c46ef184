"""A key swaps in what was prepared after the last paint (issue 19).

Work meant for after the paint (``ui/after_paint.py``) runs after it, or after a short delay
when nothing is painted; a Verify key that reaches the next answer resets no table and reads
neither its contexts nor its citations (checked against the file read with plain SQL); the
Judge's highlighting found ahead is the one found at the key."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from rag_annotator.domain.terms import question_terms, term_spans
from rag_annotator.import_export.sample import create_sample
from rag_annotator.ui.after_paint import AfterPaint
from rag_annotator.ui.judge.widgets import TermHighlighter
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.verify.section import VerifySection
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui


class _Paints(QObject):
    def __init__(self, order: list[str]) -> None:
        super().__init__()
        self.order = order

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Paint:
            self.order.append("paint")
        return False


def test_after_paint_runs_the_work_once_the_widget_is_painted(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(200, 100)
    widget.show()
    qtbot.waitExposed(widget)
    qtbot.wait(20)
    order: list[str] = []
    spy = _Paints(order)
    widget.installEventFilter(spy)
    after = AfterPaint(widget, lambda: order.append("work"))
    after.arm()
    after.arm()  # asked twice before the paint: runs once
    assert after.due and order == []
    widget.update()
    qtbot.waitUntil(lambda: "work" in order)
    qtbot.wait(80)  # past the fallback delay: nothing more
    assert order[-1] == "work" and order.count("work") == 1 and "paint" in order
    assert order.index("paint") < order.index("work") and not after.due


def test_after_paint_runs_the_work_when_nothing_is_painted(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = QWidget()  # never shown: never painted
    qtbot.addWidget(widget)
    done: list[int] = []
    after = AfterPaint(widget, lambda: done.append(1), fallback_ms=10)
    after.arm()
    qtbot.waitUntil(lambda: done == [1], timeout=1000)
    after.arm()
    after.cancel()
    qtbot.wait(40)
    assert done == [1]


@pytest.fixture
def sample(goldset_path: Path) -> Path:
    create_sample(goldset_path, assessor="Claire Dubois", with_judge=False).close()
    return goldset_path


def _claims_of(path: Path, answer_id: int) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [int(i) for (i,) in conn.execute(
            "SELECT id FROM claims WHERE answer_id = ? ORDER BY position, id", (answer_id,))]


def _question_of(path: Path, answer_id: int) -> str:
    with sqlite3.connect(path) as conn:
        return str(conn.execute("SELECT c.question FROM answers a JOIN cases c "
                                "ON c.id = a.case_id WHERE a.id = ?", (answer_id,))
                   .fetchone()[0])


def test_a_key_to_the_next_answer_swaps_in_what_was_prepared(
        qtbot, sample: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    win: MainWindow = open_window(qtbot, sample, assessor="Claire Dubois")
    qtbot.keyClick(win, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    section = win.current_section()
    assert isinstance(section, VerifySection)
    qtbot.waitUntil(lambda: not section.queue_pending)
    # its header (a QuietLabel, one line) passes no height-for-width up: the sections' scroll
    # area would grow every section to its preferred height (found on the guide's pictures)
    assert not section.hasHeightForWidth()
    store = win.store
    assert store is not None
    resets: list[str] = []
    for name in ("claims", "citations", "review"):
        getattr(section, name).modelReset.connect(lambda n=name: resets.append(n))
    switched = 0
    for _ in range(12):
        qtbot.waitUntil(lambda: not section.prefetch_pending)
        before = section.answer_id()
        statements: list[str] = []
        store._conn.set_trace_callback(statements.append)
        qtbot.keyClick(section.claims_table, Qt.Key.Key_S)
        store._conn.set_trace_callback(None)
        answer = section.answer_id()
        if answer is None or answer == before:
            continue
        switched += 1
        # the answer read and prepared after the last paint: none of it read again
        assert not [s for s in statements if "FROM retrieved" in s or "FROM citations" in s]
        assert [int(c["id"]) for c in section.claims.rows] == _claims_of(sample, answer)
        assert _question_of(sample, answer) in section.case_view.toPlainText()
    assert switched >= 2
    assert resets == []  # rows replaced in place: headers and scroll bars kept


def test_the_highlighting_found_ahead_is_the_one_found_at_the_key(qtbot) -> None:  # type: ignore[no-untyped-def]
    question = "Combien de jours de télétravail par semaine avec l'accord du manager ?"
    text = ("Art. 2 – Rythme. Le salarié peut télétravailler jusqu'à 3 jours par semaine,\n"
            "avec l'accord écrit de son manager.\n\nArt. 3 – Demande au Manager.")
    view = QPlainTextEdit()  # as the Judge's document view
    qtbot.addWidget(view)
    document = view.document()
    highlighter = TermHighlighter(document)
    qtbot.wait(5)  # its first (deferred) highlighting pass: then it follows each change
    highlighter.set_question("sans rapport")
    highlighter.prepare(text, question)  # the next case's first text, its own question
    highlighter.set_question(question)
    document.setPlainText(text)
    terms = question_terms(question)
    block = document.begin()
    found = []
    while block.isValid():
        spans = sorted((f.start, f.start + f.length) for f in block.layout().formats())
        assert spans == term_spans(block.text(), terms)
        found += spans
        block = block.next()
    assert found  # the question's words are there to be found
