"""The Dashboard's agent panel (issue 9): task success, path acceptable, violation rate per
invariant, means and cost per successful task of a run, per family, with the cases behind
every figure."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

from rag_annotator.metrics.agents import AgentGroup, AgentSummary
from rag_annotator.metrics.run_intervals import FigureIntervals
from rag_annotator.ui.dashboard.format import error_bar, pct_range
from rag_annotator.ui.dashboard.widgets import Bar, BarChart, FigureTable
from rag_annotator.ui.look import colours


class AgentsPanel(QGroupBox):
    """The agent figures of a run: per family and overall, then per invariant.

    ``table`` (task success, path, both, undecided, means, cost per success, overruled),
    ``violations`` (rate, broken, checked, unknown per invariant) and ``bars`` (violation
    rates) carry the cases behind every figure, like the other tables of the dashboard.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Agents: task success, path and invariants per family"),
                         parent)
        self._intervals: FigureIntervals | None = None
        self.table = FigureTable()
        self.violations = FigureTable()
        self.bars = BarChart()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.trials = QLabel()  # success per trial and pass^k, when cases have trials
        self.trials.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.trials)
        layout.addWidget(QLabel(self.tr("Violation rate per invariant (broken / checked)")))
        layout.addWidget(self.violations)
        layout.addWidget(self.bars)
        layout.addWidget(self.note)

    def clear(self) -> None:
        self.table.fill([], [])
        self.violations.fill([], [])
        self.bars.set_bars([])

    def show_summary(self, summary: AgentSummary, families: Sequence[tuple[str, str | None]],
                     pct: Callable[[float | None], str],
                     num: Callable[[float | None, int], str],
                     intervals: FigureIntervals | None = None) -> None:
        """Fill from ``summary``; ``families``: (row title, family code or None for all);
        ``intervals``: the rates' ranges (issue 16), shown as "66.7% [21–94]"."""
        self._intervals = intervals
        columns = [self.tr("Trajectories"), self.tr("Task success"), self.tr("Failed"),
                   self.tr("Path acceptable"), self.tr("Path not acceptable"),
                   self.tr("Both"), self.tr("Undecided"), self.tr("Mean steps"),
                   self.tr("Mean tokens"), self.tr("Mean seconds"),
                   self.tr("Cost per success"), self.tr("Overruled")]
        rows = [(title, self._cells(summary.group(code), pct, num, code))
                for title, code in families]
        self.table.fill(columns, rows)
        self._show_trials(summary, pct)
        overall = summary.overall
        red = colours.fg("bar_bad")
        vrows = []
        bars = []
        for code, v in overall.violations.items():
            name = self.invariant(code)
            interval = intervals.violation(code) if intervals is not None else None
            vrows.append((name, [
                (pct_range(v.rate, interval), list(v.broken_cases),
                 self.tr("trajectories that broke it / trajectories where it was checked")),
                (str(len(v.broken_cases)), list(v.broken_cases), ""),
                (str(len(v.checked_cases)), list(v.checked_cases), ""),
                (str(len(v.unknown_cases)), list(v.unknown_cases),
                 self.tr("the trajectory gives no figure for this budget: not counted")),
            ]))
            bars.append(Bar(name, [(v.rate or 0.0, red, name, list(v.broken_cases))],
                            f"{pct(v.rate)}  ({len(v.broken_cases)}/{len(v.checked_cases)})",
                            error_bar(interval)))
        self.violations.fill([self.tr("Violation rate"), self.tr("Broken"), self.tr("Checked"),
                              self.tr("Unknown")], vrows)
        self.violations.setVisible(bool(vrows))
        self.bars.set_bars(bars)
        self.bars.setVisible(bool(bars))
        self.note.setText(self.tr(
            "%1 trajectories. A reviewer's mark overrides the automatic check; a trajectory "
            "that can be decided neither way (no expected state or no final state, not "
            "marked) is undecided and left out of the rate. Means are over the trajectories "
            "that carry the figure; cost per success = total cost / successful tasks. "
            "Retired cases are left out (%2). — means not computable.")
            .replace("%1", str(overall.trajectories)).replace("%2", str(summary.retired)))

    def _show_trials(self, summary: AgentSummary,
                     pct: Callable[[float | None], str]) -> None:
        """One line: success rate per trial and pass^k (tau-bench), hidden without trials."""
        trials = summary.trials
        self.trials.setVisible(trials.has_trials)
        if not trials.has_trials:
            return
        per_trial = " · ".join(f"{t}: {pct(trials.success_rate(t))}"
                               for t in sorted(trials.per_trial))
        pass_k = " · ".join(f"k={k} {value:.3f}" for k, (value, _n) in trials.pass_k.items())
        self.trials.setText(self.tr("Success rate per trial: %1. pass^k (all k trials of a "
                                    "case succeed): %2.").replace("%1", per_trial)
                            .replace("%2", pass_k))

    def _cells(self, group: AgentGroup, pct: Callable[[float | None], str],
               num: Callable[[float | None, int], str], family: str | None = None
               ) -> list[tuple[str, list[str] | None, str]]:
        intervals = self._intervals

        def rate(name: str) -> str:
            value = getattr(group, name)
            if intervals is None:
                return pct(value)
            return pct_range(value, intervals.agent(name, family))

        success, failure = group.cases("success"), group.cases("failure")
        ok, bad = group.cases("path_ok"), group.cases("path_bad")
        overruled = sorted({*group.cases("overruled_success"), *group.cases("overruled_path")})
        tokens, seconds = group.cases("tokens"), group.cases("seconds")
        return [
            (str(group.trajectories), list(group.cases("trajectories")), ""),
            (f"{rate('task_success_rate')}  ({len(success)}/{len(success) + len(failure)})",
             list(success), self.tr("successful tasks / trajectories with a verdict")),
            (str(len(failure)), list(failure), ""),
            (f"{rate('path_acceptable_rate')}  ({len(ok)}/{len(ok) + len(bad)})", list(ok),
             self.tr("acceptable paths / trajectories with a verdict")),
            (str(len(bad)), list(bad), ""),
            (rate("both_rate"), list(group.cases("both")),
             self.tr("success with an acceptable path")),
            (str(len(group.cases("success_undecided"))), list(group.cases("success_undecided")),
             self.tr("task success cannot be decided yet: mark it in the review")),
            (num(group.mean_steps, 1), list(group.cases("steps")), ""),
            (f"{num(group.mean_tokens, 0)}  ({len(tokens)})", list(tokens),
             self.tr("over the trajectories that give tokens")),
            (f"{num(group.mean_seconds, 1)}  ({len(seconds)})", list(seconds),
             self.tr("over the trajectories that give seconds")),
            (num(group.cost_per_success, 4), list(group.cases("cost")),
             self.tr("total cost / successful tasks")),
            (f"{len(group.cases('overruled_success'))} / {len(group.cases('overruled_path'))}",
             overruled, self.tr("automatic verdicts a review overruled: success / path")),
        ]

    def invariant(self, code: str) -> str:
        """An invariant code in words (tool names stay as they are)."""
        kind, _sep, rest = code.partition(":")
        if kind == "forbidden":
            return self.tr("forbidden: %1").replace("%1", rest)
        if kind == "required":
            return self.tr("required: %1").replace("%1", rest)
        if kind == "order":
            return rest.replace("<", " < ")
        return {"max_steps": self.tr("step budget"), "max_tokens": self.tr("token budget"),
                "max_seconds": self.tr("time budget"),
                "max_cost": self.tr("cost budget")}.get(code, code)
