"""How sure a figure is: Wilson intervals for proportions, a seeded percentile bootstrap for
means, and how many more cases would make an interval narrow enough (issue 16).

Gold sets are small (a family often has 2 to 20 cases), so "quality 100 % (1/1)" and
"quality 92 % (72/78)" must not read alike.  Every proportion k/n gets a **Wilson score
interval** (:func:`wilson`): unlike the textbook normal interval it stays inside [0, 1] and
is not zero-width at 0/n or n/n, which is exactly where small families land.  Every mean of a
retrieval measure gets a **percentile bootstrap over cases** (:func:`bootstrap_means`): the
per-case values are bounded, skewed and often tied, so a t interval would be a poor guess;
resampling cases also keeps the documents of one case together (they are not independent).

Why numpy (a runtime dependency since issue 16): the bootstrap must stay interactive on a large
gold set, 10,000 cases x 8 measures x 10,000 resamples in under 2 s
(tests/bench/bench_bootstrap.py).  A resample's mean is ``counts @ values / n`` where ``counts``
says how often each case was drawn; numpy draws the indices, counts them with one ``bincount``
per block of resamples and leaves the 8-measure product to BLAS.  Pure Python would take
minutes.

A case where a measure is not computable (None) is left out of that measure's resampling, as
it is out of the measure's mean.  Measures that leave out the same cases share their resamples
(one draw serves them all), so the usual reports cost one draw.  The same seed gives the same
intervals (the dashboard must not flicker between two refreshes).

:func:`cases_for_proportion` and :func:`cases_for_mean` answer seed 003's FAQ "how many
questions are needed?": how many cases a group needs (and so how many more) to bring the
interval's half-width under a target, from the proportion or the spread seen today.

Pure: numbers in, numbers out (``rag_annotator.metrics`` imports no store and no Qt).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


#: The interval level when nobody chose one.
DEFAULT_LEVEL = 0.95
#: Bootstrap resamples when nobody chose (the issue's figure; percentiles settle by then).
DEFAULT_RESAMPLES = 10_000
#: The bootstrap's seed when nobody chose: the same data give the same interval.
DEFAULT_SEED = 20_240_516
#: "Narrow enough" when nobody chose: ±10 points.
DEFAULT_TARGET_HALF_WIDTH = 0.10
#: Resampled counts held at once (resamples x cases): ~32 MB of float64.
_BLOCK_CELLS = 4_000_000
#: Counters one ``bincount`` call of the bootstrap fills (512 KB: they stay in the CPU cache).
_CACHED_COUNTERS = 65_536
#: The largest group :func:`cases_for_proportion` searches up to (beyond: say "more than").
MAX_CASES = 10_000_000


@dataclass(frozen=True, slots=True)
class Interval:
    """A two-sided interval ``[low, high]`` at ``level`` (e.g. 0.95)."""

    low: float
    high: float
    level: float = DEFAULT_LEVEL

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_json(self) -> list[float]:
        """``[low, high]``, as ``metrics --json`` writes every ``X_ci``."""
        return [self.low, self.high]


def check_level(level: float) -> float:
    """``level`` if it is strictly between 0 and 1, else ValueError."""
    if not 0.0 < level < 1.0 or math.isnan(level):
        raise ValueError(f"level {level} is not between 0 and 1 (e.g. 0.95)")
    return level


def z_value(level: float = DEFAULT_LEVEL) -> float:
    """The standard normal quantile of a two-sided ``level`` (1.959964 at 0.95)."""
    return NormalDist().inv_cdf(0.5 + check_level(level) / 2)


def wilson(k: int, n: int, level: float = DEFAULT_LEVEL) -> Interval | None:
    """The Wilson score interval of ``k`` successes in ``n`` trials (None when n == 0),
    as ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``."""
    if n < 0 or not 0 <= k <= max(n, 0):
        raise ValueError(f"a proportion needs 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return None
    z = z_value(level)
    p = k / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # At 0/n and n/n the bound is exactly 0 or 1 (the float sum leaves a 1e-18 crumb).
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return Interval(low, high, level)


def wilson_half_width(p: float, n: int | float, level: float = DEFAULT_LEVEL) -> float:
    """The half-width of the Wilson interval of an observed proportion ``p`` over ``n``."""
    z = z_value(level)
    z2 = z * z
    return z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)


def _check_resampling(resamples: int) -> None:
    if resamples < 1:
        raise ValueError(f"resamples {resamples} is below 1 (e.g. 10000)")


def bootstrap_means(columns: Mapping[str, Sequence[float | None]],
                    resamples: int = DEFAULT_RESAMPLES, level: float = DEFAULT_LEVEL,
                    seed: int = DEFAULT_SEED, keys: Sequence[str] | None = None
                    ) -> dict[str, Interval | None]:
    """The percentile bootstrap interval of the mean of each column (measure → per-case
    values, None where not computable), resampling the cases where it is computable.

    None for a column with no computable value.  Values that show no spread (a single case,
    or cases all equal) would give ``[v, v]``, a certainty a few cases never give: a column
    of values in [0, 1] then gets the Wilson interval of a proportion equal to its mean over
    as many cases (such a value varies at most as a 0/1 one of that rate does, the rule
    :func:`cases_for_mean` follows too); other values get None for one case.  Columns
    whose computable cases are the same share one draw, and every such group draws from a
    generator of its own seeded with ``seed``: a column's interval depends only on its
    values, ``resamples``, ``level`` and ``seed``, not on which other columns are asked for
    (adding a measure to a report does not move the others' ranges).

    ``keys``: the case of each row; with them, a group of ``resampling.KEYED_FROM`` cases
    or more is resampled by case key (``metrics.resampling``: what a change of one case
    updates without drawing everything again).
    """
    import numpy as np  # here, not at import: the CLI's other commands never load it

    check_level(level)
    _check_resampling(resamples)
    if keys is not None:
        from rag_annotator.metrics import resampling

        if len(keys) >= resampling.KEYED_FROM:
            return resampling.KeyedMeans(
                {name: {k: v for k, v in zip(keys, column) if v is not None}
                 for name, column in columns.items()}, resamples, seed).intervals(level)
    groups: dict[tuple[bool, ...], list[str]] = {}
    for name, column in columns.items():
        groups.setdefault(tuple(v is not None for v in column), []).append(name)
    out: dict[str, Interval | None] = {}
    for mask, names in groups.items():
        keep = [i for i, present in enumerate(mask) if present]
        if not keep:
            out.update(dict.fromkeys(names))
            continue
        values = np.array([[columns[name][i] for name in names] for i in keep],
                          dtype=np.float64)
        means = resampled_means(values, resamples, np.random.default_rng(seed))
        tail = (1 - level) / 2 * 100
        lows, highs = np.percentile(means, [tail, 100 - tail], axis=0)
        for j, name in enumerate(names):
            present = [v for v in columns[name] if v is not None]
            if max(present) == min(present):  # no spread seen
                out[name] = no_spread(float(present[0]), len(present), level)
            else:
                out[name] = Interval(float(lows[j]), float(highs[j]), level)
    return {name: out[name] for name in columns}


def no_spread(value: float, n: int, level: float) -> Interval | None:
    """The interval of a mean whose ``n`` values all equal ``value`` (see
    :func:`bootstrap_means`): a certainty a few cases never give is not written."""
    if 0.0 <= value <= 1.0:
        return wilson_of_rate(value, n, level)
    return None if n == 1 else Interval(value, value, level)


def wilson_of_rate(p: float, n: int, level: float = DEFAULT_LEVEL) -> Interval:
    """The Wilson score interval of an observed rate ``p`` in [0, 1] over ``n`` trials (as
    :func:`wilson` with k = p * n, k not necessarily whole)."""
    z = z_value(level)
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = wilson_half_width(p, n, level)
    low = 0.0 if p == 0.0 else max(0.0, centre - half)
    high = 1.0 if p == 1.0 else min(1.0, centre + half)
    return Interval(low, high, level)


def resampled_means(values: np.ndarray, resamples: int, rng: np.random.Generator
                    ) -> np.ndarray:
    """``resamples`` bootstrap means of each column of ``values`` (cases x columns): a
    (resamples x columns) array.  Each resample draws ``n`` cases with replacement, the same
    cases for every column."""
    import numpy as np

    n = values.shape[0]
    if n == 1:
        return np.repeat(values, resamples, axis=0)
    block = max(1, _BLOCK_CELLS // n)
    parts = []
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        # int64 straight away: bincount would convert int32 indices (measured slower).
        # A bincount over the whole block (size x n counters, 32 MB) missed the CPU cache
        # on every increment; a few resamples per bincount keep their counters in it
        # (issue 19: ~25% faster on 10,000 cases; the same draws, so the same intervals).
        drawn = rng.integers(0, n, size=(size, n), dtype=np.int64)
        counts = np.empty((size, n), dtype=np.float64)
        rows = max(1, _CACHED_COUNTERS // n)  # resamples counted by one bincount
        shift = (np.arange(rows, dtype=np.int64) * n)[:, None]
        for row in range(0, size, rows):
            chunk = drawn[row:row + rows]
            counts[row:row + len(chunk)] = np.bincount(
                (chunk + shift[:len(chunk)]).ravel(), minlength=len(chunk) * n
            ).reshape(len(chunk), n)
        parts.append(counts @ values)
    means: np.ndarray = np.concatenate(parts) / n
    return means


def bootstrap_mean(values: Sequence[float | None], resamples: int = DEFAULT_RESAMPLES,
                   level: float = DEFAULT_LEVEL, seed: int = DEFAULT_SEED) -> Interval | None:
    """:func:`bootstrap_means` of one column."""
    return bootstrap_means({"x": values}, resamples, level, seed)["x"]


@dataclass(frozen=True, slots=True)
class Enough:
    """How far a group is from a narrow enough interval: its ``n`` today, the half-width
    today (None when not computable), the ``needed`` group size to bring it under ``target``
    (None when it cannot be told: no data, or no spread seen yet for a mean) and ``more`` =
    needed - n (0 when already narrow enough)."""

    n: int
    half_width: float | None
    target: float
    needed: int | None

    @property
    def more(self) -> int | None:
        return None if self.needed is None else max(0, self.needed - self.n)

    def to_json(self) -> dict[str, object]:
        return {"n": self.n, "half_width": self.half_width, "target": self.target,
                "needed": self.needed, "more": self.more}


def _check_target(target: float) -> None:
    if not 0.0 < target < 1.0 or math.isnan(target):
        raise ValueError(f"target half-width {target} is not between 0 and 1 (e.g. 0.1)")


def _needed_for_proportion(p: float, target: float, level: float) -> int | None:
    """The smallest size whose Wilson half-width at proportion ``p`` is <= ``target``, by
    bisection (for a fixed proportion the half-width shrinks as the size grows); None beyond
    :data:`MAX_CASES`."""
    if wilson_half_width(p, MAX_CASES, level) > target:
        return None
    low, high = 0, MAX_CASES  # half_width(high) <= target < half_width(low) (or low == 0)
    while high - low > 1:
        middle = (low + high) // 2
        if wilson_half_width(p, middle, level) <= target:
            high = middle
        else:
            low = middle
    return high


def cases_for_proportion(k: int, n: int, target: float = DEFAULT_TARGET_HALF_WIDTH,
                         level: float = DEFAULT_LEVEL) -> Enough:
    """How many trials bring the Wilson half-width under ``target`` if the proportion stays
    what it is today (k/n; 1/2, the widest, when n == 0)."""
    _check_target(target)
    today = wilson(k, n, level)
    needed = _needed_for_proportion(k / n if n else 0.5, target, level)
    return Enough(n, today.half_width if today else None, target, needed)


def sample_sd(values: Sequence[float]) -> float:
    """The sample standard deviation (n - 1), in floating point (numpy's pairwise sums for
    a long column): ``statistics.stdev``'s exact fractions cost 7 ms on 10,000 cases, at
    every judgment, for a difference in the 16th digit."""
    if len(values) >= 500:
        import numpy as np

        return float(np.std(np.fromiter(values, dtype=np.float64, count=len(values)),
                            ddof=1))
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))


def cases_for_mean(values: Sequence[float | None], target: float = DEFAULT_TARGET_HALF_WIDTH,
                   level: float = DEFAULT_LEVEL,
                   half_width: float | None = None) -> Enough:
    """How many cases bring the half-width of a mean's interval under ``target``, from the
    sample standard deviation seen today: ``ceil((z * sd / target)^2)`` (the normal
    approximation the bootstrap tends to).  ``half_width``: today's, when already known (the
    bootstrap's); else the normal one.  ``needed`` is None with no computable value, or one
    outside [0, 1] (no spread seen yet).  Values that are all equal (or a single one) show
    no spread, which says little on a few cases (4 cases at 1.0): for values in [0, 1] the
    size is then the one a proportion equal to their mean needs (a value in [0, 1] of mean
    m varies at most as a 0/1 one of rate m does), so "all 1.0 on 4 cases" asks for more
    cases, as 4/4 does."""
    _check_target(target)
    if len(values) >= 500 and None not in values:  # a long column: numpy's loops
        import numpy as np

        column = np.asarray(values, dtype=np.float64)
        present: Sequence[float] = values  # type: ignore[assignment]
        bounded = bool(((column >= 0.0) & (column <= 1.0)).all())
    else:
        present = [float(v) for v in values if v is not None]
        bounded = len(present) > 0 and all(0.0 <= v <= 1.0 for v in present)
    n = len(present)
    if n == 0 or (n == 1 and not bounded):
        return Enough(n, half_width, target, None)
    sd = sample_sd(present) if n > 1 else 0.0
    z = z_value(level)
    today = half_width if half_width is not None else z * sd / math.sqrt(n)
    mean = sum(present) / n
    if sd == 0.0 and bounded:
        return Enough(n, today, target, _needed_for_proportion(mean, target, level))
    needed = max(1, math.ceil((z * sd / target) ** 2 - 1e-9))
    return Enough(n, today, target, needed)
