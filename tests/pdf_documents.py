"""PDF documents and their passages in a gold set for tests: a PDF goes in through the corpus
import (its text is PDFium's text of each page, ``pdf_layer.normalise_page_text``, joined
with ``join_pages``; the page starts in ``pages``, the outline in ``headings``, kind 'pdf',
the file's bytes in ``document_files``).  A passage is a child document (``parent_id``) with
its span in the parent's text, as a run import stores a retrieved chunk it located.
"""

from __future__ import annotations

from pathlib import Path

from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.layout import Layout, join_pages
from rag_annotator.domain.validation import content_hash
from rag_annotator.import_export.documents.pdf_layer import normalise_page_text
from rag_annotator.storage.store import GoldSetStore

PAGES = Path(__file__).resolve().parent / "data" / "pages"
FOUR_PAGES = PAGES / "pdflatex-4-pages.pdf"
COLUMNS = PAGES / "multicolumn.pdf"
OUTLINE = PAGES / "pdflatex-outline.pdf"


def pdf_text(data: bytes) -> tuple[str, tuple[int, ...]]:
    """The document text and page starts the corpus import stores for a PDF's bytes."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        pages = []
        for i in range(len(pdf)):
            page = pdf[i]
            textpage = page.get_textpage()
            pages.append(normalise_page_text(textpage.get_text_range()))
            textpage.close()
            page.close()
    finally:
        pdf.close()
    return join_pages(pages)


def add_pdf_document(store: GoldSetStore, key: str, path: Path, title: str = "") -> int:
    """Import the PDF at ``path`` as document ``key`` through the corpus import (the PDF
    reader: its pages, its outline as headings, the file kept); return its id."""
    import shutil
    import tempfile

    from rag_annotator.domain import operations as ops
    from rag_annotator.import_export import registry

    with tempfile.TemporaryDirectory() as folder:
        named = Path(folder) / f"{key}.pdf"  # the import names a document by its file
        shutil.copyfile(path, named)
        registry.importer("corpus")(store, named, registry.Options())
    document_id = int(store.by_key("documents", key)["id"])
    if title:
        ops.edit_document(store, document_id, title=title)
    return document_id


def add_passage(store: GoldSetStore, parent_id: int, key: str, start: int, end: int,
                text: str | None = None, located: str = "exact") -> int:
    """A located passage of ``parent_id`` covering ``[start, end)`` of its text (its own
    text the parent's words unless ``text`` gives a chunk another parser extracted)."""
    parent = store.by_id("documents", parent_id)
    words = parent["text"][start:end] if text is None else text
    now = utc_now()
    with store.operation("import_run", key) as op:
        row = op.insert("documents", {
            "key": key, "title": parent["title"], "text": words,
            "content_hash": content_hash(words), "parent_id": parent_id,
            "span_start": start, "span_end": end, "located": located,
            "match_score": 100.0, "created_at": now, "updated_at": now})
    return int(row["id"])


#: Words of page 2 of ``FOUR_PAGES`` the tests and screenshots use as the retrieved chunk.
CHUNK_WORDS = "A blind text like this gives"


def build_pdf_goldset(store: GoldSetStore) -> dict[str, int]:
    """A case whose run retrieved a passage of a 4-page PDF (on its page 2) and the PDF
    itself, with an answer of two claims to verify; ids by name."""
    from rag_annotator.domain import operations as ops

    ids: dict[str, int] = {}
    ids["pdf"] = add_pdf_document(store, "PDF-4P", FOUR_PAGES, title="Four pages of blind text")
    text = store.document_text(ids["pdf"])
    layout = Layout.from_columns(*[store.by_id("documents", ids["pdf"])[c]
                                   for c in ("pages", "headings")])
    start = text.index(CHUNK_WORDS, layout.pages[1], layout.pages[2])
    ids["passage"] = add_passage(store, ids["pdf"], "PDF-4P#p2", start, start + 420)
    ops.create_case(store, key="QP", question="What does a blind text tell about the font?",
                    family="ordinary")
    ids["case"] = int(store.by_key("cases", "QP")["id"])
    ops.create_run(store, name="pdf-run")
    ids["run"] = int(store.by_key("runs", "pdf-run")["id"])
    with store.operation("test_load", "pdf-run") as op:
        for rank, doc in enumerate((ids["passage"], ids["pdf"]), start=1):
            op.insert("retrieved", {"run_id": ids["run"], "case_id": ids["case"],
                                    "document_id": doc, "rank": rank, "score": 1.0 / rank})
        answer = op.insert("answers", {"run_id": ids["run"], "case_id": ids["case"],
                                       "text": "It tells about the font. It is short."})
        ids["answer"] = int(answer["id"])
    ops.add_claim(store, ids["answer"], "It tells about the font", span=(0, 23))
    ids["claim"] = int(store.query("SELECT max(id) AS m FROM claims")[0]["m"])
    ops.add_claim(store, ids["answer"], "It is short", span=(25, 36))
    return ids
