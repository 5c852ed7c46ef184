"""The store's reads behind the page view: a document's structure (its own, or for a located
passage its parent's pages and kept file) and the page of evidence and expected sources."""

from __future__ import annotations

from pathlib import Path

from rag_annotator.domain import operations as ops
from rag_annotator.domain import verify_ops
from rag_annotator.storage.store import GoldSetStore
from tests.pdf_documents import FOUR_PAGES, build_pdf_goldset


def test_a_passage_is_paged_by_its_parent_and_a_plain_document_by_nothing(
        goldset_path: Path) -> None:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        ids = build_pdf_goldset(store)
        ops.create_document(store, key="TXT", title="plain", text="Un texte sans pages.")
        plain = int(store.by_key("documents", "TXT")["id"])
        pdf = store.document_structure(ids["pdf"])
        passage = store.document_structure(ids["passage"])
        text = store.document_structure(plain)
        assert store.document_structure(10_000) is None
    import hashlib

    sha = hashlib.sha256(FOUR_PAGES.read_bytes()).hexdigest()
    assert pdf is not None and passage is not None and text is not None
    assert (pdf.kind, pdf.paged_id, pdf.file_sha256, pdf.is_passage) == (
        "pdf", ids["pdf"], sha, False)
    assert pdf.paged_layout.page_count == 4 and pdf.span is None
    assert (passage.kind, passage.paged_id, passage.file_sha256, passage.is_passage) == (
        "", ids["pdf"], sha, True)
    assert passage.paged_layout == pdf.paged_layout and passage.located == "exact"
    assert passage.span is not None and passage.paged_layout.page_of(passage.span[0]) == 2
    assert (text.paged_id, text.file_sha256, text.paged_layout.page_count) == (plain, None, 0)


def test_evidence_and_expected_sources_say_the_page_they_start_on(goldset_path: Path) -> None:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        ids = build_pdf_goldset(store)
        layout = store.document_structure(ids["pdf"]).paged_layout
        on_page_3 = layout.pages[2] + 10
        verify_ops.add_evidence(store, ids["claim"], ids["pdf"], (on_page_3, on_page_3 + 5))
        verify_ops.add_evidence(store, ids["claim"], ids["passage"], (0, 5))
        ops.add_expected_source(store, ids["case"], ids["pdf"], (layout.pages[3],
                                                                 layout.pages[3] + 4))
        ops.add_expected_source(store, ids["case"], ids["pdf"])
        claim = store.answer_context(ids["answer"])["claims"][0]
        sources = store.case_detail(ids["case"])["expected_sources"]
    assert [e["page"] for e in claim["evidence"]] == [3, None]  # the passage has no pages
    assert sorted((s["page"] is None, s["page"]) for s in sources) == [(False, 4), (True, None)]
