"""What every reader gives (:class:`ReadDocument`), how a kind is told from a file name, and
the one entry point :func:`read_document`.

A reader turns the bytes of one file into the document's text plus its structure: page
starts (PDF pages, slides), headings as ``(offset, level, title)``, the file's own title
and other properties, and, for the kinds the app shows as pages (PDF), the bytes to keep.
A file it cannot read is refused with :class:`~rag_annotator.import_export.files.
ImportRejected` naming the file and saying what to do; the folder import turns that into a
"not imported" line for the one file and goes on with the others.

Text is assembled by :class:`TextBuilder` the same way for every kind that has no pages of
its own: blocks (paragraphs, list items, a table) separated by a blank line, a table's rows
one per line with a tab between cells, so the text reads as a plain-text rendering of the
document and chunks other tools made from it can be found in it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rag_annotator.domain.layout import (
    MAX_HEADING_LEVEL,
    PAGE_SEPARATOR,
    DocumentKind,
    Heading,
    Layout,
    check_layout,
)
from rag_annotator.import_export.files import Cancelled, ImportRejected
from rag_annotator.messages import Message

#: Largest file a reader opens (on disk).  A PDF of a few thousand pages with images is
#: well under it; past it the import names the limit and the file is split by the user.
MAX_DOCUMENT_BYTES = 256 * 1024**2

#: Most characters one document's text may have (a 2,000-page report has about 6 million).
MAX_TEXT_CHARS = 64 * 1024**2

#: The kind each file name suffix is read as.
SUFFIXES: dict[str, DocumentKind] = {
    ".pdf": DocumentKind.PDF, ".docx": DocumentKind.DOCX, ".odt": DocumentKind.ODT,
    ".html": DocumentKind.HTML, ".htm": DocumentKind.HTML, ".xhtml": DocumentKind.HTML,
    ".pptx": DocumentKind.PPTX, ".rtf": DocumentKind.RTF, ".md": DocumentKind.MARKDOWN,
    ".markdown": DocumentKind.MARKDOWN, ".txt": DocumentKind.TEXT,
}

#: The suffixes as the messages list them.
SUFFIX_LIST = ", ".join(s for s in SUFFIXES if s not in (".htm", ".xhtml", ".markdown"))

#: Longest heading title kept (a "heading" longer than this is a paragraph styled as one).
MAX_TITLE_CHARS = 300


@dataclass
class ReadDocument:
    """One file read: its text, structure and properties, ready to become a document row."""

    kind: DocumentKind
    text: str
    layout: Layout = field(default_factory=Layout)
    #: The file's own title ('' when it has none).
    title: str = ""
    #: Other properties the file states (author, created, modified, subject, keywords,
    #: language), non-empty ones only; dates as ISO 8601.
    properties: dict[str, str] = field(default_factory=dict)
    #: The original bytes to keep (PDF: the page is shown from them), else None.
    keep: bytes | None = None
    #: What the reader noticed and the import report says (pages without text, scripts).
    notes: list[Message] = field(default_factory=list)
    #: The encoding a text file was read in when it was not UTF-8 ('' otherwise).
    decoded_as: str = ""


def kind_of(path: Path) -> DocumentKind | None:
    """The kind a file is read as, from its name (None: not a document this app reads)."""
    return SUFFIXES.get(path.suffix.lower())


def read_document(path: Path, data: bytes | None = None,
                  cancel: Callable[[], bool] | None = None) -> ReadDocument:
    """Read one file (``data``: its bytes when already read).  ImportRejected when it cannot
    be: unknown kind, too large, damaged, encrypted, unsafe, without text."""
    kind = kind_of(path)
    if kind is None:
        raise ImportRejected(path, None, "not a document this import reads ({suffix}); it "
                                         "reads {suffixes}.",
                             suffix=path.suffix or path.name, suffixes=SUFFIX_LIST)
    if data is None:
        data = read_bytes(path)
    elif len(data) > MAX_DOCUMENT_BYTES:
        raise _too_large(path, len(data))
    if kind is DocumentKind.PDF:
        from rag_annotator.import_export.documents.pdf import read_pdf

        read = read_pdf(path, data, cancel)
    elif kind is DocumentKind.DOCX:
        from rag_annotator.import_export.documents.word import read_docx

        read = read_docx(path, data)
    elif kind is DocumentKind.ODT:
        from rag_annotator.import_export.documents.opendocument import read_odt

        read = read_odt(path, data)
    elif kind is DocumentKind.PPTX:
        from rag_annotator.import_export.documents.slides import read_pptx

        read = read_pptx(path, data)
    elif kind is DocumentKind.HTML:
        from rag_annotator.import_export.documents.web_page import read_html

        read = read_html(path, data)
    elif kind is DocumentKind.RTF:
        from rag_annotator.import_export.documents.rtf import read_rtf

        read = read_rtf(path, data)
    else:
        from rag_annotator.import_export.documents.plain import read_plain

        read = read_plain(path, data, kind)
    if not read.text.strip():
        raise ImportRejected(path, None, "no text in it; nothing to import.")
    if len(read.text) > MAX_TEXT_CHARS:
        raise ImportRejected(path, None, "its text is too long ({n:,} characters; the limit is "
                                         "{limit:,}); split the file.",
                             n=len(read.text), limit=MAX_TEXT_CHARS)
    # what a reader made is checked like a layout from a file: a bug there never reaches the
    # gold set as offsets past the text
    check_layout(list(read.layout.pages) or None,
                 [[h.start, h.level, h.title] for h in read.layout.headings] or None,
                 len(read.text))
    return read


def read_bytes(path: Path) -> bytes:
    """A document file's bytes, refused past :data:`MAX_DOCUMENT_BYTES`."""
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            raise _too_large(path, size)
        return path.read_bytes()
    except FileNotFoundError:
        raise ImportRejected(path, None, "no such file; check the path.") from None
    except OSError as error:
        raise ImportRejected(path, None, "cannot read this file ({error}).",
                             error=error.strerror or error) from None


def _too_large(path: Path, size: int) -> ImportRejected:
    return ImportRejected(path, None, "the file is too large ({size:,} bytes; the limit is "
                                      "{limit:,}); split it.", size=size,
                          limit=MAX_DOCUMENT_BYTES)


def poll(cancel: Callable[[], bool] | None) -> None:
    """Stop a long read when the user cancelled (nothing is stored)."""
    if cancel is not None and cancel():
        raise Cancelled()


def clean_title(text: str) -> str:
    """A title or heading on one line, spaces collapsed, cut to :data:`MAX_TITLE_CHARS`."""
    title = " ".join(text.replace("\x00", " ").split())
    return title if len(title) <= MAX_TITLE_CHARS else title[:MAX_TITLE_CHARS - 1] + "…"


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def plain(text: str) -> str:
    """Text as stored: line ends as ``\\n``, other control characters (a vertical tab for a
    soft line break, a form feed) as a line break or a space."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\v", "\n")
    return _CONTROL.sub(" ", text)


class TextBuilder:
    """One document's text made of blocks, with the offsets of its headings."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self._headings: list[Heading] = []

    @property
    def text(self) -> str:
        """The text so far."""
        return "".join(self._parts)

    @property
    def headings(self) -> tuple[Heading, ...]:
        """The headings so far, in text order."""
        return tuple(self._headings)

    def block(self, text: str) -> int | None:
        """Add a block (a paragraph, a list item, a table); blank ones are left out.  Its
        start offset, or None when left out."""
        text = plain(text).strip("\n")
        if not text.strip():
            return None
        if self._length:
            self._parts.append(PAGE_SEPARATOR)
            self._length += len(PAGE_SEPARATOR)
        start = self._length
        self._parts.append(text)
        self._length += len(text)
        return start

    def heading(self, level: int, text: str) -> None:
        """Add a heading block at ``level`` (1 the outermost; deeper than
        :data:`MAX_HEADING_LEVEL` is kept at that level)."""
        start = self.block(text)
        title = clean_title(text)
        if start is not None and title:
            self._headings.append(Heading(start, max(1, min(level, MAX_HEADING_LEVEL)), title))

    def table(self, rows: list[list[str]]) -> None:
        """Add a table as one block: a line per row, cells separated by a tab (a cell's own
        line breaks become spaces so a row stays one line)."""
        lines = ["\t".join(" ".join(plain(cell).split()) for cell in row) for row in rows]
        self.block("\n".join(line for line in lines if line.strip()))

    def layout(self) -> Layout:
        """The headings as a layout (no pages)."""
        return Layout((), self.headings)


def pages_layout(pages: list[TextBuilder]) -> tuple[str, Layout]:
    """The text of paged content (slides) and its layout: the pages' texts joined by
    :data:`PAGE_SEPARATOR`, each page's headings moved to its place in the whole."""
    from rag_annotator.domain.layout import join_pages

    text, starts = join_pages([page.text for page in pages])
    headings = tuple(Heading(start + h.start, h.level, h.title)
                     for start, page in zip(starts, pages) for h in page.headings)
    return text, Layout(starts, headings)


def iso_date(value: object) -> str:
    """A property date as ISO 8601 text ('' when absent)."""
    from datetime import date, datetime

    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return str(value).strip() if value else ""


def properties(**values: object) -> dict[str, str]:
    """The non-empty properties, as one-line texts."""
    out: dict[str, str] = {}
    for name, value in values.items():
        text = iso_date(value) if name in ("created", "modified") else clean_title(
            str(value or ""))
        if text:
            out[name] = text
    return out
