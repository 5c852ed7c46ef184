"""A run's retrieval report cut by family and by value, for the dashboard.

:func:`family_means` and :func:`distribution` keep the cases behind every number so the
dashboard can list them.  Pure over a :class:`~rag_annotator.metrics.retrieval.Report`; the
report itself is assembled with the run's other figures by ``rag_annotator.reports``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rag_annotator.metrics.retrieval import Report

#: The "every family" key of :func:`family_means` (no family code can start with NUL).
ALL = "\x00all"


def family_means(report: Report, families: Mapping[str, str], measure: str
                 ) -> dict[str, tuple[float | None, list[str], list[str]]]:
    """Family (and ``ALL``) → (mean, cases counted, cases not counted), over the report's
    topics and by its rule (:class:`~rag_annotator.metrics.retrieval.Report`), so the ALL
    row is the report's mean: under ``trec`` a value not defined counts 0; the judged topics
    the run misses (``--all-judged``) count 0 in ALL only."""
    groups: dict[str, tuple[list[float], list[str], list[str]]] = {}
    topics = set(report.topics)
    for case, values in report.per_query.items():
        for key in (families.get(case, ""), ALL):
            values_list, published, other = groups.setdefault(key, ([], [], []))
            value = values[measure]
            if value is None and report.zero_when_undefined and case in topics:
                value = 0.0
            if value is None or case not in topics:
                other.append(case)
            else:
                values_list.append(value)
                published.append(case)
    for case in report.missing_topics:
        values_list, published, _other = groups.setdefault(ALL, ([], [], []))
        values_list.append(0.0)
        published.append(case)
    return {key: (sum(v) / len(v) if v else None, p, o)
            for key, (v, p, o) in groups.items()}


def distribution(report: Report, measure: str, bins: int = 10
                 ) -> list[tuple[str, list[str]]]:
    """The cases of ``measure`` by value bin ``[i/bins, (i+1)/bins)`` (1.0 in the last), then
    ``undetermined`` and ``not defined`` (codes; the UI translates the last two)."""
    out: list[list[str]] = [[] for _ in range(bins)]
    undetermined: list[str] = []
    undefined: list[str] = []
    for case, readings in report.readings.items():
        reading = readings[measure]
        if reading.value is not None:
            out[min(bins - 1, max(0, int(reading.value * bins)))].append(case)
        elif reading.status == "undetermined":
            undetermined.append(case)
        else:
            undefined.append(case)
    rows = [(f"{i / bins:.1f}–{(i + 1) / bins:.1f}", cases) for i, cases in enumerate(out)]
    return [*rows, ("undetermined", undetermined), ("not_defined", undefined)]
