"""Automatic-judge imports (RAGChecker, Ragas statements, DeepEval verdicts) and the
human-vs-judge calibration, checked against scikit-learn on the sample's answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from rag_annotator import cli
from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.sample import create_sample
from rag_annotator.metrics.calibration import CLASSES, confusion, kappa
from rag_annotator.reports.inputs import calibration_report
from rag_annotator.storage.store import GoldSetStore
from tests.import_export.judge_files import (
    RUN,
    run_claims,
    verify_at_random,
    write_ragchecker,
)


@pytest.fixture
def sample(goldset_path: Path):  # type: ignore[no-untyped-def]
    # without the sample's own judge (issue 22): these tests import judges into a file
    # that has none, and count every judge verdict stored
    store = create_sample(goldset_path, assessor="Claire Dubois", with_judge=False)
    yield store
    store.close()


def importer(name: str, store: GoldSetStore, path: Path, **options: Any) -> Any:
    return registry.importer(name)(store, path, registry.Options(**options))


def test_ragchecker_kappa_and_confusion_equal_scikit_learn(sample: GoldSetStore,
                                                           tmp_path: Path) -> None:
    verify_at_random(sample)
    path = tmp_path / "ragchecker.json"
    expected = write_ragchecker(sample, path)
    report = importer("ragchecker", sample, path, run=RUN)
    assert report.imported == len(expected) and report.unmatched == []
    assert "Entailment (any chunk) → supported" in report.summary()
    stored = {r["claim_id"]: r["verdict"] for r in sample.query(
        "SELECT claim_id, verdict FROM judge_verdicts")}
    assert stored == expected
    assert sample.query("SELECT kind FROM assessors WHERE name = 'RAGChecker'") == [
        {"kind": "judge"}]

    pairs = sample.query(
        "SELECT c.verdict AS human, j.verdict AS judge FROM judge_verdicts j "
        "JOIN claims c ON c.id = j.claim_id WHERE c.verdict IS NOT NULL")
    human = [p["human"] for p in pairs]
    judge = [p["judge"] for p in pairs]
    assert len(pairs) > 20
    result = calibration_report(sample, "RAGChecker")
    assert result["pairs"] == len(pairs)
    assert result["confusion"] == confusion_matrix(human, judge, labels=list(CLASSES)).tolist()
    assert result["kappa"] == pytest.approx(cohen_kappa_score(human, judge), abs=1e-12)
    assert result["agreement"] == pytest.approx(sum(h == j for h, j in pairs_of(pairs))
                                                / len(pairs))
    assert len(result["disagreements"]) == sum(h != j for h, j in pairs_of(pairs))
    assert all(d["human"] != d["judge"] for d in result["disagreements"])
    unverified = sum(1 for c in expected if sample.by_id("claims", c)["verdict"] is None)
    assert result["judge_only"] == unverified
    json.dumps(result)  # JSON-ready for `info --json`


def pairs_of(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(r["human"], r["judge"]) for r in rows]


def test_kappa_edge_cases() -> None:
    assert kappa(confusion([], [])) is None
    assert kappa(confusion(["supported"] * 3, ["supported"] * 3)) is None  # 0/0
    h = ["supported", "contradicted", "not_supported", "supported"]
    j = ["supported", "supported", "not_supported", "contradicted"]
    assert kappa(confusion(h, j)) == pytest.approx(cohen_kappa_score(h, j))
    assert kappa(confusion(h, h)) == pytest.approx(1.0)


def test_unmatched_claims_are_reported_and_positions_used_for_our_split(
        sample: GoldSetStore, tmp_path: Path) -> None:
    claims = run_claims(sample)
    two = next(k for k, c in sorted(claims.items()) if len(c) == 2)
    three = next(k for k, c in sorted(claims.items()) if len(c) == 3)
    results = [
        # same number of claims as ours, reworded: matched by position
        {"query_id": two, "response_claims": [["reworded one"], ["reworded two"]],
         "retrieved2response": [["Entailment"], ["Neutral"]]},
        # one claim more than ours: the unknown one is reported, the others match by text
        {"query_id": three,
         "response_claims": [[c["text"].upper()] for c in claims[three]] + [["Nouveau"]],
         "retrieved2response": [["Contradiction"]] * 4},
    ]
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"results": results}), encoding="utf-8")
    report = importer("ragchecker", sample, path, run=RUN, assessor="gpt-judge")
    assert (report.by_position, report.by_text, report.imported) == (2, 3, 5)
    assert len(report.unmatched) == 1 and "Nouveau" in report.unmatched[0]
    assert "results[1] claim 3" in report.unmatched[0]
    assert any("matched none" in w for w in report.warnings)
    verdicts = {r["claim_id"]: r["verdict"] for r in sample.query(
        "SELECT claim_id, verdict FROM judge_verdicts")}
    assert verdicts[claims[two][0]["id"]] == "supported"
    assert verdicts[claims[two][1]["id"]] == "not_supported"
    assert {verdicts[c["id"]] for c in claims[three]} == {"contradicted"}


def test_deepeval_idk_is_never_supported(sample: GoldSetStore, tmp_path: Path) -> None:
    claims = run_claims(sample)
    key = next(k for k, c in sorted(claims.items()) if len(c) == 3)
    texts = [c["text"] for c in claims[key]]
    path = tmp_path / "deepeval.json"
    path.write_text(json.dumps([{"case": key, "claims": texts, "verdicts": [
        {"verdict": "yes"}, {"verdict": "no", "reason": "dit le contraire"},
        {"verdict": "idk"}]}]), encoding="utf-8")
    report = importer("deepeval-verdicts", sample, path, run=RUN)
    assert report.judge == "DeepEval"
    rows = sample.query("SELECT claim_id, verdict, raw_label, rationale FROM judge_verdicts "
                        "ORDER BY claim_id")
    assert [(r["verdict"], r["raw_label"]) for r in rows] == [
        ("supported", "yes"), ("contradicted", "no"), ("not_supported", "idk")]
    assert rows[1]["rationale"] == "dit le contraire"
    assert "idk → not_supported" in report.summary()


def test_ragas_statements_as_jsonl_matched_by_question(sample: GoldSetStore,
                                                       tmp_path: Path) -> None:
    claims = run_claims(sample)
    key = next(k for k, c in sorted(claims.items()) if len(c) == 2)
    question = sample.by_key("cases", key)["question"]
    path = tmp_path / "ragas.jsonl"
    path.write_text(json.dumps({"user_input": "  " + question.upper() + " ", "statements": [
        {"statement": c["text"], "verdict": v, "reason": "r"}
        for c, v in zip(claims[key], (1, 0))]}) + "\n", encoding="utf-8")
    report = importer("ragas-verdicts", sample, path, run=RUN, assessor="Ragas 0.2")
    assert report.imported == 2
    assert [r["verdict"] for r in sample.query(
        "SELECT verdict FROM judge_verdicts ORDER BY claim_id")] == ["supported",
                                                                     "not_supported"]


def test_reimport_replaces_the_judge_verdicts(sample: GoldSetStore, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_ragchecker(sample, path, seed=1)
    importer("ragchecker", sample, path, run=RUN)
    expected = write_ragchecker(sample, path, seed=2)
    importer("ragchecker", sample, path, run=RUN)
    stored = {r["claim_id"]: r["verdict"] for r in sample.query(
        "SELECT claim_id, verdict FROM judge_verdicts")}
    assert stored == expected
    sample.revert(sample.operation_ids()[0])  # undo the second import
    assert len(sample.query("SELECT * FROM judge_verdicts")) == len(expected)


@pytest.mark.parametrize(("name", "content", "message"), [
    ("ragchecker", "{", "not valid JSON"),
    ("ragchecker", '{"results": {}}', "results"),
    ("ragchecker", '{"results": [{"query_id": "Q01"}]}', "results[0]: has no"),
    ("ragchecker", '{"results": [{"query_id": "Q01", "response_claims": [["a"]], '
                   '"retrieved2response": [["Maybe"]]}]}', "results[0] claim 0"),
    ("ragchecker", '{"results": [{"query_id": "NOPE", "response_claims": [], '
                   '"retrieved2response": []}]}', "no case with key 'NOPE'"),
    ("ragchecker", '{"results": [{"response_claims": [], "retrieved2response": []}]}',
     "query_id"),
    ("deepeval-verdicts", '[{"case": "Q01", "claims": ["a"], "verdicts": '
                          '[{"verdict": "maybe"}]}]', "item [0] claim 0"),
    ("deepeval-verdicts", '[{"case": "Q01", "claims": ["a", "b"], "verdicts": []}]',
     "same length"),
    ("ragas-verdicts", '{"case": "Q01", "statements": [{"statement": "a", "verdict": 2}]}',
     "line 1 statement 0"),
    ("ragas-verdicts", '{"case": "Q01"}\n', "statements"),
])
def test_bad_files_are_refused_whole(sample: GoldSetStore, tmp_path: Path, name: str,
                                     content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    before = sample.query("SELECT count(*) AS n FROM operations")
    with pytest.raises(KnownError) as error:
        importer(name, sample, path, run=RUN)
    assert message in str(error.value) and str(path) in str(error.value)
    assert sample.query("SELECT * FROM judge_verdicts") == []
    assert sample.query("SELECT count(*) AS n FROM operations") == before


def test_run_name_and_human_names_are_checked(sample: GoldSetStore, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_ragchecker(sample, path)
    with pytest.raises(KnownError, match="--run"):
        importer("ragchecker", sample, path)
    with pytest.raises(KnownError, match="no run named"):
        importer("ragchecker", sample, path, run="nope")
    with pytest.raises(KnownError, match="human assessor"):
        importer("ragchecker", sample, path, run=RUN, assessor="Claire Dubois")
    assert sample.query("SELECT * FROM judge_verdicts") == []


def test_a_later_result_failing_leaves_nothing(sample: GoldSetStore, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_ragchecker(sample, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["results"].append(dict(data["results"][0]))  # the same case twice
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(KnownError, match="grades the same claim"):
        importer("ragchecker", sample, path, run=RUN)
    assert sample.query("SELECT * FROM judge_verdicts") == []
    assert sample.query("SELECT * FROM assessors WHERE kind = 'judge'") == []


def test_cli_import_prints_the_mapping(goldset_path: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    with create_sample(goldset_path, assessor="Claire Dubois") as store:
        path = tmp_path / "r.json"
        expected = write_ragchecker(store, path)
    assert cli.main(["import", str(goldset_path), "ragchecker", str(path), "--run", RUN]) == 0
    out = capsys.readouterr().out
    assert f"{len(expected)} claim verdicts of judge 'RAGChecker'" in out
    assert "Neutral (every chunk) → not_supported" in out
