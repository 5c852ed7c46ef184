"""Agent cases, the automatic checks of a trajectory, and its review (issue 9, seed 000).

The seed's support agent: ``supprimer_compte`` forbidden, at most 6 steps, and
``verifier_identite`` before ``modifier_offre``.  Its trajectory ``verifier_identite,
modifier_offre, creer_ticket`` keeps every invariant (the seed prints three ``True``); a
trajectory that calls ``supprimer_compte`` or reverses the order is flagged on the step.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_annotator.domain import agent_ops
from rag_annotator.domain import operations as ops
from rag_annotator.domain.agent_checks import BROKEN, DIFFERS, EQUAL, HELD, MISSING, evaluate
from rag_annotator.domain.agent_ops import TrajectoryInput, TrajectoryRejected
from rag_annotator.domain.agents import (
    AgentSpec,
    format_order,
    format_state,
    parse_order,
    parse_state,
    parse_tools,
    same_value,
)
from rag_annotator.errors import InvalidValue
from rag_annotator.storage.store import GoldSetStore

SEED_CASE: dict[str, Any] = {
    "key": "A01", "kind": "agent", "question": "Je veux changer d'offre",
    "expected_state": "ticket.category = changement_offre\nticket.client = C-42",
    "forbidden_tools": ["supprimer_compte"], "max_steps": 6,
    "tool_order": "verifier_identite < modifier_offre",
}
SEED_PATH = ["verifier_identite", "modifier_offre", "creer_ticket"]
FINAL = {"ticket": {"category": "changement_offre", "client": "C-42", "id": "T-981"}}


def seed_reference(etapes: list[str], cas: dict[str, Any]) -> dict[str, bool]:
    """Seed 000's rules restated independently (forbidden tools, step budget with the seed's
    default of 10, ordering by first call with both tools required)."""
    out = {"outils_interdits": not set(etapes) & set(cas.get("interdits", [])),
           "budget_etapes": len(etapes) <= cas.get("max_etapes", 10)}
    for avant, apres in cas.get("ordre", []):
        out[f"{avant}<{apres}"] = (avant in etapes and apres in etapes
                                   and etapes.index(avant) < etapes.index(apres))
    return out


def as_seed(spec: AgentSpec, tools: list[str]) -> dict[str, bool]:
    """Our checks folded into the seed's three verdicts."""
    evaluation = evaluate(spec, tools, None)
    by_kind = {c.code: c for c in evaluation.checks}
    out = {"outils_interdits": all(c.status == HELD for c in evaluation.checks
                                   if c.kind == "forbidden"),
           "budget_etapes": by_kind["max_steps"].status == HELD}
    for a, b in spec.tool_order:
        out[f"{a}<{b}"] = by_kind[f"order:{a}<{b}"].status == HELD
    return out


@pytest.fixture
def seeded(store: GoldSetStore) -> GoldSetStore:
    ops.create_case(store, **SEED_CASE)
    return store


def _spec(store: GoldSetStore, key: str = "A01") -> AgentSpec:
    return AgentSpec.from_row(store.query("SELECT * FROM cases WHERE key = ?", (key,))[0])


def test_the_seed_example_gives_the_verdicts_the_seed_prints(seeded: GoldSetStore) -> None:
    spec = _spec(seeded)
    assert spec.forbidden_tools == ("supprimer_compte",) and spec.max_steps == 6
    assert spec.tool_order == (("verifier_identite", "modifier_offre"),)
    assert as_seed(spec, SEED_PATH) == {"outils_interdits": True, "budget_etapes": True,
                                        "verifier_identite<modifier_offre": True}
    evaluation = evaluate(spec, SEED_PATH, FINAL)
    assert evaluation.path_acceptable is True and evaluation.task_success is True
    assert [k.status for k in evaluation.state] == [EQUAL, EQUAL]


def test_a_forbidden_call_is_flagged_on_its_step(seeded: GoldSetStore) -> None:
    tools = ["verifier_identite", "supprimer_compte", "modifier_offre", "creer_ticket"]
    evaluation = evaluate(_spec(seeded), tools, FINAL)
    (broken,) = evaluation.broken
    assert broken.code == "forbidden:supprimer_compte" and broken.steps == (2,)
    assert evaluation.broken_steps() == {2: [broken]}
    assert evaluation.path_acceptable is False
    assert broken.describe() == "forbidden tool supprimer_compte: called at step 2"


def test_a_reversed_order_is_flagged_on_the_step_that_came_too_early(
        seeded: GoldSetStore) -> None:
    tools = ["modifier_offre", "verifier_identite", "creer_ticket"]
    evaluation = evaluate(_spec(seeded), tools, FINAL)
    (broken,) = evaluation.broken
    assert broken.code == "order:verifier_identite<modifier_offre"
    assert broken.steps == (1,)
    assert as_seed(_spec(seeded), tools)["verifier_identite<modifier_offre"] is False


def test_step_budget_breaks_on_the_first_step_past_it(seeded: GoldSetStore) -> None:
    tools = ["verifier_identite", "modifier_offre"] + ["creer_ticket"] * 5
    (broken,) = evaluate(_spec(seeded), tools, FINAL).broken
    assert broken.code == "max_steps" and broken.steps == (7,) and broken.actual == 7


def test_an_order_never_exercised_is_broken_without_a_step(seeded: GoldSetStore) -> None:
    (broken,) = evaluate(_spec(seeded), ["verifier_identite", "creer_ticket"], FINAL).broken
    assert broken.steps == () and broken.missing == ("modifier_offre",)
    (both,) = evaluate(_spec(seeded), ["creer_ticket"], FINAL).broken
    assert both.missing == ("verifier_identite", "modifier_offre")


TOOLS = st.sampled_from(["verifier_identite", "modifier_offre", "creer_ticket",
                         "supprimer_compte", "chercher"])


@settings(max_examples=300, deadline=None)
@given(st.lists(TOOLS, max_size=12), st.lists(TOOLS, max_size=2, unique=True),
       st.one_of(st.none(), st.integers(0, 8)),
       st.lists(st.tuples(TOOLS, TOOLS).filter(lambda p: p[0] != p[1]), max_size=2,
                unique=True))
def test_checks_agree_with_the_seed_rules(tools: list[str], forbidden: list[str],
                                          max_steps: int | None,
                                          order: list[tuple[str, str]]) -> None:
    spec = AgentSpec(forbidden_tools=tuple(forbidden), tool_order=tuple(order),
                     max_steps=10 if max_steps is None else max_steps)
    cas = {"interdits": forbidden, "ordre": order, "max_etapes": spec.max_steps}
    assert as_seed(spec, tools) == seed_reference(tools, cas)


def test_final_state_names_the_keys_that_differ() -> None:
    spec = AgentSpec(expected_state=parse_state(
        "ticket.category = changement_offre; ticket.priority = 2; ticket.urgent = true; x = y"))
    final = {"ticket": {"category": "resiliation", "priority": "2", "urgent": True}}
    state = {k.key: k for k in evaluate(spec, [], final).state}
    assert state["ticket.category"].status == DIFFERS
    assert state["ticket.category"].actual == "resiliation"
    assert state["ticket.priority"].status == EQUAL  # "2" and 2: spreadsheets write text
    assert state["ticket.urgent"].status == EQUAL
    assert state["x"].status == MISSING
    assert evaluate(spec, [], final).task_success is False
    assert evaluate(spec, [], None).task_success is None  # no final state: nothing to compare
    assert evaluate(AgentSpec(), [], final).task_success is None


def test_budgets_of_tokens_seconds_and_cost() -> None:
    spec = AgentSpec(max_tokens=1000, max_seconds=10.0, max_cost=0.05)
    checks = {c.code: c for c in evaluate(spec, [], {}, tokens=1200, seconds=9.5).checks}
    assert checks["max_tokens"].status == BROKEN and checks["max_tokens"].actual == 1200
    assert checks["max_seconds"].status == HELD
    assert checks["max_cost"].status == "unknown"


def test_values_compare_as_an_expert_expects() -> None:
    assert same_value("3", 3) and same_value(3, 3.0) and same_value("true", True)
    assert not same_value(1, True) and not same_value("C-42", "C-43")
    assert same_value({"a": 1}, {"a": 1}) and not same_value(None, "")


def test_text_forms_read_back() -> None:
    state = parse_state('{"ticket": {"category": "changement_offre", "n": 2}, "ok": true}')
    assert state == {"ticket.category": "changement_offre", "ticket.n": 2, "ok": True}
    assert parse_state(format_state(state)) == state
    assert parse_state(format_state({"code": "42"})) == {"code": "42"}  # text stays text
    pairs = parse_order("a < b < c\nd -> e; f avant g")
    assert pairs == [("a", "b"), ("b", "c"), ("d", "e"), ("f", "g")]
    assert parse_order(format_order(pairs)) == pairs
    assert parse_tools("supprimer_compte, x;y\nz", "t") == ["supprimer_compte", "x", "y", "z"]
    for bad, message in (("ticket.category", "is not 'key = value'"),
                         ("a = 1; a = 2", "given twice"), ('{"a": ', "does not parse")):
        with pytest.raises(InvalidValue, match=message):
            parse_state(bad)
    with pytest.raises(InvalidValue, match="before < after"):
        parse_order("verifier_identite")
    with pytest.raises(InvalidValue, match="before itself"):
        parse_order("a < a")


def test_case_editor_fields_are_validated(store: GoldSetStore) -> None:
    for fields, message in (({"max_steps": "six"}, "not a number"),
                            ({"max_steps": 2.5}, "whole number"),
                            ({"max_cost": -1}, "0 or more"),
                            ({"kind": "robot"}, "not one of")):
        with pytest.raises(InvalidValue, match=message):
            ops.create_case(store, key="X", **fields)
    assert store.count("cases") == 0


# -- trajectories and reviews ---------------------------------------------------------------
def _import(store: GoldSetStore, *paths: list[str], run: str = "agent-v1") -> list[int]:
    items = [TrajectoryInput(case=f"A0{i}", steps=[(t, {"client_id": "C-42"}, "ok")
                                                   for t in tools],
                             final_state=FINAL, tokens=900, seconds=4.2, cost=0.01, line=i)
             for i, tools in enumerate(paths, start=1)]
    for i in range(2, len(paths) + 1):
        ops.create_case(store, **{**SEED_CASE, "key": f"A0{i}"})
    agent_ops.import_trajectories(store, run, items)
    return [r["id"] for r in store.trajectory_queue(run)]


def test_import_then_review_with_an_overrule_that_needs_a_reason(
        seeded: GoldSetStore) -> None:
    reversed_path = ["modifier_offre", "verifier_identite", "creer_ticket"]
    first, second = _import(seeded, SEED_PATH, reversed_path)
    detail = seeded.trajectory_detail(second)
    assert [s["tool"] for s in detail["steps"]] == reversed_path
    assert json.loads(detail["steps"][0]["arguments"]) == {"client_id": "C-42"}
    assert detail["final_state"] == FINAL and detail["review"] is None

    agent_ops.confirm_trajectory(seeded, first)
    review = seeded.trajectory_detail(first)["review"]
    assert (review["task_success"], review["path_acceptable"]) == (1, 1)

    with pytest.raises(InvalidValue, match="overrules the automatic check"):
        agent_ops.review_trajectory(seeded, second, path_acceptable=True)
    assert seeded.trajectory_detail(second)["review"] is None
    change = agent_ops.review_trajectory(seeded, second, path_acceptable=True,
                                         path_reason="l'identité était déjà vérifiée")
    review = seeded.trajectory_detail(second)["review"]
    assert review["path_acceptable"] == 1 and review["path_reason"].startswith("l'identité")
    assert review["task_success"] is None  # not marked: the automatic verdict counts
    seeded.revert(change.operation_id)
    assert seeded.trajectory_detail(second)["review"] is None


def test_trajectory_import_is_refused_whole_with_the_line(seeded: GoldSetStore) -> None:
    ops.create_case(seeded, key="Q1", question="RAG question")
    items = [TrajectoryInput(case="A01", steps=[("x", {}, "")], line=1),
             TrajectoryInput(case="Q1", line=2)]
    with pytest.raises(TrajectoryRejected, match="line 2: case 'Q1' is a RAG case") as caught:
        agent_ops.import_trajectories(seeded, "run", items)
    assert caught.value.line == 2
    assert seeded.count("trajectories") == 0 and seeded.count("runs") == 0
    agent_ops.import_trajectories(seeded, "run", items[:1])
    with pytest.raises(TrajectoryRejected, match="already has a trajectory"):
        agent_ops.import_trajectories(seeded, "run", items[:1])


def test_deleting_a_case_or_run_takes_its_trajectories_and_undo_restores(
        seeded: GoldSetStore) -> None:
    (tid,) = _import(seeded, SEED_PATH)
    agent_ops.confirm_trajectory(seeded, tid)
    case_id = seeded.query("SELECT id FROM cases WHERE key = 'A01'")[0]["id"]
    change = ops.delete_case(seeded, case_id)
    assert seeded.count("trajectories") == seeded.count("trajectory_steps") == 0
    seeded.revert(change.operation_id)
    assert seeded.count("trajectory_steps") == 3 and seeded.count("trajectory_reviews") == 1
    run_id = seeded.query("SELECT id FROM runs")[0]["id"]
    ops.delete_run(seeded, run_id)
    assert seeded.count("trajectories") == 0


def test_check_reports_a_gap_in_trajectory_steps(seeded: GoldSetStore,
                                                 goldset_path: Any) -> None:
    import sqlite3
    from contextlib import closing

    _import(seeded, SEED_PATH)
    assert seeded.cross_reference_problems() == []
    with closing(sqlite3.connect(goldset_path, isolation_level=None)) as raw:
        raw.execute("UPDATE trajectory_steps SET position = 9 WHERE position = 2")
    problems = seeded.cross_reference_problems()
    assert problems == ["run agent-v1, case A01: trajectory steps are not numbered 1..3"]
