"""Every figure an export for a manager shows, built once per export: :class:`Book`.

The workbook (its manager's page, its detail sheets, the structured-answer, exposure and
judge sheets) and the one-page PDF all render one :class:`Book`: each run in the export's
scope is built once, with every part any sheet shows, and the file-wide figures (agreement,
the automatic judges' samples) once for the file — not once per sheet and per run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rag_annotator.metrics import DEFAULT_MEASURES, Policy
from rag_annotator.metrics.drift import Drift, RunVersion
from rag_annotator.reports import summary_figures
from rag_annotator.reports.drift import DEFAULT_SUCCESS
from rag_annotator.reports.file_figures import FileFigures, build_file_figures
from rag_annotator.reports.run_figures import (
    AGENTS,
    ANSWERS,
    DIAGNOSIS,
    RETRIEVAL,
    STRUCTURED,
    FigureOptions,
    RunFigures,
    build,
)
from rag_annotator.storage.reads_exchange import Scope
from rag_annotator.storage.store import GoldSetStore

#: What an export shows of each run: the main measures under ``trec`` and Success@10 (the
#: drift reports its 1 → 0 as "relevant found → lost"; the manager's page calls it "a right
#: document among the first ten"), the answers, the agents, the diagnosis (with the rights
#: figures) and the structured answers.
BOOK_OPTIONS = FigureOptions(policy=Policy.TREC, measures=(*DEFAULT_MEASURES, DEFAULT_SUCCESS),
                             parts=frozenset({RETRIEVAL, ANSWERS, AGENTS, DIAGNOSIS,
                                              STRUCTURED}))
#: The interval level unless the caller sets one (the dashboard's default too).
DEFAULT_LEVEL = 0.95


@dataclass(frozen=True)
class Book:
    """See the module docstring.  ``runs``: in the order the runs were made (the drift's);
    ``drift``: None with fewer than two runs; ``release``: the frozen release named."""

    runs: tuple[RunFigures, ...]
    versions: tuple[RunVersion, ...]
    file: FileFigures
    drift: Drift | None
    options: FigureOptions
    release: str | None = None

    @property
    def level(self) -> float:
        return self.options.level

    def run(self, name: str) -> RunFigures | None:
        return next((f for f in self.runs if f.run == name), None)


def build_book(store: GoldSetStore, scope: Scope, level: float = DEFAULT_LEVEL,
               release: str | None = None) -> Book:
    """Build every run of ``scope`` (every run when it names none) once, the file-wide
    figures once, and the drift from those very figures."""
    options = replace(BOOK_OPTIONS, level=level)
    versions = summary_figures.run_versions(store, scope)
    runs = tuple(build(store, v.name, options) for v in versions)
    latest = store.latest_release()
    name = release or (str(latest["name"]) if latest is not None else None)
    return Book(runs, tuple(versions), build_file_figures(store, level),
                summary_figures.drift_of(runs, versions, options), options, name)


def runs_named(book: Book, names: Sequence[str]) -> list[RunFigures]:
    """The book's runs among ``names`` (every run when ``names`` is empty)."""
    return [f for f in book.runs if not names or f.run in names]
