"""Judge within a frame (issue 19): what the panel reads ahead is used, and never stale.

Once a pair is painted the panel reads the next case's pool, case detail and first text
(``ui/judge/pool_reads.py``); moving there then runs no pool query.  A change to that case
(a label written elsewhere) drops what was read, so the pool shown is always the store's own
``pool_of_case`` — the peer these tests compare with.  ``RowsModel.replace_rows`` swaps a
pool without a model reset.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QTableView

from rag_annotator.domain import judging_ops
from rag_annotator.ui.judge.section import JudgeSection
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.models import Column, RowsModel
from tests.builders import Rich
from tests.ui.driving import judge_on_case

pytestmark = pytest.mark.gui


def _read_ahead(qtbot: Any, judge: JudgeSection) -> int:
    """Wait for the next case's pool to be read ahead; its case id."""
    qtbot.waitUntil(lambda: bool(judge.reads._pools), timeout=2000)
    return next(iter(judge.reads._pools))


def _shown(judge: JudgeSection) -> list[dict[str, Any]]:
    return [dict(r) for r in judge.pool.rows]


def test_moving_to_the_case_read_ahead_runs_no_pool_query(qtbot, window: MainWindow) -> None:
    judge = judge_on_case(qtbot, window, "Q1")
    store = window.store
    assert store is not None
    ahead = _read_ahead(qtbot, judge)
    assert ahead != judge.case_id()
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    try:
        judge.cases.selectRow(judge.progress_model.row_of(ahead))
    finally:
        store._conn.set_trace_callback(None)
    assert judge.case_id() == ahead
    assert not [s for s in statements if "universe" in s], statements
    assert _shown(judge) == store.pool_of_case(ahead, "alice")
    pair = judge.pool.row_at(judge.pairs.currentIndex().row())
    assert pair is not None
    assert judge.document.toPlainText().endswith(store.document_text(pair["document_id"]))


def test_a_label_written_on_the_case_read_ahead_is_shown(
        qtbot, window: MainWindow, rich: Rich) -> None:
    judge = judge_on_case(qtbot, window, "Q1")
    store = window.store
    assert store is not None
    ahead = _read_ahead(qtbot, judge)
    document = int(judge.reads._pools[ahead][0]["document_id"])
    before = store.pool_of_case(ahead, "alice")
    # A label on that case's first pair, written while the panel shows Q1 (undoable, as
    # another panel or a merge would write it).
    window.undo.run(lambda s: judging_ops.set_judgment(s, ahead, document, 0))
    assert ahead not in judge.reads._pools
    judge.cases.selectRow(judge.progress_model.row_of(ahead))
    after = store.pool_of_case(ahead, "alice")
    assert after != before
    assert _shown(judge) == after
    mine = next(r for r in _shown(judge) if r["document_id"] == document)
    assert mine["my_grade"] == 0
    window.undo.undo()  # and back: the pool shown follows again
    assert _shown(judge) == store.pool_of_case(ahead, "alice") == before


def test_replace_rows_changes_rows_in_place_without_a_reset(qtbot) -> None:
    model = RowsModel([Column("Key", lambda r: r["key"])])
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    events: list[str] = []
    model.modelReset.connect(lambda: events.append("reset"))
    model.rowsInserted.connect(lambda _p, first, last: events.append(f"insert {first}-{last}"))
    model.rowsRemoved.connect(lambda _p, first, last: events.append(f"remove {first}-{last}"))
    model.dataChanged.connect(lambda a, b: events.append(f"changed {a.row()}-{b.row()}"))
    model.replace_rows([{"key": k} for k in "abc"])
    model.replace_rows([{"key": k} for k in "xyzw"])
    model.replace_rows([{"key": k} for k in "q"])
    model.replace_rows([])
    assert events == ["insert 0-2", "insert 3-3", "changed 0-2", "remove 1-3", "changed 0-0",
                      "remove 0-0"]
    model.replace_rows([{"key": "k"}, {"key": "l"}])
    assert [model.data(model.index(i, 0)) for i in range(model.rowCount())] == ["k", "l"]


def test_a_document_text_edited_is_shown_fresh(qtbot, window: MainWindow) -> None:
    from rag_annotator.domain import operations as ops

    judge = judge_on_case(qtbot, window, "Q1")
    _read_ahead(qtbot, judge)
    ahead = judge.reads._texts  # the texts read so far, the shown pair's among them
    document = judge.document_id()
    assert document is not None and document in ahead
    window.undo.run(lambda s: ops.edit_document(s, document, text="Texte revu."))
    assert judge.document_id() == document
    assert judge.document.toPlainText().endswith("Texte revu.")
