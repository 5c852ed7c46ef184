"""Issue 18, point 7: the fields an import has no column for are kept in ``extra`` and come
back out — through the native JSON, CSV and XLSX — in the format they came from.

The peers are the real files in ``tests/data`` (a Ragas v0.2 result, DeepEval's goldens):
what comes back is compared with what the file says, read here with ``json`` alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import schema_up_to

DATA = Path(__file__).resolve().parent.parent / "data"
AZURE = DATA / "ragas_azure_docs"
#: The fields Ragas's test-set generator (v0.2+) writes beside the sample.
PERSONA = {"persona_name": "Search engineer", "query_style": "PERFECT_GRAMMAR",
           "query_length": "MEDIUM"}


def _run(fmt: str, store: GoldSetStore, path: Path, *, export: bool, **options: Any) -> Any:
    if export:
        return registry.exporter(fmt)(store, path, Options(**options))
    return registry.importer(fmt)(store, path, Options(**options))


def _through_native(store: GoldSetStore, tmp_path: Path) -> GoldSetStore:
    """The gold set through the native JSON into a new file; its own re-export is equal."""
    _run("json", store, tmp_path / "a.json", export=True)
    other = GoldSetStore.create(tmp_path / "b.goldset", assessor="bob")
    _run("json", other, tmp_path / "a.json", export=False)
    _run("json", other, tmp_path / "b.json", export=True)
    assert (tmp_path / "b.json").read_bytes() == (tmp_path / "a.json").read_bytes()
    return other


def test_ragas_test_set_and_result_fields_come_back_through_the_native_json(
        store: GoldSetStore, tmp_path: Path) -> None:
    published = json.loads((AZURE / "ragas_v02_result.jsonl").read_text(encoding="utf-8")
                           .splitlines()[0])
    _run("corpus", store, AZURE / "kb", export=False)
    testset = tmp_path / "testset.jsonl"
    testset.write_text(json.dumps({
        "user_input": published["user_input"], "reference": published["reference"],
        "reference_contexts": published["retrieved_contexts"][:1],
        "synthesizer_name": "single_hop_specifc_query_synthesizer", **PERSONA}) + "\n",
        encoding="utf-8")
    report = _run("ragas-testset", store, testset, export=False)
    assert report.warnings == [
        "testset.jsonl: fields kept in extra: persona_name, query_length, query_style."]
    report = _run("ragas", store, AZURE / "ragas_v02_result.jsonl", export=False, run="azure")
    metrics = {k: published[k] for k in ("faithfulness", "answer_relevancy",
                                         "context_precision", "context_recall")}
    assert report.new_cases == []  # the result's question is the test set's case
    assert "fields kept in extra: " + ", ".join(sorted(metrics)) in report.warnings
    other = _through_native(store, tmp_path)
    try:
        assert [json.loads(r["extra"]) for r in other.query("SELECT extra FROM cases")] == [
            PERSONA]
        _run("ragas", other, tmp_path / "out.jsonl", export=True, run="azure")
        (line,) = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
        assert {k: line[k] for k in [*PERSONA, *metrics]} == {**PERSONA, **metrics}
        assert line["response"] == published["response"]
        _run("deepeval", other, tmp_path / "goldens.json", export=True)
        (golden,) = json.loads((tmp_path / "goldens.json").read_text(encoding="utf-8"))
        assert {k: golden["additional_metadata"][k] for k in PERSONA} == PERSONA
        _run("beir", other, tmp_path / "beir", export=True)
        query = json.loads((tmp_path / "beir" / "queries.jsonl").read_text())
        assert query["persona_name"] == PERSONA["persona_name"]
    finally:
        other.close()


def test_deepeval_golden_fields_come_back_through_native_csv_and_xlsx(
        store: GoldSetStore, tmp_path: Path) -> None:
    published = json.loads((DATA / "deepeval" / "goldens.json").read_text(encoding="utf-8"))
    report = _run("deepeval", store, DATA / "deepeval" / "goldens.json", export=False)
    assert "fields kept in extra: actual_output, retrieval_context, source_file" in \
        report.warnings
    lost = {"actual_output", "retrieval_context", "source_file"}
    other = _through_native(store, tmp_path)
    try:
        _run("csv", other, tmp_path / "csv", export=True)
        _run("xlsx", other, tmp_path / "t.xlsx", export=True)
    finally:
        other.close()
    for fmt, path in (("csv", tmp_path / "csv"), ("xlsx", tmp_path / "t.xlsx")):
        with GoldSetStore.create(tmp_path / f"{fmt}.goldset", assessor="eve") as third:
            _run(fmt, third, path, export=False)
            _run("deepeval", third, tmp_path / f"{fmt}.json", export=True)
        back = json.loads((tmp_path / f"{fmt}.json").read_text(encoding="utf-8"))
        by_input = {g["input"]: g for g in back}
        for golden in published:
            again = by_input[golden["input"]]
            assert {k: again[k] for k in lost} == {k: golden[k] for k in lost}, fmt


def test_beir_query_metadata_goes_back_into_metadata(store: GoldSetStore,
                                                     tmp_path: Path) -> None:
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "title": "", "text": "x"}\n')
    meta = {"query": "coronavirus origin", "narrative": "seeking information"}
    (folder / "queries.jsonl").write_text(json.dumps({
        "_id": "1", "text": "what is the origin of COVID-19", "metadata": meta}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    report = _run("beir", store, folder, export=False)
    assert "queries.jsonl: fields kept in extra: metadata.narrative, metadata.query" in \
        report.warnings
    _run("beir", store, tmp_path / "out", export=True)
    query = json.loads((tmp_path / "out" / "queries.jsonl").read_text())
    assert query["metadata"] == {"family": "ordinary", **meta}


@pytest.mark.parametrize("bad", ["[1]", "not json", "3"])
def test_a_bad_extra_cell_is_refused_naming_the_row(store: GoldSetStore, tmp_path: Path,
                                                    bad: str) -> None:
    from rag_annotator.domain import operations as ops

    ops.create_case(store, key="Q1", question="q")
    _run("csv", store, tmp_path / "csv", export=True)
    cases = tmp_path / "csv" / "cases.csv"
    text = cases.read_text(encoding="utf-8-sig")
    assert text.rstrip().endswith(",{}")
    cases.write_text(text.rstrip()[:-2] + json.dumps(bad) + "\n", encoding="utf-8")
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        with pytest.raises(KnownError, match=r"cases\.csv:2: column 'extra': expected a JSON "
                                                  r"object, got"):
            _run("csv", other, tmp_path / "csv", export=False)
        assert other.count("cases") == 0


def test_a_version_9_file_gains_empty_extras_and_check_wants_objects(
        goldset_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    from rag_annotator.domain import operations as ops
    from rag_annotator.storage import schema

    before = schema.EXTRA_VERSION - 1
    with monkeypatch.context() as patch:
        schema_up_to(patch, before)
        with GoldSetStore.create(goldset_path, assessor="alice") as store:
            ops.create_case(store, key="Q1", question="q")
            assert store.schema_version == before
            assert "extra" not in store.query("SELECT * FROM cases")[0]
    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        assert store.schema_version == schema.SCHEMA_VERSION > schema.EXTRA_VERSION
        assert store.schema_problems() == [] and store.cross_reference_problems() == []
        assert store.query("SELECT key, extra FROM cases") == [{"key": "Q1", "extra": "{}"}]
        store._conn.execute("UPDATE cases SET extra = '[1]'")  # as a foreign tool might
        assert any("cases" in p and "extra is not a JSON object" in p
                   for p in store.cross_reference_problems())


def test_ragcheckers_per_result_fields_are_kept_on_the_answers_and_go_back_out(
        store: GoldSetStore, tmp_path: Path) -> None:
    source = DATA / "ragchecker" / "checking_outputs.json"
    published = json.loads(source.read_text(encoding="utf-8"))["results"]
    report = _run("ragchecker-run", store, source, export=False, run="rc")
    per_result = ("gt_answer_claims", "metrics", "response2answer", "retrieved2answer")
    assert f"fields kept in extra: {', '.join(f'results[].{k}' for k in per_result)}" in \
        report.warnings
    other = _through_native(store, tmp_path)
    try:
        _run("ragchecker", other, tmp_path / "rc.json", export=True, run="rc")
    finally:
        other.close()
    back = {r["query_id"]: r for r in json.loads((tmp_path / "rc.json").read_text())["results"]}
    for result in published:
        again = back[result["query_id"]]
        assert {k: again[k] for k in per_result} == {k: result[k] for k in per_result}
