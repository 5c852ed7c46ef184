"""What to judge next: the unjudged pairs that settle undetermined strict values.

Checked against brute force: for each unjudged document and each grade it could get, every
grading of the *other* unjudged documents is enumerated (tests/metrics/reference.py).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings

from rag_annotator.domain import judging_ops
from rag_annotator.metrics import QueryInput
from rag_annotator.metrics.judge_next import next_to_judge
from rag_annotator.reports.inputs import suggestions
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich
from tests.metrics.reference import Enumerated, enumerate_strict
from tests.metrics.strategies import Case, cases


def _brute_width(truth: Enumerated) -> float:
    if truth.publishable or not truth.values:
        return 0.0
    return max(truth.values) - min(truth.values) + (1.0 if truth.undefined_somewhere else 0.0)


def _brute_effects(query: QueryInput, names: list[str]) -> dict[str, tuple[set[str], float]]:
    before = {n: _brute_width(enumerate_strict(n, query.ranking, query.labels,
                                               query.max_grade)) for n in names}
    open_names = [n for n in names if before[n] > 0]
    out: dict[str, tuple[set[str], float]] = {}
    for doc, grade in query.labels.items():
        if grade is not None:
            continue
        worst = dict.fromkeys(open_names, 0.0)
        for g in range(query.max_grade + 1):
            labels = dict(query.labels)
            labels[doc] = g
            for n in open_names:
                worst[n] = max(worst[n], _brute_width(
                    enumerate_strict(n, query.ranking, labels, query.max_grade)))
        settled = {n for n in open_names if worst[n] == 0.0}
        narrowed = sum(max(0.0, before[n] - worst[n]) for n in open_names)
        out[doc] = (settled, narrowed)
    return out


@settings(max_examples=150, deadline=None)
@given(cases(max_universe=8, max_unjudged=4))
def test_settles_matches_brute_force(case: Case) -> None:
    names = case.names
    found = {s.document_key: s for s in next_to_judge({"q": case.query}, names, run="r")}
    for doc, (settled, narrowed) in _brute_effects(case.query, names).items():
        suggestion = found.get(doc)
        if not settled and narrowed <= 1e-9:
            assert suggestion is None, (doc, suggestion)
            continue
        assert suggestion is not None, (doc, settled, narrowed)
        assert {m for _run, m in suggestion.values} == settled, (doc, case.query)
        assert suggestion.settles == len(settled)
        assert suggestion.narrows == pytest.approx(narrowed, abs=1e-9)


def test_ranked_most_settling_first() -> None:
    # Seed 003's Q5 with B unjudged at rank 2: B decides P@2, RR@2's... and R@2.
    labels = {"A": 1, "B": None, "C": 0, "D": 0, "E": 0, "F": 0, "G": None}
    query = QueryInput(["A", "B", "C", "D", "E", "F"], labels)
    result = next_to_judge({"Q5": query}, "P@2,RR@2,R@2,nDCG@2")
    assert [s.document_key for s in result][:1] == ["B"]
    first = result[0]
    assert {m for _r, m in first.values} >= {"P@2"}
    assert all(a.settles >= b.settles for a, b in itertools.pairwise(result))
    # RR@2 is already published (A relevant at rank 1): nothing to settle there.
    assert all("RR@2" not in {m for _r, m in s.values} for s in result)


def test_nothing_to_suggest_when_everything_is_judged() -> None:
    query = QueryInput(["A", "B"], {"A": 1, "B": 0})
    assert next_to_judge({"q": query}) == []
    assert next_to_judge({"q": query}, "Judged@10") == []


def test_suggestions_over_every_run_of_the_store(store: GoldSetStore) -> None:
    rich = build_rich(store)
    found = suggestions(store, measures="P@1,P@2")
    pairs = {(s.case_key, s.document_key): s for s in found}
    # Q1/D2 is disputed (no effective label): dense ranks it first, bm25 second.
    assert ("Q1", "D2") in pairs
    assert pairs[("Q1", "D2")].values == (("bm25", "P@2"), ("dense", "P@1"), ("dense", "P@2"))
    assert pairs[("Q1", "D2")].settles == 3
    assert found[0].settles >= found[-1].settles
    only_q2 = suggestions(store, ["bm25"], "P@1,P@2", cases=["Q2"])
    assert {s.case_key for s in only_q2} == {"Q2"}
    # Judging the pair removes it from the list.
    judging_ops.set_judgment(store, rich.cases["Q1"], rich.docs["D2"], 1)
    store.assessor = "bob"
    judging_ops.set_judgment(store, rich.cases["Q1"], rich.docs["D2"], 1)
    assert ("Q1", "D2") not in {(s.case_key, s.document_key)
                                for s in suggestions(store, measures="P@1,P@2")}


def _reread_effects(query: QueryInput, name: str, monkeypatch: pytest.MonkeyPatch
                    ) -> dict[str, tuple[list[str], float]]:
    """The effects by re-reading the case per document and grade (the fast AP path off)."""
    from rag_annotator.metrics import judge_next
    from rag_annotator.metrics.measures import parse_measures

    with monkeypatch.context() as patch:
        patch.setattr(judge_next, "ap_widths", lambda *_args: None)
        return judge_next._case_effects(query, parse_measures(name))


@pytest.mark.parametrize("seed", range(6))
def test_fast_ap_widths_equal_rereading(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """AP's O(n log n) path (metrics/judge_next_ap.py) gives what re-reading gives, on random
    cases of every shape: short, graded, with pool documents outside the ranking."""
    import random

    from rag_annotator.metrics import judge_next
    from rag_annotator.metrics.measures import parse_measures

    rng = random.Random(seed)
    for _ in range(300):
        top = rng.choice((1, 2, 3))
        ranking = [f"d{i}" for i in range(rng.randint(0, 14))]
        labels: dict[str, int | None] = {
            d: rng.choice([None, None, 0, *range(1, top + 1)]) for d in ranking
            if rng.random() < 0.85}
        for i in range(rng.randint(0, 3)):
            labels[f"pool{i}"] = rng.choice([None, 0, top])
        query = QueryInput(ranking, labels, top)
        for name in ("AP", "AP@5"):
            fast = judge_next._case_effects(query, parse_measures(name))
            slow = _reread_effects(query, name, monkeypatch)
            assert fast.keys() == slow.keys()
            for doc, (settled, narrowed) in fast.items():
                assert settled == slow[doc][0], (query, name, doc)
                assert narrowed == pytest.approx(slow[doc][1], abs=1e-9), (query, name, doc)


def test_next_with_ap_on_a_deep_run_is_fast() -> None:
    """Issue 18, point 9: 1,000-deep rankings with ~50,000 unjudged pairs and AP took
    86-92 s; budget 10 s on a shared machine (the bench: tests/bench/bench_next.py)."""
    import time

    from tests.bench.bench_next import run_queries

    queries = run_queries(50, 1000)
    start = time.perf_counter()
    found = next_to_judge(queries, ("P@10", "nDCG@10", "AP"), run="r")
    assert time.perf_counter() - start < 10.0
    assert len(found) > 40_000
