"""Verification operations: claim split / merge / rationale / delete, evidence, candidate
claims at import — each one undoable operation, bad inputs refused with nothing changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_annotator.domain import operations as ops
from rag_annotator.domain import verify_ops
from rag_annotator.domain.action_names import ACTION_NAMES
from rag_annotator.errors import Conflict, InvalidValue, NotFound
from rag_annotator.import_export import runs_jsonl
from rag_annotator.storage.store import GoldSetStore
from tests.builders import Rich, build_rich, last_id

TABLES = ("claims", "evidence", "judge_verdicts", "citations", "answer_reviews")


def snapshot(store: GoldSetStore) -> dict[str, list[dict[str, Any]]]:
    return {t: store.query(f"SELECT * FROM {t} ORDER BY id") for t in TABLES}


@pytest.fixture
def rich(store: GoldSetStore) -> Rich:
    return build_rich(store)


def claims_of(store: GoldSetStore, answer_id: int) -> list[dict[str, Any]]:
    return store.query("SELECT * FROM claims WHERE answer_id = ? ORDER BY position, id",
                       (answer_id,))


def test_every_action_has_an_english_title() -> None:
    for code in ("split_claim", "merge_claims", "set_claim_rationale", "add_evidence",
                 "remove_evidence", "split_answer", "import_judge_verdicts"):
        assert ACTION_NAMES[code]


def test_split_at_offset_keeps_spans_and_clears_verdicts(store: GoldSetStore,
                                                         rich: Rich) -> None:
    answer = rich.answers["bm25/Q1"]
    before = snapshot(store)
    first = rich.claims[0]  # "La réponse est oui" at 0–18, supported, with evidence
    changes = verify_ops.split_claim(store, first, 10)  # "La réponse" | " est oui"
    assert changes.action == "split_claim" and changes.operation_id
    rows = claims_of(store, answer)
    assert [(r["text"], r["position"], r["span_start"], r["span_end"], r["verdict"])
            for r in rows] == [
        ("La réponse", 1, 0, 10, None),
        ("est oui", 2, 11, 18, None),
        ("Elle vaut 42", 3, 24, 36, "contradicted"),
    ]
    text = store.by_id("answers", answer)["text"]
    assert all(text[r["span_start"]:r["span_end"]] == r["text"] for r in rows)
    # the first part keeps the row, its rationale and its evidence
    assert rows[0]["id"] == first and rows[0]["rationale"] == "dit dans D1"
    assert store.query("SELECT claim_id FROM evidence")[0]["claim_id"] == first
    store.revert(changes.operation_id)
    assert snapshot(store) == before


@pytest.mark.parametrize("offset", [0, 18, 99, -1])
def test_split_refuses_an_empty_part(store: GoldSetStore, rich: Rich, offset: int) -> None:
    before = snapshot(store)
    with pytest.raises(InvalidValue):
        verify_ops.split_claim(store, rich.claims[0], offset)
    assert snapshot(store) == before


def test_split_refuses_a_blank_part(store: GoldSetStore, rich: Rich) -> None:
    ops.edit_claim(store, rich.claims[2], "Affirmation   ")
    with pytest.raises(InvalidValue, match="both parts"):
        verify_ops.split_claim(store, rich.claims[2], len("Affirmation") + 1)


def test_split_a_claim_without_span(store: GoldSetStore, rich: Rich) -> None:
    claim = rich.claims[2]  # "Affirmation sans span"
    verify_ops.split_claim(store, claim, len("Affirmation"))
    rows = claims_of(store, rich.answers["dense/Q3"])
    assert [(r["text"], r["span_start"]) for r in rows] == [("Affirmation", None),
                                                             ("sans span", None)]


def test_split_unknown_claim(store: GoldSetStore, rich: Rich) -> None:
    with pytest.raises(NotFound):
        verify_ops.split_claim(store, 9999, 3)


def test_merge_with_next_joins_spans_evidence_and_drops_differing_verdicts(
        store: GoldSetStore, rich: Rich) -> None:
    answer = rich.answers["bm25/Q1"]
    before = snapshot(store)
    with store.operation("test", "evidence") as op:
        op.insert("evidence", {"claim_id": rich.claims[1], "document_id": rich.docs["D2"],
                               "span_start": 1, "span_end": 4})
    changes = verify_ops.merge_with_next(store, rich.claims[0])
    rows = claims_of(store, answer)
    assert len(rows) == 1
    merged = rows[0]
    assert merged["text"] == "La réponse est oui [1]. Elle vaut 42"
    assert (merged["span_start"], merged["span_end"]) == (0, 36)
    assert merged["verdict"] is None  # supported + contradicted: look again
    assert merged["rationale"] == "dit dans D1"
    assert {e["claim_id"] for e in store.query("SELECT claim_id FROM evidence")} == {
        rich.claims[0]}
    assert len(store.query("SELECT * FROM evidence")) == 2
    store.revert(changes.operation_id)
    store.revert(store.operation_ids()[2])  # the evidence added above (newest first)
    assert snapshot(store) == before


def test_merge_keeps_a_shared_verdict(store: GoldSetStore, rich: Rich) -> None:
    ops.set_claim_verdict(store, rich.claims[1], "supported")
    verify_ops.merge_with_next(store, rich.claims[0])
    assert claims_of(store, rich.answers["bm25/Q1"])[0]["verdict"] == "supported"


def test_merge_of_the_last_claim_is_refused(store: GoldSetStore, rich: Rich) -> None:
    before = snapshot(store)
    with pytest.raises(InvalidValue, match="last claim"):
        verify_ops.merge_with_next(store, rich.claims[1])
    assert snapshot(store) == before


def test_rationale_alone_leaves_the_verdict(store: GoldSetStore, rich: Rich) -> None:
    changes = verify_ops.set_claim_rationale(store, rich.claims[1], "l'article 3 dit 41")
    row = store.by_id("claims", rich.claims[1])
    assert row["rationale"] == "l'article 3 dit 41" and row["verdict"] == "contradicted"
    assert verify_ops.set_claim_rationale(store, rich.claims[1], "l'article 3 dit 41").empty
    store.revert(changes.operation_id)
    assert store.by_id("claims", rich.claims[1])["rationale"] == ""


def test_evidence_add_remove_and_bad_spans(store: GoldSetStore, rich: Rich) -> None:
    doc = rich.docs["D2"]
    length = len(store.document_text(doc))
    before = snapshot(store)
    for span in ((5, 5), (-1, 3), (3, length + 1), (8, 2)):
        with pytest.raises(InvalidValue):
            verify_ops.add_evidence(store, rich.claims[1], doc, span)
    with pytest.raises(NotFound):
        verify_ops.add_evidence(store, rich.claims[1], 9999, (0, 1))
    assert snapshot(store) == before
    added = verify_ops.add_evidence(store, rich.claims[1], doc, (0, 5))
    assert "D2 0–5" in added.label
    again = verify_ops.add_evidence(store, rich.claims[1], doc, (0, 5))  # no duplicate
    assert again.empty and not again.operation_id  # and no empty entry in the history
    verify_ops.add_evidence(store, rich.claims[1], doc, (6, length))
    rows = store.query("SELECT * FROM evidence WHERE claim_id = ? ORDER BY id",
                       (rich.claims[1],))
    assert [(r["span_start"], r["span_end"]) for r in rows] == [(0, 5), (6, length)]
    removed = verify_ops.remove_evidence(store, rows[0]["id"])
    assert len(store.query("SELECT * FROM evidence WHERE claim_id = ?",
                           (rich.claims[1],))) == 1
    store.revert(removed.operation_id)
    assert len(store.query("SELECT * FROM evidence WHERE claim_id = ?",
                           (rich.claims[1],))) == 2
    with pytest.raises(NotFound):
        verify_ops.remove_evidence(store, 9999)


@pytest.mark.parametrize("delete", ["claim", "run", "case"])
def test_deleting_removes_judge_verdicts_and_undo_restores_them(
        store: GoldSetStore, rich: Rich, delete: str) -> None:
    with store.operation("test", "judge") as op:
        judge = op.insert("assessors", {"name": "J", "kind": "judge", "created_at": "x"})
        op.insert("judge_verdicts", {"claim_id": rich.claims[0], "assessor_id": judge["id"],
                                     "verdict": "supported", "updated_at": "x"})
    before = snapshot(store)
    if delete == "claim":
        changes = ops.delete_claim(store, rich.claims[0])
    elif delete == "run":
        changes = ops.delete_run(store, rich.runs["bm25"])
    else:
        changes = ops.delete_case(store, rich.cases["Q1"])
    assert store.query("SELECT * FROM judge_verdicts") == []
    assert changes.operation_id
    store.revert(changes.operation_id)
    assert snapshot(store) == before


def test_split_answer_into_candidate_claims(store: GoldSetStore, rich: Rich) -> None:
    with store.operation("test", "answer") as op:
        op.insert("answers", {"run_id": rich.runs["dense"], "case_id": rich.cases["Q1"],
                              "text": "M. Dupont valide. Le délai est de 2,5 jours."})
    answer = last_id(store, "answers")
    changes = verify_ops.split_answer(store, answer)
    assert [r["text"] for r in claims_of(store, answer)] == [
        "M. Dupont valide.", "Le délai est de 2,5 jours."]
    with pytest.raises(Conflict):
        verify_ops.split_answer(store, answer)
    store.revert(changes.operation_id)
    assert claims_of(store, answer) == []


def test_run_import_adds_candidate_claims_and_undo_removes_them(store: GoldSetStore,
                                                                tmp_path: Path) -> None:
    ops.create_case(store, key="Q1", question="Combien ?")
    ops.create_document(store, key="D1", text="Texte.")
    source = tmp_path / "run.jsonl"
    answer = "Oui ; selon l'art. 3, c'est 2,5 jours. Voir « le guide. Page 2. » Fin."
    source.write_text(json.dumps({"case": "Q1", "retrieved": ["D1"], "answer": answer}) + "\n",
                      encoding="utf-8")
    runs_jsonl.import_jsonl_run(store, source, name="r1")
    rows = store.query("SELECT * FROM claims ORDER BY position")
    assert [r["text"] for r in rows] == ["Oui ;", "selon l'art. 3, c'est 2,5 jours.",
                                         "Voir « le guide. Page 2. »", "Fin."]
    assert all(answer[r["span_start"]:r["span_end"]] == r["text"] for r in rows)
    assert all(r["verdict"] is None for r in rows)
    store.revert(store.operation_ids()[0])  # the import (newest first)
    assert store.query("SELECT * FROM claims") == []


# -- laws ------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=1, max_value=17))
def test_split_then_merge_gives_the_claim_back(store: GoldSetStore, cut: int) -> None:
    """Splitting a claim that is the answer's own words, then merging the parts, gives back
    its text and span (its verdict is gone: the parts were new statements)."""
    if not store.query("SELECT 1 FROM answers"):
        build_rich(store)
    claim = store.query("SELECT * FROM claims WHERE text = 'La réponse est oui'")
    if not claim:  # an earlier example left it split: nothing to check here
        return
    original = claim[0]
    try:
        verify_ops.split_claim(store, original["id"], cut)
    except InvalidValue:
        assert not original["text"][:cut].strip() or not original["text"][cut:].strip()
        return
    verify_ops.merge_with_next(store, original["id"])
    merged = store.by_id("claims", original["id"])
    assert (merged["text"], merged["span_start"], merged["span_end"]) == (
        original["text"], original["span_start"], original["span_end"])
    # and undoing both edits restores the verdict too
    store.revert(store.operation_ids()[0])
    store.revert(store.operation_ids()[2])
    assert store.by_id("claims", original["id"]) == original


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(["split", "merge", "evidence", "verdict",
                                                   "rationale", "delete"]),
                                st.integers(0, 5), st.integers(1, 30)), min_size=1,
                      max_size=8))
def test_any_sequence_of_edits_is_undone_exactly(goldset_path: Path, steps: list[Any]) -> None:
    """Whatever the expert does to an answer's claims, undoing each step (newest first)
    gives the file back as it was."""
    path = goldset_path.with_name(f"law-{abs(hash(tuple(steps)))}.goldset")
    path.unlink(missing_ok=True)
    with GoldSetStore.create(path, assessor="alice") as store:
        rich = build_rich(store)
        before = snapshot(store)
        done: list[int] = []
        for kind, pick, number in steps:
            claims = [r["id"] for r in store.query("SELECT id FROM claims ORDER BY id")]
            if not claims:
                break
            claim = claims[pick % len(claims)]
            try:
                if kind == "split":
                    changes = verify_ops.split_claim(store, claim, number)
                elif kind == "merge":
                    changes = verify_ops.merge_with_next(store, claim)
                elif kind == "evidence":
                    changes = verify_ops.add_evidence(store, claim, rich.docs["D1"],
                                                      (0, number))
                elif kind == "verdict":
                    changes = ops.set_claim_verdict(store, claim, ("supported", "contradicted",
                                                                   None)[number % 3])
                elif kind == "rationale":
                    changes = verify_ops.set_claim_rationale(store, claim, f"r{number}")
                else:
                    changes = ops.delete_claim(store, claim)
            except InvalidValue:
                continue
            if changes.operation_id:
                done.append(changes.operation_id)
        for operation in reversed(done):
            store.revert(operation)
        assert snapshot(store) == before
