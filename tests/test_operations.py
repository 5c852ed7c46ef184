"""Every domain operation: its effect on disk, the Changes it returns, its history, its
refusals (which change nothing), and undo/redo through ``store.revert``.

Effects are read back through a second connection (``tests.helpers``), so each assertion is
about what was committed.  The state machine at the end checks reliability.md G5: random
edit/undo/redo sequences always land on the exact earlier state.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
)

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.enums import Family
from rag_annotator.errors import Conflict, InvalidValue, KnownError, NotFound
from rag_annotator.import_export import trec_files
from rag_annotator.storage import transaction
from rag_annotator.storage.store import GoldSetStore
from tests.builders import Rich, build_rich, last_id
from tests.helpers import ENTITY_TABLES, dump, full_dump, ro_connect, rows, scalar

Dump = dict[str, list[tuple[Any, ...]]]


# -- helpers ---------------------------------------------------------------------------------
@pytest.fixture
def rich(store: GoldSetStore) -> Rich:
    return build_rich(store)


def op_row(path: Path, op_id: int) -> dict[str, Any]:
    names = ["id", "at", "assessor", "action", "label", "reverts", "undoable"]
    found = rows(path, f"SELECT {', '.join(names)} FROM operations WHERE id = ?", (op_id,))
    assert found, f"operation {op_id} is not committed"
    return dict(zip(names, found[0]))


def history(path: Path, op_id: int) -> list[dict[str, Any]]:
    return [
        {"table": t, "key": json.loads(k), "kind": kind,
         "old": None if o is None else json.loads(o), "new": None if n is None else json.loads(n)}
        for t, k, kind, o, n in rows(
            path, "SELECT table_name, row_key, kind, old, new FROM history "
                  "WHERE operation_id = ? ORDER BY id", (op_id,))
    ]


def row_dict(path: Path, table: str, row_id: int) -> dict[str, Any] | None:
    with ro_connect(path) as conn:
        cur = conn.execute(f"SELECT * FROM {table} WHERE id = ?", (row_id,))
        found = cur.fetchone()
        return None if found is None else dict(zip([d[0] for d in cur.description], found))


def ids(path: Path, table: str, where: str = "1", params: tuple[Any, ...] = ()) -> set[int]:
    return {r[0] for r in rows(path, f"SELECT id FROM {table} WHERE {where}", params)}


def assert_refused(path: Path, error: type[KnownError], fn: Callable[..., Any], *args: Any,
                   match: str | None = None, **kwargs: Any) -> KnownError:
    """``fn`` raises ``error`` (exactly that class) with a one-line message; nothing changed."""
    before = full_dump(path)
    with pytest.raises(KnownError) as caught:
        fn(*args, **kwargs)
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    message = str(caught.value)
    assert message.strip() and "\n" not in message
    if match:
        assert match in message, message
    assert full_dump(path) == before
    return caught.value


def check_op(path: Path, changes: Changes, action: str, assessor: str, t0: str) -> None:
    """The operation row is committed with who, when and what."""
    assert changes.operation_id and changes.action == action
    row = op_row(path, changes.operation_id)
    assert row["action"] == action and row["assessor"] == assessor
    assert row["label"] == changes.label
    assert t0 <= row["at"] <= utc_now() and row["at"].endswith("Z")
    assert row["reverts"] is None and row["undoable"] == 1


# -- gold-set settings -----------------------------------------------------------------------
def test_set_meta(store: GoldSetStore, goldset_path: Path) -> None:
    t0 = utc_now()
    changes = ops.set_meta(store, "guidelines", "# Consignes\nPertinent = répond.")
    check_op(goldset_path, changes, "set_meta", "alice", t0)
    assert changes.rows == {"meta": {"update": frozenset({"guidelines"})}}
    assert scalar(goldset_path, "SELECT value FROM meta WHERE key='guidelines'") \
        == "# Consignes\nPertinent = répond."
    [h] = history(goldset_path, changes.operation_id)
    assert (h["table"], h["kind"], h["key"]) == ("meta", "update", {"key": "guidelines"})
    assert h["old"]["value"] == "" and h["new"]["value"].startswith("# Consignes")

    assert_refused(goldset_path, InvalidValue, ops.set_meta, store, "max_grade", "3",
                   match="max_grade")
    assert_refused(goldset_path, InvalidValue, ops.set_meta, store, "name", "\ud800")
    assert_refused(goldset_path, InvalidValue, ops.set_meta, store, "name", 12)
    with GoldSetStore.open(goldset_path, read_only=True) as ro:
        assert ro.meta("guidelines").startswith("# Consignes")


def test_set_graded_scale(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1")
    ops.create_document(store, key="D2")
    for bad in (0, judging_ops.MAX_GRADE + 1, -1, "2", None):
        assert_refused(goldset_path, InvalidValue, judging_ops.set_graded_scale, store, bad)
    changes = judging_ops.set_graded_scale(store, 3)
    assert changes.rows == {"meta": {"update": frozenset({"max_grade"})}}
    assert scalar(goldset_path, "SELECT value FROM meta WHERE key='max_grade'") == "3"
    # A row with no grade (unjudged with a note) does not lock the scale.
    judging_ops.set_judgment(store, 1, 2, None, note="à voir")
    judging_ops.set_graded_scale(store, 2)
    judging_ops.set_judgment(store, 1, 1, 2)
    assert scalar(goldset_path, "SELECT grade FROM judgments WHERE document_id = 1") == 2
    # A graded judgment exists: the scale is locked.
    for other in (1, 3):
        assert_refused(goldset_path, Conflict, judging_ops.set_graded_scale, store, other,
                       match="locked")
    # Setting the same value is not a change and not an error.
    n_ops = len(store.operation_ids())
    assert judging_ops.set_graded_scale(store, 2).empty
    assert len(store.operation_ids()) == n_ops


# -- cases ---------------------------------------------------------------------------------
def test_create_case(store: GoldSetStore, goldset_path: Path) -> None:
    t0 = utc_now()
    changes = ops.create_case(store, key="Q1", question="Combien de jours ?",
                              family="sensitive", tags=["rh", "congés"], difficulty="hard",
                              must_contain=["25 jours"], reference_answer=None)
    check_op(goldset_path, changes, "create_case", "alice", t0)
    case_id = last_id(store, "cases")
    assert changes.rows == {"cases": {"insert": frozenset({case_id})}}
    assert changes.label == "Q1"
    with GoldSetStore.open(goldset_path, read_only=True) as ro:
        row = ro.by_key("cases", "Q1")
    assert row["family"] == "sensitive" and row["difficulty"] == "hard"
    assert json.loads(row["tags"]) == ["rh", "congés"]
    assert json.loads(row["must_contain"]) == ["25 jours"]
    assert row["status"] == "draft" and row["expected_behaviour"] == "answer"
    assert row["author"] == "alice" and row["reference_answer"] is None
    assert row["created_at"] == row["updated_at"] and t0 <= row["created_at"]
    [h] = history(goldset_path, changes.operation_id)
    assert h == {"table": "cases", "key": {"id": case_id}, "kind": "insert", "old": None,
                 "new": row}


@pytest.mark.parametrize(("fields", "error", "match"), [
    ({"question": "sans clé"}, InvalidValue, "key"),
    ({"key": ""}, InvalidValue, "key"),
    ({"key": " Q9"}, InvalidValue, "key"),
    ({"key": "Q9", "family": "weird"}, InvalidValue, "ordinary"),
    ({"key": "Q9", "tags": "rh"}, InvalidValue, "tags"),
    ({"key": "Q9", "tags": ["ok", 3]}, InvalidValue, "tags[1]"),
    ({"key": "Q9", "difficulty": "extreme"}, InvalidValue, "difficulty"),
    ({"key": "Q9", "status": "published"}, InvalidValue, "status"),
    ({"key": "Q9", "expected_behaviour": "guess"}, InvalidValue, "expected_behaviour"),
    ({"key": "Q9", "colour": "red"}, InvalidValue, "colour"),
    ({"key": "Q9", "question": "bad \ud800"}, InvalidValue, "question"),
    ({"key": "Q1"}, Conflict, "Q1"),
])
def test_create_case_refusals(store: GoldSetStore, goldset_path: Path, fields: dict[str, Any],
                              error: type[KnownError], match: str) -> None:
    ops.create_case(store, key="Q1")
    assert_refused(goldset_path, error, ops.create_case, store, match=match, **fields)


def test_edit_case(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1", notes="")
    ops.create_case(store, key="Q2")
    before = row_dict(goldset_path, "cases", 1)
    t0 = utc_now()
    changes = ops.edit_case(store, 1, notes="à revoir", status="reviewed", tags=["x"])
    check_op(goldset_path, changes, "edit_case", "alice", t0)
    assert changes.rows == {"cases": {"update": frozenset({1})}} and changes.label == "Q1"
    after = row_dict(goldset_path, "cases", 1)
    assert before is not None and after is not None
    assert (after["notes"], after["status"], after["tags"]) == ("à revoir", "reviewed", '["x"]')
    assert after["updated_at"] >= t0
    assert after["created_at"] == before["created_at"]
    hist = history(goldset_path, changes.operation_id)
    assert hist[0]["old"] == before
    assert hist[0]["new"]["notes"] == "à revoir" and hist[-1]["new"] == after
    assert all(h["kind"] == "update" and h["key"] == {"id": 1} for h in hist)
    assert row_dict(goldset_path, "cases", 2)["notes"] == ""  # type: ignore[index]

    # Renaming to a free key works; to a taken key is a conflict; unknown id is NotFound.
    ops.edit_case(store, 1, key="Q1b")
    assert_refused(goldset_path, Conflict, ops.edit_case, store, 1, key="Q2", match="Q2")
    assert_refused(goldset_path, NotFound, ops.edit_case, store, 99, notes="x")
    assert_refused(goldset_path, InvalidValue, ops.edit_case, store, 1, family="?")
    # Setting values to what they are changes nothing and leaves no operation.
    n_ops = len(store.operation_ids())
    same = ops.edit_case(store, 1, notes="à revoir", status="reviewed")
    assert same.empty and not same.operation_id
    assert len(store.operation_ids()) == n_ops


def _dependants_of_case(path: Path, case_id: int) -> dict[str, set[int]]:
    answers = ids(path, "answers", "case_id = ?", (case_id,))
    marks = ",".join(str(a) for a in answers) or "NULL"
    claims = ids(path, "claims", f"answer_id IN ({marks})")
    cmarks = ",".join(str(c) for c in claims) or "NULL"
    out = {
        "answers": answers, "claims": claims,
        "evidence": ids(path, "evidence", f"claim_id IN ({cmarks})"),
        "citations": ids(path, "citations", f"answer_id IN ({marks})"),
        "cases": {case_id},
    }
    for table in ("answer_reviews", "retrieved", "judgments", "adjudications",
                  "expected_sources"):
        out[table] = ids(path, table, "case_id = ?", (case_id,))
    return {t: v for t, v in out.items() if v}


def test_delete_case_and_revert(store: GoldSetStore, goldset_path: Path, rich: Rich) -> None:
    q1 = rich.cases["Q1"]
    doomed = _dependants_of_case(goldset_path, q1)
    # Q1 has rows in every dependent table, so the test covers each of them.
    assert set(doomed) == {"answers", "claims", "evidence", "citations", "cases",
                           "answer_reviews", "retrieved", "judgments", "adjudications",
                           "expected_sources"}
    before = dump(goldset_path)
    t0 = utc_now()
    changes = ops.delete_case(store, q1)
    check_op(goldset_path, changes, "delete_case", "alice", t0)
    assert {t: set(k["delete"]) for t, k in changes.rows.items()} == doomed
    assert all(set(kinds) == {"delete"} for kinds in changes.rows.values())
    after = dump(goldset_path)
    for table, gone in doomed.items():
        assert not gone & ids(goldset_path, table), table
        assert len(after[table]) == len(before[table]) - len(gone), table
    # Rows of other cases stay.
    assert ids(goldset_path, "retrieved", "case_id = ?", (rich.cases["Q2"],))
    assert ids(goldset_path, "answers", "case_id = ?", (rich.cases["Q3"],))
    hist = history(goldset_path, changes.operation_id)
    assert sum(len(v) for v in doomed.values()) == len(hist)
    assert all(h["kind"] == "delete" and h["new"] is None and h["old"] for h in hist)

    undo = store.revert(changes.operation_id)
    assert dump(goldset_path) == before
    assert op_row(goldset_path, undo.operation_id)["reverts"] == changes.operation_id
    assert {t: set(k["insert"]) for t, k in undo.rows.items()} == doomed
    redo = store.revert(undo.operation_id, action="redo")
    assert dump(goldset_path) == after
    assert op_row(goldset_path, redo.operation_id)["action"] == "redo"


# -- expected sources ----------------------------------------------------------------------
def test_expected_sources(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1", text="0123456789")
    changes = ops.add_expected_source(store, 1, 1, span=(2, 10), note="fin")
    src = last_id(store, "expected_sources")
    assert changes.rows == {"expected_sources": {"insert": frozenset({src})}}
    assert changes.label == "Q1 · D1"
    assert rows(goldset_path, "SELECT case_id, document_id, span_start, span_end, note "
                              "FROM expected_sources") == [(1, 1, 2, 10, "fin")]
    ops.add_expected_source(store, 1, 1)
    assert rows(goldset_path, "SELECT span_start, span_end FROM expected_sources "
                              "WHERE id = ?", (src + 1,)) == [(None, None)]
    for span in ((0, 11), (5, 4), (-1, 3)):
        assert_refused(goldset_path, InvalidValue, ops.add_expected_source, store, 1, 1,
                       span=span, match="D1")
    assert_refused(goldset_path, NotFound, ops.add_expected_source, store, 7, 1)
    assert_refused(goldset_path, NotFound, ops.add_expected_source, store, 1, 7)

    removed = ops.remove_expected_source(store, src)
    assert removed.rows == {"expected_sources": {"delete": frozenset({src})}}
    assert ids(goldset_path, "expected_sources") == {src + 1}
    assert_refused(goldset_path, NotFound, ops.remove_expected_source, store, src)


# -- documents -------------------------------------------------------------------------------
def test_create_and_edit_document(store: GoldSetStore, goldset_path: Path) -> None:
    t0 = utc_now()
    changes = ops.create_document(store, key="D1", title="Politique", text="Texte é",
                                  rights=["rh"], valid_from="2024-01-01",
                                  valid_until="2025-12-31", status="outdated", version="v2")
    check_op(goldset_path, changes, "create_document", "alice", t0)
    assert changes.rows == {"documents": {"insert": frozenset({1})}}
    row = row_dict(goldset_path, "documents", 1)
    assert row is not None
    assert row["content_hash"] == "sha256:" + hashlib.sha256("Texte é".encode()).hexdigest()
    assert (row["valid_from"], row["valid_until"], row["status"]) == \
        ("2024-01-01", "2025-12-31", "outdated")
    assert json.loads(row["rights"]) == ["rh"] and row["origin"] == "corpus"

    edit = ops.edit_document(store, 1, text="Nouveau texte")
    assert edit.rows == {"documents": {"update": frozenset({1})}}
    new = row_dict(goldset_path, "documents", 1)
    assert new is not None
    assert new["content_hash"] == "sha256:" + hashlib.sha256(b"Nouveau texte").hexdigest()
    assert history(goldset_path, edit.operation_id)[0]["old"]["text"] == "Texte é"

    ops.create_document(store, key="D2")
    assert scalar(goldset_path, "SELECT text FROM documents WHERE id = 2") == ""
    ops.edit_document(store, 2, supersedes_id=1, parent_id=1)
    assert rows(goldset_path, "SELECT supersedes_id, parent_id FROM documents WHERE id = 2") \
        == [(1, 1)]


@pytest.mark.parametrize(("fields", "error", "match"), [
    ({"title": "sans clé"}, InvalidValue, "key"),
    ({"key": "D1"}, Conflict, "D1"),
    ({"key": "D9", "valid_from": "31/12/2024"}, InvalidValue, "YYYY-MM-DD"),
    ({"key": "D9", "valid_from": "2025-01-02", "valid_until": "2025-01-01"}, InvalidValue,
     "valid_until"),
    ({"key": "D9", "status": "archived"}, InvalidValue, "status"),
    ({"key": "D9", "origin": "web"}, InvalidValue, "origin"),
    ({"key": "D9", "supersedes_id": "D1"}, InvalidValue, "supersedes_id"),
    ({"key": "D9", "rights": "rh"}, InvalidValue, "rights"),
    ({"key": "D9", "text": b"bytes"}, InvalidValue, "text"),
    ({"key": "D9", "pages": 3}, InvalidValue, "pages"),
    ({"key": "D9", "supersedes_id": 999}, NotFound, "999"),
    ({"key": "D9", "parent_id": 999}, NotFound, "999"),
])
def test_create_document_refusals(store: GoldSetStore, goldset_path: Path,
                                  fields: dict[str, Any], error: type[KnownError],
                                  match: str) -> None:
    ops.create_document(store, key="D1")
    assert_refused(goldset_path, error, ops.create_document, store, match=match, **fields)


def test_edit_document_refusals(store: GoldSetStore, goldset_path: Path) -> None:
    for key in ("D1", "D2", "D3"):
        ops.create_document(store, key=key)
    assert_refused(goldset_path, InvalidValue, ops.edit_document, store, 1, supersedes_id=1,
                   match="itself")
    assert_refused(goldset_path, NotFound, ops.edit_document, store, 42, title="x")
    assert_refused(goldset_path, Conflict, ops.edit_document, store, 2, key="D1", match="D1")
    assert_refused(goldset_path, NotFound, ops.edit_document, store, 1, supersedes_id=999)
    assert_refused(goldset_path, NotFound, ops.edit_document, store, 1, parent_id=999)
    # D2 supersedes D1 and D3 supersedes D2: D1 superseding D3 would close a cycle, which
    # `check` reports as a problem, so the operation must refuse it.
    ops.edit_document(store, 2, supersedes_id=1)
    ops.edit_document(store, 3, supersedes_id=2)
    assert_refused(goldset_path, InvalidValue, ops.edit_document, store, 1, supersedes_id=3,
                   match="cycle")
    with GoldSetStore.open(goldset_path, read_only=True) as ro:
        assert ro.cross_reference_problems() == []


def test_delete_document_and_revert(store: GoldSetStore, goldset_path: Path,
                                    rich: Rich) -> None:
    d1 = rich.docs["D1"]
    referring = {t: ids(goldset_path, t, "document_id = ?", (d1,))
                 for t in ("retrieved", "judgments", "expected_sources", "evidence",
                           "citations")}
    assert all(referring.values()), referring  # D1 is referred to from every table
    relinked = ids(goldset_path, "documents", "supersedes_id = ? OR parent_id = ?", (d1, d1))
    assert relinked == {rich.docs["D2"], rich.docs["D3"]}
    before = dump(goldset_path)

    changes = ops.delete_document(store, d1)
    expected = {t: {"delete": frozenset(v)} for t, v in referring.items()}
    expected["documents"] = {"delete": frozenset({d1}), "update": frozenset(relinked)}
    assert changes.rows == expected
    assert d1 not in ids(goldset_path, "documents")
    for table in referring:
        assert not ids(goldset_path, table, "document_id = ?", (d1,)), table
    assert rows(goldset_path, "SELECT count(*) FROM documents WHERE supersedes_id IS NOT NULL "
                              "OR parent_id IS NOT NULL") == [(0,)]
    after = dump(goldset_path)

    undo = store.revert(changes.operation_id)
    assert dump(goldset_path) == before
    store.revert(undo.operation_id, action="redo")
    assert dump(goldset_path) == after


# -- runs ----------------------------------------------------------------------------------
def test_runs(store: GoldSetStore, goldset_path: Path, rich: Rich) -> None:
    t0 = utc_now()
    created = ops.create_run(store, name="hybrid", model="m", notes="k=10")
    check_op(goldset_path, created, "create_run", "alice", t0)
    run_id = last_id(store, "runs")
    assert created.rows == {"runs": {"insert": frozenset({run_id})}}
    assert rows(goldset_path, "SELECT name, model, notes FROM runs WHERE id = ?",
                (run_id,)) == [("hybrid", "m", "k=10")]
    assert_refused(goldset_path, Conflict, ops.create_run, store, name="bm25", match="bm25")
    assert_refused(goldset_path, InvalidValue, ops.create_run, store, model="x")
    assert_refused(goldset_path, InvalidValue, ops.create_run, store, name=" ")
    assert_refused(goldset_path, InvalidValue, ops.create_run, store, name="r", temp="0.2")

    edited = ops.edit_run(store, run_id, name="hybrid-v2", prompt_version="p3")
    assert edited.rows == {"runs": {"update": frozenset({run_id})}}
    [h] = history(goldset_path, edited.operation_id)
    assert (h["old"]["name"], h["new"]["name"]) == ("hybrid", "hybrid-v2")
    assert_refused(goldset_path, Conflict, ops.edit_run, store, run_id, name="bm25",
                   match="bm25")
    assert_refused(goldset_path, NotFound, ops.edit_run, store, 99, name="x")


def test_delete_run_and_revert(store: GoldSetStore, goldset_path: Path, rich: Rich) -> None:
    bm25 = rich.runs["bm25"]
    answers = ids(goldset_path, "answers", "run_id = ?", (bm25,))
    claims = ids(goldset_path, "claims", f"answer_id IN ({','.join(map(str, answers))})")
    doomed = {
        "runs": {bm25}, "answers": answers, "claims": claims,
        "evidence": ids(goldset_path, "evidence",
                        f"claim_id IN ({','.join(map(str, claims))})"),
        "citations": ids(goldset_path, "citations",
                         f"answer_id IN ({','.join(map(str, answers))})"),
        "answer_reviews": ids(goldset_path, "answer_reviews", "run_id = ?", (bm25,)),
        "retrieved": ids(goldset_path, "retrieved", "run_id = ?", (bm25,)),
    }
    assert all(doomed.values())
    before = dump(goldset_path)
    changes = ops.delete_run(store, bm25)
    assert {t: set(k["delete"]) for t, k in changes.rows.items()} == doomed
    # Judgments belong to (case, document), not to a run: they stay.
    assert dump(goldset_path)["judgments"] == before["judgments"]
    assert ids(goldset_path, "runs") == {rich.runs["dense"]}
    after = dump(goldset_path)
    undo = store.revert(changes.operation_id)
    assert dump(goldset_path) == before
    store.revert(undo.operation_id, action="redo")
    assert dump(goldset_path) == after
    assert_refused(goldset_path, NotFound, ops.delete_run, store, bm25)


# -- judgments -----------------------------------------------------------------------------
def test_set_judgment(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1")
    t0 = utc_now()
    first = judging_ops.set_judgment(store, 1, 1, 1, note="cite l'article 3")
    check_op(goldset_path, first, "set_judgment", "alice", t0)
    assert first.rows == {"assessors": {"insert": frozenset({1})},
                          "judgments": {"insert": frozenset({1})}}
    assert first.label == "Q1 · D1 → relevant"
    assert rows(goldset_path, "SELECT name FROM assessors") == [("alice",)]
    assert rows(goldset_path, "SELECT case_id, document_id, assessor_id, grade, note "
                              "FROM judgments") == [(1, 1, 1, 1, "cite l'article 3")]

    second = judging_ops.set_judgment(store, 1, 1, 0)
    assert second.rows == {"judgments": {"update": frozenset({1})}}
    assert second.label == "Q1 · D1 → not_relevant"
    [h] = history(goldset_path, second.operation_id)
    assert (h["old"]["grade"], h["new"]["grade"]) == (1, 0)
    assert h["new"]["note"] == "cite l'article 3"  # note=None keeps the note

    # Back to unjudged: the row stays, with no grade and its note.
    third = judging_ops.set_judgment(store, 1, 1, None)
    assert third.rows == {"judgments": {"update": frozenset({1})}}
    assert third.label == "Q1 · D1 → unjudged"
    assert rows(goldset_path, "SELECT grade, note FROM judgments") == \
        [(None, "cite l'article 3")]

    # Same value again: no change, no operation.
    n_ops = len(store.operation_ids())
    assert judging_ops.set_judgment(store, 1, 1, None).empty
    assert len(store.operation_ids()) == n_ops


def test_set_judgment_unjudged_without_row_or_note_adds_nothing(
        store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1")
    before = full_dump(goldset_path)
    assert judging_ops.set_judgment(store, 1, 1, None).empty
    assert full_dump(goldset_path) == before
    judging_ops.set_judgment(store, 1, 1, None, note="à discuter")
    assert rows(goldset_path, "SELECT grade, note FROM judgments") == [(None, "à discuter")]


def test_set_judgment_per_assessor(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1")
    judging_ops.set_judgment(store, 1, 1, 1)
    store.assessor = "bob"
    changes = judging_ops.set_judgment(store, 1, 1, 0)
    assert changes.rows == {"assessors": {"insert": frozenset({2})},
                            "judgments": {"insert": frozenset({2})}}
    assert op_row(goldset_path, changes.operation_id)["assessor"] == "bob"
    assert rows(goldset_path, "SELECT a.name, j.grade FROM judgments j JOIN assessors a "
                              "ON a.id = j.assessor_id ORDER BY a.name") == \
        [("alice", 1), ("bob", 0)]


def test_set_judgment_refusals(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1")
    for grade in (2, -1, True, "1", 1.0):
        assert_refused(goldset_path, InvalidValue, judging_ops.set_judgment, store, 1, 1, grade,
                       match="scale")
    assert_refused(goldset_path, NotFound, judging_ops.set_judgment, store, 9, 1, 1, match="case")
    assert_refused(goldset_path, NotFound, judging_ops.set_judgment, store, 1, 9, 1,
                   match="document")
    assert_refused(goldset_path, InvalidValue, judging_ops.set_judgment, store, 1, 1, 1,
                   note="\udfff")
    store.assessor = ""
    assert_refused(goldset_path, InvalidValue, judging_ops.set_judgment, store, 1, 1, 1,
                   match="assessor")


# -- claims, citations, reviews ---------------------------------------------------------------
def test_set_claim_verdict(store: GoldSetStore, goldset_path: Path, rich: Rich) -> None:
    claim = rich.claims[2]
    assert row_dict(goldset_path, "claims", claim)["verdict"] is None  # type: ignore[index]
    store.assessor = "carol"
    t0 = utc_now()
    changes = ops.set_claim_verdict(store, claim, "not_supported", rationale="absent de D2")
    check_op(goldset_path, changes, "set_claim_verdict", "carol", t0)
    carol = scalar(goldset_path, "SELECT id FROM assessors WHERE name = 'carol'")
    assert changes.rows == {"assessors": {"insert": frozenset({carol})},
                            "claims": {"update": frozenset({claim})}}
    row = row_dict(goldset_path, "claims", claim)
    assert row is not None
    assert (row["verdict"], row["rationale"], row["assessor_id"]) == \
        ("not_supported", "absent de D2", carol)
    assert row["updated_at"] >= t0
    back = ops.set_claim_verdict(store, claim, None)
    assert back.rows == {"claims": {"update": frozenset({claim})}}
    assert row_dict(goldset_path, "claims", claim)["verdict"] is None  # type: ignore[index]
    assert_refused(goldset_path, InvalidValue, ops.set_claim_verdict, store, claim, "true",
                   match="supported")
    assert_refused(goldset_path, NotFound, ops.set_claim_verdict, store, 999, "supported")


def test_add_claim_positions_and_refusals(store: GoldSetStore, goldset_path: Path,
                                          rich: Rich) -> None:
    answer = rich.answers["bm25/Q1"]

    def positions() -> list[tuple[str, int]]:
        return rows(goldset_path, "SELECT text, position FROM claims WHERE answer_id = ? "
                                  "ORDER BY position", (answer,))

    assert positions() == [("La réponse est oui", 1), ("Elle vaut 42", 2)]
    end = ops.add_claim(store, answer, "Fin")
    new_id = last_id(store, "claims")
    assert end.rows == {"claims": {"insert": frozenset({new_id})}}
    assert positions()[-1] == ("Fin", 3)
    first = ops.add_claim(store, answer, "Début", span=(0, 2), position=1)
    assert first.rows["claims"]["insert"] == frozenset({new_id + 1})
    assert first.rows["claims"]["update"] == frozenset([*rich.claims[:2], new_id])
    assert [p for _, p in positions()] == [1, 2, 3, 4] and positions()[0][0] == "Début"

    before = positions()
    # The span is checked after positions were shifted: the refusal must undo the shift.
    assert_refused(goldset_path, InvalidValue, ops.add_claim, store, answer, "x",
                   span=(0, 10_000), position=1, match="span")
    assert positions() == before
    assert_refused(goldset_path, InvalidValue, ops.add_claim, store, answer, "   ")
    assert_refused(goldset_path, NotFound, ops.add_claim, store, 999, "texte")


def test_edit_and_delete_claim(store: GoldSetStore, goldset_path: Path, rich: Rich) -> None:
    claim = rich.claims[0]
    changes = ops.edit_claim(store, claim, "La réponse est bien oui")
    assert changes.rows == {"claims": {"update": frozenset({claim})}}
    row = row_dict(goldset_path, "claims", claim)
    assert row is not None and row["text"] == "La réponse est bien oui"
    assert row["verdict"] == "supported"  # the verdict stays
    assert_refused(goldset_path, InvalidValue, ops.edit_claim, store, claim, "")
    assert_refused(goldset_path, NotFound, ops.edit_claim, store, 999, "x")

    evidence = ids(goldset_path, "evidence", "claim_id = ?", (claim,))
    assert evidence
    before = dump(goldset_path)
    deleted = ops.delete_claim(store, claim)
    assert deleted.rows == {"evidence": {"delete": frozenset(evidence)},
                            "claims": {"delete": frozenset({claim})}}
    assert not ids(goldset_path, "evidence", "claim_id = ?", (claim,))
    store.revert(deleted.operation_id)
    assert dump(goldset_path) == before
    assert_refused(goldset_path, NotFound, ops.delete_claim, store, 999)


def test_set_citation_support(store: GoldSetStore, goldset_path: Path, rich: Rich) -> None:
    citation = rich.citations[0]
    for value in ("yes", "partly", "no", None):
        changes = ops.set_citation_support(store, citation, value)
        assert changes.rows == {"citations": {"update": frozenset({citation})}}
        assert scalar(goldset_path, "SELECT support FROM citations WHERE id = ?",
                      (citation,)) == value
    assert_refused(goldset_path, InvalidValue, ops.set_citation_support, store, citation,
                   "maybe")
    assert_refused(goldset_path, NotFound, ops.set_citation_support, store, 999, "yes")


def test_set_answer_review(store: GoldSetStore, goldset_path: Path, rich: Rich) -> None:
    run, case = rich.runs["dense"], rich.cases["Q3"]
    t0 = utc_now()
    created = ops.set_answer_review(store, run, case, outcome="abstained", validated=False,
                                    failure_categories=["unwarranted_abstention"],
                                    must_contain_found=[False, None], note="n")
    check_op(goldset_path, created, "set_answer_review", "alice", t0)
    review = last_id(store, "answer_reviews")
    assert created.rows == {"answer_reviews": {"insert": frozenset({review})}}
    row = row_dict(goldset_path, "answer_reviews", review)
    assert row is not None
    assert (row["outcome"], row["validated"], row["note"]) == ("abstained", 0, "n")
    assert json.loads(row["failure_categories"]) == ["unwarranted_abstention"]
    assert json.loads(row["must_contain_found"]) == [False, None]

    updated = ops.set_answer_review(store, run, case, validated=True, failure_categories=[])
    assert updated.rows == {"answer_reviews": {"update": frozenset({review})}}
    row = row_dict(goldset_path, "answer_reviews", review)
    assert row is not None and row["validated"] == 1 and row["failure_categories"] == "[]"
    assert ops.set_answer_review(store, run, case, validated=True).empty

    for fields in ({"outcome": "ignored"}, {"validated": "yes"},
                   {"failure_categories": ["typo"]}, {"must_contain_found": ["oui"]},
                   {"score": 3}):
        assert_refused(goldset_path, InvalidValue, ops.set_answer_review, store, run, case,
                       **fields)
    assert_refused(goldset_path, NotFound, ops.set_answer_review, store, 99, case,
                   outcome="answered")
    assert_refused(goldset_path, NotFound, ops.set_answer_review, store, run, 99,
                   outcome="answered")


def test_action_titles() -> None:
    from rag_annotator.domain import action_names

    assert action_names.action_title("set_judgment") == "Judge"
    assert action_names.action_title("no_such_action") == "no_such_action"
    core = action_names.CORE_ACTION_NAMES
    for module in (ops, judging_ops):
        public = [n for n in dir(module) if not n.startswith("_")
                  and callable(getattr(module, n))
                  and getattr(getattr(module, n), "__module__", "") == module.__name__
                  and n not in ("ensure_assessor", "require_row")]
        assert set(public) <= set(core), set(public) - set(core)


# -- revert ----------------------------------------------------------------------------------
def test_revert_refuses_when_rows_changed_since(store: GoldSetStore,
                                                goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    first = ops.edit_case(store, 1, notes="A")
    ops.edit_case(store, 1, notes="B")
    assert_refused(goldset_path, Conflict, store.revert, first.operation_id,
                   match="changed since")
    assert scalar(goldset_path, "SELECT notes FROM cases WHERE id = 1") == "B"


def test_revert_twice_is_refused(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1")
    judged = judging_ops.set_judgment(store, 1, 1, 1)
    store.revert(judged.operation_id)
    assert rows(goldset_path, "SELECT count(*) FROM judgments") == [(0,)]
    assert_refused(goldset_path, Conflict, store.revert, judged.operation_id)


def test_revert_of_a_deleted_parent_is_refused(store: GoldSetStore,
                                               goldset_path: Path) -> None:
    """Undoing a judgment's edit after its case was deleted cannot bring back half a case."""
    ops.create_case(store, key="Q1")
    ops.create_document(store, key="D1")
    judging_ops.set_judgment(store, 1, 1, 1)
    regraded = judging_ops.set_judgment(store, 1, 1, 0)
    ops.delete_case(store, 1)
    assert_refused(goldset_path, Conflict, store.revert, regraded.operation_id)


def test_revert_unknown_operation(store: GoldSetStore, goldset_path: Path) -> None:
    assert_refused(goldset_path, NotFound, store.revert, 12345)


def test_revert_of_a_non_undoable_operation_is_refused(store: GoldSetStore,
                                                       goldset_path: Path) -> None:
    """A bulk load without history (e.g. the sample) cannot be reverted; saying so beats
    recording an 'undo' that changed nothing."""
    with store.operation("load_sample", "bulk", log=False, undoable=False) as op:
        op.insert_many("cases", [{"key": "Z", "created_at": "t", "updated_at": "t"}])
    bulk = store.operation_ids()[0]
    assert op_row(goldset_path, bulk)["undoable"] == 0
    assert_refused(goldset_path, Conflict, store.revert, bulk)


def test_undo_redo_chain(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_case(store, key="Q1")
    states = [dump(goldset_path)]
    changes = ops.edit_case(store, 1, notes="x", family="ambiguous")
    states.append(dump(goldset_path))
    op_id = changes.operation_id
    for i in range(3):  # undo, redo, undo, redo, undo, redo
        op_id = store.revert(op_id, action="undo").operation_id
        assert dump(goldset_path) == states[0], i
        op_id = store.revert(op_id, action="redo").operation_id
        assert dump(goldset_path) == states[1], i
    assert [r[0] for r in rows(goldset_path, "SELECT action FROM operations ORDER BY id")] \
        == ["create_case", "edit_case"] + ["undo", "redo"] * 3


# -- state machine: random edits with undo/redo ------------------------------------------------
FAMILIES = [f.value for f in Family]


class UndoRedoMachine(RuleBasedStateMachine):
    """Undo restores the exact state before an operation; redo the exact state after it."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="rag-undo-"))
        path = self.folder / "m.goldset"
        self.store = GoldSetStore.create(path, assessor="alice")
        self.reader = ro_connect(path)
        self.done: list[tuple[int, Dump, Dump]] = []     # (operation, before, after)
        self.undone: list[tuple[int, Dump, Dump]] = []   # (undo operation, before, after)
        self.initial = self.snapshot()
        self.runs = 0
        # Tiny batches, so an imported run spans several insert_range history rows.
        self.batch = transaction.RANGE_BATCH
        transaction.RANGE_BATCH = 2

    def snapshot(self) -> Dump:
        return dump(self.reader, ENTITY_TABLES)

    def existing(self, table: str) -> list[int]:
        found = [r[0] for r in self.reader.execute(f"SELECT id FROM {table} ORDER BY id")]
        return found or [1]

    def apply(self, fn: Callable[..., Changes], *args: Any, **kwargs: Any) -> None:
        before = self.snapshot()
        try:
            changes = fn(self.store, *args, **kwargs)
        except (NotFound, Conflict):
            assert self.snapshot() == before
            return
        after = self.snapshot()
        if changes.empty:
            assert after == before and not changes.operation_id
            return
        assert after != before
        self.done.append((changes.operation_id, before, after))
        self.undone.clear()  # a new edit drops the redo stack, as QUndoStack does

    @rule(key=st.sampled_from(["Q1", "Q2", "Q3"]), family=st.sampled_from(FAMILIES))
    def create_case(self, key: str, family: str) -> None:
        self.apply(ops.create_case, key=key, family=family)

    @rule(data=st.data(), notes=st.text(alphabet="ab é", max_size=3),
          status=st.sampled_from(["draft", "reviewed", None]))
    def edit_case(self, data: st.DataObject, notes: str, status: str | None) -> None:
        case = data.draw(st.sampled_from(self.existing("cases")))
        fields: dict[str, Any] = {"notes": notes}
        if status:
            fields["status"] = status
        self.apply(ops.edit_case, case, **fields)

    @rule(key=st.sampled_from(["D1", "D2", "D3"]), text=st.text(alphabet="xyz", max_size=4))
    def create_document(self, key: str, text: str) -> None:
        self.apply(ops.create_document, key=key, text=text)

    @rule(data=st.data(), grade=st.sampled_from([None, 0, 1]),
          assessor=st.sampled_from(["alice", "bob"]))
    def set_judgment(self, data: st.DataObject, grade: int | None, assessor: str) -> None:
        case = data.draw(st.sampled_from(self.existing("cases")))
        doc = data.draw(st.sampled_from(self.existing("documents")))
        self.store.assessor = assessor
        self.apply(judging_ops.set_judgment, case, doc, grade)

    @rule(cases=st.lists(st.sampled_from(["Q1", "Q2", "Q3"]), min_size=1, max_size=2,
                         unique=True),
          docs=st.lists(st.sampled_from(["D1", "D2", "D3"]), min_size=1, max_size=3,
                        unique=True))
    def import_run(self, cases: list[str], docs: list[str]) -> None:
        """A bulk import (range history rows, placeholders for unknown ids)."""
        self.runs += 1
        path = self.folder / f"run{self.runs}.txt"
        path.write_text("".join(f"{c} Q0 {d} {i + 1} {9 - i} r{self.runs}\n"
                                for c in cases for i, d in enumerate(docs)), encoding="utf-8")

        def run(store: GoldSetStore) -> Changes:
            trec_files.import_run(store, path)
            return Changes(store.operation_ids()[0], "import_run", "",
                           {"retrieved": {"insert": frozenset()}})

        self.apply(run)

    @rule(data=st.data())
    def delete_case(self, data: st.DataObject) -> None:
        self.apply(ops.delete_case, data.draw(st.sampled_from(self.existing("cases"))))

    @precondition(lambda self: bool(self.done))
    @rule()
    def undo(self) -> None:
        op_id, before, after = self.done.pop()
        assert self.snapshot() == after
        changes = self.store.revert(op_id)
        assert self.snapshot() == before
        self.undone.append((changes.operation_id, before, after))

    @precondition(lambda self: bool(self.undone))
    @rule()
    def redo(self) -> None:
        undo_id, before, after = self.undone.pop()
        assert self.snapshot() == before
        changes = self.store.revert(undo_id, action="redo")
        assert self.snapshot() == after
        self.done.append((changes.operation_id, before, after))

    @invariant()
    def references_hold(self) -> None:
        assert self.reader.execute("PRAGMA foreign_key_check").fetchall() == []

    def teardown(self) -> None:
        try:
            while self.done:  # undo everything: back to the very first state
                self.undo()
            assert self.snapshot() == self.initial
            while self.undone:  # and redo everything: forward to the last state again
                self.redo()
        finally:
            transaction.RANGE_BATCH = self.batch
            self.reader.close()
            self.store.close()
            shutil.rmtree(self.folder, ignore_errors=True)


UndoRedoMachine.TestCase.settings = settings(
    max_examples=50, stateful_step_count=25, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow])
test_undo_redo_state_machine = UndoRedoMachine.TestCase

