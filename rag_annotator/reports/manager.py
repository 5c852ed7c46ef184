"""The manager's page: what a manager reads of a gold set, on one page, in plain words.

:func:`manager_page` turns the export's figures (:class:`~rag_annotator.reports.book.Book`)
into one :class:`ManagerPage`: what was tested (questions by kind, the versions of the system
and what each was made with), three to five headline figures of the latest version with
their range in words ("between 62 % and 78 %"), a bar per kind of question, what changed
since the baseline version (what got worse beyond chance first), the main reasons for
failures and what is not yet reviewed — without a code, a measure's name or a tool's
jargon.  The workbook writes it as its first sheet (``import_export.xlsx_manager``) and the
PDF draws it on one A4 page (``ui.exchange.pdf_summary``); the details stay in the
workbook's other sheets.  Every number is a :class:`~rag_annotator.reports.figure.Figure`
of the run's figures, shown as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date

from rag_annotator.metrics.diagnosis import KINDS
from rag_annotator.metrics.drift import VALIDATED, DriftRow
from rag_annotator.reports.book import Book
from rag_annotator.reports.figure import Figure
from rag_annotator.reports.manager_words import manager_words
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.reports.words import words

#: The headline figures, most telling first: (key, figure name, unit word).
HEADLINES = (("h_success", "success", "u_reviewed"), ("h_quality", "quality", "u_answers"),
             ("h_found", "Success@10", "u_judged"),
             ("h_abstention", "abstention_rate", "u_abstention"),
             ("h_coverage", "coverage", "u_reviewed"))
#: The headlines about answers: left out for a run that has none (retrieval only).
ANSWER_HEADLINES = frozenset({"success", "quality", "abstention_rate", "coverage"})
#: At most this many headline figures, and this many items in a list of the page.
MAX_HEADLINES, MAX_ITEMS = 5, 6
#: The version fields a run line names, with their words.
RUN_FIELDS = (("model", "model"), ("corpus_version", "corpus"), ("index_version", "index"),
              ("prompt_version", "prompt"))


@dataclass(frozen=True)
class Headline:
    """One headline figure: its label, the figure, and its value, count and range in words."""

    label: str
    figure: Figure
    value: str
    count: str
    range: str


@dataclass(frozen=True)
class Bar:
    """One bar of the page's chart: a label shown whole, the figure behind it."""

    label: str
    figure: Figure
    text: str


@dataclass(frozen=True)
class Section:
    """A titled list of sentences."""

    title: str
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ManagerPage:
    """See the module docstring.  ``run``: the version the headlines are about (None when
    the file has no run yet)."""

    lang: str
    title: str
    subtitle: str
    tested: Section
    run: str | None
    headlines_title: str
    headlines: list[Headline]
    headlines_note: str
    chart_title: str
    bars: list[Bar]
    sections: list[Section]
    footer: str


def percent(value: float | None, lang: str) -> str:
    """A share as a whole percent: "62 %" in French (narrow no-break space), "62%"."""
    if value is None:
        return "—"
    return f"{value * 100:.0f}\u202f%" if lang == "fr" else f"{value * 100:.0f}%"


def range_words(figure: Figure, lang: str) -> str:
    """ "between 62% and 78%" / « entre 62 % et 78 % » ("" without an interval)."""
    low, high = figure.bounds()
    if low is None or high is None:
        return ""
    return manager_words(lang)("between").format(low=percent(low, lang),
                                                 high=percent(high, lang))


def _count(figure: Figure, unit: str, w: Callable[[str], str]) -> str:
    if not figure.n:
        return w("not_measurable").format(unit=w(unit))
    # a share's numerator is its count; the mean of 0/1 values (a right document among the
    # first ten, or not) sums to as many questions
    return w("of_n").format(k=round(figure.numerator), n=figure.n, unit=w(unit))


def headline(label: str, figure: Figure, unit: str, lang: str) -> Headline:
    w = manager_words(lang)
    return Headline(label, figure, percent(figure.value, lang), _count(figure, unit, w),
                    range_words(figure, lang))


def headline_run(book: Book) -> RunFigures | None:
    """The version the page is about: the latest run with retrieved lists or answers,
    else the latest run."""
    rag = [f for f in book.runs if not f.agent_only and (f.report.per_query or f.answers.items)]
    chosen = rag or list(book.runs)
    return chosen[-1] if chosen else None


def _task_headline(run: RunFigures, lang: str) -> Headline | None:
    task = run.figure("task_success_rate")
    if task is None:
        return None
    return headline(manager_words(lang)("h_task").format(run=run.run), task, "u_tasks", lang)


def run_headlines(run: RunFigures, lang: str) -> list[Headline]:
    """The headline figures of one run, most telling first: for a run of answers or
    retrieved lists, success, quality, a right document among the first ten, the
    abstentions, coverage (those it has); for a run of agent trajectories, task success.
    The Dashboard shows these on top, the manager's page too."""
    if run.agent_only:
        task = _task_headline(run, lang)
        return [] if task is None else [task]
    w = manager_words(lang)
    found: list[Headline] = []
    for key, name, unit in HEADLINES:
        figure = run.figure(name)
        if figure is None or (name == "abstention_rate" and not figure.n):
            continue
        if name in ANSWER_HEADLINES and not run.answers.items:
            continue  # a run without answers: nothing to say of them
        found.append(headline(w(key), figure, unit, lang))
    return found[:MAX_HEADLINES]


def _headlines(run: RunFigures | None, book: Book, lang: str) -> list[Headline]:
    """The page's headlines: the run's, then the latest agent run's task success."""
    found = [] if run is None or run.agent_only else run_headlines(run, lang)
    agents = [f for f in book.runs if f.agents.has_data]
    task = _task_headline(agents[-1], lang) if agents else None
    return found if task is None else [*found[:MAX_HEADLINES - 1], task]


def _bars(run: RunFigures | None, lang: str) -> list[Bar]:
    """Success per kind of question that has reviewed questions, then all of them."""
    if run is None:
        return []
    t = words(lang)
    w = manager_words(lang)
    bars = []
    for family in sorted(run.answers.per_family, key=t):
        figure = run.figure("success", family)
        if figure is not None and figure.n:
            bars.append(Bar(t(family), figure, _bar_text(figure, lang)))
    overall = run.figure("success")
    if bars and overall is not None:
        bars.append(Bar(w("all_questions"), overall, _bar_text(overall, lang)))
    return bars


def _bar_text(figure: Figure, lang: str) -> str:
    return (f"{percent(figure.value, lang)} ({round(figure.numerator)}/{figure.n}) "
            f"{range_words(figure, lang)}").strip()


def _tested(book: Book, lang: str, baseline: str | None) -> Section:
    t, w = words(lang), manager_words(lang)
    families = [(f, n) for f, n in book.file.families.items() if n]
    families.sort(key=lambda item: (-item[1], t(item[0])))
    total = sum(n for _f, n in families)
    lines = [w("tested_cases").format(
        n=total, families=", ".join(f"{t(f)} {n}" for f, n in families))]
    if book.versions:
        lines.append(w("tested_runs").format(n=len(book.versions)))
    for version in book.versions[:MAX_ITEMS]:
        details = [w(word).format(value=version.fields[name]) for name, word in RUN_FIELDS
                   if version.fields.get(name)]
        details.append(w("run_made").format(date=_day(version.created_at, lang)))
        mark = w("baseline_mark") if version.name == baseline else ""
        lines.append("• " + w("run_line").format(name=version.name + mark,
                                                 details=", ".join(details)))
    if len(book.versions) > MAX_ITEMS:
        lines.append(w("more").format(n=len(book.versions) - MAX_ITEMS))
    return Section(w("tested"), lines)


def _day(iso: str, lang: str) -> str:
    """An ISO timestamp's day as a reader writes it (04/12/2026 or 2026-12-04)."""
    try:
        day = date.fromisoformat(iso[:10])
    except ValueError:
        return iso[:10]
    return day.strftime("%d/%m/%Y") if lang == "fr" else day.isoformat()


def _row(book: Book, name: str) -> DriftRow | None:
    if book.drift is None:
        return None
    return next((r for r in book.drift.rows if r.name == name), None)


def _changes(book: Book, run: RunFigures | None, lang: str) -> Section | None:
    """What changed between the baseline and the page's version: what got worse beyond
    chance first (the drift's paired tests), then each headline figure before → after."""
    w = manager_words(lang)
    drift = book.drift
    if drift is None or run is None or drift.baseline is None:
        return Section(w("changes").format(baseline="—"), [w("changes_none")])
    baseline = book.run(drift.baseline)
    if baseline is None or baseline.run == run.run:
        return Section(w("changes").format(baseline=drift.baseline), [w("changes_none")])
    row = _row(book, run.run)
    regressions = [r for r in (row.regressions if row else ()) if r.against == baseline.run]
    lines = []
    if regressions:
        lines.append(w("worse").format(what=", ".join(
            dict.fromkeys(w(r.measure) for r in regressions))))
    else:
        lines.append(w("no_worse"))
    for key, name, _unit in HEADLINES:
        after, before = run.figure(name), baseline.figure(name)
        if after is None or before is None or after.value is None or before.value is None:
            continue
        points = round((after.value - before.value) * 100)
        lines.append(w("moved").format(
            label=w(key), before=percent(before.value, lang), n_before=before.n,
            after=percent(after.value, lang), n_after=after.n,
            points=w("unchanged") if points == 0 else w("points").format(
                sign="+" if points > 0 else "−", value=abs(points))))
    if regressions:
        first = regressions[0]
        fields = [w("field_change").format(field=w("f_" + k), before=a or "∅", after=b or "∅")
                  for k, (a, b) in first.changed_fields.items()]
        if fields:
            lines.append(w("changed_fields").format(fields="; ".join(fields)))
        lost = sorted({c for r in regressions if r.measure == VALIDATED
                       for c in r.flipped_validated})
        if lost:
            lines.append(w("lost_cases").format(cases=_listed(lost, w)))
    return Section(w("changes").format(baseline=baseline.run), lines)


def _listed(items: Sequence[str], w: Callable[[str], str]) -> str:
    shown = ", ".join(items[:MAX_ITEMS * 2])
    return shown + (" " + w("more").format(n=len(items) - MAX_ITEMS * 2)
                    if len(items) > MAX_ITEMS * 2 else "")


def _failures(run: RunFigures | None, lang: str) -> Section | None:
    if run is None or run.agent_only:
        return None
    w = manager_words(lang)
    reviewed = Counter(c for item in run.answers.items for c in item.failure_categories)
    lines = []
    if reviewed:
        lines.append(w("failures_reviewed").format(list=", ".join(
            w("count_questions").format(what=w(code), n=n)
            for code, n in reviewed.most_common(MAX_ITEMS))))
    diagnosed = sorted(((kind, len(run.diagnosis.cases(kind))) for kind in KINDS),
                       key=lambda item: -item[1])
    if any(n for _k, n in diagnosed):
        lines.append(w("failures_diagnosed").format(list=", ".join(
            w("count_questions").format(what=w(kind), n=n) for kind, n in diagnosed if n)))
    return Section(w("failures").format(run=run.run), lines or [w("failures_none")])


def _pending(book: Book, run: RunFigures | None, lang: str) -> Section:
    w = manager_words(lang)
    lines = []
    if run is not None and run.answers.overall.unreviewed_cases:
        lines.append(w("pending_answers").format(
            n=len(run.answers.overall.unreviewed_cases), run=run.run))
    judgments = book.file.judgments
    if judgments.get("unjudged"):
        total = sum(judgments.get(k, 0) for k in ("relevant", "not_relevant", "unjudged"))
        disputed = judgments.get("disputed", 0)
        lines.append(w("pending_pairs").format(
            n=judgments["unjudged"], total=total,
            disputed=w("pending_disputed").format(n=disputed) if disputed else ""))
    claims = book.file.claims
    if claims.get("unverified"):
        lines.append(w("pending_claims").format(n=claims["unverified"],
                                                total=sum(claims.values())))
    for judge, levels in sorted(book.file.judges.items()):
        for measured in levels.values():
            if measured.to_review:
                lines.append(w("pending_sample").format(n=measured.to_review,
                                                        total=measured.sampled, judge=judge))
    return Section(w("pending"), lines or [w("pending_none")])


def manager_page(book: Book, name: str, file: str, lang: str = "en",
                 today: date | None = None) -> ManagerPage:
    """The manager's page of ``book`` (``name``: the gold set's name; ``file``: its file
    name), worded in ``lang``."""
    w = manager_words(lang)
    run = headline_run(book)
    baseline = book.drift.baseline if book.drift is not None else None
    day = (today or date.today()).isoformat()
    subtitle = w("subtitle").format(file=file, date=_day(day, lang)) + " · " + (
        w("release").format(release=book.release) if book.release else w("no_release"))
    sections = [s for s in (_changes(book, run, lang), _failures(run, lang),
                            _pending(book, run, lang)) if s is not None]
    return ManagerPage(
        lang=lang, title=w("title").format(name=name), subtitle=subtitle,
        tested=_tested(book, lang, baseline), run=None if run is None else run.run,
        headlines_title=w("headlines").format(run="—" if run is None else run.run),
        headlines=_headlines(run, book, lang),
        headlines_note=w("headlines_note").format(level=percent(book.level, lang)),
        chart_title=w("chart").format(run="—" if run is None else run.run),
        bars=_bars(run, lang), sections=sections, footer=w("details"))
