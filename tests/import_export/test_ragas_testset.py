"""Ragas test sets (v0.1 and v0.2+ field names) into the review queue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.errors import KnownError
from rag_annotator.import_export.ragas_testset import import_testset, similarity, words
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump, rows, run_cli


def jsonl(path: Path, items: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items),
                    encoding="utf-8")
    return path


@pytest.fixture
def corpus(store: GoldSetStore) -> GoldSetStore:
    ops.create_document(store, key="D1", text="Les congés payés sont de 25 jours ouvrés.")
    ops.create_case(store, key="Q01", question="Combien de jours de congés payés par an ?")
    return store


def queue(path: Path) -> list[tuple[object, ...]]:
    return rows(path, "SELECT c.key, c.question, c.reference_answer, c.status, r.decision, "
                      "r.origin, n.key FROM case_reviews r JOIN cases c ON c.id = r.case_id "
                      "LEFT JOIN cases n ON n.id = r.near_duplicate_of ORDER BY c.key")


def test_v02_fields(corpus: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    source = jsonl(tmp_path / "testset.jsonl", [
        {"user_input": "Combien de jours de congés payés par an ?", "reference": "25 jours",
         "reference_contexts": ["les congés payés sont de 25 jours  ouvrés."],
         "synthesizer_name": "single_hop_specific_query_synthesizer"},
        {"user_input": "Qui valide les congés ?", "reference": "Le manager",
         "reference_contexts": ["Texte absent du corpus."], "persona_name": "RH"},
    ])
    report = import_testset(corpus, source, Options())
    assert queue(goldset_path) == [
        ("GEN001", "Combien de jours de congés payés par an ?", "25 jours", "draft", "pending",
         "Ragas v0.2+: single_hop_specific_query_synthesizer", "Q01"),
        ("GEN002", "Qui valide les congés ?", "Le manager", "draft", "pending",
         "Ragas v0.2+", None)]
    assert report.near_duplicates == ["GEN001"] and report.sources == 1
    assert rows(goldset_path, "SELECT notes FROM cases WHERE key = 'GEN002'") == [
        ("Reference contexts (not found in the corpus):\nTexte absent du corpus.",)]
    assert report.warnings == ["testset.jsonl: fields kept in extra: persona_name."]  # issue 18
    store = corpus
    assert report.changes is not None and report.changes.operation_id
    store.revert(report.changes.operation_id)
    assert queue(goldset_path) == []


def test_v01_fields_and_unknown_fields(corpus: GoldSetStore, goldset_path: Path,
                                       tmp_path: Path) -> None:
    source = jsonl(tmp_path / "v01.jsonl", [
        {"question": "Puis-je reporter mes congés ?", "ground_truth": "Oui, 5 jours",
         "contexts": ["Les congés payés sont de 25 jours ouvrés."], "evolution_type": "simple",
         "metadata": [{}], "episode_done": True, "mystery": 1, "score_v9": 0.5},
        {"question": "Puis-je reporter mes congés payés ?", "ground_truth": "Oui",
         "contexts": [], "evolution_type": "reasoning"},
    ])
    report = import_testset(corpus, source, Options())
    assert report.version == "Ragas v0.1"
    assert report.unknown_fields == ["mystery", "score_v9"]
    assert "mystery, score_v9" in report.warnings[0]
    result = queue(goldset_path)
    assert [r[0] for r in result] == ["GEN001", "GEN002"]
    assert result[0][5] == "Ragas v0.1: simple"
    assert result[1][6] == "GEN001"  # near-duplicate of the sample before it


def test_csv_from_pandas_with_python_lists(corpus: GoldSetStore, goldset_path: Path,
                                           tmp_path: Path) -> None:
    source = tmp_path / "testset.csv"
    source.write_text(
        "user_input,reference_contexts,reference,synthesizer_name\n"
        "\"Quel délai ?\",\"['Les congés payés sont de 25 jours ouvrés.']\",\"Un mois\","
        "multi_hop\n", encoding="utf-8")
    report = import_testset(corpus, source, Options())
    assert report.sources == 1
    assert rows(goldset_path, "SELECT d.key FROM expected_sources e JOIN documents d ON "
                              "d.id = e.document_id JOIN cases c ON c.id = e.case_id WHERE "
                              "c.key = 'GEN001'") == [("D1",)]


def test_bad_testsets_change_nothing(corpus: GoldSetStore, goldset_path: Path,
                                     tmp_path: Path) -> None:
    before = full_dump(goldset_path)
    cases = [
        (jsonl(tmp_path / "a.jsonl", [{"user_input": "Une ?"}, {"user_input": ""}]),
         ":2: the sample has no question"),
        (jsonl(tmp_path / "b.jsonl", [{"prompt": "Une ?"}]), "no Ragas question field"),
        (tmp_path / "missing.jsonl", "no such file"),
    ]
    for source, match in cases:
        with pytest.raises(KnownError, match=match):
            import_testset(corpus, source, Options())
    assert full_dump(goldset_path) == before


def test_similarity() -> None:
    a = words("Combien de jours de congés ?")
    assert similarity(a, words("combien de JOURS de congés")) == 1.0
    assert similarity(a, words("Qui signe le contrat ?")) == 0.0
    assert similarity(frozenset(), frozenset()) == 0.0


def test_testset_through_the_cli(corpus: GoldSetStore, goldset_path: Path,
                                 tmp_path: Path) -> None:
    corpus.close()
    source = jsonl(tmp_path / "t.jsonl", [{"user_input": "Une ?", "foo": 1}])
    result = run_cli("import", str(goldset_path), "ragas-testset", str(source))
    assert result.returncode == 0, result.stderr
    assert "1 generated cases (Ragas v0.2+) added to the review queue" in result.stdout
    assert "warning:" in result.stderr and "foo" in result.stderr


def test_testset_samples_json(corpus: GoldSetStore, goldset_path: Path,
                              tmp_path: Path) -> None:
    source = tmp_path / "testset.json"
    source.write_text(json.dumps({"samples": [
        {"eval_sample": {"user_input": "Qui signe ?", "reference": "Le DRH",
                         "reference_contexts": []},
         "synthesizer_name": "single_hop"}]}, ensure_ascii=False), encoding="utf-8")
    report = import_testset(corpus, source, Options())
    assert report.cases == 1
    assert queue(goldset_path)[0][5] == "Ragas v0.2+: single_hop"
