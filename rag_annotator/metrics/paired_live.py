"""The paired comparison of two runs (``metrics.significance``), kept up to date case by
case: :class:`LivePaired`.

For each measure it keeps the cases both runs give a value and their differences.  The
measures over :data:`~rag_annotator.metrics.resampling.KEYED_FROM` cases or more share one
keyed bootstrap of their mean differences and one keyed set of sign flips for the
randomization test (``metrics.resampling``: a case's weights and signs are drawn once for
every measure): a changed case then moves a few sums instead of drawing 10,000 resamples
and 10,000 flips again.  A smaller measure is tested again whole when it moves (cheap at
that size, and exact as the multinomial bootstrap is).  Which measures are large follows
their counts; when that changes, the shared sums are made again, as a comparison made anew
would make them.  ``significance.paired_comparison`` is this class's first result, so a
comparison computed anew and one kept up to date agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rag_annotator.metrics.intervals import Interval, bootstrap_mean, check_level
from rag_annotator.metrics.resampling import KEYED_FROM, KeyedMeans, KeyedSigns
from rag_annotator.metrics.significance import (
    PairedResult,
    holm,
    paired_t,
    randomization_p,
    verdict_of,
)

Pairs = Mapping[str, Mapping[str, "tuple[float | None, float | None]"]]


class LivePaired:
    """A paired comparison over ``pairs`` (case → measure → (A, B)), updatable by case."""

    def __init__(self, pairs: Pairs, measures: Sequence[str], level: float,
                 resamples: int, seed: int, permutations: int) -> None:
        check_level(level)
        self.order = list(pairs)  # cases in the comparison's order (the diffs' order)
        self.level = level
        self.resamples, self.seed, self.permutations = resamples, seed, permutations
        self.diffs: dict[str, dict[str, float]] = {m: {} for m in measures}
        for case, values in pairs.items():
            for m in measures:
                a, b = values[m]
                if a is not None and b is not None:
                    self.diffs[m][case] = a - b
        self.tested: dict[str, tuple[Interval | None, float | None]] = {}  # until moved
        self._listed: dict[str, tuple[tuple[str, ...], list[float]]] = {}  # until moved
        self.large: tuple[str, ...] = ()
        self.means: KeyedMeans | None = None
        self.signs: KeyedSigns | None = None
        self._resample()

    def _resample(self) -> None:
        """(Re)make the shared keyed sums of the measures large enough for them."""
        large = tuple(m for m, d in self.diffs.items() if len(d) >= KEYED_FROM)
        if large == self.large and (self.means is not None or not large):
            return
        self.large = large
        columns = {m: self.diffs[m] for m in large}
        self.means = KeyedMeans(columns, self.resamples, self.seed) if large else None
        self.signs = KeyedSigns(columns, self.permutations, self.seed) if large else None
        self.tested = {}

    def set_case(self, case: str, values: Mapping[str, tuple[float | None, float | None]]
                 ) -> None:
        """``case``'s (A, B) per measure now (a case new to the comparison comes last)."""
        if case not in self.order:
            self.order.append(case)
        moved: dict[str, float | None] = {}
        for measure, diffs in self.diffs.items():
            a, b = values.get(measure, (None, None))
            diff = None if a is None or b is None else a - b
            if diffs.get(case) == diff and (diff is not None or case not in diffs):
                continue  # this measure did not move: its test stands
            moved[measure] = diff
            self.tested.pop(measure, None)
            self._listed.pop(measure, None)
            if diff is None:
                diffs.pop(case, None)
            else:
                diffs[case] = diff
        if not moved:
            return
        before = self.large
        self._resample()
        if self.large == before and self.means is not None and self.signs is not None:
            shared = {m: d for m, d in moved.items() if m in self.large}
            if shared:
                self.means.set_case(case, shared)
                self.signs.set_case(case, shared)
                for m in self.large:  # one resampling: every large measure's test moves
                    self.tested.pop(m, None)

    def _test(self, measure: str, values: list[float]) -> tuple[Interval | None,
                                                                 float | None]:
        """(the mean difference's interval, the randomization p); ``values``: the
        differences in the comparison's case order (a small measure's draws follow it)."""
        if measure not in self.tested:
            if not values:
                self.tested[measure] = (None, None)
            elif measure in self.large and self.means is not None and self.signs is not None:
                intervals, p_values = self.means.intervals(self.level), self.signs.p_values()
                for m in self.large:
                    self.tested[m] = (intervals[m], p_values[m])
            else:
                self.tested[measure] = (
                    bootstrap_mean(values, self.resamples, self.level, self.seed),
                    randomization_p(values, self.permutations, self.seed))
        return self.tested[measure]

    def results(self) -> dict[str, PairedResult]:
        """Measure → :class:`~rag_annotator.metrics.significance.PairedResult`."""
        raw = {}
        for measure, diffs in self.diffs.items():
            if measure not in self._listed:  # in the comparison's order, until it moves
                listed = tuple(c for c in self.order if c in diffs)
                self._listed[measure] = (listed, [diffs[c] for c in listed])
            cases, values = self._listed[measure]
            interval, p_random = self._test(measure, values)
            raw[measure] = (cases, values, paired_t(values), interval, p_random)
        corrected = holm({m: r[4] for m, r in raw.items()})
        out: dict[str, PairedResult] = {}
        for measure, (cases, values, t_test, interval, p_random) in raw.items():
            mean_diff = sum(values) / len(values) if values else None
            out[measure] = PairedResult(
                measure, cases, mean_diff, interval,
                None if t_test is None else t_test[1], p_random, corrected[measure],
                verdict_of(mean_diff, corrected[measure], len(cases), self.level))
        return out
