"""A bulk run import is logged as id ranges, yet undo and redo restore exact states.

``insert_many`` records one ``insert_range`` history row per batch instead of one image per
row; these tests pin that an undo deletes exactly those rows, that a redo puts them back with
the same ids, and that an undo is refused (changing nothing) once one of them was edited.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.errors import Conflict
from rag_annotator.import_export import trec_files
from rag_annotator.storage import transaction
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import dump, full_dump, rows, scalar

QUERIES, DEPTH = 60, 50  # 3,000 lines


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> int:
    """Batches of 700 rows, so an import spans several range rows (the last one partial)."""
    monkeypatch.setattr(transaction, "RANGE_BATCH", 700)
    return 700


def _run_file(tmp_path: Path) -> Path:
    lines = [f"q{q} Q0 d{(q * 7 + r) % 400} {r + 1} {100 - r}.5 sys"
             for q in range(QUERIES) for r in range(DEPTH)]
    path = tmp_path / "run.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _with_corpus(store: GoldSetStore) -> None:
    """Half the documents already exist, so the import mixes known ids and placeholders."""
    for d in range(0, 400, 2):
        ops.create_document(store, key=f"d{d}", text=f"text {d}")
    ops.create_case(store, key="q1", question="known case")


def test_import_undo_redo_restore_exact_states(store: GoldSetStore, goldset_path: Path,
                                               tmp_path: Path, small_batches: int) -> None:
    _with_corpus(store)
    before = dump(goldset_path)
    report = trec_files.import_run(store, _run_file(tmp_path))
    assert report.rows == QUERIES * DEPTH
    after = dump(goldset_path)
    imported = store.operation_ids()[0]
    kinds = rows(goldset_path, "SELECT kind, count(*) FROM history WHERE operation_id = ? "
                               "AND table_name = 'retrieved' GROUP BY kind", (imported,))
    assert kinds == [("insert_range", -(-QUERIES * DEPTH // small_batches))]
    assert store.operations_rows([imported])[imported]["row_count"] == \
        QUERIES * DEPTH + len(report.new_cases) + len(report.new_documents) + 1
    shown = [r for r in store.history_of(imported) if r["kind"] == "insert_range"]
    assert sum(r["count"] for r in shown) == QUERIES * DEPTH
    assert shown[0]["row_key"] == {"first": 1, "last": small_batches}

    undo = store.revert(imported).operation_id
    assert dump(goldset_path) == before
    assert scalar(goldset_path, "SELECT count(*) FROM history WHERE operation_id = ? "
                                "AND kind = 'delete_range'", (undo,)) == len(shown)
    redo = store.revert(undo, action="redo").operation_id
    assert dump(goldset_path) == after  # same rows, same ids
    store.revert(redo)
    assert dump(goldset_path) == before
    assert store.integrity_problems() == [] and store.schema_problems() == []
    assert store.cross_reference_problems() == []


def test_undo_refused_after_an_imported_row_changed(store: GoldSetStore, goldset_path: Path,
                                                    tmp_path: Path,
                                                    small_batches: int) -> None:
    _with_corpus(store)
    trec_files.import_run(store, _run_file(tmp_path))
    imported = store.operation_ids()[0]
    row_id = 1500  # in the middle of the third batch
    with store.operation("edit", "score") as op:
        op.update("retrieved", {"id": row_id}, {"score": -1.0})
    edited = store.operation_ids()[0]
    state = full_dump(goldset_path)
    with pytest.raises(Conflict, match=r"retrieved #1401–#2100 were changed since"):
        store.revert(imported)
    assert full_dump(goldset_path) == state
    # Undoing the edit first makes the import revertible again.
    store.revert(edited)
    store.revert(imported)
    assert store.count("retrieved") == 0 and store.count("runs") == 0


def test_undo_refused_after_an_imported_row_was_deleted(store: GoldSetStore,
                                                        goldset_path: Path,
                                                        tmp_path: Path,
                                                        small_batches: int) -> None:
    trec_files.import_run(store, _run_file(tmp_path))
    imported = store.operation_ids()[0]
    ops.delete_case(store, store.by_key("cases", "q3")["id"])
    state = full_dump(goldset_path)
    with pytest.raises(Conflict, match="changed since"):
        store.revert(imported)
    assert full_dump(goldset_path) == state


def test_redo_refused_when_a_parent_is_gone(store: GoldSetStore, goldset_path: Path,
                                            tmp_path: Path, small_batches: int) -> None:
    """Redo of an undone import whose corpus document was deleted meanwhile: refused."""
    _with_corpus(store)
    trec_files.import_run(store, _run_file(tmp_path))
    undo = store.revert(store.operation_ids()[0]).operation_id
    ops.delete_document(store, store.by_key("documents", "d0")["id"])
    state = full_dump(goldset_path)
    with pytest.raises(Conflict):
        store.revert(undo, action="redo")
    assert full_dump(goldset_path) == state


def test_touched_cases_of_a_bulk_import_mean_recount_everything(
        store: GoldSetStore, tmp_path: Path) -> None:
    changes = trec_files.import_run(store, _run_file(tmp_path)).changes
    assert changes is not None and changes.cases_touched() is None


COLUMNS = ("key", "text", "content_hash", "created_at", "updated_at")


@pytest.mark.parametrize("count", [0, 1, 699, 700, 701, 2100])
def test_bulk_rows_stream_to_sqlite_in_whole_batches(store: GoldSetStore, goldset_path: Path,
                                                     small_batches: int, count: int) -> None:
    """``insert_rows`` hands each batch to SQLite straight from the iterator (issue 19): every
    row is stored, one range row per batch (none empty), and a failure half-way in the rows
    leaves nothing."""
    now = "2026-01-01T00:00:00Z"
    with store.operation("import_run", "documents") as op:
        stored = op.insert_rows("documents", COLUMNS,
                                ((f"d{i}", "t", "", now, now) for i in range(count)))
    assert stored == count == store.count("documents")
    ranges = rows(goldset_path, "SELECT row_key FROM history WHERE kind = 'insert_range' "
                                "ORDER BY id")
    assert [tuple(json.loads(key).values()) for (key,) in ranges] == [
        (first, min(first + small_batches - 1, count))
        for first in range(1, count + 1, small_batches)]
    before = full_dump(goldset_path)

    def failing() -> Iterator[tuple[str, ...]]:
        for i in range(count + small_batches + 5):
            if i == small_batches + 3:
                raise RuntimeError("the source broke")
            yield f"e{i}", "t", "", now, now

    with pytest.raises(RuntimeError, match="broke"), store.operation("import_run", "x") as op:
        op.insert_rows("documents", COLUMNS, failing())
    assert full_dump(goldset_path) == before
