"""Prediction-powered inference (PPI) of a mean: a judge's labels on every item corrected by
a human sample.

Angelopoulos et al., "Prediction-powered inference", Science 382 (2023): with the judge's
label ``f(x)`` on all ``N`` items and the human's label ``y`` on ``n`` of them drawn at
random,

    theta = mean(f over the N items) + mean(y - f over the n sampled)

is unbiased for the human mean whatever the judge's errors; its normal interval adds the
variances of both terms: ``sd(f) / sqrt(N)`` and ``sd(y - f) / sqrt(n)`` (population
standard deviations, ``ddof=0``, as ``ppi_py.ppi_mean_ci`` with ``lam=1``, which the tests
compare with).  This is the plain PPI estimator (no power tuning): its interval is never
wider than it should be because of a tuning step fitted on the same sample.

Stratified (the sample was drawn per stratum, stratum ``h`` holding ``N_h`` of the items):
each stratum gets its own estimate and variance, combined with the weights ``W_h = N_h / N``:
``theta = sum W_h theta_h`` and ``var = sum W_h^2 var_h + sum W_h (theta_h - theta)^2 / N``.
The last term is the variance of the weights themselves (the strata are the judge's labels,
so their shares are as random as the N items: without it the interval covered 90 % where it
claimed 95 % in the simulation of the tests).  A stratum no human label reached
(a tiny stratum a proportional draw rounded to zero) uses the pooled correction
``mean(y - f)`` of the whole sample and its variance, so the estimate stays defined; that
stratum's share of the variance is then only as good as the pooled sample.

Pure: numbers in, numbers out (numpy is imported inside the functions).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag_annotator.metrics.intervals import Interval, check_level, z_value


@dataclass(frozen=True)
class PpiEstimate:
    """A corrected mean with its interval and the sizes it rests on."""

    value: float
    interval: Interval
    n_human: int
    n_judge: int
    stratified: bool = False

    def to_json(self) -> dict[str, object]:
        return {"ppi": self.value, "ppi_ci": self.interval.to_json(),
                "n_human": self.n_human, "n_judge": self.n_judge,
                "stratified": self.stratified}


def _moments(human: Sequence[float], judge_sampled: Sequence[float],
             judge_all: Sequence[float]) -> tuple[float, float]:
    """(estimate, variance) of one stratum (or of the whole population)."""
    import numpy as np

    y = np.asarray(human, dtype=float)
    f = np.asarray(judge_sampled, dtype=float)
    f_all = np.asarray(judge_all, dtype=float)
    rectifier = y - f
    value = float(f_all.mean() + rectifier.mean())
    variance = float(f_all.var() / f_all.size + rectifier.var() / rectifier.size)
    return value, variance


def _check(human: Sequence[float], judge_sampled: Sequence[float],
           judge_all: Sequence[float]) -> None:
    if len(human) != len(judge_sampled):
        raise ValueError("PPI needs the judge's label of every human-labelled item "
                         f"({len(human)} human labels, {len(judge_sampled)} judge labels)")


def ppi_mean(human: Sequence[float], judge_sampled: Sequence[float],
             judge_all: Sequence[float], level: float = 0.95) -> PpiEstimate | None:
    """The PPI mean of one population (None without a human label or a judge label).

    ``judge_all`` holds the judge's label on every item of the population (the sampled
    ones included); ``human`` and ``judge_sampled`` the two labels of each sampled item.
    """
    check_level(level)
    _check(human, judge_sampled, judge_all)
    if not human or not judge_all:
        return None
    value, variance = _moments(human, judge_sampled, judge_all)
    return _estimate(value, variance, level, len(human), len(judge_all), False)


def _estimate(value: float, variance: float, level: float, n: int, big_n: int,
              stratified: bool) -> PpiEstimate:
    half = z_value(level) * math.sqrt(max(variance, 0.0))
    return PpiEstimate(value, Interval(value - half, value + half, level), n, big_n,
                       stratified)


@dataclass(frozen=True)
class Stratum:
    """One stratum's labels: the judge's on all its items, both on its sampled items."""

    judge_all: Sequence[float]
    human: Sequence[float] = ()
    judge_sampled: Sequence[float] = ()


def ppi_mean_stratified(strata: Mapping[str, Stratum],
                        level: float = 0.95) -> PpiEstimate | None:
    """The stratified PPI mean (see the module's docstring); None without a human label."""
    check_level(level)
    for stratum in strata.values():
        _check(stratum.human, stratum.judge_sampled, stratum.judge_all)
    pooled_y = [y for s in strata.values() for y in s.human]
    pooled_f = [f for s in strata.values() for f in s.judge_sampled]
    big_n = sum(len(s.judge_all) for s in strata.values())
    if not pooled_y or not big_n:
        return None
    import numpy as np

    pooled = np.asarray(pooled_y, dtype=float) - np.asarray(pooled_f, dtype=float)
    parts: list[tuple[float, float, float]] = []  # (W_h, theta_h, var_h)
    for stratum in strata.values():
        size = len(stratum.judge_all)
        if not size:
            continue
        if stratum.human:
            theta, var = _moments(stratum.human, stratum.judge_sampled, stratum.judge_all)
        else:
            f_all = np.asarray(stratum.judge_all, dtype=float)
            theta = float(f_all.mean() + pooled.mean())
            var = float(f_all.var() / size + pooled.var() / pooled.size)
        parts.append((size / big_n, theta, var))
    value = sum(w * theta for w, theta, _v in parts)
    variance = (sum(w * w * var for w, _t, var in parts)
                + sum(w * (theta - value) ** 2 for w, theta, _v in parts) / big_n)
    return _estimate(value, variance, level, len(pooled_y), big_n, True)


def weighted_mean(values: Sequence[float], weights: Sequence[float]) -> float | None:
    """The mean of ``values`` weighted by ``weights`` (inverse inclusion probabilities: the
    human sample's own estimate of the population mean); None when empty."""
    total = sum(weights)
    if not values or total <= 0:
        return None
    return sum(v * w for v, w in zip(values, weights)) / total
