"""A naive oracle for the tests: every measure straight from its textbook definition.

Written independently of ``rag_annotator.metrics`` (no shared helper, no prefix sums, no
cleverness) so that agreeing with it means something.  :func:`enumerate_strict` is the brute
force the strict policy must never use: it tries every grading of the unjudged documents.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def naive_value(name: str, ranking: Sequence[str], grades: Mapping[str, int]) -> float | None:
    """``name`` on a fully graded universe (a document missing from ``grades`` has grade 0)."""
    kind, _, cut = name.partition("@")
    k = int(cut) if cut else None
    top = list(ranking) if k is None else list(ranking[:k])

    def grade(doc: str) -> int:
        return grades.get(doc, 0)

    relevant_total = sum(1 for g in grades.values() if g >= 1)
    if kind == "P":
        assert k is not None
        return sum(1 for d in top if grade(d) >= 1) / k
    if kind == "Success":
        return 1.0 if any(grade(d) >= 1 for d in top) else 0.0
    if kind == "RR":
        for i, d in enumerate(top):
            if grade(d) >= 1:
                return 1.0 / (i + 1)
        return 0.0
    if kind == "R":
        if relevant_total == 0:
            return None
        return sum(1 for d in top if grade(d) >= 1) / relevant_total
    if kind == "AP":
        if relevant_total == 0:
            return None
        total = 0.0
        for i, d in enumerate(top):
            if grade(d) >= 1:
                total += sum(1 for e in top[: i + 1] if grade(e) >= 1) / (i + 1)
        return total / relevant_total
    if kind == "nDCG":
        ideal_grades = sorted(grades.values(), reverse=True)
        if k is not None:
            ideal_grades = ideal_grades[:k]
        ideal = sum(g / math.log2(i + 2) for i, g in enumerate(ideal_grades))
        if ideal == 0:
            return None
        return sum(grade(d) / math.log2(i + 2) for i, d in enumerate(top)) / ideal
    raise AssertionError(f"no naive definition for {name}")


@dataclass(frozen=True)
class Enumerated:
    """What brute force says about one measure over every grading of the unjudged."""

    values: tuple[float, ...]  # the defined values, one per grading where defined
    undefined_somewhere: bool

    @property
    def constant(self) -> bool:
        return bool(self.values) and max(self.values) - min(self.values) <= 1e-12

    @property
    def publishable(self) -> bool:
        return self.constant and not self.undefined_somewhere


def enumerate_strict(name: str, ranking: Sequence[str], labels: Mapping[str, int | None],
                     max_grade: int) -> Enumerated:
    """Try every grade 0..max_grade for every unjudged document of ``labels``."""
    unjudged = [d for d, g in labels.items() if g is None]
    fixed = {d: g for d, g in labels.items() if g is not None}
    values: list[float] = []
    undefined = False
    for combo in itertools.product(range(max_grade + 1), repeat=len(unjudged)):
        grades = dict(fixed)
        grades.update(zip(unjudged, combo))
        value = naive_value(name, ranking, grades)
        if value is None:
            undefined = True
        else:
            values.append(value)
    return Enumerated(tuple(values), undefined)
