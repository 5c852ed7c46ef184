"""A run's retrieval report cut by family: which cases each mean counts, and its values.

:func:`retrieval_groups` is THE counting rule of a retrieval mean over a group of cases
(a family, or every case of the run): the report's topics only (a case of the run with no
judgment at all is in no mean), a value not defined counting 0 under ``trec`` (as
trec_eval), only the published values under ``judged-only`` and ``strict``, and for the
whole run the judged topics the run misses scoring 0 (``--all-judged``).  The means, their
intervals (``metrics.run_intervals``), the figures every surface renders
(``reports.figure``) and the histogram (:func:`distribution`) all read these groups, so a
mean and the number of cases said beside it cannot disagree.

Pure over a :class:`~rag_annotator.metrics.retrieval.Report`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from rag_annotator.metrics.retrieval import Report

#: The "every family" key of the dashboard's tables (no family code can start with NUL).
ALL = "\x00all"


@dataclass(frozen=True, slots=True)
class Counted:
    """One measure over one group: the cases its mean counts with the value each counts
    for, and the group's other cases (not judged, or not published under the policy)."""

    cases: tuple[str, ...]
    values: tuple[float, ...]
    left_out: tuple[str, ...]

    @property
    def n(self) -> int:
        return len(self.cases)

    @property
    def total(self) -> float:
        return float(sum(self.values))

    @property
    def mean(self) -> float | None:
        return self.total / len(self.values) if self.values else None


#: family code (None: the whole run) → measure → what its mean counts.
Groups = dict["str | None", dict[str, Counted]]


def retrieval_groups(report: Report, families: Mapping[str, str]) -> Groups:
    """Every family of the run's cases (``families``: case → family; a case with none is in
    the family ``""``) and the whole run (None) → measure → :class:`Counted`."""
    members: dict[str | None, list[str]] = {None: list(report.per_query)}
    for case in report.per_query:
        members.setdefault(families.get(case, ""), []).append(case)
    topics = set(report.topics)
    zero = report.zero_when_undefined
    groups: Groups = {}
    for family, cases in members.items():
        mine: dict[str, Counted] = {}
        for measure in report.measures:
            counted: list[str] = []
            values: list[float] = []
            left: list[str] = []
            for case in cases:
                value = report.per_query[case][measure]
                if case in topics and value is None and zero:
                    value = 0.0
                if value is None or case not in topics:
                    left.append(case)
                else:
                    counted.append(case)
                    values.append(value)
            if family is None:  # --all-judged: the judged topics the run misses score 0
                counted += report.missing_topics
                values += [0.0] * len(report.missing_topics)
            mine[measure] = Counted(tuple(counted), tuple(values), tuple(left))
        groups[family] = mine
    return groups


def regroup(groups: Groups, report: Report, families: Mapping[str, str],
            changed: Collection[str]) -> Groups:
    """``groups`` (of an earlier report) once the ``changed`` cases hold their values in
    ``report``: in the groups of those cases and the whole run, each changed case is taken
    out of where it was and put where it now belongs, in the report's order; every other
    group is kept.  The same groups as :func:`retrieval_groups` (after a judgment, on 10,000
    cases, without going through them all)."""
    if report.missing_topics:  # --all-judged: its zeros follow the whole file
        return retrieval_groups(report, families)
    position = {q: i for i, q in enumerate(report.per_query)}
    topics = set(report.topics)
    zero = report.zero_when_undefined
    out = dict(groups)
    for family in {None, *(families.get(c, "") for c in changed)}:
        if family not in groups:
            return retrieval_groups(report, families)  # a family new to the run
        members = [c for c in changed if c in position
                   and (family is None or families.get(c, "") == family)]
        mine: dict[str, Counted] = {}
        for measure, counted in groups[family].items():
            cases, values = list(counted.cases), list(counted.values)
            left = list(counted.left_out)
            for case in members:
                value = report.per_query[case][measure]
                if case in topics and value is None and zero:
                    value = 0.0
                if case in left:
                    left.remove(case)
                else:
                    i = cases.index(case)
                    del cases[i], values[i]
                if value is not None and case in topics:
                    i = bisect_left(cases, position[case], key=position.__getitem__)
                    cases.insert(i, case)
                    values.insert(i, value)
                else:
                    left.insert(bisect_left(left, position[case], key=position.__getitem__),
                                case)
            mine[measure] = Counted(tuple(cases), tuple(values), tuple(left))
        out[family] = mine
    return out


#: Why a case of the run is not in a mean (:func:`distribution`'s last rows).
NOT_JUDGED, UNDETERMINED, NOT_DEFINED = "not_judged", "undetermined", "not_defined"


def distribution(report: Report, measure: str, counted: Counted, bins: int = 10
                 ) -> list[tuple[str, list[str]]]:
    """The cases a mean counts by value bin ``[i/bins, (i+1)/bins)`` (1.0 in the last; the
    bin's name is its index), so the histogram holds exactly the cases of the mean beside
    it; then the group's cases left out of the mean, by reason: ``not_judged`` (no judgment
    at all), ``undetermined`` (``strict``), ``not_defined`` (no relevant document, under a
    policy that does not count it 0)."""
    out: list[list[str]] = [[] for _ in range(bins)]
    for case, value in zip(counted.cases, counted.values):
        out[min(bins - 1, max(0, int(value * bins)))].append(case)
    topics = set(report.topics)
    reasons: dict[str, list[str]] = {NOT_JUDGED: [], UNDETERMINED: [], NOT_DEFINED: []}
    for case in counted.left_out:
        if case not in topics:
            reasons[NOT_JUDGED].append(case)
        elif report.readings[case][measure].status == UNDETERMINED:
            reasons[UNDETERMINED].append(case)
        else:
            reasons[NOT_DEFINED].append(case)
    return [*((str(i), cases) for i, cases in enumerate(out)), *reasons.items()]
