"""Two runs side by side, per case and measure (issue 6, item 7).

For each measure, a case is a *win* for run A when A's published value beats B's, a *loss*
when it is below, a *tie* when they are equal (within 1e-9); a case where either value is not
published (not defined, or undetermined under ``strict``) is *not comparable*, never a tie;
a case only one run covers is listed apart.  Means are over the comparable cases only, so the
two means and their difference are about the same cases (a paired reading).  Everything can be
filtered by family, and every count keeps the cases behind it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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
        n = len(wins) + len(losses) + len(ties)
        by_measure[m] = MeasureComparison(m, tuple(wins), tuple(losses), tuple(ties),
                                          tuple(other), sum_a / n if n else None,
                                          sum_b / n if n else None)
    return Comparison(run_a, run_b, report_a.policy, family, report_a.measures, per_case,
                      by_measure, tuple(q for q in cases_a if q not in cases_b),
                      tuple(sorted(cases_b.difference(cases_a))))

