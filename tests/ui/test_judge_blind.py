"""Blind judging: the Judge panel hides the other assessors' labels and the effective label
until the assessor asks for them (B), so a label is the assessor's own reading."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import Qt

from rag_annotator.ui import actions, labels
from rag_annotator.ui.judge.section import BLIND_COLUMNS, JudgeSection
from rag_annotator.ui.main_window import MainWindow
from tests.ui.driving import judge_on_case

pytestmark = pytest.mark.gui


def cell(judge: JudgeSection, document: str, column: int) -> str:
    row = next(i for i, r in enumerate(judge.pool.rows) if r["key"] == document)
    return str(judge.pool.index(row, column).data())


def test_others_labels_are_hidden_until_b_is_pressed(qtbot, window: MainWindow) -> None:
    judge = judge_on_case(qtbot, window, "Q1")
    titles = [judge.pool.headerData(c, Qt.Orientation.Horizontal) for c in BLIND_COLUMNS]
    assert titles == ["Others' labels", "Effective label"]
    toggle = judge.commands["judge.show_others"]

    # Blind by default: both columns hidden, and never rendered (their text is not computed).
    rendered: list[str] = []
    for column in BLIND_COLUMNS:
        original = judge.pool.columns[column]

        def spy(row: dict[str, object], value=original.value, title=original.title) -> object:  # type: ignore[no-untyped-def]
            rendered.append(title)
            return value(row)

        judge.pool.columns[column] = dataclasses.replace(original, value=spy)
    assert all(judge.pairs.isColumnHidden(c) for c in BLIND_COLUMNS)
    assert not toggle.isChecked() and not judge.others_revealed
    judge.pairs.grab()
    assert rendered == []

    # B shows them: bob's labels and the effective label (D2 disputed, D3 adjudicated).
    qtbot.keyClick(judge.pairs, Qt.Key.Key_B)
    assert toggle.isChecked() and judge.others_revealed
    assert not any(judge.pairs.isColumnHidden(c) for c in BLIND_COLUMNS)
    for column in BLIND_COLUMNS:  # scrolled into view, in case the panel is narrow
        judge.pairs.scrollTo(judge.pool.index(0, column))
        judge.pairs.grab()
    assert set(rendered) == {"Others' labels", "Effective label"}
    assert cell(judge, "D1", 3) == f"bob: {labels.grade(1)}"
    assert cell(judge, "D2", 3) == f"bob: {labels.grade(0)}"
    assert cell(judge, "D2", 4) == labels.judgment("disputed")
    assert cell(judge, "D3", 4) == labels.grade(1)
    assert "alice" not in cell(judge, "D1", 3)  # the assessor's own label has its column

    # B again: blind again.  Judging keys work either way.
    qtbot.keyClick(judge.pairs, Qt.Key.Key_B)
    assert not toggle.isChecked()
    assert all(judge.pairs.isColumnHidden(c) for c in BLIND_COLUMNS)


def test_the_toggle_is_registered_and_translated(window: MainWindow, french: None) -> None:
    declared = actions.spec("judge.show_others")
    assert declared.shortcuts == ("B",) and declared.section == "judge" and declared.checkable
    sheet = dict(row for _title, rows in actions.cheat_sheet() for row in rows)
    assert sheet["Afficher les jugements des autres"] == "B"


def test_a_label_updates_its_row_and_the_counts_in_place(qtbot, window: MainWindow) -> None:
    """After a key the panel refreshes the one pool row and the running totals (no reload of
    the pool); after an undo, which removes the judgment row, they are right again."""
    judge = judge_on_case(qtbot, window, "Q2")
    store, progress = window.store, window.progress
    document_id = judge.document_id()
    resets: list[int] = []
    judge.pool.modelReset.connect(lambda: resets.append(1))

    def mine() -> object:
        return next(r["my_grade"] for r in judge.pool.rows if r["document_id"] == document_id)

    def consistent() -> bool:
        totals = progress.totals() or {}
        return {k: totals[k] for k in store.judgment_counts()} == store.judgment_counts()

    before = progress.totals() or {}
    qtbot.keyClick(judge.pairs, Qt.Key.Key_1)
    assert mine() == 1 and resets == []
    assert judge.document_id() != document_id  # moved on to the next pair to judge
    assert (progress.totals() or {})["mine"] == before["mine"] + 1 and consistent()
    assert window.ctx.undo.undo()
    assert mine() is None
    assert progress.totals() == before and consistent()
