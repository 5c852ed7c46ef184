"""AP's strict width after judging each unjudged document of its window, for all at once.

``judge_next`` asks, for every unjudged document d inside a measure's window, how wide the
strict interval stays once d has a grade.  Re-reading the case per document costs O(n) per
document and grade, O(n²) per case: on a 1,000-deep run with 50,000 unjudged pairs that was
86-92 s for AP alone (issue 18).  AP only sees whether a grade is >= 1, so two assignments
(d not relevant, d relevant) cover every grade, and both bounds of ``strict.py`` —

* ``high = max over x of s_max[x] / max(R + x, 1)`` (the earliest x unjudged relevant),
* ``low = min over x of s_min[x] / (R + x + o)`` (the latest x unjudged relevant) —

change in a structured way when one unjudged rank u_j leaves the list: for the x where u_j
is not among the chosen documents the terms are the case's own; for the others the term is
the case's term at x + 1 minus u_j's contribution, which is ``K_j / D + const`` for a
constant ``K_j`` of d and a denominator ``D`` of x.  Each such family is a set of lines
``K -> a_x * K + b_x`` queried at ``K_j`` over a prefix or suffix of x, answered with a
Li Chao tree in O(log n): O(n log n) per case instead of O(n²).  Tests compare it with the
re-reading on random cases and with brute force on small ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_annotator.metrics.strict import TOLERANCE, _precision_sums
from rag_annotator.metrics.trec_measures import Universe

_NEG = float("-inf")


class _LiChao:
    """Maximum of lines ``a * K + b`` at query points known in advance."""

    def __init__(self, points: Sequence[float]) -> None:
        self.xs = sorted(set(points))
        self.index = {x: i for i, x in enumerate(self.xs)}
        self.tree: list[tuple[float, float] | None] = [None] * (4 * max(1, len(self.xs)))

    def add(self, a: float, b: float) -> None:
        if not self.xs:
            return
        line = (a, b)
        node, lo, hi = 1, 0, len(self.xs) - 1
        while True:
            current = self.tree[node]
            if current is None:
                self.tree[node] = line
                return
            mid = (lo + hi) // 2
            x_mid = self.xs[mid]
            if line[0] * x_mid + line[1] > current[0] * x_mid + current[1]:
                self.tree[node], line = line, current
                current = self.tree[node]
                assert current is not None
            if lo == hi:
                return
            x_lo, x_hi = self.xs[lo], self.xs[hi]
            if line[0] * x_lo + line[1] > current[0] * x_lo + current[1]:
                node, hi = 2 * node, mid
            elif line[0] * x_hi + line[1] > current[0] * x_hi + current[1]:
                node, lo = 2 * node + 1, mid + 1
            else:
                return

    def best(self, x: float) -> float:
        i = self.index[x]
        node, lo, hi = 1, 0, len(self.xs) - 1
        out = _NEG
        while True:
            line = self.tree[node]
            if line is None:
                return out
            out = max(out, line[0] * x + line[1])
            if lo == hi:
                return out
            mid = (lo + hi) // 2
            if i <= mid:
                node, hi = 2 * node, mid
            else:
                node, lo = 2 * node + 1, mid + 1


def _ranged(lines: Sequence[tuple[float, float] | None], queries: Sequence[tuple[int, float]],
            suffix: bool) -> list[float]:
    """Per query ``(start, K)``: the max over lines x >= start (``suffix``) or x < start of
    ``a_x * K + b_x``; ``-inf`` when the range holds no line."""
    tree = _LiChao([k for _s, k in queries])
    order = sorted(range(len(queries)), key=lambda q: queries[q][0], reverse=suffix)
    out = [_NEG] * len(queries)
    if suffix:
        x = len(lines)
        for q in order:
            start = queries[q][0]
            while x > start:
                x -= 1
                line = lines[x]
                if line is not None:
                    tree.add(*line)
            out[q] = tree.best(queries[q][1])
    else:
        x = 0
        for q in order:
            start = queries[q][0]
            while x < start:
                line = lines[x]
                if line is not None:
                    tree.add(*line)
                x += 1
            out[q] = tree.best(queries[q][1])
    return out


def _running(values: Sequence[float | None], reverse: bool = False) -> list[float]:
    """``out[i]``: max of ``values[:i]`` (of ``values[i:]`` when ``reverse``), None skipped."""
    out = [_NEG] * (len(values) + 1)
    if reverse:
        for i in range(len(values) - 1, -1, -1):
            v = values[i]
            out[i] = out[i + 1] if v is None else max(out[i + 1], v)
    else:
        for i, v in enumerate(values):
            out[i + 1] = out[i] if v is None else max(out[i], v)
    return out


def ap_widths(window: Sequence[int | None], universe: Universe) -> dict[int, float]:
    """Rank index (0-based) of each unjudged document of AP's window → the widest strict
    interval AP keeps once that document has a grade, over every grade it could get."""
    unjudged = [r for r, g in enumerate(window, start=1) if g is None]
    c = len(unjudged)
    if c == 0:
        return {}
    n = len(window)
    relevant = [g is not None and g >= 1 for g in window]
    before = [0] * (n + 2)
    for r in range(1, n + 1):
        before[r + 1] = before[r] + (1 if relevant[r - 1] else 0)
    tail = [0.0] * (n + 2)
    for r in range(n, 0, -1):
        tail[r - 1] = tail[r] + (1.0 / r if relevant[r - 1] else 0.0)
    s_max, s_min = _precision_sums(window, unjudged)
    harmonic = [0.0]
    for u in unjudged:
        harmonic.append(harmonic[-1] + 1.0 / u)
    big_r, o = universe.relevant, universe.unjudged - c
    fb = [before[u] for u in unjudged]
    ft = [tail[u] for u in unjudged]
    js = range(1, c + 1)

    # high, plain terms s_max[x] / max(R + x, 1) (x = 0 kept only when R + o > 0).
    plain_high: list[float | None] = [
        (s_max[x] / max(big_r + x, 1) if big_r + x + o > 0 else None) for x in range(c + 1)]
    plain_high_b1 = [s_max[y] / (big_r + y) if big_r + y > 0 else None for y in range(c + 1)]
    pre_high = _running(plain_high)
    suf_high_b1 = _running(plain_high_b1, reverse=True)
    # b=0, x >= j: (s_max[y] - H[y] - K_j) / (R + y - 1), y = x + 1 in j+1..c.
    k0 = [(fb[j - 1] + j) / unjudged[j - 1] + ft[j - 1] - harmonic[j] for j in js]
    lines = [None] + [(-1.0 / (big_r + y - 1), (s_max[y] - harmonic[y]) / (big_r + y - 1))
                      if big_r + y - 1 > 0 else None for y in range(1, c + 1)]
    high0_rest = _ranged(lines, [(j + 1, k0[j - 1]) for j in js], suffix=True)
    # b=1, x < j: s_max[x]/D + M_j/D + 1/u_j, D = R + 1 + x.
    m1 = [ft[j - 1] + (fb[j - 1] - big_r) / unjudged[j - 1] for j in js]
    lines = [(1.0 / (big_r + 1 + x), s_max[x] / (big_r + 1 + x)) for x in range(c)]
    high1_first = _ranged(lines, [(j, m1[j - 1]) for j in js], suffix=False)

    # low, plain terms s_min[x] / (R + x + o).
    plain_low = [(-s_min[x] / (big_r + x + o) if big_r + x + o > 0 else None)
                 for x in range(c + 1)]
    plain_low_b1 = [-s_min[y] / (big_r + y + o) if big_r + y + o > 0 else None
                    for y in range(c + 1)]
    pre_low = _running(plain_low)  # negated: max of -value = -min
    suf_low_b1 = _running(plain_low_b1, reverse=True)
    # b=0, x >= e = c - j + 1: s_min[x+1]/D - L_j/D - 1/u_j, D = R + x + o.
    lj = [(fb[j - 1] + j - c + 1) / unjudged[j - 1] + ft[j - 1] + harmonic[c] - harmonic[j]
          - (big_r + o) / unjudged[j - 1] for j in js]
    lines = [(1.0 / (big_r + x + o), -s_min[x + 1] / (big_r + x + o))
             if big_r + x + o > 0 else None for x in range(c)]
    low0_rest = _ranged(lines, [(c - j + 1, lj[j - 1]) for j in js], suffix=True)
    # b=1, x < e: (s_min[x] + H[c] - H[c-x])/D + G_j/D, D = R + 1 + x + o.
    gj = [(fb[j - 1] + 1) / unjudged[j - 1] + ft[j - 1] for j in js]
    lines = [(-1.0 / (big_r + 1 + x + o),
              -(s_min[x] + harmonic[c] - harmonic[c - x]) / (big_r + 1 + x + o))
             for x in range(c)]
    low1_first = _ranged(lines, [(c - j + 1, gj[j - 1]) for j in js], suffix=False)

    out: dict[int, float] = {}
    for j in js:
        u = unjudged[j - 1]
        e = c - j + 1
        high0 = max(pre_high[j], high0_rest[j - 1])
        low0 = -max(pre_low[e], low0_rest[j - 1] + 1.0 / u)
        high1 = max(high1_first[j - 1] + 1.0 / u, suf_high_b1[j + 1] if j + 1 <= c else _NEG)
        low1 = -max(low1_first[j - 1], suf_low_b1[e + 1] if e + 1 <= c else _NEG)
        out[u - 1] = max(_width(low0, high0, big_r, universe.unjudged - 1),
                         _width(low1, high1, big_r + 1, universe.unjudged - 1))
    return out


def _width(low: float, high: float, relevant: int, unjudged: int) -> float:
    """The width of the strict reading with these bounds (as ``judge_next.width``)."""
    if relevant + unjudged == 0 or low in (_NEG, -_NEG) or high in (_NEG, -_NEG):
        return 0.0  # never defined
    undefined_for_some = relevant == 0
    if not undefined_for_some and high - low <= TOLERANCE:
        return 0.0
    return high - low + (1.0 if undefined_for_some else 0.0)
