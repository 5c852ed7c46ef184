"""Runs as JSON Lines (this app's shape and Ragas's): matching, placeholders, refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.errors import Conflict
from rag_annotator.import_export import runs_jsonl
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import dump, full_dump, run_cli


def _write(tmp_path: Path, name: str, lines: list[Any] | str) -> Path:
    path = tmp_path / name
    text = lines if isinstance(lines, str) else "".join(json.dumps(o) + "\n" for o in lines)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def corpus(store: GoldSetStore) -> GoldSetStore:
    ops.create_document(store, key="D1", text="Paris is the capital of France.")
    ops.create_document(store, key="D2", text="Berlin  is the capital of Germany.")
    ops.create_case(store, key="Q1", question="What is the capital of France?")
    return store


def test_native_run_with_scores_answer_and_citations(corpus: GoldSetStore,
                                                     tmp_path: Path) -> None:
    path = _write(tmp_path, "sys.jsonl", [
        {"case": "Q1", "retrieved": [{"document": "D2", "score": 0.9},
                                     {"document": "D1", "score": 0.5}],
         "answer": "Paris [1].", "citations": [{"marker": "[1]", "document": "D1"}]},
        {"case": "Q9", "retrieved": ["D1", "D7"]},
    ])
    report = runs_jsonl.import_jsonl_run(corpus, path)
    assert report.name == "sys" and report.new_cases == ["Q9"] and report.new_documents == ["D7"]
    run = corpus.by_key("runs", "sys")
    assert corpus.run_rankings(run["id"]) == {"Q1": [("D2", 0.9), ("D1", 0.5)],
                                              "Q9": [("D1", None), ("D7", None)]}
    assert corpus.query("SELECT a.text, c.marker, d.key FROM answers a JOIN citations c "
                        "ON c.answer_id = a.id JOIN documents d ON d.id = c.document_id") == [
        {"text": "Paris [1].", "marker": "[1]", "key": "D1"}]


def test_native_import_is_undoable(corpus: GoldSetStore, goldset_path: Path,
                                   tmp_path: Path) -> None:
    before = dump(goldset_path)
    runs_jsonl.import_jsonl_run(corpus, _write(tmp_path, "r.jsonl", [
        {"case": "Q1", "retrieved": ["D1"], "answer": "x",
         "citations": [{"marker": "1", "document": "D1"}]}]))
    corpus.revert(corpus.operation_ids()[0])
    assert dump(goldset_path) == before


def test_native_strict_refuses_unknown_ids(corpus: GoldSetStore, goldset_path: Path,
                                           tmp_path: Path) -> None:
    path = _write(tmp_path, "r.jsonl", [{"case": "Q1", "retrieved": ["D1"]},
                                        {"case": "Q1b", "retrieved": ["D1"]}])
    before = full_dump(goldset_path)
    with pytest.raises(ImportRejected, match=r"r\.jsonl:2: unknown case id 'Q1b'"):
        runs_jsonl.import_jsonl_run(corpus, path, strict=True)
    assert full_dump(goldset_path) == before


def test_contexts_match_exactly_then_normalised_else_new_document(corpus: GoldSetStore,
                                                                  tmp_path: Path) -> None:
    path = _write(tmp_path, "r.jsonl", [{"case": "Q1", "contexts": [
        "Paris is the capital of France.",          # exact: D1
        "BERLIN is the capital\nof Germany.",       # normalised: D2
        "Madrid is the capital of Spain."]}])       # no match: new document
    report = runs_jsonl.import_jsonl_run(corpus, path)
    ranking = [d for d, _s in corpus.run_rankings(corpus.by_key("runs", "r")["id"])["Q1"]]
    assert ranking[:2] == ["D1", "D2"] and ranking[2].startswith("ctx-")
    assert corpus.by_key("documents", ranking[2])["origin"] == "unmatched_context"
    assert any("unmatched_context" in w for w in report.warnings)


def test_ragas_matches_questions_and_contexts(corpus: GoldSetStore, tmp_path: Path) -> None:
    path = _write(tmp_path, "ragas.jsonl", [
        {"user_input": "what is the capital of  FRANCE?",
         "retrieved_contexts": ["Paris is the capital of France."],
         "response": "Paris.", "reference": "Paris", "extra": 1},
        {"user_input": "Capital of Italy?", "retrieved_contexts": ["Rome is in Italy."],
         "response": "Rome.", "reference": "Rome"},
    ])
    report = runs_jsonl.import_ragas(corpus, path, name="rag-v1")
    assert len(report.new_cases) == 1 and report.new_cases[0].startswith("ragas-")
    placeholder = corpus.by_key("cases", report.new_cases[0])
    assert placeholder["question"] == "Capital of Italy?"
    assert placeholder["reference_answer"] == "Rome"
    rankings = corpus.run_rankings(corpus.by_key("runs", "rag-v1")["id"])
    assert rankings["Q1"] == [("D1", None)]
    assert any("fields kept in extra: extra" in w for w in report.warnings)
    assert corpus.count("answers") == 2


@pytest.mark.parametrize(("text", "message"), [
    ('{"case": "Q1"}\n{"case": \n', r"r\.jsonl:2: not valid JSON"),
    ('{"retrieved": ["D1"]}\n', r"r\.jsonl:1: the field 'case' is missing"),
    ('[1, 2]\n', r"r\.jsonl:1: expected one JSON object"),
    ('{"case": "Q1", "retrieved": [{"document": "D1", "score": NaN}]}\n',
     r"r\.jsonl:1: not valid JSON \(NaN is not a number JSON allows"),
    ('{"case": "Q1", "retrieved": [{"document": "D1", "score": "high"}]}\n',
     r"r\.jsonl:1: retrieved item 1: the score must be a finite number"),
    ('{"case": "Q1", "retrieved": ["D1", "D2", "D1"]}\n',
     r"r\.jsonl:1: retrieved item 3 is document D1 again \(retrieved item 1\)"),
    ('{"case": "Q1", "contexts": ["Paris is the capital of France.", '
     '"paris is the capital of france."]}\n', r"r\.jsonl:1: context 2 is document D1 again"),
    ('{"case": "Q1"}\n\n{"case": "Q1"}\n', r"r\.jsonl:3: case Q1 already has a line \(line 1\)"),
    ('{"case": "Q1", "case": "Q2"}\n', r"r\.jsonl:1: not valid JSON \(the key 'case' appears"),
    ('{"case": "Q1", "answer_text": "x"}\n', r"r\.jsonl:1: unknown field 'answer_text'"),
    ('{"case": "Q1", "retrieved": ["D1"], "contexts": ["x"]}\n', r"not both"),
    ('{"case": "Q1", "citations": [{"marker": "1", "document": "D1"}]}\n',
     r"citations need an 'answer'"),
    ("", r"r\.jsonl: the file holds no JSON lines"),
])
def test_bad_inputs_are_refused_and_change_nothing(corpus: GoldSetStore, goldset_path: Path,
                                                   tmp_path: Path, text: str,
                                                   message: str) -> None:
    before = full_dump(goldset_path)
    with pytest.raises(ImportRejected, match=message):
        runs_jsonl.import_jsonl_run(corpus, _write(tmp_path, "r.jsonl", text))
    assert full_dump(goldset_path) == before


def test_ragas_refusals(corpus: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    before = full_dump(goldset_path)
    with pytest.raises(ImportRejected, match=r"ragas\.jsonl:2: the sample has no "
                                             "question"):
        runs_jsonl.import_ragas(corpus, _write(tmp_path, "ragas.jsonl", [
            {"user_input": "a?"}, {"response": "b"}]))
    with pytest.raises(ImportRejected, match=r"ragas\.jsonl:2: case ragas-\w+ already has a "
                                             r"line \(line 1\)"):
        runs_jsonl.import_ragas(corpus, _write(tmp_path, "ragas.jsonl", [
            {"user_input": "New question?"}, {"user_input": "new  question?"}]))
    assert full_dump(goldset_path) == before


def test_existing_run_name_is_refused(corpus: GoldSetStore, tmp_path: Path) -> None:
    path = _write(tmp_path, "r.jsonl", [{"case": "Q1", "retrieved": ["D1"]}])
    runs_jsonl.import_jsonl_run(corpus, path)
    with pytest.raises(Conflict, match="already exists"):
        runs_jsonl.import_jsonl_run(corpus, path)


def test_cli_formats(goldset_path: Path, tmp_path: Path) -> None:
    GoldSetStore.create(goldset_path).close()
    native = _write(tmp_path, "n.jsonl", [{"case": "Q1", "retrieved": ["D1"]}])
    ragas = _write(tmp_path, "g.jsonl", [{"user_input": "Why?", "retrieved_contexts": ["T"]}])
    out = run_cli("import", str(goldset_path), "jsonl-run", str(native))
    assert out.returncode == 0, out.stderr
    out = run_cli("import", str(goldset_path), "ragas", str(ragas), "--run", "rg",
                  "--add-unmatched")
    assert out.returncode == 0, out.stderr
    assert "unmatched_context" in out.stderr


def test_ragas_never_matches_an_agent_case_by_its_request(corpus: GoldSetStore,
                                                         tmp_path: Path) -> None:
    """An agent case's request is not a RAG question: a Ragas row with the same text gets
    its own placeholder case, and the agent case gets no retrieved list."""
    from rag_annotator.domain import operations as ops

    ops.create_case(corpus, key="A01", kind="agent", question="Capital of Italy?")
    path = _write(tmp_path, "ragas.jsonl", [
        {"user_input": "Capital of Italy?", "retrieved_contexts": ["Rome is in Italy."],
         "response": "Rome.", "reference": "Rome"}])
    report = runs_jsonl.import_ragas(corpus, path, name="rag-v1")
    assert len(report.new_cases) == 1 and report.new_cases[0].startswith("ragas-")
    rankings = corpus.run_rankings(corpus.by_key("runs", "rag-v1")["id"])
    assert "A01" not in rankings


@pytest.mark.parametrize("name", ["deep.jsonl"])
def test_deeply_nested_json_is_refused_with_its_line(corpus: GoldSetStore, tmp_path: Path,
                                                     name: str) -> None:
    """Python's JSON reader recurses: a line nested 100,000 deep must be a clear error
    naming the line, not a crash."""
    path = tmp_path / name
    path.write_text('{"case": "Q1"}\n' + "[" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(ImportRejected, match=r"deep\.jsonl:2: .*nested too deeply"):
        runs_jsonl.import_jsonl_run(corpus, path, name="deep")
    assert corpus.count("runs") == 0
