"""The corpus import of the expert's own files: a folder of real published documents reports
every file, a document file alone is one document, a re-import makes a new version of a
changed PDF (and undo brings the old one back), two files with one id are both refused."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.domain.layout import Layout
from rag_annotator.errors import KnownError
from rag_annotator.import_export.corpus_import import import_corpus
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.builders import last_id
from tests.helpers import full_dump, rows, run_cli

DATA = Path(__file__).parents[1] / "data" / "documents"


def folder_of(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(DATA / name, folder / name)
    return folder


def lines(report: object) -> dict[str, str]:
    return {str(line).split(": ", 1)[0]: str(line).split(": ", 1)[1]
            for line in report.file_lines()}  # type: ignore[attr-defined]


def test_a_folder_of_real_documents_reports_every_file(store: GoldSetStore, goldset_path: Path,
                                                       tmp_path: Path) -> None:
    names = sorted(p.name for p in DATA.iterdir() if p.name != "README.md")
    folder = folder_of(tmp_path, *names)
    (folder / "notes.xlsx").write_bytes(b"PK\x03\x04 not really")
    report = import_corpus(store, folder, Options())
    said = lines(report)
    assert sorted(said) == sorted([*names, "notes.xlsx"])  # every file, none silently
    assert said["scanned-ocr_test.pdf"].startswith("not imported — no text on its pages")
    assert said["encrypted-libreoffice-writer-password.pdf"].startswith(
        "not imported — encrypted: the PDF opens only with a password")
    assert said["notes.xlsx"].startswith("not imported — not a document this import reads")
    imported = [n for n in names if not n.startswith(("scanned", "encrypted"))]
    assert all(said[n] == "added" for n in imported)
    assert report.summary().startswith("11 documents added, 0 changed, 0 unchanged, "
                                       "0 disappeared; 3 files not imported")
    kinds = dict(rows(goldset_path, "SELECT key, kind FROM documents"))
    assert kinds == {Path(n).stem: Path(n).suffix[1:] for n in imported}
    # only PDFs keep their file, each once
    kept = rows(goldset_path, "SELECT d.key, f.name, f.size, f.sha256 FROM documents d "
                              "JOIN document_files f ON f.id = d.file_id ORDER BY d.key")
    assert [k for k, *_ in kept] == ["bookmark_sample",
                                     "jorf-2023-06-21-delegation-signature-dinum",
                                     "multicolumn"]
    for key, name, size, digest in kept:
        data = (DATA / name).read_bytes()
        assert (size, digest) == (len(data), hashlib.sha256(data).hexdigest()), key


def test_the_structure_and_properties_are_stored(store: GoldSetStore, goldset_path: Path,
                                                 tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "bookmark_sample.pdf", "unit_test_headers.docx",
                       "powerpoint_sample.pptx")
    import_corpus(store, folder, Options())
    doc_id = dict(rows(goldset_path, "SELECT key, id FROM documents"))
    kind, layout = store.document_layout(doc_id["bookmark_sample"])
    assert kind == "pdf" and layout.page_count == 3 and len(layout.headings) == 8
    text = rows(goldset_path, "SELECT text FROM documents WHERE key = 'bookmark_sample'")[0][0]
    assert layout.heading_path(text.index("3.1 Payment Schedule") + 25)[-1] == \
        "3.1 Payment Schedule"
    kept = store.document_file(doc_id["bookmark_sample"])
    assert kept is not None and kept.data == (DATA / "bookmark_sample.pdf").read_bytes()
    assert store.document_file(doc_id["unit_test_headers"]) is None  # Word: text only
    kind, layout = store.document_layout(doc_id["powerpoint_sample"])
    assert kind == "pptx" and layout.page_count == 3
    title, extra, owner = rows(goldset_path, "SELECT title, extra, owner FROM documents "
                                             "WHERE key = 'unit_test_headers'")[0]
    assert title == "Test Document" and owner == ""  # the file's author is not the owner
    assert json.loads(extra) == {"author": "Peter Staar", "created": "2024-09-26T08:01:00+00:00",
                                 "modified": "2024-09-26T08:05:00+00:00"}


def test_a_document_file_alone_imports_that_document(store: GoldSetStore, goldset_path: Path,
                                                     tmp_path: Path) -> None:
    ops.create_document(store, key="other", text="autre")
    report = import_corpus(store, DATA / "jorf-2023-06-21-delegation-signature-dinum.pdf",
                           Options())
    assert report.added == ["jorf-2023-06-21-delegation-signature-dinum"]
    assert report.disappeared == []  # one file says nothing of the other documents
    assert [str(x) for x in report.file_lines()] == [
        "jorf-2023-06-21-delegation-signature-dinum.pdf: added"]
    assert rows(goldset_path, "SELECT count(*) FROM documents") == [(2,)]


def test_a_document_file_alone_through_the_cli_is_detected(store: GoldSetStore,
                                                           goldset_path: Path) -> None:
    store.close()
    result = run_cli("import", str(goldset_path), str(DATA / "unit_test_headers.docx"))
    assert result.returncode == 0, result.stderr
    assert "format corpus (a document file (.docx))" in result.stderr
    assert "unit_test_headers.docx: added" in result.stdout
    assert "1 documents added" in result.stdout


@pytest.mark.parametrize("name", ["scanned-ocr_test.pdf",
                                  "encrypted-libreoffice-writer-password.pdf"])
def test_a_document_file_that_cannot_be_read_changes_nothing(
        store: GoldSetStore, goldset_path: Path, name: str) -> None:
    before = full_dump(goldset_path)
    store.close()
    result = run_cli("import", str(goldset_path), "corpus", str(DATA / name))
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and str(DATA / name) in errors[0]
    assert full_dump(goldset_path) == before


def test_the_folder_report_through_the_cli(store: GoldSetStore, goldset_path: Path,
                                           tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "multicolumn.pdf", "scanned-ocr_test.pdf",
                       "encrypted-libreoffice-writer-password.pdf", "fake-doc.rtf")
    store.close()
    result = run_cli("import", str(goldset_path), "corpus", str(folder))
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[-1] == (f"{folder}: 2 documents added, 0 changed, 0 unchanged, 0 disappeared; "
                       "2 files not imported.")
    assert out[:2] == [
        "  encrypted-libreoffice-writer-password.pdf: not imported — encrypted: the PDF opens "
        "only with a password; save a copy without the password and import that.",
        "  scanned-ocr_test.pdf: not imported — no text on its pages (a scan?) — run OCR on "
        "it first, then import the PDF it makes."]
    assert sorted(out[2:4]) == ["  fake-doc.rtf: added", "  multicolumn.pdf: added"]


# -- re-import -----------------------------------------------------------------------------------
def _state(path: Path, key: str) -> tuple[object, ...]:
    return rows(path, "SELECT d.text, d.kind, d.pages, d.headings, f.sha256 FROM documents d "
                      "LEFT JOIN document_files f ON f.id = d.file_id WHERE d.key = ?",
                (key,))[0]


def test_a_new_version_of_a_pdf_is_a_new_version_of_its_document_and_undo_brings_back_the_old(
        store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "fake-doc.rtf")
    shutil.copy(DATA / "bookmark_sample.pdf", folder / "accord.pdf")
    import_corpus(store, folder, Options())
    doc_id = dict(rows(goldset_path, "SELECT key, id FROM documents"))["accord"]
    ops.create_case(store, key="Q1", question="Quand payer ?")
    case = last_id(store, "cases")
    ops.add_expected_source(store, case, doc_id)
    judging_ops.set_judgment(store, case, doc_id, 1)
    old = _state(goldset_path, "accord")

    shutil.copy(DATA / "multicolumn.pdf", folder / "accord.pdf")  # the new version
    report = import_corpus(store, folder, Options())
    assert (report.changed, report.unchanged, report.added) == (["accord"], 1, [])
    assert lines(report) == {"accord.pdf": "changed (new version)",
                             "fake-doc.rtf": "unchanged"}
    assert report.touched_cases == ["Q1"] and report.touched_judgments == 1
    new = _state(goldset_path, "accord")
    assert str(new[0]).startswith("Two-Column Document") and new[1] == "pdf"
    assert json.loads(str(new[2])) != json.loads(str(old[2])) and new[3] is None
    assert new[4] == hashlib.sha256((DATA / "multicolumn.pdf").read_bytes()).hexdigest()
    # the judgment and the expected source stay on the document (same id)
    assert rows(goldset_path, "SELECT document_id FROM judgments") == [(doc_id,)]

    assert report.changes is not None
    undo = store.revert(report.changes.operation_id)
    assert _state(goldset_path, "accord") == old
    kept = store.document_file(doc_id)
    assert kept is not None and kept.data == (DATA / "bookmark_sample.pdf").read_bytes()
    store.revert(undo.operation_id, action="redo")
    assert _state(goldset_path, "accord") == new


def test_a_reimport_of_the_same_folder_changes_nothing(store: GoldSetStore, goldset_path: Path,
                                                       tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "bookmark_sample.pdf", "text_document_01.odt")
    import_corpus(store, folder, Options())
    before = full_dump(goldset_path)
    report = import_corpus(store, folder, Options())
    assert lines(report) == {"bookmark_sample.pdf": "unchanged",
                             "text_document_01.odt": "unchanged"}
    assert report.changes is None  # nothing changed: nothing to undo
    assert rows(goldset_path, "SELECT count(*) FROM document_files") == [(1,)]
    assert {t: r for t, r in full_dump(goldset_path).items() if t not in (
        "operations", "history")} == {t: r for t, r in before.items() if t not in (
            "operations", "history")}


def test_a_file_that_became_unreadable_is_not_imported_and_its_document_stays(
        store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "fake-doc.rtf")
    shutil.copy(DATA / "bookmark_sample.pdf", folder / "accord.pdf")
    import_corpus(store, folder, Options())
    shutil.copy(DATA / "encrypted-libreoffice-writer-password.pdf", folder / "accord.pdf")
    report = import_corpus(store, folder, Options())
    assert report.disappeared == []  # its file is there: it did not disappear
    assert lines(report)["accord.pdf"].startswith("not imported — encrypted")
    assert _state(goldset_path, "accord")[1] == "pdf"
    (folder / "accord.pdf").unlink()
    assert import_corpus(store, folder, Options()).disappeared == ["accord"]


def test_two_files_with_one_id_are_both_refused_and_say_so(store: GoldSetStore,
                                                           goldset_path: Path,
                                                           tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "unit_test_headers.docx", "fake-doc.rtf")
    shutil.copy(DATA / "bookmark_sample.pdf", folder / "unit_test_headers.pdf")
    report = import_corpus(store, folder, Options())
    said = lines(report)
    assert said["unit_test_headers.docx"] == (
        "not imported — unit_test_headers.pdf has the same document id 'unit_test_headers'; "
        "rename or move one of them (neither was imported)")
    assert said["unit_test_headers.pdf"].startswith(
        "not imported — unit_test_headers.docx has the same document id")
    assert said["fake-doc.rtf"] == "added"
    assert [k for (k,) in rows(goldset_path, "SELECT key FROM documents")] == ["fake-doc"]


def test_a_table_reimport_with_new_text_drops_the_old_pages(store: GoldSetStore,
                                                            goldset_path: Path,
                                                            tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "bookmark_sample.pdf")
    import_corpus(store, folder, Options())
    table = tmp_path / "corpus.jsonl"
    table.write_text(json.dumps({"_id": "bookmark_sample", "text": "autre texte"}) + "\n",
                     encoding="utf-8")
    import_corpus(store, table, Options())
    doc_id = rows(goldset_path, "SELECT id FROM documents")[0][0]
    assert store.document_layout(doc_id) == ("", Layout())
    assert store.document_file(doc_id) is None


def test_hidden_files_and_office_lock_files_are_named_not_read(store: GoldSetStore,
                                                                tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "fake-doc.rtf")
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text("[core]", encoding="utf-8")
    (folder / "~$rapport.docx").write_bytes(b"\x00lock")
    report = import_corpus(store, folder, Options())
    assert list(lines(report)) == ["fake-doc.rtf"]
    assert any("2 hidden or temporary file(s) or folder(s) not read: .git, ~$rapport.docx"
               in str(w) for w in report.warnings)


def test_a_folder_without_any_document_is_refused(store: GoldSetStore, goldset_path: Path,
                                                  tmp_path: Path) -> None:
    folder = tmp_path / "vide"
    folder.mkdir()
    (folder / "photo.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(KnownError, match="the folder holds no document this import reads"):
        import_corpus(store, folder, Options())


def test_a_new_version_moves_the_passages_found_again_and_names_the_others(
        store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    """Passages (chunks a run retrieved) of a PDF that gets a new version are looked for in
    the new text: found, they follow (span, page, key); not found, they stay and are named."""
    import pypdfium2 as pdfium

    from rag_annotator.domain.clock import utc_now
    from rag_annotator.domain.validation import content_hash

    def pdf_of(*parts: tuple[str, list[int]]) -> None:
        out = pdfium.PdfDocument.new()
        for name, pages in parts:
            out.import_pages(pdfium.PdfDocument(DATA / name), pages)
        out.save(folder / "accord.pdf")

    jorf = "jorf-2023-06-21-delegation-signature-dinum.pdf"
    folder = folder_of(tmp_path)
    pdf_of((jorf, [0]), ("bookmark_sample.pdf", [1]))  # a French decision, then an article
    import_corpus(store, folder, Options())
    parent, text = rows(goldset_path, "SELECT id, text FROM documents")[0]
    layout = store.document_layout(parent)[1]
    spans = {}
    for page in (1, 2):
        start = layout.pages[page - 1] + 30
        spans[page] = (start, start + 150)
    now = utc_now()
    with store.operation("test_passages", "accord") as op:
        for start, end in spans.values():
            chunk = text[start:end]
            op.insert("documents", {
                "key": f"accord#{start}-{end}", "text": chunk, "content_hash": content_hash(chunk),
                "parent_id": parent, "span_start": start, "span_end": end, "located": "exact",
                "match_score": 100.0, "created_at": now, "updated_at": now})
    before = rows(goldset_path, "SELECT key, span_start, span_end FROM documents "
                                "WHERE parent_id IS NOT NULL ORDER BY id")
    # the new version: the decision is gone, the article comes after another page
    pdf_of(("bookmark_sample.pdf", [0, 1]))

    report = import_corpus(store, folder, Options())
    assert lines(report) == {"accord.pdf": "changed (new version); 1 of its 2 passages found "
                                           "again in the new version; 1 not, their place is "
                                           "the old version's"}
    assert any(f"its place (and page) is the old version's: {before[0][0]}" in str(w)
               for w in report.warnings)
    new_text = rows(goldset_path, "SELECT text FROM documents WHERE id = ?", (parent,))[0][0]
    (key0, *span0), (key1, start, end) = rows(
        goldset_path, "SELECT key, span_start, span_end FROM documents "
                      "WHERE parent_id IS NOT NULL ORDER BY id")
    assert (key0, *span0) == before[0]  # not found: as it was
    assert (start, end) != tuple(before[1][1:]) and key1 == f"accord#{start}-{end}"
    chunk = text[spans[2][0]:spans[2][1]]
    assert new_text[start:end].strip() == chunk.strip()
    assert store.document_layout(parent)[1].page_of(start) == 2  # the article, now page 2
    assert report.changes is not None
    store.revert(report.changes.operation_id)
    assert rows(goldset_path, "SELECT key, span_start, span_end FROM documents "
                              "WHERE parent_id IS NOT NULL ORDER BY id") == before


def test_a_pdf_with_some_pages_without_text_is_imported_and_says_which(
        store: GoldSetStore, tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    folder = folder_of(tmp_path)
    pdf = pdfium.PdfDocument.new()
    pdf.import_pages(pdfium.PdfDocument(DATA / "bookmark_sample.pdf"), [0])
    pdf.new_page(595, 842)  # a page with nothing on it (a scanned page without OCR reads so)
    pdf.import_pages(pdfium.PdfDocument(DATA / "bookmark_sample.pdf"), [1])
    pdf.save(folder / "mixte.pdf")
    report = import_corpus(store, folder, Options())
    assert lines(report) == {"mixte.pdf": "added; 1 page without text (2): a scanned page "
                                          "needs OCR"}
    doc_id = rows(store.path, "SELECT id FROM documents")[0][0]
    assert store.document_layout(doc_id)[1].page_count == 3
