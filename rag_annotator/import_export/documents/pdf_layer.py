"""A PDF page's text as the app stores it, and the way back from that text to the page.

The stored text of a PDF page is exactly what PDFium extracts for it (``get_text_range``:
what the tests compare with), with one normalisation: line ends ``\\r\\n`` (and a lone
``\\r``) become ``\\n``, and control characters PDFium emits for generated or unknown glyphs
become spaces, so offsets are plain text offsets.  Because the normalisation is a function of
PDFium's text alone, the page's text can be extracted again at display time and an offset of
the stored text mapped to PDFium's *text index*, then to its *char index* (the two differ
where PDFium inserted or dropped characters), then to rectangles on the page.  Nothing but
the page's own text is needed to go back: no per-character table is stored.
"""

from __future__ import annotations

import bisect
import re
import threading
from dataclasses import dataclass
from typing import Any

#: The control characters that become spaces once line ends are ``\n``: every one below 32
#: but ``\n`` and ``\t`` (matched in C: a page's text is thousands of characters).
_SPACED_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f]")
_CRLF = re.compile("\r\n")

#: PDFium is not thread-safe: two threads calling into it at once (an import reading a PDF
#: on a worker thread while a page is rendered for the viewer) can crash the process.  Every
#: caller holds this lock around its PDFium calls, for one page at a time rather than a whole
#: document, so neither waits long for the other.
PDFIUM_LOCK = threading.RLock()


def normalise_page_text(raw: str) -> str:
    """The stored text of a page from PDFium's text of it."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    return _SPACED_CONTROLS.sub(" ", text)


@dataclass(frozen=True)
class PageText:
    """A page's PDFium text and the map from stored offsets back to PDFium's text indexes."""

    raw: str
    text: str
    #: Offsets (in ``text``) after which one ``\\r`` of a ``\\r\\n`` was dropped, ascending.
    dropped_after: tuple[int, ...]

    @classmethod
    def from_raw(cls, raw: str) -> PageText:
        """Build the map while normalising (the same rules as :func:`normalise_page_text`):
        the k-th ``\\r\\n`` at PDFium's index ``i`` drops its ``\\r`` after stored offset
        ``i - k`` (the k ``\\r`` dropped before it)."""
        dropped = tuple(m.start() - k for k, m in enumerate(_CRLF.finditer(raw)))
        return cls(raw, normalise_page_text(raw), dropped)

    def text_index(self, offset: int) -> int:
        """PDFium's text index of the character at ``offset`` of the stored page text."""
        offset = max(0, min(offset, len(self.text)))
        return offset + bisect.bisect_right(self.dropped_after, offset)

    def offset(self, text_index: int) -> int:
        """The stored offset of PDFium's text index (inverse of :meth:`text_index`)."""
        before = bisect.bisect_left([d + k for k, d in enumerate(self.dropped_after)],
                                    text_index)
        return max(0, min(len(self.text), text_index - before))


def page_text(textpage: Any) -> PageText:
    """The stored text of a pypdfium2 ``PdfTextPage`` with its map."""
    return PageText.from_raw(textpage.get_text_range())


def span_rects(textpage: Any, page: PageText, start: int, end: int
               ) -> list[tuple[float, float, float, float]]:
    """Rectangles ``(left, bottom, right, top)`` in PDF points covering the stored page
    text's ``[start, end)``: one per run of characters on a line, as PDFium groups them."""
    import pypdfium2.raw as pdfium_c

    if end <= start:
        return []
    first = pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage.raw, page.text_index(start))
    last = pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage.raw,
                                                       page.text_index(end - 1))
    if first < 0 or last < first:
        return []
    count = textpage.count_rects(first, last - first + 1)
    return [tuple(textpage.get_rect(i)) for i in range(count)]


def offset_at(textpage: Any, page: PageText, x: float, y: float, tolerance: float = 4.0
              ) -> int | None:
    """The stored offset of the character at ``(x, y)`` in PDF points (None when there is
    no character within ``tolerance`` points)."""
    import pypdfium2.raw as pdfium_c

    index = textpage.get_index(x, y, tolerance, tolerance)
    if index is None or index < 0:
        return None
    text_index = pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage.raw, index)
    if text_index < 0:
        return None
    return page.offset(text_index)
