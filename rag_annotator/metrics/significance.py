"""Is run A really better than run B, or is it chance?  A paired comparison per measure
(issue 16, item 2).

Over the cases both runs cover and where both values are computable (the pairing
``metrics.compare`` already makes), per measure:

* the **mean difference** A - B with its percentile bootstrap interval over cases
  (``metrics.intervals``);
* the **paired t-test**'s two-sided p (as ``scipy.stats.ttest_rel``).  scipy is not a
  runtime dependency, and numpy has no t distribution, so the p comes from the regularized
  incomplete beta function :func:`betainc` (the continued fraction of Numerical Recipes,
  evaluated with the modified Lentz method): ``p = I_{df/(df+t^2)}(df/2, 1/2)``;
* the **paired randomization test** (Fisher's, as ranx and Smucker et al., CIKM '07): under
  "the runs are exchangeable" each case's difference is as likely to have the other sign;
  ``permutations`` random sign flips, seeded, and p = share of flips whose mean difference is
  at least as far from 0 as the one observed (ranx's convention: count / permutations);
* **Holm**'s correction of the randomization p-values across the measures (several measures
  are compared at once, so one of eight looking "significant" at 5 % is no news);

and plain words: "better" or "worse" when the Holm-corrected p is under ``1 - level``,
otherwise "no detectable difference with N cases".  The randomization p is the one corrected
and read: it assumes nothing about the shape of the differences, which for bounded, tied
retrieval values a t-test does.

Pure: numbers in, numbers out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag_annotator.metrics.intervals import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    Interval,
)

#: Sign flips of the randomization test when nobody chose (the issue's, and ranx's usual).
DEFAULT_PERMUTATIONS = 10_000
#: Verdict words (the UI translates them).
BETTER, WORSE = "better", "worse"
_CF_EPS = 1e-16
_CF_TINY = 1e-300
_CF_MAX_ITERATIONS = 100_000
#: Flips held at once (flips x cases) by the randomization test.
_BLOCK_CELLS = 4_000_000


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (Numerical Recipes' ``betacf``, modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _CF_TINY else _CF_TINY)
    h = d
    for m in range(1, _CF_MAX_ITERATIONS):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                          -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _CF_TINY else _CF_TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _CF_TINY else _CF_TINY
            delta = d * c
            h *= delta
        if abs(delta - 1.0) < _CF_EPS:
            return h
    raise ArithmeticError(f"incomplete beta: no convergence for a={a}, b={b}, x={x}")


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (``scipy.special.betainc``),
    for a, b > 0 and 0 <= x <= 1."""
    if a <= 0 or b <= 0 or not 0.0 <= x <= 1.0:
        raise ValueError(f"betainc needs a, b > 0 and 0 <= x <= 1 (a={a}, b={b}, x={x})")
    if x in (0.0, 1.0):
        return x
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    # The fraction converges fast for x < (a+1)/(a+b+2); beyond, use I_x(a,b) = 1 - I_1-x(b,a).
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def paired_t(differences: Sequence[float]) -> tuple[float, float] | None:
    """(t, two-sided p) of the paired t-test on the per-case differences (None with fewer
    than two).  Every difference equal: p is 1 when they are all 0 and 0 otherwise (scipy
    says nan and 0; "no difference at all" reads better as p = 1)."""
    import numpy as np  # here, not at import: the CLI's other commands never load it

    n = len(differences)
    if n < 2:
        return None
    diffs = np.asarray(differences, dtype=np.float64)
    mean = float(diffs.mean())
    sd = float(diffs.std(ddof=1))
    if sd == 0.0 or sd < 1e-14 * max(1.0, abs(mean)):
        return (0.0, 1.0) if mean == 0.0 else (math.copysign(math.inf, mean), 0.0)
    t = mean / (sd / math.sqrt(n))
    return t, t_two_sided_p(t, n - 1)


def randomization_p(differences: Sequence[float], permutations: int = DEFAULT_PERMUTATIONS,
                    seed: int = DEFAULT_SEED) -> float | None:
    """The paired randomization test's two-sided p: the share of ``permutations`` random
    sign flips of the differences whose mean is at least as far from 0 as the observed one
    (None with no difference)."""
    if permutations < 1:
        raise ValueError(f"permutations {permutations} is below 1 (e.g. 10000)")
    import numpy as np

    n = len(differences)
    if n == 0:
        return None
    diffs = np.asarray(differences, dtype=np.float64)
    observed = abs(float(diffs.sum())) - 1e-9 * max(1.0, float(np.abs(diffs).sum()))
    rng = np.random.default_rng(seed)
    block = max(1, _BLOCK_CELLS // n)
    at_least = 0
    for start in range(0, permutations, block):
        size = min(block, permutations - start)
        signs = rng.integers(0, 2, size=(size, n), dtype=np.int8) * 2 - 1
        at_least += int(np.count_nonzero(np.abs(signs @ diffs) >= observed))
    return at_least / permutations


def holm(p_values: Mapping[str, float | None]) -> dict[str, float | None]:
    """Holm's step-down adjustment of ``p_values`` (None stays None and does not count as a
    test): the i-th smallest of m becomes max over j <= i of min(1, (m - j + 1) p_j)."""
    tested = sorted((p, name) for name, p in p_values.items() if p is not None)
    m = len(tested)
    adjusted: dict[str, float | None] = dict.fromkeys(p_values)
    running = 0.0
    for i, (p, name) in enumerate(tested):
        running = max(running, min(1.0, (m - i) * p))
        adjusted[name] = running
    return adjusted


@dataclass(frozen=True)
class PairedResult:
    """One measure of a paired comparison of run A with run B (A - B)."""

    measure: str
    cases: tuple[str, ...]
    mean_diff: float | None
    mean_diff_ci: Interval | None
    p_t: float | None
    p_randomization: float | None
    p_holm: float | None
    verdict: str

    @property
    def n(self) -> int:
        return len(self.cases)

    @property
    def significant(self) -> bool:
        return self.verdict in (BETTER, WORSE)

    def to_json(self) -> dict[str, object]:
        """One entry of ``comparison`` in ``metrics --compare OTHER --json``."""
        return {"mean_diff": self.mean_diff,
                "mean_diff_ci": None if self.mean_diff_ci is None
                else self.mean_diff_ci.to_json(),
                "p_t": self.p_t, "p_randomization": self.p_randomization,
                "p_holm": self.p_holm, "verdict": self.verdict, "cases": self.n}


def no_difference(n: int) -> str:
    """The verdict when chance explains the difference."""
    return f"no detectable difference with {n} cases"


def verdict_of(mean_diff: float | None, p_holm: float | None, n: int,
               level: float = DEFAULT_LEVEL) -> str:
    """"better" / "worse" when the corrected p is under 1 - level, else "no detectable
    difference with N cases"."""
    if mean_diff is None or p_holm is None or p_holm >= 1 - level or mean_diff == 0:
        return no_difference(n)
    return BETTER if mean_diff > 0 else WORSE


def paired_comparison(pairs: Mapping[str, Mapping[str, tuple[float | None, float | None]]],
                      measures: Sequence[str], level: float = DEFAULT_LEVEL,
                      resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                      permutations: int = DEFAULT_PERMUTATIONS) -> dict[str, PairedResult]:
    """Measure → :class:`PairedResult` from ``pairs``: case → measure → (value of A, value
    of B), as ``Comparison.per_case``.  A case where either value is None is left out of that
    measure.  Holm's correction runs over the measures given.  A measure over many cases
    resamples by case key (``metrics.paired_live``: what the Dashboard keeps up to date)."""
    from rag_annotator.metrics.paired_live import LivePaired

    return LivePaired(pairs, measures, level, resamples, seed, permutations).results()
