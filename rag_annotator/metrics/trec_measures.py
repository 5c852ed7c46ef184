"""The measures exactly as trec_eval computes them, on a list of gains.

Every policy ends here: ``trec`` passes the ranking with unjudged documents at gain 0,
``judged-only`` passes the condensed ranking, ``strict`` uses these values for the assignment
"every unjudged document is not relevant" and publishes them when its bounds meet.  Keeping one
implementation means the three policies cannot drift apart.

Conventions, each one trec_eval's (checked against trec_eval's own test files and
pytrec_eval):

* relevant means grade >= 1; nDCG's gain is the grade itself (linear), discounted by
  ``log2(rank + 1)``, and the ideal ranking uses every relevant grade of the universe sorted
  descending, cut at k;
* ``P@k`` divides by k even when the ranking is shorter; ``R@k`` and ``AP`` divide by R, the
  number of relevant documents in the universe, retrieved or not;
* one deliberate difference: a zero denominator (R = 0, ideal DCG = 0) gives ``None``, "not
  defined", where trec_eval prints 0, because a case with nothing to find says nothing about
  the run (DESIGN section 5, seed 003 K08).  ``Judged@k`` with an empty ranking is ``None`` too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from rag_annotator.metrics.measures import Measure, MeasureKind


def discount(rank: int) -> float:
    """trec_eval's nDCG discount for a 1-based rank: ``1 / log2(rank + 1)``."""
    return 1.0 / math.log2(rank + 1)


class Universe:
    """What the labels say about a case, computed once and shared by every measure."""

    __slots__ = ("ideal_gains", "judged_at_least", "labels", "max_grade", "relevant",
                 "unjudged")

    def __init__(self, labels: Mapping[str, int | None], max_grade: int) -> None:
        self.labels = labels
        self.max_grade = max_grade
        judged = [g for g in labels.values() if g is not None]
        #: Relevant grades of the universe, best first: the ideal ranking for nDCG.
        self.ideal_gains: list[int] = sorted((g for g in judged if g >= 1), reverse=True)
        #: R, the number of judged relevant documents (the denominator of R@k and AP).
        self.relevant = len(self.ideal_gains)
        #: Unjudged documents of the universe, retrieved or not.
        self.unjudged = len(labels) - len(judged)
        #: ``judged_at_least[l]`` = judged documents with grade >= l, for l in 0..max_grade.
        counts = [0] * (max_grade + 1)
        for g in judged:
            counts[g] += 1
        at_least = [0] * (max_grade + 2)
        for level in range(max_grade, -1, -1):
            at_least[level] = at_least[level + 1] + counts[level]
        self.judged_at_least = at_least[: max_grade + 1]


def trec_value(measure: Measure, gains: Sequence[int], universe: Universe) -> float | None:
    """The value trec_eval gives ``measure`` for a ranking with these gains, or None.

    ``gains[i]`` is the grade of the document at rank ``i + 1`` (0 for not relevant, for
    unjudged and for documents outside the universe).  ``Judged@k`` is not computed here: it
    is about the labels, not the gains (see :func:`judged_rate`).
    """
    k = measure.cutoff
    top = gains if k is None else gains[:k]
    kind = measure.kind
    if kind is MeasureKind.PRECISION:
        assert k is not None
        return sum(1 for g in top if g >= 1) / k
    if kind is MeasureKind.SUCCESS:
        return 1.0 if any(g >= 1 for g in top) else 0.0
    if kind is MeasureKind.RECIPROCAL_RANK:
        for rank, g in enumerate(top, start=1):
            if g >= 1:
                return 1.0 / rank
        return 0.0
    if kind is MeasureKind.RECALL:
        if universe.relevant == 0:
            return None
        return sum(1 for g in top if g >= 1) / universe.relevant
    if kind is MeasureKind.AVERAGE_PRECISION:
        if universe.relevant == 0:
            return None
        found = 0
        total = 0.0
        for rank, g in enumerate(top, start=1):
            if g >= 1:
                found += 1
                total += found / rank
        return total / universe.relevant
    if kind is MeasureKind.NDCG:
        ideal_gains = universe.ideal_gains if k is None else universe.ideal_gains[:k]
        ideal = sum(g / math.log2(rank + 1) for rank, g in enumerate(ideal_gains, start=1))
        if ideal <= 0.0:
            return None
        dcg = sum(g / math.log2(rank + 1) for rank, g in enumerate(top, start=1) if g > 0)
        return dcg / ideal
    raise ValueError(f"{measure.name} is not computed from gains")


def judged_rate(measure: Measure, ranking: Sequence[str],
                labels: Mapping[str, int | None]) -> float | None:
    """``Judged@k``: the share of the top k documents that have an effective label.

    As in ir_measures the denominator is ``min(k, len(ranking))``, so a short ranking that is
    fully judged scores 1; an empty ranking has nothing to judge and gives ``None``.  Unlike
    ir_measures (which counts any qrels line, even a -1), a document labelled ``None`` is not
    judged.  The rate describes the judging of the run's own ranking, so every policy reads it
    on the full ranking: on the condensed list of ``judged-only`` it would always be 1, and no
    assignment of the unjudged documents changes it, so ``strict`` always publishes it.
    """
    assert measure.cutoff is not None
    top = ranking[: measure.cutoff]
    if not top:
        return None
    return sum(1 for doc in top if labels.get(doc) is not None) / len(top)
