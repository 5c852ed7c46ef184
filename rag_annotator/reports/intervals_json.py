"""The intervals of ``metrics --json`` and the native JSON's derived figures (issue 16):
beside every proportion or mean ``X`` of the rendered object, ``X_ci: [low, high]`` (null
where ``X`` is null or has no interval).  A rendering only: every range comes from
``RunFigures.intervals`` (``metrics.run_intervals``).

A figure inside a block (``task_success: {rate, ...}``, ``abstention: {rate, ...}``) gets
its range beside the block (``task_success_ci``), and the violation rates one
``violations_ci`` (code → range) beside ``violations``, so the blocks keep their keys.
Keys added, besides each figure's ``_ci``: ``mean_ci`` (beside ``mean``: measure →
range), ``mean_per_family`` and ``mean_per_family_ci`` (family → measure → mean / range),
``mean_per_family_count`` (family → measure → cases counted), ``interval_level``,
``enough`` (family, ``overall`` for the run → figure → ``n``,
``half_width``, ``target``, ``needed``, ``more``) and, with ``--compare``, ``comparison``
(measure → ``mean_diff``, ``mean_diff_ci``, ``p_t``, ``p_randomization``, ``p_holm``,
``verdict``, ``cases``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rag_annotator.metrics.intervals import Interval
from rag_annotator.metrics.run_intervals import OVERALL, FigureIntervals
from rag_annotator.reports.run_figures import RunFigures

#: The JSON key of the whole run where families are listed.
OVERALL_KEY = "overall"


def ci(interval: Interval | None) -> list[float] | None:
    """``[low, high]`` or None."""
    return None if interval is None else interval.to_json()


def _beside(block: dict[str, Any], key: str, interval: Interval | None) -> None:
    """Put ``key_ci`` right after ``key`` (dicts keep insertion order; a person reading the
    JSON sees the range beside the figure)."""
    if key in block:
        _insert_after(block, f"{key}", f"{key}_ci",
                      None if block[key] is None else ci(interval))


def _insert_after(block: dict[str, Any], key: str, new_key: str, value: object) -> None:
    items = list(block.items())
    block.clear()
    for k, v in items:
        block[k] = v
        if k == key:
            block[new_key] = value


def _beside_block(block: dict[str, Any], key: str, interval: Interval | None) -> None:
    """``key_ci`` after ``key`` whose value is a block with a ``rate`` (``task_success``,
    ``abstention``...): the range of that rate.  Beside the block, not inside it, so the
    block keeps the exact keys it had before issue 16."""
    if key in block:
        _insert_after(block, key, f"{key}_ci",
                      None if block[key]["rate"] is None else ci(interval))


def _family(key: str | None) -> str:
    return OVERALL_KEY if key is OVERALL else str(key)


def retrieval_json(data: dict[str, Any], figures: RunFigures) -> None:
    """``mean_ci``, ``mean_per_family``, ``mean_per_family_ci`` and
    ``mean_per_family_count`` (how many cases each mean counts) of the retrieval report:
    the run's figures as they are (``reports.figure``)."""
    overall = figures.intervals.retrieval.get(OVERALL, {})
    data["mean_ci"] = {m: None if v is None else ci(overall.get(m))
                       for m, v in data.get("mean", {}).items()}
    families = [f for f in figures.groups if f is not OVERALL]
    measures = list(figures.report.measures)
    shown = {str(f): {m: figures.figure(m, f) for m in measures} for f in families}
    data["mean_per_family"] = {f: {m: None if x is None else x.value for m, x in v.items()}
                               for f, v in shown.items()}
    data["mean_per_family_ci"] = {
        f: {m: None if x is None or x.value is None else ci(x.interval)
            for m, x in v.items()} for f, v in shown.items()}
    data["mean_per_family_count"] = {f: {m: 0 if x is None else x.n for m, x in v.items()}
                                     for f, v in shown.items()}


def answers_json(block: dict[str, Any], intervals: FigureIntervals) -> None:
    """The ``answers`` block: every family, overall, the claim shares and abstention."""
    groups: list[tuple[str | None, dict[str, Any]]] = [(OVERALL, block["overall"])]
    groups += list(block["per_family"].items())
    for family, group in groups:
        for name in ("quality", "coverage", "success", "abstention_rate",
                     "faithfulness_mean"):
            _beside(group, name, intervals.answer(name, family))
    for name, interval in intervals.answer_shares.items():
        _beside(block, name, interval)
    _beside_block(block, "abstention", intervals.answer("abstention_rate"))


def agents_json(block: dict[str, Any], intervals: FigureIntervals) -> None:
    """The ``agents`` block (or its native-JSON subset): every family and overall."""
    groups: list[tuple[str | None, dict[str, Any]]] = [(OVERALL, block["overall"])]
    groups += list(block["per_family"].items())
    for family, group in groups:
        for key, name in (("task_success", "task_success_rate"),
                          ("path_acceptable", "path_acceptable_rate"), ("both", "both_rate")):
            _beside_block(group, key, intervals.agent(name, family))
        for name in ("mean_steps", "mean_tokens", "mean_seconds"):
            _beside(group, name, intervals.agent(name, family))
        _insert_after(group, "violations", "violations_ci", {
            code: None if v["rate"] is None else ci(intervals.violation(code, family))
            for code, v in group["violations"].items()})


def enough_json(intervals: FigureIntervals) -> dict[str, dict[str, object]]:
    """Family (``overall`` for the run) → figure → how many more cases."""
    return {_family(f): {name: e.to_json() for name, e in v.items()}
            for f, v in intervals.enough.items()}


def comparison_json(figures: RunFigures) -> dict[str, object] | None:
    """``comparison`` of ``metrics --compare OTHER --json`` (None without a comparison)."""
    if figures.significance is None:
        return None
    return {m: r.to_json() for m, r in figures.significance.items()}


def add_intervals(data: dict[str, Any], figures: RunFigures) -> None:
    """Add the ranges to the ``metrics --json`` object ``data`` rendered from ``figures``."""
    intervals = figures.intervals
    data["interval_level"] = intervals.level
    retrieval_json(data, figures)
    answers_json(data["answers"], intervals)
    if "latency" in data:
        _beside(data["latency"], "share_under_target",
                intervals.latency.get("share_under_target"))
    agents_json(data["agents"], intervals)
    data["enough"] = enough_json(intervals)
    comparison = comparison_json(figures)
    if comparison is not None:
        data["comparison"] = comparison


def ranges(mapping: Mapping[str, Interval | None]) -> dict[str, list[float] | None]:
    """Name → ``[low, high]`` or None."""
    return {k: ci(v) for k, v in mapping.items()}
