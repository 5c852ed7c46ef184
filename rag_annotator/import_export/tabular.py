"""Reading untrusted spreadsheets safely: CSV (any of ``,`` ``;`` tab; UTF-8 with or without
BOM, or Windows-1252) and XLSX, as a header row and data rows of text.

* Size: a table larger than :data:`MAX_TABLE_BYTES` is refused before it is read; a workbook
  whose cells' text passes as many characters (shared strings counted for each cell), or
  any table of more than :data:`MAX_TABLE_CELLS` cells once padded to its header, is refused
  naming where (tiny files can declare huge sheets: :func:`sheet_rows`, :class:`CellBudget`).
* Binary: a ``.csv`` that is really a workbook, a zip, a PDF, or holds NUL bytes is refused
  with a message saying what it looks like.
* Encoding: a UTF-8 BOM is dropped; strict UTF-8 is tried first, then Windows-1252 (what
  Excel writes in France under "CSV (séparateur: point-virgule)"), reported as a warning.
* Delimiter: the one of ``,`` ``;`` tab found most often outside quotes in the header line.
* XLSX: checked first by :func:`rag_annotator.import_export.safety.check_xlsx` (size, zip
  ratio, no external entities), then read with openpyxl in read-only mode, values only (a
  formula gives its cached value, never runs).

Rows are numbered as a spreadsheet shows them: the header is row 1 (after any blank rows
before it), so "row 3" is what the user finds in Excel.  Wholly empty rows are skipped.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.errors import KnownError
from rag_annotator.import_export.files import Cancelled, ImportRejected, read_source_bytes
from rag_annotator.messages import Message

#: Largest CSV/XLSX an import reads (10,000 cases with long answers fit in a few MB).
MAX_TABLE_BYTES = 64 * 1024 * 1024

#: Most cells (rows × columns, empty ones included) a table may hold once read: a sheet
#: whose rows each hold one cell in column XFD costs a few bytes on disk and 16,384 cells
#: in memory per row.
MAX_TABLE_CELLS = 10_000_000

#: Largest cell of a CSV (csv's default of 128 KiB is too small for a long document).
MAX_FIELD_CHARS = 16 * 1024 * 1024

_SIGNATURES = (
    (b"PK\x03\x04", "a zip archive (an Excel workbook?); save it as CSV or import it as .xlsx"),
    (b"\xd0\xcf\x11\xe0", "an old Excel (.xls) or Office file; save it as .xlsx or CSV"),
    (b"%PDF", "a PDF document; export the table as CSV or .xlsx"),
    (b"SQLite format 3", "an SQLite database, not a table"),
)


@dataclass
class Table:
    """A sheet read as text: headers, and rows as (row number, cells) with cells aligned to
    the headers (missing cells are '', extra cells are dropped with a warning)."""

    path: Path
    headers: list[str]
    rows: list[tuple[int, list[str]]]
    warnings: list[str] = field(default_factory=list)
    encoding: str = "utf-8"
    delimiter: str = ""


def read_table(path: Path, *, cancel: Callable[[], bool] | None = None,
               accept: Callable[[list[str]], bool] | None = None) -> Table:
    """Read a CSV or XLSX file (by extension; ``.tsv``/``.txt`` are read as CSV).

    ``accept`` judges a sheet's headers: a workbook whose first sheet is refused (a summary
    sheet, say) is read from the first sheet accepted instead.
    """
    _check_size(path)
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        return read_xlsx(path, cancel=cancel, accept=accept)
    return read_csv(path)


def _check_size(path: Path) -> int:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ImportRejected(path, None, "no such file; check the path.") from None
    if path.is_dir():
        raise ImportRejected(path, None, "this is a folder; choose a file.")
    if size > MAX_TABLE_BYTES:
        raise ImportRejected(path, None, "the file is too large ({size:,.0f} MB; the "
                                         "limit is {max_table_bytes:,.0f} MB); split "
                                         "it into several files.",
                                         size=size / 1e6, max_table_bytes=MAX_TABLE_BYTES / 1e6)
    if size == 0:
        raise ImportRejected(path, None, "the file is empty.")
    return size


def decode_text(path: Path, data: bytes) -> tuple[str, str]:
    """The text of a CSV and the encoding used (utf-8, utf-8-sig or cp1252)."""
    for magic, what in _SIGNATURES:
        if data.startswith(magic):
            raise ImportRejected(path, None, "this is not a text table but {what}.", what=what)
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise ImportRejected(path, line, "the file holds NUL bytes: it is a binary file, not "
                                         "a CSV table (UTF-16? save it as CSV UTF-8).")
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as error:
            raise _bad_utf8(path, data, error.start + 3) from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as error:
        first_bad = error.start
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        raise _bad_utf8(path, data, first_bad) from None


def _bad_utf8(path: Path, data: bytes, at: int) -> ImportRejected:
    line = data.count(b"\n", 0, at) + 1
    return ImportRejected(path, line, "the text is neither UTF-8 nor Windows-1252; save the "
                                      "file as CSV UTF-8.")


def sniff_delimiter(text: str) -> str:
    """``,`` ``;`` or tab: the most frequent outside quotes on the first non-empty line."""
    line = ""
    quoted = False
    for char in text[:65536]:
        if char == '"':
            quoted = not quoted
        if char == "\n" and not quoted:
            if line.strip():
                break
            line = ""
            continue
        if not quoted:
            line += char
    counts = {d: line.count(d) for d in (";", "\t", ",")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def read_csv(path: Path) -> Table:
    """A CSV/TSV file as a :class:`Table`."""
    _check_size(path)
    data = read_source_bytes(path, MAX_TABLE_BYTES)  # a gzipped CSV is read as it is
    text, encoding = decode_text(path, data)
    delimiter = sniff_delimiter(text)
    warnings: list[str] = []
    if encoding == "cp1252":
        warnings.append(Message("{name}: not UTF-8; read as Windows-1252 (check the accents "
                                "in the preview).", name=path.name))
    previous = csv.field_size_limit()
    csv.field_size_limit(MAX_FIELD_CHARS)
    try:
        records = list(_csv_records(path, text, delimiter))
    finally:
        csv.field_size_limit(previous)
    return _table(path, records, warnings, encoding, delimiter)


def _csv_records(path: Path, text: str, delimiter: str) -> Iterator[list[str]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        yield from reader
    except csv.Error as error:
        raise ImportRejected(path, reader.line_num, "not a valid CSV line ({error}); check "
                                                    "the quotes.", error=error) from None


def _table(path: Path, records: list[list[str]], warnings: list[str], encoding: str,
           delimiter: str) -> Table:
    numbered = [(i, r) for i, r in enumerate(records, start=1) if any(c.strip() for c in r)]
    if not numbered:
        raise ImportRejected(path, None, "the table has no header row (nothing but blank "
                                         "lines).")
    first, header = numbered[0]
    headers = [h.strip() for h in header]
    while headers and not headers[-1]:
        headers.pop()
    width = len(headers)
    if width * (len(numbered) - 1) > MAX_TABLE_CELLS:
        raise ImportRejected(path, None, "the table has {n_numbered:,} rows of "
                                         "{width:,} columns, more than "
                                         "{max_table_cells:,} cells; split it.",
                                         n_numbered=len(numbered) - 1, width=width,
                                         max_table_cells=MAX_TABLE_CELLS)
    rows: list[tuple[int, list[str]]] = []
    extra_rows: list[int] = []
    for number, cells in numbered[1:]:
        if any(c.strip() for c in cells[width:]):
            extra_rows.append(number - first + 1)
        cells = (cells + [""] * width)[:width]
        rows.append((number - first + 1, cells))
    if extra_rows:
        warnings.append(Message("{name}: rows {few} have more cells than the header "
                                "has columns; the extra cells were ignored.",
                                name=path.name, few=_few(extra_rows)))
    return Table(path, headers, rows, warnings, encoding, delimiter)


def _few(numbers: list[int], n: int = 5) -> str:
    return ", ".join(map(str, numbers[:n])) + (", …" if len(numbers) > n else "")


def few_names(names: Iterable[str], n: int = 10, width: int = 60) -> str:
    """Names (columns, fields) for a one-line message: the first ``n``, each cut to ``width``
    characters, then how many there are in all — a header of a million columns must not
    make a warning of megabytes."""
    shown: list[str] = []
    total = 0
    for name in names:
        total += 1
        if total <= n:
            shown.append(name if len(name) <= width else name[:width - 1] + "…")
    return ", ".join(shown) + (f", … ({total:,} in all)" if total > n else "")


def cell_text(value: Any) -> str:
    """A spreadsheet value as the text a user typed (1.0 → "1", dates ISO)."""
    if type(value) is str:  # most cells: the fast path
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


@contextmanager
def open_workbook(path: Path, *, max_bytes: int | None = None) -> Iterator[Any]:
    """The one way an import opens an untrusted XLSX workbook (user spreadsheets here, the
    native workbook in ``xlsx_import``).

    :func:`~rag_annotator.import_export.safety.check_xlsx` refuses a file that is too large,
    not a zip or a zip bomb before openpyxl opens it; openpyxl must parse with defusedxml;
    the workbook is opened read-only with cached values (a formula is never evaluated).  A
    workbook openpyxl cannot read — when opening or while the block reads its sheets — is
    refused with :class:`ImportRejected`; the workbook is closed in any case.
    """
    from rag_annotator.import_export.safety import check_xlsx, require_defused_xml

    if max_bytes is None:
        check_xlsx(path)
    else:
        check_xlsx(path, max_bytes=max_bytes)
    require_defused_xml()
    import openpyxl

    # Our own handle: openpyxl leaves the file open when a damaged workbook makes
    # load_workbook raise (a ResourceWarning later, from the garbage collector).
    with path.open("rb") as handle:
        try:
            workbook = openpyxl.load_workbook(handle, read_only=True, data_only=True)
        except Exception as error:  # openpyxl raises many kinds on a damaged workbook
            raise _unreadable(path, error) from None
        try:
            yield workbook
        except KnownError:
            raise
        except Exception as error:  # damaged sheet XML, forbidden entities (defusedxml)…
            raise _unreadable(path, error) from None
        finally:
            workbook.close()


def _unreadable(path: Path, error: Exception) -> ImportRejected:
    return ImportRejected(path, None, "the workbook cannot be read ({name}: "
                                      "{error}); save it again from Excel as .xlsx.",
                                      name=type(error).__name__, error=error)


def read_xlsx(path: Path, *, cancel: Callable[[], bool] | None = None,
              accept: Callable[[list[str]], bool] | None = None) -> Table:
    """The first (accepted) sheet of an XLSX workbook as a :class:`Table` (opened by
    :func:`open_workbook`)."""
    with open_workbook(path, max_bytes=MAX_TABLE_BYTES) as workbook:
        return _first_sheet(path, workbook, cancel, accept)


def _first_sheet(path: Path, workbook: Any, cancel: Callable[[], bool] | None,
                 accept: Callable[[list[str]], bool] | None) -> Table:
    first: Table | None = None
    # Sheets are read in order until one is accepted: the first one costs nothing extra.
    budget = CellBudget(path)
    for index, sheet in enumerate(workbook.worksheets):
        records: list[list[str]] = []
        for i, values in enumerate(sheet_rows(sheet), start=1):
            if cancel is not None and i % 1000 == 0 and cancel():
                raise Cancelled()
            budget.count(sheet.title, i, values)
            records.append([v if type(v) is str else cell_text(v) for v in values]
                           if values else _NO_CELLS)
        try:
            table = _table(path, records, [], "xlsx", "")
        except ImportRejected:
            if index == 0 and len(workbook.worksheets) == 1:
                raise
            continue
        if accept is None or accept(table.headers):
            if index > 0:
                table.warnings.append(Message("{name}: read the sheet '{title}' (the "
                                              "sheets before it have no recognised columns).",
                                              name=path.name, title=sheet.title))
            return table
        first = first or table
    if first is None:
        raise ImportRejected(path, None, "every sheet of the workbook is empty.")
    return first


_NO_CELLS: list[str] = []  # shared by every empty row (never mutated)


def sheet_rows(sheet: Any) -> Iterator[tuple[Any, ...]]:
    """The rows of a read-only openpyxl sheet as values, by the cells that exist.

    openpyxl pads every row to the sheet's declared ``<dimension>`` (and adds the rows it
    promises): a 1.5 KB workbook declaring ``A1:XFD1048576`` would make 17 billion cells.
    Without it a row is as long as its last cell, and a missing row is an empty tuple."""
    sheet.reset_dimensions()
    yield from sheet.iter_rows(values_only=True)


class CellBudget:
    """The cells a workbook's sheets yield, counted as they are read: refuses a workbook whose
    text passes :data:`MAX_TABLE_BYTES` characters — shared strings counted each time a cell
    uses them, so 3 MB of cells pointing at one 4 MB string do not become a gold set of
    gigabytes — or whose rows hold more than :data:`MAX_TABLE_CELLS` cells.  The refusal
    names the file, the sheet and the row where the limit was crossed."""

    def __init__(self, path: Path, *, max_chars: int = MAX_TABLE_BYTES,
                 max_cells: int = MAX_TABLE_CELLS) -> None:
        self.path = path
        self.max_chars = max_chars
        self.max_cells = max_cells
        self.chars = 0
        self.cells = 0

    def count(self, sheet: str, row: int, values: tuple[Any, ...]) -> None:
        """Add one row (``row`` as the spreadsheet numbers it)."""
        self.cells += len(values)
        self.chars += sum(len(v) for v in values if type(v) is str)
        if self.chars > self.max_chars:
            raise ImportRejected(self.path, None, "sheet '{sheet}', row {row}: the text of "
                                 "the cells passes {max_chars:,} characters here (text "
                                 "shared by several cells counts for each); split the "
                                 "workbook.", sheet=sheet, row=row, max_chars=self.max_chars)
        if self.cells > self.max_cells:
            raise ImportRejected(self.path, None, "sheet '{sheet}', row {row}: the rows "
                                 "hold more than {max_cells:,} cells here (counting "
                                 "empty cells before the last one of each row); split the "
                                 "workbook or delete the far-away cells.",
                                 sheet=sheet, row=row, max_cells=self.max_cells)

