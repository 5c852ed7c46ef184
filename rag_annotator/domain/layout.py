"""Where a document's text falls on its pages and under its headings.

A document read from a PDF, a slide deck or a Word file is one text, but the expert knows it
by its pages ("page 12") and its headings ("Titre II > Article 12").  The layout keeps both
as character offsets into that one text, so a span stored as offsets (an evidence span, an
expected source, a retrieved passage) can always say its page and its section, whichever
reader made the text.

* ``pages``: the start offset of each page (or slide), ascending, the first at 0.  Page ``n``
  (1-based) covers ``[pages[n-1], pages[n])``; the last one runs to the end of the text.
  The readers put :data:`PAGE_SEPARATOR` between two pages' texts: it belongs to the end of
  the earlier page.
* ``headings``: ``(start offset, level, title)`` in text order, level 1 the outermost.  The
  heading path of an offset is the last heading of each level at or before it, a deeper
  level forgotten when a shallower one starts.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise
from typing import Any

from rag_annotator.errors import InvalidValue

#: What the readers put between the texts of two pages (or slides).
PAGE_SEPARATOR = "\n\n"

#: Deepest heading level kept (HTML has six, Word nine; deeper ones are body text).
MAX_HEADING_LEVEL = 9


class DocumentKind(str, Enum):
    """The reader that made a document's text; '' for text that came in a table or a line."""

    NONE = ""
    TEXT = "text"
    MARKDOWN = "markdown"
    PDF = "pdf"
    DOCX = "docx"
    ODT = "odt"
    HTML = "html"
    PPTX = "pptx"
    RTF = "rtf"


@dataclass(frozen=True)
class Heading:
    """A heading of a document: where its section starts, how deep, and its words."""

    start: int
    level: int
    title: str


@dataclass(frozen=True)
class Layout:
    """A document's pages and headings as offsets into its text (both may be empty)."""

    pages: tuple[int, ...] = ()
    headings: tuple[Heading, ...] = field(default=())

    @property
    def page_count(self) -> int:
        """How many pages (or slides) the document has; 0 when it is not paged."""
        return len(self.pages)

    def page_of(self, offset: int) -> int | None:
        """The 1-based page an offset of the text falls on (None when not paged)."""
        if not self.pages:
            return None
        return max(1, bisect.bisect_right(self.pages, max(0, offset)))

    def page_span(self, page: int, text_length: int) -> tuple[int, int]:
        """``[start, end)`` of a 1-based page in the text, its trailing separator excluded."""
        if not 1 <= page <= len(self.pages):
            raise IndexError(page)
        start = self.pages[page - 1]
        end = self.pages[page] if page < len(self.pages) else text_length
        if page < len(self.pages) and end - start >= len(PAGE_SEPARATOR):
            end -= len(PAGE_SEPARATOR)
        return start, max(start, end)

    def pages_of(self, start: int, end: int) -> tuple[int, int] | None:
        """First and last page a span ``[start, end)`` covers (None when not paged)."""
        first = self.page_of(start)
        if first is None:
            return None
        last = self.page_of(max(start, end - 1))
        return first, last if last is not None else first

    def heading_path(self, offset: int) -> list[str]:
        """The titles of the sections an offset is in, outermost first."""
        path: dict[int, str] = {}
        starts = [h.start for h in self.headings]
        for heading in self.headings[:bisect.bisect_right(starts, offset)]:
            path = {lvl: t for lvl, t in path.items() if lvl < heading.level}
            path[heading.level] = heading.title
        return [path[level] for level in sorted(path)]

    def columns(self) -> dict[str, str | None]:
        """The ``pages`` and ``headings`` column values (JSON, NULL when empty)."""
        return {
            "pages": json.dumps(list(self.pages)) if self.pages else None,
            "headings": (json.dumps([[h.start, h.level, h.title] for h in self.headings],
                                    ensure_ascii=False) if self.headings else None),
        }

    @classmethod
    def from_columns(cls, pages: str | None, headings: str | None) -> Layout:
        """Read the two columns back (stored values are trusted only as far as
        :func:`check_layout` allows: a damaged value gives an empty layout)."""
        try:
            return check_layout(json.loads(pages) if pages else None,
                                json.loads(headings) if headings else None, None)
        except (ValueError, InvalidValue):
            return cls()


def check_layout(pages: Any, headings: Any, text_length: int | None) -> Layout:
    """Validate a layout read from a file (native JSON, a colleague's gold set) or made by a
    reader: offsets are whole numbers within the text, pages ascending from 0, headings in
    text order with a level from 1 to :data:`MAX_HEADING_LEVEL` and a title."""
    limit = text_length if text_length is not None else None
    page_list: list[int] = []
    if pages is not None:
        if not isinstance(pages, list) or not all(_offset(p) for p in pages):
            raise InvalidValue("pages: expected a list of character offsets.")
        if pages and (pages[0] != 0 or any(b <= a for a, b in pairwise(pages))):
            raise InvalidValue("pages: offsets must start at 0 and increase.")
        if limit is not None and pages and pages[-1] > limit:
            raise InvalidValue("pages: offset {offset} is past the end of the text "
                               "({length} characters).", offset=pages[-1], length=limit)
        page_list = list(pages)
    heading_list: list[Heading] = []
    if headings is not None:
        if not isinstance(headings, list):
            raise InvalidValue("headings: expected a list of [offset, level, title].")
        previous = 0
        for item in headings:
            if (not isinstance(item, (list, tuple)) or len(item) != 3 or not _offset(item[0])
                    or not _offset(item[1]) or not isinstance(item[2], str)):
                raise InvalidValue("headings: expected a list of [offset, level, title].")
            start, level, title = item
            if not 1 <= level <= MAX_HEADING_LEVEL or start < previous or (
                    limit is not None and start > limit):
                raise InvalidValue("headings: heading '{title}' is out of order or out of "
                                   "the text.", title=title[:80])
            previous = start
            heading_list.append(Heading(start, level, title))
    return Layout(tuple(page_list), tuple(heading_list))


def _offset(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def join_pages(page_texts: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    """One text from the pages' texts, :data:`PAGE_SEPARATOR` between them, and each page's
    start offset."""
    starts: list[int] = []
    parts: list[str] = []
    offset = 0
    for i, page in enumerate(page_texts):
        if i:
            parts.append(PAGE_SEPARATOR)
            offset += len(PAGE_SEPARATOR)
        starts.append(offset)
        parts.append(page)
        offset += len(page)
    return "".join(parts), tuple(starts)
