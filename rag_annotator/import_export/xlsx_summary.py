"""The workbook's first sheets: the manager's summary (``reports.workbook``), the drift table
and the data behind the native charts, written print-ready.

* **Summary** reads top to bottom, block after block; each block is a title, a bold header,
  its rows and a note; a block with a chart is followed by a native Excel chart (a bar chart
  of success per family with the intervals as error bars, the drift as a line chart) drawn
  from the **chart data** sheet, so the charts stay live in Excel and LibreOffice.
* **Drift** is the drift block again as a data sheet.
* Every sheet prints landscape, one page wide (as many pages tall as needed), its first row
  repeated on every page; data sheets are frozen on their header with a filter; shares carry a
  percent format.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rag_annotator.reports.words import words
from rag_annotator.reports.workbook import Block, ChartSpec, Summary

#: Number formats by cell kind.
FORMATS = {"pct": "0.0%", "num": "0.000", "mean": "0.0", "cost": "0.0000", "ci": "0.0%",
           "ci_bound": "0.0%", "cinum": "0.000", "cinum_bound": "0.000",
           "dpct": "+0.0%;-0.0%;0.0%", "dnum": "+0.000;-0.000;0.000"}
#: Kinds left blank when there is no value (the figure beside says "not computable", or
#: there is nothing to compare with).
BLANK = ("ci_bound", "cinum_bound", "dpct", "dnum")
#: Rows and characters of width a chart takes on the summary (7.5 cm tall, 15 cm wide).
CHART_ROWS, CHART_CHARACTERS = 17, 84
FIRST_WIDTH, MIN_WIDTH, MAX_WIDTH = 30, 10, 20
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0d\x0e-\x1f\ufffe\uffff]")


def print_ready(ws: Any, title_rows: str = "1:1") -> None:
    """Landscape, fit to one page wide and as many tall as needed, ``title_rows`` repeated
    (set before the sheet's first row: the sheet properties are written first)."""
    from openpyxl.worksheet.properties import PageSetupProperties

    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.print_title_rows = title_rows


def expand_header(header: Sequence[Any], t: Any) -> list[str]:
    """A block's header as cells: an interval column ``("ci", title)`` becomes three."""
    out: list[str] = []
    for entry in header:
        if isinstance(entry, tuple):
            out += [entry[1], t("low"), t("high")]
        else:
            out.append(str(entry))
    return out


def expand_row(row: Sequence[Any]) -> list[tuple[str, Any]]:
    """A block's row as (kind, value) cells: an interval cell becomes three."""
    out: list[tuple[str, Any]] = []
    for cell in row:
        if isinstance(cell, tuple) and cell[0] in ("ci", "cinum"):
            value, low, high = cell[1]
            out += [(cell[0], value), (cell[0] + "_bound", low), (cell[0] + "_bound", high)]
        elif isinstance(cell, tuple):
            out.append((str(cell[0]), cell[1]))
        else:
            out.append(("", cell))
    return out


class SummaryWriter:
    """Writes one :class:`Summary` into a write-only workbook (see the module docstring)."""

    def __init__(self, wb: Any, summary: Summary, escape: Any) -> None:
        self.wb, self.summary, self.escape = wb, summary, escape
        self.t = words(summary.lang)
        self.charts: list[tuple[str, ChartSpec]] = []
        self.rows: dict[str, int] = {}  # rows written per sheet
        self.widths: dict[str, dict[int, int]] = {}  # column widths per sheet

    def write(self) -> None:
        ws = self.wb.create_sheet(self.t("summary"))
        print_ready(ws)
        self._widths(ws, self.summary.blocks)
        row = self._append(ws, [("title", self.summary.title)])
        for fact in self.summary.facts:
            row = self._append(ws, [("", v) for v in fact])
        for block in self.summary.blocks:
            row = self._append(ws, [])
            row = self._append(ws, [("title", block.title)])
            row = self._header(ws, expand_header(block.header, self.t))
            for cells in block.rows:
                row = self._append(ws, expand_row(cells))
            if block.note:
                row = self._append(ws, [("note", block.note)])
            if block.key == "headline" and self.summary.charts:
                row = self._chart_band(ws, row)
        if self.summary.drift is not None:
            self._data_sheet(self.t("drift_sheet"), self.summary.drift)
        if self.charts:
            self._charts(ws)

    def _chart_band(self, ws: Any, row: int) -> int:
        """Rows kept for the charts, side by side under the headline figures (on the first
        page, so no page break cuts them)."""
        widths = self.widths.get(ws.title, {})
        column = 1
        for spec in self.summary.charts:
            self.charts.append((f"{_letter(column)}{row + 2}", spec))
            used = 0
            while used < CHART_CHARACTERS:  # the next chart starts past this one
                used += widths.get(column, MIN_WIDTH)
                column += 1
        for _ in range(CHART_ROWS):
            row = self._append(ws, [])
        return row

    # -- cells -------------------------------------------------------------------------------
    def _append(self, ws: Any, cells: Sequence[tuple[str, Any]]) -> int:
        ws.append([self._cell(ws, kind, value) for kind, value in cells])
        self.rows[ws.title] = self.rows.get(ws.title, 0) + 1
        return self.rows[ws.title]

    def _cell(self, ws: Any, kind: str, raw: Any) -> Any:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Alignment, Font, PatternFill

        if raw is None and kind in BLANK:
            raw = ""
        elif raw is None and kind in FORMATS:
            raw = self.t("not_computable")
        cell = WriteOnlyCell(ws, value=self.escape(raw) if isinstance(raw, str) else raw)
        if isinstance(raw, str):
            cell.data_type = "s"  # text, never a formula
        if kind == "title":
            cell.font = Font(bold=True, size=13)
        elif kind in ("bold", "header"):
            cell.font = Font(bold=True)
        if kind == "header":
            cell.fill = PatternFill("solid", fgColor="DDE4EE")
            cell.alignment = Alignment(wrap_text=True, vertical="top", horizontal="center")
        elif kind == "note":
            cell.font = Font(italic=True, size=9)
        if kind in FORMATS and isinstance(raw, float | int) and not isinstance(raw, bool):
            cell.number_format = FORMATS[kind]
        return cell

    def _widths(self, ws: Any, blocks: Sequence[Block]) -> None:
        """Column A holds families, runs and labels; the others fit their texts (within
        bounds: a long version name is cut on screen, whole in the cell) and the longest
        word of their headers (headers wrap, :meth:`_header`)."""
        from openpyxl.utils import get_column_letter

        widths: dict[int, int] = {}
        for block in blocks:
            header = expand_header(block.header, self.t)
            # a header's longest word, bold and wrapped, needs a little more room
            texts = [[max(header[i].split() or [""], key=len) + "  "
                      for i in range(len(header))],
                     *([str(v) if isinstance(v, str) else "" for _k, v in expand_row(row)]
                       for row in block.rows)]
            for line in texts:
                for i, text in enumerate(line[1:], start=2):
                    widths[i] = max(widths.get(i, MIN_WIDTH), min(MAX_WIDTH, len(text) + 2))
        ws.column_dimensions["A"].width = FIRST_WIDTH
        self.widths[ws.title] = {1: FIRST_WIDTH, **widths}
        for i, width in widths.items():
            ws.column_dimensions[get_column_letter(i)].width = width

    def _header(self, ws: Any, header: Sequence[str]) -> int:
        """A bold header row, as tall as its longest wrapped title."""
        widths = self.widths.get(ws.title, {})
        lines = max((_lines(text, widths.get(i, MIN_WIDTH))
                     for i, text in enumerate(header, start=1)), default=1)
        if lines > 1:
            ws.row_dimensions[self.rows.get(ws.title, 0) + 1].height = 13 * lines + 2
        return self._append(ws, [("header", h) for h in header])

    # -- the data sheets ---------------------------------------------------------------------
    def _data_sheet(self, title: str, block: Block) -> None:
        from openpyxl.utils import get_column_letter

        ws = self.wb.create_sheet(title)
        print_ready(ws)
        ws.freeze_panes = "A2"
        header = expand_header(block.header, self.t)
        for i, text in enumerate(header, start=1):
            ws.column_dimensions[get_column_letter(i)].width = max(MIN_WIDTH, len(text) + 4)
        self._append(ws, [("header", h) for h in header])
        for cells in block.rows:
            self._append(ws, expand_row(cells))
        ws.auto_filter.ref = f"A1:{get_column_letter(len(header))}{len(block.rows) + 1}"

    def _charts(self, summary_ws: Any) -> None:
        """The chart data sheet (one table per chart), then the charts on the summary."""
        from openpyxl.utils import get_column_letter

        ws = self.wb.create_sheet(self.t("chart_sheet"))
        print_ready(ws)
        ws.freeze_panes = "A2"
        for letter in "ABCDEFGH":
            ws.column_dimensions[letter].width = 18
        header = [self.t("series"), self.t("category"), self.t("value"), self.t("low"),
                  self.t("high"), "−", "+"]
        self._append(ws, [("header", h) for h in header])
        placed = []
        for anchor, spec in self.charts:
            first = self.rows[ws.title] + 1
            for s, (name, values) in enumerate(spec.series):
                lows = spec.lows[s] if s < len(spec.lows) else [None] * len(values)
                highs = spec.highs[s] if s < len(spec.highs) else [None] * len(values)
                for category, value, low, high in zip(spec.categories, values, lows, highs):
                    bound = "ci_bound" if spec.percent else "cinum_bound"  # blank if None
                    kind = bound if value is None else ("pct" if spec.percent else "num")
                    self._append(ws, [("", name), ("", category), (kind, value),
                                      (bound, low), (bound, high),
                                      (bound, _gap(value, low)), (bound, _gap(high, value))])
            placed.append((anchor, spec, first))
        last = self.rows[ws.title]
        ws.auto_filter.ref = f"A1:{get_column_letter(len(header))}{last}"
        for anchor, spec, first in placed:
            summary_ws.add_chart(native_chart(spec, ws.title, first), anchor)


def _lines(text: str, width: int) -> int:
    """How many lines ``text`` wraps to in a column ``width`` characters wide."""
    lines, used = 1, 0
    for word in text.split():
        if used and used + 1 + len(word) > width - 1:
            lines, used = lines + 1, len(word)
        else:
            used += len(word) + (1 if used else 0)
    return lines


def _letter(column: int) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(column))


def _gap(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else max(0.0, a - b)


def native_chart(spec: ChartSpec, sheet: str, first: int) -> Any:
    """An openpyxl chart of ``spec`` whose data sit on ``sheet`` from row ``first`` (one
    row per category and series, columns C value, F minus, G plus; B the category)."""
    from openpyxl.chart import BarChart, LineChart, Reference, Series
    from openpyxl.chart.data_source import NumDataSource, NumRef
    from openpyxl.chart.error_bar import ErrorBars

    quoted = "'" + sheet.replace("'", "''") + "'"
    n = len(spec.categories)
    chart: Any = BarChart() if spec.kind == "bar" else LineChart()
    if spec.kind == "bar":
        chart.type = "col"
    chart.title = CONTROL.sub(" ", spec.title)  # a chart title holds no _xHHHH_ escape
    chart.width, chart.height = 15, 7.5
    chart.legend = None if len(spec.series) == 1 else chart.legend
    for s, (name, _values) in enumerate(spec.series):
        top = first + s * n
        values = Reference(range_string=f"{quoted}!$C${top}:$C${top + n - 1}")
        series = Series(values, title=CONTROL.sub(" ", name))
        if spec.kind == "bar" and spec.lows:
            series.errBars = ErrorBars(
                errDir="y", errBarType="both", errValType="cust", noEndCap=False,
                minus=NumDataSource(numRef=NumRef(f=f"{quoted}!$F${top}:$F${top + n - 1}")),
                plus=NumDataSource(numRef=NumRef(f=f"{quoted}!$G${top}:$G${top + n - 1}")))
        chart.series.append(series)
    chart.set_categories(Reference(range_string=f"{quoted}!$B${first}:$B${first + n - 1}"))
    chart.y_axis.number_format = "0%" if spec.percent else "0.00"
    chart.y_axis.scaling.min = 0
    values = [v for _name, vs in spec.series for v in vs if v is not None]
    if spec.percent or max(values, default=0.0) <= 1.0:  # shares and means of 0-1 measures
        chart.y_axis.scaling.max = 1
    chart.y_axis.delete = False
    chart.x_axis.delete = False
    return chart


def write_rows(ws: Any, rows: Sequence[Sequence[Any]], lang: str, escape: Any) -> None:
    """Write a report sheet given as rows of plain values or ``(kind, value)`` pairs (kind:
    ``title``, ``bold``, ``pct``, ``num``, ``mean``, ``cost``): the sheets that topic modules
    add beside the summary (structured answers, exposure), printed like the summary."""
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    from rag_annotator.reports.words import words

    ws.column_dimensions["A"].width = 28
    for letter in "BCDEFGHIJKLM":
        ws.column_dimensions[letter].width = 14
    print_ready(ws)
    fonts = {"title": Font(bold=True, size=13), "bold": Font(bold=True)}
    formats = {"pct": "0.0%", "num": "0.000", "mean": "0.0", "cost": "0.0000"}
    for row in rows:
        cells: list[Any] = []
        for value in row:
            kind = value[0] if isinstance(value, tuple) else ""
            raw = value[1] if isinstance(value, tuple) else value
            if raw is None and kind in formats:
                raw = words(lang)("not_computable")
            cell = WriteOnlyCell(ws, value=escape(raw) if isinstance(raw, str) else raw)
            if isinstance(raw, str):
                cell.data_type = "s"
            if kind in fonts:
                cell.font = fonts[kind]
            elif kind in formats and isinstance(raw, float):
                cell.number_format = formats[kind]
            cells.append(cell)
        ws.append(cells)
