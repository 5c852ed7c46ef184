"""The strict policy against brute force: every grading of the unjudged, enumerated here.

The module must never enumerate (a case can hold a thousand unjudged documents); the test may,
on cases small enough: at most 8 unjudged documents on a binary scale, 5 on 0-2, 4 on 0-3.
For every measure: published exactly when defined and constant over all gradings, with that
constant as value; otherwise low/high are the enumerated extremes and ``undefined_for_some``
says whether some grading leaves it undefined.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings

from rag_annotator.metrics import QueryInput, evaluate_query
from tests.metrics.reference import enumerate_strict
from tests.metrics.strategies import Case, cases


def assert_matches_brute_force(case: Case) -> None:
    query = case.query
    readings = evaluate_query(query, case.names, "strict")
    for name in case.names:
        truth = enumerate_strict(name, query.ranking, query.labels, query.max_grade)
        reading = readings[name]
        context = f"{name} on {query!r}: {reading}"
        assert reading.undefined_for_some == truth.undefined_somewhere, context
        if truth.publishable:
            assert reading.status == "published", context
            assert reading.value == pytest.approx(truth.values[0], abs=1e-12), context
        elif not truth.values:
            assert reading.status == "not_defined", context
        else:
            assert reading.status == "undetermined", context
            assert reading.low == pytest.approx(min(truth.values), abs=1e-9), context
            assert reading.high == pytest.approx(max(truth.values), abs=1e-9), context


@settings(max_examples=300, deadline=None)
@given(case=cases(max_grade=1))
def test_binary_strict_equals_brute_force(case: Case) -> None:
    assert_matches_brute_force(case)


@settings(max_examples=150, deadline=None)
@given(case=cases(max_grade=2))
def test_graded_0_2_strict_equals_brute_force(case: Case) -> None:
    assert_matches_brute_force(case)


@settings(max_examples=150, deadline=None)
@given(case=cases(max_grade=3))
@example(case=Case(QueryInput(["a", "u", "b"], {"a": 2, "u": None, "b": 2}, 3), 3))
def test_graded_0_3_strict_equals_brute_force(case: Case) -> None:
    assert_matches_brute_force(case)


def test_best_ndcg_can_need_a_middle_grade() -> None:
    """Grades 2, ?, 2 on a 0-3 scale: a 2 in the middle makes the order ideal (nDCG 1), a 3
    would spoil it and a 0 leaves a gap.  Trying only 0 and the top grade would miss it."""
    query = QueryInput(["a", "u", "b"], {"a": 2, "u": None, "b": 2}, max_grade=3)
    reading = evaluate_query(query, ["nDCG@3"], "strict")["nDCG@3"]
    assert reading.high == 1.0
    for grade, expected in ((0, 0.92), (3, 0.93)):
        value = evaluate_query(QueryInput(query.ranking, {**query.labels, "u": grade}, 3),
                               ["nDCG@3"])["nDCG@3"].value
        assert value is not None and math.isclose(value, expected, abs_tol=0.01)
    assert reading.low == pytest.approx(min(0.9197, 0.9300), abs=1e-3)


def test_nothing_judged_relevant_means_undefined_for_some_grading() -> None:
    query = QueryInput(["u", "a"], {"u": None, "a": 0})
    readings = evaluate_query(query, ["R@1", "AP", "nDCG@2", "P@1", "RR"], "strict")
    for name in ("R@1", "AP", "nDCG@2"):
        assert readings[name].status == "undetermined"
        assert readings[name].undefined_for_some
    assert readings["R@1"].low == readings["R@1"].high == 1.0  # whenever defined, it is 1
    assert readings["P@1"].undefined_for_some is False
    assert (readings["RR"].low, readings["RR"].high) == (0.0, 1.0)
