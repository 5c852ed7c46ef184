"""Laws the three policies obey whatever the case, as properties.

These hold by construction if the implementation is right, and each one is a way an expert
would notice it is wrong: a judgment that makes the strict interval wider, a trec number
outside the strict interval, a strict number that differs from the trec one when nothing is
missing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_annotator.metrics import QueryInput, Reading, evaluate_query
from tests.metrics.strategies import Case, cases

SLACK = 1e-9


def contains(outer: Reading, inner: Reading) -> bool:
    """``inner``'s possible values are among ``outer``'s."""
    if inner.low is None:
        return True
    assert inner.high is not None
    if outer.low is None or outer.high is None:
        return False
    return outer.low - SLACK <= inner.low and inner.high <= outer.high + SLACK


@settings(max_examples=200, deadline=None)
@given(case=cases(max_universe=20, max_unjudged=20), data=st.data())
def test_judging_a_document_never_widens_the_strict_bounds(case: Case,
                                                            data: st.DataObject) -> None:
    query = case.query
    open_docs = sorted(d for d, g in query.labels.items() if g is None)
    if not open_docs:
        return
    doc = data.draw(st.sampled_from(open_docs))
    grade = data.draw(st.integers(0, query.max_grade))
    judged = QueryInput(query.ranking, {**query.labels, doc: grade}, query.max_grade)
    before = evaluate_query(query, case.names, "strict")
    after = evaluate_query(judged, case.names, "strict")
    for name in case.names:
        b, a = before[name], after[name]
        assert contains(b, a), (name, b, a)
        if b.value is not None:  # a published value stays published, unchanged
            assert a.value == pytest.approx(b.value, abs=1e-12), (name, b, a)
        if not b.undefined_for_some:
            assert not a.undefined_for_some, (name, b, a)


@settings(max_examples=200, deadline=None)
@given(case=cases(max_universe=30, max_unjudged=30))
def test_trec_value_lies_within_the_strict_bounds(case: Case) -> None:
    strict = evaluate_query(case.query, case.names, "strict")
    trec = evaluate_query(case.query, case.names, "trec")
    for name in case.names:
        value = trec[name].value
        s = strict[name]
        if value is None:
            assert s.undefined_for_some  # "all unjudged not relevant" is a grading
            continue
        assert s.low is not None and s.high is not None
        assert s.low - SLACK <= value <= s.high + SLACK, (name, value, s)
        if s.value is not None:
            assert s.value == value  # bit for bit: strict publishes the trec number


@settings(max_examples=200, deadline=None)
@given(case=cases(max_universe=30, unjudged=False))
def test_nothing_unjudged_means_all_policies_agree(case: Case) -> None:
    query = case.query
    # Keep only universe documents in the ranking, so judged-only has nothing to drop.
    inside = QueryInput([d for d in query.ranking if d in query.labels], query.labels,
                        query.max_grade)
    names = [*case.names, f"Judged@{case.k}"]
    readings = {p: evaluate_query(inside, names, p) for p in ("trec", "judged-only", "strict")}
    for name in names:
        assert readings["trec"][name] == readings["judged-only"][name] == \
            readings["strict"][name], name


@settings(max_examples=200, deadline=None)
@given(case=cases(max_universe=30, max_unjudged=30), policy=st.sampled_from(
    ["trec", "judged-only", "strict"]))
def test_values_and_bounds_are_proportions(case: Case, policy: str) -> None:
    for name, r in evaluate_query(case.query, case.names, policy).items():
        for x in (r.value, r.low, r.high):
            assert x is None or -SLACK <= x <= 1 + SLACK, (name, r)
        if r.low is not None and r.high is not None:
            assert r.low <= r.high + SLACK, (name, r)
        if r.value is not None:
            assert r.low == r.high == r.value and not r.undefined_for_some


@settings(max_examples=100, deadline=None)
@given(case=cases(max_universe=20, max_unjudged=20))
def test_unjudged_documents_outside_the_ranking_touch_only_r_dependent_measures(
        case: Case) -> None:
    """An unretrieved unjudged document cannot change what is in the top k: P@k, RR and
    Success@k keep their strict reading; R@k, AP and nDCG may only lose precision."""
    query = case.query
    wider = QueryInput(query.ranking, {**query.labels, "never-retrieved": None},
                       query.max_grade)
    before = evaluate_query(query, case.names, "strict")
    after = evaluate_query(wider, case.names, "strict")
    for name in case.names:
        if name.split("@")[0] in ("P", "RR", "Success"):
            assert before[name] == after[name], name
        else:
            assert contains(after[name], before[name]), name


def test_a_thousand_unjudged_documents_are_bounded_without_enumeration() -> None:
    """2**1000 gradings: only reasoning about bounds can answer, and it must answer exactly
    what the extremes are (the timing lives in tests/bench/bench_strict.py)."""
    ranking = [f"u{i:04d}" for i in range(1000)]
    labels: dict[str, int | None] = dict.fromkeys(ranking)
    names = ["P@10", "R@10", "RR", "nDCG@10", "nDCG", "AP", "Success@10", "Judged@10"]
    r = evaluate_query(QueryInput(ranking, labels), names, "strict")
    assert (r["P@10"].low, r["P@10"].high) == (0.0, 1.0)
    assert r["AP"].high == 1.0
    assert r["AP"].low == pytest.approx(1 / 1000)  # only the last document relevant
    assert r["nDCG"].high == pytest.approx(1.0)
    assert r["R@10"].low == pytest.approx(0.0) and r["R@10"].high == 1.0
    assert r["Judged@10"].value == 0.0
    assert all(r[n].undefined_for_some for n in ("R@10", "nDCG", "AP"))
    graded = evaluate_query(QueryInput(ranking, labels, max_grade=3), names, "strict")
    assert graded["nDCG"].high == pytest.approx(1.0)
