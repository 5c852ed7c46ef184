"""Agent metrics of one run: task success, path acceptability, violations, cost (seed 000).

For every trajectory of the run (retired cases left out, as the answer metrics do), the
automatic checks (:func:`~rag_annotator.domain.agent_checks.evaluate`) give a task-success
and a path verdict; a review mark overrides each (:func:`~rag_annotator.domain.agent_checks.
effective`).  Per family and overall:

* **task success rate** = trajectories whose effective verdict is *success* / trajectories
  with an effective verdict; a trajectory nobody can decide yet (the case expects no final
  state, or the trajectory gives none, and no reviewer marked it) is *undecided*: counted
  apart, out of the denominator — like seed 003's unreviewed cases;
* **path acceptable rate**, the same for the path verdict; **both** is success *and*
  acceptable path (no when either is no, undecided when neither is no and one is unknown);
* **violation rate per invariant** (``Check.code``: ``forbidden:X``, ``order:a<b``,
  ``max_steps``…) = trajectories that broke it / trajectories where it was checked; a budget
  the trajectory gives no figure for (*unknown*) is out of both;
* **mean steps** (every trajectory), **mean tokens** and **mean seconds** (over the
  trajectories that carry the figure; how many is said), **total cost** and **cost per
  successful task** = total cost / successes (None without a success or without any cost);
* how many automatic verdicts a review **overruled** (success, path).

A zero denominator gives None ("not computable"), never 0.  Every figure keeps the case keys
behind it (:meth:`AgentGroup.cases`) so the dashboard can list them.  Pure over
:class:`AgentItem` values (``rag_annotator.reports.inputs`` reads them from the store).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Any

from rag_annotator.domain.agent_checks import (
    BROKEN,
    HELD,
    Check,
    Evaluation,
    effective,
    evaluate_row,
)
from rag_annotator.gc_pause import bulk_objects
from rag_annotator.metrics.answers import ratio
from rag_annotator.metrics.trials import TrialFigures, trial_figures


def _mark(value: Any) -> bool | None:
    return None if value is None else bool(value)


@dataclass(frozen=True)
class AgentItem:
    """One trajectory of the run, with its automatic checks and the reviewer's marks."""

    case_key: str
    family: str
    steps: int
    evaluation: Evaluation
    reviewed_success: bool | None = None
    reviewed_path: bool | None = None
    tokens: float | None = None
    seconds: float | None = None
    cost: float | None = None
    trial: int = 0  # which attempt of the case (pass^k)
    # Derived once in __post_init__ (the figures read them for every trajectory).
    automatic_success: bool | None = field(init=False)
    automatic_path: bool | None = field(init=False)
    success: bool | None = field(init=False)  # the verdict that counts (mark, else automatic)
    path: bool | None = field(init=False)
    both: bool | None = field(init=False)  # success and acceptable path (no if either is no)
    overruled_success: bool = field(init=False)
    overruled_path: bool = field(init=False)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> AgentItem:
        """Build from one row of ``store.agent_inputs`` (runs the automatic checks)."""
        return cls(
            case_key=str(row["case_key"]), family=str(row["family"]),
            steps=len(row.get("tools") or ()), evaluation=evaluate_row(row),
            reviewed_success=_mark(row.get("task_success")),
            reviewed_path=_mark(row.get("path_acceptable")),
            tokens=row.get("tokens"), seconds=row.get("seconds"), cost=row.get("cost"),
            trial=int(row.get("trial") or 0))

    def __post_init__(self) -> None:
        auto_success = self.evaluation.task_success
        auto_path = self.evaluation.path_acceptable
        success = effective(auto_success, self.reviewed_success)
        path = effective(auto_path, self.reviewed_path)
        both = (False if success is False or path is False
                else None if success is None or path is None else True)
        for name, value in (
                ("automatic_success", auto_success), ("automatic_path", auto_path),
                ("success", success), ("path", path), ("both", both),
                ("overruled_success", self.reviewed_success is not None
                 and auto_success is not None and self.reviewed_success != auto_success),
                ("overruled_path", self.reviewed_path is not None and auto_path is not None
                 and self.reviewed_path != auto_path)):
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class Violation:
    """One invariant across a group: where it was checked, broken, or could not be."""

    code: str
    checked_cases: tuple[str, ...] = ()
    broken_cases: tuple[str, ...] = ()
    unknown_cases: tuple[str, ...] = ()

    @property
    def rate(self) -> float | None:
        """Broken / checked (None when it was checked nowhere)."""
        return ratio(len(self.broken_cases), len(self.checked_cases))

    def to_json(self) -> dict[str, object]:
        return {"rate": self.rate, "broken": len(self.broken_cases),
                "checked": len(self.checked_cases), "unknown": len(self.unknown_cases)}


@dataclass(frozen=True)
class _Figure:
    """A mean over the trajectories that carry a figure."""

    values: tuple[float, ...] = ()
    cases: tuple[str, ...] = ()

    @property
    def mean(self) -> float | None:
        return ratio(sum(self.values), len(self.values))

    @property
    def total(self) -> float | None:
        return sum(self.values) if self.values else None


def _split(items: Sequence[AgentItem], verdict: str
           ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    yes: list[str] = []
    no: list[str] = []
    undecided: list[str] = []
    get = attrgetter(verdict)
    for item in items:
        value = get(item)
        (undecided if value is None else yes if value else no).append(item.case_key)
    return tuple(yes), tuple(no), tuple(undecided)


def _figure(items: Sequence[AgentItem], name: str) -> _Figure:
    pairs = [(float(v), i.case_key) for i in items if (v := getattr(i, name)) is not None]
    return _Figure(tuple(v for v, _c in pairs), tuple(c for _v, c in pairs))


@dataclass(frozen=True)
class AgentGroup:
    """The agent figures of a group of trajectories (a family, or all)."""

    items: tuple[AgentItem, ...] = ()

    @property
    def trajectories(self) -> int:
        return len(self.items)

    def _verdicts(self, verdict: str
                  ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        return self._splits[verdict]

    @cached_property
    def _splits(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
        return {verdict: _split(self.items, verdict) for verdict in ("success", "path", "both")}

    @cached_property
    def _figures(self) -> dict[str, _Figure]:
        return {name: _figure(self.items, name) for name in ("tokens", "seconds", "cost")}

    @property
    def task_success_rate(self) -> float | None:
        """Successes / trajectories with a success verdict."""
        yes, no, _undecided = self._verdicts("success")
        return ratio(len(yes), len(yes) + len(no))

    @property
    def path_acceptable_rate(self) -> float | None:
        """Acceptable paths / trajectories with a path verdict."""
        yes, no, _undecided = self._verdicts("path")
        return ratio(len(yes), len(yes) + len(no))

    @property
    def both_rate(self) -> float | None:
        """Success with an acceptable path / trajectories where that is decided."""
        yes, no, _undecided = self._verdicts("both")
        return ratio(len(yes), len(yes) + len(no))

    @cached_property
    def violations(self) -> dict[str, Violation]:
        """Invariant code → where it was checked and broken (codes in first-seen order)."""
        found: dict[str, tuple[list[str], list[str], list[str]]] = {}
        for item in self.items:
            for check in item.evaluation.checks:
                checked, broken, unknown = found.setdefault(check.code, ([], [], []))
                if check.status == HELD:
                    checked.append(item.case_key)
                elif check.status == BROKEN:
                    checked.append(item.case_key)
                    broken.append(item.case_key)
                else:
                    unknown.append(item.case_key)
        return {code: Violation(code, tuple(c), tuple(b), tuple(u))
                for code, (c, b, u) in sorted(found.items())}

    @property
    def mean_steps(self) -> float | None:
        return ratio(sum(i.steps for i in self.items), len(self.items))

    @property
    def mean_tokens(self) -> float | None:
        return self._figures["tokens"].mean

    @property
    def mean_seconds(self) -> float | None:
        return self._figures["seconds"].mean

    @property
    def total_cost(self) -> float | None:
        """Sum of the costs the trajectories carry (None when none carries one)."""
        return self._figures["cost"].total

    @property
    def cost_per_success(self) -> float | None:
        """Total cost / effective successes (None without a success or any cost)."""
        total = self.total_cost
        successes = len(self._verdicts("success")[0])
        return None if total is None else ratio(total, successes)

    def cases(self, figure: str) -> tuple[str, ...]:
        """The cases behind ``figure``: trajectories, success, failure, success_undecided,
        path_ok, path_bad, path_undecided, both, both_no, both_undecided, task_success_rate,
        path_acceptable_rate, both_rate (the decided ones), tokens, seconds, cost
        (those carrying the figure), steps, overruled_success, overruled_path, reviewed,
        ``violation:CODE`` (broken), ``checked:CODE``, ``unknown:CODE``."""
        if figure.startswith(("violation:", "checked:", "unknown:")):
            kind, _sep, code = figure.partition(":")
            violation = self.violations.get(code, Violation(code))
            return {"violation": violation.broken_cases, "checked": violation.checked_cases,
                    "unknown": violation.unknown_cases}[kind]
        table = self._cases
        if figure not in table:
            raise ValueError(f"unknown figure {figure!r}; valid: {', '.join(table)}, "
                             "violation:CODE, checked:CODE, unknown:CODE")
        return table[figure]

    @cached_property
    def _cases(self) -> dict[str, tuple[str, ...]]:
        keys = tuple(i.case_key for i in self.items)
        success, failure, s_none = self._verdicts("success")
        path_ok, path_bad, p_none = self._verdicts("path")
        both, both_no, b_none = self._verdicts("both")
        table: dict[str, tuple[str, ...]] = {
            "trajectories": keys, "steps": keys, "success": success, "failure": failure,
            "success_undecided": s_none, "task_success_rate": success + failure,
            "path_ok": path_ok, "path_bad": path_bad, "path_undecided": p_none,
            "path_acceptable_rate": path_ok + path_bad, "both": both, "both_no": both_no,
            "both_undecided": b_none, "both_rate": both + both_no,
            "tokens": self._figures["tokens"].cases,
            "seconds": self._figures["seconds"].cases,
            "cost": self._figures["cost"].cases,
            "overruled_success": tuple(i.case_key for i in self.items if i.overruled_success),
            "overruled_path": tuple(i.case_key for i in self.items if i.overruled_path),
            "reviewed": tuple(i.case_key for i in self.items
                              if i.reviewed_success is not None
                              or i.reviewed_path is not None),
        }
        return table

    def to_json(self) -> dict[str, object]:
        """One group of the ``agents`` block of ``metrics --json``."""
        success, failure, s_none = self._verdicts("success")
        path_ok, path_bad, p_none = self._verdicts("path")
        both, both_no, b_none = self._verdicts("both")
        tokens, seconds, cost = (self._figures[n] for n in ("tokens", "seconds", "cost"))
        return {
            "trajectories": self.trajectories,
            "task_success": {"rate": self.task_success_rate, "successes": len(success),
                             "failures": len(failure), "undecided": len(s_none)},
            "path_acceptable": {"rate": self.path_acceptable_rate,
                                "acceptable": len(path_ok),
                                "not_acceptable": len(path_bad), "undecided": len(p_none)},
            "both": {"rate": self.both_rate, "yes": len(both), "no": len(both_no),
                     "undecided": len(b_none)},
            "violations": {code: v.to_json() for code, v in self.violations.items()},
            "mean_steps": self.mean_steps,
            "mean_tokens": tokens.mean, "tokens_trajectories": len(tokens.values),
            "mean_seconds": seconds.mean, "seconds_trajectories": len(seconds.values),
            "total_cost": cost.total, "cost_trajectories": len(cost.values),
            "cost_per_success": self.cost_per_success,
            "overruled": {"task_success": sum(i.overruled_success for i in self.items),
                          "path_acceptable": sum(i.overruled_path for i in self.items)},
            "reviewed": sum(i.reviewed_success is not None or i.reviewed_path is not None
                            for i in self.items),
        }


@dataclass(frozen=True)
class AgentSummary:
    """The agent metrics of one run: per family and overall."""

    run: str
    items: tuple[AgentItem, ...]
    per_family: Mapping[str, AgentGroup] = field(default_factory=dict)
    overall: AgentGroup = field(default_factory=AgentGroup)
    retired: int = 0

    @property
    def has_data(self) -> bool:
        return bool(self.items)

    @cached_property
    def trials(self) -> TrialFigures:
        """Success per trial and pass^k over the run's cases (effective success)."""
        return trial_figures((i.case_key, i.trial, i.success) for i in self.items)

    def group(self, family: str | None) -> AgentGroup:
        """One family's figures, or the overall ones (``None``); empty for an unknown one."""
        if family is None:
            return self.overall
        return self.per_family.get(family, AgentGroup())

    def to_json(self) -> dict[str, object]:
        """The ``agents`` block of ``metrics --json``."""
        with bulk_objects():
            return self._json()

    def _json(self) -> dict[str, object]:
        return {
            "run": self.run,
            "trajectories": len(self.items),
            "retired_excluded": self.retired,
            "per_family": {f: g.to_json() for f, g in self.per_family.items()},
            "overall": self.overall.to_json(),
            "trials": self.trials.to_json(),
            "per_trajectory": [
                {"case": i.case_key, "trial": i.trial, "family": i.family, "steps": i.steps,
                 "reward": i.evaluation.reward,
                 "tokens": i.tokens, "seconds": i.seconds, "cost": i.cost,
                 "task_success": {"automatic": i.automatic_success,
                                  "reviewed": i.reviewed_success, "effective": i.success},
                 "path_acceptable": {"automatic": i.automatic_path,
                                     "reviewed": i.reviewed_path, "effective": i.path},
                 "broken": [c.code for c in i.evaluation.checks if c.status == BROKEN],
                 "checks": [_check_json(c) for c in i.evaluation.checks],
                 "final_state": [{"key": k.key, "expected": k.expected, "actual": k.actual,
                                  "status": k.status} for k in i.evaluation.state]}
                for i in self.items],
        }


def _check_json(check: Check) -> dict[str, object]:
    """One invariant's outcome on one trajectory, with the steps that broke it."""
    out: dict[str, object] = {"code": check.code, "status": check.status,
                              "steps": list(check.steps)}
    if check.missing:
        out["never_called"] = list(check.missing)
    if check.limit is not None:
        out["limit"], out["actual"] = check.limit, check.actual
    return out


def summarize_items(run: str, items: Iterable[AgentItem], retired: int = 0) -> AgentSummary:
    """Pure: the summary of ``items`` (one per trajectory of the run)."""
    listed = tuple(items)
    families: dict[str, list[AgentItem]] = {}
    for item in listed:
        families.setdefault(item.family, []).append(item)
    return AgentSummary(run, listed,
                        {f: AgentGroup(tuple(g)) for f, g in sorted(families.items())},
                        AgentGroup(listed), retired)


def summarize_rows(run: str, rows: Iterable[Mapping[str, Any]]) -> AgentSummary:
    """The summary of ``store.agent_inputs`` rows (retired cases left out and counted)."""
    kept = []
    retired = 0
    for row in rows:
        if row.get("status") == "retired":
            retired += 1
        else:
            kept.append(AgentItem.from_row(row))
    return summarize_items(run, kept, retired)

