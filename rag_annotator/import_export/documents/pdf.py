"""PDF documents, read with pypdfium2 (PDFium, the PDF engine of Chrome).

PDFium was chosen because one library then gives everything the app needs from a PDF: the
text of each page with each character's box (what ``pdf_layer`` maps stored offsets back to),
the outline, the metadata and the rendering of the page the expert judges on, all fast and
without Python-level parsing of the file.

* Text: each page's stored text is ``pdf_layer.normalise_page_text`` of PDFium's own
  extraction, the pages joined by the layout's page separator; page ``n`` starts at
  ``layout.pages[n - 1]``.
* Headings: the PDF's outline (bookmarks), when it has one: an entry's level is its depth,
  its place the first occurrence of its title on the page it points to (spaces and case
  aside), else the top of that page.  A PDF without an outline has no headings: guessing
  them from font sizes would invent structure the author did not declare; its pages are its
  structure.
* Properties: Title, Author, Subject, Keywords, CreationDate, ModDate of the document
  information dictionary (dates as ISO 8601).
* The file's bytes are kept: the page is shown from them.

Refused, each with one line: a file PDFium cannot open (damaged, not a PDF), one that needs a
password, one whose pages hold no text at all (a scan: it needs OCR first), more pages than
:data:`MAX_PAGES`, a page PDFium cannot load (a page tree that loops), more text than a
document may hold.  Pages are read one at a time and closed, so memory follows the text, not
the page count; every call into PDFium holds ``pdf_layer.PDFIUM_LOCK``, a page at a time
(PDFium is not thread-safe, and the viewer renders pages while an import reads).  Nothing in
the file is ever run or followed: PDFium is built without its JavaScript engine and no form
environment is set up, so scripts are inert (the report says when a file has some), and links
are never read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rag_annotator.domain.layout import MAX_HEADING_LEVEL, DocumentKind, Heading, Layout, join_pages
from rag_annotator.import_export.documents.pdf_layer import PDFIUM_LOCK, normalise_page_text
from rag_annotator.import_export.documents.reading import (
    MAX_TEXT_CHARS,
    ReadDocument,
    clean_title,
    poll,
    properties,
)
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.messages import Message, Plural

#: Most pages a PDF may have (a bomb of empty pages is refused before any is read).
MAX_PAGES = 20_000
#: Most outline entries read (an outline is a table of contents, not a second document).
MAX_OUTLINE = 5_000
#: PDFium's error code for a document that needs a password.
_PASSWORD_ERROR = 4


def read_pdf(path: Path, data: bytes, cancel: Callable[[], bool] | None = None
             ) -> ReadDocument:
    """Read a PDF's pages, outline and properties (module docstring)."""
    import pypdfium2 as pdfium

    try:
        with PDFIUM_LOCK:
            pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == _PASSWORD_ERROR:
            raise ImportRejected(path, None, "encrypted: the PDF opens only with a password; "
                                             "save a copy without the password and import "
                                             "that.") from None
        raise ImportRejected(path, None, "damaged or not a PDF ({error}).",
                             error=_pdfium_reason(error)) from None
    try:
        with PDFIUM_LOCK:
            count = len(pdf)
        if count == 0:
            raise ImportRejected(path, None, "damaged: the PDF has no page.")
        if count > MAX_PAGES:
            raise ImportRejected(path, None, "the PDF has {n:,} pages (the limit is {limit:,}); "
                                             "split it.", n=count, limit=MAX_PAGES)
        texts = _page_texts(path, pdf, count, cancel)
        blank = [n for n, t in enumerate(texts, start=1) if not t.strip()]
        if len(blank) == count:
            raise ImportRejected(path, None, "no text on its pages (a scan?) — run OCR on it "
                                             "first, then import the PDF it makes.")
        text, starts = join_pages(texts)
        with PDFIUM_LOCK:
            headings = _outline(pdf, texts, starts)
            info = pdf.get_metadata_dict(skip_empty=True)
            notes = _notes(pdf, blank)
    finally:
        with PDFIUM_LOCK:
            pdf.close()
    return ReadDocument(
        DocumentKind.PDF, text, Layout(starts, tuple(headings)),
        title=clean_title(info.get("Title", "")),
        properties=properties(author=info.get("Author"), subject=info.get("Subject"),
                              keywords=info.get("Keywords"),
                              created=pdf_date(info.get("CreationDate", "")),
                              modified=pdf_date(info.get("ModDate", ""))),
        keep=data, notes=notes)


def _pdfium_reason(error: Exception) -> str:
    """PDFium's words for a load failure ("Data format error")."""
    found = re.search(r"PDFium: ([^)]*)", str(error))
    return found.group(1) if found else str(error)


def _page_texts(path: Path, pdf: Any, count: int, cancel: Callable[[], bool] | None
                ) -> list[str]:
    """Every page's stored text, a page at a time (each page and text page closed at once)."""
    import pypdfium2 as pdfium

    texts: list[str] = []
    total = 0
    for index in range(count):
        if index % 50 == 0:
            poll(cancel)
        with PDFIUM_LOCK:  # one page at a time: a page render never waits for the document
            try:
                page = pdf[index]
            except pdfium.PdfiumError:
                raise ImportRejected(path, None, "damaged: page {page} cannot be read (a "
                                                 "broken page tree?).", page=index + 1) from None
            try:
                textpage = page.get_textpage()
                try:
                    raw = textpage.get_text_range()
                finally:
                    textpage.close()
            finally:
                page.close()
        text = normalise_page_text(raw)
        total += len(text)
        if total > MAX_TEXT_CHARS:
            raise ImportRejected(path, None, "its text is too long (over {limit:,} characters "
                                             "by page {page}); split the file.",
                                 limit=MAX_TEXT_CHARS, page=index + 1)
        texts.append(text)
    return texts


def _outline(pdf: Any, texts: list[str], starts: tuple[int, ...]) -> list[Heading]:
    """The outline's entries as headings, in text order (module docstring)."""
    import pypdfium2 as pdfium

    headings: list[Heading] = []
    last_on_page: dict[int, int] = {}
    try:
        for i, bookmark in enumerate(pdf.get_toc(max_depth=MAX_HEADING_LEVEL)):
            if i >= MAX_OUTLINE:
                break
            dest = bookmark.get_dest()
            index = dest.get_index() if dest is not None else None
            title = clean_title(bookmark.get_title() or "")
            if index is None or not 0 <= index < len(texts) or not title:
                continue
            within = _find(texts[index], title, last_on_page.get(index, 0))
            last_on_page[index] = within
            headings.append(Heading(starts[index] + within,
                                    min(int(bookmark.level) + 1, MAX_HEADING_LEVEL), title))
    except (pdfium.PdfiumError, ValueError, OSError):
        pass  # a damaged outline costs the headings read so far, not the document
    return sorted(headings, key=lambda h: h.start)


def _find(page_text: str, title: str, after: int) -> int:
    """Where ``title`` first appears in a page's text at or after ``after`` (spaces, line
    breaks and case aside); ``after`` when it does not."""
    words = title.split()
    if not words:
        return after
    pattern = re.compile(r"\s*".join(re.escape(word) for word in words), re.IGNORECASE)
    found = pattern.search(page_text, after)
    return found.start() if found else after


def _notes(pdf: Any, blank: list[int]) -> list[Message]:
    """What the report says about a PDF it imported: pages without text, scripts not run."""
    import pypdfium2.raw as pdfium_c

    notes: list[Message] = []
    if blank:
        shown = ", ".join(str(n) for n in blank[:10]) + (", …" if len(blank) > 10 else "")
        notes.append(Plural("{n} page without text ({pages}): a scanned page needs OCR",
                            "{n} pages without text ({pages}): scanned pages need OCR",
                            len(blank), pages=shown))
    scripts = pdfium_c.FPDFDoc_GetJavaScriptActionCount(pdf.raw)
    if scripts > 0:
        notes.append(Message("it holds JavaScript, which was not run"))
    return notes


_DATE = re.compile(r"^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?"
                   r"(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?")


def pdf_date(value: str) -> str:
    """A PDF date (``D:20230620230216+02'00'``) as ISO 8601 (``2023-06-20T23:02:16+02:00``);
    '' when it is not one."""
    found = _DATE.match(value.strip())
    if not found:
        return ""
    year, month, day, hour, minute, second, zulu, sign, tz_h, tz_m = found.groups()
    text = f"{year}-{month or '01'}-{day or '01'}"
    if hour is not None:
        text += f"T{hour}:{minute or '00'}:{second or '00'}"
        if zulu:
            text += "Z"
        elif sign:
            text += f"{sign}{tz_h}:{tz_m or '00'}"
    return text
