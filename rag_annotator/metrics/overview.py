"""The dashboard's figures for one run, computed without Qt (the UI only lays them out).

:func:`compute` gathers, for one run, one unjudged-document policy and an optional second run:
the retrieval report, the answer summary (seed 003's decomposition), the diagnosis, latency
and cost, the comparison and, under ``strict``, the pairs to judge next.  :func:`family_means`
and :func:`distribution` cut a report by family and by value, keeping the cases behind every
number so the dashboard can list them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rag_annotator.metrics.answers import AnswerInput, AnswerSummary, summarize_inputs
from rag_annotator.metrics.compare import Comparison, compare_reports, load_queries
from rag_annotator.metrics.diagnosis import Diagnosis, diagnose_run
from rag_annotator.metrics.judge_next import Suggestion, next_to_judge
from rag_annotator.metrics.latency import LatencySummary, summarize_latency
from rag_annotator.metrics.retrieval import DEFAULT_MEASURES, Report, evaluate
from rag_annotator.metrics.values import Policy

if TYPE_CHECKING:
    from rag_annotator.storage.store import GoldSetStore

#: Above this many cases, :func:`compute` does not rank the pairs to judge next (that costs
#: up to ~25 ms per case; the Judge section ranks them for the case at hand).
NEXT_CASES_LIMIT = 2_000

#: The "every family" key of :func:`family_means` (no family code can start with NUL).
ALL = "\x00all"


@dataclass(frozen=True)
class Figures:
    """Everything the dashboard shows for one run, policy and comparison."""

    run: str
    policy: Policy
    report: Report
    families: dict[str, str]
    answers: AnswerSummary
    diagnosis: Diagnosis
    latency: LatencySummary
    comparison: Comparison | None
    case_families: dict[str, str]
    next_pairs: tuple[Suggestion, ...] = ()


def compute(store: GoldSetStore, run: str, policy: Policy, other: str | None,
            target_ms: int, measures: Sequence[str] = DEFAULT_MEASURES,
            next_count: int = 10) -> Figures:
    """Read and compute every figure (pure apart from the store's reads).

    Under ``strict``, also the ``next_count`` pairs of this run to judge next
    (:func:`~rag_annotator.metrics.judge_next.next_to_judge`)."""
    queries = load_queries(store, run)
    rows = store.answer_inputs(run)
    diagnosis = diagnose_run(store, run, answer_rows=rows)
    families = {r["case_key"]: r["family"] for r in rows}
    report = evaluate(queries, measures, policy)
    items = [AnswerInput.from_row(r) for r in rows]
    comparison = None
    case_families = store.case_families()
    if other and other != run:
        other_report = evaluate(load_queries(store, other), measures, policy)
        comparison = compare_reports(run, report, other, other_report, case_families)
    upcoming: tuple[Suggestion, ...] = ()
    if policy is Policy.STRICT and next_count > 0 and len(queries) <= NEXT_CASES_LIMIT:
        upcoming = tuple(next_to_judge(queries, measures, run)[:next_count])
    return Figures(run, policy, report, families, summarize_inputs(run, items), diagnosis,
                   summarize_latency(items, target_ms), comparison, case_families, upcoming)


def family_means(report: Report, families: dict[str, str], measure: str
                 ) -> dict[str, tuple[float | None, list[str], list[str]]]:
    """Family (and ``ALL``) → (mean over published, published cases, unpublished cases)."""
    groups: dict[str, tuple[list[float], list[str], list[str]]] = {}
    for case, values in report.per_query.items():
        for key in (families.get(case, ""), ALL):
            values_list, published, other = groups.setdefault(key, ([], [], []))
            value = values[measure]
            if value is None:
                other.append(case)
            else:
                values_list.append(value)
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
