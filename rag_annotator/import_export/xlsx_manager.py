"""The workbook's first sheet: the manager's page (``reports.manager``), the very page the
one-page PDF draws, written as cells.

Top to bottom: the title and what the page covers; what was tested; the headline figures
as a small table (the figure in words, its value, the range's low and high ends, how many
it counts and of how many, and the sentence the PDF prints); the success per kind of
question as a table and a native horizontal bar chart with the ranges as error bars; what
changed since the baseline; the main reasons for failures; what is not yet reviewed.  Every
word in the reader's language, shares in a percent format, printed portrait one page wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rag_annotator.import_export.xlsx_summary import CONTROL, print_ready
from rag_annotator.reports.manager import ManagerPage, Section
from rag_annotator.reports.manager_words import manager_words

#: Columns: A the words, then the numbers.
WIDTHS = {"A": 62, "B": 11, "C": 11, "D": 11, "E": 11, "F": 11, "G": 60}
PERCENT = "0%"


class ManagerSheet:
    """Writes one :class:`ManagerPage` as the first sheet of a write-only workbook."""

    def __init__(self, wb: Any, page: ManagerPage, escape: Any) -> None:
        self.wb, self.page, self.escape = wb, page, escape
        self.w = manager_words(page.lang)
        self.row = 0
        self.ws: Any = None

    def write(self) -> None:
        ws = self.ws = self.wb.create_sheet(self.w("sheet"))
        print_ready(ws)
        ws.page_setup.orientation = "portrait"
        for letter, width in WIDTHS.items():
            ws.column_dimensions[letter].width = width
        for letter in "HI":  # the chart's error-bar lengths: read by the chart, not shown
            ws.column_dimensions[letter].hidden = True
        page = self.page
        self._append([("title", page.title)])
        self._append([("note", page.subtitle)])
        self._section(page.tested)
        self._append([])
        self._append([("heading", page.headlines_title)])
        self._headlines()
        self._append([("note", page.headlines_note)])
        if page.bars:
            self._append([])
            self._bars()
        for section in page.sections:
            self._section(section)
        self._append([])
        self._append([("note", page.footer)])

    def _section(self, section: Section) -> None:
        self._append([])
        self._append([("heading", section.title)])
        for line in section.lines:
            self._append([("wrap", line)])

    def _headlines(self) -> None:
        w = self.w
        self._append([("header", h) for h in (
            w("col_figure"), w("col_value"), w("col_low"), w("col_high"), w("col_counted"),
            w("col_of"), w("col_words"))])
        for h in self.page.headlines:
            low, high = h.figure.bounds()
            self._append([("", h.label), ("pct", h.figure.value), ("pct", low), ("pct", high),
                          ("int", round(h.figure.numerator)), ("int", h.figure.n),
                          ("wrap", ", ".join(x for x in (h.value, h.count, h.range) if x))])

    def _bars(self) -> None:
        w = self.w
        self._append([("bold", self.page.chart_title)])
        self._append([("header", h) for h in (
            w("col_kind"), w("col_value"), w("col_low"), w("col_high"), w("col_counted"),
            w("col_of"), w("col_words"))])
        first = self.row + 1
        for bar in self.page.bars:
            low, high = bar.figure.bounds()
            value = bar.figure.value or 0.0
            self._append([("", bar.label), ("pct", value), ("pct", low),
                          ("pct", high), ("int", round(bar.figure.numerator)),
                          ("int", bar.figure.n), ("wrap", bar.text),
                          # hidden: the error bars' lengths (value − low, high − value)
                          ("", None if low is None else value - low),
                          ("", None if high is None else high - value)])
        last = self.row
        anchor = self.row + 2
        for _ in range(max(8, 2 * len(self.page.bars) + 4)):  # room for the chart
            self._append([])
        self.ws.add_chart(_bar_chart(self.ws.title, first, last, self.page.chart_title),
                          f"A{anchor}")

    def _append(self, cells: Sequence[tuple[str, Any]]) -> None:
        self.ws.append([self._cell(kind, value) for kind, value in cells])
        self.row += 1

    def _cell(self, kind: str, raw: Any) -> Any:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Alignment, Font, PatternFill

        if raw is None and kind == "pct":
            raw = ""
        cell = WriteOnlyCell(self.ws, value=self.escape(raw) if isinstance(raw, str) else raw)
        if isinstance(raw, str):
            cell.data_type = "s"  # text, never a formula
        if kind == "title":
            cell.font = Font(bold=True, size=15, color="195AA0")
        elif kind == "heading":
            cell.font = Font(bold=True, size=12, color="195AA0")
        elif kind in ("bold", "header"):
            cell.font = Font(bold=True)
        elif kind == "note":
            cell.font = Font(italic=True, size=9, color="5A5A5A")
        if kind == "header":
            cell.fill = PatternFill("solid", fgColor="DDE4EE")
            cell.alignment = Alignment(wrap_text=True, vertical="top")
        elif kind == "wrap":
            cell.alignment = Alignment(wrap_text=True, vertical="top")
        if kind == "pct" and isinstance(raw, float | int):
            cell.number_format = PERCENT
        return cell


def _bar_chart(sheet: str, first: int, last: int, title: str) -> Any:
    """A horizontal bar chart of column B (rows ``first`` to ``last``), labels from column
    A, each bar with its range (columns C and D) as error bars: a bar at 0 % is still
    drawn on its axis, with its value shown."""
    from openpyxl.chart import BarChart, Reference, Series
    from openpyxl.chart.data_source import NumDataSource, NumRef
    from openpyxl.chart.error_bar import ErrorBars
    from openpyxl.chart.label import DataLabelList

    quoted = "'" + sheet.replace("'", "''") + "'"
    chart = BarChart()
    chart.type = "bar"
    chart.title = None
    chart.legend = None
    chart.width, chart.height = 16, max(4.0, 1.0 * (last - first + 1) + 2)
    series = Series(Reference(range_string=f"{quoted}!$B${first}:$B${last}"),
                    title=CONTROL.sub(" ", title)[:200])  # a chart holds no _xHHHH_
    # custom error bars: minus = value - low, plus = high - value, read from helper cells
    series.errBars = ErrorBars(
        errDir="x", errBarType="both", errValType="cust", noEndCap=False,
        minus=NumDataSource(numRef=NumRef(f=f"{quoted}!$H${first}:$H${last}")),
        plus=NumDataSource(numRef=NumRef(f=f"{quoted}!$I${first}:$I${last}")))
    series.dLbls = DataLabelList()
    series.dLbls.showVal = True
    chart.series.append(series)
    chart.set_categories(Reference(range_string=f"{quoted}!$A${first}:$A${last}"))
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.y_axis.number_format = "0%"
    chart.y_axis.scaling.min = 0
    chart.y_axis.scaling.max = 1
    chart.x_axis.scaling.orientation = "maxMin"  # the first kind on top, as in the table
    return chart
