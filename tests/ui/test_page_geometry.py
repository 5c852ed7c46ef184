"""The PDF side of the page view (``ui/pages/pdf_pages.py``): a page rendered at the width
asked, its text the one the corpus import stores, and the rectangles of a span where the
words are printed — checked against poppler's own word boxes (``pdftotext -bbox``, an
independent reader) and against the ink of the rendered page, rotated pages included."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rag_annotator.domain.layout import Layout
from rag_annotator.ui.pages.pdf_pages import PdfPages
from tests.pdf_documents import FOUR_PAGES, PAGES, pdf_text

ROTATED = PAGES / "habibi-rotated.pdf"


def opened(path: Path) -> tuple[PdfPages, str]:
    pages = PdfPages()
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    pages.open(sha, data)
    return pages, sha


def test_a_page_renders_at_the_width_asked_with_its_stored_text(qapp) -> None:  # type: ignore[no-untyped-def]
    pages, sha = opened(FOUR_PAGES)
    text, starts = pdf_text(FOUR_PAGES.read_bytes())
    layout = Layout(starts)
    try:
        for index in range(4):
            image, page_text = pages.render(sha, index, 800)
            start, end = layout.page_span(index + 1, len(text))
            assert page_text == text[start:end]
            assert image.width() == 800
            assert abs(image.height() - 800 * pages.aspect(sha, index)) <= 1.5
    finally:
        pages.close()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext missing")
def test_span_rectangles_are_where_poppler_says_the_words_are(qapp) -> None:  # type: ignore[no-untyped-def]
    pages, sha = opened(FOUR_PAGES)
    try:
        page_text = pages.page_text(sha, 1)
        left, top, right, bottom = pages.shown_box(sha, 1)
        width, height = 595.276, 841.89  # A4, as poppler reports it
        boxes = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                           r'yMax="([\d.]+)">blind</word>', subprocess.run(
                               ["pdftotext", "-f", "2", "-l", "2", "-bbox", str(FOUR_PAGES),
                                "-"], capture_output=True, text=True, check=True).stdout)
        starts = [m.start() for m in re.finditer(r"\bblind\b", page_text)]
        assert len(starts) == len(boxes) > 3
        found = pages.rects(sha, 1, [(s, s + len("blind")) for s in starts])
        for rects, box in zip(found, boxes):
            assert len(rects) == 1
            x0, y0, x1, y1 = rects[0]
            # back from the rendered part's fractions to points of the whole page
            points = (left * width + x0 * (right - left) * width,
                      top * height + y0 * (bottom - top) * height,
                      left * width + x1 * (right - left) * width,
                      top * height + y1 * (bottom - top) * height)
            expected = [float(v) for v in box]
            assert abs(points[0] - expected[0]) < 1.5 and abs(points[2] - expected[2]) < 1.5
            # PDFium's boxes hug the glyphs; poppler's span the font's ascent and descent
            assert expected[1] - 1.5 < points[1] < points[3] < expected[3] + 1.5
    finally:
        pages.close()


def ink(image, rect: tuple[float, float, float, float]) -> float:  # type: ignore[no-untyped-def]
    """Share of dark pixels inside a rectangle of page fractions."""
    x0, y0 = int(rect[0] * image.width()), int(rect[1] * image.height())
    x1, y1 = int(rect[2] * image.width()) + 1, int(rect[3] * image.height()) + 1
    dark = total = 0
    for y in range(max(y0, 0), min(y1, image.height())):
        for x in range(max(x0, 0), min(x1, image.width())):
            total += 1
            dark += image.pixelColor(x, y).lightness() < 140
    return dark / max(total, 1)


@pytest.mark.parametrize("path, index, word", [(FOUR_PAGES, 1, "blind"),
                                                (ROTATED, 0, "habibi"), (ROTATED, 1, "habibi"),
                                                (ROTATED, 2, "habibi"), (ROTATED, 3, "habibi")])
def test_span_rectangles_cover_the_ink_of_their_words_rotated_or_not(
        qapp, path: Path, index: int, word: str) -> None:  # type: ignore[no-untyped-def]
    pages, sha = opened(path)
    try:
        image, page_text = pages.render(sha, index, 900)
        start = page_text.index(word)
        (rects,) = pages.rects(sha, index, [(start, start + len(word))])
        assert rects
        assert all(ink(image, r) > 0.12 for r in rects), [ink(image, r) for r in rects]
        # the margin at the same height holds no ink: the boxes are not just big
        _x0, y0, _x1, y1 = rects[0]
        assert ink(image, (0.0, y0, 0.012, y1)) == 0
    finally:
        pages.close()


@pytest.mark.parametrize("path, index, word", [(FOUR_PAGES, 2, "alphabet"),
                                                (ROTATED, 0, "habibi"), (ROTATED, 2, "habibi")])
def test_the_character_under_a_point_is_the_one_drawn_there(
        qapp, path: Path, index: int, word: str) -> None:  # type: ignore[no-untyped-def]
    pages, sha = opened(path)
    try:
        page_text = pages.page_text(sha, index)
        start = page_text.index(word)
        (rects,) = pages.rects(sha, index, [(start, start + len(word))])
        x0, y0, x1, y1 = rects[0]
        found = pages.offset_at(sha, index, (x0 + x1) / 2, (y0 + y1) / 2)
        assert found is not None and start <= found < start + len(word)
        assert pages.offset_at(sha, index, 0.002, 0.002) is None  # the empty corner
    finally:
        pages.close()


def test_a_damaged_file_is_refused_by_pdfium(qapp) -> None:  # type: ignore[no-untyped-def]
    import pypdfium2 as pdfium

    pages = PdfPages()
    with pytest.raises(pdfium.PdfiumError):
        pages.open("0" * 64, b"%PDF-1.7\n" + b"\x00" * 200)
    pages.close()
