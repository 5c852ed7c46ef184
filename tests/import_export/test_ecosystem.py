"""Exports the ecosystem's tools read unchanged; BEIR and DeepEval imports.

Real tools where they install in the test environment: ir_measures, pytrec_eval and ranx
(qrels and runs).  BEIR (pulls torch), Ragas (0.4.3 fails to import with
langchain-community 0.4), RAGChecker (torch, and fetches a price list on import) and
DeepEval (pytest plugins, telemetry) are used when present (``importorskip``); their
documented shapes (research/ecosystem.md §3–§4) are asserted in every case.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import ir_measures
import pytest
import pytrec_eval

from rag_annotator.errors import KnownError
from rag_annotator.import_export import ecosystem, registry, runs_jsonl, trec_files
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich

RUN = "bm25-gpt4o-v1"


@pytest.fixture
def sample(tmp_path: Path) -> GoldSetStore:
    with create_sample(tmp_path / "sample.goldset") as store:
        yield store


def _qrels_and_run(store: GoldSetStore, tmp_path: Path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "s.qrels.txt", tmp_path / "s.run.txt"
    trec_files.export_qrels(store, qrels)
    trec_files.export_run(store, RUN, run)
    return qrels, run


def _expected_labels(store: GoldSetStore) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for case, doc, grade, disputed in store.effective_labels():
        if grade is not None and not disputed:
            out.setdefault(case, {})[doc] = grade
    return out


def _expected_ranking(store: GoldSetStore) -> dict[str, list[str]]:
    run_id = int(store.by_key("runs", RUN)["id"])
    return {case: [d for d, _s in docs] for case, docs in store.run_rankings(run_id).items()}


# -- TREC files in the real libraries ------------------------------------------------------
def test_ir_measures_reads_qrels_and_run_unchanged(sample: GoldSetStore,
                                                   tmp_path: Path) -> None:
    qrels, run = _qrels_and_run(sample, tmp_path)
    read: dict[str, dict[str, int]] = {}
    for q in ir_measures.read_trec_qrels(str(qrels)):
        read.setdefault(q.query_id, {})[q.doc_id] = q.relevance
    assert read == _expected_labels(sample)
    ranked: dict[str, list[tuple[float, str]]] = {}
    for r in ir_measures.read_trec_run(str(run)):
        ranked.setdefault(r.query_id, []).append((r.score, r.doc_id))
    assert {q: [d for _s, d in sorted(v, reverse=True)] for q, v in ranked.items()} == \
        _expected_ranking(sample)
    result = ir_measures.calc_aggregate([ir_measures.P @ 5], ir_measures.read_trec_qrels(
        str(qrels)), ir_measures.read_trec_run(str(run)))
    assert 0 <= result[ir_measures.P @ 5] <= 1


def test_pytrec_eval_reads_qrels_and_run_unchanged(sample: GoldSetStore,
                                                   tmp_path: Path) -> None:
    qrels, run = _qrels_and_run(sample, tmp_path)
    with open(qrels) as handle:
        parsed_qrels = pytrec_eval.parse_qrel(handle)
    with open(run) as handle:
        parsed_run = pytrec_eval.parse_run(handle)
    assert parsed_qrels == _expected_labels(sample)
    assert {q: [d for d, _s in sorted(v.items(), key=lambda x: -x[1])]
            for q, v in parsed_run.items()} == _expected_ranking(sample)
    scores = pytrec_eval.RelevanceEvaluator(parsed_qrels, {"P_5"}).evaluate(parsed_run)
    assert scores and all(0 <= s["P_5"] <= 1 for s in scores.values())


def test_ranx_reads_qrels_and_run_unchanged(sample: GoldSetStore, tmp_path: Path) -> None:
    ranx = pytest.importorskip("ranx")
    qrels, run = _qrels_and_run(sample, tmp_path)
    read_qrels = ranx.Qrels.from_file(str(qrels), kind="trec").to_dict()
    assert read_qrels == _expected_labels(sample)
    read_run = ranx.Run.from_file(str(run), kind="trec")
    assert read_run.name == RUN
    assert {q: [d for d, _s in sorted(v.items(), key=lambda x: -x[1])]
            for q, v in read_run.to_dict().items()} == _expected_ranking(sample)


# -- BEIR ------------------------------------------------------------------------------------
def test_beir_folder_shape_and_loader(sample: GoldSetStore, tmp_path: Path) -> None:
    report = ecosystem.export_beir(sample, tmp_path / "beir", Options())
    folder = tmp_path / "beir"
    for name in ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv"):
        assert not (folder / name).read_bytes().startswith(b"\xef\xbb\xbf")
    lines = (folder / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "query-id\tcorpus-id\tscore"
    corpus = [json.loads(x) for x in (folder / "corpus.jsonl").read_text("utf-8").splitlines()]
    assert all(isinstance(d["_id"], str) and {"title", "text"} <= set(d) for d in corpus)
    queries = {json.loads(x)["_id"]
               for x in (folder / "queries.jsonl").read_text("utf-8").splitlines()}
    assert {row.split("\t")[0] for row in lines[1:]} <= queries
    assert report.counts["qrels"] == len(lines) - 1 == sum(
        len(v) for v in _expected_labels(sample).values())
    loader = pytest.importorskip("beir.datasets.data_loader")
    corpus_b, queries_b, qrels_b = loader.GenericDataLoader(str(folder)).load(split="test")
    assert qrels_b == _expected_labels(sample)
    assert set(corpus_b) == {d["_id"] for d in corpus}
    assert all(queries_b[q] for q in qrels_b)


def test_beir_round_trip_through_the_import(sample: GoldSetStore, tmp_path: Path) -> None:
    ecosystem.export_beir(sample, tmp_path / "beir", Options())
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        report = ecosystem.import_beir(other, tmp_path / "beir", Options(assessor="expert"))
        assert report.counts["documents"] == sample.count("documents")
        assert _expected_labels(other) == _expected_labels(sample)
        assert other.query("SELECT key, question FROM cases ORDER BY key") == sample.query(
            "SELECT key, question FROM cases WHERE kind = 'rag' ORDER BY key")
        assert {r["name"] for r in other.query("SELECT name FROM assessors")} == {"expert"}
        # Importing again changes nothing and keeps what is there.
        again = ecosystem.import_beir(other, tmp_path / "beir", Options(assessor="expert"))
        assert again.counts["documents"] == again.counts["judgments"] == 0


@pytest.mark.parametrize(("file", "text", "message"), [
    ("qrels/test.tsv", "q1\td1\t1\n", r"test\.tsv:1: the first line must be the header"),
    ("qrels/test.tsv", "query-id\tcorpus-id\tscore\nq1\td9\t1\n",
     r"test\.tsv:2: document d9 is not in corpus\.jsonl"),
    ("qrels/test.tsv", "query-id\tcorpus-id\tscore\nq1\td1\thigh\n",
     r"test\.tsv:2: the score 'high' is not an integer"),
    ("corpus.jsonl", '{"_id": "d1", "text": "a"}\n{"_id": "d1", "text": "b"}\n',
     r"corpus\.jsonl:2: document d1 appears twice"),
    ("queries.jsonl", '{"_id": "q1", "text": "a"}\n[1]\n',
     r"queries\.jsonl:2: expected one JSON object"),
])
def test_bad_beir_folders_name_file_and_line(tmp_path: Path, store: GoldSetStore, file: str,
                                             text: str, message: str) -> None:
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "title": "", "text": "x"}\n')
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "Q?"}\n')
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    (folder / file).write_text(text, encoding="utf-8")
    with pytest.raises(ImportRejected, match=message):
        ecosystem.import_beir(store, folder, Options())
    assert store.count("documents") == store.count("judgments") == 0


# -- Ragas -------------------------------------------------------------------------------------
RAGAS_FIELDS = {"user_input", "retrieved_contexts", "reference_contexts",
                "retrieved_context_ids", "reference_context_ids", "response",
                "multi_responses", "reference", "rubrics"}


def test_ragas_jsonl_shape_and_our_import_reads_it(sample: GoldSetStore,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "s.ragas.jsonl"
    report = ecosystem.export_ragas(sample, path, Options(run=RUN))
    raw = path.read_bytes()
    assert raw.isascii()  # Ragas opens files in the platform's encoding
    rows = [json.loads(x) for x in raw.decode().splitlines()]
    assert len(rows) == report.counts["cases"] == len(sample.metric_inputs(RUN)) + sum(
        1 for r in sample.query("SELECT status FROM cases") if r["status"] == "retired")
    for row in rows:
        assert set(row) <= RAGAS_FIELDS
        assert isinstance(row["user_input"], str)
        assert all(isinstance(c, str) for c in row["retrieved_contexts"])
        assert len(row["retrieved_contexts"]) == len(row["retrieved_context_ids"])
    imported = runs_jsonl.import_ragas(sample, path, name="reimported")
    assert imported.cases == len(rows) and not imported.new_cases
    again = sample.run_rankings(int(sample.by_key("runs", "reimported")["id"]))
    assert {c: [d for d, _s in v] for c, v in again.items()} == _expected_ranking(sample)
    ragas = pytest.importorskip("ragas")
    dataset = ragas.EvaluationDataset.from_jsonl(str(path))
    assert len(dataset) == len(rows)


def test_ragas_needs_a_run(sample: GoldSetStore, tmp_path: Path) -> None:
    with pytest.raises(KnownError, match="--run NAME"):
        ecosystem.export_ragas(sample, tmp_path / "x.jsonl", Options())


# -- RAGChecker --------------------------------------------------------------------------------
def test_ragchecker_shape_with_verdicts(tmp_path: Path, store: GoldSetStore) -> None:
    build_rich(store)  # bm25/Q1: two claims, supported (evidence D1) and contradicted
    report = ecosystem.export_ragchecker(store, tmp_path / "rc.json", Options(run="bm25"))
    raw = (tmp_path / "rc.json").read_bytes()
    assert raw.isascii()
    data = json.loads(raw)
    assert set(data) == {"results"} and "metrics" not in raw.decode()
    by_id = {r["query_id"]: r for r in data["results"]}
    for result in data["results"]:
        for name in ("query_id", "query", "gt_answer", "response"):
            assert isinstance(result[name], str)
        assert all(set(c) == {"doc_id", "text"} for c in result["retrieved_context"])
    q1 = by_id["Q1"]
    assert q1["response_claims"] == [["La réponse est oui"], ["Elle vaut 42"]]
    docs = [c["doc_id"] for c in q1["retrieved_context"]]
    assert q1["retrieved2response"][0] == ["Entailment" if d == "D1" else "Neutral"
                                           for d in docs]
    assert q1["retrieved2response"][1] == ["Contradiction" if d == "D1" else "Neutral"
                                           for d in docs]  # cited D1, no evidence span
    assert "response_claims" not in by_id["Q2"]
    assert report.counts["results"] == 2
    container = pytest.importorskip("ragchecker.container")
    assert len(container.RAGResults.from_json(raw.decode()).results) == 2


# -- DeepEval ----------------------------------------------------------------------------------
def test_deepeval_goldens_shape_and_round_trip(sample: GoldSetStore, tmp_path: Path) -> None:
    path = tmp_path / "s.deepeval.json"
    ecosystem.export_deepeval(sample, path, Options(run=RUN))
    goldens: list[dict[str, Any]] = json.loads(path.read_text("utf-8"))
    rag_cases = sum(1 for kind in sample.case_kinds().values() if kind == "rag")
    assert isinstance(goldens, list) and len(goldens) == rag_cases
    for golden in goldens:
        assert isinstance(golden["input"], str)
        assert all(isinstance(c, str) for c in golden["context"])
    answered = [g for g in goldens if g.get("actual_output")]
    assert answered and all(g["retrieval_context"] for g in answered)
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        ecosystem.import_deepeval(other, path, Options())
        columns = "key, question, reference_answer, family, tags, expected_behaviour"
        assert other.query(f"SELECT {columns} FROM cases ORDER BY key") == sample.query(
            f"SELECT {columns} FROM cases WHERE kind = 'rag' ORDER BY key")
        sources = other.query("SELECT count(*) AS n FROM expected_sources")[0]["n"]
        assert sources == sum(len(g["context"]) for g in goldens)
    deepeval = pytest.importorskip("deepeval.dataset")
    dataset = deepeval.EvaluationDataset()
    dataset.add_goldens_from_json_file(str(path))
    assert len(dataset.goldens) == len(goldens)


@pytest.mark.parametrize(("text", "message"), [
    ("", "expected a JSON array"),
    ('[{"expected_output": "a"}]', r"golden 1: 'input' \(the question\) is missing"),
    ('[{"input": "a", "name": "K"}, {"input": "b", "name": "K"}]', "golden 2: case 'K' is "
                                                                 "also golden 1"),
    ('[{"input": "a", "additional_metadata": {"family": "weird"}}]', "golden 1: family"),
    ("[1,", r"s\.json:1: not valid JSON"),
])
def test_bad_deepeval_files(tmp_path: Path, store: GoldSetStore, text: str,
                            message: str) -> None:
    (tmp_path / "s.json").write_text(text, encoding="utf-8")
    with pytest.raises(ImportRejected, match=message):
        ecosystem.import_deepeval(store, tmp_path / "s.json", Options())
    assert store.count("cases") == 0


def test_registry_names_the_ecosystem_formats() -> None:
    for name in ("beir", "ragas", "ragchecker", "deepeval"):
        assert registry.exporter(name).__module__.endswith("ecosystem")
    assert inspect.unwrap(registry.importer("beir")) is ecosystem.import_beir
    assert inspect.unwrap(registry.importer("deepeval")) is ecosystem.import_deepeval


def test_beir_refuses_ids_a_tsv_cannot_hold(tmp_path: Path, store: GoldSetStore) -> None:
    from rag_annotator.domain import judging_ops
    from rag_annotator.domain import operations as ops

    ops.create_case(store, key="a\tb", question="q")
    ops.create_document(store, key="d1", text="t")
    judging_ops.set_judgment(store, 1, 1, 1)
    out = tmp_path / "exports"
    out.mkdir()
    with pytest.raises(KnownError, match="tab or a line break"):
        ecosystem.export_beir(store, out / "beir", Options())
    assert list(out.iterdir()) == []  # the folder appears whole or not at all


def test_hostile_texts_survive_beir_and_deepeval(tmp_path: Path, store: GoldSetStore) -> None:
    from tests.import_export.populate import HOSTILE, populate

    populate(store, HOSTILE, long_passage=True)
    ecosystem.export_beir(store, tmp_path / "beir", Options())
    ecosystem.export_deepeval(store, tmp_path / "d.json", Options())
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        ecosystem.import_beir(other, tmp_path / "beir", Options(assessor="x"))
        assert other.query("SELECT key, title, text FROM documents ORDER BY key") == \
            store.query("SELECT key, title, text FROM documents ORDER BY key")
        assert _expected_labels(other) == _expected_labels(store)
    with GoldSetStore.create(tmp_path / "c.goldset") as other:
        ecosystem.import_deepeval(other, tmp_path / "d.json", Options())
        columns = "key, question, reference_answer, family, tags"
        assert other.query(f"SELECT {columns} FROM cases ORDER BY key") == store.query(
            f"SELECT {columns} FROM cases WHERE kind = 'rag' ORDER BY key")
    loader = pytest.importorskip("beir.datasets.data_loader")
    corpus, _queries, qrels = loader.GenericDataLoader(str(tmp_path / "beir")).load("test")
    assert qrels == _expected_labels(store)
    assert {k: v["text"] for k, v in corpus.items()} == {
        r["key"]: r["text"] for r in store.query("SELECT key, text FROM documents")}


def test_deepeval_errors_stay_on_one_line(tmp_path: Path, store: GoldSetStore) -> None:
    (tmp_path / "g.json").write_text(json.dumps(
        [{"input": "q", "additional_metadata": {"family": "a\nb"}}]), encoding="utf-8")
    with pytest.raises(ImportRejected) as caught:
        ecosystem.import_deepeval(store, tmp_path / "g.json", Options())
    assert "\n" not in str(caught.value) and "a\\nb" in str(caught.value)


def test_agent_cases_are_never_rag_questions_in_ecosystem_files(tmp_path: Path,
                                                                store: GoldSetStore) -> None:
    """Agent cases (issue 9) carry no retrieval or answer: no export lists them, even when
    a TREC run once named one (a retrieved row and a judgment on it)."""
    from tests.metrics.agent_seed import build_agents

    rich = build_rich(store)
    build_agents(store, run="bm25")
    agent = store.case_id_of("A01")
    with store.operation("test_load", "leak") as op:
        op.insert("retrieved", {"run_id": rich.runs["bm25"], "case_id": agent,
                                "document_id": rich.docs["D1"], "rank": 1, "score": 1.0})
        alice = op.select("assessors", name="alice")[0]["id"]
        op.insert("judgments", {"case_id": agent, "document_id": rich.docs["D1"],
                                "assessor_id": alice, "grade": 1, "note": "",
                                "updated_at": "2026-01-01T00:00:00Z"})
    agents = {"A01", "A02", "A03", "A04", "S05", "R06"}
    ecosystem.export_beir(store, tmp_path / "beir", Options())
    ecosystem.export_ragas(store, tmp_path / "r.jsonl", Options(run="bm25"))
    ecosystem.export_ragchecker(store, tmp_path / "rc.json", Options(run="bm25"))
    ecosystem.export_deepeval(store, tmp_path / "d.json", Options(run="bm25"))
    trec_files.export_qrels(store, tmp_path / "q.txt")
    trec_files.export_run(store, "bm25", tmp_path / "run.txt")
    queries = [json.loads(x)["_id"] for x in
               (tmp_path / "beir" / "queries.jsonl").read_text().splitlines()]
    assert queries == ["Q1", "Q2", "Q3"]
    qrels = (tmp_path / "beir" / "qrels" / "test.tsv").read_text()
    ragas = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    ragchecker = json.loads((tmp_path / "rc.json").read_text())["results"]
    deepeval = json.loads((tmp_path / "d.json").read_text())
    assert {g["additional_metadata"]["case"] for g in deepeval} <= {"Q1", "Q2", "Q3"}
    assert {r["query_id"] for r in ragchecker} <= {"Q1", "Q2", "Q3"}
    assert len(ragas) == len(ragchecker)
    for text in (qrels, (tmp_path / "q.txt").read_text(), (tmp_path / "run.txt").read_text()):
        assert not {line.split()[0] for line in text.splitlines()[1:]} & agents
    assert "A01" in store.case_kinds()  # the leak was real: the rows are there


@pytest.mark.parametrize("fmt", ["ragas", "ragchecker"])
def test_an_agent_run_is_refused_by_the_rag_run_exports(fmt: str, tmp_path: Path) -> None:
    from rag_annotator.errors import KnownError
    from rag_annotator.import_export import registry
    from rag_annotator.import_export.sample import create_sample

    with create_sample(tmp_path / "s.goldset") as store:
        dest = tmp_path / f"out.{fmt}"
        with pytest.raises(KnownError, match="holds agent trajectories"):
            registry.exporter(fmt)(store, dest, registry.Options(run="agent-support-v1"))
        assert not dest.exists()
