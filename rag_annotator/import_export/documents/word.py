"""Word documents (.docx), read with python-docx.

python-docx is the maintained reader of the Office Open XML word-processing format in
Python; it gives the body's paragraphs and tables in their order, each paragraph's style and
the document's core properties, which is exactly what the text and its headings need.

* Text: the body's paragraphs and tables in document order (a table: a line per row, a tab
  between cells, a merged cell once); headers, footers, comments and footnotes are page
  furniture, left out.
* Headings: a paragraph whose outline level (its own, else its style's or a style it is based
  on) is 1 to 9 is a heading at that level, which is how Word itself builds its navigation
  pane, whatever the style is called in the author's language; a style named like
  "Heading 2" / "Titre 2" without an outline level counts too.
* Properties: the core properties' title (else a paragraph in the "Title" style), author,
  subject, keywords, created, modified.

The package passes :func:`~rag_annotator.import_export.documents.package.check_package`
(zip limits, no DTD in any part) before python-docx opens it.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from rag_annotator.domain.layout import DocumentKind
from rag_annotator.import_export.documents.package import check_package
from rag_annotator.import_export.documents.reading import (
    ReadDocument,
    TextBuilder,
    clean_title,
    properties,
)
from rag_annotator.import_export.files import ImportRejected

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: Style names that mean a heading in the languages of the app's users.
_HEADING_NAME = re.compile(r"^(?:heading|titre|überschrift|titolo|título)\s*(\d)$", re.I)


def read_docx(path: Path, data: bytes) -> ReadDocument:
    """Read a .docx (module docstring)."""
    check_package(path, data).close()
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as error:  # python-docx raises many kinds on a damaged package
        raise ImportRejected(path, None, "damaged or not a Word document ({error}).",
                             error=type(error).__name__) from None
    builder = TextBuilder()
    styled_title = ""
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            level = heading_level(item)
            if level is not None:
                builder.heading(level, item.text)
            else:
                builder.block(item.text)
                if not styled_title and _style_name(item) == "title":
                    styled_title = clean_title(item.text)
        elif isinstance(item, Table):
            builder.table(_rows(item))
    core = document.core_properties
    return ReadDocument(
        DocumentKind.DOCX, builder.text, builder.layout(),
        title=clean_title(core.title or "") or styled_title,
        properties=properties(author=core.author, subject=core.subject,
                              keywords=core.keywords, created=core.created,
                              modified=core.modified))


def heading_level(paragraph: Any) -> int | None:
    """1–9 for a heading paragraph (outline level, else a heading style's name), else None."""
    own = paragraph._p.find(f"{_W}pPr/{_W}outlineLvl")
    level = _outline_level(own)
    style = paragraph.style
    seen = 0
    while level is None and style is not None and seen < 20:  # based-on chains are short
        level = _outline_level(style.element.find(f"{_W}pPr/{_W}outlineLvl"))
        if level is None:
            named = _HEADING_NAME.match((style.name or "").strip())
            if named and int(named.group(1)) >= 1:
                level = int(named.group(1))
        style = style.base_style
        seen += 1
    return level


def _outline_level(element: Any) -> int | None:
    """Word's 0-based outline level as a 1-based heading level (9: body text, None)."""
    if element is None:
        return None
    try:
        value = int(element.get(f"{_W}val"))
    except (TypeError, ValueError):
        return None
    return value + 1 if 0 <= value <= 8 else None


def _style_name(paragraph: Any) -> str:
    style = paragraph.style
    return (style.name or "").strip().lower() if style is not None else ""


def _rows(table: Any) -> list[list[str]]:
    """A table's rows as cell texts, a cell merged across columns once."""
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:
            if cell._tc is previous:
                continue
            previous = cell._tc
            cells.append(cell.text)
        rows.append(cells)
    return rows
