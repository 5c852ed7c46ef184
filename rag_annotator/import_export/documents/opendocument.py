"""OpenDocument text (.odt), read with odfpy.

odfpy is the OpenDocument library of the format's own community (it reads and writes every
ODF element by its schema name), so the walk below names the elements as the standard does:
``text:h`` is a heading whose ``text:outline-level`` is its level, ``text:p`` a paragraph,
``text:list`` / ``text:list-item`` a list, ``table:table`` a table of ``table:table-row`` and
``table:table-cell``; ``odf.teletype`` gives an element's text with its spaces, tabs and line
breaks.

* Text: headings, paragraphs, list items and tables in document order (sections, frames and
  text boxes are walked into); a table as a line per row, a tab between cells.  A cell's
  ``number-columns-repeated`` is not expanded (a row of one cell repeated 16,384 times is an
  empty spreadsheet row, or a way to blow up the text).
* Properties: ``dc:title``, ``dc:creator`` (else ``meta:initial-creator``), ``dc:subject``,
  ``meta:keyword``, ``meta:creation-date``, ``dc:date``.

The package passes :func:`~rag_annotator.import_export.documents.package.check_package`
before odfpy opens it.
"""

from __future__ import annotations

import io
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

_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
_META = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
_DC = "http://purl.org/dc/elements/1.1/"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"

#: Elements walked into for the blocks they hold.
_CONTAINERS = {(_TEXT, "section"), (_TEXT, "list"), (_TEXT, "list-item"),
               (_TEXT, "list-header"), (_DRAW, "frame"), (_DRAW, "text-box"),
               (_TEXT, "index-body"), (_TEXT, "table-of-content"),
               (_TEXT, "alphabetical-index"), (_TEXT, "illustration-index"),
               (_TEXT, "bibliography"), (_OFFICE, "forms")}
#: Elements whose text is not part of the reading (declarations, tracked deletions).
_SKIPPED = {(_TEXT, "sequence-decls"), (_TEXT, "variable-decls"), (_TEXT, "user-field-decls"),
            (_TEXT, "tracked-changes"), (_TABLE, "table-columns"), (_TABLE, "table-column")}


def read_odt(path: Path, data: bytes) -> ReadDocument:
    """Read an .odt (module docstring)."""
    check_package(path, data).close()
    from odf.opendocument import load

    try:
        document = load(io.BytesIO(data))
    except Exception as error:  # odfpy raises many kinds on a damaged package
        raise ImportRejected(path, None, "damaged or not an OpenDocument text ({error}).",
                             error=type(error).__name__) from None
    builder = TextBuilder()
    _walk(document.text, builder, 0)
    meta = {node.qname: _text(node) for node in document.meta.childNodes
            if getattr(node, "qname", None)}
    return ReadDocument(
        DocumentKind.ODT, builder.text, builder.layout(),
        title=clean_title(meta.get((_DC, "title"), "")),
        properties=properties(author=meta.get((_DC, "creator")) or meta.get(
            (_META, "initial-creator")), subject=meta.get((_DC, "subject")),
            keywords=meta.get((_META, "keyword")),
            created=meta.get((_META, "creation-date")), modified=meta.get((_DC, "date"))))


def _walk(node: Any, builder: TextBuilder, depth: int) -> None:
    """Add the blocks below ``node`` in document order."""
    if depth > 100:  # lists nested this deep are a hostile file, not a document
        return
    for child in node.childNodes:
        name = getattr(child, "qname", None)
        if name is None or name in _SKIPPED:
            continue
        if name == (_TEXT, "h"):
            level = child.getAttrNS(_TEXT, "outline-level")
            builder.heading(int(level) if level and level.isdigit() else 1, _text(child))
        elif name == (_TEXT, "p"):
            builder.block(_text(child))  # with its text boxes' and notes' text, inline
        elif name == (_TABLE, "table"):
            builder.table(_rows(child))
        elif name in _CONTAINERS:
            _walk(child, builder, depth + 1)


def _rows(table: Any) -> list[list[str]]:
    rows: list[list[str]] = []
    for element in table.getElementsByType(_row_class()):
        if element.parentNode is not table and getattr(element.parentNode, "parentNode",
                                                       None) is not table:
            continue  # a row of a table nested in a cell: its text is in that cell
        rows.append([_text(cell) for cell in element.childNodes
                     if getattr(cell, "qname", None) == (_TABLE, "table-cell")])
    return rows


def _row_class() -> Any:
    from odf.table import TableRow

    return TableRow


def _text(node: Any) -> str:
    from odf import teletype

    return str(teletype.extractText(node))
