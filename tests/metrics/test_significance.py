"""metrics.significance against independent peers: the incomplete beta and the paired t-test
against scipy, the randomization test against ranx's ``compare`` (Fisher's randomization
test), Holm against its definition worked by hand."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from rag_annotator.metrics.significance import (
    BETTER,
    WORSE,
    betainc,
    holm,
    paired_comparison,
    paired_t,
    randomization_p,
    t_two_sided_p,
)


@settings(max_examples=500, deadline=None)
@given(a=st.floats(0.01, 5000), b=st.floats(0.01, 5000),
       x=st.floats(0.0, 1.0).filter(lambda x: x == 0.0 or x >= sys.float_info.min))
def test_betainc_equals_scipy_to_1e9(a: float, b: float, x: float) -> None:
    assert betainc(a, b, x) == pytest.approx(float(special.betainc(a, b, x)), abs=1e-9)


@pytest.mark.parametrize("x", [1e-300, 1e-310, 1e-320, 5e-324])
@pytest.mark.parametrize("a", [0.015625, 0.5, 3.0])
def test_betainc_on_subnormal_x_follows_the_closed_form(a: float, x: float) -> None:
    """I_x(a, 2) = (a + 1) x^a - a x^(a+1).  scipy drifts below the smallest normal float
    (8.97e-6 instead of 9.02e-6 for a = 1/64 at 5e-324), hence this peer there."""
    exact = (a + 1) * math.exp(a * math.log(x)) - a * math.exp((a + 1) * math.log(x))
    assert betainc(a, 2.0, x) == pytest.approx(exact, rel=1e-12, abs=1e-300)


def test_betainc_refuses_what_is_outside_its_domain() -> None:
    for a, b, x in ((0, 1, 0.5), (1, -1, 0.5), (1, 1, 1.5)):
        with pytest.raises(ValueError, match="betainc"):
            betainc(a, b, x)


@pytest.mark.parametrize("df", [1, 2, 3, 7, 30, 499, 9999])
@pytest.mark.parametrize("t", [0.0, 0.3, 1.0, 1.96, 2.5, 4.0, 12.0])
def test_t_two_sided_p_is_scipy_t_sf(t: float, df: int) -> None:
    assert t_two_sided_p(t, df) == pytest.approx(2 * stats.t.sf(t, df), abs=1e-9)


@pytest.mark.parametrize("n", [2, 3, 5, 20, 100, 2000])
def test_paired_t_equals_scipy_ttest_rel(n: int) -> None:
    rng = np.random.default_rng(n)
    a = rng.random(n)
    b = np.clip(a + rng.normal(0.05, 0.2, n), 0, 1)
    t, p = paired_t(list(a - b)) or (None, None)
    peer = stats.ttest_rel(a, b)
    assert t == pytest.approx(float(peer.statistic), rel=1e-9)
    assert p == pytest.approx(float(peer.pvalue), abs=1e-9)


def test_paired_t_edge_cases() -> None:
    assert paired_t([0.5]) is None and paired_t([]) is None
    assert paired_t([0.0, 0.0, 0.0]) == (0.0, 1.0)  # no difference at all
    t, p = paired_t([0.2, 0.2, 0.2]) or (0.0, 1.0)
    assert p == 0.0 and t > 0  # the same gain on every case: as scipy, p = 0


@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning")
@pytest.mark.parametrize("boost", [0.0, 0.05, 0.1])
def test_randomization_p_is_within_a_hundredth_of_ranx_compare(boost: float) -> None:
    """The same per-case nDCG@10 (ranx's own) through ranx's compare (Fisher's randomization
    test, 10,000 permutations) and through ours; run b ranks relevant documents higher by
    ``boost`` (from chance to a clear difference)."""
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(5)
    qrels: dict[str, dict[str, int]] = {}
    run_a: dict[str, dict[str, float]] = {}
    run_b: dict[str, dict[str, float]] = {}
    for q in range(60):
        relevant = set(rng.choice(20, 3, replace=False).tolist())
        qrels[f"q{q}"] = {f"d{i}": 1 for i in relevant}
        run_a[f"q{q}"] = {f"d{i}": float(rng.random()) for i in range(20)}
        run_b[f"q{q}"] = {f"d{i}": float(rng.random()) + (boost if i in relevant else 0.0)
                          for i in range(20)}
    a, b = ranx.Run(run_a, name="a"), ranx.Run(run_b, name="b")
    report = ranx.compare(ranx.Qrels(qrels), runs=[a, b], metrics=["ndcg@10"],
                          stat_test="fisher", n_permutations=10_000, max_p=0.05,
                          random_seed=42)
    peer = report.to_dict()["a"]["comparisons"]["b"]["ndcg@10"]
    scores_a, scores_b = a.scores["ndcg@10"], b.scores["ndcg@10"]
    ours = randomization_p([scores_a[q] - scores_b[q] for q in qrels], 10_000, seed=1)
    # Both are Monte Carlo estimates of one p from 10,000 draws, and ranx's figure moved from
    # one run to the next despite its seed (0.0 boost: off by more than 0.01 once in a merged
    # run, within it on the rerun).  Near p = 0.5 the difference of
    # two such estimates has a standard error of 0.007: within 0.01, or within 3.5 of those
    # errors where the draws alone can move the two further apart.
    noise = 3.5 * math.sqrt(2 * peer * (1 - peer) / 10_000)
    assert ours == pytest.approx(peer, abs=max(0.01, noise))


def test_randomization_p_counts_flips_as_far_as_observed() -> None:
    # Two cases: the four sign patterns are equally likely; |mean| >= observed in 2 of 4
    # (+,+ and -,-) for unequal differences.
    p = randomization_p([0.3, 0.1], 20_000, seed=2)
    assert p == pytest.approx(0.5, abs=0.02)
    assert randomization_p([0.0, 0.0], 100) == 1.0
    assert randomization_p([], 100) is None
    assert randomization_p([0.2, 0.1, 0.3], 500, seed=9) \
        == randomization_p([0.2, 0.1, 0.3], 500, seed=9)


def test_holm_by_hand() -> None:
    # m = 4 tests: sorted 0.01, 0.02, 0.03, 0.04 -> 4*0.01, 3*0.02, 2*0.03, 1*0.04, made
    # non-decreasing: 0.04, 0.06, 0.06, 0.06.
    adjusted = holm({"a": 0.03, "b": 0.01, "c": 0.04, "d": 0.02, "e": None})
    assert adjusted == pytest.approx({"a": 0.06, "b": 0.04, "c": 0.06, "d": 0.06,
                                      "e": None})
    assert holm({"x": 0.6, "y": 0.7}) == {"x": 1.0, "y": 1.0}


def test_paired_comparison_words_and_pairs() -> None:
    rng = np.random.default_rng(3)
    pairs: dict[str, dict[str, tuple[float | None, float | None]]] = {}
    for i in range(40):
        base = float(rng.random())
        pairs[f"q{i}"] = {"up": (min(1.0, base + 0.3), base),
                          "down": (base * 0.3, base),
                          "same": (base, base),
                          "noisy": (base + float(rng.normal(0, 0.01)), base),
                          "gaps": (base if i % 2 else None, base)}
    found = paired_comparison(pairs, ["up", "down", "same", "noisy", "gaps"],
                              resamples=2000)
    assert found["up"].verdict == BETTER and found["down"].verdict == WORSE
    assert found["same"].verdict == "no detectable difference with 40 cases"
    assert found["gaps"].n == 20 and found["gaps"].verdict.endswith("with 20 cases")
    up = found["up"]
    assert up.mean_diff is not None and up.mean_diff_ci is not None
    assert up.mean_diff_ci.low <= up.mean_diff <= up.mean_diff_ci.high
    expected_holm = holm({m: r.p_randomization for m, r in found.items()})
    assert {m: r.p_holm for m, r in found.items()} == expected_holm
    data = up.to_json()
    assert set(data) >= {"mean_diff", "mean_diff_ci", "p_t", "p_randomization", "p_holm",
                         "verdict"}
