"""Latency and cost: nearest-rank median and p90, share under a target, cost per validated."""

from __future__ import annotations

import pytest

from rag_annotator.metrics.answers import AnswerInput
from rag_annotator.metrics.latency import percentile, summarize_latency


def _answer(key: str, latency: int | None, cost: float | None = None,
            validated: bool | None = None, tokens: int | None = None) -> AnswerInput:
    return AnswerInput(key, "ordinary", "answer", True, "answered", validated,
                       latency_ms=latency, cost=cost, tokens=tokens)


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 11)]  # 1..10
    assert percentile(values, 50) == 5.0
    assert percentile(values, 90) == 9.0
    assert percentile(values, 100) == 10.0
    assert percentile(values, 0) == 1.0
    assert percentile([7.0], 90) == 7.0
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(values, 101)


def test_median_p90_and_share_under_target() -> None:
    items = [_answer(f"q{i}", ms) for i, ms in enumerate(
        (900, 1200, 1500, 1800, 1900, 2000, 2100, 2500, 3000, 4000))]
    items.append(AnswerInput("q_none", "ordinary", has_answer=False, latency_ms=None))
    summary = summarize_latency(items, target_ms=2000)
    assert summary.median_ms == 1900.0 and summary.p90_ms == 3000.0
    assert summary.share_under_target == pytest.approx(0.6)  # <= 2000 ms: 6 of 10
    assert summary.cases("over_target") == ("q6", "q7", "q8", "q9")
    assert summary.answers == 10
    assert summarize_latency(items, target_ms=5000).share_under_target == 1.0


def test_answers_without_latency_are_not_timed() -> None:
    summary = summarize_latency([_answer("a", None), _answer("b", 100)])
    assert summary.to_json()["timed"] == 1 and summary.median_ms == 100.0
    empty = summarize_latency([_answer("a", None)])
    assert empty.median_ms is None and empty.share_under_target is None
    assert not empty.has_data


def test_cost_per_validated_answer_counts_every_paid_answer() -> None:
    items = [_answer("a", 10, 0.02, True, 100), _answer("b", 10, 0.03, False, 50),
             _answer("c", 10, 0.01, True, 10)]
    summary = summarize_latency(items)
    assert summary.cost_per_validated == pytest.approx(0.06 / 2)
    assert summary.tokens == 160
    # One answer without a cost: a partial sum would understate the cost.
    partial = summarize_latency([*items, _answer("d", 10, None, True)])
    assert partial.cost_per_validated is None and partial.costed_answers == 3
    # Nothing validated: not computable, not 0 and not infinity.
    assert summarize_latency([_answer("a", 10, 0.5, False)]).cost_per_validated is None


def test_negative_target_is_refused() -> None:
    with pytest.raises(ValueError, match="target"):
        summarize_latency([], target_ms=-1)
