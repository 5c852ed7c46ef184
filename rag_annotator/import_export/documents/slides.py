"""PowerPoint decks (.pptx), read with python-pptx, slide by slide: slides are pages.

python-pptx is the maintained reader of the Office Open XML presentation format in Python;
it gives each slide's shapes in their order on the slide, the title placeholder, text
frames, tables and groups.

* Pages: one per slide, in the deck's order (a slide without text is an empty page, so page
  ``n`` is always slide ``n``).
* Text of a slide: its title, then each shape's text in the slide's shape order (the order
  the author's selection pane shows; a group's shapes in turn; a table as a line per row, a
  tab between cells).  Speaker notes are not on the slide and are left out.
* Headings: each slide's title, at level 1, at the start of its slide.
* Properties: the core properties' title, author, subject, keywords, created, modified.

The package passes :func:`~rag_annotator.import_export.documents.package.check_package`
before python-pptx opens it.
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
    pages_layout,
    properties,
)
from rag_annotator.import_export.files import ImportRejected


def read_pptx(path: Path, data: bytes) -> ReadDocument:
    """Read a .pptx (module docstring)."""
    check_package(path, data).close()
    from pptx import Presentation

    try:
        deck = Presentation(io.BytesIO(data))
    except Exception as error:  # python-pptx raises many kinds on a damaged package
        raise ImportRejected(path, None, "damaged or not a PowerPoint presentation "
                                         "({error}).", error=type(error).__name__) from None
    pages: list[TextBuilder] = []
    for slide in deck.slides:
        builder = TextBuilder()
        title = slide.shapes.title
        if title is not None and title.has_text_frame:
            builder.heading(1, title.text_frame.text)
        _shapes(slide.shapes, builder, title, 0)
        pages.append(builder)
    text, layout = pages_layout(pages)
    core = deck.core_properties
    return ReadDocument(
        DocumentKind.PPTX, text, layout, title=clean_title(core.title or ""),
        properties=properties(author=core.author, subject=core.subject,
                              keywords=core.keywords, created=core.created,
                              modified=core.modified))


def _shapes(shapes: Any, builder: TextBuilder, title: Any, depth: int) -> None:
    """Add the text of ``shapes`` (groups walked into), the slide's title left out."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    for shape in shapes:
        if title is not None and shape.shape_id == title.shape_id and depth == 0:
            continue
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            if depth < 20:  # groups nested deeper are a hostile file, not a deck
                _shapes(shape.shapes, builder, None, depth + 1)
        elif getattr(shape, "has_table", False):
            builder.table([[cell.text for cell in row.cells if not cell.is_spanned]
                           for row in shape.table.rows])
        elif getattr(shape, "has_text_frame", False):
            builder.block(shape.text_frame.text)
