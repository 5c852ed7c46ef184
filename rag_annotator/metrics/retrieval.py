"""Retrieval measures of one run over a gold set, under one unjudged-document policy.

This is the preview of what the scoring library will compute (DESIGN section 5), so experts
see what their judging changes.  :func:`evaluate_query` reads one case; :func:`evaluate` reads
them all and averages.  Everything here is pure: values in, values out, no Qt, no SQL, so the
CLI, the UI (on a worker thread) and the tests call the same code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from rag_annotator.metrics.measures import Measure, MeasureKind, parse_measures
from rag_annotator.metrics.strict import strict_reading
from rag_annotator.metrics.trec_measures import Universe, judged_rate, trec_value
from rag_annotator.metrics.values import Policy, QueryInput, Reading

#: What a report shows when nobody chose: the usual TREC-style summary plus judging depth.
DEFAULT_MEASURES = ("P@5", "P@10", "R@10", "RR", "nDCG@10", "AP", "Judged@10")

#: A list of measure names (or values), or one string such as ``"P@5,nDCG@10"``.
MeasureList: TypeAlias = "str | Iterable[str | Measure]"


def evaluate_query(query: QueryInput, measures: MeasureList,
                   policy: Policy | str = Policy.TREC) -> dict[str, Reading]:
    """The reading of every measure on one case, keyed by canonical measure name."""
    chosen = parse_measures(measures)
    return _evaluate_query(query, chosen, Policy.parse(policy))


def _evaluate_query(query: QueryInput, measures: tuple[Measure, ...],
                    policy: Policy) -> dict[str, Reading]:
    labels = query.labels
    universe = Universe(labels, query.max_grade)
    # grade per rank: None = unjudged in the universe, 0 = outside the universe.
    grades = [labels.get(doc, 0) for doc in query.ranking]
    if policy is Policy.JUDGED_ONLY:
        # The condensed list: only documents with an effective label keep a rank.
        gains_int = [g for doc in query.ranking if (g := labels.get(doc)) is not None]
    else:
        gains_int = [g if g is not None else 0 for g in grades]
    out: dict[str, Reading] = {}
    for measure in measures:
        if measure.kind is MeasureKind.JUDGED:
            out[measure.name] = Reading.exact(judged_rate(measure, query.ranking, labels))
            continue
        value = trec_value(measure, gains_int, universe)
        if policy is Policy.STRICT:
            out[measure.name] = strict_reading(measure, grades, universe, value)
        else:
            out[measure.name] = Reading.exact(value)
    return out


@dataclass(frozen=True)
class Report:
    """Every case's readings and their means, shaped for the CLI's ``metrics --json``.

    ``mean[m]`` averages the cases where ``m`` is published (defined, and under ``strict``
    determined); ``mean_count[m]`` says over how many of the ``cases`` that is, because a mean
    over 40 of 50 cases is not the same claim as a mean over 50.  This differs on purpose from
    trec_eval, which averages a case with no relevant document as 0.  ``mean_low`` and
    ``mean_high`` bound the mean over *all* cases under every assignment of the unjudged
    documents; they exist only when every case is defined under every assignment (cases are
    independent, so the bounds of the mean are the means of the bounds).
    """

    policy: Policy
    measures: tuple[str, ...]
    readings: Mapping[str, Mapping[str, Reading]]
    per_query: Mapping[str, Mapping[str, float | None]]
    mean: Mapping[str, float | None]
    mean_count: Mapping[str, int]
    mean_low: Mapping[str, float | None]
    mean_high: Mapping[str, float | None]
    cases: int

    def to_json(self, run: str) -> dict[str, object]:
        """The ``metrics --json`` object: ``run``, ``unjudged``, ``measures``, ``per_query``,
        ``mean``, plus ``mean_count``/``cases`` and, under ``strict``, the ``bounds`` of every
        unpublished value (``low``/``high``, null when never defined, and
        ``undefined_for_some``)."""
        out: dict[str, object] = {
            "run": run,
            "unjudged": self.policy.value,
            "measures": list(self.measures),
            "per_query": {q: dict(values) for q, values in self.per_query.items()},
            "mean": dict(self.mean),
            "mean_count": dict(self.mean_count),
            "cases": self.cases,
        }
        if self.policy is Policy.STRICT:
            out["bounds"] = {
                q: {m: {"low": r.low, "high": r.high, "undefined_for_some": r.undefined_for_some}
                    for m, r in readings.items() if r.value is None}
                for q, readings in self.readings.items()
            }
            out["mean_bounds"] = {m: {"low": self.mean_low[m], "high": self.mean_high[m]}
                                  for m in self.measures}
        return out


def evaluate(queries: Mapping[str, QueryInput], measures: MeasureList = DEFAULT_MEASURES,
             policy: Policy | str = Policy.TREC) -> Report:
    """Read every case of one run and average each measure over the cases that publish it.

    ``queries`` maps a case id to its input; cases are reported in the mapping's order.
    Raises ``ValueError`` for an unknown measure or policy.
    """
    chosen = parse_measures(measures)
    chosen_policy = Policy.parse(policy)
    names = tuple(m.name for m in chosen)
    readings = {qid: _evaluate_query(query, chosen, chosen_policy)
                for qid, query in queries.items()}
    per_query = {qid: {name: r.value for name, r in values.items()}
                 for qid, values in readings.items()}
    mean: dict[str, float | None] = {}
    mean_count: dict[str, int] = {}
    mean_low: dict[str, float | None] = {}
    mean_high: dict[str, float | None] = {}
    cases = len(readings)
    for name in names:
        column = [values[name] for values in readings.values()]
        published = [r.value for r in column if r.value is not None]
        mean_count[name] = len(published)
        mean[name] = sum(published) / len(published) if published else None
        always_defined = cases > 0 and not any(r.undefined_for_some for r in column)
        lows = [r.low for r in column if r.low is not None]
        highs = [r.high for r in column if r.high is not None]
        mean_low[name] = sum(lows) / cases if always_defined else None
        mean_high[name] = sum(highs) / cases if always_defined else None
    return Report(chosen_policy, names, readings, per_query, mean, mean_count, mean_low,
                  mean_high, cases)
