"""Several trials of one agent case: success per trial and pass^k (tau-bench, issue 18).

Benchmarks such as tau-bench run every task ``n`` times (``trial`` 0..n-1) because one
run of an agent says little about how reliably it succeeds.  Two figures follow:

* **success rate per trial** = successes / decided trajectories among those of trial
  number ``t`` (what tau-bench's per-trial reward average is when rewards are 0 or 1);
* **pass^k** (Yao et al. 2024, arXiv 2406.12045; tau-bench's ``display_metrics``): for a
  case with ``n`` trials of which ``c`` succeeded, the chance that ``k`` trials drawn
  without replacement all succeed is ``C(c, k) / C(n, k)``; pass^k is its mean over the
  cases.  pass^1 is the plain success rate.  A case enters pass^k only when it has at
  least ``k`` trials and every one is decided (a trial nobody can decide would make
  ``c`` a guess); the cases left out are counted.

Pure over ``(case key, trial, success)`` triples, success ``None`` when undecided.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import comb


@dataclass(frozen=True)
class TrialFigures:
    """Success per trial and pass^k over the cases of a run."""

    #: trial number → (successes, decided, undecided)
    per_trial: dict[int, tuple[int, int, int]]
    #: k → (pass^k, cases averaged over)
    pass_k: dict[int, tuple[float, int]]
    #: cases left out of pass^k because a trial is undecided
    undecided_cases: tuple[str, ...]

    @property
    def has_trials(self) -> bool:
        """More than one trial of some case (else the figures say nothing new)."""
        return max(self.pass_k, default=1) > 1

    def success_rate(self, trial: int) -> float | None:
        successes, decided, _undecided = self.per_trial.get(trial, (0, 0, 0))
        return successes / decided if decided else None

    def to_json(self) -> dict[str, object]:
        """The ``trials`` block of the agent metrics of ``metrics --json``."""
        return {
            "per_trial": {str(t): {"success_rate": self.success_rate(t), "successes": s,
                                   "decided": d, "undecided": u}
                          for t, (s, d, u) in sorted(self.per_trial.items())},
            "pass_k": {str(k): {"value": value, "cases": cases}
                       for k, (value, cases) in sorted(self.pass_k.items())},
            "cases_with_undecided_trials": len(self.undecided_cases),
        }


def trial_figures(items: Iterable[tuple[str, int, bool | None]]) -> TrialFigures:
    """Success per trial and pass^k of ``(case key, trial, success)`` triples."""
    per_trial: dict[int, list[int]] = {}
    per_case: dict[str, list[bool | None]] = {}
    for case, trial, success in items:
        counts = per_trial.setdefault(trial, [0, 0, 0])
        if success is None:
            counts[2] += 1
        else:
            counts[0] += int(success)
            counts[1] += 1
        per_case.setdefault(case, []).append(success)
    undecided = tuple(sorted(c for c, found in per_case.items() if None in found))
    decided = [(len(found), sum(bool(s) for s in found))
               for c, found in per_case.items() if None not in found]
    pass_k: dict[int, tuple[float, int]] = {}
    for k in range(1, max((n for n, _c in decided), default=0) + 1):
        terms = [comb(c, k) / comb(n, k) for n, c in decided if n >= k]
        pass_k[k] = (sum(terms) / len(terms), len(terms))
    return TrialFigures({t: (s, d, u) for t, (s, d, u) in per_trial.items()}, pass_k,
                        undecided)
