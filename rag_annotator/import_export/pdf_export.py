"""The one-page PDF for a manager (``export FILE pdf DEST``): the manager's page
(``reports.manager``, the workbook's first sheet too) drawn by ``ui.exchange.pdf_summary``
with Qt's own PDF writer on one A4 page.

Qt is imported here only when this format is asked for (the module is found by name, so the
core never imports the Qt package and the other headless commands never load Qt); without a
running application an offscreen QGuiApplication is made.  The language is ``--locale``
(the export dialog passes the interface's), else ``RAG_ANNOTATOR_LANG``, else the system's.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path

from rag_annotator.errors import KnownError
from rag_annotator.import_export.csv_export import scope_of
from rag_annotator.import_export.registry import Options
from rag_annotator.messages import Message
from rag_annotator.reports.book import build_book
from rag_annotator.reports.manager import manager_page
from rag_annotator.reports.words import default_language
from rag_annotator.storage.store import GoldSetStore

DRAWER = "rag_annotator.ui.exchange.pdf_summary"


@dataclass
class PdfReport:
    """What ``export_pdf`` wrote."""

    dest: Path
    lang: str
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return Message("written to {file}: a one-page summary ({lang})", file=self.dest.name,
                       lang=self.lang)


def export_pdf(store: GoldSetStore, dest: Path, options: Options) -> PdfReport:
    """Write the one-page summary of ``store`` to ``dest`` (whole or not at all)."""
    dest = Path(dest).expanduser()
    if dest.is_dir():
        raise KnownError("this is a folder; give a file name ending in .pdf.", path=dest)
    if not dest.parent.is_dir():
        raise KnownError("the folder does not exist; create it first.", path=dest.parent)
    lang = default_language(options.locale)
    book = build_book(store, scope_of(store, options), options.level, options.release)
    value = manager_page(book, store.meta("name") or store.path.stem, store.path.name, lang)
    try:
        drawer = importlib.import_module(DRAWER)
    except ImportError as error:
        raise KnownError("the PDF summary needs Qt (PySide6), which could not load "
                         "({error}); export xlsx instead.", error=error, path=dest) from error
    drawer.ensure_app()
    try:
        drawer.write_pdf(value, dest)
    except OSError as error:
        raise KnownError("could not write the PDF ({value}); nothing was "
                         "written.", value=error.strerror or error, path=dest) from error
    return PdfReport(dest, lang)
