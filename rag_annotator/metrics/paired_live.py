"""The paired comparison of two runs (``metrics.significance``), kept up to date case by
case: :class:`LivePaired`.

For each measure it keeps the cases both runs give a value, their differences, and, for a
measure over :data:`~rag_annotator.metrics.resampling.KEYED_FROM` cases or more, the keyed
bootstrap of the mean difference and the keyed sign flips of the randomization test
(``metrics.resampling``): a changed case then moves two sums instead of drawing 10,000
resamples and 10,000 flips again.  A smaller measure is tested again whole (cheap at that
size, and exact as the multinomial bootstrap is).  ``significance.paired_comparison`` is
this class's first result, so a comparison computed anew and one kept up to date agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

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


class _Measure:
    """One measure: its differences by case and, when large, its keyed resampling."""

    def __init__(self, diffs: dict[str, float], resamples: int, seed: int,
                 permutations: int) -> None:
        self.diffs = diffs
        self.resamples, self.seed, self.permutations = resamples, seed, permutations
        self.means: KeyedMeans | None = None
        self.signs: KeyedSigns | None = None
        self._tested: tuple[Interval | None, float | None] | None = None  # until a change
        if len(diffs) >= KEYED_FROM:
            self.means = KeyedMeans({"d": diffs}, resamples, seed)
            self.signs = KeyedSigns(diffs, permutations, seed)

    def set_case(self, case: str, diff: float | None) -> None:
        if self.diffs.get(case) == diff and (diff is not None or case not in self.diffs):
            return  # this measure did not move: its test stands
        self._tested = None
        if diff is None:
            self.diffs.pop(case, None)
        else:
            self.diffs[case] = diff
        if self.means is not None and self.signs is not None:
            if len(self.diffs) < KEYED_FROM:  # shrank below: tested whole from now on
                self.means = self.signs = None
                return
            self.means.set_case(case, {"d": diff})
            self.signs.set_case(case, diff)
        elif len(self.diffs) >= KEYED_FROM:
            self.means = KeyedMeans({"d": self.diffs}, self.resamples, self.seed)
            self.signs = KeyedSigns(self.diffs, self.permutations, self.seed)

    def tested(self, level: float, values: list[float]) -> tuple[Interval | None, float | None]:
        """(the mean difference's interval, the randomization p); ``values``: the
        differences in the comparison's case order (a small measure's draws follow it)."""
        if self._tested is None:
            if not self.diffs:
                self._tested = (None, None)
            elif self.means is not None and self.signs is not None:
                self._tested = (self.means.intervals(level)["d"], self.signs.p_value())
            else:
                self._tested = (bootstrap_mean(values, self.resamples, level, self.seed),
                                randomization_p(values, self.permutations, self.seed))
        return self._tested


class LivePaired:
    """A paired comparison over ``pairs`` (case → measure → (A, B)), updatable by case."""

    def __init__(self, pairs: Pairs, measures: Sequence[str], level: float,
                 resamples: int, seed: int, permutations: int) -> None:
        check_level(level)
        self.order = list(pairs)  # cases in the comparison's order (the diffs' order)
        self.level = level
        self.measures = {m: _Measure(_diffs(pairs.items(), m), resamples, seed,
                                     permutations) for m in measures}

    def set_case(self, case: str, values: Mapping[str, tuple[float | None, float | None]]
                 ) -> None:
        """``case``'s (A, B) per measure now (a case new to the comparison comes last)."""
        if case not in self.order:
            self.order.append(case)
        for measure, state in self.measures.items():
            a, b = values.get(measure, (None, None))
            state.set_case(case, None if a is None or b is None else a - b)

    def results(self) -> dict[str, PairedResult]:
        """Measure → :class:`~rag_annotator.metrics.significance.PairedResult`."""
        raw = {}
        for measure, state in self.measures.items():
            cases = tuple(c for c in self.order if c in state.diffs)
            diffs = [state.diffs[c] for c in cases]
            interval, p_random = state.tested(self.level, diffs)
            raw[measure] = (cases, diffs, paired_t(diffs), interval, p_random)
        corrected = holm({m: r[4] for m, r in raw.items()})
        out: dict[str, PairedResult] = {}
        for measure, (cases, diffs, t_test, interval, p_random) in raw.items():
            mean_diff = sum(diffs) / len(diffs) if diffs else None
            out[measure] = PairedResult(
                measure, cases, mean_diff, interval,
                None if t_test is None else t_test[1], p_random, corrected[measure],
                verdict_of(mean_diff, corrected[measure], len(cases), self.level))
        return out


def _diffs(pairs: Iterable[tuple[str, Mapping[str, tuple[float | None, float | None]]]],
           measure: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for case, values in pairs:
        a, b = values[measure]
        if a is not None and b is not None:
            out[case] = a - b
    return out
