"""The manager's page as a one-page PDF: :class:`~rag_annotator.reports.manager.ManagerPage`
drawn on an A4 portrait page with Qt's own PDF writer (``QPdfWriter`` + ``QPainter``; no new
dependency), for people who will not open a spreadsheet.

Readable printed: no text under 8 pt (:data:`MIN_POINTS`; the body starts at 10 pt and
shrinks half a point at a time until the page holds everything, and only then are the
longest lists cut, with a line saying how many more the workbook has); every label whole
(wrapped, never elided); the bars drawn from a visible baseline, a bar at 0 % as a stub
with its value beside it, each with its range as a whisker.  Written to a temporary file
beside the destination, then renamed (whole or not at all).

Qt must be running: the app has its QApplication; ``import_export.pdf_export`` (the CLI)
makes an offscreen QGuiApplication when there is none.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
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

from rag_annotator.reports.manager import Bar, ManagerPage, Section
from rag_annotator.reports.manager_words import manager_words
from rag_annotator.storage import tempfiles

RESOLUTION = 300  # dots per inch: device units below are dots
#: The smallest text on the page, in points (a printed page stays readable).
MIN_POINTS = 8.0
#: Body sizes tried, largest first, until the page holds everything.
BODY_SIZES = (10.0, 9.5, 9.0, 8.5, 8.0)
MARGIN_MM = 14.0
ACCENT = QColor(25, 90, 160)
MUTED = QColor(90, 90, 90)
TRACK = QColor(232, 236, 242)
RULE = QColor(200, 205, 215)


def _font(points: float, bold: bool = False, italic: bool = False) -> QFont:
    font = QFont()
    font.setPointSizeF(max(MIN_POINTS, points))
    font.setBold(bold)
    font.setItalic(italic)
    return font


@dataclass(frozen=True)
class Fonts:
    """The page's fonts for one body size (none below :data:`MIN_POINTS`)."""

    body: QFont
    bold: QFont
    small: QFont
    heading: QFont
    title: QFont
    figure: QFont

    @classmethod
    def of(cls, body: float) -> Fonts:
        return cls(_font(body), _font(body, bold=True), _font(body - 1.5, italic=True),
                   _font(body + 2, bold=True), _font(body + 6, bold=True),
                   _font(body + 8, bold=True))


class Page:
    """Lays the page out top to bottom; with ``painter`` None it only measures (how tall
    the page would be), so the same code decides the size and draws."""

    def __init__(self, page: ManagerPage, painter: QPainter | None, device: Any,
                 width: float, fonts: Fonts) -> None:
        self.page, self.painter, self.device, self.width = page, painter, device, width
        self.fonts = fonts
        self.y = 0.0

    def metrics(self, font: QFont) -> QFontMetricsF:
        return QFontMetricsF(font, self.device)

    # -- text ---------------------------------------------------------------------------------
    def text(self, font: QFont, text: str, *, x: float = 0.0, width: float | None = None,
             colour: QColor | None = None, after: float = 0.25) -> float:
        """Write ``text`` wrapped on words at (x, y) and move down; return its height."""
        width = self.width - x if width is None else width
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
        rect = self.metrics(font).boundingRect(QRectF(0, 0, width, 1e7), flags, text)
        if self.painter is not None:
            self.painter.setFont(font)
            self.painter.setPen(colour or QColor(0, 0, 0))
            self.painter.drawText(QRectF(x, self.y, width, rect.height() + 2), flags, text)
        height = rect.height() + self.metrics(font).height() * after
        self.y += height
        return height

    def rule(self) -> None:
        self.y += self.metrics(self.fonts.body).height() * 0.35
        if self.painter is not None:
            self.painter.setPen(QPen(RULE, 3))
            self.painter.drawLine(QPointF(0, self.y), QPointF(self.width, self.y))
        self.y += self.metrics(self.fonts.body).height() * 0.45

    def section(self, section: Section) -> None:
        self.rule()
        self.text(self.fonts.heading, section.title, colour=ACCENT, after=0.2)
        for line in section.lines:
            self.text(self.fonts.body, line, x=self.metrics(self.fonts.body).height() * 0.6,
                      after=0.15)

    # -- the whole page -----------------------------------------------------------------------
    def lay_out(self) -> float:
        page = self.page
        self.text(self.fonts.title, page.title, colour=ACCENT, after=0.15)
        self.text(self.fonts.small, page.subtitle, colour=MUTED, after=0.2)
        self.section(page.tested)
        self.rule()
        self.text(self.fonts.heading, page.headlines_title, colour=ACCENT, after=0.3)
        self.headlines()
        self.text(self.fonts.small, page.headlines_note, colour=MUTED, after=0.4)
        if page.bars:
            self.text(self.fonts.bold, page.chart_title, after=0.3)
            BarsPainter(self).draw(page.bars)
        for section in page.sections:
            self.section(section)
        self.rule()
        self.text(self.fonts.small, page.footer, colour=MUTED)
        return self.y

    def headlines(self) -> None:
        """One row per headline: the value large on the left, its label, count and range
        beside it."""
        figure_width = self.metrics(self.fonts.figure).horizontalAdvance("100 %") * 1.15
        gap = self.metrics(self.fonts.body).height() * 0.8
        for h in self.page.headlines:
            top = self.y
            x = figure_width + gap
            self.text(self.fonts.bold, h.label, x=x, after=0.05)
            details = h.count + (" — " + h.range if h.range else "")
            self.text(self.fonts.body, details, x=x, after=0.35)
            value_height = self.metrics(self.fonts.figure).height()
            if self.painter is not None:
                self.painter.setFont(self.fonts.figure)
                self.painter.setPen(ACCENT)
                self.painter.drawText(QRectF(0, top, figure_width, value_height),
                                      int(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter), h.value)
            self.y = max(self.y, top + value_height * 1.1)


class BarsPainter:
    """Horizontal bars, one per kind of question: the label whole on the left (wrapped if
    long), the track from 0 to 100 %, the bar, the range as a whisker, the value after."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.fm = page.metrics(page.fonts.body)

    def draw(self, bars: Sequence[Bar]) -> None:
        page, fm = self.page, self.fm
        label_width = min(page.width * 0.32,
                          max(fm.horizontalAdvance(b.label) for b in bars) + fm.height())
        text_width = min(page.width * 0.34,
                         max(fm.horizontalAdvance(b.text) for b in bars) + fm.height())
        track_left = label_width
        track_width = page.width - label_width - text_width
        line = fm.height()
        flags = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    | Qt.TextFlag.TextWordWrap)
        for bar in bars:
            label_rect = fm.boundingRect(QRectF(0, 0, label_width - line * 0.5, 1e7), flags,
                                         bar.label)
            height = max(line * 1.3, label_rect.height() + line * 0.3)
            if page.painter is not None:
                self._bar(page.painter, bar, page.y, height, label_width, track_left,
                          track_width, text_width, flags)
            page.y += height
        page.y += line * 0.4

    def _bar(self, painter: QPainter, bar: Bar, top: float, height: float, label_width: float,
             left: float, width: float, text_width: float, flags: int) -> None:
        line = self.fm.height()
        painter.setFont(self.page.fonts.body)
        painter.setPen(QColor(0, 0, 0))
        painter.drawText(QRectF(0, top, label_width - line * 0.5, height), flags, bar.label)
        middle = top + height / 2
        thickness = min(height * 0.6, line * 0.9)
        painter.fillRect(QRectF(left, middle - thickness / 2, width, thickness), TRACK)
        value = bar.figure.value or 0.0
        # a 0 % bar is still drawn: a stub as wide as a thick line, its value beside it
        length = max(width * max(0.0, min(1.0, value)), 6.0)
        painter.fillRect(QRectF(left, middle - thickness / 2, length, thickness), ACCENT)
        low, high = bar.figure.bounds()
        if low is not None and high is not None:
            painter.setPen(QPen(QColor(0, 0, 0), 4))
            x_low, x_high = left + width * low, left + width * high
            painter.drawLine(QPointF(x_low, middle), QPointF(x_high, middle))
            for x in (x_low, x_high):
                painter.drawLine(QPointF(x, middle - thickness * 0.45),
                                 QPointF(x, middle + thickness * 0.45))
        painter.setPen(QPen(QColor(0, 0, 0), 3))
        painter.drawLine(QPointF(left, middle - thickness * 0.7),
                         QPointF(left, middle + thickness * 0.7))  # the 0 % line
        painter.setPen(QColor(0, 0, 0))
        painter.drawText(QRectF(left + width + line * 0.5, top, text_width - line * 0.5,
                                height),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
                             | Qt.TextFlag.TextWordWrap), bar.text)


def _cut(page: ManagerPage, keep: int) -> ManagerPage:
    """The page with every list longer than ``keep`` lines cut, a line saying how many more
    (the workbook has them all)."""
    more = manager_words(page.lang)("more")

    def cut(section: Section) -> Section:
        if len(section.lines) <= keep:
            return section
        return Section(section.title, [*section.lines[:keep],
                                       more.format(n=len(section.lines) - keep)])

    return replace(page, tested=cut(page.tested), sections=[cut(s) for s in page.sections],
                   bars=page.bars[:max(keep, 3)] if len(page.bars) > keep + 3 else page.bars)


def choose(page: ManagerPage, device: Any, width: float, height: float
           ) -> tuple[ManagerPage, Fonts]:
    """The largest body size at which the page holds everything; at the smallest size the
    longest lists are cut until it does."""
    for size in BODY_SIZES:
        fonts = Fonts.of(size)
        if Page(page, None, device, width, fonts).lay_out() <= height:
            return page, fonts
    fonts = Fonts.of(BODY_SIZES[-1])
    for keep in (8, 6, 4, 3, 2, 1):
        cut = _cut(page, keep)
        if Page(cut, None, device, width, fonts).lay_out() <= height:
            return cut, fonts
    return _cut(page, 1), fonts


_APP: Any = None  # the offscreen application made for a headless export, kept alive


def ensure_app() -> None:
    """Make a QGuiApplication on the offscreen platform when none runs (the CLI): fonts and
    the PDF writer need one."""
    global _APP
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _APP = QGuiApplication(["rag-annotator"])


def write_pdf(page: ManagerPage, dest: Path) -> None:
    """Draw ``page`` on one A4 page and write it to ``dest`` (whole or not at all); raises
    OSError when the file cannot be written (a full disk included: Qt's PDF writer would
    fail silently, so the page is drawn in memory and written by Python)."""
    data = render_pdf(page)
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


def render_pdf(page: ManagerPage) -> bytes:
    """The one-page PDF of ``page``, as bytes."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(RESOLUTION)
    writer.setTitle(page.title)
    writer.setCreator("rag-annotator")
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))
    painter = QPainter(writer)
    try:
        rect = writer.pageLayout().paintRectPixels(RESOLUTION)
        width, height = float(rect.width()), float(rect.height())
        shown, fonts = choose(page, writer, width, height)
        Page(shown, painter, writer, width, fonts).lay_out()
    finally:
        painter.end()
    buffer.close()
    return bytes(buffer.data().data())
