"""One figure, as every surface shows it: :class:`Figure`.

A figure is a number somebody reads — "success 25 % of 4 cases [5 %–70 %]", "nDCG@10 0.746
over 7 judged cases [0.46–0.95]" — with everything a reader may ask about it: its value, its
numerator and denominator, the cases it counts (and those of its group it leaves out), its
interval and the unjudged-document policy it was computed under.  The figures of a run are
built once per request (:func:`retrieval_figures`, :func:`answer_figures`,
:func:`agent_figures`, from ``reports.run_figures.build``) and the dashboard's tables and
bars, ``metrics`` (text and JSON), the workbook and the PDF render them as they are: none
recomputes a mean, a count or a range, so they cannot state different case counts for the
same figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rag_annotator.metrics.agents import AgentSummary
from rag_annotator.metrics.answers import AnswerSummary, Denominators
from rag_annotator.metrics.intervals import Interval
from rag_annotator.metrics.overview import Groups
from rag_annotator.metrics.run_intervals import FigureIntervals
from rag_annotator.metrics.values import Policy

#: A proportion k of n (Wilson interval) or a mean over n cases (bootstrap interval).
SHARE, MEAN = "share", "mean"
#: The answer figures, with the counts they divide (numerator cases, denominator cases).
ANSWER_SHARES = {"quality": ("validated", "produced"), "coverage": ("produced", "tested"),
                 "success": ("validated", "tested"),
                 "abstention_rate": ("abstention_correct", "abstention")}
#: The agent rates (numerator: the trajectories where the verdict is yes).
AGENT_RATES = {"task_success_rate": "success", "path_acceptable_rate": "path",
               "both_rate": "both"}


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure of one group (``family`` None: the whole run); see the module docstring.

    ``numerator`` / ``denominator`` is ``value`` for a share (k of n); for a mean,
    ``numerator`` is the sum of the values counted and ``denominator`` how many cases that
    is.  ``value`` is None when the figure is not computable (a zero denominator)."""

    name: str
    family: str | None
    kind: str
    value: float | None
    numerator: float
    denominator: int
    cases: tuple[str, ...]
    interval: Interval | None
    policy: Policy | None = None
    left_out: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        """How many cases the figure counts (its denominator)."""
        return self.denominator

    def bounds(self) -> tuple[float | None, float | None]:
        """(low, high), or (None, None) without an interval or a value."""
        if self.interval is None or self.value is None:
            return None, None
        return self.interval.low, self.interval.high

    def to_json(self) -> dict[str, object]:
        """``{value, numerator, denominator, cases, interval, policy}`` (``cases``: how
        many; the keys are in ``metrics --json``'s per-query block)."""
        low, high = self.bounds()
        return {"value": self.value, "numerator": self.numerator,
                "denominator": self.denominator, "cases": self.denominator,
                "interval": None if low is None else [low, high],
                "policy": None if self.policy is None else self.policy.value}


#: (figure name, family or None) → Figure.
FigureMap = Mapping[tuple[str, "str | None"], Figure]


def retrieval_figures(groups: Groups, intervals: FigureIntervals, policy: Policy
                      ) -> dict[tuple[str, str | None], Figure]:
    """The mean of every measure of every group (``metrics.overview.retrieval_groups``)."""
    out: dict[tuple[str, str | None], Figure] = {}
    for family, measures in groups.items():
        for measure, counted in measures.items():
            out[(measure, family)] = Figure(
                measure, family, MEAN, counted.mean, counted.total, counted.n, counted.cases,
                intervals.mean(measure, family) if counted.n else None, policy,
                counted.left_out)
    return out


def _share(name: str, family: str | None, numerator: Iterable[str],
           denominator: tuple[str, ...], interval: Interval | None) -> Figure:
    k = len(tuple(numerator))
    n = len(denominator)
    return Figure(name, family, SHARE, k / n if n else None, k, n, denominator,
                  interval if n else None)


def _answer_group(family: str | None, group: Denominators, intervals: FigureIntervals,
                  faithful: tuple[str, ...]) -> dict[tuple[str, str | None], Figure]:
    out: dict[tuple[str, str | None], Figure] = {}
    for name, (top, bottom) in ANSWER_SHARES.items():
        out[(name, family)] = _share(name, family, group.cases(top), group.cases(bottom),
                                     intervals.answer(name, family))
    values = group.faithfulness
    out[("faithfulness_mean", family)] = Figure(
        "faithfulness_mean", family, MEAN, group.faithfulness_mean, float(sum(values)),
        len(values), faithful, intervals.answer("faithfulness_mean", family))
    return out


def answer_figures(answers: AnswerSummary, intervals: FigureIntervals
                   ) -> dict[tuple[str, str | None], Figure]:
    """Quality, coverage, success, abstention and mean faithfulness of every family and of
    the whole run (None), with the cases behind each."""
    faithful: dict[str | None, list[str]] = {None: []}
    for item in answers.items:
        if item.has_answer and item.faithfulness is not None:
            faithful[None].append(item.case_key)
            faithful.setdefault(item.family, []).append(item.case_key)
    out: dict[tuple[str, str | None], Figure] = {}
    groups: list[tuple[str | None, Denominators]] = [(None, answers.overall),
                                                     *answers.per_family.items()]
    for family, group in groups:
        out.update(_answer_group(family, group, intervals, tuple(faithful.get(family, ()))))
    return out


def agent_figures(agents: AgentSummary, intervals: FigureIntervals
                  ) -> dict[tuple[str, str | None], Figure]:
    """The agents' task success, path acceptable and both, per family and overall (a
    trajectory neither way decided is left out of the rate, and listed as left out)."""
    out: dict[tuple[str, str | None], Figure] = {}
    for family in [None, *agents.per_family]:
        group = agents.group(family)
        for name, verdict in AGENT_RATES.items():
            yes = tuple(i.case_key for i in group.items if getattr(i, verdict) is True)
            decided = tuple(i.case_key for i in group.items
                            if getattr(i, verdict) is not None)
            undecided = tuple(i.case_key for i in group.items if getattr(i, verdict) is None)
            figure = _share(name, family, yes, decided, intervals.agent(name, family))
            out[(name, family)] = Figure(figure.name, family, SHARE, figure.value,
                                         figure.numerator, figure.denominator, decided,
                                         figure.interval, None, undecided)
    return out
