"""``trec`` and ``judged-only`` equal trec_eval (through pytrec_eval) and ir_measures.

pytrec_eval embeds trec_eval's C code, so agreeing with it on thousands of generated cases,
binary and graded, is agreeing with trec_eval.  pytrec_eval sorts a run by score itself
(ties by docid descending); the run handed to it gets strictly decreasing scores along our
ranking, so both sides read the same order.  Only values defined in our convention are
compared: where R = 0 trec_eval prints 0 and we say "not defined", on purpose.
"""

from __future__ import annotations

import ir_measures
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_annotator.metrics import QueryInput, evaluate, evaluate_query
from tests.metrics.strategies import CUTOFFS, Case, cases

PYTREC_MEASURES = {
    "P." + ",".join(map(str, CUTOFFS)), "recall." + ",".join(map(str, CUTOFFS)),
    "ndcg_cut." + ",".join(map(str, CUTOFFS)), "map_cut." + ",".join(map(str, CUTOFFS)),
    "success." + ",".join(map(str, CUTOFFS)), "recip_rank", "ndcg", "map",
}


def ours_to_trec(name: str) -> str:
    kind, _, k = name.partition("@")
    plain = {"RR": "recip_rank", "nDCG": "ndcg", "AP": "map"}
    if not k:
        return plain[kind]
    return {"P": "P", "R": "recall", "nDCG": "ndcg_cut", "AP": "map_cut",
            "Success": "success"}[kind] + f"_{k}"


def pytrec_values(query: QueryInput, unjudged_as_minus_one: bool, judged_only: bool,
                  measures: set[str] | None = None) -> dict[str, float]:
    """trec_eval's values for one query; unjudged documents omitted or written as -1 (both
    mean "in the pool, unjudged" to trec_eval)."""
    qrels: dict[str, int] = {}
    for doc, grade in query.labels.items():
        if grade is not None:
            qrels[doc] = grade
        elif unjudged_as_minus_one:
            qrels[doc] = -1
    if all(grade < 0 for grade in qrels.values()):
        # Nothing judged: R = 0, trec_eval has nothing to say.  (pytrec_eval 0.5.11 can also
        # hang on a qrels made only of -1 lines after an earlier evaluation.)
        return {}
    n = len(query.ranking)
    run = {doc: float(n - i) for i, doc in enumerate(query.ranking)}
    evaluator = pytrec_eval.RelevanceEvaluator({"q": qrels}, measures or PYTREC_MEASURES,
                                               judged_docs_only_flag=judged_only)
    result: dict[str, dict[str, float]] = evaluator.evaluate({"q": run})
    return result.get("q", {})


def rr_at(query: QueryInput, k: int, judged_only: bool) -> float:
    """trec_eval has no RR@k: its RR on the ranking cut at k is the same number."""
    cut = QueryInput(query.ranking[:k], query.labels, query.max_grade)
    return pytrec_values(cut, False, judged_only, {"recip_rank"}).get("recip_rank", 0.0)


def check(query: QueryInput, k: int, policy: str, minus_one: bool) -> int:
    names = [f"P@{c}" for c in CUTOFFS] + [f"R@{c}" for c in CUTOFFS] + [
        f"nDCG@{c}" for c in CUTOFFS] + [f"AP@{c}" for c in CUTOFFS] + [
        f"Success@{c}" for c in CUTOFFS] + ["RR", "nDCG", "AP"]
    judged_only = policy == "judged-only"
    readings = evaluate_query(query, names, policy)
    expected = pytrec_values(query, minus_one, judged_only)
    compared = 0
    for name in names:
        value = readings[name].value
        if value is None:  # R = 0 or ideal DCG = 0: trec_eval prints 0, we say "not defined"
            assert sum(1 for g in query.labels.values() if g) == 0
            continue
        if not expected:  # no qrels line at all: trec_eval skips the query
            continue
        assert value == pytest.approx(expected[ours_to_trec(name)], abs=1e-9), name
        compared += 1
    if expected and query.ranking:
        assert readings_rr(query, k, policy) == pytest.approx(rr_at(
            _condensed(query) if judged_only else query, k, False), abs=1e-12)
    return compared


def readings_rr(query: QueryInput, k: int, policy: str) -> float | None:
    return evaluate_query(query, [f"RR@{k}"], policy)[f"RR@{k}"].value


def _condensed(query: QueryInput) -> QueryInput:
    ranking = [d for d in query.ranking if query.labels.get(d) is not None]
    return QueryInput(ranking, query.labels, query.max_grade)


@settings(max_examples=700, deadline=None)
@given(case=cases(max_grade=1, max_universe=30, max_unjudged=30), minus_one=st.booleans())
def test_trec_equals_trec_eval_binary(case: Case, minus_one: bool) -> None:
    check(case.query, case.k, "trec", minus_one)


@settings(max_examples=700, deadline=None)
@given(case=cases(max_grade=3, max_universe=30, max_unjudged=30), minus_one=st.booleans())
def test_trec_equals_trec_eval_graded(case: Case, minus_one: bool) -> None:
    check(case.query, case.k, "trec", minus_one)


@settings(max_examples=400, deadline=None)
@given(case=cases(max_universe=30, max_unjudged=30), minus_one=st.booleans())
def test_judged_only_equals_trec_eval_dash_j(case: Case, minus_one: bool) -> None:
    check(case.query, case.k, "judged-only", minus_one)


def test_a_known_case_is_actually_compared() -> None:
    """Guard against a comparison that silently skips everything."""
    query = QueryInput(["x", "a", "u", "b", "c"], {"a": 2, "b": 0, "c": 1, "u": None, "z": 3},
                       max_grade=3)
    assert check(query, 3, "trec", True) == 28
    assert check(query, 3, "judged-only", False) == 28


def test_trec_eval_tie_rule_is_the_import_s_job() -> None:
    """pytrec_eval breaks score ties by docid descending; given tied scores it reorders, which
    is why the ranking we receive must already be in that order."""
    qrels = {"q": {"d1": 1, "d2": 0}}
    tied = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(
        {"q": {"d1": 1.0, "d2": 1.0}})
    assert tied["q"]["recip_rank"] == 0.5  # d2 first
    ours = evaluate_query(QueryInput(["d2", "d1"], qrels["q"]), ["RR"])["RR"].value
    assert ours == 0.5


# --- ir_measures: the names we use are its names, with its meaning -------------------------

FIXED = {
    "q1": QueryInput(["a", "x", "c", "b", "u"], {"a": 1, "b": 0, "c": 2, "u": None, "d": 1},
                     max_grade=2),
    "q2": QueryInput(["u", "v", "a"], {"a": 1, "u": None, "v": 0}),
    "q3": QueryInput(["b", "a"], {"a": 0, "b": 3, "c": 2}, max_grade=3),
    "q4": QueryInput(["n1", "n2", "n3", "a"], {"a": 1, "n1": 0}),
}


@pytest.mark.parametrize("qid", sorted(FIXED))
def test_same_numbers_as_ir_measures(qid: str) -> None:
    query = FIXED[qid]
    names = ["P@3", "R@3", "RR", "RR@2", "nDCG@3", "nDCG", "AP", "AP@3", "Judged@2",
             "Judged@3", "Judged@10", "Success@1", "Success@3"]
    qrels = [ir_measures.Qrel(qid, doc, grade) for doc, grade in query.labels.items()
             if grade is not None]
    run = {qid: {doc: float(len(query.ranking) - i) for i, doc in enumerate(query.ranking)}}
    parsed = [ir_measures.parse_measure(name) for name in names]
    theirs = {str(m.measure): m.value for m in ir_measures.iter_calc(parsed, qrels, run)}
    ours = evaluate({qid: query}, names, "trec").per_query[qid]
    for name in names:
        assert name in theirs, f"ir_measures does not know {name}"
        assert ours[name] == pytest.approx(theirs[name], abs=1e-9), name


def test_judged_at_k_is_read_on_the_full_ranking_under_every_policy() -> None:
    query = FIXED["q2"]  # u unjudged, v judged 0, a judged 1
    for policy in ("trec", "judged-only", "strict"):
        reading = evaluate_query(query, ["Judged@2", "Judged@3"], policy)
        assert reading["Judged@2"].value == 0.5
        assert reading["Judged@3"].value == pytest.approx(2 / 3)
    assert evaluate_query(QueryInput([], {"a": 1}), ["Judged@5"])["Judged@5"].value is None
