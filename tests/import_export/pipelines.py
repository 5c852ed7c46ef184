"""Chunks of a PDF made the way common RAG pipelines make them, each with the page(s) its
text came from: the peer the chunk locator is held against.

* **Loaders**: pypdf's ``extract_text()`` per page (what LangChain's ``PyPDFLoader`` gives,
  one document per page); pdfminer.six's text (what Unstructured's fast strategy and
  LangChain's ``PDFMinerLoader`` read), split into pages at its form feeds; and a Markdown
  rendering of the pages written here from pdfminer's layout (headings by font size, bold
  runs as ``**``, bullets as ``-``, words broken at a line end joined, running headers and
  footers dropped): what pymupdf4llm or docling do, without their network or licence.
* **Splitters**: a recursive character splitter written here after LangChain's
  ``RecursiveCharacterTextSplitter`` (separators ``\\n\\n``, ``\\n``, `` ``, ``''``; the
  separator kept at the start of the next piece; pieces merged up to ``chunk_size`` with
  ``chunk_overlap``; whitespace stripped), and a fixed-size window that cuts in the middle
  of words (a token or character splitter without separators).

pypdf and pdfminer chunks are split page by page, as ``PyPDFLoader`` + ``split_documents``
does (a chunk never leaves its page); the Markdown rendering is split as one text, so its
chunks may run over two pages.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Chunk:
    """A chunk's text, the pipeline that made it and the pages (1-based) it came from."""

    text: str
    pipeline: str
    pages: tuple[int, ...]


# -- splitters ---------------------------------------------------------------------------------
def _pieces(text: str, separator: str) -> list[str]:
    """``text`` cut before each ``separator`` (kept at the start of the next piece)."""
    if not separator:
        return list(text)
    parts = re.split(f"({re.escape(separator)})", text)
    pieces = [parts[0]] + [parts[i] + parts[i + 1] for i in range(1, len(parts) - 1, 2)]
    return [p for p in pieces if p]


def _merge(pieces: list[str], size: int, overlap: int) -> list[str]:
    """Consecutive pieces joined up to ``size`` characters; each new chunk starts with the
    last pieces of the one before, up to ``overlap`` characters."""
    chunks: list[str] = []
    current: list[str] = []
    total = 0
    for piece in pieces:
        if current and total + len(piece) > size:
            joined = "".join(current).strip()
            if joined:
                chunks.append(joined)
            while current and (total > overlap or total + len(piece) > size):
                total -= len(current.pop(0))
        current.append(piece)
        total += len(piece)
    joined = "".join(current).strip()
    if joined:
        chunks.append(joined)
    return chunks


def recursive_split(text: str, size: int, overlap: int,
                    separators: tuple[str, ...] = ("\n\n", "\n", " ", "")) -> list[str]:
    """LangChain's recursive character splitting (see the module docstring)."""
    separator, rest = separators[-1], ()
    for i, candidate in enumerate(separators):
        if candidate == "" or candidate in text:
            separator, rest = candidate, separators[i + 1:]
            break
    out: list[str] = []
    good: list[str] = []
    for piece in _pieces(text, separator):
        if len(piece) < size:
            good.append(piece)
            continue
        if good:
            out.extend(_merge(good, size, overlap))
            good = []
        out.extend(recursive_split(piece, size, overlap, rest) if rest else [piece])
    if good:
        out.extend(_merge(good, size, overlap))
    return out


def window_split(text: str, size: int, overlap: int) -> list[str]:
    """Fixed windows of ``size`` characters every ``size - overlap``: cuts words in two."""
    step = size - overlap
    return [text[i:i + size] for i in range(0, max(1, len(text) - overlap), step)
            if text[i:i + size].strip()]


def starts_of(text: str, chunks: list[str], overlap: int) -> Iterator[int]:
    """Where each chunk starts in ``text`` (LangChain's ``add_start_index``: searched from
    just before the previous chunk's end)."""
    index, previous = -1, 0
    for chunk in chunks:
        index = text.find(chunk, max(0, index + previous - overlap - 1))
        assert index >= 0, chunk[:60]
        previous = len(chunk)
        yield index


Splitter = Callable[[str], list[str]]

#: (name, splitter, overlap) of each way of cutting: 500 to 1,000 characters with overlap.
SPLITTERS: tuple[tuple[str, Splitter, int], ...] = (
    ("recursive-1000", lambda t: recursive_split(t, 1000, 200), 200),
    ("recursive-500", lambda t: recursive_split(t, 500, 50), 50),
    ("window-800", lambda t: window_split(t, 800, 100), 100),
)


# -- loaders -----------------------------------------------------------------------------------
def pypdf_pages(path: Path) -> list[str]:
    """pypdf's text of each page, as ``PyPDFLoader`` gives it."""
    import pypdf

    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


def pdfminer_pages(path: Path) -> list[str]:
    """pdfminer.six's text of each page (its form feed ends a page)."""
    from pdfminer.high_level import extract_text

    pages = extract_text(str(path)).split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def markdown_pages(path: Path) -> list[str]:
    """A Markdown rendering of each page from pdfminer's layout (module docstring)."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar, LTTextContainer, LTTextLine

    pages: list[list[tuple[float, str, bool, float]]] = []  # (size, text, bold, top) lines
    for layout in extract_pages(str(path)):
        lines = []
        for box in layout:
            if not isinstance(box, LTTextContainer):
                continue
            for line in box:
                if not isinstance(line, LTTextLine) or not line.get_text().strip():
                    continue
                chars = [c for c in line if isinstance(c, LTChar)]
                size = statistics.median(c.size for c in chars) if chars else 0.0
                bold = bool(chars) and all("bold" in c.fontname.lower() for c in chars)
                lines.append((size, line.get_text().rstrip("\n"), bold, line.y1))
            lines.append((0.0, "", False, 0.0))  # a box ends a paragraph
        pages.append(lines)
    body = statistics.median([s for page in pages for s, t, _b, _y in page if t] or [10.0])
    repeated = _running_lines(pages)
    return [_page_markdown(page, body, repeated) for page in pages]


def _running_lines(pages: list[list[tuple[float, str, bool, float]]]) -> set[str]:
    """Lines that come back on at least half the pages (digits ignored): running headers
    and footers, which Markdown renderings drop."""
    def shape(text: str) -> str:
        return re.sub(r"\d+", "#", text.strip())

    seen = Counter(shape(t) for page in pages for t in {t for _s, t, _b, _y in page if t})
    return {s for s, n in seen.items() if n >= max(2, len(pages) // 2)}


def _page_markdown(lines: list[tuple[float, str, bool, float]], body: float,
                   repeated: set[str]) -> str:
    paragraphs: list[str] = []
    current = ""
    for size, text, bold, _top in lines:
        if not text or re.sub(r"\d+", "#", text.strip()) in repeated:
            if current:
                paragraphs.append(current)
            current = ""
            continue
        text = text.strip()
        if size > body * 1.15:
            if current:
                paragraphs.append(current)
            paragraphs.append(("# " if size > body * 1.6 else "## ") + text)
            current = ""
            continue
        if text.startswith(("•", "◦", "▪")):
            text = "- " + text.lstrip("•◦▪ ")
            if current:
                paragraphs.append(current)
                current = ""
        if bold:
            text = f"**{text}**"
        if current.endswith("-") and text[:1].islower():
            current = current[:-1] + text  # a word broken at the line end
        else:
            current = f"{current} {text}" if current else text
    if current:
        paragraphs.append(current)
    return "\n\n".join(paragraphs)


# -- chunks with their pages -------------------------------------------------------------------
def page_chunks(pipeline: str, pages: list[str]) -> Iterator[Chunk]:
    """Each page split on its own, as ``PyPDFLoader`` + ``split_documents`` does."""
    for name, split, _overlap in SPLITTERS:
        for number, text in enumerate(pages, start=1):
            for chunk in split(text):
                yield Chunk(chunk, f"{pipeline}/{name}", (number,))


def document_chunks(pipeline: str, pages: list[str]) -> Iterator[Chunk]:
    """The pages joined and split as one text: a chunk's pages are those its text covers."""
    starts, parts, offset = [], [], 0
    for page in pages:
        starts.append(offset)
        parts.append(page)
        offset += len(page) + 2
    text = "\n\n".join(parts)
    for name, split, overlap in SPLITTERS:
        chunks = split(text)
        for chunk, start in zip(chunks, starts_of(text, chunks, overlap)):
            first = max(i for i, s in enumerate(starts) if s <= start) + 1
            last = max(i for i, s in enumerate(starts) if s < start + len(chunk)) + 1
            yield Chunk(chunk, f"{pipeline}/{name}", tuple(range(first, last + 1)))


def all_chunks(path: Path) -> list[Chunk]:
    """The chunks of every pipeline for one PDF."""
    return [*page_chunks("pypdf", pypdf_pages(path)),
            *page_chunks("pdfminer", pdfminer_pages(path)),
            *document_chunks("markdown", markdown_pages(path))]
