"""A report, its groups and a comparison moved case by case (``with_cases``, ``regroup``) are
the ones computed anew from the changed cases — under every policy, with cases entering and
leaving the means (a first judgment, a value that becomes undetermined)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rag_annotator.metrics.compare import compare_reports
from rag_annotator.metrics.compare import with_cases as compare_with_cases
from rag_annotator.metrics.overview import regroup, retrieval_groups
from rag_annotator.metrics.retrieval import evaluate, evaluate_query, with_cases
from rag_annotator.metrics.values import Policy, QueryInput

MEASURES = ("P@5", "RR", "nDCG@10", "R@10")
DOCS = [f"d{i}" for i in range(8)]
labels = st.dictionaries(st.sampled_from(DOCS), st.one_of(st.none(), st.integers(0, 1)),
                         max_size=6)


def _queries(draw_labels: list[dict[str, int | None]]) -> dict[str, QueryInput]:
    return {f"q{i}": QueryInput(DOCS[i % 3:] + DOCS[:i % 3], lab, 1)
            for i, lab in enumerate(draw_labels)}


@settings(max_examples=40, deadline=None)
@given(before=st.lists(labels, min_size=4, max_size=9), after=st.lists(labels, min_size=1,
                                                                      max_size=3),
       policy=st.sampled_from(list(Policy)))
def test_moved_case_by_case_equals_computed_anew(before: list[dict[str, int | None]],
                                                 after: list[dict[str, int | None]],
                                                 policy: Policy) -> None:
    queries = _queries(before)
    other = {q: QueryInput(list(reversed(x.ranking)), x.labels, 1) for q, x in queries.items()}
    families = {q: ("a" if i % 2 else "b") for i, q in enumerate(queries)}
    report = evaluate(queries, MEASURES, policy)
    report_b = evaluate(other, MEASURES, policy)
    groups = retrieval_groups(report, families)
    comparison = compare_reports("A", report, "B", report_b, families)
    changed = {}
    for i, lab in enumerate(after):
        case = f"q{i}"
        queries[case] = QueryInput(queries[case].ranking, lab, 1)
        other[case] = QueryInput(other[case].ranking, lab, 1)
        changed[case] = lab
    fresh = evaluate(queries, MEASURES, policy)
    fresh_b = evaluate(other, MEASURES, policy)

    def readings(qs: dict[str, QueryInput], case: str) -> tuple[object, bool]:
        return (evaluate_query(qs[case], MEASURES, policy),
                any(g is not None for g in qs[case].labels.values()))

    moved = with_cases(report, {c: readings(queries, c) for c in changed})  # type: ignore[misc]
    moved_b = with_cases(report_b, {c: readings(other, c) for c in changed})  # type: ignore[misc]
    assert moved.per_query == fresh.per_query and moved.topics == fresh.topics
    assert moved.mean_count == fresh.mean_count
    assert moved.unjudged_topics == fresh.unjudged_topics
    for m in MEASURES:
        for mine, theirs in ((moved.mean[m], fresh.mean[m]),
                             (moved.mean_low[m], fresh.mean_low[m]),
                             (moved.mean_high[m], fresh.mean_high[m])):
            assert (mine is None) == (theirs is None), m
            assert mine is None or abs(mine - theirs) < 1e-12, m  # type: ignore[operator]
    assert regroup(groups, moved, families, changed) == retrieval_groups(fresh, families)
    again = compare_with_cases(comparison, moved, moved_b, changed)
    anew = compare_reports("A", fresh, "B", fresh_b, families)
    assert again.per_case == anew.per_case
    for m, c in anew.by_measure.items():
        mine = again.by_measure[m]
        assert (mine.wins, mine.losses, mine.ties, mine.not_comparable) == (
            c.wins, c.losses, c.ties, c.not_comparable), m
        for x, y in ((mine.mean_a, c.mean_a), (mine.mean_b, c.mean_b)):
            assert (x is None) == (y is None) and (x is None or abs(x - y) < 1e-12)  # type: ignore[operator]
