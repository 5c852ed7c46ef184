"""Bulk edits, workflow steps and review decisions: one undoable operation each, refused whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_annotator.domain import goldset_ops as g
from rag_annotator.domain import operations as ops
from rag_annotator.domain import releases
from rag_annotator.domain.action_names import ACTION_NAMES
from rag_annotator.errors import Conflict, InvalidValue, KnownError, NotFound
from rag_annotator.storage.store import GoldSetStore
from tests.builders import last_id
from tests.helpers import BOOK_TABLES, ENTITY_TABLES, dump, rows

TABLES = (*ENTITY_TABLES, "case_reviews", *BOOK_TABLES)


def snapshot(path: Path) -> dict[str, list[tuple[object, ...]]]:
    return dump(path, TABLES)


def cases(store: GoldSetStore, n: int = 3) -> list[int]:
    ids = []
    for i in range(1, n + 1):
        ops.create_case(store, key=f"Q{i}", question=f"Question {i} ?",
                        reference_answer="R", tags=["rh"] if i % 2 else [])
        ids.append(last_id(store, "cases"))
    return ids


def column(path: Path, name: str) -> list[object]:
    return [r[0] for r in rows(path, f"SELECT {name} FROM cases ORDER BY key")]


def test_bulk_family_is_one_undoable_operation(store: GoldSetStore, goldset_path: Path) -> None:
    ids = cases(store)
    before = dump(goldset_path, ("cases",))
    changes = g.bulk_set_family(store, ids, "sensitive")
    assert column(goldset_path, "family") == ["sensitive"] * 3
    assert changes.action == "bulk_set_family" and changes.label == "Q1, Q2, Q3 → sensitive"
    assert rows(goldset_path, "SELECT count(*) FROM operations WHERE action = "
                              "'bulk_set_family'") == [(1,)]
    store.revert(changes.operation_id or 0)
    assert dump(goldset_path, ("cases",)) == before


def test_bulk_status_and_tags(store: GoldSetStore, goldset_path: Path) -> None:
    ids = cases(store)
    g.bulk_set_status(store, ids[:2], "reviewed")
    assert column(goldset_path, "status") == ["reviewed", "reviewed", "draft"]
    changes = g.bulk_edit_tags(store, ids, add=["congés", "rh"], remove=["rh"])
    # rh removed first, then added again at the end: every case ends with both, in order.
    assert [json.loads(t) for t in column(goldset_path, "tags")] == [["congés", "rh"]] * 3
    g.bulk_edit_tags(store, ids, remove=["rh"])
    assert [json.loads(t) for t in column(goldset_path, "tags")] == [["congés"]] * 3
    # The later tag edit changed the same rows: undoing the earlier one alone is refused.
    with pytest.raises(Conflict):
        store.revert(changes.operation_id or 0)


def test_bulk_edit_of_nothing_changes_nothing(store: GoldSetStore, goldset_path: Path) -> None:
    ids = cases(store)
    g.bulk_set_family(store, ids, "ordinary")  # already ordinary
    assert rows(goldset_path, "SELECT count(*) FROM operations WHERE action LIKE 'bulk%'") \
        == [(0,)]


@pytest.mark.parametrize(("call", "error"), [
    (lambda s, ids: g.bulk_set_family(s, ids, "nope"), InvalidValue),
    (lambda s, ids: g.bulk_set_status(s, ids, "published"), InvalidValue),
    (lambda s, ids: g.bulk_set_family(s, [], "sensitive"), InvalidValue),
    (lambda s, ids: g.bulk_set_family(s, [*ids, 999], "sensitive"), NotFound),
    (lambda s, ids: g.bulk_edit_tags(s, ids), InvalidValue),
    (lambda s, ids: g.bulk_edit_tags(s, ids, add=["  "]), InvalidValue),
    (lambda s, ids: g.review_case(s, ids[0], "maybe"), InvalidValue),
    (lambda s, ids: g.review_case(s, 999, "accepted"), NotFound),
])
def test_bad_bulk_edits_change_nothing(store: GoldSetStore, goldset_path: Path, call: object,
                                       error: type[KnownError]) -> None:
    ids = cases(store)
    before = snapshot(goldset_path)
    with pytest.raises(error):
        call(store, ids)  # type: ignore[operator]
    assert snapshot(goldset_path) == before


def test_workflow_steps() -> None:
    assert g.next_status("draft") == "reviewed"
    assert g.next_status("approved") == "retired"
    assert g.next_status("retired") == "retired"
    assert g.previous_status("reviewed") == "draft"
    assert g.previous_status("draft") == "draft"


@pytest.mark.parametrize(("keys", "expected"), [
    ([], "Q01"), (["Q01", "Q02"], "Q03"), (["Q9", "Q10", "X99"], "Q11"),
    (["Q001"], "Q002"), (["1", "2"], "Q01"),
])
def test_next_case_key(keys: list[str], expected: str) -> None:
    assert g.next_case_key(keys) == expected


def test_review_decisions_are_kept_and_undoable(store: GoldSetStore,
                                               goldset_path: Path) -> None:
    ids = cases(store, 2)
    before = snapshot(goldset_path)
    accepted = g.review_case(store, ids[0], "accepted")
    assert rows(goldset_path, "SELECT decision, decided_by FROM case_reviews") \
        == [("accepted", "alice")]
    assert column(goldset_path, "status") == ["reviewed", "draft"]
    g.review_case(store, ids[1], "rejected")
    assert column(goldset_path, "status") == ["reviewed", "retired"]
    last = g.review_case(store, ids[1], "pending")
    assert column(goldset_path, "status") == ["reviewed", "draft"]
    assert last.action == "review_case"
    store.revert(last.operation_id or 0)
    assert column(goldset_path, "status") == ["reviewed", "retired"]
    assert rows(goldset_path, "SELECT decision FROM case_reviews ORDER BY case_id") \
        == [("accepted",), ("rejected",)]
    assert "review_case" in ACTION_NAMES and "bulk_edit_tags" in ACTION_NAMES
    assert accepted.operation_id and before != snapshot(goldset_path)


def test_deleting_a_reviewed_case_removes_its_review(store: GoldSetStore,
                                                    goldset_path: Path) -> None:
    ids = cases(store, 2)
    g.review_case(store, ids[0], "accepted")
    with store.operation("test", "dup") as op:
        op.update("case_reviews", {"case_id": ids[0]}, {"near_duplicate_of": ids[1]})
    changes = ops.delete_case(store, ids[1])
    assert rows(goldset_path, "SELECT near_duplicate_of FROM case_reviews") == [(None,)]
    deleted = ops.delete_case(store, ids[0])
    assert rows(goldset_path, "SELECT count(*) FROM case_reviews") == [(0,)]
    store.revert(deleted.operation_id or 0)
    store.revert(changes.operation_id or 0)
    assert rows(goldset_path, "SELECT near_duplicate_of FROM case_reviews") == [(ids[1],)]


def test_frozen_approved_cases_refuse_bulk_edits(store: GoldSetStore,
                                                 goldset_path: Path) -> None:
    ids = cases(store)
    g.bulk_set_status(store, ids[:1], "approved")
    releases.freeze_release(store, "v1")
    before = snapshot(goldset_path)
    with pytest.raises(Conflict, match="frozen release 'v1'"):
        g.bulk_set_family(store, ids, "sensitive")
    assert snapshot(goldset_path) == before
    g.bulk_set_family(store, ids[1:], "sensitive")  # drafts stay editable
    assert column(goldset_path, "family") == ["ordinary", "sensitive", "sensitive"]
