"""The PDF side of the page view: open PDFs, render pages, find a span's rectangles and the
character under a point.

PDFium is not thread-safe (not even across documents), so everything here runs on the page
worker's one thread (:mod:`rag_annotator.ui.pages.render`); the GUI thread never calls it.
Geometry leaves this module in *page fractions*: ``(x, y)`` from the top-left corner of
the page as rendered, 0 to 1 of its width and height.  The widget scales them to whatever
size it paints the page at, and PDFium's own transform (rotation, crop box) is applied
here, once, through ``FPDF_PageToDevice`` / ``FPDF_DeviceToPage``.

A page is rendered without its empty margins (the box around what is printed on it, with
a little room): in a panel 500 pixels wide, an A4 page of a LaTeX document then shows its
text a third larger.  It is never zoomed past :data:`MAX_ZOOM` (a title page with one short
line stays a page).

The page's text is PDFium's, normalised as the corpus import stores it (``pdf_layer``), so
an offset found here plus the page's start offset is an offset of the document's text.
"""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QImage

from rag_annotator.import_export.documents.pdf_layer import (
    PageText,
    offset_at,
    page_text,
    span_rects,
)

#: Device size (pixels across) of the transform used for page fractions: 1/20,000 of a
#: page is far below a screen pixel.
NOMINAL = 20_000
#: Open PDFs kept (the Judge reads ahead the next pair's, Verify flips between contexts).
DOCUMENTS_KEPT = 4
#: Open pages (with their text pages) kept, over all documents.
PAGES_KEPT = 16
#: Points around a point within which a character is taken for a click (PDFium's tolerance).
HIT_TOLERANCE = 3.0
#: A second, wider try for a point between words or lines (a drag across a gap).
HIT_TOLERANCE_WIDE = 14.0

#: Room left around what is printed (points).
MARGIN = 14.0
#: The rendered part is at least this share of the page's width (at most 1/0.6 = 1.67x).
MAX_ZOOM_SHARE = 0.6

Fraction = tuple[float, float, float, float]  # left, top, right, bottom; 0..1 of the page


@dataclass
class _OpenPage:
    page: Any
    textpage: Any
    text: PageText
    width: float  # points, rotation applied
    height: float
    #: The part rendered (page fractions of the whole page: left, top, right, bottom).
    box: Fraction = (0.0, 0.0, 1.0, 1.0)

    @property
    def shown_width(self) -> float:
        return (self.box[2] - self.box[0]) * self.width

    @property
    def shown_height(self) -> float:
        return (self.box[3] - self.box[1]) * self.height


class PdfPages:
    """Open PDFs and pages, kept by content hash (a kept file's bytes never change)."""

    def __init__(self) -> None:
        self._documents: OrderedDict[str, Any] = OrderedDict()
        self._pages: OrderedDict[tuple[str, int], _OpenPage] = OrderedDict()

    def has(self, sha256: str) -> bool:
        """Whether the PDF is open (its bytes need not be read again)."""
        if sha256 in self._documents:
            self._documents.move_to_end(sha256)
            return True
        return False

    def open(self, sha256: str, data: bytes) -> int:
        """Open a PDF from its bytes; return its page count (PdfiumError when damaged)."""
        import pypdfium2 as pdfium

        document = pdfium.PdfDocument(data)
        self._documents[sha256] = document
        while len(self._documents) > DOCUMENTS_KEPT:
            old, closing = self._documents.popitem(last=False)
            for key in [k for k in self._pages if k[0] == old]:
                self._close_page(self._pages.pop(key))
            closing.close()
        return len(document)

    def page_count(self, sha256: str) -> int:
        return len(self._documents[sha256])

    def render(self, sha256: str, index: int, width_px: int) -> tuple[QImage, str]:
        """Page ``index`` (0-based) rendered ``width_px`` pixels wide, and its stored text."""
        opened = self._page(sha256, index)
        # PDFium rounds the bitmap's size down: half a pixel more gives the width asked
        scale = (max(width_px, 16) + 0.5) / max(opened.shown_width, 1.0)
        left, top, right, bottom = opened.box
        crop = (left * opened.width, (1 - bottom) * opened.height,
                (1 - right) * opened.width, top * opened.height)
        bitmap = opened.page.render(scale=scale, crop=crop, prefer_bgrx=True,
                                    draw_annots=True)
        try:
            image = QImage(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride,
                           QImage.Format.Format_RGB32).copy()  # owns its pixels
        finally:
            bitmap.close()
        return image, opened.text.text

    def page_text(self, sha256: str, index: int) -> str:
        """The stored text of page ``index``."""
        return self._page(sha256, index).text.text

    def aspect(self, sha256: str, index: int) -> float:
        """Height over width of the page as rendered."""
        opened = self._page(sha256, index)
        return opened.shown_height / max(opened.shown_width, 1.0)

    def shown_box(self, sha256: str, index: int) -> Fraction:
        """The part of page ``index`` rendered (left, top, right, bottom: fractions of the
        whole page), its empty margins left out."""
        return self._page(sha256, index).box

    def rects(self, sha256: str, index: int, spans: list[tuple[int, int]]
              ) -> list[list[Fraction]]:
        """For each ``[start, end)`` of the page's stored text, its rectangles as page
        fractions (one per run of characters on a line)."""
        opened = self._page(sha256, index)
        out = []
        for start, end in spans:
            rects = span_rects(opened.textpage, opened.text, start, end)
            out.append([self._fraction(opened, r) for r in rects])
        return out

    def offset_at(self, sha256: str, index: int, fx: float, fy: float) -> int | None:
        """The stored offset of the character at page fraction ``(fx, fy)`` (None when no
        character is near it)."""
        import pypdfium2.raw as pdfium_c

        opened = self._page(sha256, index)
        width, height = self._nominal(opened)
        left, top, right, bottom = opened.box
        fx, fy = left + fx * (right - left), top + fy * (bottom - top)
        x, y = ctypes.c_double(), ctypes.c_double()
        if not pdfium_c.FPDF_DeviceToPage(opened.page.raw, 0, 0, width, height, 0,
                                          round(fx * width), round(fy * height), x, y):
            return None
        for tolerance in (HIT_TOLERANCE, HIT_TOLERANCE_WIDE):
            found = offset_at(opened.textpage, opened.text, x.value, y.value, tolerance)
            if found is not None:
                return found
        return None

    def close(self) -> None:
        """Close every page and PDF."""
        for opened in self._pages.values():
            self._close_page(opened)
        self._pages.clear()
        for document in self._documents.values():
            document.close()
        self._documents.clear()

    # -- internals -----------------------------------------------------------------------------
    def _page(self, sha256: str, index: int) -> _OpenPage:
        key = (sha256, index)
        found = self._pages.get(key)
        if found is not None:
            self._pages.move_to_end(key)
            return found
        document = self._documents[sha256]
        if not 0 <= index < len(document):
            raise IndexError(index)
        page = document[index]
        textpage = page.get_textpage()
        width, height = page.get_size()  # the page's rotation applied, as rendered
        opened = _OpenPage(page, textpage, page_text(textpage), float(width), float(height))
        opened.box = self._content_box(opened)
        self._pages[key] = opened
        while len(self._pages) > PAGES_KEPT:
            self._close_page(self._pages.popitem(last=False)[1])
        return opened

    @staticmethod
    def _close_page(opened: _OpenPage) -> None:
        opened.textpage.close()
        opened.page.close()

    @staticmethod
    def _nominal(opened: _OpenPage) -> tuple[int, int]:
        return NOMINAL, max(1, round(NOMINAL * opened.height / max(opened.width, 1.0)))

    def _whole_page(self, opened: _OpenPage, rect: Any) -> Fraction:
        """A rectangle in PDF points as fractions of the whole page, top-left origin."""
        import pypdfium2.raw as pdfium_c

        width, height = self._nominal(opened)
        left, bottom, right, top = rect
        xs, ys = [], []
        for px, py in ((left, bottom), (right, top)):
            dx, dy = ctypes.c_int(), ctypes.c_int()
            pdfium_c.FPDF_PageToDevice(opened.page.raw, 0, 0, width, height, 0, px, py, dx, dy)
            xs.append(dx.value / width)
            ys.append(dy.value / height)
        return min(xs), min(ys), max(xs), max(ys)

    def _fraction(self, opened: _OpenPage, rect: Any) -> Fraction:
        """A rectangle in PDF points as fractions of the part rendered."""
        x0, y0, x1, y1 = self._whole_page(opened, rect)
        left, top, right, bottom = opened.box
        w, h = right - left, bottom - top
        return (x0 - left) / w, (y0 - top) / h, (x1 - left) / w, (y1 - top) / h

    def _content_box(self, opened: _OpenPage) -> Fraction:
        """The part of the page to render: what is printed on it, with :data:`MARGIN`
        around, at least :data:`MAX_ZOOM_SHARE` of the width, centred where it grows."""
        import pypdfium2.raw as pdfium_c

        raw = opened.page.raw
        bounds = [ctypes.c_float() for _ in range(4)]
        union: list[float] | None = None  # left, bottom, right, top in PDF points
        for i in range(pdfium_c.FPDFPage_CountObjects(raw)):
            if pdfium_c.FPDFPageObj_GetBounds(pdfium_c.FPDFPage_GetObject(raw, i), *bounds):
                x0, y0, x1, y1 = (v.value for v in bounds)
                union = [x0, y0, x1, y1] if union is None else [
                    min(union[0], x0), min(union[1], y0), max(union[2], x1), max(union[3], y1)]
        if union is None:
            return 0.0, 0.0, 1.0, 1.0
        # a page turns by quarter turns: the box of the union is the union of the boxes
        found = self._whole_page(opened, tuple(union))
        mx, my = MARGIN / max(opened.width, 1.0), MARGIN / max(opened.height, 1.0)
        left = max(0.0, found[0] - mx)
        top = max(0.0, found[1] - my)
        right = min(1.0, found[2] + mx)
        bottom = min(1.0, found[3] + my)
        if right - left < MAX_ZOOM_SHARE:
            grow = (MAX_ZOOM_SHARE - (right - left)) / 2
            left, right = left - grow, right + grow
            if left < 0:
                left, right = 0.0, MAX_ZOOM_SHARE
            elif right > 1:
                left, right = 1 - MAX_ZOOM_SHARE, 1.0
        if bottom - top < 0.05:
            return left, 0.0, right, 1.0
        return left, top, right, bottom
