"""Agent metrics (issue 9 item 5): figures checked by hand on seed 000's support agent, as
:func:`tests.metrics.agent_seed.build_agents` enters it (its docstring has the table).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_annotator.domain import agent_ops
from rag_annotator.domain.agent_checks import evaluate
from rag_annotator.domain.agents import AgentSpec
from rag_annotator.metrics.agents import AgentItem, summarize_items
from rag_annotator.reports.inputs import summarize_agents as summarize
from rag_annotator.storage.store import GoldSetStore
from tests.metrics.agent_seed import RUN, build_agents


@pytest.fixture
def built(store: GoldSetStore) -> dict[str, int]:
    return build_agents(store)


def test_figures_by_hand_on_the_seed_example(store: GoldSetStore,
                                            built: dict[str, int]) -> None:
    summary = summarize(store, RUN)
    assert summary.retired == 1 and "R06" not in [i.case_key for i in summary.items]
    o = summary.overall
    assert o.trajectories == 5
    assert o.task_success_rate == pytest.approx(3 / 4)
    assert o.cases("success") == ("A01", "A02", "A03") and o.cases("failure") == ("A04",)
    assert o.cases("success_undecided") == ("S05",)
    assert o.path_acceptable_rate == pytest.approx(3 / 5)
    assert o.cases("path_bad") == ("A02", "A03")
    assert o.both_rate == pytest.approx(1 / 4)  # S05: success unknown, path yes
    assert o.cases("both_undecided") == ("S05",)
    v = o.violations
    assert set(v) == {"forbidden:supprimer_compte", "order:verifier_identite<modifier_offre",
                      "max_steps", "max_tokens"}
    assert v["forbidden:supprimer_compte"].rate == pytest.approx(1 / 5)
    assert o.cases("violation:forbidden:supprimer_compte") == ("A02",)
    assert v["order:verifier_identite<modifier_offre"].rate == pytest.approx(1 / 4)
    assert o.cases("violation:order:verifier_identite<modifier_offre") == ("A03",)
    assert v["max_steps"].rate == 0.0 and len(v["max_steps"].checked_cases) == 4
    # A03's token budget cannot be checked: out of the denominator, rate not computable
    assert v["max_tokens"].rate is None and o.cases("unknown:max_tokens") == ("A03",)
    assert o.mean_steps == pytest.approx(14 / 5)
    assert o.mean_tokens == pytest.approx(2900 / 4) and len(o.cases("tokens")) == 4
    assert o.mean_seconds == pytest.approx(16 / 4) and "A04" not in o.cases("seconds")
    assert o.total_cost == pytest.approx(0.065)
    assert o.cost_per_success == pytest.approx(0.065 / 3)
    assert o.cases("overruled_success") == o.cases("overruled_path") == ()


def test_per_family_split(store: GoldSetStore, built: dict[str, int]) -> None:
    summary = summarize(store, RUN)
    assert list(summary.per_family) == ["ordinary", "sensitive"]
    ordinary, sensitive = summary.group("ordinary"), summary.group("sensitive")
    assert ordinary.trajectories == 4 and ordinary.task_success_rate == pytest.approx(3 / 4)
    assert ordinary.path_acceptable_rate == pytest.approx(2 / 4)
    assert ordinary.mean_steps == pytest.approx(13 / 4)
    assert ordinary.cost_per_success == pytest.approx(0.06 / 3)
    assert sensitive.task_success_rate is None and sensitive.cases("success_undecided") == (
        "S05",)
    assert sensitive.cost_per_success is None  # no success: not computable, never 0
    assert sensitive.path_acceptable_rate == 1.0
    assert summary.group("ambiguous").trajectories == 0
    data = summary.to_json()
    assert data["per_family"]["sensitive"]["task_success"] == {  # type: ignore[index]
        "rate": None, "successes": 0, "failures": 0, "undecided": 1}


def test_reviews_overrule_and_are_counted(store: GoldSetStore, built: dict[str, int]) -> None:
    agent_ops.confirm_trajectory(store, built["A01"])
    agent_ops.review_trajectory(store, built["A03"], path_acceptable=True,
                                path_reason="identité déjà vérifiée au guichet")
    agent_ops.review_trajectory(store, built["A04"], task_success=True,
                                success_reason="la résiliation était demandée")
    agent_ops.review_trajectory(store, built["S05"], task_success=False)  # no automatic
    o = summarize(store, RUN).overall
    assert o.task_success_rate == pytest.approx(4 / 5)
    assert o.cases("success_undecided") == ()
    assert o.path_acceptable_rate == pytest.approx(4 / 5)
    assert o.cases("overruled_success") == ("A04",)
    assert o.cases("overruled_path") == ("A03",)
    assert o.cases("reviewed") == ("A01", "A03", "A04", "S05")
    assert o.cost_per_success == pytest.approx(0.065 / 4)
    # the violation rate stays what the trajectory did: a review judges the path, not the log
    assert o.violations["order:verifier_identite<modifier_offre"].rate == pytest.approx(1 / 4)
    data = o.to_json()
    assert data["overruled"] == {"task_success": 1, "path_acceptable": 1}
    assert data["reviewed"] == 4


def test_zero_denominators_are_null(store: GoldSetStore) -> None:
    summary = summarize(store, "no-such-run")
    assert not summary.has_data
    data = summary.overall.to_json()
    for key in ("mean_steps", "mean_tokens", "mean_seconds", "total_cost",
                "cost_per_success"):
        assert data[key] is None, key
    assert data["task_success"]["rate"] is None  # type: ignore[index]
    assert data["violations"] == {}
    with pytest.raises(ValueError, match="unknown figure"):
        summary.overall.cases("nope")


def test_every_figure_of_the_json_lists_cases(store: GoldSetStore,
                                             built: dict[str, int]) -> None:
    data = summarize(store, RUN).to_json()
    assert data["trajectories"] == 5 and data["retired_excluded"] == 1
    per = {t["case"]: t for t in data["per_trajectory"]}  # type: ignore[attr-defined]
    assert per["A02"]["broken"] == ["forbidden:supprimer_compte"]
    assert per["A04"]["task_success"] == {"automatic": False, "reviewed": None,
                                          "effective": False}
    overall: Any = data["overall"]
    assert overall["violations"]["max_tokens"] == {"rate": None, "broken": 0, "checked": 0,
                                                   "unknown": 1}
    assert overall["tokens_trajectories"] == 4 and overall["cost_trajectories"] == 4


# -- property: against a plain recomputation -------------------------------------------------
TOOLS = st.sampled_from(["verifier_identite", "modifier_offre", "creer_ticket",
                         "supprimer_compte"])
ITEM = st.tuples(st.lists(TOOLS, max_size=8), st.sampled_from(["ordinary", "sensitive"]),
                 st.one_of(st.none(), st.booleans()),  # final state good / wrong / none
                 st.one_of(st.none(), st.booleans()), st.one_of(st.none(), st.booleans()),
                 st.one_of(st.none(), st.integers(0, 5000)),
                 st.one_of(st.none(), st.floats(0, 10, allow_nan=False)),
                 st.booleans())  # the case states invariants


def _plain(rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """Straightforward recomputation of the overall figures, rule by rule."""
    succ = fail = ok = bad = steps = 0
    cost_total = 0.0
    costs = 0
    broken: dict[str, int] = {}
    checked: dict[str, int] = {}
    for tools, _family, state, r_success, r_path, _tokens, cost, rules in rows:
        auto_success = None if state is None else state
        success = r_success if r_success is not None else auto_success
        path_checks: dict[str, bool] = {}
        if rules:
            path_checks["forbidden:supprimer_compte"] = "supprimer_compte" not in tools
            a, b = "verifier_identite", "modifier_offre"
            path_checks[f"order:{a}<{b}"] = (a in tools and b in tools
                                             and tools.index(a) < tools.index(b))
            path_checks["max_steps"] = len(tools) <= 6
        auto_path = None if not path_checks else all(path_checks.values())
        path = r_path if r_path is not None else auto_path
        for code, held in path_checks.items():
            checked[code] = checked.get(code, 0) + 1
            broken[code] = broken.get(code, 0) + (not held)
        succ += success is True
        fail += success is False
        ok += path is True
        bad += path is False
        steps += len(tools)
        if cost is not None:
            cost_total += cost
            costs += 1
    return {"success": succ / (succ + fail) if succ + fail else None,
            "path": ok / (ok + bad) if ok + bad else None,
            "violations": {c: broken[c] / checked[c] for c in checked},
            "steps": steps / len(rows) if rows else None,
            "cost_per_success": cost_total / succ if costs and succ else None}


@settings(max_examples=150, deadline=None)
@given(st.lists(ITEM, max_size=12))
def test_summary_agrees_with_a_plain_recomputation(rows: list[tuple[Any, ...]]) -> None:
    items = []
    for n, (tools, family, state, r_success, r_path, tokens, cost, rules) in enumerate(rows):
        spec = AgentSpec(expected_state={"ticket.category": "changement_offre"},
                         forbidden_tools=("supprimer_compte",) if rules else (),
                         tool_order=(("verifier_identite", "modifier_offre"),) if rules else (),
                         max_steps=6 if rules else None)
        final = None if state is None else {
            "ticket": {"category": "changement_offre" if state else "autre"}}
        items.append(AgentItem(f"C{n:02d}", family, len(tools),
                               evaluate(spec, tools, final, tokens, None, cost),
                               r_success, r_path, tokens, None, cost))
    o = summarize_items("r", items).overall
    want = _plain(rows)
    for got, expected in ((o.task_success_rate, want["success"]),
                          (o.path_acceptable_rate, want["path"]),
                          (o.mean_steps, want["steps"]),
                          (o.cost_per_success, want["cost_per_success"])):
        assert (got is None) == (expected is None)
        if got is not None:
            assert math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)
    assert {c: v.rate for c, v in o.violations.items()} == pytest.approx(want["violations"])
    # per-family groups partition the overall trajectories
    summary = summarize_items("r", items)
    assert sum(g.trajectories for g in summary.per_family.values()) == o.trajectories



def test_json_names_the_step_that_broke_each_invariant_and_the_differing_keys(
        store: GoldSetStore, built: dict[str, int]) -> None:
    """``metrics --json`` is what scoring tools read: per trajectory, each check with the
    steps that broke it, and each expected key with what the agent left."""
    per = {t["case"]: t for t in summarize(store, RUN).to_json()["per_trajectory"]}
    checks = {c["code"]: c for c in per["A02"]["checks"]}
    assert checks["forbidden:supprimer_compte"] == {
        "code": "forbidden:supprimer_compte", "status": "broken", "steps": [2]}
    assert checks["max_steps"] == {"code": "max_steps", "status": "held", "steps": [],
                                   "limit": 6, "actual": 4}
    order = {c["code"]: c for c in per["A03"]["checks"]}["order:verifier_identite<modifier_offre"]
    assert order["status"] == "broken" and order["steps"] == [1]
    assert per["A04"]["final_state"] == [{"key": "ticket.category",
                                          "expected": "changement_offre",
                                          "actual": "resiliation", "status": "differs"}]
