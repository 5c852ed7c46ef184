"""metrics.intervals: Wilson against scipy's binomtest, the bootstrap against
scipy.stats.bootstrap, "how many more cases" against its own definition, and seed 003's worked
example with its intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rag_annotator.metrics.agents import summarize_items
from rag_annotator.metrics.answers import AnswerInput, summarize_inputs
from rag_annotator.metrics.intervals import (
    bootstrap_mean,
    bootstrap_means,
    cases_for_mean,
    cases_for_proportion,
    wilson,
    wilson_half_width,
    wilson_of_rate,
    z_value,
)
from rag_annotator.metrics.latency import summarize_latency
from rag_annotator.metrics.run_intervals import OVERALL, run_intervals


def seed003_items() -> list[AnswerInput]:
    """Seed 003's fictitious example: ordinary 80 tested / 78 produced / 72 validated,
    sensitive 20 / 2 / 0 (the others abstained)."""
    items = []
    for family, tested, produced, validated in (("ordinary", 80, 78, 72),
                                                ("sensitive", 20, 2, 0)):
        for i in range(tested):
            answered = i < produced
            items.append(AnswerInput(f"{family}-{i}", family, "answer", True,
                                     "answered" if answered else "abstained",
                                     (i < validated) if answered else None))
    return items


def scipy_wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    return ci.low, ci.high


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 5000), data=st.data(),
       level=st.sampled_from((0.5, 0.8, 0.9, 0.95, 0.99, 0.999)))
def test_wilson_equals_scipy_binomtest(n: int, data: st.DataObject, level: float) -> None:
    k = data.draw(st.integers(0, n))
    interval = wilson(k, n, level)
    assert interval is not None
    assert (interval.low, interval.high) == pytest.approx(scipy_wilson(k, n, level),
                                                          abs=1e-12)
    assert interval.low <= k / n <= interval.high


def test_wilson_of_nothing_is_none_and_bad_counts_are_refused() -> None:
    assert wilson(0, 0) is None
    for k, n in ((3, 2), (-1, 4)):
        with pytest.raises(ValueError, match="0 <= k <= n"):
            wilson(k, n)
    for level in (0.0, 1.0, 1.5, math.nan):
        with pytest.raises(ValueError, match="between 0 and 1"):
            wilson(1, 2, level)


def test_z_value_is_the_normal_quantile() -> None:
    assert z_value(0.95) == pytest.approx(stats.norm.ppf(0.975), abs=1e-12)
    assert z_value(0.8) == pytest.approx(stats.norm.ppf(0.9), abs=1e-12)


def test_seed003_worked_example_gives_its_figures_with_intervals() -> None:
    """Ordinary 80 / 78 / 72, sensitive 20 / 2 / 0 (seed 003): the stated figures, now
    with Wilson intervals, and the small family's interval is the wide one."""
    summary = summarize_inputs("A", seed003_items())
    intervals = run_intervals({}, summary, summarize_latency(summary.items),
                              summarize_items("A", []))
    stated = {  # family -> figure -> (value, k, n)
        "ordinary": {"quality": (72 / 78, 72, 78), "coverage": (0.975, 78, 80),
                     "success": (0.9, 72, 80)},
        "sensitive": {"quality": (0.0, 0, 2), "coverage": (0.10, 2, 20),
                      "success": (0.0, 0, 20)},
        OVERALL: {"quality": (0.90, 72, 80), "coverage": (0.80, 80, 100),
                  "success": (0.72, 72, 100)},
    }
    for family, figures in stated.items():
        group = summary.group(family)
        for figure, (value, k, n) in figures.items():
            assert getattr(group, figure) == pytest.approx(value)
            interval = intervals.answer(figure, family)
            assert interval is not None
            assert (interval.low, interval.high) == pytest.approx(scipy_wilson(k, n))
            assert interval.low <= value <= interval.high
    # "90 % overall is not a production authorisation": 72/80 reaches down to ~81 %.
    overall_quality = intervals.answer("quality")
    assert overall_quality is not None
    assert 0.80 < overall_quality.low < 0.82 and 0.94 < overall_quality.high < 0.96
    sensitive = intervals.answer("quality", "sensitive")
    ordinary = intervals.answer("quality", "ordinary")
    assert sensitive is not None and ordinary is not None
    assert sensitive.half_width > 4 * ordinary.half_width  # 0/2 says almost nothing
    enough = intervals.enough["sensitive"]["quality"]
    assert enough.n == 2 and enough.more is not None and enough.more > 0


def test_bootstrap_is_reproducible_for_a_seed_and_moves_with_it() -> None:
    values = list(np.random.default_rng(7).random(30))
    assert bootstrap_mean(values, seed=3) == bootstrap_mean(values, seed=3)
    assert bootstrap_mean(values, seed=3) != bootstrap_mean(values, seed=4)


@pytest.mark.parametrize(("n", "distribution"), [
    (12, "binary"), (40, "uniform"), (200, "skewed"), (5, "uniform")])
def test_bootstrap_is_within_a_hundredth_of_scipy(n: int, distribution: str) -> None:
    rng = np.random.default_rng(n)
    values = {"binary": lambda: (rng.random(n) < 0.3).astype(float),
              "uniform": lambda: rng.random(n),
              "skewed": lambda: rng.beta(0.3, 2.0, n)}[distribution]()
    ours = bootstrap_mean(list(values), resamples=10_000, seed=11)
    peer = stats.bootstrap((values,), np.mean, n_resamples=10_000, method="percentile",
                           confidence_level=0.95, random_state=12).confidence_interval
    assert ours is not None
    assert ours.low == pytest.approx(peer.low, abs=0.01)
    assert ours.high == pytest.approx(peer.high, abs=0.01)


def test_not_computable_cases_are_left_out_of_that_measure_only() -> None:
    rng = np.random.default_rng(1)
    full = list(rng.random(25))
    holes: list[float | None] = [v if i % 3 else None for i, v in enumerate(full)]
    found = bootstrap_means({"full": full, "holes": holes, "none": [None] * 25,
                             "one": [0.4] + [None] * 24}, seed=5)
    alone = bootstrap_mean([v for v in holes if v is not None], seed=5)
    assert found["holes"] == alone  # the same as resampling the computable cases only
    assert found["full"] == bootstrap_mean(full, seed=5)
    assert found["none"] is None
    one = found["one"]  # one case shows no spread: the Wilson interval of its rate
    assert one is not None and one == wilson_of_rate(0.4, 1) and one.low < 0.4 < one.high


def test_bootstrap_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="resamples 0"):
        bootstrap_mean([0.1, 0.2], resamples=0)
    with pytest.raises(ValueError, match="level"):
        bootstrap_mean([0.1, 0.2], level=1.5)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(0, 300), data=st.data(),
       target=st.sampled_from((0.02, 0.05, 0.1, 0.2)))
def test_cases_for_proportion_is_the_smallest_size_under_the_target(
        n: int, data: st.DataObject, target: float) -> None:
    k = data.draw(st.integers(0, n))
    enough = cases_for_proportion(k, n, target)
    p = k / n if n else 0.5
    assert enough.needed is not None
    assert wilson_half_width(p, enough.needed) <= target
    if enough.needed > 1:
        assert wilson_half_width(p, enough.needed - 1) > target
    assert enough.more == max(0, enough.needed - n)
    if n:
        today = wilson(k, n)
        assert today is not None and enough.half_width == pytest.approx(today.half_width)
        if today.half_width <= target:
            assert enough.more == 0


def test_cases_for_mean_follows_the_sample_spread() -> None:
    values = [0.0, 1.0, 0.5, 0.25, 0.75, 1.0, 0.0, 0.5]
    enough = cases_for_mean(values, target=0.1)
    sd = float(np.std(values, ddof=1))
    assert enough.needed == math.ceil((stats.norm.ppf(0.975) * sd / 0.1) ** 2)
    assert enough.more == enough.needed - 8
    assert cases_for_mean([], target=0.1).needed is None
    assert cases_for_mean([3.5], target=0.1).needed is None  # unbounded, no spread seen yet
    # One value in [0, 1]: as many as a proportion equal to it would need.
    assert cases_for_mean([0.3], target=0.1).needed \
        == cases_for_proportion(3, 10, target=0.1).needed
    # All equal on a few cases: as many as a proportion equal to their mean would need.
    assert cases_for_mean([1.0] * 4, target=0.1).needed \
        == cases_for_proportion(4, 4, target=0.1).needed
    with pytest.raises(ValueError, match="target"):
        cases_for_mean(values, target=0)


def test_values_without_spread_never_read_as_certain() -> None:
    """One case at 0.4, or three at 0.0, showed [0.40-0.40] and [0-0] on the sample's
    Dashboard: no spread seen on a few cases is not certainty.  Values in [0, 1] get the
    Wilson interval of that rate over as many cases (scipy's, where the count is whole)."""
    from scipy import stats

    from rag_annotator.metrics.intervals import bootstrap_means

    out = bootstrap_means({"one": [0.4], "zeros": [0.0, 0.0, 0.0], "ones": [1.0] * 4,
                           "big": [3.0], "spread": [0.0, 1.0, 0.5]}, 2000)
    one, zeros, ones = out["one"], out["zeros"], out["ones"]
    assert one is not None and one.low < 0.4 < one.high and one.high - one.low > 0.5
    for got, (k, n) in ((zeros, (0, 3)), (ones, (4, 4))):
        ci = stats.binomtest(k, n).proportion_ci(method="wilson")
        assert got is not None and (got.low, got.high) == pytest.approx((ci.low, ci.high))
    assert out["big"] is None  # one value outside [0, 1]: no interval to give
    spread = out["spread"]
    assert spread is not None and spread.low < spread.high  # the bootstrap, as before
