"""metrics.resampling: the keyed (Poisson) bootstrap and sign flips of large groups agree with
scipy's bootstrap and with the plain randomization test, and a group updated case by case
gives what a group built anew gives — the Dashboard's refresh relies on both."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from rag_annotator.metrics.intervals import bootstrap_means
from rag_annotator.metrics.paired_live import LivePaired
from rag_annotator.metrics.resampling import KEYED_FROM, KeyedMeans, KeyedSigns, weights
from rag_annotator.metrics.significance import paired_comparison, randomization_p

N = 2_000


def _values(kind: str, n: int = N, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return {"binary": lambda: (rng.random(n) < 0.3).astype(float),
            "uniform": lambda: rng.random(n),
            "skewed": lambda: rng.beta(0.3, 2.0, n)}[kind]()


def _keys(n: int = N) -> list[str]:
    return [f"Q{i:05d}" for i in range(n)]


@pytest.mark.parametrize("n", [KEYED_FROM, N])
@pytest.mark.parametrize("kind", ["binary", "uniform", "skewed"])
def test_the_keyed_bootstrap_is_within_a_hundredth_of_scipy(kind: str, n: int) -> None:
    values = _values(kind, n)
    ours = bootstrap_means({"m": list(values)}, 10_000, 0.95, 11, keys=_keys(n))["m"]
    peer = stats.bootstrap((values,), np.mean, n_resamples=10_000, method="percentile",
                           confidence_level=0.95, random_state=12).confidence_interval
    assert ours is not None
    assert ours.low == pytest.approx(peer.low, abs=0.01)
    assert ours.high == pytest.approx(peer.high, abs=0.01)
    assert ours.low < float(values.mean()) < ours.high
    # the keyed path was taken: the very interval of the keyed sums, not the multinomial one
    assert ours == KeyedMeans({"m": dict(zip(_keys(n), values))}, 10_000, 11
                              ).intervals(0.95)["m"]
    assert ours != bootstrap_means({"m": list(values)}, 10_000, 0.95, 11)["m"]


def test_a_small_group_keeps_the_multinomial_bootstrap() -> None:
    values = list(_values("uniform", KEYED_FROM - 1))
    keyed = bootstrap_means({"m": values}, 2_000, 0.95, 5, keys=_keys(KEYED_FROM - 1))
    assert keyed == bootstrap_means({"m": values}, 2_000, 0.95, 5)


def test_a_case_weighs_the_same_whatever_the_others() -> None:
    alone = weights(["Q00042"], 500, 7)[0]
    among = weights(["Q00001", "Q00042", "Q99999"], 500, 7)[1]
    assert (alone == among).all()
    assert 0.9 < float(weights(_keys(200), 500, 7).mean()) < 1.1  # Poisson(1)
    assert not (weights(["Q00042"], 500, 8)[0] == alone).all()  # the seed moves them


def test_updated_case_by_case_equals_built_anew() -> None:
    rng = np.random.default_rng(3)
    keys = _keys(600)
    first = {"a": dict(zip(keys, rng.random(600))),
             "b": {k: float(v) for k, v in zip(keys, rng.random(600)) if v > 0.2}}
    live = KeyedMeans(first, 2_000, 9)
    changed = {m: dict(c) for m, c in first.items()}
    for key in rng.choice(keys, 40, replace=False):
        new_a = float(rng.random())
        new_b = None if rng.random() < 0.3 else float(rng.random())
        live.set_case(str(key), {"a": new_a, "b": new_b})
        changed["a"][str(key)] = new_a
        if new_b is None:
            changed["b"].pop(str(key), None)
        else:
            changed["b"][str(key)] = new_b
    fresh = KeyedMeans(changed, 2_000, 9)
    for name, interval in live.intervals(0.95).items():
        other = fresh.intervals(0.95)[name]
        assert interval is not None and other is not None
        assert interval.low == pytest.approx(other.low, abs=1e-9)
        assert interval.high == pytest.approx(other.high, abs=1e-9)


def test_the_keyed_sign_flips_agree_with_the_randomization_test() -> None:
    rng = np.random.default_rng(4)
    diffs = list(rng.normal(0.02, 0.3, N))
    keyed = KeyedSigns({"d": dict(zip(_keys(), diffs))}, 10_000, 5).p_values()["d"]
    plain = randomization_p(diffs, 10_000, 5)
    assert keyed is not None and plain is not None
    assert keyed == pytest.approx(plain, abs=0.02)


def test_a_paired_comparison_kept_up_to_date_equals_one_made_anew() -> None:
    rng = np.random.default_rng(6)
    keys = _keys(400)
    pairs = {k: {"P@5": (float(a), float(b)), "RR": (float(a), None if b < 0.1 else 0.5)}
             for k, a, b in zip(keys, rng.random(400), rng.random(400))}
    live = LivePaired(pairs, ["P@5", "RR"], 0.95, 1_000, 3, 1_000)
    for key in keys[:25]:
        pairs[key] = {"P@5": (0.9, 0.1), "RR": (1.0, 0.0)}
        live.set_case(key, pairs[key])
    fresh = paired_comparison(pairs, ["P@5", "RR"], 0.95, 1_000, 3, 1_000)
    for measure, result in live.results().items():
        other = fresh[measure]
        assert result.cases == other.cases
        assert result.mean_diff == pytest.approx(other.mean_diff)
        assert result.p_randomization == other.p_randomization
        assert result.mean_diff_ci is not None and other.mean_diff_ci is not None
        assert result.mean_diff_ci.low == pytest.approx(other.mean_diff_ci.low, abs=1e-9)
        assert result.verdict == other.verdict
