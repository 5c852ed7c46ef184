"""The one-page PDF summary, for people who will not open a spreadsheet: the workbook's
summary (``reports.workbook.summary``: the same blocks, the same words) and its charts, drawn
with Qt's own PDF writer (``QPdfWriter`` + ``QPainter``; no new dependency).

One page, always: the tables take the top of an A4 landscape page and the charts (success
per family with its intervals as error bars, the drift as lines) a band at the bottom; the
font shrinks step by step until everything fits, and at the smallest size a block that still
does not fit is cut with a line saying how many rows the workbook has beyond it.  Written to
a temporary file beside the destination, then renamed (whole or not at all).

Qt must be running: the app has its QApplication; ``import_export.pdf_export`` (the CLI)
makes an offscreen QGuiApplication when there is none.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
)

from rag_annotator.reports.words import words
from rag_annotator.reports.workbook import Block, ChartSpec, Summary
from rag_annotator.storage import tempfiles

#: Font sizes tried, largest first, until the page holds everything.
SIZES = (8.0, 7.5, 7.0, 6.5, 6.0, 5.5, 5.0)
#: Rows a block keeps at the smallest size when the page is still too short.
CUT_ROWS = 6
RESOLUTION = 300  # dots per inch: device units below are dots
COLUMN_GAP = 0.03  # share of the page width between the two columns of tables
CHART_BAND = 0.27  # share of the page height the charts take when there are any
HEADER_FILL = QColor(221, 228, 238)
LINES = (QColor(25, 118, 210), QColor(198, 40, 40), QColor(46, 125, 50), QColor(123, 31, 162))


def number_text(kind: str, value: Any, lang: str) -> str:
    """A cell's text: shares as "33,3 %" / "33.3%", means with their decimals, changes with
    their sign; None is an en dash (not computable, or nothing to compare with)."""
    if value is None:
        return "—"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    places = {"pct": 1, "ci": 0, "dpct": 1, "num": 3, "cinum": 3, "dnum": 3, "mean": 1,
              "cost": 4}.get(kind)
    if places is None:
        return f"{value:,}".replace(",", "\u202f") if isinstance(value, int) else f"{value:g}"
    share = kind in ("pct", "ci", "dpct")
    sign = "+" if kind in ("dpct", "dnum") else ""
    text = f"{value * 100 if share else value:{sign},.{places}f}"
    if lang == "fr":
        text = text.replace(",", "\u202f").replace(".", ",")
    if share:
        text += "\u202f%" if lang == "fr" else "%"
    return text


def cell_text(cell: Any, lang: str) -> str:
    """One block cell as the PDF writes it: an interval cell is "33 % [10–70 %]"."""
    if isinstance(cell, tuple) and cell[0] in ("ci", "cinum"):
        value, low, high = cell[1]
        main = number_text(cell[0], value, lang)
        if value is None or low is None or high is None:
            return main
        return f"{main} [{number_text(cell[0], low, lang)}–{number_text(cell[0], high, lang)}]"
    if isinstance(cell, tuple):
        return number_text(str(cell[0]), cell[1], lang) if cell[0] != "bold" else str(cell[1])
    return number_text("", cell, lang)


@dataclass
class _Fonts:
    body: QFont
    bold: QFont
    title: QFont
    heading: QFont


def _fonts(size: float) -> _Fonts:
    body = QFont()
    body.setStyleHint(QFont.StyleHint.SansSerif)
    for ligature in ("liga", "clig"):  # "fi" stays two letters: the text can be searched
        body.setFeature(QFont.Tag(ligature), 0)
    body.setPointSizeF(size)
    bold = QFont(body)
    bold.setBold(True)
    title = QFont(bold)
    title.setPointSizeF(size * 1.8)
    heading = QFont(bold)
    heading.setPointSizeF(size * 1.15)
    return _Fonts(body, bold, title, heading)


class _Layout:
    """Draws (or, with ``painter`` None, measures) the summary's tables at one font size."""

    def __init__(self, summary: Summary, painter: QPainter | None, width: float,
                 size: float, cut: bool, device: Any) -> None:
        self.summary, self.painter, self.width, self.cut = summary, painter, width, cut
        self.fonts = _fonts(size)
        self.device = device
        self.t = words(summary.lang)
        self.y = 0.0
        self.fits_width = True

    def metrics(self, font: QFont) -> QFontMetricsF:
        return QFontMetricsF(font, self.device)

    def text(self, font: QFont, text: str, wrap: bool = False) -> None:
        fm = self.metrics(font)
        flags = int(Qt.AlignmentFlag.AlignLeft) | (int(Qt.TextFlag.TextWordWrap) if wrap else 0)
        rect = fm.boundingRect(QRectF(0, 0, self.width, 1e6), flags, text)
        height = rect.height() if wrap else fm.height()
        if self.painter is not None:
            self.painter.setFont(font)
            shown = text if wrap else fm.elidedText(text, Qt.TextElideMode.ElideRight,
                                                    self.width)
            self.painter.drawText(QRectF(0, self.y, self.width, height + 2), flags, shown)
        self.y += height

    def head(self) -> float:
        """The title and the facts; returns the height used."""
        self.text(self.fonts.title, self.summary.title)
        facts = "   ".join(" ".join(number_text("", v, self.summary.lang) for v in fact)
                           for fact in self.summary.facts)
        self.text(self.fonts.body, facts)
        return self.y

    def measure(self, block: Block) -> float:
        """The height ``block`` takes (nothing drawn when ``painter`` is None)."""
        self.y = 0.0
        self.block(block)
        return self.y + self.metrics(self.fonts.body).height() * 0.6

    def block(self, block: Block) -> None:
        self.text(self.fonts.heading, block.title, wrap=True)
        header = [h[1] if isinstance(h, tuple) else str(h) for h in block.header]
        rows = [[cell_text(c, self.summary.lang) for c in row] for row in block.rows]
        more = 0
        if self.cut and len(rows) > CUT_ROWS:
            more, rows = len(rows) - CUT_ROWS, rows[:CUT_ROWS]
        widths = self._widths(header, rows)
        self._row(header, widths, self.fonts.bold, fill=True)
        bold_rows = {i for i, row in enumerate(block.rows)
                     if row and isinstance(row[0], tuple) and row[0][0] == "bold"}
        for i, row in enumerate(rows):
            self._row(row, widths, self.fonts.bold if i in bold_rows else self.fonts.body)
        if more:
            self.text(self.fonts.body, self.t("pdf_more").format(n=more))
        if block.note:
            note = QFont(self.fonts.body)
            note.setItalic(True)
            self.text(note, block.note, wrap=True)

    def _widths(self, header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[float]:
        fm, fb = self.metrics(self.fonts.body), self.metrics(self.fonts.bold)
        pad = fm.horizontalAdvance("  ")
        count = max([len(header), *(len(r) for r in rows)])
        widths = [0.0] * count
        for c in range(count):
            words_ = header[c].split() if c < len(header) else []
            head = max([fb.horizontalAdvance(w) for w in words_] or [0.0])
            cells = [fb.horizontalAdvance(r[c]) for r in rows if c < len(r)]
            widths[c] = max([head, *cells]) + pad
        widths = [min(w, self.width * 0.3) for w in widths]  # longer texts are elided
        total = sum(widths)
        if total > self.width:  # narrower columns, elided texts; too narrow: a smaller font
            self.fits_width = self.fits_width and total < self.width * 1.25
            widths = [w * self.width / total for w in widths]
        elif total < self.width * 0.75 and count > 1:  # spread a short table a little
            extra = (self.width * 0.75 - total) / count
            widths = [w + extra for w in widths]
        return widths

    def _row(self, cells: Sequence[str], widths: Sequence[float], font: QFont,
             fill: bool = False) -> None:
        fm = self.metrics(font)
        height = fm.height()
        if fill:  # headers wrap on words
            for text, width in zip(cells, widths):
                wrapped = fm.boundingRect(QRectF(0, 0, width - 4, 1e6),
                                          int(Qt.TextFlag.TextWordWrap), text)
                height = max(height, wrapped.height())
        height += fm.height() * 0.25
        if self.painter is not None:
            painter = self.painter
            painter.setFont(font)
            if fill:
                painter.fillRect(QRectF(0, self.y, sum(widths), height), HEADER_FILL)
            x = 0.0
            for i, (text, width) in enumerate(zip(cells, widths)):
                align = Qt.AlignmentFlag.AlignLeft if i == 0 else \
                    Qt.AlignmentFlag.AlignRight
                flags = int(align | Qt.AlignmentFlag.AlignVCenter)
                if fill:
                    flags |= int(Qt.TextFlag.TextWordWrap)
                    shown = text
                else:
                    shown = fm.elidedText(text, Qt.TextElideMode.ElideRight, width - 4)
                painter.drawText(QRectF(x + 2, self.y, width - 4, height), flags, shown)
                x += width
            painter.setPen(QPen(QColor(200, 200, 200), 1))
            painter.drawLine(QPointF(0, self.y + height), QPointF(sum(widths), self.y + height))
            painter.setPen(QPen(QColor(0, 0, 0)))
        self.y += height


#: Where each block goes: (column, top, block).
Plan = list[tuple[int, float, Block]]


def _plan(summary: Summary, device: Any, width: float, height: float, size: float,
          cut: bool) -> tuple[float, Plan] | None:
    """The blocks flowed into two columns under the title at ``size`` (None if they do not
    fit): the head's height and each block's place."""
    column = (width - width * COLUMN_GAP) / 2
    head = _Layout(summary, None, width, size, cut, device).head()
    measure = _Layout(summary, None, column, size, cut, device)
    plan: Plan = []
    col, y = 0, head
    for block in summary.blocks:
        measure.fits_width = True
        h = measure.measure(block)
        if not measure.fits_width:
            return None
        if y + h > height and col == 0:
            col, y = 1, head
        if y + h > height:
            return None
        plan.append((col, y, block))
        y += h
    return head, plan


def _choose(summary: Summary, device: Any, width: float, height: float
            ) -> tuple[float, bool, Plan]:
    """The largest font size (and whether blocks are cut) at which the tables fit."""
    for cut in (False, True):
        for size in SIZES:
            found = _plan(summary, device, width, height, size, cut)
            if found is not None:
                return size, cut, found[1]
    size = SIZES[-1]
    layout = _Layout(summary, None, width, size, True, device)
    column = (width - width * COLUMN_GAP) / 2
    head = layout.head()
    # Last resort: one column after the other, whatever overflows is left off the page.
    plan: Plan = []
    col, y = 0, head
    measure = _Layout(summary, None, column, size, True, device)
    for block in summary.blocks:
        h = measure.measure(block)
        if y + h > height and col == 0:
            col, y = 1, head
        if y + h <= height:
            plan.append((col, y, block))
            y += h
    return size, True, plan


_APP: Any = None  # the offscreen application made for a headless export, kept alive


def ensure_app() -> None:
    """Make a QGuiApplication on the offscreen platform when none runs (the CLI): fonts and
    the PDF writer need one."""
    global _APP
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _APP = QGuiApplication(["rag-annotator"])


def write_pdf(summary: Summary, dest: Path) -> None:
    """Draw ``summary`` on one A4 landscape page and write it to ``dest`` (whole or not at
    all); raises OSError when the file cannot be written (a full disk included: Qt's PDF
    writer would fail silently, so the page is drawn in memory and written by Python)."""
    data = render_pdf(summary)
    tmp = tempfiles.temp_file(dest.parent, ".pdf")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, dest)
    except BaseException:
        tempfiles.remove(tmp)
        raise


def render_pdf(summary: Summary) -> bytes:
    """The one-page PDF of ``summary``, as bytes."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    _draw(summary, buffer)
    buffer.close()
    return bytes(buffer.data().data())


def _draw(summary: Summary, device: QBuffer) -> None:
    writer = QPdfWriter(device)
    writer.setResolution(RESOLUTION)
    writer.setTitle(summary.title)
    writer.setCreator("rag-annotator")
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Landscape,
                                     QMarginsF(10, 10, 10, 10), QPageLayout.Unit.Millimeter))
    painter = QPainter(writer)
    try:
        page = writer.pageLayout().paintRectPixels(RESOLUTION)
        width, height = float(page.width()), float(page.height())
        charts = _charts(summary)
        band = height * CHART_BAND if charts else 0.0
        size, cut, plan = _choose(summary, writer, width, height - band)
        _Layout(summary, painter, width, size, cut, writer).head()
        column = (width - width * COLUMN_GAP) / 2
        for col, top, block in plan:
            painter.save()
            painter.translate(col * (column + width * COLUMN_GAP), top)
            _Layout(summary, painter, column, size, cut, writer).measure(block)
            painter.restore()
        if charts:
            _draw_charts(painter, charts, QRectF(0, height - band, width, band), size,
                         writer)
    finally:
        painter.end()


def _charts(summary: Summary) -> list[ChartSpec]:
    return summary.charts[:2]


def _draw_charts(painter: QPainter, charts: Sequence[ChartSpec], band: QRectF,
                 size: float, device: Any) -> None:
    gap = band.width() * 0.02
    width = (band.width() - gap * (len(charts) - 1)) / len(charts)
    for i, spec in enumerate(charts):
        rect = QRectF(band.left() + i * (width + gap), band.top(), width, band.height())
        ChartPainter(painter, rect, size, device).draw(spec)


class ChartPainter:
    """One chart drawn in a rectangle: a title, a 0–100 % (or 0–max) axis, columns with
    error bars, or lines with points."""

    def __init__(self, painter: QPainter, rect: QRectF, size: float, device: Any) -> None:
        self.painter, self.rect = painter, rect
        self.fonts = _fonts(size)
        self.fm = QFontMetricsF(self.fonts.body, device)

    def draw(self, spec: ChartSpec) -> None:
        p, r, fm = self.painter, self.rect, self.fm
        p.setPen(QPen(QColor(120, 120, 120), 2))
        p.drawRect(r)
        p.setPen(QPen(QColor(0, 0, 0)))
        p.setFont(self.fonts.bold)
        line = fm.height()
        p.drawText(QRectF(r.left() + line, r.top() + line * 0.3, r.width() - 2 * line,
                          line * 2.4), int(Qt.AlignmentFlag.AlignHCenter
                                           | Qt.TextFlag.TextWordWrap), spec.title)
        top = max(spec_max(spec), 1e-9)
        plot = QRectF(r.left() + fm.horizontalAdvance("100 %") + line,
                      r.top() + line * 3, 0, 0)
        plot.setRight(r.right() - line)
        plot.setBottom(r.bottom() - line * 2.6)
        self._axis(plot, top, spec.percent)

        def y_of(v: float) -> float:
            return plot.bottom() - plot.height() * max(0.0, min(v, top)) / top

        if spec.kind == "bar":
            self._bars(spec, plot, y_of)
        else:
            self._lines(spec, plot, y_of)

    def _axis(self, plot: QRectF, top: float, percent: bool) -> None:
        p, fm = self.painter, self.fm
        p.setFont(self.fonts.body)
        for k in range(5):
            v = top * k / 4
            y = plot.bottom() - plot.height() * k / 4
            p.setPen(QPen(QColor(225, 225, 225), 1))
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            p.setPen(QPen(QColor(0, 0, 0)))
            text = f"{v * 100:.0f} %" if percent else f"{v:.2f}"
            p.drawText(QRectF(plot.left() - fm.horizontalAdvance("100 %") - 8,
                              y - fm.height() / 2, fm.horizontalAdvance("100 %"), fm.height()),
                       int(Qt.AlignmentFlag.AlignRight), text)
        p.drawLine(QPointF(plot.left(), plot.bottom()), QPointF(plot.right(), plot.bottom()))

    def _category(self, x: float, width: float, text: str, plot: QRectF) -> None:
        fm = self.fm
        shown = fm.elidedText(text, Qt.TextElideMode.ElideRight, width)
        self.painter.drawText(QRectF(x, plot.bottom() + 4, width, fm.height() * 2.2),
                              int(Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap),
                              shown if fm.horizontalAdvance(text) > width * 2 else text)

    def _bars(self, spec: ChartSpec, plot: QRectF, y_of: Callable[[float], float]) -> None:
        """Per category one column per series (the runs), each with its error bar."""
        p = self.painter
        n = max(1, len(spec.categories))
        slot = plot.width() / n
        count = max(1, len(spec.series))
        bar = slot * 0.8 / count
        for s, (_name, values) in enumerate(spec.series):
            lows = spec.lows[s] if s < len(spec.lows) else [None] * n
            highs = spec.highs[s] if s < len(spec.highs) else [None] * n
            colour = LINES[s % len(LINES)]
            for i, value in enumerate(values):
                x = plot.left() + i * slot + slot * 0.1 + s * bar
                if value is not None:
                    p.fillRect(QRectF(x + bar * 0.1, y_of(value), bar * 0.8,
                                      plot.bottom() - y_of(value)), colour)
                low, high = lows[i], highs[i]
                if low is not None and high is not None:
                    centre = x + bar / 2
                    p.setPen(QPen(QColor(0, 0, 0), 3))
                    p.drawLine(QPointF(centre, y_of(low)), QPointF(centre, y_of(high)))
                    for v in (low, high):
                        p.drawLine(QPointF(centre - bar * 0.2, y_of(v)),
                                   QPointF(centre + bar * 0.2, y_of(v)))
        p.setPen(QPen(QColor(0, 0, 0)))
        for i, category in enumerate(spec.categories):
            self._category(plot.left() + i * slot, slot, category, plot)
        if count > 1:
            self._legend(spec, plot)

    def _legend(self, spec: ChartSpec, plot: QRectF) -> None:
        p, fm = self.painter, self.fm
        width = max(fm.horizontalAdvance(name) for name, _v in spec.series) + fm.height() * 2
        for s, (name, _values) in enumerate(spec.series):
            y = plot.top() + s * fm.height()
            p.fillRect(QRectF(plot.right() - width, y + fm.height() * 0.2, fm.height() * 0.8,
                              fm.height() * 0.6), LINES[s % len(LINES)])
            p.drawText(QRectF(plot.right() - width + fm.height(), y, width, fm.height()),
                       int(Qt.AlignmentFlag.AlignLeft), name)

    def _lines(self, spec: ChartSpec, plot: QRectF, y_of: Callable[[float], float]) -> None:
        p = self.painter
        n = max(1, len(spec.categories))
        slot = plot.width() / n
        for s, (_name, values) in enumerate(spec.series):
            p.setPen(QPen(LINES[s % len(LINES)], 5))
            points = [QPointF(plot.left() + (i + 0.5) * slot, y_of(v))
                      for i, v in enumerate(values) if v is not None]
            for a, b in itertools.pairwise(points):
                p.drawLine(a, b)
            for point in points:
                p.drawEllipse(point, 7, 7)
        p.setPen(QPen(QColor(0, 0, 0)))
        for i, category in enumerate(spec.categories):
            self._category(plot.left() + i * slot, slot, category, plot)
        self._legend(spec, plot)


def spec_max(spec: ChartSpec) -> float:
    """The axis top: 100 % for shares, else the largest value or interval end."""
    values = [v for _n, vs in spec.series for v in vs if v is not None]
    values += [v for hs in spec.highs for v in hs if v is not None]
    top = max(values or [1.0])
    return 1.0 if spec.percent or top <= 1.0 else top
