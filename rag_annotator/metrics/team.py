"""Figures of a judging team: per assessor judged / remaining / median seconds per judgment /
agreement with the others / self-consistency on control pairs, and who stands out.

Pure functions over plain values (DESIGN section 2): whoever reads the files (the master's
store, or ``reports.team`` over a folder of assignment files) hands over one
:class:`TimedJudgment` per graded judgment, how many pairs each assessor was assigned, and the
control pairs each assessor judged twice; these functions hand back one :class:`TeamFigures`.

Agreement reuses :mod:`rag_annotator.metrics.agreement`: Cohen's kappa pairwise on binary
labels (relevant = grade >= 1, as the effective label is) over the pairs both assessors
judged, and Krippendorff's alpha over every pair judged by two or more — nominal on the binary
labels, and, when the scale is graded, ordinal on the grades too (a 1 against a 2 is a smaller
disagreement than a 0 against a 2).  An assessor's ``kappa`` is the mean of their pairwise
kappas with each colleague they share pairs with (the defined ones).

Outliers (:data:`OUTLIER_RULES`), each flagged with its reason in words:

* ``fast``: median seconds per judgment below a third of the team's median (the median of
  the assessors' medians), counted only for an assessor with :data:`MIN_TIMED` timed
  judgments or more, in a team of at least two timed assessors;
* ``low_kappa``: mean kappa more than :data:`KAPPA_GAP` below the team's median kappa, in a
  team where at least three assessors have a kappa (with two, both share the one value);
* ``inconsistent``: self-consistency below :data:`MIN_CONSISTENCY` on at least
  :data:`MIN_CONTROLS` control pairs.

A figure that is not defined (no timed judgment, no shared pair, no control pair) is ``None``,
never a made-up 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from statistics import median
from typing import TYPE_CHECKING, NamedTuple

from rag_annotator.metrics.agreement import JudgmentRow as _AgreementRow
from rag_annotator.metrics.agreement import (
    Unit,
    kappa_of_units,
    krippendorff_alpha,
    units_of,
)

if TYPE_CHECKING:  # team_items builds on this module's PairKappa and alpha
    from rag_annotator.metrics.team_items import ItemAgreement

#: ``fast``: an assessor's median time below this share of the team's median.
FAST_SHARE = 1 / 3
#: ``fast`` is only judged on at least this many timed judgments.
MIN_TIMED = 5
#: ``low_kappa``: this far below the team's median kappa.
KAPPA_GAP = 0.2
#: ``inconsistent``: self-consistency below this share …
MIN_CONSISTENCY = 2 / 3
#: … on at least this many control pairs.
MIN_CONTROLS = 3

#: The outlier codes and the rule of each, in words (reports and the panel's legend).
OUTLIER_RULES: dict[str, str] = {
    "fast": "median time per judgment below a third of the team's median",
    "low_kappa": f"kappa more than {KAPPA_GAP:g} below the team's median kappa",
    "inconsistent": (f"self-consistency below {MIN_CONSISTENCY:.0%} on {MIN_CONTROLS} control "
                     "pairs or more"),
}


class TimedJudgment(NamedTuple):
    """One assessor's grade on one (case, document) pair and the active seconds it took
    (None when the judgment was not timed: imported, or made before timing existed)."""

    case: str
    document: str
    assessor: str
    grade: int
    seconds: float | None = None


@dataclass(frozen=True)
class Outlier:
    """Why an assessor stands out: a code of :data:`OUTLIER_RULES` and the figures behind."""

    code: str
    reason: str


@dataclass(frozen=True)
class AssessorFigures:
    """One assessor's figures (``assigned``/``remaining`` None when no assignment is known)."""

    name: str
    judged: int
    assigned: int | None
    remaining: int | None
    cant_judge: int
    timed: int
    median_seconds: float | None
    kappa: float | None
    kappa_partners: int
    controls: int
    consistent: int
    outliers: tuple[Outlier, ...] = ()

    @property
    def self_consistency(self) -> float | None:
        """Share of control pairs given the same label twice (None without control pairs)."""
        return None if self.controls == 0 else self.consistent / self.controls

    def to_json(self) -> dict[str, object]:
        """The object the native JSON's ``assessors`` section holds per assessor."""
        return {"judged": self.judged, "assigned": self.assigned, "remaining": self.remaining,
                "cant_judge": self.cant_judge, "timed": self.timed,
                "median_seconds": self.median_seconds, "kappa": self.kappa,
                "kappa_partners": self.kappa_partners, "controls": self.controls,
                "self_consistency": self.self_consistency,
                "outliers": [{"code": o.code, "reason": o.reason} for o in self.outliers]}


@dataclass(frozen=True)
class ItemProgress:
    """One assessor's progress on the claims to verify or trajectories to review a campaign
    handed them (``items``): how many were assigned and how many they have done."""

    name: str
    items: str
    assigned: int
    done: int
    #: Mean Cohen's kappa with the colleagues who answered the same items, on the kind's
    #: first question (``metrics.team_items``), and with how many colleagues.
    kappa: float | None = None
    kappa_partners: int = 0

    @property
    def remaining(self) -> int:
        return max(self.assigned - self.done, 0)

    def to_json(self) -> dict[str, object]:
        return {"assessor": self.name, "items": self.items, "assigned": self.assigned,
                "done": self.done, "remaining": self.remaining, "kappa": self.kappa,
                "kappa_partners": self.kappa_partners}


@dataclass(frozen=True)
class PairKappa:
    """Cohen's kappa of two assessors on the pairs both judged (``units`` of them)."""

    first: str
    second: str
    units: int
    kappa: float | None


@dataclass(frozen=True)
class TeamFigures:
    """Every figure of a team (see the module docstring)."""

    assessors: tuple[AssessorFigures, ...] = ()
    pairwise: tuple[PairKappa, ...] = ()
    alpha: float | None = None
    alpha_ordinal: float | None = None
    units: int = 0
    team_median_seconds: float | None = None
    team_median_kappa: float | None = None
    rules: dict[str, str] = field(default_factory=lambda: dict(OUTLIER_RULES))
    #: Progress on claims and trajectories campaigns (relevance figures do not cover them).
    items: tuple[ItemProgress, ...] = ()
    #: Agreement on those items, per kind and question (``metrics.team_items``).
    items_agreement: tuple[ItemAgreement, ...] = ()

    def by_name(self) -> dict[str, AssessorFigures]:
        return {a.name: a for a in self.assessors}

    def to_json(self) -> dict[str, object]:
        """The native JSON's ``assessors`` section: per assessor, then the team's figures."""
        return {
            "per_assessor": {a.name: a.to_json() for a in self.assessors},
            "pairwise": [{"assessors": [p.first, p.second], "units": p.units,
                          "kappa": p.kappa} for p in self.pairwise],
            "alpha": self.alpha, "alpha_ordinal": self.alpha_ordinal, "units": self.units,
            "team_median_seconds": self.team_median_seconds,
            "team_median_kappa": self.team_median_kappa, "outlier_rules": dict(self.rules),
            **({"items": [p.to_json() for p in self.items]} if self.items else {}),
            **({"items_agreement": [a.to_json() for a in self.items_agreement]}
               if self.items_agreement else {})}


# -- Krippendorff's alpha over grades (nominal or ordinal) ----------------------------------
GradeUnit = dict[str, int]  # assessor → grade


def _coincidences(units: Iterable[GradeUnit]) -> tuple[dict[tuple[int, int], float], int]:
    """Krippendorff's coincidence matrix o[c, k] over units with >= 2 values, and n."""
    o: dict[tuple[int, int], float] = defaultdict(float)
    n = 0
    for unit in units:
        values = list(unit.values())
        m = len(values)
        if m < 2:
            continue
        n += m
        for i, c in enumerate(values):
            for j, k in enumerate(values):
                if i != j:
                    o[(c, k)] += 1.0 / (m - 1)
    return o, n


def alpha_of_grades(units: Iterable[GradeUnit], level: str = "ordinal") -> float | None:
    """Krippendorff's alpha on grades, ``nominal`` or ``ordinal`` (the value domain is the
    grades that occur, as the ``krippendorff`` package takes it).

    None when fewer than two pairable values exist or only one grade occurs.
    """
    o, n = _coincidences(units)
    totals: dict[int, float] = defaultdict(float)
    for (c, _k), count in o.items():
        totals[c] += count
    values = sorted(totals)
    if n < 2 or len(values) < 2:
        return None
    delta = _ordinal_delta(values, totals) if level == "ordinal" else _nominal_delta
    observed = sum(count * delta(c, k) for (c, k), count in o.items())
    expected = sum(totals[c] * totals[k] * delta(c, k) for c in values for k in values)
    if expected == 0:
        return None
    return 1.0 - (n - 1) * observed / expected


def _nominal_delta(c: int, k: int) -> float:
    return 0.0 if c == k else 1.0


def _ordinal_delta(values: Sequence[int], totals: Mapping[int, float]
                   ) -> Callable[[int, int], float]:
    """Krippendorff's ordinal metric: (sum of the marginals from c to k, less half of the
    two ends) squared."""
    index = {v: i for i, v in enumerate(values)}
    cumulative = [0.0]
    for v in values:
        cumulative.append(cumulative[-1] + totals[v])

    def delta(c: int, k: int) -> float:
        lo, hi = sorted((index[c], index[k]))
        span = cumulative[hi + 1] - cumulative[lo] - (totals[c] + totals[k]) / 2
        return span * span

    return delta


# -- the team's figures ------------------------------------------------------------------------
def team_figures(judgments: Iterable[TimedJudgment], *,
                 assigned: Mapping[str, int] | None = None,
                 controls: Mapping[str, Sequence[tuple[int, int]]] | None = None,
                 cant_judge: Mapping[str, int] | None = None,
                 remaining: Mapping[str, int] | None = None,
                 seconds: Mapping[str, Sequence[float]] | None = None,
                 graded: bool = False) -> TeamFigures:
    """Every figure of the team (module docstring).

    ``assigned``: pairs each assessor was handed (for ``remaining``: assigned less judged
    less can't-judge, never below 0), unless ``remaining`` gives it (a master file knows it
    per campaign); ``controls``: each assessor's control pairs as (first grade, second
    grade); ``cant_judge``: pairs each marked "can't judge"; ``seconds``: each assessor's
    timed judgments (control repeats included) when the judgments do not carry them;
    ``graded``: add the ordinal alpha on grades (the binary alpha is always there).
    """
    rows = list(judgments)
    assigned, controls, cant_judge = assigned or {}, controls or {}, cant_judge or {}
    left = remaining or {}
    names = sorted({r.assessor for r in rows} | set(assigned) | set(controls)
                   | set(cant_judge) | set(left) | set(seconds or {}))
    units = list(units_of(_AgreementRow(r.case, r.document, r.assessor, r.grade, "")
                          for r in rows).values())
    pairs = _pairwise(units, names)
    judged: dict[str, set[tuple[str, str]]] = defaultdict(set)
    timed: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        judged[r.assessor].add((r.case, r.document))
        if seconds is None and r.seconds is not None and r.seconds >= 0:
            timed[r.assessor].append(float(r.seconds))
    for name, values in (seconds or {}).items():
        timed[name].extend(float(s) for s in values if s is not None and s >= 0)
    medians = {n: median(timed[n]) if timed[n] else None for n in names}
    kappas = {n: _mean_kappa(n, pairs) for n in names}
    base = []
    for name in names:
        done, blocked = len(judged[name]), int(cant_judge.get(name, 0))
        given = assigned.get(name)
        checks = list(controls.get(name, ()))
        kappa, partners = kappas[name]
        to_go = (left[name] if name in left
                 else None if given is None else max(given - done - blocked, 0))
        base.append(AssessorFigures(
            name=name, judged=done, assigned=given, cant_judge=blocked, remaining=to_go,
            timed=len(timed[name]), median_seconds=medians[name], kappa=kappa,
            kappa_partners=partners, controls=len(checks),
            consistent=sum(_same_label(a, b, graded) for a, b in checks)))
    team_seconds = _median_or_none([a.median_seconds for a in base
                                    if a.median_seconds is not None and a.timed >= MIN_TIMED])
    team_kappa = _median_or_none([a.kappa for a in base if a.kappa is not None])
    kappa_count = sum(a.kappa is not None for a in base)
    timed_count = sum(a.median_seconds is not None and a.timed >= MIN_TIMED for a in base)
    flagged = tuple(
        _with_outliers(a, team_seconds if timed_count >= 2 else None,
                       team_kappa if kappa_count >= 3 else None)
        for a in base)
    grade_units = _grade_units(rows)
    return TeamFigures(
        assessors=flagged, pairwise=tuple(pairs), alpha=krippendorff_alpha(units),
        alpha_ordinal=alpha_of_grades(grade_units, "ordinal") if graded else None,
        units=sum(len(u) >= 2 for u in units), team_median_seconds=team_seconds,
        team_median_kappa=team_kappa)


def _pairwise(units: Sequence[Unit], names: Sequence[str]) -> list[PairKappa]:
    """Kappa of every two assessors who share at least one pair."""
    out: list[PairKappa] = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            shared = sum(first in u and second in u for u in units)
            if shared:
                out.append(PairKappa(first, second, shared,
                                     kappa_of_units(units, first, second)))
    return out


def _mean_kappa(name: str, pairs: Sequence[PairKappa]) -> tuple[float | None, int]:
    """Mean of ``name``'s defined pairwise kappas, and with how many colleagues."""
    values = [p.kappa for p in pairs if name in (p.first, p.second) and p.kappa is not None]
    return (sum(values) / len(values) if values else None), len(values)


def _same_label(first: int, second: int, graded: bool) -> bool:
    """Whether two labels of a control pair agree: the same grade on a graded scale, the same
    side of relevant / not relevant on a binary one."""
    return first == second if graded else (first >= 1) == (second >= 1)


def _median_or_none(values: Sequence[float]) -> float | None:
    return median(values) if values else None


def _with_outliers(figures: AssessorFigures, team_seconds: float | None,
                   team_kappa: float | None) -> AssessorFigures:
    """``figures`` with the outlier flags the rules give (module docstring)."""
    found: list[Outlier] = []
    own = figures.median_seconds
    if (team_seconds is not None and own is not None and figures.timed >= MIN_TIMED
            and own < team_seconds * FAST_SHARE):
        found.append(Outlier("fast", f"median {own:.1f} s per judgment, under a third of the "
                                     f"team's median {team_seconds:.1f} s"))
    if (team_kappa is not None and figures.kappa is not None
            and figures.kappa < team_kappa - KAPPA_GAP):
        found.append(Outlier("low_kappa", f"kappa {figures.kappa:.2f}, more than "
                                          f"{KAPPA_GAP:g} below the team's median "
                                          f"{team_kappa:.2f}"))
    consistency = figures.self_consistency
    if (consistency is not None and figures.controls >= MIN_CONTROLS
            and consistency < MIN_CONSISTENCY):
        found.append(Outlier("inconsistent", f"same label twice on {figures.consistent} of "
                                             f"{figures.controls} control pairs"))
    if not found:
        return figures
    return replace(figures, outliers=tuple(found))


def _grade_units(rows: Iterable[TimedJudgment]) -> list[GradeUnit]:
    units: dict[tuple[str, str], GradeUnit] = defaultdict(dict)
    for r in rows:
        units[(r.case, r.document)][r.assessor] = r.grade
    return list(units.values())
