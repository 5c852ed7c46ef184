"""A run's figures kept up to date change by change: :class:`LiveFigures`.

The Dashboard shows one run's :class:`~rag_annotator.reports.run_figures.RunFigures`, and an
expert judging beside it changes one (case, document) label at a time.  Rebuilding every
figure then costs seconds on a large file (10,000 cases: the bootstrap of every mean per
family, the paired comparison with another run).  :meth:`LiveFigures.apply` recomputes only
what the judgment touched: it reads the judged cases again (``store.metric_inputs`` limited
to them, for the run and the run it is compared with), evaluates them, and moves the means,
the counts and the intervals of the groups those cases belong to — through the keyed
resampling of ``metrics.resampling`` for a large group, by a new bootstrap for a small one.
The answers, the diagnosis, the agents, the structured answers and the intervals of every
untouched family are kept as they are.

A review of answers (a claim's verdict, an answer's outcome) builds the answer figures
anew and keeps the retrieval ones, their bootstraps and the comparison.  A change it cannot
follow (a run imported, cases edited, an import without row detail) makes :meth:`apply`
return None: the caller builds the figures anew
(:func:`~rag_annotator.reports.run_figures.build`).  Either way the figures are the same
(``tests/reports/test_live.py``), so the Dashboard never shows something ``metrics`` would
not.  Qt-free; the Dashboard calls it on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rag_annotator.domain.changes import Changes
from rag_annotator.metrics.compare import compare_reports
from rag_annotator.metrics.compare import with_cases as compare_with_cases
from rag_annotator.metrics.intervals import cases_for_mean
from rag_annotator.metrics.measures import parse_measures
from rag_annotator.metrics.overview import Counted, regroup
from rag_annotator.metrics.resampling import KEYED_FROM, KeyedMeans
from rag_annotator.metrics.retrieval import Report, evaluate_query, with_cases
from rag_annotator.metrics.run_intervals import GroupFigures, group_figures
from rag_annotator.metrics.values import Policy, QueryInput, Reading
from rag_annotator.reports import inputs
from rag_annotator.reports.figure import ANSWER_SHARES, answer_figures, retrieval_figures
from rag_annotator.reports.run_figures import (
    ANSWERS,
    COVERAGE,
    DIAGNOSIS,
    FigureOptions,
    RunFigures,
    build,
)
from rag_annotator.storage.store import GoldSetStore

#: The tables a change may touch and still be followed case by case (a label set, changed
#: or adjudicated); any other watched table means building the figures anew.
FOLLOWED = frozenset({"judgments", "adjudications", "assessors"})
#: The tables a review of answers touches (a verdict, its evidence, an answer's outcome):
#: only the answer figures move, the retrieval's bootstraps and the comparison stay.
REVIEWED = frozenset({"claims", "answer_reviews", "evidence", "citations", "judge_verdicts",
                      "assessors"})
#: What :attr:`LiveFigures.moved` names after an update.
MOVED_RETRIEVAL, MOVED_ANSWERS = "retrieval", "answers"


#: The answer figures (rebuilt by a review) and their "how many cases" entries.
ANSWER_FIGURES = frozenset({*ANSWER_SHARES, "faithfulness_mean"})
ANSWER_ENOUGH = frozenset({"quality", "coverage", "success"})


class LiveFigures:
    """One run's figures under one set of options, and what updating them needs."""

    def __init__(self, store: GoldSetStore, run: str, options: FigureOptions,
                 follow: bool = True) -> None:
        """Build the figures; ``follow``: also read the run compared with, for
        :meth:`apply` (else :meth:`apply` always asks for a new build)."""
        self.run, self.options = run, options
        self.follow = follow
        self.figures = build(store, run, options)
        #: what the last :meth:`apply` moved (:data:`MOVED_RETRIEVAL` or
        #: :data:`MOVED_ANSWERS`); the rest of the figures is what it was
        self.moved = ""
        self.measures = tuple(m.name for m in parse_measures(options.measures))
        self.max_grade = int(store.meta("max_grade", "1") or 1)
        self.other: Report | None = None
        if follow and options.compare:
            self.other = inputs.run_report(store, options.compare, self.measures,
                                           options.policy,
                                           relevance_level=options.relevance_level,
                                           by_document=options.by_document)

    @property
    def followable(self) -> bool:
        """Whether a judgment can be followed case by case under these options: not with
        ``--all-judged`` (every judged case of the file is a topic), the pairs to judge next
        (ranked over every case), the judging coverage, or passages rolled up to their
        documents (a passage's label moves its document's)."""
        o = self.options
        return self.follow and not (o.all_judged or o.by_document or (o.next_count and (
            o.policy is Policy.STRICT or not o.next_strict_only)) or COVERAGE in o.parts)

    def apply(self, store: GoldSetStore, changes: Changes) -> RunFigures | None:
        """The figures after ``changes``, updated in place; None when they must be built
        anew (see the module docstring)."""
        rows = set(changes.rows)
        if self.follow and rows and rows <= REVIEWED and ANSWERS in self.options.parts:
            return self._answers(store)
        pairs = changes.pairs_touched()
        if pairs is None or not self.followable or rows - FOLLOWED:
            return None
        self.moved = MOVED_RETRIEVAL
        case_ids = {case for case, _doc in pairs}
        if not case_ids:
            return self.figures
        mine = self._evaluate(store, self.run, case_ids)
        report = with_cases(self.figures.report, mine)
        changed = set(mine)
        figures = self._retrieval(report, changed)
        if self.other is not None and self.options.compare:
            theirs = self._evaluate(store, self.options.compare, case_ids)
            self.other = with_cases(self.other, theirs)
            figures = self._comparison(figures, changed | set(theirs))
        self.figures = figures
        return figures

    def _answers(self, store: GoldSetStore) -> RunFigures:
        """The answer figures built anew (answers, diagnosis, latency, exposure and their
        intervals); the retrieval figures, their bootstraps and the comparison kept."""
        o = self.options
        part = build(store, self.run, replace(o, parts=o.parts & {ANSWERS, DIAGNOSIS},
                                              compare=None, next_count=0))
        old = self.figures
        kept = {f: {k: e for k, e in v.items() if k not in ANSWER_ENOUGH}
                for f, v in old.intervals.enough.items()}
        for family, found in part.intervals.enough.items():
            kept.setdefault(family, {}).update(
                {k: e for k, e in found.items() if k in ANSWER_ENOUGH})
        intervals = replace(old.intervals, answers=part.intervals.answers,
                            answer_shares=part.intervals.answer_shares,
                            latency=part.intervals.latency, enough=kept)
        table = {key: f for key, f in old.table.items() if key[0] not in ANSWER_FIGURES}
        table.update(answer_figures(part.answers, intervals))
        diagnosed = DIAGNOSIS in o.parts
        self.figures = replace(
            old, answers=part.answers, families=part.families, latency=part.latency,
            diagnosis=part.diagnosis if diagnosed else old.diagnosis,
            rights=part.rights if diagnosed else old.rights, intervals=intervals,
            table=table)
        self.moved = MOVED_ANSWERS
        return self.figures

    def _evaluate(self, store: GoldSetStore, run: str, case_ids: set[int]
                  ) -> dict[str, tuple[Mapping[str, Reading], bool]]:
        """The judged cases of ``run``: case key → (readings, has a judged document)."""
        o = self.options
        out: dict[str, tuple[Mapping[str, Reading], bool]] = {}
        for case, (ranking, labels) in store.metric_inputs(run, case_ids).items():
            query = QueryInput(ranking, labels, self.max_grade)
            out[case] = (evaluate_query(query, self.measures, o.policy, o.relevance_level),
                         any(g is not None for g in labels.values()))
        return out

    def _retrieval(self, report: Report, changed: set[str]) -> RunFigures:
        """New means, counts and intervals for the families of the ``changed`` cases and
        the whole run; every other family's kept."""
        old = self.figures
        families = old.case_families
        groups = regroup(old.groups, report, families, changed)
        touched: set[str | None] = {None, *(families.get(c, "") for c in changed)}
        intervals = old.intervals
        retrieval = dict(intervals.retrieval)
        enough = {k: dict(v) for k, v in intervals.enough.items()}
        states = dict(intervals.states)
        for family in touched:
            counted = groups.get(family, {})
            found, family_enough, state = self._group(states.get(family), counted, changed)
            retrieval[family] = found
            enough.setdefault(family, {}).update(family_enough)
            if state is None:
                states.pop(family, None)
            else:
                states[family] = state
        intervals = replace(intervals, retrieval=retrieval, enough=enough, states=states)
        table = {**old.table, **retrieval_figures(groups, intervals, self.options.policy)}
        return replace(old, report=report, groups=groups, intervals=intervals, table=table)

    def _group(self, state: KeyedMeans | None, counted: Mapping[str, Counted],
               changed: set[str]) -> GroupFigures:
        """One group's intervals: its keyed sums moved for a large group, drawn anew for
        a small one (as ``run_intervals`` does)."""
        s = self.options.interval_settings
        large = bool(counted) and all(c.n >= KEYED_FROM for c in counted.values())
        if not large or state is None:  # small, or just grown large: made as anew
            return group_figures(counted, s)
        for case in changed:
            state.set_case(case, {m: _counted_value(c, case) for m, c in counted.items()})
        found = state.intervals(s.level)
        enough = {}
        for m, c in counted.items():
            interval = found[m]
            enough[m] = cases_for_mean(c.values, s.target, s.level,
                                       None if interval is None else interval.half_width)
        return found, enough, state

    def _comparison(self, figures: RunFigures, changed: set[str]) -> RunFigures:
        o = self.options
        assert self.other is not None and o.compare is not None
        old = figures.comparison
        comparison = (compare_reports(self.run, figures.report, o.compare, self.other,
                                      figures.case_families, o.family)
                      if old is None or o.family is not None else
                      compare_with_cases(old, figures.report, self.other, changed))
        paired = figures.paired
        if paired is None:
            return replace(figures, comparison=comparison)
        for case in changed:
            paired.set_case(case, comparison.per_case.get(case, {}))
        return replace(figures, comparison=comparison, significance=paired.results())


def _counted_value(counted: Counted, case: str) -> float | None:
    """The value ``case`` counts for in a mean (None: not counted)."""
    try:
        return counted.values[counted.cases.index(case)]
    except ValueError:
        return None
