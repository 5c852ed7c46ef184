"""JSON renderings of :class:`~rag_annotator.reports.run_figures.RunFigures`: the object
``metrics --json`` prints (DESIGN section 6) and the derived agent figures the native JSON
export carries (``agent_metrics``).  Renderings only: every number comes from the value."""

from __future__ import annotations

from typing import Any

from rag_annotator.reports.file_figures import FileFigures
from rag_annotator.reports.intervals_json import add_intervals, agents_json
from rag_annotator.reports.run_figures import RunFigures

#: The keys of a run's agent figures the native JSON keeps (no per-trajectory detail).
NATIVE_AGENT_KEYS = ("trajectories", "retired_excluded", "overall", "per_family")


def metrics_json(figures: RunFigures, file: FileFigures | None = None) -> dict[str, Any]:
    """The object ``metrics --json`` prints: the retrieval report (``run``, ``unjudged``,
    ``measures``, ``per_query``, ``mean``…, and ``by_document``: whether passages were
    rolled up to their documents), then ``answers``, ``diagnosis``, ``exposure``,
    ``latency`` (when the answers carry any), ``agents``, ``compare`` (when asked) and
    ``next`` (when asked, even empty); beside every proportion and mean ``X``, ``X_ci`` and
    the keys ``reports.intervals_json`` lists (``comparison`` with ``compare``); with the
    file's figures, ``judges`` (the automatic judges measured on their review samples)."""
    data = figures.report.to_json(figures.run)
    data["by_document"] = figures.options.by_document
    data["answers"] = figures.answers.to_json()
    data["diagnosis"] = figures.diagnosis.to_json()
    data["exposure"] = figures.rights.to_json()
    if figures.latency.has_data:
        data["latency"] = figures.latency.to_json()
    data["agents"] = figures.agents.to_json()
    data["structured"] = figures.structured.to_json()
    if figures.comparison is not None:
        data["compare"] = figures.comparison.to_json()
    if figures.options.next_count:
        data["next"] = [{"case": s.case_key, "document": s.document_key,
                         "settles": s.settles, "narrows": s.narrows,
                         "values": [m for _run, m in s.values]} for s in figures.next_pairs]
    add_intervals(data, figures)
    if file is not None and file.judges:  # file-wide: the same for every run
        data["judges"] = file.judges_json()
    return data


def native_agent_json(figures: RunFigures) -> dict[str, Any]:
    """One run's entry of the native JSON's ``agent_metrics`` section."""
    data = figures.agents.to_json()
    kept = {k: data[k] for k in NATIVE_AGENT_KEYS}
    agents_json(kept, figures.intervals)
    return kept
