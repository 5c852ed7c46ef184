"""Files as other tools publish them (issue 18, points 1, 5, 6, 7): tests/data/README.md
names each file's source and licence.

Every importer is reached through the registry, as the CLI and the dialogs reach it.
"""

from __future__ import annotations

import ast
import csv
import gzip
import json
from pathlib import Path

import pytest

from rag_annotator.import_export import registry
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import run_cli

DATA = Path(__file__).resolve().parents[1] / "data"
AZURE = DATA / "ragas_azure_docs"
KB_KEY = "hybrid-search-overview"


def _import(store: GoldSetStore, fmt: str, source: Path, **options: object) -> object:
    return registry.importer(fmt)(store, source, Options(**options))  # type: ignore[arg-type]


@pytest.fixture
def kb(store: GoldSetStore) -> GoldSetStore:
    """The real Markdown knowledge base, imported as the app imports a docs folder."""
    _import(store, "corpus", AZURE / "kb")
    assert store.count("documents") == 1
    return store


def _rows(store: GoldSetStore, entity: str) -> list[dict[str, object]]:
    columns, rows = store.entity_rows(entity)
    return [dict(zip(columns, row)) for row in rows]


def _peer_contexts(path: Path, column: str) -> list[str]:
    """The contexts as the csv module and ast.literal_eval read them (a peer of our reader)."""
    with open(path, newline="", encoding="utf-8") as handle:
        row = next(csv.DictReader(handle))
    value = ast.literal_eval(row[column])
    assert isinstance(value, list)
    return [str(x) for x in value]


# -- point 1: Ragas ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["ragas_v01_result.csv", "ragas_v02_result.csv",
                                  "ragas_v02_result.jsonl"])
def test_a_real_ragas_evaluation_matches_its_markdown_knowledge_base(kb: GoldSetStore,
                                                                     name: str) -> None:
    report = _import(kb, "ragas", AZURE / name, run="azure")
    contexts = _peer_contexts(AZURE / "ragas_v01_result.csv", "contexts")
    assert len(contexts) == 5
    # Every retrieved chunk is found in the one article it came from, though Markdown was
    # stripped, a page header prepended and one chunk starts mid-word.
    assert report.contexts == 5  # type: ignore[attr-defined]
    assert report.match_rate == 1.0  # type: ignore[attr-defined]
    # Four are found at their place in the article and kept as passages of it: three by
    # their letters, the one with the header (Feedback / Summarize this article / Note, and
    # the banner the article includes written out) only approximately; the fifth, from a
    # later version of the article, matches it by its words only: the article itself.
    chunks = report.chunks  # type: ignore[attr-defined]
    assert (chunks.exact, chunks.fuzzy, chunks.whole, chunks.not_found) == (3, 1, 1, [])
    assert 80 <= chunks.lowest < 100
    article = kb.by_key("documents", KB_KEY)
    passages = {str(r["key"]): r for r in kb.document_passages(int(article["id"]))}
    assert len(passages) == 4 and sorted(chunks.new_passages) == sorted(passages)
    assert kb.count("documents") == 5
    for key, row in passages.items():
        start, end = int(row["span_start"]), int(row["span_end"])
        text = str(kb.by_key("documents", key)["text"])
        assert key == f"{KB_KEY}#{start}-{end}"
        assert text in contexts  # the chunk as the system retrieved it
        assert row["located"] in ("exact", "normalised", "fuzzy")
        if row["located"] == "exact":
            assert str(article["text"])[start:end] == text.strip()
        assert (row["match_score"] == 100) == (row["located"] != "fuzzy")
    header = next(r for r in passages.values() if r["located"] == "fuzzy")
    placed = str(article["text"])[int(str(header["span_start"])):int(str(header["span_end"]))]
    assert placed.startswith("Hybrid search using vectors and full-text search in Azure")
    assert placed.endswith("contributes to high-quality generative search applications")
    run = kb.by_key("runs", "azure")
    rankings = kb.run_rankings(int(run["id"]))
    (case,) = rankings
    # each chunk at its own rank: the four passages, then the article
    assert [key for key, _score in rankings[case]] == [
        f"{KB_KEY}#2197-3045", str(header["key"]), f"{KB_KEY}#1254-2138",
        f"{KB_KEY}#3051-3633", KB_KEY]
    # v0.1's `answer` is the system's answer (the run's), `ground_truth` the reference.
    answer = next(a for a in kb.export_answers() if a["run"] == "azure")
    assert answer["text"].startswith("Azure AI Search uses the Reciprocal Rank Fusion")
    assert kb.by_key("cases", case)["reference_answer"] == "Reciprocal Rank Fusion (RRF)."
    assert any("fields kept in extra: answer_relevancy, context_precision, context_recall, "
               "faithfulness" in w for w in report.warnings)  # type: ignore[attr-defined]


def test_unmatched_contexts_are_listed_and_become_documents_only_on_request(
        store: GoldSetStore, tmp_path: Path) -> None:
    from rag_annotator.domain import operations as ops

    ops.create_document(store, key="other", text="Azure Bastion is a managed PaaS service.")
    report = _import(store, "ragas", AZURE / "ragas_v01_result.csv", run="left-out")
    assert report.match_rate == 0.0  # type: ignore[attr-defined]
    assert len(report.unmatched) == 5  # type: ignore[attr-defined]
    assert any("left out of the ranking" in w for w in report.warnings)  # type: ignore
    assert store.count("documents") == 1
    report = _import(store, "ragas", AZURE / "ragas_v01_result.csv", run="kept",
                     add_unmatched=True)
    assert report.matched == {"added": 5}  # type: ignore[attr-defined]
    origins = {r["origin"] for r in _rows(store, "documents") if r["key"] != "other"}
    assert origins == {"unmatched_context"} and store.count("documents") == 6


def test_retrieved_context_ids_are_used_in_the_apps_own_ragas_export(kb: GoldSetStore,
                                                                     tmp_path: Path) -> None:
    _import(kb, "ragas", AZURE / "ragas_v02_result.jsonl", run="first")
    out = tmp_path / "out.jsonl"
    registry.exporter("ragas")(kb, out, Options(run="first"))
    line = json.loads(out.read_text(encoding="utf-8"))
    ranked = [key for key, _score in kb.run_rankings(int(kb.by_key("runs", "first")["id"]))
              .popitem()[1]]
    assert line["retrieved_context_ids"] == ranked and len(ranked) == 5  # passages, article
    report = _import(kb, "ragas", out, run="again")
    assert report.matched == {"by id": 5}  # type: ignore[attr-defined]
    assert kb.count("documents") == 5  # the same passages, none added


# -- point 5: misleading errors ---------------------------------------------------------------
def test_a_gzipped_trec_run_imports(store: GoldSetStore, tmp_path: Path) -> None:
    run = tmp_path / "results-302.test.gz"
    run.write_bytes(gzip.compress((DATA / "trec_eval" / "results-302.head8.test").read_bytes()))
    report = _import(store, "trec-run", run)
    assert report.rows == 8  # type: ignore[attr-defined]
    ranking = store.run_rankings(int(store.by_key("runs", "STANDARD")["id"]))["302"]
    assert ranking[0] == ("FR940126-2-00106", 3.903381)  # rank 1 of the file


def test_a_pretty_printed_json_given_to_a_json_lines_importer_is_told_its_format(
        store: GoldSetStore) -> None:
    goldens = DATA / "deepeval" / "goldens.json"
    with pytest.raises(ImportRejected, match=r"This looks like a 'deepeval' file .*import it "
                                             r"with format deepeval"):
        _import(store, "jsonl-run", goldens)
    assert store.count("cases") == 0


def test_a_pretty_printed_json_given_to_the_spreadsheet_importer_is_read_as_json(
        store: GoldSetStore) -> None:
    goldens = DATA / "deepeval" / "goldens.json"
    with pytest.raises(ImportRejected) as caught:
        _import(store, "cases", goldens)
    assert "(columns: {" not in str(caught.value)
    assert "import it with format deepeval" in str(caught.value)


def test_an_experts_cases_workbook_given_to_xlsx_is_told_cases(store: GoldSetStore,
                                                              tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Questions"
    sheet.append(["N°", "Question", "Réponse attendue"])
    sheet.append(["1", "Quel algorithme fusionne les résultats ?", "RRF"])
    path = tmp_path / "expert.xlsx"
    book.save(path)
    with pytest.raises(ImportRejected, match=r"none of the entity sheets.*import it with "
                                             r"format cases"):
        _import(store, "xlsx", path)


def test_the_format_is_picked_from_the_content_and_said(goldset_path: Path) -> None:
    GoldSetStore.create(goldset_path).close()
    out = run_cli("import", str(goldset_path), str(AZURE / "kb"))
    assert out.returncode == 0, out.stderr
    assert "format corpus" in out.stderr
    out = run_cli("import", str(goldset_path), str(AZURE / "ragas_v01_result.csv"))
    assert out.returncode == 0, out.stderr
    assert "format ragas" in out.stderr and "5 of 5 contexts matched" in out.stdout


# -- point 6: header guesses ------------------------------------------------------------------
def test_a_category_column_of_topics_goes_to_tags(store: GoldSetStore, tmp_path: Path) -> None:
    sheet = tmp_path / "questions.csv"
    sheet.write_text("Question;Catégorie;Réponse attendue\n"
                     "Combien de jours de congés ?;RH;25\n"
                     "Comment poser un congé ?;RH, Outils;Dans le portail\n",
                     encoding="utf-8")
    report = _import(store, "cases", sheet)
    assert report.cases == 2  # type: ignore[attr-defined]
    tags = sorted(json.loads(str(r["tags"])) for r in _rows(store, "cases"))
    assert tags == [["RH"], ["RH, Outils"]]
    assert any("'Catégorie' holds values that are not case families" in w
               for w in report.warnings)  # type: ignore[attr-defined]


def test_deepeval_goldens_as_csv(store: GoldSetStore) -> None:
    report = _import(store, "deepeval", DATA / "deepeval" / "goldens_save_as.csv")
    assert report.counts["cases"] == 3  # type: ignore[attr-defined]
    with open(DATA / "deepeval" / "goldens.json", encoding="utf-8") as handle:
        published = json.load(handle)
    questions = sorted(str(r["question"]) for r in _rows(store, "cases"))
    assert questions == sorted(g["input"] for g in published)
    contexts = sorted(str(r["text"]) for r in _rows(store, "documents"))
    assert contexts == sorted({c for g in published for c in g["context"]})


# -- point 7: no silent loss ------------------------------------------------------------------
def test_deepeval_fields_not_kept_are_listed(store: GoldSetStore) -> None:
    report = _import(store, "deepeval", DATA / "deepeval" / "goldens.json")
    assert any(w.startswith("fields kept in extra: actual_output, retrieval_context, source_file")
               for w in report.warnings)  # type: ignore[attr-defined]


def test_beir_query_metadata_not_kept_is_listed(store: GoldSetStore, tmp_path: Path) -> None:
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "title": "", "text": "x"}\n')
    # the shape of BEIR's trec-covid queries (their metadata holds query and narrative)
    (folder / "queries.jsonl").write_text(json.dumps({
        "_id": "1", "text": "what is the origin of COVID-19",
        "metadata": {"query": "coronavirus origin", "narrative": "seeking information"}}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    report = _import(store, "beir", folder)
    assert "queries.jsonl: fields kept in extra: metadata.narrative, metadata.query" in \
        report.warnings  # type: ignore[attr-defined]


def test_a_ragas_test_set_finds_its_reference_contexts_in_the_markdown_kb(
        kb: GoldSetStore, tmp_path: Path) -> None:
    """The five real chunks as a v0.2 test set's reference contexts (derived: Ragas's
    test-set names around the published chunks); persona_name is named as kept in extra."""
    chunks = _peer_contexts(AZURE / "ragas_v01_result.csv", "contexts")
    testset = tmp_path / "testset.jsonl"
    testset.write_text(json.dumps({
        "user_input": "Which algorithm merges hybrid search results?",
        "reference": "Reciprocal Rank Fusion (RRF).", "reference_contexts": chunks,
        "synthesizer_name": "single_hop_specifc_query_synthesizer",
        "persona_name": "Search engineer"}) + "\n", encoding="utf-8")
    report = _import(kb, "ragas-testset", testset)
    assert report.sources == 1  # type: ignore[attr-defined]  # the one article, once
    assert report.unmatched_sources == []  # type: ignore[attr-defined]
    assert "testset.jsonl: fields kept in extra: persona_name." in report.warnings  # type: ignore


def test_a_corpus_re_import_does_not_count_passages_as_disappeared(kb: GoldSetStore) -> None:
    """Passages are found in a corpus document by a run import, not read from the folder:
    importing the folder again leaves them out of 'disappeared'."""
    _import(kb, "ragas", AZURE / "ragas_v01_result.csv", run="azure")
    assert kb.count("documents") == 5  # the article and four passages
    report = _import(kb, "corpus", AZURE / "kb")
    assert report.disappeared == []  # type: ignore[attr-defined]
    assert kb.count("documents") == 5
