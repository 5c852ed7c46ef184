"""Agreement between assessors on relevance labels: percent agreement, Cohen's kappa, alpha.

Pure functions over plain values (DESIGN section 2): the store hands over one
:class:`JudgmentRow` per judgment that has a grade, these functions hand back numbers or
``None``.  Labels are binary, as the effective label is (DESIGN section 4): relevant
(grade >= 1) or not relevant (grade 0); two assessors who give grades 1 and 2 agree.

A unit is a (case, document) pair.  Each coefficient is computed on the units that can show
agreement at all: those judged by both assessors (kappa) or by at least two (percent, alpha).
When a coefficient is not defined — no such unit, or every label in one category so that
chance agreement is total — the result is ``None``: a made-up 0 or 1 would read as a finding.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple


class JudgmentRow(NamedTuple):
    """One assessor's grade on one pair, with the case's family (for per-family figures)."""

    case: str
    document: str
    assessor: str
    grade: int
    family: str


Unit = dict[str, bool]  # assessor → relevant?


@dataclass(frozen=True)
class Agreement:
    """Agreement figures over a set of judgments.

    ``assessors``: how many assessors gave at least one grade; ``units``: pairs judged by at
    least two of them; ``percent`` in 0–100; ``kappa`` only when exactly two assessors.
    """

    assessors: int
    units: int
    percent: float | None
    kappa: float | None
    alpha: float | None

    def to_json(self) -> dict[str, int | float | None]:
        """The object ``info --json`` prints under ``agreement``."""
        return {"assessors": self.assessors, "units": self.units, "percent": self.percent,
                "kappa": self.kappa, "alpha": self.alpha}


def units_of(rows: Iterable[JudgmentRow]) -> dict[tuple[str, str], Unit]:
    """Group grades by pair as binary labels (relevant = grade >= 1)."""
    units: dict[tuple[str, str], Unit] = defaultdict(dict)
    for row in rows:
        units[(row.case, row.document)][row.assessor] = row.grade >= 1
    return dict(units)


def percent_agreement(units: Iterable[Unit]) -> float | None:
    """Mean over pairs with >= 2 labels of the share of assessor pairs that agree, in %.

    With two assessors this is the plain share of pairs on which they agree.
    """
    total, n = 0.0, 0
    for unit in units:
        m = len(unit)
        if m < 2:
            continue
        relevant = sum(unit.values())
        agreeing = relevant * (relevant - 1) + (m - relevant) * (m - relevant - 1)
        total += agreeing / (m * (m - 1))
        n += 1
    return None if n == 0 else 100.0 * total / n


def cohen_kappa(first: Iterable[bool], second: Iterable[bool]) -> float | None:
    """Cohen's kappa of two paired label sequences (nominal, unweighted).

    None when there is no pair or when chance agreement is 1 (both always say the same
    single label), where kappa is 0/0.
    """
    a, b = list(first), list(second)
    if len(a) != len(b):
        raise ValueError("cohen_kappa needs two sequences of the same length")
    n = len(a)
    if n == 0:
        return None
    observed = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(a) / n, sum(b) / n
    expected = pa * pb + (1 - pa) * (1 - pb)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def kappa_of_units(units: Iterable[Unit], first: str, second: str) -> float | None:
    """Cohen's kappa of two assessors on the pairs both of them judged."""
    pairs = [(u[first], u[second]) for u in units if first in u and second in u]
    return cohen_kappa([p[0] for p in pairs], [p[1] for p in pairs])


def krippendorff_alpha(units: Iterable[Unit]) -> float | None:
    """Krippendorff's alpha, nominal, on the pairs with at least two labels (any number of
    assessors, missing labels allowed).

    None when fewer than two pairable values exist or only one category occurs (expected
    disagreement 0).
    """
    n = 0  # pairable values
    n_relevant = 0
    mixed = 0.0  # coincidences of (relevant, not relevant), one direction
    for unit in units:
        m = len(unit)
        if m < 2:
            continue
        r = sum(unit.values())
        n += m
        n_relevant += r
        mixed += r * (m - r) / (m - 1)
    n_not = n - n_relevant
    if n < 2 or n_relevant == 0 or n_not == 0:
        return None
    observed = 2 * mixed / n
    expected = 2 * n_relevant * n_not / (n * (n - 1))
    return 1.0 - observed / expected


def agreement(rows: Iterable[JudgmentRow]) -> Agreement:
    """Every figure over ``rows`` (kappa only when exactly two assessors gave grades)."""
    rows = list(rows)
    assessors = sorted({r.assessor for r in rows})
    units = list(units_of(rows).values())
    kappa = kappa_of_units(units, *assessors) if len(assessors) == 2 else None
    return Agreement(
        assessors=len(assessors),
        units=sum(len(u) >= 2 for u in units),
        percent=percent_agreement(units),
        kappa=kappa,
        alpha=krippendorff_alpha(units),
    )


def agreement_by_family(rows: Iterable[JudgmentRow]) -> dict[str, Agreement]:
    """:func:`agreement` per case family (families with no grade are left out)."""
    groups: dict[str, list[JudgmentRow]] = defaultdict(list)
    for row in rows:
        groups[row.family].append(row)
    return {family: agreement(group) for family, group in sorted(groups.items())}


def pairwise(rows: Iterable[JudgmentRow]) -> list[dict[str, object]]:
    """Cohen's kappa and percent agreement of every two assessors, on the pairs both judged.

    With three assessors or more the overall ``kappa`` is not defined; this says who agrees
    with whom.  Assessor pairs that judged no pair in common are left out.
    """
    units = list(units_of(rows).values())
    names = sorted({a for u in units for a in u})
    out: list[dict[str, object]] = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            shared = [{first: u[first], second: u[second]} for u in units
                      if first in u and second in u]
            if shared:
                out.append({"assessors": [first, second], "units": len(shared),
                            "percent": percent_agreement(shared),
                            "kappa": kappa_of_units(shared, first, second)})
    return out


@dataclass(frozen=True)
class AgreementReport:
    """The agreement of a whole file: overall, per family, and assessor by assessor."""

    overall: Agreement
    by_family: Mapping[str, Agreement]
    pairwise: tuple[dict[str, object], ...] = ()

    def to_json(self) -> dict[str, object]:
        """``info --json``'s ``agreement`` object: overall figures, ``pairwise`` and
        ``by_family``."""
        out: dict[str, object] = dict(self.overall.to_json())
        out["pairwise"] = [dict(p) for p in self.pairwise]
        out["by_family"] = {f: a.to_json() for f, a in self.by_family.items()}
        return out


def agreement_report(rows: Iterable[JudgmentRow]) -> AgreementReport:
    """Every agreement figure over ``rows``."""
    rows = list(rows)
    return AgreementReport(agreement(rows), agreement_by_family(rows), tuple(pairwise(rows)))


def agreement_json(rows: Iterable[JudgmentRow]) -> dict[str, object]:
    """:func:`agreement_report` as ``info --json`` prints it."""
    return agreement_report(rows).to_json()


def labels_by_assessor(units: Mapping[tuple[str, str], Unit],
                       first: str, second: str) -> tuple[list[bool], list[bool]]:
    """The two paired label lists kappa is computed on (for reports and tests)."""
    keys = sorted(k for k, u in units.items() if first in u and second in u)
    return [units[k][first] for k in keys], [units[k][second] for k in keys]
