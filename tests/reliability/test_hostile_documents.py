"""Hostile document files get one clear line and nothing written: zip bombs, XML entity
expansion and external entities in Word/OpenDocument/PowerPoint packages, PDF bombs (pages
of nothing, a page tree that loops, more pages than allowed), and a PDF's JavaScript and
links, which are never run nor followed."""

from __future__ import annotations

import io
import re
import shutil
import socket
import zipfile
from pathlib import Path

import pytest

from rag_annotator.errors import KnownError
from rag_annotator.import_export.corpus_import import import_corpus
from rag_annotator.import_export.documents import pdf as pdf_reader
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump, rows, run_cli

DATA = Path(__file__).parents[1] / "data" / "documents"

#: "Billion laughs": nine levels of ten references each, a billion "lol"s from 1 KB.
LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol0 "lol">'
          + "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
          + ']>\n')
EXTERNAL = '<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'


def repack(source: Path, dest: Path, member: str, new: bytes | None = None, *,
           extra: tuple[str, bytes] | None = None) -> Path:
    """``source`` with ``member`` replaced (and ``extra`` added), compressed."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(dest, "w",
                                                         zipfile.ZIP_DEFLATED) as out:
        for item in old.infolist():
            out.writestr(item, new if item.filename == member and new is not None
                         else old.read(item))
        if extra is not None:
            out.writestr(extra[0], extra[1])
    return dest


def with_doctype(source: Path, member: str, doctype: str, entity: str) -> bytes:
    """The member's XML with a DOCTYPE before its root and an entity reference in it."""
    with zipfile.ZipFile(source) as package:
        xml = package.read(member).decode("utf-8")
    body = xml.split("?>", 1)[1] if xml.startswith("<?xml") else xml
    close = body.rfind("</")
    return (doctype + body[:close] + entity + body[close:]).encode("utf-8")


def refused(store: GoldSetStore, goldset_path: Path, path: Path, words: str) -> None:
    """One line on stderr naming the file and ``words``; the gold set unchanged."""
    before = full_dump(goldset_path)
    store.close()
    result = run_cli("import", str(goldset_path), "corpus", str(path))
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0 and len(errors) == 1, result.stderr
    assert str(path) in errors[0] and words in errors[0], errors[0]
    assert full_dump(goldset_path) == before


PACKAGES = [("unit_test_headers.docx", "word/document.xml", "x.docx"),
            ("text_document_01.odt", "content.xml", "x.odt"),
            ("powerpoint_sample.pptx", "ppt/slides/slide1.xml", "x.pptx")]


@pytest.mark.parametrize(("name", "member", "out"), PACKAGES)
def test_an_entity_expansion_bomb_is_refused(store: GoldSetStore, goldset_path: Path,
                                             tmp_path: Path, name: str, member: str,
                                             out: str) -> None:
    bomb = repack(DATA / name, tmp_path / out, member,
                  with_doctype(DATA / name, member, LAUGHS, "&lol9;"))
    refused(store, goldset_path, bomb, f"part {member} declares a DTD or entities")


@pytest.mark.parametrize(("name", "member", "out"), PACKAGES)
def test_an_external_entity_is_refused_and_never_read(store: GoldSetStore, goldset_path: Path,
                                                      tmp_path: Path, name: str, member: str,
                                                      out: str) -> None:
    hostile = repack(DATA / name, tmp_path / out, member,
                     with_doctype(DATA / name, member, EXTERNAL, "&xxe;"))
    refused(store, goldset_path, hostile, "declares a DTD or entities")


@pytest.mark.parametrize(("name", "out"), [("unit_test_headers.docx", "x.docx"),
                                           ("text_document_01.odt", "x.odt"),
                                           ("powerpoint_sample.pptx", "x.pptx")])
def test_a_zip_bomb_is_refused(store: GoldSetStore, goldset_path: Path, tmp_path: Path,
                               name: str, out: str) -> None:
    bomb = repack(DATA / name, tmp_path / out, "", extra=("media/zeros.bin", bytes(40 << 20)))
    assert bomb.stat().st_size < 200_000  # 40 MB of zeros in a few dozen KB
    refused(store, goldset_path, bomb, "part media/zeros.bin expands")


def test_a_damaged_package_is_one_line(store: GoldSetStore, goldset_path: Path,
                                       tmp_path: Path) -> None:
    cut = tmp_path / "cut.docx"
    cut.write_bytes((DATA / "unit_test_headers.docx").read_bytes()[:3000])
    refused(store, goldset_path, cut, "damaged: not a valid zip package")


def test_a_bad_file_in_a_folder_is_refused_alone(store: GoldSetStore, goldset_path: Path,
                                                 tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    repack(DATA / "unit_test_headers.docx", folder / "bombe.docx", "word/document.xml",
           with_doctype(DATA / "unit_test_headers.docx", "word/document.xml", EXTERNAL,
                        "&xxe;"))
    shutil.copy(DATA / "fake-doc.rtf", folder / "sain.rtf")
    report = import_corpus(store, folder, Options())
    said = {str(line) for line in report.file_lines()}
    assert "sain.rtf: added" in said
    assert any(s.startswith("bombe.docx: not imported — part word/document.xml declares a DTD")
               for s in said)
    assert "root:" not in "".join(t for (t,) in rows(goldset_path, "SELECT text FROM documents"))


# -- PDF -----------------------------------------------------------------------------------------
def _empty_pages(count: int) -> bytes:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()
    for _ in range(count):
        pdf.new_page(595, 842)
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def test_thousands_of_pages_of_nothing_are_refused_as_without_text(
        store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    bomb = tmp_path / "vide.pdf"
    bomb.write_bytes(_empty_pages(5000))
    refused(store, goldset_path, bomb, "no text on its pages (a scan?) — run OCR on it first")


def test_more_pages_than_allowed_are_refused_before_any_is_read(
        store: GoldSetStore, goldset_path: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf_reader, "MAX_PAGES", 100)
    bomb = tmp_path / "long.pdf"
    bomb.write_bytes(_empty_pages(101))
    before = full_dump(goldset_path)
    with pytest.raises(KnownError, match=re.escape("the PDF has 101 pages (the limit is 100)")):
        import_corpus(store, bomb, Options())
    assert full_dump(goldset_path) == before


LOOP = b"""%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj
trailer << /Root 1 0 R >>
%%EOF
"""


def test_a_page_tree_that_loops_is_refused_as_damaged(store: GoldSetStore, goldset_path: Path,
                                                      tmp_path: Path) -> None:
    loop = tmp_path / "boucle.pdf"
    loop.write_bytes(LOOP)
    refused(store, goldset_path, loop, "damaged: page 2 cannot be read (a broken page tree?)")


def test_not_a_pdf_is_one_line(store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    fake = tmp_path / "faux.pdf"
    fake.write_text("Bonjour, je ne suis pas un PDF.", encoding="utf-8")
    refused(store, goldset_path, fake, "damaged or not a PDF (Data format error)")


def test_javascript_and_links_in_a_pdf_are_never_run_nor_followed(
        store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    from pypdf import PdfWriter
    from pypdf.actions import JavaScript
    from pypdf.annotations import Link

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.setblocking(False)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/"
    writer = PdfWriter(clone_from=DATA / "bookmark_sample.pdf")
    writer.add_open_action(JavaScript(f"app.launchURL('{url}js', true); "
                                      f"this.submitForm('{url}form');"))
    writer.add_annotation(0, Link(rect=(50, 50, 300, 80), url=f"{url}link"))
    hostile = tmp_path / "scripts.pdf"
    with hostile.open("wb") as out:
        writer.write(out)
    report = import_corpus(store, hostile, Options())
    assert [str(line) for line in report.file_lines()] == [
        "scripts.pdf: added; it holds JavaScript, which was not run"]
    with pytest.raises(BlockingIOError):
        listener.accept()  # nobody ever connected: no script ran, no link was followed
    listener.close()
    text = rows(goldset_path, "SELECT text FROM documents")[0][0]
    assert "launchURL" not in text and "PART I - DEFINITIONS" in text
