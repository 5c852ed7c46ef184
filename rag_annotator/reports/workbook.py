"""The manager's summary as blocks: what was tested, the headline figures with their
intervals, the answers per family (tested / produced / validated / not yet reviewed), the
drift across runs, the agents, the judging coverage and the agreement — a rendering of each
run's :class:`~rag_annotator.reports.run_figures.RunFigures`, worded in the reader's language
(``reports.words``).  ``import_export.xlsx_export`` writes the blocks as cells and native
charts; ``ui.exchange.pdf_summary`` draws the same blocks on one page.

A block is a title, a header, rows and an optional note; the charts (success per family
with its intervals, the drift) come after the headline figures.  A cell is a plain value
or a ``(kind, value)`` tuple: ``bold``, the number formats ``pct``, ``num``, ``mean``,
``cost`` (None there means "not computable"), and ``ci`` — ``(value, low, high)``, a share
with its interval, which the workbook spreads over three percent cells (its header entry is
``("ci", title)``) and the PDF writes as "33 % [10 – 70]".
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.metrics import DEFAULT_MEASURES
from rag_annotator.metrics.agreement import Agreement
from rag_annotator.metrics.answers import Denominators
from rag_annotator.metrics.drift import RunVersion
from rag_annotator.reports import summary_figures
from rag_annotator.reports.book import DEFAULT_LEVEL, Book
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.reports.words import invariant_words, words
from rag_annotator.storage.reads_exchange import Scope
from rag_annotator.storage.store import GoldSetStore

#: The retrieval measure the headline shows with its bootstrap interval.
HEADLINE_MEASURE = "nDCG@10"


@dataclass(frozen=True)
class ChartSpec:
    """A native chart: ``bar`` (per category one bar per series, with its interval as
    error bars) or ``line`` (one line per series over the categories)."""

    kind: str
    title: str
    categories: list[str]
    series: list[tuple[str, list[float | None]]]
    lows: list[list[float | None]] = field(default_factory=list)
    highs: list[list[float | None]] = field(default_factory=list)
    percent: bool = True


@dataclass
class Block:
    """One section of the summary (see the module docstring)."""

    key: str
    title: str
    header: list[Any]
    rows: list[list[Any]]
    note: str = ""


@dataclass
class Summary:
    """The whole summary: a title, a few facts (label, value pairs), then the blocks."""

    lang: str
    title: str
    facts: list[list[Any]]
    blocks: list[Block]
    level: float = DEFAULT_LEVEL
    drift: Block | None = None
    charts: list[ChartSpec] = field(default_factory=list)


def summary(book: Book, store: GoldSetStore, scope: Scope, lang: str = "en") -> Summary:
    """The figures in detail of ``book`` (the export's figures, built once) within
    ``scope``, worded in ``lang``."""
    t = words(lang)
    versions = book.versions
    figures = book.runs
    level = book.level
    families = set(scope.families)
    blocks = [tested_block(versions, t, book.release)]
    blocks += headline_blocks(figures, t, level)
    for run in figures:
        blocks += answer_blocks(run, families, t)
    drift = book.drift
    sheet = None
    if drift is not None:
        shown = summary_figures.drift_figures(drift)
        blocks.append(Block("drift", t("drift_title"),
                            summary_figures.drift_header(t, False, shown),
                            summary_figures.drift_rows(drift, t, False, shown),
                            t("drift_note")))
        sheet = Block("drift_sheet", t("drift_title"),
                      summary_figures.drift_header(t, True, shown),
                      summary_figures.drift_rows(drift, t, True, shown))
    for run in figures:
        if run.agents.has_data:
            blocks += agent_blocks(run, families, t)
    blocks += retrieval_blocks(figures, t)
    if book.file.judgments:
        blocks.append(judging_block(book.file.judgments, t))
    blocks.append(agreement_block(book.file.agreement.overall, t))
    title = t("gold_set").format(name=store.meta("name") or store.path.stem)
    facts: list[list[Any]] = [
        [t("file"), store.path.name],
        [t("cases"), store.count("cases"), t("documents"), store.count("documents"),
         t("runs"), store.count("runs")]]
    charts = [success_chart(figures, families, t, level)]
    if drift is not None:
        runs, series = summary_figures.drift_chart_series(drift, t)
        charts.append(ChartSpec("line", t("drift_chart"), runs, series, percent=False))
    return Summary(lang, title, facts, [b for b in blocks if b.rows], level, sheet,
                   [c for c in charts if c is not None and c.series])


def level_text(level: float) -> str:
    """``0.95`` → ``95 %``."""
    return f"{level * 100:g} %"


def tested_block(versions: Sequence[RunVersion], t: Callable[[str], str],
                 name: str | None) -> Block:
    """What was tested: the release (``name``), the runs with their version fields, the
    policy."""
    rows: list[list[Any]] = [
        [v.name, v.fields.get("model", ""), v.fields.get("corpus_version", ""),
         v.fields.get("index_version", ""), v.fields.get("prompt_version", ""),
         v.created_at[:16].replace("T", " ")] for v in versions]
    note = " · ".join((f"{t('release')}: {name or t('no_release')}",
                       f"{t('policy')}: {t('policy_trec')}"))
    return Block("tested", t("what_tested"),
                 [t(w) for w in ("run", "model", "corpus", "index", "prompt", "created")],
                 rows, note)


def headline_blocks(figures: Sequence[RunFigures], t: Callable[[str], str],
                    level: float) -> list[Block]:
    """Per RAG run: tested, quality, coverage and success with their intervals, and the
    headline retrieval measure with its bootstrap interval."""
    rows: list[list[Any]] = []
    for f in figures:
        if f.agent_only or not (f.answers.items or f.report.per_query):
            continue
        o = f.answers.overall
        mean = f.figure(HEADLINE_MEASURE)
        rows.append([f.run, o.tested, *_share_cells(f, None),
                     ("cinum", (None, None, None) if mean is None
                      else (mean.value, *mean.bounds())),
                     0 if mean is None else mean.n])
    header = [t("run"), t("tested"), ("ci", t("quality")), ("ci", t("coverage")),
              ("ci", t("success")), ("cinum", HEADLINE_MEASURE), t("judged_cases")]
    note = t("level_note").format(level=level_text(level))
    return [Block("headline", t("headline"), header, rows, note)]


def _share_cells(figures: RunFigures, family: str | None) -> list[Any]:
    """Quality, coverage and success of a family (None: the whole run), each with its
    Wilson interval: the run's figures as they are."""
    cells: list[Any] = []
    for name in ("quality", "coverage", "success"):
        figure = figures.figure(name, family)
        cells.append(("ci", (None, None, None) if figure is None
                      else (figure.value, *figure.bounds())))
    return cells


def answer_blocks(figures: RunFigures, families: Collection[str],
                  t: Callable[[str], str]) -> list[Block]:
    """One run's answers per family — every family with a tested case or an answer not yet
    reviewed (none for a run with no answer: nothing for the RAG figures)."""
    summary_ = figures.answers
    overall = summary_.overall
    if not (overall.tested or overall.unreviewed_cases):
        return []  # a retrieval-only run: nothing to say of answers
    header = [t("family"), t("tested"), t("produced"), t("validated"), t("unreviewed"),
              ("ci", t("quality")), ("ci", t("coverage")), ("ci", t("success"))]
    rows: list[list[Any]] = []
    for family, group in summary_.per_family.items():
        if families and family not in families:
            continue
        if not group.tested and not group.unreviewed_cases:
            continue  # families this run was neither tested on nor answered say nothing
        rows.append([t(family), *_count_cells(group), *_share_cells(figures, family)])
    o = summary_.overall
    rows.append([("bold", t("all_families")), *_count_cells(o), *_share_cells(figures, None)])
    return [Block(f"answers:{figures.run}", t("answers_title").format(run=figures.run),
                  header, rows, t("answers_note"))]


def success_chart(figures: Sequence[RunFigures], families: Collection[str],
                  t: Callable[[str], str], level: float) -> ChartSpec | None:
    """One bar chart: success per family (the families some run was tested on), one series
    per run with answers, each bar with its interval as error bars (None: no answer)."""
    runs = [f for f in figures if f.answers.items]
    codes = sorted({family for f in runs for family, g in f.answers.per_family.items()
                    if g.tested and (not families or family in families)}, key=t)
    if not codes:
        return None
    series, lows, highs = [], [], []
    for f in runs:
        shown = [f.figure("success", code) for code in codes]
        series.append((f.run, [None if s is None else s.value for s in shown]))
        lows.append([None if s is None else s.bounds()[0] for s in shown])
        highs.append([None if s is None else s.bounds()[1] for s in shown])
    return ChartSpec("bar", t("chart_success").format(level=level_text(level)),
                     [t(code) for code in codes], series, lows, highs)


def _count_cells(group: Denominators) -> list[Any]:
    return [group.tested, group.produced, group.validated, len(group.unreviewed_cases)]


def agent_blocks(figures: RunFigures, families: Collection[str],
                 t: Callable[[str], str]) -> list[Block]:
    """The summary's agent block of one run: figures per family, then per invariant."""
    run, agents = figures.run, figures.agents
    header: list[Any] = [t(w) for w in (
        "family", "trajectories", "task_success", "path_acceptable", "both", "undecided",
        "mean_steps", "mean_tokens", "mean_seconds", "total_cost", "cost_per_success",
        "overruled_success", "overruled_path")]
    header[2] = ("ci", header[2])  # task success with its Wilson interval
    rows: list[list[Any]] = []
    groups = [(f, g) for f, g in agents.per_family.items() if not families or f in families]
    labelled: list[tuple[Any, str | None, Any]] = [
        *((t(f), f, g) for f, g in groups), (("bold", t("all_families")), None, agents.overall)]
    for label, code, group in labelled:
        data: dict[str, Any] = group.to_json()
        success = figures.figure("task_success_rate", code)
        rows.append([label, data["trajectories"],
                     ("ci", (None, None, None) if success is None
                      else (success.value, *success.bounds())),
                     ("pct", data["path_acceptable"]["rate"]), ("pct", data["both"]["rate"]),
                     data["task_success"]["undecided"], ("mean", data["mean_steps"]),
                     ("mean", data["mean_tokens"]), ("mean", data["mean_seconds"]),
                     ("cost", data["total_cost"]), ("cost", data["cost_per_success"]),
                     data["overruled"]["task_success"], data["overruled"]["path_acceptable"]])
    blocks = [Block(f"agents:{run}", t("agents_title").format(run=run), header, rows)]
    violations = agents.overall.violations
    if violations:
        blocks.append(Block(
            f"violations:{run}", t("violations_title").format(run=run),
            [*(t(w) for w in ("invariant", "broken", "checked", "unknown")),
             ("ci", t("violation_rate"))],
            [[invariant_words(code, t), len(v.broken_cases), len(v.checked_cases),
              len(v.unknown_cases),
              ("ci", (v.rate, *summary_figures.bounds(figures.intervals.violation(code))))]
             for code, v in violations.items()]))
    return blocks


def retrieval_blocks(figures: Sequence[RunFigures],
                     t: Callable[[str], str]) -> list[Block]:
    """The main measures' means of every run with retrieved lists (an agent run has none)."""
    runs = [f for f in figures if f.report.per_query]
    if not runs:
        return []
    rows: list[list[Any]] = []
    for f in runs:
        means = [f.figure(m) for m in DEFAULT_MEASURES]
        counted = {m.n for m in means if m is not None}
        rows.append([f.run, counted.pop() if len(counted) == 1 else "",
                     *(("num", None if m is None else m.value) for m in means)])
    return [Block("retrieval", t("retrieval_title"),
                  [t("run"), t("judged_cases"), *DEFAULT_MEASURES], rows, t("policy_trec"))]


def judging_block(counts: Mapping[str, int], t: Callable[[str], str]) -> Block:
    """Judging coverage of the pools: pairs by effective label (``store.judgment_counts``)."""
    return Block("judging", t("judging_title"),
                 [t(w) for w in ("relevant", "not_relevant", "unjudged", "disputed")],
                 [[counts["relevant"], counts["not_relevant"], counts["unjudged"],
                   counts["disputed"]]])


def agreement_block(agreement: Agreement, t: Callable[[str], str]) -> Block:
    """Agreement between assessors (the file's figures, ``FileFigures.agreement``)."""
    return Block("agreement", t("agreement_title"),
                 [t(w) for w in ("assessors", "pairs_two", "agreement", "kappa", "alpha")],
                 [[agreement.assessors, agreement.units,
                   ("pct", _share(agreement.percent)), ("num", agreement.kappa),
                   ("num", agreement.alpha)]])


def _share(percent: Any) -> float | None:
    return None if percent is None else float(percent) / 100.0
