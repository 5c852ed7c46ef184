"""The manager workbook (``xlsx``): a summary sheet first, then one sheet per entity.

* **Summary**, **Drift** and **Chart data** (``import_export.xlsx_summary`` writes the blocks
  of ``reports.workbook.summary``, which renders each run's ``RunFigures``): what was tested,
  the headline figures with their intervals, native charts, per run the answers per family
  (tested / produced / validated / not yet reviewed, quality / coverage / success with
  intervals — "not computable" when a denominator is zero, never 0), the drift across runs,
  the agents' figures, the retrieval means with the unjudged-document policy named, judging
  coverage and agreement; worded in English or French (``reports.words``), print-ready.
* **Entity sheets** (``csv_export.FLAT_ENTITIES``): bold, frozen header with filters, widths
  by column, keys and ids stored as text.  A table longer than a sheet (1,048,575 data rows)
  continues on ``judgments (2)``, ``judgments (3)``…

Safety: no cell is ever a formula — a text that starts with ``=`` is written as a typed
string cell (``t="inlineStr"``, never ``<f>``), and every other text is a string cell too, so
a spreadsheet never evaluates ``+``, ``-`` or ``@`` either; texts are kept exactly (no quote
added).  Characters XML cannot hold (control characters, CR) are written with the Office
escape ``_xHHHH_`` (a literal ``_xHHHH_`` gets its ``_`` escaped as ``_x005F_``), which
Excel and calamine decode and :func:`unescape` undoes for openpyxl.  A text longer than a
cell holds (32,767 characters) is cut with a visible marker and a warning; the ``xlsx``
import refuses cut cells (the native JSON keeps everything).

Written with openpyxl's write-only mode (rows stream, constant memory; its per-sheet temporary
files go to the app's own temporary folder, ``storage.tempfiles``) to a temporary file beside
the destination, then renamed: a failure never leaves a partial workbook.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rag_annotator.errors import KnownError
from rag_annotator.import_export import sheet_words
from rag_annotator.import_export.csv_export import (
    FLAT_ENTITIES,
    TICK_ROWS,
    TablesReport,
    Ticker,
    count_rows,
    entity_stream,
    scope_of,
)
from rag_annotator.import_export.csv_import import CUT_MARKER
from rag_annotator.import_export.judge_sheet import write_judge_sheet
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.xlsx_manager import ManagerSheet
from rag_annotator.import_export.xlsx_summary import SummaryWriter, print_ready, write_rows
from rag_annotator.messages import Joined, Message
from rag_annotator.paths import app_paths
from rag_annotator.reports.book import build_book
from rag_annotator.reports.manager import manager_page
from rag_annotator.reports.sheets_rights import rights_rows, rights_title
from rag_annotator.reports.sheets_structured import add_structured_sheet
from rag_annotator.reports.sheets_team import team_sheets
from rag_annotator.reports.words import default_language
from rag_annotator.reports.workbook import summary
from rag_annotator.storage import tempfiles
from rag_annotator.storage.store import GoldSetStore

#: Data rows per sheet (Excel's 1,048,576 rows less the header).
ROWS_PER_SHEET = 1_048_575
#: Characters a cell holds.
MAX_CELL = 32_767


def summary_language(options: Options) -> str:
    """``fr`` or ``en``: ``--locale`` (the UI passes the interface's language), else
    ``RAG_ANNOTATOR_LANG``, else the system's language."""
    return default_language(options.locale)


_ESCAPE = re.compile("[\x00-\x08\x0b\x0c\x0d\x0e-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)")
_UNESCAPE = re.compile("_x([0-9A-Fa-f]{4})_")

_WIDTHS = {"text": 60, "question": 60, "reference_answer": 60, "notes": 40, "rationale": 40,
           "note": 30, "title": 40, "changelog": 40, "guidelines": 40, "must_contain": 30,
           "forbidden": 30, "variants": 30, "rank": 8, "grade": 8, "score": 12,
           "position": 9, "span_start": 10, "span_end": 10, "validated": 10}


def escape(text: str) -> str:
    """A text as an XLSX cell holds it (Office ``_xHHHH_`` escapes for what XML cannot)."""
    return _ESCAPE.sub(lambda m: "_x005F_" if m[0] == "_" else f"_x{ord(m[0]):04X}_", text)


def unescape(text: str) -> str:
    """Undo :func:`escape` (what Excel does when it reads a cell)."""
    return _UNESCAPE.sub(lambda m: chr(int(m[1], 16)), text)


class _Sheets:
    """Writes one entity across as many sheets as it needs, named, headed and filled in
    the reader's language (``sheet_words``: words for codes, one item per line for lists,
    yes / no for 0 / 1)."""

    def __init__(self, wb: Any, entity: str, columns: tuple[str, ...],
                 report: TablesReport, lang: str) -> None:
        self.wb, self.entity, self.columns, self.report = wb, entity, columns, report
        self.lang = lang
        self.cut: list[str] = []
        #: the columns whose values are written in words (the others as they are)
        self.worded = [i for i, c in enumerate(columns) if c in sheet_words.WORDED
                       or sheet_words.enum_of(entity, c) is not None]

    def write(self, rows: Iterator[tuple[Any, ...]], tick: Ticker) -> int:
        from openpyxl.cell import WriteOnlyCell

        total = 0
        part = 0
        ws = None
        in_sheet = 0
        escape_re, cut_limit = _ESCAPE, MAX_CELL
        entity, columns, lang, worded = self.entity, self.columns, self.lang, self.worded
        encode = sheet_words.encode
        for row in rows:
            if ws is None or in_sheet >= ROWS_PER_SHEET:
                if ws is not None:
                    self._close(ws, in_sheet)
                part += 1
                ws = self._sheet(part)
                in_sheet = 0
            cells: list[Any] = list(row)
            for i in worded:
                cells[i] = encode(entity, columns[i], cells[i], lang)
            for i, value in enumerate(cells):
                if value.__class__ is not str:
                    continue
                if escape_re.search(value) is not None:
                    value = escape(value)
                if len(value) > cut_limit:
                    value = self._cut(value, total + 1, i)
                if value[:1] == "=":
                    cell = WriteOnlyCell(ws, value=value)
                    cell.data_type = "s"  # text, never a formula
                    cells[i] = cell
                else:
                    cells[i] = value
            ws.append(cells)
            in_sheet += 1
            total += 1
            if total % TICK_ROWS == 0:
                tick()
        if ws is None:
            ws = self._sheet(1)
        self._close(ws, in_sheet)
        if self.cut:
            self.report.warnings.append(
                Message(
                "{entity}: {n_cut} cells were longer than {max_cell:,} "
                "characters and were cut (the JSON export keeps them whole): "
                "{cut}{value}",
                entity=self.entity, n_cut=len(self.cut), max_cell=MAX_CELL,
                cut=Joined(self.cut[:5], ", "), value=', …' if len(self.cut) > 5 else ''))
        return total

    def _cut(self, value: str, row: int, column: int) -> str:
        marker = f"{CUT_MARKER}{len(value):,} characters in all]"
        self.cut.append(Message("row {row} column {column}", row=row + 1,
                                column=self.columns[column]))
        return value[:MAX_CELL - len(marker)] + marker

    def _sheet(self, part: int) -> Any:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Font, PatternFill
        from openpyxl.utils import get_column_letter

        ws = self.wb.create_sheet(sheet_words.sheet_title(self.entity, self.lang, part))
        print_ready(ws)
        ws.freeze_panes = "A2"
        for i, column in enumerate(self.columns, start=1):
            ws.column_dimensions[get_column_letter(i)].width = _WIDTHS.get(column, 18)
        bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDE4EE")
        header = []
        for column in self.columns:
            cell = WriteOnlyCell(ws, value=sheet_words.header(self.entity, column, self.lang))
            cell.font, cell.fill = bold, fill
            header.append(cell)
        ws.append(header)
        return ws

    def _close(self, ws: Any, rows: int) -> None:
        from openpyxl.utils import get_column_letter

        ws.auto_filter.ref = f"A1:{get_column_letter(len(self.columns))}{rows + 1}"


# -- export ----------------------------------------------------------------------------------
def export_xlsx(store: GoldSetStore, dest: Path, options: Options) -> TablesReport:
    """Write the manager workbook (whole or not at all)."""
    from openpyxl import Workbook

    dest = dest.expanduser()
    if dest.is_dir():
        raise KnownError("this is a folder; give a file name ending in .xlsx.", path=dest)
    if not dest.parent.is_dir():
        raise KnownError("the folder does not exist; create it first.", path=dest.parent)
    scope = scope_of(store, options)
    report = TablesReport(dest)
    tick = Ticker(options, sum(count_rows(store, scope).values()))
    # Write-only sheets stream to files from ``tempfile`` (gold-set content, up to the
    # workbook's size): in our own folder, never the system's, and gone after a crash too.
    tempfiles.use_private_temp_folder(app_paths().temp)
    wb = Workbook(write_only=True)
    try:
        # Write-only sheets stream their rows to temporary files as they go: a full disk
        # can strike here already, not only in save().
        lang = summary_language(options)
        # Every run's figures once, the file's once: every sheet below renders this value.
        book = build_book(store, scope, options.level, options.release)
        ManagerSheet(wb, manager_page(book, store.meta("name") or store.path.stem,
                                      store.path.name, lang), escape).write()
        SummaryWriter(wb, summary(book, store, scope, lang), escape).write()
        tick(0)  # the summary's intervals and drift take seconds on a big file: Cancel here
        for title, team_rows in team_sheets(store, lang):  # the Assessors sheet (issue 15)
            _write_rows(wb.create_sheet(title), team_rows, lang)
        add_structured_sheet(wb, book.runs, lang, _write_rows)
        _write_rows(wb.create_sheet(rights_title(lang)), rights_rows(book.runs, lang), lang)
        write_judge_sheet(wb, book.file.judges, lang)
        for entity in FLAT_ENTITIES:
            columns, rows = entity_stream(store, entity, scope)
            report.counts[entity] = _Sheets(wb, entity, columns, report, lang).write(rows,
                                                                                    tick)
        tick(0)
    except write_errors() as error:
        discard(wb)
        raise _not_written(dest, error) from error
    except BaseException:
        discard(wb)
        raise
    save_atomically(wb, dest)
    return report


def _write_rows(ws: Any, rows: list[list[Any]], lang: str) -> None:
    write_rows(ws, rows, lang, escape)


def write_errors() -> tuple[type[BaseException], ...]:
    """What writing a workbook raises when the disk is full or a file too large: OSError,
    and lxml's SerialisationError when openpyxl writes through lxml."""
    try:
        from lxml.etree import SerialisationError
    except ImportError:
        return (OSError,)
    return (OSError, SerialisationError)


def _not_written(dest: Path, error: BaseException) -> KnownError:
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return KnownError("could not write the workbook ({split}); nothing "
                      "was written.", split=' '.join(reason.split()), path=dest)


def discard(wb: Any) -> None:
    """Abandon a write-only workbook: close its sheets' streams, remove their temp files."""
    for ws in getattr(wb, "_sheets", []):
        rows, writer = getattr(ws, "_rows", None), getattr(ws, "_writer", None)
        for close in (getattr(rows, "close", None), getattr(writer, "close", None),
                      getattr(writer, "cleanup", None)):
            if close is None:
                continue
            try:
                close()
            except Exception:  # best effort: the export already failed
                pass


def save_atomically(wb: Any, dest: Path) -> None:
    """Save a workbook under a temporary name, fsync it, then rename it to ``dest``."""
    try:
        tmp = tempfiles.temp_file(dest.parent, ".xlsx")
    except OSError as error:
        discard(wb)
        raise _not_written(dest, error) from error
    try:
        wb.save(tmp)  # closes every sheet and removes openpyxl's own temporary files
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, dest)
    except write_errors() as error:
        discard(wb)
        tempfiles.remove(tmp)
        raise _not_written(dest, error) from error
    except BaseException:
        discard(wb)
        tempfiles.remove(tmp)
        raise
