"""What to judge next: the unjudged pairs whose label settles the most undetermined values.

Under ``strict`` a value is *undetermined* when it depends on documents still unjudged (see
``strict.py``).  Definitions used here, for one case of one run:

* judging the unjudged document d **settles** the value of measure m when, whatever grade d
  receives (0 to ``max_grade``), m's strict reading is no longer undetermined: published, or
  not defined under every remaining assignment.  It is the label of d *alone* that decides
  the value, whatever the other unjudged documents turn out to be, so judging d is sure to
  turn m from "?" into a figure (or into "not defined");
* d **narrows** m by ``w - max_g w_g`` where ``w`` is the width of m's interval (``high -
  low``, plus 1 when the value is undefined under some assignment; 1 when no bound is
  known) and ``w_g`` the width once d has grade g: the interval it is sure to remove.

A suggestion's ``settles`` counts the (run, case, measure) values it settles; the list is
ranked by ``settles`` (most first), then by the total it narrows, then by case and document
key.  Pairs that neither settle nor narrow anything are not suggested.  The strict readings
are exact (bounds, not enumeration), so this is exact too; tests check it against brute
force over every assignment on small cases.

Cost: every undetermined value is re-read once per grade for each unjudged document that can
move it (documents outside a measure's window are read once, as a group), except AP, whose
widths for all the documents of its window come from one O(n log n) pass
(``judge_next_ap.py``): re-reading was O(n²) per case, 86-92 s on a 1,000-deep run.  About 2 ms per
case on the sample, 25 ms on a case ranking 100 documents of which 85 are unjudged with the
default measures; a caller that cannot wait (a key press on a 10,000-case file) passes
``cases=`` to :func:`next_over_runs`, or runs it off the GUI thread.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from rag_annotator.metrics.judge_next_ap import ap_widths
from rag_annotator.metrics.measures import Measure, MeasureKind, parse_measures
from rag_annotator.metrics.retrieval import DEFAULT_MEASURES, MeasureList, evaluate_query
from rag_annotator.metrics.strict import strict_reading
from rag_annotator.metrics.trec_measures import Universe, trec_value
from rag_annotator.metrics.values import Policy, QueryInput, Reading

#: Below this, a narrowing is rounding noise.
_EPSILON = 1e-12


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Judge ``document_key`` for ``case_key``: it settles ``settles`` values for sure.

    ``values`` names them as ``(run, measure)`` pairs; ``narrows`` is the total width of the
    intervals it is sure to remove (see the module docstring).
    """

    case_key: str
    document_key: str
    settles: int
    narrows: float
    values: tuple[tuple[str, str], ...] = ()


def width(reading: Reading) -> float:
    """How open a strict reading still is (0 when determined)."""
    if reading.status != "undetermined":
        return 0.0
    if reading.low is None or reading.high is None:
        return 1.0
    return reading.high - reading.low + (1.0 if reading.undefined_for_some else 0.0)


def _assigned(base: Universe, grade: int) -> Universe:
    """``base`` with one of its unjudged documents given ``grade``."""
    universe = Universe.__new__(Universe)
    universe.labels = base.labels
    universe.max_grade = base.max_grade
    universe.relevant = base.relevant + (1 if grade >= 1 else 0)
    universe.unjudged = base.unjudged - 1
    universe.ideal_gains = (sorted([*base.ideal_gains, grade], reverse=True) if grade >= 1
                            else base.ideal_gains)
    at_least = list(base.judged_at_least)
    for level in range(grade + 1):
        at_least[level] += 1
    universe.judged_at_least = at_least
    return universe


#: Measures whose value ignores the documents outside their window (they do not use R).
_WINDOW_ONLY = frozenset({MeasureKind.PRECISION, MeasureKind.SUCCESS,
                          MeasureKind.RECIPROCAL_RANK})


def _case_effects(query: QueryInput, measures: tuple[Measure, ...]
                  ) -> dict[str, tuple[list[str], float]]:
    """Per unjudged document of the case: (measures it settles, width it narrows).

    Exact, and cheaper than re-reading the whole case for every document: an unjudged
    document outside a measure's window (ranked below k, or not ranked) only changes R and
    the ideal DCG, the same way for all of them, so they are read once per measure; they
    change nothing for P@k, Success@k and RR; nor does a document ranked after the first
    judged relevant one, for RR.
    """
    readings = evaluate_query(query, measures, Policy.STRICT)
    open_measures = [m for m in measures if readings[m.name].status == "undetermined"]
    if not open_measures:
        return {}
    labels = query.labels
    base = Universe(labels, query.max_grade)
    universes = [_assigned(base, g) for g in range(query.max_grade + 1)]
    grades: list[int | None] = [labels.get(doc, 0) for doc in query.ranking]
    rank_of = {doc: i for i, doc in enumerate(query.ranking)}
    unjudged = [d for d, g in labels.items() if g is None]
    out: dict[str, tuple[list[str], float]] = {d: ([], 0.0) for d in unjudged}
    for measure in open_measures:
        before = width(readings[measure.name])
        window = len(grades) if measure.cutoff is None else min(measure.cutoff, len(grades))
        first_relevant = next((i for i, g in enumerate(grades[:window])
                               if g is not None and g >= 1), window)
        outside: tuple[bool, float] | None = None
        fast = (ap_widths(grades[:window], base)
                if measure.kind is MeasureKind.AVERAGE_PRECISION else None)
        for doc in unjudged:
            pos = rank_of.get(doc)
            inside = pos is not None and pos < window
            if not inside and measure.kind in _WINDOW_ONLY:
                continue
            if inside and measure.kind is MeasureKind.RECIPROCAL_RANK \
                    and pos is not None and pos > first_relevant:
                continue
            if not inside and outside is not None:
                settled, narrowed = outside
            elif inside and fast is not None and pos is not None:
                worst = fast[pos]
                settled, narrowed = worst == 0.0, max(0.0, before - worst)
            else:
                worst = 0.0
                for grade, universe in enumerate(universes):
                    changed = grades
                    if inside and pos is not None:
                        changed = list(grades)
                        changed[pos] = grade
                    gains = [g if g is not None else 0 for g in changed]
                    reading = strict_reading(measure, changed, universe,
                                             trec_value(measure, gains, universe))
                    worst = max(worst, width(reading))
                settled, narrowed = worst == 0.0, max(0.0, before - worst)
                if not inside:
                    outside = (settled, narrowed)
            names, total = out[doc]
            if settled:
                names.append(measure.name)
            out[doc] = (names, total + narrowed)
    return out


def _strict_measures(measures: MeasureList) -> tuple[Measure, ...]:
    # Judged@k never depends on the labels still missing: it is always published.
    return tuple(m for m in parse_measures(measures) if m.kind is not MeasureKind.JUDGED)


def _ranked(table: Mapping[tuple[str, str], tuple[list[tuple[str, str]], float]]
            ) -> list[Suggestion]:
    suggestions = [Suggestion(case, doc, len(values), narrowed, tuple(values))
                   for (case, doc), (values, narrowed) in table.items()
                   if values or narrowed > _EPSILON]
    suggestions.sort(key=lambda s: (-s.settles, -s.narrows, s.case_key, s.document_key))
    return suggestions


def _collect(table: dict[tuple[str, str], tuple[list[tuple[str, str]], float]], run: str,
             queries: Mapping[str, QueryInput], measures: tuple[Measure, ...]) -> None:
    for case, query in queries.items():
        for doc, (settled, narrowed) in _case_effects(query, measures).items():
            values, total = table.get((case, doc), ([], 0.0))
            table[(case, doc)] = (values + [(run, m) for m in settled], total + narrowed)


def next_to_judge(queries: Mapping[str, QueryInput],
                  measures: MeasureList = DEFAULT_MEASURES, run: str = "") -> list[Suggestion]:
    """Pure: the unjudged (case, document) pairs of one run's cases, most settling first.

    ``queries`` maps a case key to its input (as ``metrics.evaluate`` takes it); ``run``
    only names the run in each suggestion's ``values``.
    """
    chosen = _strict_measures(measures)
    table: dict[tuple[str, str], tuple[list[tuple[str, str]], float]] = {}
    if chosen:
        _collect(table, run, queries, chosen)
    return _ranked(table)


def next_over_runs(runs: Iterable[tuple[str, Mapping[str, QueryInput]]],
                   measures: MeasureList = DEFAULT_MEASURES,
                   cases: Collection[str] | None = None) -> list[Suggestion]:
    """Pure: the pairs to judge next over several runs ((run, its queries) pairs, read one
    at a time), counted over all of them: a pair settling P@5 for two runs settles two
    values.  ``cases`` restricts the search to these case keys (the Judge section's current
    case, say)."""
    chosen = _strict_measures(measures)
    table: dict[tuple[str, str], tuple[list[tuple[str, str]], float]] = {}
    if not chosen:
        return []
    wanted = None if cases is None else set(cases)
    for run, queries in runs:
        if wanted is not None:
            queries = {k: q for k, q in queries.items() if k in wanted}
        _collect(table, run, queries, chosen)
    return _ranked(table)
