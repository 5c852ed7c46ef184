"""The review samples of the file's automatic judges, measured (issue 22): from the store to
``metrics.judge_sample``, for ``RunFigures.judges``, ``metrics --json`` (``judges``), the
Dashboard and the workbook."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rag_annotator.metrics.judge_sample import JudgeSample, measure_judge
from rag_annotator.storage.store import GoldSetStore

JudgeSamples = dict[str, dict[str, JudgeSample]]


def judge_samples(store: GoldSetStore, level: float = 0.95) -> JudgeSamples:
    """judge name → level → the judge measured on its sample (only drawn samples)."""
    found: JudgeSamples = {}
    for row in store.review_samples():
        judge, unit_level = str(row["judge"]), str(row["level"])
        sample = store.review_sample(judge, unit_level)
        if sample is None:
            continue
        units = store.judged_units(judge, unit_level)
        found.setdefault(judge, {})[unit_level] = measure_judge(
            judge, unit_level, units, sample["items"], level)
    return found


def judges_json(samples: Mapping[str, Mapping[str, JudgeSample]]) -> dict[str, Any]:
    """``{name: {level: {measure: {naive, human, ppi, ppi_ci, n_human, n_judge}, ...}}}``."""
    return {judge: {level: measured.to_json() for level, measured in levels.items()}
            for judge, levels in samples.items()}
