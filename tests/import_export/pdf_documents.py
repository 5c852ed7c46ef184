"""A PDF as the app keeps it, for tests: its text is PDFium's text of each page
(``pdf_layer.normalise_page_text``) joined with ``layout.join_pages``, its pages the page
start offsets, its file kept in ``document_files`` — exactly what the PDF reader stores."""

from __future__ import annotations

import hashlib
from pathlib import Path

from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.layout import Layout, join_pages
from rag_annotator.domain.validation import content_hash
from rag_annotator.import_export.documents.pdf_layer import normalise_page_text
from rag_annotator.storage.store import GoldSetStore


def pdf_text(path: Path) -> tuple[str, Layout]:
    """The stored text of a PDF and its layout (pages only)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = [normalise_page_text(pdf[i].get_textpage().get_text_range())
                 for i in range(len(pdf))]
    finally:
        pdf.close()
    text, starts = join_pages(pages)
    return text, Layout(starts)


def add_pdf_document(store: GoldSetStore, path: Path, key: str) -> int:
    """Store ``path`` as corpus document ``key`` (kind pdf, pages, the file); its id.

    The file goes in ``document_files`` where the store lets an operation write that table
    (the PDF reader's import makes it writable); else the document has no kept file."""
    text, layout = pdf_text(path)
    data = path.read_bytes()
    now = utc_now()
    with store.operation("import_corpus", path.name) as op:
        try:
            file_id: int | None = int(op.insert("document_files", {
                "sha256": hashlib.sha256(data).hexdigest(), "kind": "pdf", "name": path.name,
                "size": len(data), "data": data, "created_at": now})["id"])
        except ValueError:  # not a writable table in this version of the store
            file_id = None
        row = op.insert("documents", {
            "key": key, "title": path.stem, "text": text,
            "content_hash": content_hash(text),
            "kind": "pdf", "file_id": file_id, **layout.columns(),
            "created_at": now, "updated_at": now})
    return int(row["id"])
