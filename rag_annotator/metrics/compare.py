"""Two runs side by side, per case and measure (issue 6, item 7).

For each measure, a case is a *win* for run A when A's published value beats B's, a *loss*
when it is below, a *tie* when they are equal (within 1e-9); a case where either value is not
published (not defined, or undetermined under ``strict``) is *not comparable*, never a tie;
a case only one run covers is listed apart.  Means are over the comparable cases only, so the
two means and their difference are about the same cases (a paired reading).  Everything can be
filtered by family, and every count keeps the cases behind it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from rag_annotator.metrics.retrieval import Report
from rag_annotator.metrics.values import Policy

#: Two values closer than this are a tie (they come from the same float formulas).
TIE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class MeasureComparison:
    """One measure over the cases both runs cover (after the family filter)."""

    measure: str
    wins: tuple[str, ...]
    losses: tuple[str, ...]
    ties: tuple[str, ...]
    not_comparable: tuple[str, ...]
    mean_a: float | None
    mean_b: float | None
    #: the sums of A's and B's values over the compared cases (what :func:`with_cases`
    #: moves)
    sums: tuple[float, float] = field(default=(0.0, 0.0), compare=False, repr=False)

    @property
    def delta(self) -> float | None:
        """``mean_a - mean_b`` over the comparable cases."""
        if self.mean_a is None or self.mean_b is None:
            return None
        return self.mean_a - self.mean_b

    def cases(self, figure: str) -> tuple[str, ...]:
        """Cases behind ``wins``, ``losses``, ``ties`` or ``not_comparable``."""
        table = {"wins": self.wins, "losses": self.losses, "ties": self.ties,
                 "not_comparable": self.not_comparable,
                 "compared": self.wins + self.losses + self.ties}
        if figure not in table:
            raise ValueError(f"unknown figure {figure!r}; valid: {', '.join(table)}")
        return table[figure]

    def to_json(self) -> dict[str, object]:
        return {"wins": len(self.wins), "losses": len(self.losses), "ties": len(self.ties),
                "not_comparable": len(self.not_comparable), "mean_a": self.mean_a,
                "mean_b": self.mean_b, "delta": self.delta,
                "cases": {"wins": list(self.wins), "losses": list(self.losses),
                          "ties": list(self.ties), "not_comparable": list(self.not_comparable)}}


@dataclass(frozen=True)
class Comparison:
    """Run A against run B under one policy."""

    run_a: str
    run_b: str
    policy: Policy
    family: str | None
    measures: tuple[str, ...]
    per_case: Mapping[str, Mapping[str, tuple[float | None, float | None]]]
    by_measure: Mapping[str, MeasureComparison]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]

    def restrict(self, families: Mapping[str, str], family: str) -> Comparison:
        """The same comparison over the cases of ``family`` only (no recomputation)."""
        keep = {q for q in self.per_case if families.get(q) == family}
        by_measure = {}
        for m, c in self.by_measure.items():
            compared = [q for q in c.cases("compared") if q in keep]
            n = len(compared)
            by_measure[m] = MeasureComparison(
                m, tuple(q for q in c.wins if q in keep),
                tuple(q for q in c.losses if q in keep), tuple(q for q in c.ties if q in keep),
                tuple(q for q in c.not_comparable if q in keep),
                sum(self.per_case[q][m][0] or 0.0 for q in compared) / n if n else None,
                sum(self.per_case[q][m][1] or 0.0 for q in compared) / n if n else None)
        return Comparison(self.run_a, self.run_b, self.policy, family, self.measures,
                          {q: v for q, v in self.per_case.items() if q in keep}, by_measure,
                          tuple(q for q in self.only_a if families.get(q) == family),
                          tuple(q for q in self.only_b if families.get(q) == family))

    def to_json(self) -> dict[str, object]:
        """The ``compare`` block of ``metrics --compare OTHER --json``."""
        return {
            "run": self.run_a, "other": self.run_b, "unjudged": self.policy.value,
            "family": self.family, "measures": list(self.measures),
            "by_measure": {m: c.to_json() for m, c in self.by_measure.items()},
            "per_query": {q: {m: {"run": a, "other": b} for m, (a, b) in values.items()}
                          for q, values in self.per_case.items()},
            "only_run": list(self.only_a), "only_other": list(self.only_b),
        }


def _measure(m: str, wins: list[str], losses: list[str], ties: list[str], other: list[str],
             sum_a: float, sum_b: float) -> MeasureComparison:
    n = len(wins) + len(losses) + len(ties)
    return MeasureComparison(m, tuple(wins), tuple(losses), tuple(ties), tuple(other),
                             sum_a / n if n else None, sum_b / n if n else None,
                             (sum_a, sum_b))


def _bucket(a: float | None, b: float | None) -> int:
    """0 win, 1 loss, 2 tie, 3 not comparable (the order of :func:`with_cases`' lists)."""
    if a is None or b is None:
        return 3
    return 0 if a > b + TIE_TOLERANCE else 1 if a < b - TIE_TOLERANCE else 2


def with_cases(comparison: Comparison, report_a: Report, report_b: Report,
               changed: Iterable[str]) -> Comparison:
    """``comparison`` once the ``changed`` cases hold their values in the two reports:
    each is moved to its new win / loss / tie / not comparable list (in the comparison's
    order) and the two sums follow — the same value :func:`compare_reports` gives, after a
    judgment, without going through every case (a judgment changes no case's coverage)."""
    per_case = dict(comparison.per_case)
    moved = [q for q in changed if q in per_case]
    if not moved:
        return comparison
    position = {q: i for i, q in enumerate(per_case)}
    old = {q: per_case[q] for q in moved}
    for q in moved:
        per_case[q] = {m: (report_a.per_query[q][m], report_b.per_query[q][m])
                       for m in comparison.measures}
    by_measure: dict[str, MeasureComparison] = {}
    for m, c in comparison.by_measure.items():
        lists = [list(c.wins), list(c.losses), list(c.ties), list(c.not_comparable)]
        sum_a, sum_b = c.sums
        for q in moved:
            (a0, b0), (a1, b1) = old[q][m], per_case[q][m]
            lists[_bucket(a0, b0)].remove(q)
            if a0 is not None and b0 is not None:
                sum_a, sum_b = sum_a - a0, sum_b - b0
            target = lists[_bucket(a1, b1)]
            target.insert(bisect_left(target, position[q], key=position.__getitem__), q)
            if a1 is not None and b1 is not None:
                sum_a, sum_b = sum_a + a1, sum_b + b1
        by_measure[m] = _measure(m, lists[0], lists[1], lists[2], lists[3], sum_a, sum_b)
    return replace(comparison, per_case=per_case, by_measure=by_measure)


def compare_reports(run_a: str, report_a: Report, run_b: str, report_b: Report,
                    families: Mapping[str, str] | None = None, family: str | None = None,
                    ) -> Comparison:
    """Pure: compare two reports computed with the same measures and policy.

    ``families`` maps a case to its family; with ``family`` set, only that family's cases
    are kept (a case without a known family is then left out).
    """
    if report_a.measures != report_b.measures or report_a.policy is not report_b.policy:
        raise ValueError("both reports must use the same measures and policy")

    def keep(case: str) -> bool:
        return family is None or (families or {}).get(case) == family

    cases_a = [q for q in report_a.per_query if keep(q)]
    cases_b = {q for q in report_b.per_query if keep(q)}
    both = [q for q in cases_a if q in cases_b]
    per_case = {q: {m: (report_a.per_query[q][m], report_b.per_query[q][m])
                    for m in report_a.measures} for q in both}
    by_measure: dict[str, MeasureComparison] = {}
    for m in report_a.measures:
        wins: list[str] = []
        losses: list[str] = []
        ties: list[str] = []
        other: list[str] = []
        sum_a = sum_b = 0.0
        for q in both:
            a, b = per_case[q][m]
            if a is None or b is None:
                other.append(q)
                continue
            sum_a += a
            sum_b += b
            if a > b + TIE_TOLERANCE:
                wins.append(q)
            elif a < b - TIE_TOLERANCE:
                losses.append(q)
            else:
                ties.append(q)
        by_measure[m] = _measure(m, wins, losses, ties, other, sum_a, sum_b)
    return Comparison(run_a, run_b, report_a.policy, family, report_a.measures, per_case,
                      by_measure, tuple(q for q in cases_a if q not in cases_b),
                      tuple(sorted(cases_b.difference(cases_a))))

