"""Corpus imports (BEIR, table, folder) and what a re-import of a changed corpus reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.errors import KnownError
from rag_annotator.import_export.corpus_import import import_corpus
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.builders import last_id
from tests.helpers import full_dump, rows, run_cli


def beir(path: Path, docs: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs),
                    encoding="utf-8")
    return path


def documents(path: Path) -> list[tuple[object, ...]]:
    return rows(path, "SELECT key, title, text, owner, rights, status, version, origin "
                      "FROM documents ORDER BY key")


def test_beir_corpus_with_metadata(store: GoldSetStore, goldset_path: Path,
                                   tmp_path: Path) -> None:
    source = beir(tmp_path / "corpus.jsonl", [
        {"_id": "d1", "title": "Congés", "text": "25 jours.",
         "metadata": {"owner": "RH", "rights": ["salarié", "manager"], "version": "2025"}},
        {"_id": "d2", "title": "", "text": "Ancien texte.", "metadata": {"status": "obsolète"}},
    ])
    report = import_corpus(store, source, Options())
    assert documents(goldset_path) == [
        ("d1", "Congés", "25 jours.", "RH", '["salarié", "manager"]', "current", "2025",
         "corpus"),
        ("d2", "", "Ancien texte.", "", "[]", "outdated", "", "corpus")]
    assert report.added == ["d1", "d2"] and report.changed == []


def test_reimport_reports_changed_added_disappeared_and_what_they_touch(
        store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    import_corpus(store, beir(tmp_path / "v1.jsonl", [
        {"_id": "d1", "text": "un"}, {"_id": "d2", "text": "deux"},
        {"_id": "d3", "text": "trois"}]), Options())
    ids = dict(rows(goldset_path, "SELECT key, id FROM documents"))
    ops.create_case(store, key="Q1", question="?")
    q1 = last_id(store, "cases")
    ops.add_expected_source(store, q1, ids["d2"])
    judging_ops.set_judgment(store, q1, ids["d3"], 1)
    ops.create_case(store, key="Q2", question="?")
    judging_ops.set_judgment(store, last_id(store, "cases"), ids["d1"], 0)
    report = import_corpus(store, beir(tmp_path / "v2.jsonl", [
        {"_id": "d1", "text": "un"}, {"_id": "d2", "text": "deux, corrigé"},
        {"_id": "d4", "text": "quatre"}]), Options())
    assert (report.added, report.changed, report.unchanged, report.disappeared) == (
        ["d4"], ["d2"], 1, ["d3"])
    assert report.touched_cases == ["Q1"] and report.touched_judgments == 1
    assert "1 documents added, 1 changed, 1 unchanged, 1 disappeared" in report.summary()
    assert rows(goldset_path, "SELECT text FROM documents WHERE key = 'd2'") == [
        ("deux, corrigé",)]
    assert rows(goldset_path, "SELECT count(*) FROM documents WHERE key = 'd3'") == [(1,)]
    assert report.changes is not None and report.changes.operation_id
    store.revert(report.changes.operation_id)
    assert rows(goldset_path, "SELECT key, text FROM documents ORDER BY key") == [
        ("d1", "un"), ("d2", "deux"), ("d3", "trois")]


def test_table_corpus_in_french(store: GoldSetStore, goldset_path: Path,
                                tmp_path: Path) -> None:
    source = tmp_path / "registre.csv"
    source.write_bytes("\ufeffIdentifiant;Titre;Contenu;Propriétaire;Droits;Valide du;Statut\r\n"
                       "RH-1;Congés;25 jours;DRH;salarié, manager;2025-01-01;En vigueur\r\n"
                       .encode())
    import_corpus(store, source, Options())
    assert rows(goldset_path, "SELECT key, title, text, owner, rights, valid_from, status "
                              "FROM documents") == [
        ("RH-1", "Congés", "25 jours", "DRH", '["salarié", "manager"]', "2025-01-01",
         "current")]


def test_folder_of_text_files(store: GoldSetStore, goldset_path: Path,
                              tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "rh").mkdir(parents=True)
    (folder / "rh" / "conges.md").write_text("# Politique de congés\n\n25 jours.\n",
                                             encoding="utf-8")
    (folder / "aide.txt").write_bytes("Prêt à domicile".encode("cp1252"))
    (folder / "image.png").write_bytes(b"\x89PNG")
    report = import_corpus(store, folder, Options())
    assert rows(goldset_path, "SELECT key, title, text FROM documents ORDER BY key") == [
        ("aide", "aide", "Prêt à domicile"),
        ("rh/conges", "Politique de congés", "# Politique de congés\n\n25 jours.\n")]
    assert any("Windows-1252" in w for w in report.warnings)


def test_placeholders_become_real_documents(store: GoldSetStore, goldset_path: Path,
                                            tmp_path: Path) -> None:
    ops.create_document(store, key="d9", origin="placeholder")
    report = import_corpus(store, beir(tmp_path / "c.jsonl", [{"_id": "d9", "text": "réel"}]),
                           Options())
    assert rows(goldset_path, "SELECT text, origin FROM documents") == [("réel", "corpus")]
    assert report.disappeared == []


@pytest.mark.parametrize(("name", "content", "match"), [
    ("dup.jsonl", '{"_id": "a", "text": "x"}\n{"_id": "a", "text": "y"}\n',
     "the id 'a' appears twice"),
    ("noid.jsonl", '{"text": "x"}\n', ":1: the document has no id"),
    ("notext.jsonl", '{"_id": "a", "title": "x"}\n', ":1: document a has no text field"),
    ("bad.jsonl", '{"_id": "a", "text": "x"}\n{oops\n', ":2: not valid JSON"),
    ("status.jsonl", '{"_id": "a", "text": "x", "status": "brouillon"}\n',
     "status 'brouillon' is not current, outdated or withdrawn"),
    ("notext.csv", "id;titre\r\na;b\r\n", "no column is recognised as the document text"),
    ("binary.csv", "id;text\n\x00\x01", "NUL bytes"),
])
def test_bad_corpus_files_change_nothing(store: GoldSetStore, goldset_path: Path,
                                         tmp_path: Path, name: str, content: str,
                                         match: str) -> None:
    source = tmp_path / name
    source.write_text(content, encoding="utf-8")
    before = full_dump(goldset_path)
    with pytest.raises(KnownError, match=match):
        import_corpus(store, source, Options())
    assert full_dump(goldset_path) == before


def test_corpus_through_the_cli(store: GoldSetStore, goldset_path: Path,
                                tmp_path: Path) -> None:
    store.close()
    source = beir(tmp_path / "corpus.jsonl", [{"_id": "d1", "text": "un"}])
    result = run_cli("import", str(goldset_path), "corpus", str(source))
    assert result.returncode == 0, result.stderr
    assert "1 documents added" in result.stdout


def test_xlsx_corpus(store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    import datetime as dt

    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["Key", "Title", "Text", "Valid until", "Version"])
    book.active.append(["K-1", "Un", "Texte un", dt.datetime(2025, 12, 31), 2])
    book.save(tmp_path / "corpus.xlsx")
    import_corpus(store, tmp_path / "corpus.xlsx", Options())
    assert rows(goldset_path, "SELECT key, text, valid_until, version FROM documents") == [
        ("K-1", "Texte un", "2025-12-31", "2")]
