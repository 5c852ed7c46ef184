"""The ``trec`` measures of a whole run at once, on arrays (issue 19: ``metrics`` on 10,000
cases x 100 documents spent seconds in per-document Python).

The same numbers as :func:`~rag_annotator.metrics.trec_measures.trec_value` and
:func:`~rag_annotator.metrics.trec_measures.judged_rate`, to the last bit: counts divided as
there, and every sum taken left to right in rank order (``np.cumsum``, never the pairwise
``np.sum``), adding only exact zeros where trec_measures skips a term; the nDCG discounts
are ``math.log2``'s.  tests/metrics/test_trec_arrays.py holds the two paths to equal values.

Input, per case of the run (in report order): where its ranking lies in ``grades``
(``starts``, ``lengths``), the effective grade of each ranked document (-1: no label) and
``histogram[i, g]``, the labelled pairs of case ``i`` with grade ``g`` (its universe).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rag_annotator.metrics.measures import Measure, MeasureKind

#: A padded (cases x longest ranking) matrix is built only when it holds at most this many
#: cells per ranked document (plus a floor): one very long ranking among short ones would
#: make it huge, and the caller then reads case by case.
_MAX_PADDING = 4
_PADDING_FLOOR = 100_000

Column = list[float | None]


def trec_columns(starts: Any, lengths: Any, grades: Any, histogram: Any,
                 measures: Sequence[Measure], relevance_level: int = 1
                 ) -> dict[str, Column] | None:
    """Measure name → the value of every case (None: not defined), or None when the
    rankings are too uneven for one padded matrix (see :data:`_MAX_PADDING`).

    ``relevance_level`` is trec_eval's ``-l`` for the binary measures (nDCG keeps the
    grades as gains), as in :func:`~rag_annotator.metrics.retrieval.evaluate_query`.
    """
    import numpy as np

    cases = len(starts)
    cutoffs = [m.cutoff for m in measures]
    longest = int(lengths.max(initial=0))
    depth = longest if None in cutoffs else min(longest, max((c or 0 for c in cutoffs), default=0))
    if cases * depth > _MAX_PADDING * len(grades) + _PADDING_FLOOR:
        return None
    column = np.arange(depth, dtype=np.int64)
    inside = column[None, :] < lengths[:, None]
    matrix = np.full((cases, depth), -1, dtype=np.int64)
    matrix[inside] = grades[(starts[:, None] + column[None, :])[inside]]
    arrays = _Arrays(np, matrix, lengths, histogram, relevance_level)
    return {m.name: _column(arrays, m) for m in measures}


class _Arrays:
    """What every measure of one run reads, computed once."""

    def __init__(self, np: Any, matrix: Any, lengths: Any, histogram: Any,
                 relevance_level: int) -> None:
        self.np = np
        self.matrix = matrix
        self.lengths = lengths
        self.histogram = histogram
        self.relevant = matrix >= relevance_level
        #: R under ``-l``: the judged documents of the universe with grade >= the level.
        self.total_relevant = histogram[:, relevance_level:].sum(axis=1)
        depth = matrix.shape[1]
        self.ranks = np.arange(1, depth + 1, dtype=np.int64)
        self.discounts = np.array([math.log2(rank + 1) for rank in range(1, depth + 1)],
                                  dtype=np.float64)


def _running_total(np: Any, terms: Any) -> Any:
    """Each row's terms summed left to right (as Python's ``sum`` on floats does)."""
    if terms.shape[1] == 0:
        return np.zeros(terms.shape[0], dtype=np.float64)
    return np.cumsum(terms, axis=1)[:, -1]


def _column(a: _Arrays, measure: Measure) -> Column:
    np = a.np
    k = measure.cutoff
    top = a.relevant if k is None else a.relevant[:, :k]
    kind = measure.kind
    values: Column
    if kind is MeasureKind.PRECISION:
        assert k is not None
        values = (top.sum(axis=1) / k).tolist()
        return values
    if kind is MeasureKind.SUCCESS:
        values = top.any(axis=1).astype(np.float64).tolist()
        return values
    if kind is MeasureKind.RECIPROCAL_RANK:
        first = top.argmax(axis=1) + 1 if top.shape[1] else np.ones(len(top), np.int64)
        values = np.where(top.any(axis=1), 1.0 / first, 0.0).tolist()
        return values
    if kind is MeasureKind.RECALL:
        return _over_relevant(a, top.sum(axis=1))
    if kind is MeasureKind.AVERAGE_PRECISION:
        found = np.cumsum(top, axis=1)
        terms = np.where(top, found / a.ranks[:top.shape[1]], 0.0)
        return _over_relevant(a, _running_total(np, terms))
    if kind is MeasureKind.NDCG:
        return _ndcg(a, k)
    if kind is MeasureKind.JUDGED:
        assert k is not None
        shown = np.minimum(a.lengths, k)
        judged = (a.matrix[:, :k] >= 0).sum(axis=1)
        rates = (judged / np.maximum(shown, 1)).tolist()
        return [None if n == 0 else rate for n, rate in zip(shown.tolist(), rates)]
    raise ValueError(f"{measure.name} is not a measure of the trec arrays")


def _over_relevant(a: _Arrays, numerators: Any) -> Column:
    """``numerator / R`` per case, None where R = 0 (not defined)."""
    counts = a.total_relevant
    values = (numerators / a.np.maximum(counts, 1)).tolist()
    return [None if r == 0 else v for r, v in zip(counts.tolist(), values)]


def _ndcg(a: _Arrays, k: int | None) -> Column:
    """trec_measures' nDCG: the grades as gains, the ideal from the universe's grades."""
    np = a.np
    gains = a.matrix if k is None else a.matrix[:, :k]
    gains = np.where(gains > 0, gains, 0).astype(np.float64)
    terms = np.where(gains > 0, gains / a.discounts[:gains.shape[1]], 0.0)
    dcg = _running_total(np, terms).tolist()
    # The ideal DCG depends only on the counts of each relevant grade: a few distinct rows.
    relevant_counts = a.histogram[:, 1:]
    distinct, which = np.unique(relevant_counts, axis=0, return_inverse=True)
    ideals = [_ideal(row, k) for row in distinct.tolist()]
    out: Column = []
    for value, index in zip(dcg, which.reshape(-1).tolist()):
        ideal = ideals[index]
        out.append(None if ideal <= 0.0 else value / ideal)
    return out


def _ideal(counts: list[int], k: int | None) -> float:
    """The ideal DCG of a universe holding ``counts[g - 1]`` documents of grade g, as
    trec_measures sums it (best grade first, cut at k)."""
    ideal_gains = [grade for grade in range(len(counts), 0, -1)
                   for _ in range(counts[grade - 1])]
    if k is not None:
        ideal_gains = ideal_gains[:k]
    total: float = sum(g / math.log2(rank + 1) for rank, g in enumerate(ideal_gains, start=1))
    return total
