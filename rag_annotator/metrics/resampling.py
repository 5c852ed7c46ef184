"""Resampling keyed by case, for large groups: a bootstrap and a sign-flip test that one
changed case updates in milliseconds.

The percentile bootstrap of ``metrics.intervals`` draws ``n`` cases with replacement per
resample; the count of a case in each resample then depends on every other case, so a
changed value means drawing everything again — seconds on 10,000 cases, at every judgment.
For a group of :data:`KEYED_FROM` cases or more, each case instead carries its own weight in
every resample, an independent Poisson(1) count drawn from a random stream seeded by the
case's key (the *Poisson bootstrap*, Hanley & MacGibbon 2006; Chamandy et al. 2012, built for
exactly this: data that change row by row).  A resample's mean is ``Σ w·v / Σ w``; its
weights for one case are the same whatever the other cases, so changing one value moves every
resample's sums by that case's weight times the change: :class:`KeyedMeans` keeps the sums
and updates them.  On groups this large the Poisson and the multinomial bootstrap agree
within their Monte Carlo error (``tests/metrics/test_resampling.py`` holds them to scipy's);
below :data:`KEYED_FROM` the multinomial one is kept, exact for small samples, where the
Poisson weights' varying total widens the intervals.

The paired randomization test of ``metrics.significance`` flips each case's difference with
probability ½; :class:`KeyedSigns` draws a case's signs from a stream seeded by its key too,
so its sums update the same way.

Pure: numbers in, numbers out (numpy, imported when first needed).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rag_annotator.metrics.intervals import Interval, check_level, no_spread

if TYPE_CHECKING:
    import numpy as np

#: Groups of at least this many cases resample by case key (see the module docstring); from
#: 200 cases the two bootstraps agree within their Monte Carlo error (``tests/metrics/
#: test_resampling.py``), and a family of a few hundred cases drawn anew costs 0.4 s.
KEYED_FROM = 200
#: Cases whose weights are drawn at once when a group is built (cases x resamples bytes).
_CHUNK = 512
#: Mixed into the seed of the sign flips, so they are not the bootstrap's weights.
_SIGN_SALT = 0x5A17


def _case_key(case: str) -> int:
    """A stable 64-bit number for a case key (Python's ``hash`` changes per process)."""
    return int.from_bytes(hashlib.blake2b(case.encode("utf-8"), digest_size=8).digest(),
                          "little")


_POISSON_TABLE: np.ndarray | None = None


def _poisson_table() -> np.ndarray:
    """Poisson(1) by inverse transform of a 16-bit uniform: 65,536 entries (a lookup is
    ~10x faster than ``Generator.poisson``); the 2**-16 granularity is far below the
    bootstrap's own noise."""
    global _POISSON_TABLE
    if _POISSON_TABLE is None:
        import math

        import numpy as np

        cdf = np.cumsum([math.exp(-1) / math.factorial(k) for k in range(24)])
        _POISSON_TABLE = np.searchsorted(cdf, (np.arange(65_536) + 0.5) / 65_536
                                         ).astype(np.uint8)
    return _POISSON_TABLE


def _stream(seed: int, case: str) -> np.random.Generator:
    import numpy as np

    return np.random.Generator(np.random.Philox(key=[seed & (2**64 - 1), _case_key(case)]))


def weights(cases: Sequence[str], resamples: int, seed: int) -> np.ndarray:
    """The bootstrap weights of ``cases``: a (cases x resamples) array of Poisson(1)
    counts, row ``i`` drawn from the stream of ``cases[i]`` alone."""
    import numpy as np

    table = _poisson_table()
    out = np.empty((len(cases), resamples), dtype=np.uint8)
    for i, case in enumerate(cases):
        out[i] = table[_stream(seed, case).integers(0, 65_536, resamples, dtype=np.uint16)]
    return out


def signs(cases: Sequence[str], permutations: int, seed: int) -> np.ndarray:
    """The sign flips of ``cases``: (cases x permutations) of ±1, per case's stream."""
    import numpy as np

    out = np.empty((len(cases), permutations), dtype=np.float64)
    for i, case in enumerate(cases):
        bits = _stream(seed ^ _SIGN_SALT, case).integers(0, 2, permutations, dtype=np.int8)
        out[i] = bits * 2.0 - 1.0
    return out


Column = Mapping[str, float]  # case key → value (a case without a value is left out)


def _moved(names: Sequence[str], columns: Mapping[str, dict[str, float]], case: str,
           new: Mapping[str, float | None]) -> list[tuple[int, float | None, float | None]]:
    """Give ``case`` its ``new`` value in the columns named (None: left out of one) and say
    which moved: (column's index, old value, new value)."""
    moved = []
    for j, name in enumerate(names):
        if name not in new:
            continue
        column = columns[name]
        old, value = column.get(case), new[name]
        if old == value:
            continue
        if value is None:
            column.pop(case, None)
        else:
            column[case] = value
        moved.append((j, old, value))
    return moved


class KeyedMeans:
    """The Poisson bootstrap of several means over one group of cases, kept up to date one
    case at a time.  ``columns``: name → {case: value}; every column's interval depends only
    on its values, the resamples and the seed."""

    def __init__(self, columns: Mapping[str, Column], resamples: int, seed: int,
                 _empty: bool = False) -> None:
        import numpy as np

        self.names = list(columns)
        self.resamples, self.seed = resamples, seed
        self.values: dict[str, dict[str, float]] = {m: dict(c) for m, c in columns.items()}
        self.sums = np.zeros((resamples, len(self.names)))
        self.totals = np.zeros((resamples, len(self.names)))
        if not _empty:
            cases = sorted({c for column in columns.values() for c in column})
            for start in range(0, len(cases), _CHUNK):
                chunk = cases[start:start + _CHUNK]
                self._add_chunk(chunk, weights(chunk, resamples, seed).T.astype(np.float64))

    @classmethod
    def many(cls, groups: Mapping[str | None, Mapping[str, Column]], resamples: int,
             seed: int) -> dict[str | None, KeyedMeans]:
        """One :class:`KeyedMeans` per group, each case's weights drawn once for every group
        it belongs to (a run and its families: the same cases twice)."""
        import numpy as np

        out = {g: cls(columns, resamples, seed, _empty=True) for g, columns in groups.items()}
        # Cases that belong to the same groups are drawn together, so each block of
        # weights feeds whole groups (no copy of a block's columns per group).
        belongs: dict[str, list[str | None]] = {}
        for g, state in out.items():
            for case in {c for column in state.values.values() for c in column}:
                belongs.setdefault(case, []).append(g)
        together: dict[tuple[str | None, ...], list[str]] = {}
        for case in sorted(belongs):
            together.setdefault(tuple(belongs[case]), []).append(case)
        for owners, cases in together.items():
            for start in range(0, len(cases), _CHUNK):
                chunk = cases[start:start + _CHUNK]
                drawn = weights(chunk, resamples, seed).T.astype(np.float64)
                for g in owners:
                    out[g]._add_chunk(chunk, drawn)
        return out

    def _add_chunk(self, chunk: Sequence[str], drawn: np.ndarray) -> None:
        """Add the cases of ``chunk`` (their weights: ``drawn``, resamples x cases)."""
        import numpy as np

        values = np.zeros((len(chunk), len(self.names)))
        present = np.zeros((len(chunk), len(self.names)))
        for j, name in enumerate(self.names):
            column = self.values[name]
            for i, case in enumerate(chunk):
                if case in column:
                    values[i, j], present[i, j] = column[case], 1.0
        self.sums += drawn @ values
        self.totals += drawn @ present

    def set_case(self, case: str, new: Mapping[str, float | None]) -> None:
        """Give ``case`` its ``new`` value in each column named (None: left out)."""
        import numpy as np

        delta_v = np.zeros(len(self.names))
        delta_p = np.zeros(len(self.names))
        for j, old, value in _moved(self.names, self.values, case, new):
            delta_v[j] = (value or 0.0) - (old or 0.0)
            delta_p[j] = (value is not None) - (old is not None)
        if not delta_p.any() and not delta_v.any():
            return
        w = weights([case], self.resamples, self.seed)[0].astype(np.float64)
        self.sums += np.outer(w, delta_v)
        self.totals += np.outer(w, delta_p)

    def intervals(self, level: float) -> dict[str, Interval | None]:
        """Each column's percentile interval at ``level`` (see ``intervals.bootstrap_means``
        for a column of one value, or of values that are all equal)."""
        import numpy as np

        check_level(level)
        out: dict[str, Interval | None] = {}
        tail = (1 - level) / 2 * 100
        for j, name in enumerate(self.names):
            column = self.values[name]
            if not column:
                out[name] = None
                continue
            low_v, high_v = min(column.values()), max(column.values())
            if low_v == high_v:
                out[name] = no_spread(low_v, len(column), level)
                continue
            totals = self.totals[:, j]
            kept = totals > 0
            means = self.sums[kept, j] / totals[kept]
            low, high = np.percentile(means, [tail, 100 - tail])
            out[name] = Interval(float(low), float(high), level)
        return out


class KeyedSigns:
    """The paired randomization test's sums under keyed sign flips, kept up to date: for
    each flip ``r`` and column ``m``, ``Σ s_ri d_im`` over the cases' differences (a case's
    signs are the same in every column: drawn once per case)."""

    def __init__(self, columns: Mapping[str, Mapping[str, float]], permutations: int,
                 seed: int) -> None:
        import numpy as np

        self.names = list(columns)
        self.permutations, self.seed = permutations, seed
        self.differences: dict[str, dict[str, float]] = {m: dict(c)
                                                         for m, c in columns.items()}
        # per column: the observed sum and the sum of magnitudes, moved with each case
        self.observed = {m: [math.fsum(c.values()), math.fsum(map(abs, c.values()))]
                         for m, c in self.differences.items()}
        self.sums = np.zeros((permutations, len(self.names)))
        cases = sorted({c for column in columns.values() for c in column})
        for start in range(0, len(cases), _CHUNK):
            chunk = cases[start:start + _CHUNK]
            values = np.array([[self.differences[m].get(c, 0.0) for m in self.names]
                               for c in chunk]).reshape(len(chunk), len(self.names))
            self.sums += signs(chunk, permutations, seed).T @ values

    def set_case(self, case: str, new: Mapping[str, float | None]) -> None:
        """Give ``case`` its ``new`` difference in each column named (None: left out)."""
        import numpy as np

        delta = np.zeros(len(self.names))
        for j, old, value in _moved(self.names, self.differences, case, new):
            delta[j] = (value or 0.0) - (old or 0.0)
            observed = self.observed[self.names[j]]
            observed[0] += delta[j]
            observed[1] += abs(value or 0.0) - abs(old or 0.0)
        if delta.any():
            self.sums += np.outer(signs([case], self.permutations, self.seed)[0], delta)

    def p_values(self) -> dict[str, float | None]:
        """Each column's two-sided p: the share of flips at least as far from 0 as the
        observed sum (as ``significance.randomization_p``)."""
        import numpy as np

        out: dict[str, float | None] = {}
        for j, name in enumerate(self.names):
            if not self.differences[name]:
                out[name] = None
                continue
            total, magnitude = self.observed[name]
            observed = abs(total) - 1e-9 * max(1.0, magnitude)
            out[name] = int(np.count_nonzero(np.abs(self.sums[:, j]) >= observed)
                            ) / self.permutations
        return out
