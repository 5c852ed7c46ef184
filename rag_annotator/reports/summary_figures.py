"""What the manager's summary takes from the intervals and the drift, shaped for
``reports.workbook``: the runs in the order they were made with their version fields, and the
drift table as summary blocks and a line chart.

The drift is computed from the very :class:`RunFigures` the summary shows
(``reports.drift.run_point`` then ``metrics.drift.drift``), so the summary, the drift sheet
and ``metrics --drift`` agree and no run's figures are computed twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rag_annotator.metrics.drift import VERSION_FIELDS, Drift, DriftRow, RunVersion, drift
from rag_annotator.metrics.intervals import Interval
from rag_annotator.reports.drift import DEFAULT_SUCCESS, run_point
from rag_annotator.reports.run_figures import FigureOptions, RunFigures
from rag_annotator.storage.reads_exchange import Scope
from rag_annotator.storage.store import GoldSetStore

Bounds = tuple[float | None, float | None]
#: The drift's headline figures on the summary: (figure, catalogue word or None to show
#: the measure's own name, whether it is a share).
DRIFT_FIGURES = (("success", "success", True), ("nDCG@10", None, False),
                 ("task_success", "task_success", True))


def bounds(interval: Interval | None) -> Bounds:
    """(low, high) of an interval, (None, None) without one."""
    return (None, None) if interval is None else (interval.low, interval.high)


def run_versions(store: GoldSetStore, scope: Scope | None = None) -> list[RunVersion]:
    """The runs (within ``scope``) with their version fields, in the order they were made
    (``created_at``, then id: the drift table's order)."""
    wanted = set(scope.runs) if scope is not None and scope.runs else None
    runs = [RunVersion(str(r["name"]), int(r["id"]), str(r["created_at"]),
                       {f: str(r[f] or "") for f in VERSION_FIELDS})
            for r in store.runs_summary() if wanted is None or r["name"] in wanted]
    return sorted(runs, key=lambda v: (v.created_at, v.id))


def drift_of(figures: Sequence[RunFigures], versions: Sequence[RunVersion],
             options: FigureOptions, baseline: str | None = None) -> Drift | None:
    """The drift across the runs of ``figures`` (None with fewer than two runs)."""
    if len(figures) < 2:
        return None
    by_name = {v.name: v for v in versions}
    measures = tuple(options.measures)  # Success@10 among them (workbook.SUMMARY_OPTIONS)
    points = [run_point(f, by_name[f.run], measures, DEFAULT_SUCCESS) for f in figures]
    return drift(points, baseline, options.level, options.resamples, options.seed)


Figures = Sequence[tuple[str, str | None, bool]]


def drift_figures(value: Drift) -> Figures:
    """The drift's headline figures that some run has (an all-RAG file shows no task
    success, an all-agent one no nDCG@10)."""
    return [f for f in DRIFT_FIGURES
            if any(f[0] in h for row in value.rows for h in row.point.headlines.values())]


def _figure_cells(row: DriftRow, family: str | None, figures: Figures) -> list[Any]:
    headlines = row.point.headlines.get(family, {})
    cells: list[Any] = []
    for figure, _word, share in figures:
        h = headlines.get(figure)
        value = None if h is None else h.value
        cells.append(("ci" if share else "cinum",
                      (value, *bounds(None if h is None else h.interval))))
    for deltas in (row.from_previous, row.from_baseline):
        cells += [("dpct" if share else "dnum", deltas.get(family, {}).get(figure))
                  for figure, _w, share in figures]
    return cells


def _regression_text(row: DriftRow, t: Callable[[str], str]) -> tuple[str, str, str]:
    """The regression mark (a word and a sign, never colour alone), the version fields
    that changed and the cases that flipped."""
    if not row.regressions:
        return "", "", ""
    marks: list[str] = []
    fields: dict[str, str] = {}
    cases: set[str] = set()
    for r in row.regressions:
        p = r.result.p_holm
        marks.append(f"▼ {r.measure} {t('against')} {r.against}"
                     + ("" if p is None else f" (p={p:.3f})"))
        fields.update({k: t("field_change").format(field=t(k), before=a or "∅",
                                                   after=b or "∅")
                       for k, (a, b) in r.changed_fields.items()})
        cases.update(r.flipped_validated)
        cases.update(r.lost_relevant)
    return (t("regression_mark").format(marks="; ".join(marks)), "; ".join(fields.values()),
            ", ".join(sorted(cases)))


def drift_header(t: Callable[[str], str], per_family: bool, figures: Figures) -> list[Any]:
    """The drift sheet's header (``per_family``: a row per run and family, with the version
    fields and the changes from the baseline) or the summary's shorter one (the whole run,
    its figures, the change from the previous run, the regression)."""
    names = [t(word) if word else figure for figure, word, _share in figures]
    if not per_family:
        return [t("run"), *(("ci", n) for n in names), *(f"Δ {n}" for n in names),
                t("regression")]
    return [t("run"), t("family"), *(t(f) for f in ("model", "corpus", "index", "prompt")),
            *(("ci", n) for n in names),
            *(f"Δ {n} ({t('vs_previous')})" for n in names),
            *(f"Δ {n} ({t('vs_baseline')})" for n in names),
            t("regression"), t("changed_fields"), t("flipped")]


def drift_rows(value: Drift, t: Callable[[str], str], per_family: bool,
               figures: Figures) -> list[list[Any]]:
    """One row per run (the whole run, for the summary) or per run and family (the sheet)."""
    rows: list[list[Any]] = []
    for row in value.rows:
        version = row.point.version.fields
        fields = [version.get(f, "") for f in ("model", "corpus_version", "index_version",
                                                "prompt_version")]
        marks = _regression_text(row, t)
        name = row.name + (f" ({t('baseline')})" if row.name == value.baseline else "")
        cells = _figure_cells(row, None, figures)
        if not per_family:
            measures = ", ".join(sorted({r.measure for r in row.regressions}))
            short = t("regression_mark").format(marks=f"▼ {measures}") if measures else ""
            rows.append([name, *cells[:2 * len(figures)], short])
            continue
        shown = {figure for figure, _w, _s in figures}
        families: list[str | None] = [None, *sorted(
            (f for f, figures in row.point.headlines.items()
             if f is not None and shown & set(figures)), key=lambda f: t(str(f)))]
        for family in families:
            label = t("all_families") if family is None else t(family)
            rows.append([name, label, *fields, *_figure_cells(row, family, figures), *marks])
    return rows


def drift_chart_series(value: Drift, t: Callable[[str], str]
                       ) -> tuple[list[str], list[tuple[str, list[float | None]]]]:
    """The runs in order and, per headline figure some run has, its value per run."""
    runs = [row.name for row in value.rows]
    series = []
    for figure, word, _share in DRIFT_FIGURES:
        values = [None if (h := row.point.headlines.get(None, {}).get(figure)) is None
                  else h.value for row in value.rows]
        if any(v is not None for v in values):
            series.append((t(word) if word else figure, values))
    return runs, series
