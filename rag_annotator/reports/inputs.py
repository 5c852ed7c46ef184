"""The store reads behind the figures: each function loads one kind of input of a run through
the store and hands it, as plain values, to the pure functions of ``rag_annotator.metrics``.

This is the only place where the metrics meet the store (``metrics/`` imports no store);
:func:`rag_annotator.reports.run_figures.build` assembles a run's figures from these reads,
and the few callers that want one figure alone (the Judge section's pairs to judge next, the
Verify section's calibration of an automatic judge) call the matching function here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from rag_annotator.domain.rights import Identities
from rag_annotator.gc_pause import bulk_objects
from rag_annotator.metrics.agents import AgentSummary, summarize_rows
from rag_annotator.metrics.answers import AnswerInput, AnswerSummary, summarize_inputs
from rag_annotator.metrics.calibration import calibration_report as calibration_figures
from rag_annotator.metrics.compare import Comparison, compare_reports
from rag_annotator.metrics.diagnosis import (
    DEFAULT_DEPTH,
    OPEN_RIGHTS,
    Diagnosis,
    DiagnosisInput,
    diagnose,
    diagnosis_input,
)
from rag_annotator.metrics.judge_next import Suggestion, next_over_runs
from rag_annotator.metrics.measures import parse_measures
from rag_annotator.metrics.retrieval import (
    DEFAULT_MEASURES,
    MeasureList,
    Report,
    evaluate,
    evaluate_arrays,
)
from rag_annotator.metrics.rollup import roll_up
from rag_annotator.metrics.values import Policy, QueryInput
from rag_annotator.storage.store import GoldSetStore

#: An empty diagnosis entry (a case with no document that can show a failure).
_NO_DOCUMENTS: Mapping[str, Any] = {"top": [], "expected": [], "cited": []}


def load_queries(store: GoldSetStore, run: str, *, by_document: bool = False
                 ) -> dict[str, QueryInput]:
    """The retrieval inputs of ``run``: case key → :class:`QueryInput` (fast store read);
    ``by_document``: passages rolled up to their documents (``metrics.rollup``)."""
    max_grade = int(store.meta("max_grade", "1") or 1)
    queries = {case: QueryInput(ranking, labels, max_grade)
               for case, (ranking, labels) in store.metric_inputs(run).items()}
    return by_document_inputs(store, queries) if by_document else queries


def by_document_inputs(store: GoldSetStore, queries: Mapping[str, QueryInput]
                       ) -> dict[str, QueryInput]:
    """A run's inputs with its passages rolled up to their documents."""
    return roll_up(queries, store.passage_parents())


def run_report(store: GoldSetStore, run: str, measures: MeasureList = DEFAULT_MEASURES,
               policy: Policy | str = Policy.TREC, *, relevance_level: int = 1,
               judged_topics: Collection[str] | None = None,
               by_document: bool = False) -> Report:
    """``evaluate(load_queries(store, run), …)``: under ``trec``, on the run's arrays
    (``store.ranked_grades``, ``metrics.trec_arrays``; issue 19, ~4.5x less CPU on 10,000
    cases x 100 documents), else, or for a grade above the scale (whose error the case by
    case path words), or ``by_document`` (passages rolled up), case by case."""
    if by_document:
        return evaluate(load_queries(store, run, by_document=True), measures, policy,
                        relevance_level=relevance_level, judged_topics=judged_topics)
    if Policy.parse(policy) is Policy.TREC:
        max_grade = int(store.meta("max_grade", "1") or 1)
        ranked = store.ranked_grades(run)
        grades_seen = ranked.histogram.any(axis=0).nonzero()[0]
        if max_grade >= max(1, int(grades_seen.max(initial=0))):
            report = evaluate_arrays(ranked.keys, ranked.starts, ranked.lengths,
                                     ranked.grades, ranked.histogram, measures,
                                     relevance_level=relevance_level,
                                     judged_topics=judged_topics)
            if report is not None:
                return report
    return evaluate(load_queries(store, run), measures, policy,
                    relevance_level=relevance_level, judged_topics=judged_topics)


def judged_topics(store: GoldSetStore) -> set[str]:
    """The RAG cases with at least one effective, undisputed label: the topics of the qrels
    the app exports, which ``--all-judged`` (trec_eval ``-c``) averages over."""
    agents = set(store.agent_case_ids())
    return {case for case, _doc, grade, disputed in store.effective_labels()
            if grade is not None and not disputed and case not in agents}


def answer_inputs(store: GoldSetStore, run: str) -> list[AnswerInput]:
    """The answer inputs of one run (raises NotFound for an unknown run)."""
    return [AnswerInput.from_row(row) for row in store.answer_inputs(run)]


def summarize_answers(store: GoldSetStore, run: str) -> AnswerSummary:
    """The answer metrics of ``run`` (seed 003's denominators, claims, abstention)."""
    return summarize_inputs(run, answer_inputs(store, run))


def diagnosis_inputs(store: GoldSetStore, run: str, depth: int = DEFAULT_DEPTH,
                     answer_rows: Sequence[Mapping[str, Any]] | None = None
                     ) -> list[DiagnosisInput]:
    """One run's diagnosis inputs (``answer_rows`` = ``store.answer_inputs(run)`` if the
    caller already has them)."""
    if depth < 1:
        raise ValueError(f"the diagnosis depth must be >= 1, not {depth}")
    rows = store.answer_inputs(run) if answer_rows is None else answer_rows
    documents = store.diagnosis_documents(run, depth, OPEN_RIGHTS)
    identities = Identities.from_rows(store.identity_rows())
    return [diagnosis_input(row, documents.get(row["case_key"], _NO_DOCUMENTS), identities)
            for row in rows]


def diagnose_run(store: GoldSetStore, run: str, depth: int = DEFAULT_DEPTH,
                 answer_rows: Sequence[Mapping[str, Any]] | None = None) -> Diagnosis:
    """Read and diagnose one run."""
    return diagnose(run, diagnosis_inputs(store, run, depth, answer_rows), depth)


def summarize_agents(store: GoldSetStore, run: str) -> AgentSummary:
    """The agent metrics of ``run`` (empty when it holds no trajectory)."""
    with bulk_objects():
        return summarize_rows(run, store.agent_inputs(run))


def compare(store: GoldSetStore, run_a: str, run_b: str,
            measures: MeasureList = DEFAULT_MEASURES, policy: Policy | str = Policy.TREC,
            family: str | None = None) -> Comparison:
    """Read both runs and compare them, per case and measure."""
    chosen = parse_measures(measures)
    report_a = evaluate(load_queries(store, run_a), chosen, policy)
    report_b = evaluate(load_queries(store, run_b), chosen, policy)
    return compare_reports(run_a, report_a, run_b, report_b, store.case_families(), family)


def suggestions(store: GoldSetStore, runs: Sequence[str] | None = None,
                measures: MeasureList = DEFAULT_MEASURES,
                cases: Collection[str] | None = None) -> list[Suggestion]:
    """The pairs to judge next over ``runs`` (every run if None), counted over all of them
    (:func:`~rag_annotator.metrics.judge_next.next_over_runs`); ``cases`` restricts the
    search to these case keys.  Each run is read when its turn comes."""
    names = store.run_names() if runs is None else list(runs)

    def each_run() -> Iterator[tuple[str, dict[str, QueryInput]]]:
        for run in names:
            yield run, load_queries(store, run)

    return next_over_runs(each_run(), measures, cases)


def calibration_report(store: GoldSetStore, judge: str) -> dict[str, Any]:
    """Human vs the automatic ``judge`` on claims
    (:func:`~rag_annotator.metrics.calibration.calibration_report`)."""
    return calibration_figures(judge, store.calibration_pairs(judge),
                               store.judge_verdict_counts(judge),
                               store.answer_faithfulness(judge))
