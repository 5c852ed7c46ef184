"""The ``strict`` policy: exact bounds of a measure over every labelling of the unjudged.

A strict value is published only if it is defined and identical whatever grade (0 to
``max_grade``, independently) each unjudged document of the case's universe receives (DESIGN
section 5, seed 003).  Enumerating the ``(max_grade + 1) ** n`` assignments is out of the
question for a case with a thousand unjudged documents, so each measure's minimum and maximum
are found by reasoning about its form instead.  Notation, for a measure read on the window W of
the first k ranked documents (the whole ranking without a cutoff):

* ``a`` judged relevant documents in W, ``c`` unjudged documents in W at ranks
  ``u_1 < ... < u_c``, ``R_f`` judged relevant documents in the universe, ``o`` unjudged
  documents of the universe outside W (ranked below k, or not retrieved);
* ``x`` of the c and ``y`` of the o made relevant, so R = R_f + x + y.

Arguments, measure by measure:

* ``P@k = (a + x) / k`` and ``Success@k``: monotone in x; bounds at x = 0 and x = c.
* ``RR@k``: lowest when no unjudged document is relevant (first judged relevant, or 0);
  highest when the first unjudged document of W is, if it comes before that.
* ``R@k = (a + x) / (R_f + x + y)`` and ``AP = S / (R_f + x + y)``: for fixed x and fixed
  relevant positions the value only falls as y grows, so y is 0 (1 if R would be 0) for the
  maximum and o for the minimum.  For AP a swap argument shows that, for a fixed x, the sum of
  precisions S is largest when the earliest x unjudged positions are relevant and smallest
  when the latest x are; both sums are built for every x in one pass (O(c)), then scanned.
* ``nDCG = DCG / IDCG``: unjudged documents outside W only raise IDCG, so they take grade 0
  for the maximum and the top grade for the minimum.  As a function of one grade g, DCG is
  linear and IDCG is convex (a maximum of linear functions: the best arrangement), so nDCG is
  quasi-concave in g; its minimum over 0..M is therefore at 0 or M, which makes the minimum a
  binary scan over x (the latest x unjudged of W at grade M).  The maximum can sit at an
  interior grade (a grade 2 can complete an ideal order a grade 3 would spoil), so it is found
  with Dinkelbach's method on the layered form ``grade = sum over l of [grade >= l]``: for a
  fixed ratio t the problem ``max DCG - t * IDCG`` splits into one prefix choice per grade
  level, and those choices are nested (increasing differences), which makes each step O(c M).

Every bound is over the assignments where the measure is defined; ``R@k``, ``AP`` and ``nDCG``
are undefined for some assignment exactly when no judged document is relevant (all unjudged
at 0 then gives R = 0), and for every assignment when, in addition, nothing is unjudged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rag_annotator.metrics.measures import Measure, MeasureKind
from rag_annotator.metrics.trec_measures import Universe, discount
from rag_annotator.metrics.values import Reading

#: Two bounds closer than this are the same number (they are computed along different sums).
TOLERANCE = 1e-12

#: Dinkelbach stops when no grading beats the current ratio by more than this (rounding).
_DINKELBACH_EPS = 1e-15


def strict_reading(measure: Measure, grades: Sequence[int | None], universe: Universe,
                   trec: float | None) -> Reading:
    """The strict reading of ``measure``.

    ``grades[i]`` is the grade of the document at rank ``i + 1``: ``None`` for an unjudged
    document of the universe, 0 for one outside it.  ``trec`` is the value when every unjudged
    document is not relevant, which is one of the assignments: when the bounds meet it is the
    value published, so a strict number is bit for bit the trec number.
    """
    k = measure.cutoff
    window = grades if k is None else grades[:k]
    unjudged_ranks = [rank for rank, g in enumerate(window, start=1) if g is None]
    c = len(unjudged_ranks)
    outside = universe.unjudged - c
    kind = measure.kind

    if kind is MeasureKind.PRECISION:
        assert k is not None
        a = _relevant_count(window)
        return _reading(a / k, (a + c) / k, False, trec)
    if kind is MeasureKind.SUCCESS:
        a = _relevant_count(window)
        return _reading(1.0 if a else 0.0, 1.0 if a + c else 0.0, False, trec)
    if kind is MeasureKind.RECIPROCAL_RANK:
        first_relevant = next((r for r, g in enumerate(window, start=1)
                               if g is not None and g >= 1), None)
        worst = 1.0 / first_relevant if first_relevant is not None else 0.0
        first_open = min([r for r in (first_relevant, unjudged_ranks[0] if c else None)
                          if r is not None], default=None)
        best = 1.0 / first_open if first_open is not None else 0.0
        return _reading(worst, best, False, trec)

    undefined_for_some = universe.relevant == 0
    if universe.relevant + universe.unjudged == 0:
        return Reading(None, None, None, True)
    if kind is MeasureKind.RECALL:
        a = _relevant_count(window)
        low, high = _scan_over_r(universe.relevant, c, outside,
                                 [float(a + x) for x in range(c + 1)],
                                 [float(a + x) for x in range(c + 1)])
        return _reading(low, high, undefined_for_some, trec)
    if kind is MeasureKind.AVERAGE_PRECISION:
        s_max, s_min = _precision_sums(window, unjudged_ranks)
        low, high = _scan_over_r(universe.relevant, c, outside, s_min, s_max)
        return _reading(low, high, undefined_for_some, trec)
    if kind is MeasureKind.NDCG:
        low, high = _ndcg_bounds(window, unjudged_ranks, outside, universe, k)
        return _reading(low, high, undefined_for_some, trec)
    raise ValueError(f"{measure.name} has no strict bounds")


def _relevant_count(window: Sequence[int | None]) -> int:
    return sum(1 for g in window if g is not None and g >= 1)


def _reading(low: float | None, high: float | None, undefined_for_some: bool,
             trec: float | None) -> Reading:
    """Publish the trec value when the bounds meet and it is always defined."""
    if low is None or high is None:
        return Reading(None, None, None, True)
    if not undefined_for_some and high - low <= TOLERANCE:
        assert trec is not None  # all-unjudged-not-relevant is an assignment, and defined
        return Reading(trec, trec, trec, False)
    return Reading(None, low, high, undefined_for_some)


def _scan_over_r(judged_relevant: int, c: int, outside: int, low_numerators: Sequence[float],
                 high_numerators: Sequence[float]) -> tuple[float | None, float | None]:
    """Extremes of ``numerator(x) / (R_f + x + y)`` over x in 0..c, y in 0..outside.

    The numerators do not depend on y, so the value falls as y grows: the maximum takes the
    smallest y that keeps R > 0, the minimum the largest.  Returns ``(None, None)`` if R is 0
    for every choice.
    """
    low: float | None = None
    high: float | None = None
    for x in range(c + 1):
        base = judged_relevant + x
        denominator = base + outside
        if denominator == 0:
            continue
        value = low_numerators[x] / denominator
        low = value if low is None else min(low, value)
        denominator = base if base > 0 else 1  # outside >= 1 here, or we had continued
        value = high_numerators[x] / denominator
        high = value if high is None else max(high, value)
    return low, high


def _precision_sums(window: Sequence[int | None],
                    unjudged_ranks: Sequence[int]) -> tuple[list[float], list[float]]:
    """AP's numerator S (sum of precision at each relevant rank) for x = 0..c.

    ``s_max[x]``: the earliest x unjudged documents relevant; ``s_min[x]``: the latest x.
    Each step adds one relevant document at rank u: its own precision, plus 1/r for every
    relevant document below it, whose count above it grows by one.
    """
    n = len(window)
    relevant = [g is not None and g >= 1 for g in window]
    # fixed_before[r]: judged relevant above rank r; fixed_tail[r]: sum of 1/r' over judged
    # relevant ranks r' > r.
    fixed_before = [0] * (n + 2)
    for r in range(1, n + 1):
        fixed_before[r + 1] = fixed_before[r] + (1 if relevant[r - 1] else 0)
    fixed_tail = [0.0] * (n + 2)
    for r in range(n, 0, -1):
        fixed_tail[r - 1] = fixed_tail[r] + (1.0 / r if relevant[r - 1] else 0.0)
    base = 0.0
    for r in range(1, n + 1):
        if relevant[r - 1]:
            base += (fixed_before[r] + 1) / r

    c = len(unjudged_ranks)
    s_max = [base]
    for x, u in enumerate(unjudged_ranks, start=1):
        s_max.append(s_max[-1] + (fixed_before[u] + x) / u + fixed_tail[u])
    s_min = [base]
    later_unjudged = 0.0  # sum of 1/u over the unjudged already made relevant (all below)
    for u in reversed(unjudged_ranks):
        s_min.append(s_min[-1] + (fixed_before[u] + 1) / u + fixed_tail[u] + later_unjudged)
        later_unjudged += 1.0 / u
    assert len(s_max) == len(s_min) == c + 1
    return s_max, s_min


def _ndcg_bounds(window: Sequence[int | None], unjudged_ranks: Sequence[int], outside: int,
                 universe: Universe, k: int | None) -> tuple[float | None, float | None]:
    """Extremes of DCG@k / IDCG@k over every grading of the unjudged documents."""
    top = universe.max_grade
    c = len(unjudged_ranks)
    fixed_dcg = sum(g * discount(r) for r, g in enumerate(window, start=1)
                    if g is not None and g > 0)
    gains = [discount(u) for u in unjudged_ranks]  # non-increasing
    at_least = universe.judged_at_least  # index l: judged documents with grade >= l

    # ideal[n]: the ideal DCG contribution of one grade level held by n documents.
    longest = universe.relevant + universe.unjudged
    if k is not None:
        longest = min(longest, k)
    ideal = [0.0]
    for rank in range(1, longest + 1):
        ideal.append(ideal[-1] + discount(rank))

    def level_ideal(count: int) -> float:
        return ideal[min(count, longest)]

    # Minimum: outside at the top grade, x latest unjudged of W at the top grade.
    low: float | None = None
    tail = 0.0
    for x in range(c + 1):
        if x:
            tail += gains[c - x]
        idcg = sum(level_ideal(at_least[level] + outside + x) for level in range(1, top + 1))
        if idcg > 0.0:
            value = (fixed_dcg + top * tail) / idcg
            low = value if low is None else min(low, value)

    # Maximum: outside at grade 0, grades of W found by Dinkelbach.
    if at_least[1] == 0 and c == 0:
        # Nothing can be relevant in W; defined only if an outside document is relevant,
        # and then DCG is 0.
        high = 0.0 if outside > 0 else None
    else:
        high = _ndcg_max(fixed_dcg, gains, at_least, top, level_ideal)
    return low, high


def _ndcg_max(fixed_dcg: float, gains: Sequence[float], at_least: Sequence[int], top: int,
              level_ideal: Callable[[int], float]) -> float:
    """Largest ``DCG / IDCG`` when the unjudged documents of W get grades 0..top.

    A grading is described by nested prefix lengths ``s_1 >= ... >= s_top`` (``s_l`` unjudged
    positions with grade >= l; putting them first is best for DCG, and IDCG only sees the
    counts), giving ``N(s) = fixed_dcg + sum_l P(s_l)`` and ``D(s) = sum_l I(F_l + s_l)``.
    Dinkelbach: with t the best ratio found, maximise ``N - t D``; a positive result yields a
    better ratio, zero proves t optimal.  For t >= 0 the per-level objectives have increasing
    differences as l falls (a higher level meets the ideal discounts earlier), so choosing the
    levels from 1 upwards, each capped by the one below, gives the constrained optimum.
    """
    c = len(gains)
    prefix = [0.0]
    for gain in gains:
        prefix.append(prefix[-1] + gain)

    def fraction(lengths: Sequence[int]) -> tuple[float, float]:
        numerator = fixed_dcg + sum(prefix[s] for s in lengths)
        denominator = sum(level_ideal(at_least[level] + s)
                          for level, s in enumerate(lengths, start=1))
        return numerator, denominator

    numerator, denominator = fraction([c] * top)
    assert denominator > 0.0  # c > 0 or a judged relevant document exists
    best = numerator / denominator
    for _ in range(10_000):
        cap = c
        lengths: list[int] = []
        for level in range(1, top + 1):
            fixed = at_least[level]
            chosen = 0
            chosen_value = float("-inf")
            for s in range(cap + 1):
                value = prefix[s] - best * level_ideal(fixed + s)
                if value >= chosen_value:  # ties go to the longer prefix
                    chosen, chosen_value = s, value
            lengths.append(chosen)
            cap = chosen
        numerator, denominator = fraction(lengths)
        if denominator <= 0.0:
            return best
        candidate = numerator / denominator
        if candidate <= best + _DINKELBACH_EPS:
            return max(best, candidate)
        best = candidate
    return best  # not reached: each step strictly improves the ratio over a finite set
