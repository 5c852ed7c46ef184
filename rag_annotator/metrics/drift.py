"""The drift table: the runs of a gold set in the order they were made, and which change made
a figure worse (issue 16, item 3; seed 003's step 06: replay the stable set at every change of
corpus, index, parameters, model or prompt, and find the change responsible).

For each run (:class:`RunPoint`, in the order of ``created_at`` then id): its version fields,
its headline figures per family with their intervals, the change of each from the previous
run and from a chosen baseline, and the **regressions**: the paired measures where the run is
significantly *worse* than the previous run (or than the baseline), by the paired comparison
of ``metrics.significance`` over the cases both runs cover.  For each regression, the version
fields that changed between the two runs and the cases that flipped: validated → not validated
(answers), relevant found → lost (Success@k 1 → 0).

Pure: the values come from ``reports.drift``, which builds one :class:`RunPoint` per run from
its ``RunFigures``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rag_annotator.metrics.intervals import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    Interval,
)
from rag_annotator.metrics.significance import WORSE, PairedResult, paired_comparison

#: The version fields of a run, in the order the drift table shows them (``notes`` holds
#: the parameters: the runs table has no column of its own for them).
VERSION_FIELDS = ("model", "corpus_version", "index_version", "prompt_version", "notes")
#: The per-case paired measure of the answers: 1 validated, 0 tested and not validated.
VALIDATED = "validated"
#: The family key of the whole run.
OVERALL = None


@dataclass(frozen=True)
class RunVersion:
    """One run as the drift table lists it."""

    name: str
    id: int
    created_at: str
    fields: Mapping[str, str] = field(default_factory=dict)

    def changed(self, before: RunVersion) -> dict[str, tuple[str, str]]:
        """Version field → (before, now), for the fields that differ from ``before``."""
        return {f: (before.fields.get(f, ""), self.fields.get(f, ""))
                for f in VERSION_FIELDS if before.fields.get(f, "") != self.fields.get(f, "")}


class HeadlineFigure(Protocol):
    """What the drift needs of one headline figure of one family in one run: its value,
    interval and n (``reports.figure.Figure`` is one; so is :class:`Headline`)."""

    @property
    def value(self) -> float | None: ...

    @property
    def interval(self) -> Interval | None: ...

    @property
    def n(self) -> int: ...


@dataclass(frozen=True)
class Headline:
    """A headline figure given by its three numbers (tests, callers without a Figure)."""

    value: float | None
    interval: Interval | None
    n: int


def headline_json(figure: HeadlineFigure) -> dict[str, object]:
    """``{value, value_ci, n}`` of one headline figure."""
    return {"value": figure.value,
            "value_ci": None if figure.interval is None or figure.value is None
            else figure.interval.to_json(), "n": figure.n}


@dataclass(frozen=True)
class RunPoint:
    """What the drift table needs of one run: its version, its headline figures (family,
    :data:`OVERALL` for the run → figure → :class:`Headline`), and per case the paired
    measures (case → measure → value, None where not computable: the retrieval measures and
    :data:`VALIDATED`).  ``success_measure``: the Success@k among them whose 1 → 0 is "relevant
    found → lost" (None without one)."""

    version: RunVersion
    headlines: Mapping[str | None, Mapping[str, HeadlineFigure]]
    per_case: Mapping[str, Mapping[str, float | None]]
    measures: tuple[str, ...]
    success_measure: str | None = None


@dataclass(frozen=True)
class Regression:
    """A paired measure where ``run`` is significantly worse than ``against``."""

    run: str
    against: str
    measure: str
    result: PairedResult
    changed_fields: Mapping[str, tuple[str, str]]
    flipped_validated: tuple[str, ...]
    lost_relevant: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"run": self.run, "against": self.against, "measure": self.measure,
                **self.result.to_json(),
                "changed": {f: {"before": b, "after": a}
                            for f, (b, a) in self.changed_fields.items()},
                "validated_lost": list(self.flipped_validated),
                "relevant_lost": list(self.lost_relevant)}


Deltas = Mapping["str | None", Mapping[str, "float | None"]]


@dataclass(frozen=True)
class DriftRow:
    """One run of the drift table."""

    point: RunPoint
    from_previous: Deltas
    from_baseline: Deltas
    regressions: tuple[Regression, ...]

    @property
    def name(self) -> str:
        return self.point.version.name


@dataclass(frozen=True)
class Drift:
    """The runs in order (``rows``), the ``baseline`` run the changes are measured from (the
    first run unless chosen; None without runs), and the paired comparison's level."""

    rows: tuple[DriftRow, ...]
    baseline: str | None
    level: float = DEFAULT_LEVEL

    @property
    def regressions(self) -> tuple[Regression, ...]:
        return tuple(r for row in self.rows for r in row.regressions)

    def to_json(self) -> dict[str, object]:
        """The object ``metrics FILE --drift --json`` prints."""
        def family(key: str | None) -> str:
            return "overall" if key is None else key

        return {
            "baseline": self.baseline, "level": self.level,
            "runs": [{
                "run": row.name, "id": row.point.version.id,
                "created_at": row.point.version.created_at,
                "versions": dict(row.point.version.fields),
                "figures": {family(f): {k: headline_json(h) for k, h in v.items()}
                            for f, v in row.point.headlines.items()},
                "from_previous": {family(f): dict(v) for f, v in row.from_previous.items()},
                "from_baseline": {family(f): dict(v) for f, v in row.from_baseline.items()},
                "regressions": [r.to_json() for r in row.regressions],
            } for row in self.rows],
        }


def ordered(points: Sequence[RunPoint]) -> list[RunPoint]:
    """The runs in the order they were made: ``created_at``, then id."""
    return sorted(points, key=lambda p: (p.version.created_at, p.version.id))


def _deltas(now: RunPoint, before: RunPoint | None) -> dict[str | None, dict[str, float | None]]:
    out: dict[str | None, dict[str, float | None]] = {}
    if before is None:
        return out
    for family, figures in now.headlines.items():
        then = before.headlines.get(family, {})
        out[family] = {}
        for name, headline in figures.items():
            old = then.get(name)
            out[family][name] = (None if old is None or old.value is None
                                 or headline.value is None else headline.value - old.value)
    return out


def flipped(now: RunPoint, before: RunPoint, measure: str | None) -> tuple[str, ...]:
    """The cases whose ``measure`` went from 1 in ``before`` to 0 in ``now``."""
    if measure is None:
        return ()
    return tuple(case for case, values in now.per_case.items()
                 if values.get(measure) == 0.0
                 and before.per_case.get(case, {}).get(measure) == 1.0)


def _regressions(now: RunPoint, before: RunPoint, level: float, resamples: int,
                 seed: int) -> tuple[Regression, ...]:
    measures = [m for m in now.measures if m in before.measures]
    if not measures:
        return ()
    both = [c for c in now.per_case if c in before.per_case]
    pairs = {c: {m: (now.per_case[c].get(m), before.per_case[c].get(m)) for m in measures}
             for c in both}
    results = paired_comparison(pairs, measures, level, resamples, seed, resamples)
    changed = now.version.changed(before.version)
    validated_lost = flipped(now, before, VALIDATED)
    relevant_lost = flipped(now, before, now.success_measure)
    return tuple(Regression(now.version.name, before.version.name, m, r, changed,
                            validated_lost, relevant_lost)
                 for m, r in results.items() if r.verdict == WORSE)


def drift(points: Sequence[RunPoint], baseline: str | None = None,
          level: float = DEFAULT_LEVEL, resamples: int = DEFAULT_RESAMPLES,
          seed: int = DEFAULT_SEED) -> Drift:
    """The drift table of ``points`` (any order; sorted here).  ``baseline``: the run the
    changes are also measured from (None: the first run); ValueError when no point has that
    name.  Regressions are looked for against the previous run and, when it is another one,
    against the baseline."""
    runs = ordered(points)
    by_name = {p.version.name: p for p in runs}
    if baseline is not None and baseline not in by_name:
        raise ValueError(f"no run named {baseline!r}; runs: {', '.join(by_name) or 'none'}")
    base = by_name[baseline] if baseline is not None else (runs[0] if runs else None)
    base_index = runs.index(base) if base is not None else 0
    rows = []
    for i, point in enumerate(runs):
        previous = runs[i - 1] if i else None
        found: list[Regression] = []
        # A regression is against an earlier run: the previous one, and the baseline when it
        # came before (and is not the previous one).
        for against in (previous, base if base_index < i - 1 else None):
            if against is not None:
                found += _regressions(point, against, level, resamples, seed)
        rows.append(DriftRow(point, _deltas(point, previous),
                             _deltas(point, base if base is not point else None),
                             tuple(found)))
    return Drift(tuple(rows), None if base is None else base.version.name, level)
