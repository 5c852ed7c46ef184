"""Passages rolled up to their documents: the rule, and the measures on the rolled-up run
and labels against trec_eval (pytrec_eval) and ir_measures.

The peers are given the roll-up in their own terms, MaxP: each passage line of the run is
scored by its rank (higher first), a document's line takes its best passage's score (the
peer orders by score itself), and a document's qrels line holds the best grade judged on
it or its passages.  Under ``trec`` that must give the same values and means as
:func:`roll_up` followed by the app's own measures.
"""

from __future__ import annotations

import ir_measures
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_annotator.metrics import Policy, QueryInput, evaluate
from rag_annotator.metrics.rollup import document_grade, roll_up, roll_up_query

MEASURES = ("P@1", "P@3", "P@5", "R@3", "R@10", "nDCG@5", "nDCG@10", "AP", "RR")
PEER = {"P@1": "P_1", "P@3": "P_3", "P@5": "P_5", "R@3": "recall_3", "R@10": "recall_10",
        "nDCG@5": "ndcg_cut_5", "nDCG@10": "ndcg_cut_10", "AP": "map", "RR": "recip_rank"}


@pytest.mark.parametrize(("grades", "expected"), [
    ([None], None),                 # nothing judged
    ([0, 0], 0),                    # judged not relevant
    ([0, None], 0),                 # judged, none relevant (as qrels of judged passages)
    ([None, 1], 1),                 # any relevant passage makes the document relevant
    ([0, 2, 1, None], 2),           # with its best grade
])
def test_a_documents_label_from_its_passages(grades: list[int | None],
                                             expected: int | None) -> None:
    assert document_grade(grades) == expected


def test_a_document_ranks_at_its_best_passage_and_is_judged_from_all_of_them() -> None:
    query = QueryInput(["a#5-9", "b", "a#0-4", "c#1-2", "a"],
                       {"a#5-9": 0, "b": None, "a#0-4": 1, "c#1-2": 0, "a": None,
                        "c#7-8": None, "d": 0},
                       max_grade=2)
    parents = {"a#5-9": "a", "a#0-4": "a", "c#1-2": "c", "c#7-8": "c"}
    rolled = roll_up_query(query, parents)
    assert list(rolled.ranking) == ["a", "b", "c"]
    assert dict(rolled.labels) == {"a": 1, "b": None, "c": 0, "d": 0}
    assert roll_up({"q": query}, {}) == {"q": query}  # no passage: nothing changes


@st.composite
def passage_cases(draw: st.DrawFn) -> tuple[dict[str, QueryInput], dict[str, str]]:
    """Cases whose rankings mix documents and their passages, labels from 0 to 2 or
    unjudged, and a universe a little larger than the ranking (other runs' passages)."""
    parents: dict[str, str] = {}
    queries: dict[str, QueryInput] = {}
    for case in range(draw(st.integers(1, 6))):
        items: list[str] = []
        for d in range(draw(st.integers(1, 6))):
            doc = f"d{d}"
            if draw(st.booleans()):
                items.append(doc)
            for p in range(draw(st.integers(0, 3))):
                key = f"{doc}#{p * 10}-{p * 10 + 9}"
                parents[key] = doc
                items.append(key)
        if not items:
            items = ["d0"]
        universe = draw(st.permutations(items))
        ranked = universe[:draw(st.integers(1, len(universe)))]
        grade = st.one_of(st.none(), st.integers(0, 2))
        labels = {key: draw(grade) for key in universe}
        queries[f"q{case}"] = QueryInput(list(ranked), labels, max_grade=2)
    return queries, parents


def _maxp(queries: dict[str, QueryInput], parents: dict[str, str]
          ) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """The peers' qrels and run (module docstring)."""
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for case, query in queries.items():
        for key, grade in query.labels.items():
            doc = parents.get(key, key)
            if grade is not None:
                qrels.setdefault(case, {})[doc] = max(grade, qrels.get(case, {}).get(doc, 0))
        for rank, key in enumerate(query.ranking):
            doc = parents.get(key, key)
            score = float(len(query.ranking) - rank)
            run.setdefault(case, {})[doc] = max(score, run.get(case, {}).get(doc, 0.0))
    return qrels, run


@settings(max_examples=150, deadline=None)
@given(passage_cases())
def test_rolled_up_measures_equal_trec_eval_on_maxp_run_and_qrels(
        drawn: tuple[dict[str, QueryInput], dict[str, str]]) -> None:
    queries, parents = drawn
    report = evaluate(roll_up(queries, parents), MEASURES, Policy.TREC)
    qrels, run = _maxp(queries, parents)
    judged = {case: docs for case, docs in qrels.items() if docs}
    if not judged:
        return
    peer = pytrec_eval.RelevanceEvaluator(
        judged, {"P.1,3,5", "recall.3,10", "ndcg_cut.5,10", "map", "recip_rank"})
    values = peer.evaluate({case: run[case] for case in judged if case in run})
    for case, per in values.items():
        for ours, theirs in PEER.items():
            value = report.per_query[case][ours]
            if value is None:  # no relevant document: trec_eval prints 0, we say undefined
                assert not any(g >= 1 for g in judged[case].values())
                continue
            assert value == pytest.approx(per[theirs], abs=1e-9), (case, ours)
    # the means, over the same topics, against ir_measures
    measures = [ir_measures.parse_measure(m) for m in ("P@5", "nDCG@10", "AP", "RR")]
    aggregate = ir_measures.calc_aggregate(measures, judged,
                                           {c: run[c] for c in judged if c in run})
    for measure in measures:
        ours = {"P@5": "P@5", "nDCG@10": "nDCG@10", "AP": "AP", "RR": "RR"}[str(measure)]
        assert report.mean[ours] == pytest.approx(aggregate[measure], abs=1e-9), ours
