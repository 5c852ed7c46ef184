"""Latency and cost of one run, when its answers carry them (issue 6, item 6).

* median and p90 of the answers' latencies (``latency_ms``), by the nearest-rank rule: the
  p-th percentile is the smallest latency such that at least p % of the answers are at or
  below it (no interpolation: every figure is a latency that was really observed);
* share under a target the user sets: answers with ``latency_ms <= target`` over answers with
  a latency ("90 % under 2 s");
* cost per validated answer: the total cost of the run's answers over the number of validated
  answers (seed 003: an unvalidated answer is paid for too).  ``None`` when nothing is
  validated, or when some answer has no cost recorded (a partial sum would understate it).

Pure over :class:`~rag_annotator.metrics.answers.AnswerInput` values (``latency_ms``,
``cost``, ``tokens``, ``validated``); ``None`` everywhere a figure is not computable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rag_annotator.metrics.answers import AnswerInput, ratio

#: The default latency target, in milliseconds (the CLI's ``--target-ms``).
DEFAULT_TARGET_MS = 2000


def percentile(values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile (``p`` in 0..100) of ``values``; None when empty."""
    if not 0 <= p <= 100:
        raise ValueError(f"percentile {p} is outside 0..100")
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return float(ordered[rank - 1])


@dataclass(frozen=True)
class LatencySummary:
    """The latency and cost figures of one run, with the cases behind them."""

    target_ms: int
    answers: int
    timed_cases: tuple[str, ...]
    under_target_cases: tuple[str, ...]
    median_ms: float | None
    p90_ms: float | None
    max_ms: float | None
    costed_answers: int
    total_cost: float | None
    validated: int
    tokens: int | None

    @property
    def share_under_target(self) -> float | None:
        return ratio(len(self.under_target_cases), len(self.timed_cases))

    @property
    def cost_per_validated(self) -> float | None:
        if self.total_cost is None:
            return None
        return ratio(self.total_cost, self.validated)

    @property
    def has_data(self) -> bool:
        """True when at least one answer carries a latency or a cost."""
        return bool(self.timed_cases) or self.costed_answers > 0

    def cases(self, figure: str) -> tuple[str, ...]:
        """Cases behind ``timed`` / ``under_target`` / ``over_target``."""
        under = set(self.under_target_cases)
        table = {"timed": self.timed_cases, "median_ms": self.timed_cases,
                 "p90_ms": self.timed_cases, "under_target": self.under_target_cases,
                 "share_under_target": self.timed_cases,
                 "over_target": tuple(c for c in self.timed_cases if c not in under)}
        if figure not in table:
            raise ValueError(f"unknown figure {figure!r}; valid: {', '.join(table)}")
        return table[figure]

    def to_json(self) -> dict[str, object]:
        """The ``latency`` block of ``metrics --json``."""
        return {
            "answers": self.answers, "timed": len(self.timed_cases),
            "median_ms": self.median_ms, "p90_ms": self.p90_ms, "max_ms": self.max_ms,
            "target_ms": self.target_ms, "under_target": len(self.under_target_cases),
            "share_under_target": self.share_under_target,
            "costed": self.costed_answers, "total_cost": self.total_cost,
            "validated": self.validated, "cost_per_validated": self.cost_per_validated,
            "tokens": self.tokens,
        }


def summarize_latency(items: Sequence[AnswerInput],
                      target_ms: int = DEFAULT_TARGET_MS) -> LatencySummary:
    """Latency and cost of the answers among ``items`` (cases without an answer skipped)."""
    if target_ms < 0:
        raise ValueError(f"the latency target must be >= 0 ms, not {target_ms}")
    answered = [i for i in items if i.has_answer]
    timed = [i for i in answered if i.latency_ms is not None]
    latencies = [float(i.latency_ms) for i in timed if i.latency_ms is not None]
    costs = [i.cost for i in answered if i.cost is not None]
    total_cost = sum(costs) if costs and len(costs) == len(answered) else None
    tokens = [i.tokens for i in answered if i.tokens is not None]
    return LatencySummary(
        target_ms=target_ms, answers=len(answered),
        timed_cases=tuple(i.case_key for i in timed),
        under_target_cases=tuple(i.case_key for i in timed
                                 if i.latency_ms is not None and i.latency_ms <= target_ms),
        median_ms=percentile(latencies, 50), p90_ms=percentile(latencies, 90),
        max_ms=max(latencies) if latencies else None,
        costed_answers=len(costs), total_cost=total_cost,
        validated=sum(1 for i in answered if i.outcome == "answered" and i.validated),
        tokens=sum(tokens) if tokens else None,
    )
