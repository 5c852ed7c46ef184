"""Retrieval measures of one run over a gold set, under one unjudged-document policy.

This is the preview of what the scoring library will compute (DESIGN section 5), so experts
see what their judging changes.  :func:`evaluate_query` reads one case; :func:`evaluate` reads
them all and averages.  Everything here is pure: values in, values out, no Qt, no SQL, so the
CLI, the UI (on a worker thread) and the tests call the same code.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from rag_annotator.metrics.measures import Measure, MeasureKind, parse_measures
from rag_annotator.metrics.strict import strict_reading
from rag_annotator.metrics.trec_measures import Universe, judged_rate, trec_value
from rag_annotator.metrics.values import Policy, QueryInput, Reading

#: What a report shows when nobody chose: the usual TREC-style summary plus judging depth.
DEFAULT_MEASURES = ("P@5", "P@10", "R@10", "RR", "nDCG@10", "AP", "Judged@10")

#: A list of measure names (or values), or one string such as ``"P@5,nDCG@10"``.
MeasureList: TypeAlias = "str | Iterable[str | Measure]"


def evaluate_query(query: QueryInput, measures: MeasureList,
                   policy: Policy | str = Policy.TREC, relevance_level: int = 1
                   ) -> dict[str, Reading]:
    """The reading of every measure on one case, keyed by canonical measure name.

    ``relevance_level`` is trec_eval's ``-l``: for the binary measures (P, R, RR, AP,
    Success) a document is relevant when its grade is at least that; nDCG keeps the grades
    themselves as gains, as trec_eval does.
    """
    chosen = parse_measures(measures)
    return _evaluate_query(query, chosen, Policy.parse(policy), relevance_level)


#: Measures that only ask "relevant or not" (trec_eval's ``-l`` applies to them).
_BINARY = frozenset({MeasureKind.PRECISION, MeasureKind.RECALL, MeasureKind.RECIPROCAL_RANK,
                     MeasureKind.AVERAGE_PRECISION, MeasureKind.SUCCESS})


def at_level(query: QueryInput, relevance_level: int) -> QueryInput:
    """The case seen by the binary measures under ``-l relevance_level``: grade >= level
    becomes 1, any lower grade 0 (unjudged stays unjudged)."""
    if relevance_level <= 1:
        return query
    labels = {d: None if g is None else int(g >= relevance_level)
              for d, g in query.labels.items()}
    return QueryInput(query.ranking, labels, 1)


def _evaluate_query(query: QueryInput, measures: tuple[Measure, ...],
                    policy: Policy, relevance_level: int = 1) -> dict[str, Reading]:
    if relevance_level < 1:
        raise ValueError(f"the relevance level must be >= 1, not {relevance_level}")
    if relevance_level > 1:
        binary = at_level(query, relevance_level)
        found = _evaluate_query(binary, tuple(m for m in measures if m.kind in _BINARY),
                                policy)
        found.update(_evaluate_query(query, tuple(m for m in measures
                                                  if m.kind not in _BINARY), policy))
        return {m.name: found[m.name] for m in measures}
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


#: Which topics a mean runs over (``Report.topic_rule``).
COVERED_JUDGED = "judged topics the run covers"
ALL_JUDGED = "all judged topics"


@dataclass(frozen=True)
class Report:
    """Every case's readings and their means, shaped for the CLI's ``metrics --json``.

    One topic set for every measure (issue 18): the *topics* are the run's cases that have at
    least one judged document (trec_eval averages over the topics of the qrels the run
    covers), plus, with ``all_judged`` (trec_eval ``-c``), the judged cases the run does not
    cover (``missing_topics``), which score 0 on every measure.  The run's cases with no
    judgment at all (``unjudged_topics``) are in ``readings`` but in no mean.

    ``mean[m]`` averages over those topics: under ``trec`` every topic counts, a value that is
    not defined (no relevant document) counting 0 as in trec_eval; under ``judged-only`` and
    ``strict`` only the topics where ``m`` is published count.  ``mean_count[m]`` says over
    how many topics that is.  ``mean_low`` and ``mean_high`` bound the mean over all topics
    under every assignment of the unjudged documents; they exist only when every topic is
    defined under every assignment (topics are independent, so the bounds of the mean are the
    means of the bounds).
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
    topics: tuple[str, ...] = ()
    missing_topics: tuple[str, ...] = ()
    unjudged_topics: tuple[str, ...] = ()
    topic_rule: str = COVERED_JUDGED
    relevance_level: int = 1
    #: What the means are summed from, moved by :func:`with_cases` (per measure: the sum
    #: and count of the values counted, the sums of the bounds, how many may be undefined).
    sums: Mapping[str, tuple[float, int, float, float, int]] = field(
        default_factory=dict, compare=False, repr=False)

    @property
    def zero_when_undefined(self) -> bool:
        """Under ``trec`` a topic whose value is not defined counts 0 in the mean."""
        return self.policy is Policy.TREC

    def topic_note(self) -> str:
        """One line saying over which topics the means run (CLI text and JSON)."""
        note = f"means over {len(self.topics)} {self.topic_rule}"
        if self.missing_topics:
            note += f" ({len(self.missing_topics)} not in the run, scoring 0)"
        if self.unjudged_topics:
            note += (f"; {len(self.unjudged_topics)} cases of the run without any judgment "
                     "left out")
        if self.zero_when_undefined:
            note += "; a value not defined (no relevant document) counts 0, as in trec_eval"
        if self.relevance_level > 1:
            note += f"; relevant means grade >= {self.relevance_level} (nDCG: grades as gains)"
        return note

    def to_json(self, run: str) -> dict[str, object]:
        """The ``metrics --json`` object: ``run``, ``unjudged``, ``measures``, ``per_query``,
        ``mean``, plus ``mean_count``/``cases``, the ``topics`` object (``rule``, ``count``,
        ``missing``, ``unjudged``, ``relevance_level``, ``note``) and, under ``strict``, the
        ``bounds`` of every unpublished value (``low``/``high``, null when never defined, and
        ``undefined_for_some``)."""
        out: dict[str, object] = {
            "run": run,
            "unjudged": self.policy.value,
            "measures": list(self.measures),
            "per_query": {q: dict(values) for q, values in self.per_query.items()},
            "mean": dict(self.mean),
            "mean_count": dict(self.mean_count),
            "cases": self.cases,
            "topics": {"rule": self.topic_rule, "count": len(self.topics),
                       "missing": list(self.missing_topics),
                       "unjudged": list(self.unjudged_topics),
                       "relevance_level": self.relevance_level, "note": self.topic_note()},
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
             policy: Policy | str = Policy.TREC, *, relevance_level: int = 1,
             judged_topics: Collection[str] | None = None) -> Report:
    """Read every case of one run and average each measure over the topics (see
    :class:`Report`).

    ``queries`` maps a case id to its input; cases are reported in the mapping's order.
    ``relevance_level`` is trec_eval's ``-l``; ``judged_topics``, when given, are every
    judged case of the gold set, and the mean runs over all of them (trec_eval ``-c``).
    Raises ``ValueError`` for an unknown measure or policy.
    """
    chosen = parse_measures(measures)
    chosen_policy = Policy.parse(policy)
    readings = {qid: _evaluate_query(query, chosen, chosen_policy, relevance_level)
                for qid, query in queries.items()}
    topics = [q for q, query in queries.items()
              if any(g is not None for g in query.labels.values())]
    return _report(chosen_policy, tuple(m.name for m in chosen), readings, topics,
                   judged_topics, relevance_level)


def evaluate_arrays(keys: Sequence[str], starts: Any, lengths: Any, grades: Any,
                    histogram: Any, measures: MeasureList = DEFAULT_MEASURES, *,
                    relevance_level: int = 1, judged_topics: Collection[str] | None = None
                    ) -> Report | None:
    """:func:`evaluate` under ``trec`` on a whole run's arrays (``metrics.trec_arrays``;
    ``keys``: the case of each row, in report order): the same :class:`Report`, or None
    when the rankings are too uneven for the arrays (then read case by case)."""
    from rag_annotator.metrics.trec_arrays import trec_columns

    if relevance_level < 1:
        raise ValueError(f"the relevance level must be >= 1, not {relevance_level}")
    chosen = parse_measures(measures)
    columns = trec_columns(starts, lengths, grades, histogram, chosen, relevance_level)
    if columns is None:
        return None
    names = tuple(m.name for m in chosen)
    # Readings are frozen: one per distinct value of a column, shared by its cases.
    shared = [list(map({v: Reading.exact(v) for v in set(columns[name])}.__getitem__,
                       columns[name])) for name in names]
    readings = {q: dict(zip(names, row)) for q, row in zip(keys, zip(*shared))} \
        if names else {q: {} for q in keys}
    topics = [q for q, labelled in zip(keys, histogram.any(axis=1).tolist()) if labelled]
    return _report(Policy.TREC, names, readings, topics, judged_topics, relevance_level)


def with_cases(report: Report,
               cases: Mapping[str, tuple[Mapping[str, Reading], bool]]) -> Report:
    """``report`` with the readings of ``cases`` replaced (case → (readings, whether the
    case has a judged document now)): the means, the topics and their counts follow, by
    the same rule as :func:`evaluate` — moved by the changed cases' contributions, not
    summed again (what the Dashboard calls after a judgment, on 10,000 cases).  A case the
    report does not hold is left out (only the cases a run covers have readings)."""
    if report.topic_rule == ALL_JUDGED or not report.sums:
        return _rebuilt(report, cases)
    readings = dict(report.readings)
    per_query = dict(report.per_query)
    topics = set(report.topics)
    sums = {m: list(total) for m, total in report.sums.items()}
    moved = False
    for case, (values, has_label) in cases.items():
        if case not in readings:
            continue
        was = case in topics
        for name in report.measures:
            if was:
                _add(sums[name], report.policy, readings[case][name], -1)
            if has_label:
                _add(sums[name], report.policy, values[name], 1)
        readings[case] = dict(values)
        per_query[case] = {name: r.value for name, r in values.items()}
        if was != has_label:
            moved = True
            (topics.add if has_label else topics.discard)(case)
    order = (tuple(q for q in readings if q in topics) if moved else report.topics)
    return _summed(report.policy, report.measures, readings, per_query, order, (),
                   {m: (total[0], int(total[1]), total[2], total[3], int(total[4]))
                    for m, total in sums.items()},
                   COVERED_JUDGED, report.relevance_level)


def _rebuilt(report: Report, cases: Mapping[str, tuple[Mapping[str, Reading], bool]]
             ) -> Report:
    """:func:`with_cases` by summing every topic again (``--all-judged``)."""
    readings = dict(report.readings)
    judged = set(report.topics) - set(report.missing_topics)
    for case, (values, has_label) in cases.items():
        if case not in readings:
            continue
        readings[case] = dict(values)
        (judged.add if has_label else judged.discard)(case)
    topics = [q for q in readings if q in judged]
    judged_topics = (set(report.topics) | judged if report.topic_rule == ALL_JUDGED
                     else None)
    return _report(report.policy, report.measures, readings, topics, judged_topics,
                   report.relevance_level)


#: Per measure: (sum of the values the mean counts, how many, sum of the lower bounds, sum
#: of the upper bounds, how many may be undefined) over the topics.
Sums = tuple[float, int, float, float, int]


def _add(total: list[float], policy: Policy, r: Reading, sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) one topic's reading from a measure's sums."""
    if policy is Policy.TREC:
        total[0] += sign * (0.0 if r.value is None else r.value)
        total[1] += sign
    elif r.value is not None:
        total[0] += sign * r.value
        total[1] += sign
    if r.low is not None:
        total[2] += sign * r.low
    if r.high is not None:
        total[3] += sign * r.high
    if r.undefined_for_some:
        total[4] += sign


def _report(policy: Policy, names: tuple[str, ...],
            readings: Mapping[str, Mapping[str, Reading]], topics: list[str],
            judged_topics: Collection[str] | None, relevance_level: int) -> Report:
    """The :class:`Report` of these readings (``topics``: the cases with a judged
    document, in order)."""
    per_query = {qid: {name: r.value for name, r in values.items()}
                 for qid, values in readings.items()}
    missing = (sorted(set(judged_topics) - set(readings)) if judged_topics is not None
               else [])
    zero = Reading.exact(0.0)
    sums: dict[str, Sums] = {}
    for name in names:
        total = [0.0, 0, 0.0, 0.0, 0]
        for r in [readings[q][name] for q in topics] + [zero] * len(missing):
            _add(total, policy, r, 1)
        sums[name] = (total[0], int(total[1]), total[2], total[3], int(total[4]))
    return _summed(policy, names, readings, per_query, tuple(topics) + tuple(missing),
                   tuple(missing), sums,
                   ALL_JUDGED if judged_topics is not None else COVERED_JUDGED,
                   relevance_level)


def _summed(policy: Policy, names: tuple[str, ...],
            readings: Mapping[str, Mapping[str, Reading]],
            per_query: Mapping[str, Mapping[str, float | None]], topics: tuple[str, ...],
            missing: tuple[str, ...], sums: Mapping[str, Sums], rule: str,
            relevance_level: int) -> Report:
    """The :class:`Report` whose means come from ``sums`` (see :class:`Report`)."""
    count = len(topics)
    mean: dict[str, float | None] = {}
    mean_count: dict[str, int] = {}
    mean_low: dict[str, float | None] = {}
    mean_high: dict[str, float | None] = {}
    for name in names:
        total, published, lows, highs, undefined = sums[name]
        mean_count[name] = published
        mean[name] = total / published if published else None
        always_defined = count > 0 and not undefined
        mean_low[name] = lows / count if always_defined else None
        mean_high[name] = highs / count if always_defined else None
    judged = set(topics)
    return Report(policy, names, readings, per_query, mean, mean_count, mean_low,
                  mean_high, len(readings), topics, missing,
                  tuple(q for q in readings if q not in judged), rule, relevance_level,
                  sums)
