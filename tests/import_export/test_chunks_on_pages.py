"""Chunks of real PDFs, made the way RAG pipelines make them, are found on their page.

Three real PDFs (``tests/data/chunks/README.md``): German lecture notes (running headers,
hyphenation, ligatures, formulas), an English two-column article, a French manual (running
header and footer, tables, a table of contents).  The app's text of each is PDFium's, as
its PDF reader stores it; the chunks are pypdf's text (LangChain's ``PyPDFLoader``),
pdfminer.six's (Unstructured) and a Markdown rendering's, cut by a recursive splitter
(1,000/200 and 500/50 characters) and by fixed windows that cut words (800/100)
(``pipelines.py``).  Each chunk knows the page(s) its text came from; the locator must put
at least 95 % of them on one of those pages and none on another.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from rag_annotator.domain.layout import Layout
from rag_annotator.import_export import registry
from rag_annotator.import_export.chunk_locator import FUZZY_MIN, ChunkLocator, Located
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.text_skeleton import skeleton
from rag_annotator.storage.store import GoldSetStore
from tests.import_export.pdf_documents import add_pdf_document, pdf_text
from tests.import_export.pipelines import Chunk, all_chunks, pypdf_pages, recursive_split

DATA = Path(__file__).resolve().parents[1] / "data" / "chunks"
FILES = {"geotopo": "geotopo-p9-30.pdf", "multicolumn": "multicolumn.pdf",
         "vitam": "vitam-transfert.pdf"}


@dataclass(frozen=True)
class Outcome:
    """One chunk, the document it came from, and where the locator put it."""

    chunk: Chunk
    source: str
    found: Located | None
    page: int | None

    @property
    def verdict(self) -> str:
        """right (one of its pages), wrong, several (found at several places: kept as the
        document, no page claimed) or none."""
        if self.found is None:
            return "none"
        if self.found.several:
            return "several"
        right = self.found.key == self.source and self.page in self.chunk.pages
        return "right" if right else "wrong"


@pytest.fixture(scope="module")
def corpus() -> dict[str, tuple[str, Layout]]:
    return {key: pdf_text(DATA / name) for key, name in FILES.items()}


@pytest.fixture(scope="module")
def outcomes(corpus: dict[str, tuple[str, Layout]]) -> list[Outcome]:
    locator = ChunkLocator([(key, text) for key, (text, _layout) in corpus.items()])
    out = []
    for key, name in FILES.items():
        for chunk in all_chunks(DATA / name):
            found = locator.locate(chunk.text)
            page = None if found is None else corpus[found.key][1].page_of(found.start)
            out.append(Outcome(chunk, key, found, page))
    return out


def test_at_least_95_percent_of_the_chunks_are_on_their_page_and_none_on_another(
        outcomes: list[Outcome]) -> None:
    verdicts = Counter(o.verdict for o in outcomes)
    assert len(outcomes) > 1000  # every pipeline x splitter x file
    wrong = [(o.chunk.pipeline, o.chunk.pages, o.page, o.chunk.text[:60]) for o in outcomes
             if o.verdict == "wrong"]
    assert wrong == []
    assert verdicts["right"] >= 0.95 * len(outcomes), verdicts
    for loader in ("pypdf", "pdfminer", "markdown"):  # no loader left behind
        mine = [o for o in outcomes if o.chunk.pipeline.startswith(loader + "/")]
        assert sum(o.verdict == "right" for o in mine) >= 0.9 * len(mine), loader
    for key in FILES:  # nor a file
        mine = [o for o in outcomes if o.source == key]
        assert sum(o.verdict == "right" for o in mine) >= 0.9 * len(mine), key


def _right(outcomes: list[Outcome]) -> list[Outcome]:
    return [o for o in outcomes if o.verdict == "right"]


def test_the_differences_between_parsers_are_really_met(
        outcomes: list[Outcome], corpus: dict[str, tuple[str, Layout]]) -> None:
    """What the locator tolerates is in these chunks, not only in its docstring: each kind
    of difference is met by chunks that are still found on their page."""
    right = _right(outcomes)
    app_text = {key: text for key, (text, _layout) in corpus.items()}
    # ligatures: pypdf keeps U+FB01 where PDFium writes "fi"
    assert any("ﬁ" in o.chunk.text and o.chunk.pipeline.startswith("pypdf") for o in right)
    assert "ﬁ" not in app_text["geotopo"] and "Definition" in app_text["geotopo"]
    # a word hyphenated at a line end ("adip-\niscing"), which PDFium writes "adip\ufffeiscing"
    assert any(re.search(r"[a-z]-\n[a-z]", o.chunk.text) for o in right
               if o.source == "multicolumn")
    assert "\ufffe" in app_text["multicolumn"]
    # Markdown markup
    assert sum(bool(re.search(r"^#+ |\*\*", o.chunk.text, re.M)) for o in right
               if o.chunk.pipeline.startswith("markdown")) >= 20
    # a chunk cut in the middle of a word (fixed windows)
    assert sum(o.chunk.pipeline.endswith("window-800") and o.chunk.text[:1].isalnum()
               and o.found is not None and app_text[o.source][o.found.start - 1].isalnum()
               for o in right) >= 20
    # running headers: a Markdown chunk over two pages, the header between them dropped
    assert sum(len(o.chunk.pages) == 2 for o in right
               if o.chunk.pipeline.startswith("markdown") and o.source == "vitam") >= 5
    # French accents and typography survive every parser
    assert any("é" in o.chunk.text and "«" in o.chunk.text for o in right)
    # some only approximately, all of those at or above the threshold, with the score kept
    fuzzy = [o.found.score for o in right if o.found is not None and o.found.how == "fuzzy"]
    assert len(fuzzy) >= 50 and min(fuzzy) >= FUZZY_MIN and max(fuzzy) < 100


def test_a_located_span_is_the_chunk_in_the_documents_own_text(
        outcomes: list[Outcome], corpus: dict[str, tuple[str, Layout]]) -> None:
    """The span is in the original text's offsets: exactly the chunk when it was found as
    it is, the same letters and digits when normalised, within the chunk's pages when
    fuzzy."""
    hows = Counter()
    for o in _right(outcomes):
        assert o.found is not None
        text, layout = corpus[o.found.key]
        placed = text[o.found.start:o.found.end]
        hows[o.found.how] += 1
        if o.found.how == "exact":
            assert placed == o.chunk.text.strip()
        elif o.found.how == "normalised":
            assert skeleton(placed).text == skeleton(o.chunk.text).text
        pages = layout.pages_of(o.found.start, o.found.end)
        assert pages is not None and pages[0] in o.chunk.pages
        assert pages[1] <= o.chunk.pages[-1] + 1  # a fuzzy end may reach the next header
    assert min(hows["exact"], hows["normalised"], hows["fuzzy"]) >= 50


def test_the_ragas_import_keeps_each_chunk_as_a_passage_on_its_page(
        store: GoldSetStore, tmp_path: Path) -> None:
    """Through the run import: pypdf chunks of three pages of the French PDF, retrieved
    for one question, become three passages of the PDF document, each on its page, with
    the PDF's file; a second run retrieving two of them shares their passages."""
    doc_id = add_pdf_document(store, DATA / FILES["vitam"], "vitam-transfert")
    pages = pypdf_pages(DATA / FILES["vitam"])
    picked = {page: recursive_split(pages[page - 1], 1000, 200)[1] for page in (9, 5, 12)}
    sample = {"user_input": "Comment demander un transfert ?",
              "retrieved_contexts": list(picked.values()), "response": "…"}
    first = tmp_path / "first.jsonl"
    first.write_text(json.dumps(sample, ensure_ascii=False) + "\n", encoding="utf-8")
    report = registry.importer("ragas")(store, first, Options(run="first"))
    chunks = report.chunks  # type: ignore[attr-defined]
    assert chunks.exact + chunks.fuzzy == 3 and len(chunks.new_passages) == 3
    passages = {str(r["key"]): r for r in store.document_passages(doc_id)}
    _kind, layout = store.document_layout(doc_id)
    assert layout.page_count == 19
    ranking = [key for key, _s in
               store.run_rankings(int(store.by_key("runs", "first")["id"])).popitem()[1]]
    assert [layout.page_of(int(passages[key]["span_start"])) for key in ranking] == [9, 5, 12]
    for key, page in zip(ranking, picked):
        passage = store.by_key("documents", key)
        assert passage["text"] == picked[page] and passage["parent_id"] == doc_id
        assert passage["title"] == f"vitam-transfert, p. {page}"
        kept = store.document_file(doc_id)  # a passage shows its document's file
        assert store.document_file(int(passage["id"])) == kept
        assert kept is None or kept.data == (DATA / FILES["vitam"]).read_bytes()
    summary = str(report.summary())  # type: ignore[attr-defined]
    assert "3 of 3 chunks located in the documents" in summary
    second = tmp_path / "second.jsonl"
    sample["retrieved_contexts"] = [picked[12], picked[5]]
    second.write_text(json.dumps(sample, ensure_ascii=False) + "\n", encoding="utf-8")
    before = store.count("documents")
    report = registry.importer("ragas")(store, second, Options(run="second"))
    assert store.count("documents") == before
    assert report.chunks.new_passages == []  # type: ignore[attr-defined]
    ranking2 = [key for key, _s in
                store.run_rankings(int(store.by_key("runs", "second")["id"])).popitem()[1]]
    assert ranking2 == [ranking[2], ranking[1]]


def test_the_app_text_of_the_french_pdf_is_pdfiums(corpus: dict[str, tuple[str, Layout]]
                                                    ) -> None:
    """The corpus side is what the PDF reader stores (PDFium's text, pages joined), not a
    text this test chose: its pages and a running footer as the file has them."""
    text, layout = corpus["vitam"]
    assert layout.page_count == 19
    start, end = layout.page_span(5, len(text))
    page = unicodedata.normalize("NFC", text[start:end])
    assert page.startswith("Programme Vitam – Le transfert avec la solution logicielle Vitam")
    assert page.rstrip().endswith("Licence Ouverte V2.0. 5 / 19")
