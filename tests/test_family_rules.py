"""Family rules: what each family needs, checked on values and on a real file (and ``check``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.domain.family_rules import check_case
from rag_annotator.storage.store import GoldSetStore
from tests.builders import last_id
from tests.helpers import run_cli


def case(**fields: Any) -> dict[str, Any]:
    base = {"question": "Q ?", "reference_answer": "R", "family": "ordinary",
            "expected_behaviour": "answer", "notes": "", "role": ""}
    return {**base, **fields}


def source(doc: int, **fields: Any) -> dict[str, Any]:
    base = {"document_id": doc, "key": f"D{doc}", "status": "current", "origin": "corpus",
            "superseded_by": None, "span_start": None, "note": ""}
    return {**base, **fields}


def codes(c: dict[str, Any], sources: list[dict[str, Any]] | None = None) -> list[str]:
    return [w.code for w in check_case(c, sources or [])]


def test_a_complete_ordinary_case_passes() -> None:
    assert codes(case(), [source(1)]) == []


def test_every_case_needs_a_question_and_an_answer_unless_abstaining() -> None:
    assert codes(case(question=" ", reference_answer=None)) == ["no_question",
                                                                "no_reference_answer"]
    assert codes(case(reference_answer=None, expected_behaviour="abstain")) == []
    assert codes(case(reference_answer="", expected_behaviour="escalate")) == [
        "no_reference_answer"]


def test_no_answer_in_corpus() -> None:
    assert codes(case(family="no_answer", expected_behaviour="abstain")) == []
    assert codes(case(family="no_answer"), [source(1)]) == ["no_answer_behaviour",
                                                            "no_answer_sources"]


def test_conflicting_sources() -> None:
    c = case(family="conflicting_sources")
    assert codes(c, [source(1)]) == ["conflict_sources", "conflict_note"]
    assert codes(c, [source(1), source(2)]) == ["conflict_note"]
    assert codes(c, [source(1), source(2, note="D2 dit 25 jours")]) == []
    assert codes(case(family="conflicting_sources", notes="contradiction"),
                 [source(1), source(1)]) == ["conflict_sources"]  # the same document twice


def test_outdated_document_needs_the_old_and_the_current_one() -> None:
    c = case(family="outdated_document")
    assert codes(c, [source(1)]) == ["outdated_missing_old"]
    assert codes(c, [source(1, status="outdated")]) == ["outdated_missing_current"]
    assert codes(c, [source(1, superseded_by="D2"), source(2)]) == []
    assert codes(c, [source(1, status="outdated"), source(2)]) == []


def test_access_restricted_needs_a_role() -> None:
    assert codes(case(family="access_restricted")) == ["restricted_role"]
    assert codes(case(family="access_restricted", role="manager")) == []


def test_prompt_injection_needs_the_injected_passage() -> None:
    c = case(family="prompt_injection")
    assert codes(c, [source(1)]) == ["injection_passage"]
    assert codes(c, [source(1, span_start=3)]) == []
    assert codes(c, [source(1, note="le paragraphe 4 ordonne d'ignorer")]) == []


@pytest.mark.parametrize(("fields", "family", "expected"), [
    ({"status": "withdrawn"}, "ordinary", ["source_withdrawn"]),
    ({"status": "outdated"}, "ordinary", ["source_outdated"]),
    ({"origin": "placeholder"}, "ordinary", ["source_missing"]),
    ({"status": "outdated"}, "outdated_document", ["outdated_missing_current"]),
])
def test_sources_pointing_at_unusable_documents(fields: dict[str, Any], family: str,
                                                expected: list[str]) -> None:
    assert codes(case(family=family), [source(1, **fields)]) == expected


def test_rules_on_a_file_and_in_check(store: GoldSetStore, goldset_path: Path) -> None:
    ops.create_document(store, key="D1", text="ancien", status="outdated")
    old = last_id(store, "documents")
    ops.create_document(store, key="D2", text="nouveau", supersedes_id=old)
    ops.create_case(store, key="Q1", question="Combien ?", reference_answer="25",
                    family="outdated_document")
    q1 = last_id(store, "cases")
    ops.add_expected_source(store, q1, old)
    ops.create_case(store, key="Q2", question="Et ça ?", family="access_restricted",
                    status="retired")  # retired cases are not checked
    [inputs] = [c for c in store.family_rule_inputs() if c["key"] == "Q1"]
    assert [s["superseded_by"] for s in inputs["sources"]] == ["D2"]
    assert codes(inputs, inputs["sources"]) == ["outdated_missing_current"]
    store.close()
    assert "warning" not in run_cli("check", str(goldset_path)).stdout  # on request only
    result = run_cli("check", str(goldset_path), "--rules")
    assert result.returncode == 0, result.stderr  # advice, not integrity problems
    assert "warning: case Q1: outdated document: name the current document" in result.stdout
    assert "Q2" not in result.stdout
    assert "1 warning on cases" in result.stderr  # a real plural since messages


def test_agent_cases_follow_their_own_rules() -> None:
    """An agent case needs a request, an expected state and an invariant; it is never asked
    for a reference answer or sources (seed 000 judges result and path)."""
    bare = {"kind": "agent", "question": "", "family": "ordinary",
            "expected_behaviour": "answer"}
    assert codes(bare) == ["agent_no_request", "agent_no_state", "agent_no_invariant"]
    full = {**bare, "question": "Je veux changer d'offre",
            "expected_state": '{"ticket.category": "changement_offre"}',
            "forbidden_tools": '["supprimer_compte"]', "max_steps": 6}
    assert codes(full) == []
    contradictory = {**full, "tool_order": '[["supprimer_compte", "creer_ticket"]]'}
    assert codes(contradictory) == ["agent_contradiction"]
