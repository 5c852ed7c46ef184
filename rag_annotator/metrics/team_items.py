"""Agreement of a team on the claims it verified and the trajectories it reviewed.

A campaign of claims or trajectories asks ``k`` assessors for their own verdict on each item
(``claim_assessments`` / ``trajectory_assessments``).  Handing the same item to two people is
only worth it if someone looks at whether they agree, so the team's figures carry, per kind
of item and per question, the same coefficients as for relevance:

* claims, question ``verdict``: supported / not supported / contradicted — three nominal
  categories (a contradicted claim is not "more unsupported" than a not-supported one, so no
  ordering is assumed);
* trajectories, questions ``task_success`` and ``path_acceptable``: two yes/no answers, each
  its own coefficient (an expert can agree on the outcome and not on the path).

Per question: Cohen's kappa of every two assessors on the items both answered (unweighted,
nominal, as scikit-learn's ``cohen_kappa_score``), each assessor's mean kappa with the
colleagues they share items with, and Krippendorff's alpha (nominal) over every item answered
by two or more.  Pure functions over plain values: the store hands one :class:`ItemVerdict`
per answer given.  Undefined figures (no shared item, a single category) are ``None``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rag_annotator.metrics.team import PairKappa, alpha_of_grades

#: The questions asked per kind of item, in the order they are reported; the first is the
#: one the per-assessor kappa of the progress table shows.
QUESTIONS: dict[str, tuple[str, ...]] = {
    "claims": ("verdict",),
    "trajectories": ("task_success", "path_acceptable"),
}


class ItemVerdict(NamedTuple):
    """One assessor's answer to one question on one item (``unit`` names the item the same
    way in every file of a campaign: run, case key and position or trial)."""

    items: str
    question: str
    unit: str
    assessor: str
    label: str


@dataclass(frozen=True)
class ItemAgreement:
    """Agreement on one question about one kind of item (module docstring)."""

    items: str
    question: str
    #: Items answered by two assessors or more.
    units: int
    alpha: float | None
    pairwise: tuple[PairKappa, ...] = ()

    def kappa_of(self, name: str) -> tuple[float | None, int]:
        """``name``'s mean pairwise kappa (defined ones) and with how many colleagues."""
        values = [p.kappa for p in self.pairwise
                  if name in (p.first, p.second) and p.kappa is not None]
        return (sum(values) / len(values) if values else None), len(values)

    def to_json(self) -> dict[str, object]:
        return {"items": self.items, "question": self.question, "units": self.units,
                "alpha": self.alpha,
                "pairwise": [{"assessors": [p.first, p.second], "units": p.units,
                              "kappa": p.kappa} for p in self.pairwise]}


def nominal_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa of paired nominal labels (any number of categories).

    None when there is no pair or chance agreement is 1 (both always gave one same label).
    """
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(a == b for a, b in pairs) / n
    first: dict[str, int] = defaultdict(int)
    second: dict[str, int] = defaultdict(int)
    for a, b in pairs:
        first[a] += 1
        second[b] += 1
    expected = sum(first[c] * second[c] for c in first) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def items_agreement(verdicts: Iterable[ItemVerdict],
                    kinds: Iterable[str]) -> tuple[ItemAgreement, ...]:
    """One :class:`ItemAgreement` per question of each kind in ``kinds`` (the kinds some
    campaign handed out), in :data:`QUESTIONS` order; an assessor's later answer to the same
    question on the same item replaces an earlier one."""
    answers: dict[tuple[str, str], dict[str, dict[str, str]]] = defaultdict(
        lambda: defaultdict(dict))
    for v in verdicts:
        answers[(v.items, v.question)][v.unit][v.assessor] = v.label
    wanted = set(kinds)
    out: list[ItemAgreement] = []
    for kind, questions in QUESTIONS.items():
        if kind not in wanted:
            continue
        for question in questions:
            units = list(answers[(kind, question)].values())
            out.append(_agreement(kind, question, units))
    return tuple(out)


def _agreement(kind: str, question: str, units: list[dict[str, str]]) -> ItemAgreement:
    names = sorted({name for unit in units for name in unit})
    pairwise: list[PairKappa] = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            shared = [(u[first], u[second]) for u in units if first in u and second in u]
            if shared:
                pairwise.append(PairKappa(first, second, len(shared), nominal_kappa(shared)))
    codes = {label: i for i, label in enumerate(sorted({x for u in units for x in u.values()}))}
    alpha = alpha_of_grades(({name: codes[label] for name, label in u.items()} for u in units),
                            "nominal")
    return ItemAgreement(kind, question, sum(len(u) >= 2 for u in units), alpha,
                         tuple(pairwise))
