"""reports.run_figures: one RunFigures per (run, policy, measures, options), the parts a caller
asks for, the judging coverage of the rankings; pure pieces tested without a file."""

from __future__ import annotations

import pytest

from rag_annotator.metrics import Policy, QueryInput, evaluate
from rag_annotator.reports import inputs
from rag_annotator.reports.render import metrics_json
from rag_annotator.reports.run_figures import (
    AGENTS,
    COVERAGE,
    DEFAULT_PARTS,
    FigureOptions,
    build,
    coverage_of,
)
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich


def test_coverage_counts_the_ranked_pairs_with_a_label() -> None:
    queries = {"Q1": QueryInput(["a", "b", "c"], {"a": 1, "b": None, "c": 0}),
               "Q2": QueryInput(["d", "x"], {"d": 2}, max_grade=2),  # x: outside the pool
               "Q3": QueryInput([], {"e": 1})}
    coverage = coverage_of(queries)
    assert (coverage.ranked, coverage.judged, coverage.unjudged, coverage.relevant) \
        == (5, 3, 2, 2)
    assert coverage.cases_with_unjudged == ("Q1", "Q2")
    assert coverage.share == pytest.approx(3 / 5)
    assert coverage_of({}).share is None


def test_build_gives_what_each_part_would_alone(store: GoldSetStore) -> None:
    build_rich(store)
    figures = build(store, "bm25", FigureOptions(policy=Policy.STRICT, compare="dense",
                                                 family="ordinary", next_count=3))
    assert figures.report.to_json("bm25") \
        == evaluate(inputs.load_queries(store, "bm25"), figures.options.measures,
                    Policy.STRICT).to_json("bm25")
    assert figures.answers.to_json() == inputs.summarize_answers(store, "bm25").to_json()
    assert figures.diagnosis.to_json() == inputs.diagnose_run(store, "bm25").to_json()
    assert figures.comparison is not None
    assert figures.comparison.to_json() == inputs.compare(
        store, "bm25", "dense", figures.options.measures, Policy.STRICT, "ordinary").to_json()
    assert set(figures.families) == set(figures.report.per_query)
    data = metrics_json(figures)
    assert {"answers", "diagnosis", "agents", "compare", "next"} <= set(data)
    assert len(data["next"]) <= 3


def test_parts_left_out_are_empty_not_missing(store: GoldSetStore) -> None:
    build_rich(store)
    figures = build(store, "bm25", FigureOptions(parts=frozenset({AGENTS})))
    assert figures.report.per_query == {} and figures.answers.items == ()
    assert figures.diagnosis.per_case == {} and not figures.latency.has_data
    assert figures.coverage.ranked == 0 and figures.comparison is None
    assert build(store, "bm25").coverage.ranked == 0  # asked for by name only
    asked = build(store, "bm25", FigureOptions(parts=DEFAULT_PARTS | {COVERAGE})).coverage
    assert asked == coverage_of(inputs.load_queries(store, "bm25")) and asked.ranked > 0


def test_pairs_to_judge_next_follow_the_options(store: GoldSetStore) -> None:
    build_rich(store)
    dashboard = FigureOptions(policy=Policy.TREC, next_count=5, next_strict_only=True)
    assert build(store, "bm25", dashboard).next_pairs == ()
    too_many = FigureOptions(policy=Policy.STRICT, next_count=5, next_cases_limit=0)
    assert build(store, "bm25", too_many).next_pairs == ()
    strict = build(store, "bm25", FigureOptions(policy=Policy.STRICT, next_count=5))
    assert strict.next_pairs == tuple(inputs.suggestions(store, ["bm25"])[:5])
