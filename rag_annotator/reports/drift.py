"""The drift table of a gold set, read through the store (issue 16, item 3): one
:class:`~rag_annotator.metrics.drift.RunPoint` per run, built from that run's
:class:`~rag_annotator.reports.run_figures.RunFigures` (so the drift shows the same figures and
intervals as the dashboard and ``metrics``), then :func:`rag_annotator.metrics.drift.drift`.

Headline figures per family (and ``None`` for the whole run): the answers' ``success``,
``quality`` and ``coverage``, the mean of each retrieval measure asked for, and the agents'
``task_success``; a figure with nothing behind it in a run (n = 0) is left out of that run.
The paired measures are the retrieval measures, a Success@k (``Success@10`` unless one is
asked for) whose 1 → 0 is "relevant found → lost", and ``validated`` (1 validated, 0 tested
and not validated) whose 1 → 0 is "validated → not validated".
"""

from __future__ import annotations

from dataclasses import replace

from rag_annotator.metrics.drift import (
    OVERALL,
    VALIDATED,
    VERSION_FIELDS,
    Drift,
    HeadlineFigure,
    RunPoint,
    RunVersion,
    drift,
)
from rag_annotator.metrics.measures import MeasureKind, parse_measures
from rag_annotator.reports.run_figures import (
    AGENTS,
    ANSWERS,
    RETRIEVAL,
    FigureOptions,
    RunFigures,
    build,
)
from rag_annotator.storage.store import GoldSetStore

#: The Success@k added to the paired measures when none is asked for.
DEFAULT_SUCCESS = "Success@10"
#: The answer figures of the drift table, in the order it shows them.
ANSWER_HEADLINES = ("success", "quality", "coverage")
#: The agents' figure of the drift table.
TASK_SUCCESS = "task_success"


def _success_measure(measures: tuple[str, ...]) -> str:
    for m in parse_measures(measures):
        if m.kind is MeasureKind.SUCCESS:
            return m.name
    return DEFAULT_SUCCESS


def _headlines(figures: RunFigures, measures: tuple[str, ...]
               ) -> dict[str | None, dict[str, HeadlineFigure]]:
    """The run's own figures (``reports.figure``) the drift table shows, per family and for
    the whole run; a figure that counts no case is left out of that run."""
    out: dict[str | None, dict[str, HeadlineFigure]] = {}
    answers = figures.answers
    families: list[str | None] = [OVERALL, *answers.per_family]
    if figures.report.per_query:
        families += [f for f in figures.groups if f not in families]
    families += [f for f in figures.agents.per_family if f not in families]
    for family in families:
        for name in (*ANSWER_HEADLINES, *measures, TASK_SUCCESS):
            figure = figures.figure(
                "task_success_rate" if name == TASK_SUCCESS else name, family)
            if figure is not None and figure.n:
                out.setdefault(family, {})[name] = figure
    return out


def run_point(figures: RunFigures, version: RunVersion, measures: tuple[str, ...],
              success: str) -> RunPoint:
    """The drift table's view of one run's figures (``measures``: the headline retrieval
    measures; ``success``: the Success@k among the figures' measures)."""
    per_case: dict[str, dict[str, float | None]] = {
        case: dict(values) for case, values in figures.report.per_query.items()}
    overall = figures.answers.overall
    validated = set(overall.validated_cases)
    for case in overall.tested_cases:
        per_case.setdefault(case, {})[VALIDATED] = 1.0 if case in validated else 0.0
    paired = figures.report.measures if figures.report.per_query else ()
    if overall.tested:
        paired = (*paired, VALIDATED)
    return RunPoint(version, _headlines(figures, measures), per_case, paired,
                    success if figures.report.per_query else None)


def drift_points(store: GoldSetStore, options: FigureOptions | None = None
                 ) -> list[RunPoint]:
    """One point per run of the gold set (in the store's order; ``drift`` sorts)."""
    options = options or FigureOptions()
    measures = tuple(m.name for m in parse_measures(options.measures))
    success = _success_measure(measures)
    wanted = measures if success in measures else (*measures, success)
    per_run = replace(options, measures=wanted, compare=None, family=None, next_count=0,
                      parts=frozenset({RETRIEVAL, ANSWERS, AGENTS}))
    points = []
    for row in store.runs_summary():
        version = RunVersion(str(row["name"]), int(row["id"]), str(row["created_at"]),
                             {f: str(row[f] or "") for f in VERSION_FIELDS})
        figures = build(store, version.name, per_run)
        points.append(run_point(figures, version, measures, success))
    return points


def build_drift(store: GoldSetStore, baseline: str | None = None,
                options: FigureOptions | None = None) -> Drift:
    """The drift table of every run in ``store`` (ValueError for an unknown ``baseline``
    or a bad option)."""
    options = options or FigureOptions()
    return drift(drift_points(store, options), baseline, options.level, options.resamples,
                 options.seed)
