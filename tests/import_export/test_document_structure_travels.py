"""A document's structure and kept file travel: the native JSON (lossless, byte-identical
round trip, the kept PDF in base64, checked on import), the CSV and XLSX documents sheet
(kind, page count), an expert's assignment file (the pages too), ``check`` and ``info``."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import pytest

from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.validation import content_hash
from rag_annotator.errors import KnownError
from rag_annotator.import_export import native_json
from rag_annotator.import_export.corpus_import import import_corpus
from rag_annotator.import_export.registry import Options, exporter, importer
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.team_files import hand_out
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import rows, run_cli

DATA = Path(__file__).parents[1] / "data" / "documents"
STRUCTURE = "SELECT key, kind, pages, headings, span_start, span_end, located, match_score " \
            "FROM documents ORDER BY key"


def structured_goldset(path: Path, tmp_path: Path) -> Path:
    """A gold set holding real documents of every kind and a passage of a PDF."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("bookmark_sample.pdf", "jorf-2023-06-21-delegation-signature-dinum.pdf",
                 "unit_test_headers.docx", "powerpoint_sample.pptx", "fake-doc.rtf",
                 "coquillette-wikipedia-fr.html", "text_document_01.odt"):
        shutil.copy(DATA / name, folder / name)
    with GoldSetStore.create(path, assessor="lead") as store:
        import_corpus(store, folder, Options())
        add_passage(store, "bookmark_sample", "bookmark_sample#2", 0.2)
    return path


def doc_id(path: Path, key: str) -> int:
    return int(rows(path, "SELECT id FROM documents WHERE key = ?", (key,))[0][0])


def add_passage(store: GoldSetStore, parent_key: str, key: str, share: float) -> int:
    """A passage of ``parent_key`` (as the run importers keep a located chunk)."""
    parent = doc_id(store.path, parent_key)
    text = rows(store.path, "SELECT text FROM documents WHERE id = ?", (parent,))[0][0]
    start = int(len(text) * share)
    chunk = text[start:start + 200]
    now = utc_now()
    with store.operation("test_passage", key) as op:
        row = op.insert("documents", {
            "key": key, "text": chunk, "content_hash": content_hash(chunk),
            "parent_id": parent, "span_start": start, "span_end": start + len(chunk),
            "located": "fuzzy", "match_score": 93.5, "created_at": now, "updated_at": now})
    return int(row["id"])


@pytest.fixture
def rich(tmp_path: Path) -> Path:
    return structured_goldset(tmp_path / "rich.goldset", tmp_path)


def export(path: Path, fmt: str, dest: Path) -> None:
    with GoldSetStore.open(path, read_only=True) as store:
        exporter(fmt)(store, dest, Options())


def load(path: Path, fmt: str, source: Path) -> object:
    with GoldSetStore.create(path, assessor="other") as store:
        return importer(fmt)(store, source, Options())


def test_native_json_round_trips_structure_and_kept_files_byte_for_byte(
        rich: Path, tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    export(rich, "json", first)
    data = json.loads(first.read_text(encoding="utf-8"))
    assert data["version"] == native_json.VERSION == 2
    files = data["document_files"]
    assert [f["name"] for f in files] == sorted(
        ["bookmark_sample.pdf", "jorf-2023-06-21-delegation-signature-dinum.pdf"],
        key=lambda n: next(f["sha256"] for f in files if f["name"] == n))
    for item in files:
        assert base64.b64decode(item["data"]) == (DATA / item["name"]).read_bytes()
    docs = {d["key"]: d for d in data["documents"]}
    assert docs["bookmark_sample"]["kind"] == "pdf" and len(docs["bookmark_sample"]["pages"]) == 3
    assert docs["bookmark_sample"]["headings"][0] == [26, 1, "PART I - DEFINITIONS"]
    assert docs["bookmark_sample#2"]["parent"] == "bookmark_sample"
    assert docs["bookmark_sample#2"]["located"] == "fuzzy"
    assert docs["unit_test_headers"]["file"] is None and "page_count" not in docs["fake-doc"]

    copy = tmp_path / "copy.goldset"
    load(copy, "json", first)
    second = tmp_path / "second.json"
    export(copy, "json", second)
    assert second.read_bytes() == first.read_bytes()
    assert rows(copy, STRUCTURE) == rows(rich, STRUCTURE)
    with GoldSetStore.open(copy, read_only=True) as store:
        passage = doc_id(copy, "bookmark_sample#2")
        kept = store.document_file(passage)  # a passage shows its parent's pages
        assert kept is not None and kept.data == (DATA / "bookmark_sample.pdf").read_bytes()


def test_the_export_follows_the_json_schema(rich: Path, tmp_path: Path) -> None:
    import jsonschema

    schema = json.loads((Path(native_json.__file__).parents[1] / "resources" / "schema" /
                         "goldset.schema.json").read_text(encoding="utf-8"))
    dest = tmp_path / "g.json"
    export(rich, "json", dest)
    jsonschema.validate(json.loads(dest.read_text(encoding="utf-8")), schema)


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["document_files"][0].update(data=base64.b64encode(b"%PDF-1.4 autre")
                                             .decode()),
     "document_files[0]: the data does not have the size and SHA-256 the entry gives"),
    (lambda d: d["document_files"][0].update(data="pas du base64 !"),
     "document_files[0].data: not base64"),
    (lambda d: d.update(document_files=[]), "no entry of document_files has this SHA-256"),
    (lambda d: next(x for x in d["documents"] if x["kind"] == "pdf").update(pages=[0, 10**9]),
     "is past the end of the text"),
    (lambda d: next(x for x in d["documents"] if x["kind"] == "pdf").update(pages=[5, 3]),
     "offsets must start at 0 and increase"),
    (lambda d: next(x for x in d["documents"] if x["kind"] == "pdf").update(kind="exe"),
     "kind 'exe' is not one of"),
])
def test_a_tampered_export_is_refused_with_its_line(rich: Path, tmp_path: Path,
                                                   change: object, words: str) -> None:
    dest = tmp_path / "g.json"
    export(rich, "json", dest)
    data = json.loads(dest.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    dest.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    target = tmp_path / "t.goldset"
    with pytest.raises(KnownError, match=re.escape(words)):
        load(target, "json", dest)
    assert rows(target, "SELECT count(*) FROM documents") == [(0,)]


def test_a_version_1_export_still_imports(rich: Path, tmp_path: Path) -> None:
    dest = tmp_path / "g.json"
    export(rich, "json", dest)
    data = json.loads(dest.read_text(encoding="utf-8"))
    data["version"] = 1
    del data["document_files"]
    for doc in data["documents"]:
        for name in ("kind", "pages", "headings", "file", "span_start", "span_end", "located",
                     "match_score"):
            del doc[name]
    dest.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    target = tmp_path / "old.goldset"
    load(target, "json", dest)
    assert set(rows(target, "SELECT kind, pages, headings, file_id FROM documents")) == {
        ("", None, None, None)}


def test_csv_and_xlsx_show_kind_and_page_count_and_bring_the_structure_back(
        rich: Path, tmp_path: Path) -> None:
    from python_calamine import CalamineWorkbook

    export(rich, "csv", tmp_path / "csv")
    header = (tmp_path / "csv" / "documents.csv").read_text(
        encoding="utf-8").splitlines()[0]
    assert {"kind", "page_count", "pages", "headings", "file"} <= set(header.split(","))
    export(rich, "xlsx", tmp_path / "g.xlsx")
    # The workbook is for people: its sheet and headers are words (English here).
    sheet = CalamineWorkbook.from_path(str(tmp_path / "g.xlsx")).get_sheet_by_name(
        "Documents").to_python()
    columns = sheet[0]
    by_key = {r[columns.index("Document")]: r for r in sheet[1:]}
    assert by_key["bookmark_sample"][columns.index("File type")] == "pdf"
    assert by_key["bookmark_sample"][columns.index("Pages")] in (3, 3.0, "3")
    assert by_key["powerpoint_sample"][columns.index("Pages")] in (3, 3.0, "3")
    assert by_key["unit_test_headers"][columns.index("File type")] == "docx"

    for fmt, source in (("csv", tmp_path / "csv"), ("xlsx", tmp_path / "g.xlsx")):
        target = tmp_path / f"from-{fmt}.goldset"
        report = load(target, fmt, source)
        assert rows(target, STRUCTURE) == rows(rich, STRUCTURE), fmt
        assert rows(target, "SELECT count(*) FROM document_files") == [(0,)]
        assert any("a flat table cannot carry" in str(w)
                   for w in report.warnings), fmt  # type: ignore[attr-defined]


def test_an_experts_assignment_file_holds_the_pages_of_its_pdfs(tmp_path: Path) -> None:
    master = tmp_path / "master.goldset"
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(DATA / "bookmark_sample.pdf", folder / "RH-CP-2025.pdf")
    with create_sample(master, assessor="lead") as store:
        import_corpus(store, folder / "RH-CP-2025.pdf", Options())  # a pooled document
        passage = add_passage(store, "RH-CP-2025", "RH-CP-2025#1", 0.5)
        with store.operation("test_retrieve", "passage") as op:
            run, case = op.select_columns("retrieved", ("run_id", "case_id"))[0]
            top = max(r for (r,) in op.select_columns("retrieved", ("rank",), run_id=run,
                                                      case_id=case))
            op.insert("retrieved", {"run_id": run, "case_id": case, "document_id": passage,
                                    "rank": top + 1, "score": 0.1})
        report = hand_out(store, ["ana", "bruno"], 2, tmp_path / "team", seed=3)
    pdf = (DATA / "bookmark_sample.pdf").read_bytes()
    for path in report.files.values():
        with GoldSetStore.open(path, read_only=True) as copy:
            whole, part = doc_id(path, "RH-CP-2025"), doc_id(path, "RH-CP-2025#1")
            for doc in (whole, part):
                kept = copy.document_file(doc)
                assert kept is not None and kept.data == pdf
            kind, layout = copy.document_layout(whole)
            assert kind == "pdf" and layout.page_count == 3
            assert rows(path, "SELECT p.key FROM documents d JOIN documents p "
                              "ON p.id = d.parent_id") == [("RH-CP-2025",)]
            assert copy.cross_reference_problems() == []


# -- check and info ------------------------------------------------------------------------------
def test_check_says_what_is_wrong_with_a_layout_or_a_kept_file(rich: Path) -> None:
    assert run_cli("check", str(rich)).returncode == 0
    import sqlite3

    conn = sqlite3.connect(rich)
    conn.execute("UPDATE documents SET pages = '[0, 999999]' WHERE key = 'bookmark_sample'")
    conn.execute("UPDATE documents SET headings = 'oops' WHERE key = 'unit_test_headers'")
    conn.execute("UPDATE document_files SET data = substr(data, 1, 100) WHERE name = "
                 "'jorf-2023-06-21-delegation-signature-dinum.pdf'")
    conn.execute("UPDATE documents SET span_end = 10000000 WHERE key = 'bookmark_sample#2'")
    conn.commit()
    conn.close()
    result = run_cli("check", str(rich))
    assert result.returncode == 1
    out = result.stdout
    assert ("document bookmark_sample: its layout is wrong (pages: offset 999999 is past the "
            "end of the text") in out
    assert "document unit_test_headers: its layout is wrong" in out
    assert ("(documents: jorf-2023-06-21-delegation-signature-dinum): its bytes do not match "
            "their SHA-256 and size (damaged); import the documents again") in out
    assert "passage bookmark_sample#2: span" in out and "lies beyond the end of document " \
        "bookmark_sample" in out


def test_info_counts_documents_by_kind_and_the_kept_files(rich: Path) -> None:
    result = run_cli("info", str(rich), "--json")
    info = json.loads(result.stdout)
    assert info["documents_by_kind"] == {"docx": 1, "html": 1, "none": 1, "odt": 1, "pdf": 2,
                                         "pptx": 1, "rtf": 1}
    sizes = sum((DATA / n).stat().st_size for n in (
        "bookmark_sample.pdf", "jorf-2023-06-21-delegation-signature-dinum.pdf"))
    assert info["kept_files"] == {"count": 2, "bytes": sizes, "unused": 0}
    assert info["documents"] == 8  # the existing keys are still there


def test_a_colleagues_judgments_on_pdf_documents_merge(rich: Path, tmp_path: Path) -> None:
    """Two copies of a gold set with PDF documents and a passage: the colleague's judgments
    on them come in; documents and kept files are the file's own, untouched."""
    from rag_annotator.domain import judging_ops
    from rag_annotator.domain import operations as ops
    from rag_annotator.import_export.merge import merge_file

    other = tmp_path / "other.goldset"
    shutil.copy(rich, other)
    with GoldSetStore.open(other, assessor="bob") as store:
        ops.create_case(store, key="Q1", question="Quand payer ?")
        case = int(rows(other, "SELECT id FROM cases")[0][0])
        for key, grade in (("bookmark_sample", 1), ("bookmark_sample#2", 1),
                           ("jorf-2023-06-21-delegation-signature-dinum", 0)):
            judging_ops.set_judgment(store, case, doc_id(other, key), grade)
    with GoldSetStore.open(rich, assessor="alice") as store:
        ops.create_case(store, key="Q1", question="Quand payer ?")
        before = rows(rich, "SELECT * FROM document_files ORDER BY id")
        structure = rows(rich, STRUCTURE)
        report = merge_file(store, other)
    assert "judgments: 3 added" in report.summary("en") and not report.skipped
    assert sorted(rows(rich, "SELECT d.key, j.grade FROM judgments j JOIN documents d "
                             "ON d.id = j.document_id")) == [
        ("bookmark_sample", 1), ("bookmark_sample#2", 1),
        ("jorf-2023-06-21-delegation-signature-dinum", 0)]
    assert rows(rich, "SELECT * FROM document_files ORDER BY id") == before
    assert rows(rich, STRUCTURE) == structure


def test_info_text_says_the_kinds(rich: Path) -> None:
    line = next(line for line in run_cli("info", str(rich)).stdout.splitlines()
                if line.strip().startswith("documents"))
    assert line.split()[1:] == ["8", "docx", "1", "html", "1", "odt", "1", "pdf", "2", "pptx",
                                "1", "rtf", "1"]
