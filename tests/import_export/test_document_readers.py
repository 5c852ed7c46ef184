"""The document readers on real published files (``tests/data/documents``, see its README):
page count and headings as the file has them, read by another tool where one exists (pypdf
and poppler for PDFs, the package's own XML for ODT), and the text equal to the library's
own extraction."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from rag_annotator.domain.layout import PAGE_SEPARATOR, DocumentKind, Layout, join_pages
from rag_annotator.errors import KnownError
from rag_annotator.import_export.documents.pdf_layer import normalise_page_text
from rag_annotator.import_export.documents.reading import ReadDocument, read_document

DATA = Path(__file__).parents[1] / "data" / "documents"


def read(name: str) -> ReadDocument:
    return read_document(DATA / name)


def squeeze(text: str) -> str:
    """The text without any whitespace: what two renderings of the same content share."""
    return re.sub(r"\s+", "", text)


# -- PDF ---------------------------------------------------------------------------------------
PDFS = ["jorf-2023-06-21-delegation-signature-dinum.pdf", "multicolumn.pdf",
        "bookmark_sample.pdf"]


@pytest.mark.parametrize("name", PDFS)
def test_a_pdf_is_its_pages_as_pdfium_extracts_them(name: str) -> None:
    import pypdfium2 as pdfium

    doc = read(name)
    pdf = pdfium.PdfDocument(DATA / name)
    pages = [normalise_page_text(pdf[i].get_textpage().get_text_range())
             for i in range(len(pdf))]
    assert doc.kind is DocumentKind.PDF
    assert (doc.text, doc.layout.pages) == join_pages(pages)
    for n, page in enumerate(pages, start=1):
        start, end = doc.layout.page_span(n, len(doc.text))
        assert doc.text[start:end] == page
    assert doc.keep == (DATA / name).read_bytes()


@pytest.mark.parametrize("name", PDFS)
def test_a_pdf_has_the_page_count_poppler_and_pypdf_see(name: str) -> None:
    from pypdf import PdfReader

    assert len(read(name).layout.pages) == len(PdfReader(DATA / name).pages)
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(DATA / name)], capture_output=True, text=True,
                              check=True).stdout
        pages = re.search(r"^Pages:\s+(\d+)$", info, re.MULTILINE)
        assert pages is not None and int(pages.group(1)) == len(read(name).layout.pages)


def _pypdf_outline(name: str) -> list[tuple[int, str, int]]:
    """(level, title, page number) of each outline entry, as pypdf reads them."""
    from pypdf import PdfReader

    reader = PdfReader(DATA / name)
    out: list[tuple[int, str, int]] = []

    def walk(items: list[object], level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, " ".join(str(item.title).split()),  # type: ignore[attr-defined]
                            reader.get_destination_page_number(item) + 1))  # type: ignore[arg-type]

    walk(reader.outline, 1)
    return out


@pytest.mark.parametrize("name", PDFS)
def test_a_pdf_has_the_headings_of_its_outline_on_their_pages(name: str) -> None:
    doc = read(name)
    expected = _pypdf_outline(name)
    got = [(h.level, h.title, doc.layout.page_of(h.start)) for h in doc.layout.headings]
    assert sorted(got, key=lambda h: h[2]) == sorted(expected, key=lambda h: h[2])


def test_bookmarks_point_at_their_titles_and_give_the_section_path() -> None:
    doc = read("bookmark_sample.pdf")
    assert [h.level for h in doc.layout.headings] == [1, 2, 2, 1, 2, 3, 2, 1]
    for heading in doc.layout.headings:  # each one found where its words are on the page
        assert doc.text[heading.start:].startswith(heading.title)
    offset = doc.text.index("3.1 Payment Schedule") + 30
    assert doc.layout.heading_path(offset) == ["PART II - OBLIGATIONS", "3. Payment Terms",
                                               "3.1 Payment Schedule"]


def test_a_french_law_text_keeps_its_running_footer_title_and_properties() -> None:
    doc = read("jorf-2023-06-21-delegation-signature-dinum.pdf")
    assert len(doc.layout.pages) == 2
    footer = "21 juin 2023 JOURNAL OFFICIEL DE LA RÉPUBLIQUE FRANÇAISE Texte 5 sur 95"
    for page in (1, 2):  # on every page, as the page shows it
        start, end = doc.layout.page_span(page, len(doc.text))
        assert footer in doc.text[start:end]
    assert doc.title == "Journal officiel de la République française - N° 142 du 21 juin 2023"
    assert doc.properties["author"] == "Direction de l'information légale et administrative"
    assert doc.properties["created"] == "2023-06-20T23:02:16+02:00"
    # an outline title the page does not spell out ("5-Décision…") points at its page's top
    assert [(h.level, h.start) for h in doc.layout.headings] == [(1, 0)]
    assert "Art. 4. – Délégation est donnée" in doc.text[doc.layout.pages[1]:]


def test_pdf_pages_hold_the_characters_poppler_finds_on_them() -> None:
    """An independent extractor (poppler's pdftotext) finds the same characters on each page
    (its reading order of a running footer differs, so they are compared as a multiset)."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed")
    doc = read("jorf-2023-06-21-delegation-signature-dinum.pdf")
    for page in (1, 2):
        start, end = doc.layout.page_span(page, len(doc.text))
        poppler = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout",
                                  str(DATA / "jorf-2023-06-21-delegation-signature-dinum.pdf"),
                                  "-"], capture_output=True, text=True, check=True).stdout
        assert Counter(squeeze(poppler)) == Counter(squeeze(doc.text[start:end]))


def test_a_multicolumn_pdf_reads_its_columns_one_after_the_other() -> None:
    doc = read("multicolumn.pdf")
    assert doc.text.startswith("Two-Column Document with Lorem Ipsum\n")
    first = doc.text[:doc.layout.pages[1]]
    # the left column's end comes before the right column's start (not interleaved lines)
    assert first.index("ac, adipiscing vitae, felis.") < first.index("Abstract") + 400


@pytest.mark.parametrize(("name", "words"), [
    ("scanned-ocr_test.pdf", "no text on its pages (a scan?) — run OCR on it first"),
    ("encrypted-libreoffice-writer-password.pdf", "encrypted: the PDF opens only with a "
                                                  "password"),
])
def test_scanned_and_encrypted_pdfs_are_refused_with_what_to_do(name: str, words: str) -> None:
    with pytest.raises(KnownError, match=re.escape(words)) as caught:
        read(name)
    assert str(caught.value).startswith(str(DATA / name) + ": ")


# -- Word ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["tableau-recap-des-heures-supplementaires.docx",
                                  "convocation-entretien-prealable-licenciement-economique.docx",
                                  "unit_test_headers.docx"])
def test_a_docx_holds_every_paragraph_and_cell_python_docx_reads_in_order(name: str) -> None:
    import docx
    from docx.text.paragraph import Paragraph

    doc = read(name)
    document = docx.Document(DATA / name)
    expected = [p.text for p in document.paragraphs if p.text.strip()]
    expected += [c.text for t in document.tables for r in t.rows for c in r.cells
                 if c.text.strip()]
    assert doc.kind is DocumentKind.DOCX and doc.layout.pages == ()
    for text in expected:
        assert " ".join(text.split()) in " ".join(doc.text.split())
    position = 0
    for paragraph in (p.text for p in document.paragraphs if p.text.strip()):
        position = doc.text.index(paragraph, position) + len(paragraph)  # in their order
    assert squeeze(doc.text) == squeeze("".join(
        item.text if isinstance(item, Paragraph) else "".join(
            c.text for r in item.rows for c in _unique(r))
        for item in document.iter_inner_content()))


def _unique(row: object) -> list[object]:
    cells: list[object] = []
    for cell in row.cells:  # type: ignore[attr-defined]
        if not cells or cell._tc is not cells[-1]._tc:  # type: ignore[attr-defined]
            cells.append(cell)
    return cells


def test_word_heading_styles_are_the_headings() -> None:
    import docx

    doc = read("unit_test_headers.docx")
    document = docx.Document(DATA / "unit_test_headers.docx")
    styled = [(int(p.style.name.split()[-1]), p.text) for p in document.paragraphs
              if p.style.name.startswith("Heading")]
    assert [(h.level, h.title) for h in doc.layout.headings] == styled
    assert len(styled) == 7 and doc.title == "Test Document"
    assert doc.layout.heading_path(doc.text.index("Paragraph 1.2.3.1")) == [
        "Section 1", "Section 1.2", "Section 1.2.3"]


def test_a_french_word_table_is_rows_of_tab_separated_cells() -> None:
    doc = read("tableau-recap-des-heures-supplementaires.docx")
    lines = doc.text.split("\n")
    assert lines[0] == ("Semaine du ***\tNombre d’heures total\tNombre d’heures de 36 à 43\t"
                        "Nombre d’heures au-delà de 43")
    assert "Exemple au SMIC\t\t8 X 9,67 X 1,25 = 96,7\t3 X 9,67 X 1,50 = 43,515" in lines


def test_a_french_letter_without_heading_styles_has_no_headings_and_its_properties() -> None:
    doc = read("convocation-entretien-prealable-licenciement-economique.docx")
    assert doc.layout.headings == ()
    assert "Objet : Convocation à un entretien préalable au licenciement." in doc.text
    assert doc.properties["author"] == "DUSCHER, Jean-René (DGT)"
    assert doc.properties["created"] == "2020-05-29T07:57:00+00:00"


# -- OpenDocument --------------------------------------------------------------------------------
def test_an_odt_has_the_headings_its_content_xml_declares() -> None:
    doc = read("text_document_01.odt")
    ns = {"text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}
    with zipfile.ZipFile(DATA / "text_document_01.odt") as package:
        root = ET.fromstring(package.read("content.xml"))
    declared = [(int(h.get(f"{{{ns['text']}}}outline-level", "1")), "".join(h.itertext()))
                for h in root.iter(f"{{{ns['text']}}}h")]
    assert [(h.level, h.title) for h in doc.layout.headings] == declared
    paragraphs = ["".join(p.itertext()) for p in root.iter(f"{{{ns['text']}}}p")]
    assert squeeze(doc.text) == squeeze("".join(
        "".join(e.itertext()) for e in root.iter()
        if e.tag in (f"{{{ns['text']}}}h", f"{{{ns['text']}}}p")))
    assert all(" ".join(p.split()) in " ".join(doc.text.split()) for p in paragraphs)


# -- HTML ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "title", "language", "first"), [
    ("coquillette-wikipedia-fr.html", "Coquillette — Wikipédia", "fr", "Coquillette"),
    ("duck-wikipedia-en.html", "Duck - Wikipedia", "en", "Duck")])
def test_an_html_page_is_its_main_content_as_selectolax_reads_it(
        name: str, title: str, language: str, first: str) -> None:
    from selectolax.lexbor import LexborHTMLParser

    from rag_annotator.import_export.documents.web_page import decode_html, main_content

    doc = read(name)
    tree = LexborHTMLParser(decode_html((DATA / name).read_bytes()))
    main = main_content(tree)
    assert squeeze(doc.text) == squeeze(main.text(separator=""))
    headings = [(int(h.tag[1]), " ".join(h.text(separator="").split()))
                for h in main.css("h1, h2, h3, h4, h5, h6")]
    assert [(h.level, h.title) for h in doc.layout.headings] == headings
    assert doc.title == title and doc.properties["language"] == language
    assert doc.layout.headings[0].title == first
    raw = (DATA / name).read_text(encoding="utf-8")
    assert "RLCONF" in raw or "<script" in raw  # the page has scripts…
    assert "RLCONF" not in doc.text and "function(" not in doc.text  # …never in the text
    assert "mw-jump-link" not in doc.text


def test_the_french_article_keeps_its_sections_and_drops_the_site_menus() -> None:
    doc = read("coquillette-wikipedia-fr.html")
    assert [h.title for h in doc.layout.headings] == ["Coquillette", "Références",
                                                      "Bibliographie"]
    assert "préparées avec de la farine de blé dur" in doc.text
    assert "Menu principal" not in doc.text and "Rechercher sur Wikipédia" not in doc.text
    path = doc.layout.heading_path(doc.text.index("Vermicelles et coquillettes"))
    assert path == ["Coquillette", "Bibliographie"]


# -- PowerPoint, RTF -----------------------------------------------------------------------------
def test_a_deck_is_a_page_per_slide_with_slide_titles_as_headings() -> None:
    from pptx import Presentation

    doc = read("powerpoint_sample.pptx")
    deck = Presentation(DATA / "powerpoint_sample.pptx")
    assert len(doc.layout.pages) == len(deck.slides) == 3
    titles = [(n, s.shapes.title.text) for n, s in enumerate(deck.slides, start=1)
              if s.shapes.title is not None]
    assert [(doc.layout.page_of(h.start), h.title) for h in doc.layout.headings] == titles
    for n, slide in enumerate(deck.slides, start=1):
        start, end = doc.layout.page_span(n, len(doc.text))
        page = doc.text[start:end]
        for shape in slide.shapes:
            if shape.has_text_frame and shape.text_frame.text.strip():
                assert shape.text_frame.text.replace("\v", "\n") in page
    assert "A rectangle shape with this text inside." in doc.text[doc.layout.pages[1]:
                                                                   doc.layout.pages[2]]


def test_an_rtf_is_its_text_without_control_words() -> None:
    doc = read("fake-doc.rtf")
    assert doc.kind is DocumentKind.RTF and doc.layout == Layout()
    assert doc.text.startswith("My First Heading\nMy first paragraph.")
    assert "Row 2, Cell 1" in doc.text and "\\" not in doc.text and "{" not in doc.text


# -- text and Markdown ---------------------------------------------------------------------------
def test_markdown_headings_are_commonmark_headings_at_their_lines(tmp_path: Path) -> None:
    source = tmp_path / "politique.md"
    source.write_text("Intro\n\n# Congés\n\nVingt-cinq jours.\n\n```\n# pas un titre\n```\n\n"
                      "Absences\n--------\n\n### Article 12 ###\n", encoding="utf-8")
    doc = read_document(source)
    assert [(h.level, h.title, doc.text[h.start:].split("\n")[0]) for h in
            doc.layout.headings] == [(1, "Congés", "# Congés"), (2, "Absences", "Absences"),
                                     (3, "Article 12", "### Article 12 ###")]
    assert doc.title == "Congés" and doc.text == source.read_text(encoding="utf-8")
    assert read_document(source.rename(tmp_path / "p.txt")).layout.headings == ()


def test_page_separator_is_what_joins_slides_and_pages() -> None:
    doc = read("powerpoint_sample.pptx")
    assert doc.text[doc.layout.pages[1] - len(PAGE_SEPARATOR):doc.layout.pages[1]] == \
        PAGE_SEPARATOR


def test_the_pdf_reader_calls_pdfium_only_under_the_shared_lock() -> None:
    """PDFium is not thread-safe: while another thread (the page viewer) holds the lock,
    the reader waits, and goes on once it is released."""
    import threading

    from rag_annotator.import_export.documents.pdf_layer import PDFIUM_LOCK

    done = threading.Event()
    result: list[ReadDocument] = []

    def reader() -> None:
        result.append(read("bookmark_sample.pdf"))
        done.set()

    with PDFIUM_LOCK:
        thread = threading.Thread(target=reader)
        thread.start()
        assert not done.wait(0.5)  # blocked on its first PDFium call
    assert done.wait(10) and len(result[0].layout.pages) == 3
    thread.join()
