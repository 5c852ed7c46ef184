"""RAGChecker's example files as a run, with its own claims and verdicts (issue 18, point 4).

The files are RAGChecker's ``examples/checking_inputs.json`` and ``checking_outputs.json``
unchanged (tests/data/ragchecker, see its README).  Expected values are read from the
files with plain Python, never from the code under test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.judge_verdicts import import_verdicts
from rag_annotator.import_export.ragchecker_run import import_ragchecker_run
from rag_annotator.import_export.runs_jsonl import import_jsonl_run
from rag_annotator.reports.inputs import calibration_report
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import run_cli

DATA = Path(__file__).parents[1] / "data" / "ragchecker"
INPUTS, OUTPUTS = DATA / "checking_inputs.json", DATA / "checking_outputs.json"


def results(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["results"])


def test_inputs_become_a_run_with_every_doc_id_and_text(store: GoldSetStore) -> None:
    report = import_ragchecker_run(store, INPUTS, run="rc")
    given = results(INPUTS)
    assert report.results == len(given) and report.new_cases == [r["query_id"] for r in given]
    for r in given:
        case = store.query("SELECT question, reference_answer FROM cases WHERE key = ?",
                           (r["query_id"],))[0]
        assert (case["question"], case["reference_answer"]) == (r["query"], r["gt_answer"])
        listed = store.query(
            "SELECT d.key, d.text FROM retrieved t JOIN documents d ON d.id = t.document_id "
            "JOIN cases c ON c.id = t.case_id WHERE c.key = ? ORDER BY t.rank",
            (r["query_id"],))
        # every chunk's text kept, in order; the key is its doc_id, or doc_id@query_id
        # when that doc_id already names another text
        assert [row["text"] for row in listed] == [c["text"] for c in r["retrieved_context"]]
        assert [row["key"].split("@")[0] for row in listed] == [
            c["doc_id"] for c in r["retrieved_context"]]
        answer = store.query("SELECT a.text FROM answers a JOIN cases c ON c.id = a.case_id "
                             "WHERE c.key = ?", (r["query_id"],))[0]
        assert answer["text"] == r["response"]
    reused = {c["doc_id"] for c in given[1]["retrieved_context"]} & {
        c["doc_id"] for c in given[0]["retrieved_context"]}
    assert reused and sorted(report.rekeyed) == sorted(f"{d}@{given[1]['query_id']}"
                                                       for d in reused)


def test_a_jsonl_run_could_not_read_it_before(store: GoldSetStore) -> None:
    with pytest.raises(ImportRejected):
        import_jsonl_run(store, INPUTS)


def test_outputs_keep_ragcheckers_claims_and_labels_as_stated(store: GoldSetStore) -> None:
    report = import_ragchecker_run(store, OUTPUTS, run="rc")
    given = results(OUTPUTS)
    assert report.claims == sum(len(r["response_claims"]) for r in given)
    rows = store.query(
        "SELECT c.key, cl.position, cl.text, j.verdict, j.raw_label, j.rationale "
        "FROM claims cl JOIN answers a ON a.id = cl.answer_id JOIN cases c ON c.id = a.case_id "
        "JOIN judge_verdicts j ON j.claim_id = cl.id JOIN assessors s ON s.id = j.assessor_id "
        "WHERE s.name = 'RAGChecker' AND s.kind = 'judge' ORDER BY c.key, cl.position")
    expected = []
    for r in given:
        for i, triplet in enumerate(r["response_claims"]):
            chunks = r["retrieved2response"][i]
            verdict = ("supported" if "Entailment" in chunks else
                       "contradicted" if "Contradiction" in chunks else "not_supported")
            expected.append((r["query_id"], i + 1, " ".join(triplet), verdict,
                             f"retrieved2response: {','.join(chunks)}; "
                             f"answer2response: {r['answer2response'][i]}", triplet))
    assert [(w["key"], w["position"], w["text"], w["verdict"], w["raw_label"],
             json.loads(w["rationale"])) for w in rows] == expected
    # no human verdict was made: the judge's stay apart
    assert store.query("SELECT count(*) AS n FROM claims WHERE verdict IS NOT NULL") == [
        {"n": 0}]
    # RAGChecker's own metrics come along for comparison
    metrics = json.loads(OUTPUTS.read_text(encoding="utf-8"))["metrics"]
    notes = store.query("SELECT notes FROM runs WHERE name = 'rc'")[0]["notes"]
    assert f"faithfulness {metrics['generator']['faithfulness']}" in notes
    assert f"precision {metrics['overall']['precision']}" in notes


def test_the_judges_faithfulness_is_ragcheckers(store: GoldSetStore) -> None:
    """RAGChecker's generator faithfulness is the mean over queries of the share of
    response claims some chunk entails: the stored verdicts give it back."""
    import_ragchecker_run(store, OUTPUTS, run="rc")
    metrics = json.loads(OUTPUTS.read_text(encoding="utf-8"))["metrics"]
    shares = [row["s"] for row in store.query(
        "SELECT avg(j.verdict = 'supported') AS s FROM judge_verdicts j "
        "JOIN claims cl ON cl.id = j.claim_id GROUP BY cl.answer_id")]
    assert 100 * sum(shares) / len(shares) == pytest.approx(
        metrics["generator"]["faithfulness"], abs=0.05)
    report = import_ragchecker_run(store, OUTPUTS, run="again")
    assert report.faithfulness == pytest.approx(metrics["generator"]["faithfulness"], abs=0.05)
    assert "Faithfulness from the stored verdicts: 68.2 (RAGChecker's own: 68.2)" in \
        report.summary()


def test_verdict_import_on_sentence_claims_matching_nothing_is_refused(
        store: GoldSetStore) -> None:
    """Before: 0 of 16 claims matched the app's sentence claims, exit 0, nothing said."""
    import_ragchecker_run(store, INPUTS, run="rc")  # sentence claims of the app
    before = store.query("SELECT count(*) AS n FROM judge_verdicts")
    with pytest.raises(ImportRejected, match="ragchecker-run"):
        import_verdicts(store, OUTPUTS, "ragchecker", run="rc")
    assert store.query("SELECT count(*) AS n FROM judge_verdicts") == before


def test_answer_level_agreement_when_claims_differ(store: GoldSetStore) -> None:
    """A human verifies the judge's claims of one answer: claim-level calibration pairs
    them; the answer-level view compares faithfulness per answer."""
    import_ragchecker_run(store, OUTPUTS, run="rc")
    claims = store.query(
        "SELECT cl.id, j.verdict FROM claims cl JOIN answers a ON a.id = cl.answer_id "
        "JOIN cases c ON c.id = a.case_id JOIN judge_verdicts j ON j.claim_id = cl.id "
        "WHERE c.key = '0' ORDER BY cl.position")
    for claim in claims:  # the human says every claim is supported
        ops.set_claim_verdict(store, claim["id"], "supported")
    report = calibration_report(store, "RAGChecker")
    assert report["pairs"] == len(claims)
    level = report["answer_level"]
    judge_share = sum(c["verdict"] == "supported" for c in claims) / len(claims)
    assert level["compared"] == 1 and level["answers"] == 2
    assert level["judge_faithfulness"] == pytest.approx(judge_share)
    assert level["human_faithfulness"] == 1.0
    assert level["mean_abs_difference"] == pytest.approx(1.0 - judge_share)


def test_through_the_cli(goldset_path: Path) -> None:
    with GoldSetStore.create(goldset_path, assessor="alice"):
        pass
    result = run_cli("import", str(goldset_path), "ragchecker-run", str(OUTPUTS))
    assert result.returncode == 0, result.stderr
    assert "run 'checking_outputs'" in result.stdout and "doc_id" in result.stderr
    assert run_cli("check", str(goldset_path)).returncode == 0


def test_answer_level_agreement_across_runs_with_the_same_response(
        store: GoldSetStore) -> None:
    """The experts verified the app's sentence claims of run 'app' (same responses);
    RAGChecker's triplets live in run 'rc': no claim pairs, the answer level compares."""
    import_ragchecker_run(store, INPUTS, run="app")  # the app's sentence claims
    import_ragchecker_run(store, OUTPUTS, run="rc")  # RAGChecker's own claims
    sentences = store.query(
        "SELECT cl.id FROM claims cl JOIN answers a ON a.id = cl.answer_id "
        "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
        "WHERE r.name = 'app' AND c.key = '1' ORDER BY cl.position")
    assert len(sentences) >= 2
    ops.set_claim_verdict(store, sentences[0]["id"], "supported")
    ops.set_claim_verdict(store, sentences[1]["id"], "not_supported")
    report = calibration_report(store, "RAGChecker")
    assert report["pairs"] == 0  # nothing to pair claim by claim
    level = report["answer_level"]
    given = next(r for r in results(OUTPUTS) if r["query_id"] == "1")
    judge_share = sum("Entailment" in labels for labels in given["retrieved2response"]) / len(
        given["retrieved2response"])
    assert level["compared"] == 1
    assert level["judge_faithfulness"] == pytest.approx(judge_share)
    assert level["human_faithfulness"] == pytest.approx(0.5)
