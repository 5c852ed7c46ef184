"""One run's figures, assembled once: :class:`RunFigures`, built by :func:`build`.

For one run, one unjudged-document policy, one list of measures and a few options, a
:class:`RunFigures` holds every figure the app shows or writes about the run: the retrieval
report (per case, meaned per family by ``metrics.overview``; Judged@k is one of its
measures), seed 003's answer decomposition, the diagnosis, latency and cost, the agent
figures, and, when asked, the comparison with another run, the pairs to judge next and the
judging coverage of the run's rankings (pairs judged over pairs ranked).  The dashboard,
``metrics --json``, the workbook's summary and the native JSON's derived figures all render
this one value (``reports.render``, ``reports.text``, ``reports.workbook``), so they cannot
disagree.

:func:`build` reads the inputs through the store (``reports.inputs``) and calls the pure
functions of ``rag_annotator.metrics``; ``parts`` leaves out what a caller never shows (the
native JSON wants the agent figures only), and a part left out is an empty value, not None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rag_annotator.metrics.agents import AgentSummary, summarize_items
from rag_annotator.metrics.answers import AnswerInput, AnswerSummary, summarize_inputs
from rag_annotator.metrics.compare import Comparison, compare_reports
from rag_annotator.metrics.diagnosis import DEFAULT_DEPTH, Diagnosis, diagnose
from rag_annotator.metrics.intervals import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    DEFAULT_TARGET_HALF_WIDTH,
)
from rag_annotator.metrics.judge_next import Suggestion, next_to_judge
from rag_annotator.metrics.latency import DEFAULT_TARGET_MS, LatencySummary, summarize_latency
from rag_annotator.metrics.measures import parse_measures
from rag_annotator.metrics.overview import Groups, distribution, retrieval_groups
from rag_annotator.metrics.paired_live import LivePaired
from rag_annotator.metrics.retrieval import DEFAULT_MEASURES, Report, evaluate
from rag_annotator.metrics.run_intervals import FigureIntervals, Settings, run_intervals
from rag_annotator.metrics.significance import PairedResult
from rag_annotator.metrics.structured import StructuredSummary, summarize_rows
from rag_annotator.metrics.values import Policy, QueryInput
from rag_annotator.reports import inputs
from rag_annotator.reports import rights_figures as rights_mod
from rag_annotator.reports.figure import (
    Figure,
    FigureMap,
    agent_figures,
    answer_figures,
    retrieval_figures,
)
from rag_annotator.reports.rights_figures import RightsFigures
from rag_annotator.storage.store import GoldSetStore

#: What :func:`build` can compute (``parts``).
RETRIEVAL, ANSWERS, DIAGNOSIS, AGENTS, COVERAGE = (
    "retrieval", "answers", "diagnosis", "agents", "coverage")
STRUCTURED = "structured"
#: What the dashboard and ``metrics`` show.  The judging coverage of the rankings is asked
#: for by name: no rendering shows it yet, and it costs ~0.15 s on 10,000 cases x 100.
DEFAULT_PARTS = frozenset({RETRIEVAL, ANSWERS, DIAGNOSIS, AGENTS, STRUCTURED})


@dataclass(frozen=True)
class FigureOptions:
    """What to compute for a run.

    ``compare``: another run to compare with, per case (``family``: that family's cases
    only; a run named twice is compared with itself); ``next_count``: how many pairs to
    judge next to rank (0: none; with ``next_cases_limit`` set, none either for a run of
    more cases than that);
    ``next_strict_only``: rank them only under ``strict`` (the dashboard's panel);
    ``level``, ``resamples``, ``seed``: the intervals' level, bootstrap resamples and seed
    (also the paired comparison's permutations, issue 16); ``target_half_width``: the
    half-width "how many more cases" aims under (0.10 = ±10 points).
    """

    policy: Policy = Policy.TREC
    measures: tuple[str, ...] = DEFAULT_MEASURES
    target_ms: int = DEFAULT_TARGET_MS
    depth: int = DEFAULT_DEPTH
    compare: str | None = None
    family: str | None = None
    next_count: int = 0
    next_cases_limit: int | None = None
    next_strict_only: bool = False
    parts: frozenset[str] = DEFAULT_PARTS
    #: trec_eval ``-l``: relevant means grade >= this for the binary measures.
    relevance_level: int = 1
    #: trec_eval ``-c``: average over every judged topic, those the run misses scoring 0.
    all_judged: bool = False
    #: the retrieval measures at the document level: each document at its best passage's
    #: rank, judged from its passages (``metrics.rollup``); the judging coverage and the
    #: pairs to judge next stay with what is judged, passages
    by_document: bool = False
    level: float = DEFAULT_LEVEL
    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    target_half_width: float = DEFAULT_TARGET_HALF_WIDTH

    @property
    def interval_settings(self) -> Settings:
        return Settings(self.level, self.resamples, self.seed, self.target_half_width)


@dataclass(frozen=True)
class Coverage:
    """How much of a run's rankings is judged: pairs (case, ranked document) with an
    effective label, over every pair ranked, with the cases that still have an unjudged one."""

    ranked: int = 0
    judged: int = 0
    relevant: int = 0
    cases_with_unjudged: tuple[str, ...] = ()

    @property
    def unjudged(self) -> int:
        return self.ranked - self.judged

    @property
    def share(self) -> float | None:
        """Judged / ranked pairs (None with nothing ranked)."""
        return self.judged / self.ranked if self.ranked else None


@dataclass(frozen=True)
class RunFigures:
    """Every figure of one run under one policy and one list of measures (see the module
    docstring).  ``families``: case → family of the cases the run covers;
    ``case_families``: of every RAG case (read when comparing or for the retrieval
    intervals per family); ``intervals``: the interval of every figure and the cases each
    family needs (``metrics.run_intervals``); ``significance``: with ``compare``, the paired
    comparison per measure (``metrics.significance``)."""

    run: str
    options: FigureOptions
    report: Report
    families: Mapping[str, str]
    answers: AnswerSummary
    diagnosis: Diagnosis
    latency: LatencySummary
    agents: AgentSummary
    coverage: Coverage
    comparison: Comparison | None = None
    case_families: Mapping[str, str] = field(default_factory=dict)
    next_pairs: tuple[Suggestion, ...] = ()
    intervals: FigureIntervals = field(default_factory=FigureIntervals)
    significance: Mapping[str, PairedResult] | None = None
    rights: RightsFigures = field(default_factory=RightsFigures)  # exposures, 3 outcomes
    structured: StructuredSummary = field(default_factory=lambda: StructuredSummary(""))
    #: the paired comparison's state, moved by a judgment (``reports.live``)
    paired: LivePaired | None = field(default=None, compare=False, repr=False)
    #: What each retrieval mean counts, per family (``metrics.overview``).
    groups: Groups = field(default_factory=dict)
    #: Every figure of the run, built once (``reports.figure``): (name, family) → Figure.
    table: FigureMap = field(default_factory=dict)
    #: measure → the histogram of its overall mean, made when first asked (:meth:`histogram`)
    _histograms: dict[str, list[tuple[str, list[str]]]] = field(
        default_factory=dict, init=False, compare=False, repr=False)

    def histogram(self, measure: str) -> list[tuple[str, list[str]]]:
        """The histogram of ``measure``'s overall mean: value bins, then the cases left out
        by reason (``metrics.overview.distribution``); made once, when first shown."""
        if measure not in self._histograms:
            counted = self.groups.get(None, {}).get(measure)
            self._histograms[measure] = (
                [] if counted is None else distribution(self.report, measure, counted))
        return self._histograms[measure]

    def figure(self, name: str, family: str | None = None) -> Figure | None:
        """The figure ``name`` (a measure, ``success``, ``task_success_rate``…) of
        ``family`` (None: the whole run), or None when the run has no such figure."""
        return self.table.get((name, family))

    @property
    def policy(self) -> Policy:
        return self.options.policy

    @property
    def agent_only(self) -> bool:
        """The run holds trajectories and neither retrieved lists nor answers."""
        return self.agents.has_data and not self.report.per_query and not self.answers.items


def coverage_of(queries: Mapping[str, QueryInput]) -> Coverage:
    """Pure: the judging coverage of a run's rankings (a ranked document outside the case's
    universe counts as unjudged: nobody labelled it)."""
    ranked = judged = relevant = 0
    open_cases = []
    for case, query in queries.items():
        grades = list(map(query.labels.get, query.ranking))
        known = len(grades) - grades.count(None)
        ranked += len(grades)
        judged += known
        relevant += known - grades.count(0)
        if known < len(grades):
            open_cases.append(case)
    return Coverage(ranked, judged, relevant, tuple(open_cases))


def build(store: GoldSetStore, run: str, options: FigureOptions = FigureOptions()
          ) -> RunFigures:
    """Read ``run``'s inputs through ``store`` and compute its figures (raises NotFound for
    an unknown run, ValueError for a bad measure or option)."""
    measures = tuple(m.name for m in parse_measures(options.measures))
    parts = options.parts
    # The cases as QueryInput only for what reads them; the report itself reads the run's
    # arrays under ``trec`` (inputs.run_report; issue 19).
    ranks_next = options.next_count > 0 and (not options.next_strict_only
                                              or options.policy is Policy.STRICT)
    wanted = COVERAGE in parts or ranks_next or options.policy is not Policy.TREC
    queries = inputs.load_queries(store, run) if RETRIEVAL in parts and wanted else {}
    rows = store.answer_inputs(run) if parts & {ANSWERS, DIAGNOSIS} else []
    diagnosis = (inputs.diagnose_run(store, run, options.depth, rows) if DIAGNOSIS in parts
                 else diagnose(run, [], options.depth))
    agents = (inputs.summarize_agents(store, run) if AGENTS in parts
              else summarize_items(run, []))
    judged = inputs.judged_topics(store) if options.all_judged else None
    measured = (inputs.by_document_inputs(store, queries) if options.by_document and queries
                else queries)
    report = (inputs.run_report(store, run, measures, options.policy,
                                relevance_level=options.relevance_level, judged_topics=judged,
                                by_document=options.by_document)
              if RETRIEVAL in parts and not queries else
              evaluate(measured, measures, options.policy,
                       relevance_level=options.relevance_level, judged_topics=judged))
    other = (inputs.run_report(store, options.compare, measures, options.policy,
                               relevance_level=options.relevance_level, judged_topics=judged,
                               by_document=options.by_document)
             if options.compare else None)
    case_families = store.case_families() if other is not None or report.per_query else {}
    items = [AnswerInput.from_row(r) for r in rows] if ANSWERS in parts else []
    comparison = significance = paired = None
    if other is not None:
        comparison = compare_reports(run, report, str(options.compare), other,
                                     case_families, options.family)
        paired = LivePaired(comparison.per_case, measures, options.level,
                            options.resamples, options.seed, options.resamples)
        significance = paired.results()
    answers = summarize_inputs(run, items)
    latency = summarize_latency(items, options.target_ms)
    coverage = coverage_of(queries) if COVERAGE in parts else Coverage()
    groups = retrieval_groups(report, case_families) if report.per_query else {}
    intervals = run_intervals(groups, answers, latency, agents,
                              (coverage.judged, coverage.ranked) if COVERAGE in parts else None,
                              options.interval_settings)
    table = {**retrieval_figures(groups, intervals, options.policy),
             **answer_figures(answers, intervals), **agent_figures(agents, intervals)}
    return RunFigures(
        run=run, options=options, report=report,
        families={str(r["case_key"]): str(r["family"]) for r in rows},
        answers=answers, diagnosis=diagnosis, latency=latency, agents=agents,
        coverage=coverage, comparison=comparison, case_families=case_families,
        next_pairs=_next_pairs(queries, measures, run, options), intervals=intervals,
        significance=significance, paired=paired, groups=groups, table=table,
        rights=(rights_mod.build(store, run, options.depth, items, diagnosis)
                if DIAGNOSIS in parts else RightsFigures()),
        structured=summarize_rows(run, store.structured_inputs(run) if STRUCTURED in parts
                                  else []))


def _next_pairs(queries: Mapping[str, QueryInput], measures: Sequence[str], run: str,
                options: FigureOptions) -> tuple[Suggestion, ...]:
    if options.next_count <= 0:
        return ()
    if options.next_strict_only and options.policy is not Policy.STRICT:
        return ()
    if options.next_cases_limit is not None and len(queries) > options.next_cases_limit:
        return ()
    return tuple(next_to_judge(queries, measures, run)[:options.next_count])
