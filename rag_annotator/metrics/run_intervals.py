"""The interval of every figure of one run, and how many more cases each family needs
(issue 16): :func:`run_intervals` gives one :class:`FigureIntervals` value that
``reports.run_figures`` keeps beside the figures, so every rendering reads the same ranges.

Proportions (k of n) get Wilson intervals: quality, coverage, success, abstention correctness,
contradicted / unsupported claim shares, must-contain recall, latency share under target,
task success, path acceptable, both, each violation rate, and the judging coverage of the
rankings (judged pairs / ranked pairs).  Means over cases get the percentile bootstrap:
each retrieval measure per family and overall (Judged@k included: it is a mean of per-case
shares, and resampling cases keeps a case's documents together), faithfulness, and the agents'
mean steps, tokens and seconds.  Ratios that are neither (total cost, cost per success,
latency percentiles) have none.

Pure over the values of ``metrics.retrieval``, ``metrics.answers``, ``metrics.latency`` and
``metrics.agents``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rag_annotator.metrics.agents import AgentGroup, AgentSummary
from rag_annotator.metrics.answers import AnswerSummary, Denominators
from rag_annotator.metrics.intervals import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    DEFAULT_TARGET_HALF_WIDTH,
    Enough,
    Interval,
    bootstrap_mean,
    bootstrap_means,
    cases_for_mean,
    cases_for_proportion,
    wilson,
)
from rag_annotator.metrics.latency import LatencySummary
from rag_annotator.metrics.overview import Counted, Groups
from rag_annotator.metrics.resampling import KEYED_FROM, KeyedMeans

#: The key of the whole run in the per-family mappings of :class:`FigureIntervals`.
OVERALL = None
#: The answer proportions with an interval and a "how many more" (numerator, denominator).
ANSWER_PROPORTIONS = ("quality", "coverage", "success", "abstention_rate")
#: The agent figures with an interval.
AGENT_FIGURES = ("task_success_rate", "path_acceptable_rate", "both_rate", "mean_steps",
                 "mean_tokens", "mean_seconds")

FamilyIntervals = Mapping["str | None", Mapping[str, "Interval | None"]]


@dataclass(frozen=True)
class Settings:
    """How the intervals are computed: ``level`` (0.95), bootstrap ``resamples`` and ``seed``,
    and the ``target`` half-width of "how many more cases" (0.10 = ±10 points)."""

    level: float = DEFAULT_LEVEL
    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    target: float = DEFAULT_TARGET_HALF_WIDTH


@dataclass(frozen=True)
class FigureIntervals:
    """The intervals of one run's figures.  Per-family mappings are keyed by family code,
    and by :data:`OVERALL` (None) for the whole run; a figure that is not computable has
    None (the means themselves are the run's figures: ``metrics.overview`` counts them)."""

    settings: Settings = Settings()
    answers: FamilyIntervals = field(default_factory=dict)
    answer_shares: Mapping[str, Interval | None] = field(default_factory=dict)
    latency: Mapping[str, Interval | None] = field(default_factory=dict)
    retrieval: FamilyIntervals = field(default_factory=dict)
    #: the keyed sums of each large group's means (what a judgment moves: ``reports.live``)
    states: Mapping[str | None, KeyedMeans] = field(default_factory=dict, compare=False,
                                                     repr=False)
    agents: FamilyIntervals = field(default_factory=dict)
    violations: FamilyIntervals = field(default_factory=dict)
    coverage: Interval | None = None
    enough: Mapping[str | None, Mapping[str, Enough]] = field(default_factory=dict)

    @property
    def level(self) -> float:
        return self.settings.level

    def answer(self, figure: str, family: str | None = OVERALL) -> Interval | None:
        """quality, coverage, success, abstention_rate or faithfulness_mean of a family."""
        return self.answers.get(family, {}).get(figure)

    def mean(self, measure: str, family: str | None = OVERALL) -> Interval | None:
        """The bootstrap interval of a retrieval measure's mean over a family's cases."""
        return self.retrieval.get(family, {}).get(measure)

    def agent(self, figure: str, family: str | None = OVERALL) -> Interval | None:
        """One of :data:`AGENT_FIGURES` of a family."""
        return self.agents.get(family, {}).get(figure)

    def violation(self, code: str, family: str | None = OVERALL) -> Interval | None:
        return self.violations.get(family, {}).get(code)


def _counts(group: Denominators) -> dict[str, tuple[int, int]]:
    return {"quality": (group.validated, group.produced),
            "coverage": (group.produced, group.tested),
            "success": (group.validated, group.tested),
            "abstention_rate": (len(group.abstention_correct_cases),
                                len(group.abstention_cases))}


def _answer_group(group: Denominators, s: Settings) -> dict[str, Interval | None]:
    out = {name: wilson(k, n, s.level) for name, (k, n) in _counts(group).items()}
    out["faithfulness_mean"] = _mean(group.faithfulness, s)
    return out


def _mean(values: Sequence[float | None], s: Settings) -> Interval | None:
    return bootstrap_mean(values, s.resamples, s.level, s.seed) if values else None


def _agent_group(group: AgentGroup, s: Settings) -> tuple[dict[str, Interval | None],
                                                          dict[str, Interval | None]]:
    rates: dict[str, Interval | None] = {}
    for name, verdict in (("task_success_rate", "success"), ("path_acceptable_rate", "path"),
                          ("both_rate", "both")):
        yes = sum(1 for i in group.items if getattr(i, verdict) is True)
        no = sum(1 for i in group.items if getattr(i, verdict) is False)
        rates[name] = wilson(yes, yes + no, s.level)
    rates["mean_steps"] = _mean([float(i.steps) for i in group.items], s)
    rates["mean_tokens"] = _mean([i.tokens for i in group.items if i.tokens is not None], s)
    rates["mean_seconds"] = _mean([i.seconds for i in group.items if i.seconds is not None],
                                  s)
    violations = {code: wilson(len(v.broken_cases), len(v.checked_cases), s.level)
                  for code, v in group.violations.items()}
    return rates, violations


def _retrieval(groups: Groups, s: Settings
               ) -> tuple[FamilyIntervals, dict[str | None, dict[str, Enough]],
                          dict[str | None, KeyedMeans]]:
    intervals: dict[str | None, Mapping[str, Interval | None]] = {}
    enough: dict[str | None, dict[str, Enough]] = {}
    states: dict[str | None, KeyedMeans] = {}
    done: dict[tuple[object, ...], GroupFigures] = {}
    # The large groups' keyed sums at once: a case's weights drawn once, for the run and
    # for its family.
    made = KeyedMeans.many({family: {m: dict(zip(c.cases, c.values))
                                     for m, c in counted.items()}
                            for family, counted in groups.items() if _large(counted)},
                           s.resamples, s.seed)
    for family, counted in groups.items():
        # Keyed by the values themselves: a family holding every case (and no judged topic
        # missing from the run) has the overall's columns, so its figures are computed once.
        key = tuple((m, c.cases, c.values) for m, c in counted.items())
        if key not in done:
            done[key] = group_figures(counted, s, made.get(family))
        found, family_enough, state = done[key]
        intervals[family] = found
        enough[family] = dict(family_enough)
        if state is not None:
            states[family] = state
    return intervals, enough, states


#: One group's intervals, cases needed, and its keyed sums when it is large.
GroupFigures = tuple[dict[str, "Interval | None"], dict[str, Enough], "KeyedMeans | None"]


def _large(counted: Mapping[str, Counted]) -> bool:
    """Every mean of the group counts enough cases to resample by case key."""
    return bool(counted) and all(c.n >= KEYED_FROM for c in counted.values())


def group_figures(counted: Mapping[str, Counted], s: Settings,
                  state: KeyedMeans | None = None) -> GroupFigures:
    """The intervals and cases needed of one group's means (the values each counts,
    ``metrics.overview``); a group whose every mean counts ``KEYED_FROM`` cases or more
    resamples by case key and comes with its keyed sums (``metrics.resampling``: what a
    judgment moves later; ``state``: those sums when already made), a smaller one is drawn
    anew."""
    columns = {m: c.values for m, c in counted.items()}
    found: dict[str, Interval | None] = {}
    if _large(counted):
        state = state or KeyedMeans({m: dict(zip(c.cases, c.values))
                                     for m, c in counted.items()}, s.resamples, s.seed)
        found = state.intervals(s.level)
    else:
        state = None
        by_cases: dict[tuple[str, ...], dict[str, Sequence[float]]] = {}
        for m, c in counted.items():  # means over the same cases share the draws
            by_cases.setdefault(c.cases, {})[m] = c.values
        for cases, same in by_cases.items():
            found.update(bootstrap_means(same, s.resamples, s.level, s.seed, keys=cases))
    enough: dict[str, Enough] = {}
    for m, column in columns.items():
        ci = found[m]
        enough[m] = cases_for_mean(column, s.target, s.level,
                                   None if ci is None else ci.half_width)
    return {m: found[m] for m in columns}, enough, state


def run_intervals(groups: Groups, answers: AnswerSummary, latency: LatencySummary,
                  agents: AgentSummary, coverage: tuple[int, int] | None = None,
                  settings: Settings = Settings()) -> FigureIntervals:
    """Every interval of one run.  ``groups``: what each retrieval mean counts, per family
    and for the whole run (``metrics.overview.retrieval_groups``); ``coverage``: (judged,
    ranked) pairs of the rankings, when computed.  Raises ValueError for a bad level,
    resample count or target."""
    s = settings
    retrieval, enough, states = _retrieval(groups, s)
    answer_groups: dict[str | None, Mapping[str, Interval | None]] = {}
    answer_list: list[tuple[str | None, Denominators]] = [(OVERALL, answers.overall)]
    answer_list += answers.per_family.items()
    for key, group in answer_list:
        answer_groups[key] = _answer_group(group, s)
        counts = _counts(group)
        mine = enough.setdefault(key, {})
        for name in ("quality", "coverage", "success"):
            mine[name] = cases_for_proportion(*counts[name], s.target, s.level)
    agent_groups: dict[str | None, Mapping[str, Interval | None]] = {}
    violations: dict[str | None, Mapping[str, Interval | None]] = {}
    agent_list: list[tuple[str | None, AgentGroup]] = [(OVERALL, agents.overall)]
    agent_list += agents.per_family.items()
    for key, agent_group in agent_list:
        agent_groups[key], violations[key] = _agent_group(agent_group, s)
    return FigureIntervals(
        settings=s, answers=answer_groups,
        answer_shares={
            "faithfulness_mean": _mean(answers.overall.faithfulness, s),
            "contradicted_share": wilson(answers.contradicted_claims, answers.verified_claims,
                                         s.level),
            "unsupported_share": wilson(answers.not_supported_claims,
                                        answers.verified_claims, s.level),
            "must_contain_recall": wilson(answers.must_contain_found,
                                          answers.must_contain_points, s.level)},
        latency={"share_under_target": wilson(len(latency.under_target_cases),
                                              len(latency.timed_cases), s.level)},
        retrieval=retrieval, states=states, agents=agent_groups,
        violations=violations,
        coverage=None if coverage is None else wilson(coverage[0], coverage[1], s.level),
        enough=enough)
