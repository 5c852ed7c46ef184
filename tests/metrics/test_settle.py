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
