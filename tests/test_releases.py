"""Releases: freeze (hash, author, changelog), compare, read-only approved cases, new draft."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.domain import releases as rel
from rag_annotator.errors import Conflict, InvalidValue
from rag_annotator.storage.store import GoldSetStore
from tests.builders import Rich, build_rich, last_id
from tests.helpers import full_dump, rows


@pytest.fixture
def rich(store: GoldSetStore) -> Rich:
    return build_rich(store)


def test_freeze_records_hash_author_date_and_first_changelog(store: GoldSetStore,
                                                             rich: Rich,
                                                             goldset_path: Path) -> None:
    changes = rel.freeze_release(store, "v1", "Pour l'évaluation de janvier")
    assert changes.action == "freeze_release"
    [release] = store.release_rows()
    assert release["name"] == "v1" and release["created_by"] == "alice"
    assert release["content_hash"].startswith("sha256:") and release["cases"] == 3
    assert release["changelog"].startswith("First release:\nCases added (3): Q1, Q2, Q3")
    assert "Pour l'évaluation de janvier" in release["changelog"]
    snapshot = store.release_snapshot("v1")
    assert snapshot["judgments"]["Q1 · D1"] == 1
    assert snapshot["judgments"]["Q1 · D2"] == "disputed"
    assert snapshot["cases"]["Q1"]["sources"] == [["D1", 0, 5, ""]]
    assert store.release_state() == ("frozen", "v1")


def test_hash_depends_on_content_only(store: GoldSetStore, rich: Rich) -> None:
    rel.freeze_release(store, "v1")
    rel.freeze_release(store, "v1-bis")  # nothing changed in between
    first, second = store.release_rows()
    assert first["content_hash"] == second["content_hash"]
    assert "No change to cases or judgments." in second["changelog"]
    ops.edit_case(store, rich.cases["Q2"], question="Autre question ?")
    rel.freeze_release(store, "v2")
    third = store.release_rows()[2]
    assert third["content_hash"] != first["content_hash"]
    assert "Since v1-bis:\nCases changed (1): Q2 (question)" in third["changelog"]


def test_compare_two_releases(store: GoldSetStore, rich: Rich) -> None:
    rel.freeze_release(store, "v1")
    ops.create_case(store, key="Q4", question="Nouvelle ?")
    ops.delete_case(store, rich.cases["Q3"])
    judging_ops.set_judgment(store, rich.cases["Q1"], rich.docs["D5"], 1)
    ops.edit_case(store, rich.cases["Q1"], must_contain=["point A", "point B"])
    rel.freeze_release(store, "v2")
    diff = rel.diff_snapshots(store.release_snapshot("v1"), store.release_snapshot("v2"))
    assert diff.cases_added == ["Q4"] and diff.cases_removed == ["Q3"]
    assert diff.cases_changed == {"Q1": ["must_contain"]}
    assert diff.judgments_added == [] and diff.judgments_changed == ["Q1 · D5"]
    back = rel.diff_snapshots(store.release_snapshot("v2"), store.release_snapshot("v1"))
    assert back.cases_added == ["Q3"] and back.cases_removed == ["Q4"]
    assert rel.diff_snapshots(store.release_snapshot("v2"), store.release_content()).empty


def test_approved_cases_are_read_only_until_a_new_draft(store: GoldSetStore, rich: Rich,
                                                        goldset_path: Path) -> None:
    q1, q2 = rich.cases["Q1"], rich.cases["Q2"]
    ops.edit_case(store, q1, status="approved")
    rel.freeze_release(store, "v1")
    before = full_dump(goldset_path)
    for call in (lambda: ops.edit_case(store, q1, question="Changée ?"),
                 lambda: ops.edit_case(store, q1, status="retired"),
                 lambda: ops.delete_case(store, q1),
                 lambda: ops.add_expected_source(store, q1, rich.docs["D2"]),
                 lambda: ops.remove_expected_source(store, rich.sources[0])):
        with pytest.raises(Conflict, match="case Q1 is approved in the frozen release 'v1'"):
            call()
    assert full_dump(goldset_path) == before
    ops.edit_case(store, q2, question="Un brouillon reste modifiable ?")
    ops.edit_case(store, q2, status="approved")  # approved after the freeze: not frozen
    ops.edit_case(store, q2, notes="encore modifiable")
    assert store.frozen_case_keys() == {"Q1"}
    draft = rel.start_draft(store)
    assert store.release_state() == ("draft", "")
    ops.edit_case(store, q1, question="Changée ?")
    with pytest.raises(InvalidValue, match="already a draft"):
        rel.start_draft(store)
    store.revert(last_id(store, "operations"))  # undo the edit
    store.revert(draft.operation_id or 0)  # undo the new draft: frozen again
    assert store.release_state() == ("frozen", "v1")
    with pytest.raises(Conflict):
        ops.edit_case(store, q1, question="Encore ?")


def test_release_names_are_unique_and_valid(store: GoldSetStore, rich: Rich,
                                           goldset_path: Path) -> None:
    rel.freeze_release(store, "v1")
    before = full_dump(goldset_path)
    with pytest.raises(Conflict, match="already exists"):
        rel.freeze_release(store, "v1")
    with pytest.raises(InvalidValue):
        rel.freeze_release(store, "  ")
    assert full_dump(goldset_path) == before


def test_freeze_is_undoable(store: GoldSetStore, rich: Rich, goldset_path: Path) -> None:
    ops.edit_case(store, rich.cases["Q1"], status="approved")
    changes = rel.freeze_release(store, "v1")
    store.revert(changes.operation_id or 0)
    assert rows(goldset_path, "SELECT count(*) FROM releases") == [(0,)]
    assert store.release_state() == ("draft", "")
    ops.edit_case(store, rich.cases["Q1"], question="Libre ?")
    snapshot = store.release_content()
    assert json.loads(json.dumps(snapshot)) == snapshot  # plain JSON


def test_a_release_freezes_agent_expectations_and_keeps_rag_hashes(
        store: GoldSetStore, rich: Rich) -> None:
    """Agent cases carry their expected state and invariants into the snapshot, so editing
    an invariant shows in the changelog; a RAG case's snapshot has no agent field (its hash
    does not move because agent cases exist)."""
    rag_only = store.release_content()["content_hash"]
    ops.create_case(store, key="A01", kind="agent", question="Je veux changer d'offre",
                    expected_state="ticket.category = changement_offre",
                    forbidden_tools="supprimer_compte", max_steps=6,
                    tool_order="verifier_identite < modifier_offre")
    rel.freeze_release(store, "v1")
    snapshot = store.release_snapshot("v1")
    assert "kind" not in snapshot["cases"]["Q1"]
    agent = snapshot["cases"]["A01"]
    assert agent["kind"] == "agent" and agent["max_steps"] == 6
    assert agent["expected_state"] == {"ticket.category": "changement_offre"}
    assert agent["tool_order"] == [["verifier_identite", "modifier_offre"]]
    assert agent["forbidden_tools"] == ["supprimer_compte"]
    ops.edit_case(store, last_id(store, "cases"), max_steps=8)
    rel.start_draft(store)
    rel.freeze_release(store, "v2")
    assert "Cases changed (1): A01 (max_steps)" in store.release_rows()[1]["changelog"]
    ops.delete_case(store, last_id(store, "cases"))
    assert store.release_content()["content_hash"] == rag_only


def test_an_expected_source_note_is_editable_until_its_case_is_frozen(
        store: GoldSetStore, rich: Rich) -> None:
    source_id = rich.sources[0]
    change = ops.set_expected_source_note(store, source_id, "  la règle de 2026 ")
    assert store.query("SELECT note FROM expected_sources WHERE id = ?", (source_id,)) == [
        {"note": "la règle de 2026"}]
    store.revert(change.operation_id)
    ops.edit_case(store, rich.cases["Q1"], status="approved")
    rel.freeze_release(store, "v1")
    with pytest.raises(Conflict):
        ops.set_expected_source_note(store, source_id, "after the freeze")
