"""reports.drift through a store, and ``metrics FILE --drift``: a run that loses relevant
documents and validated answers after an index change is a regression that names the change
and the cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.metrics.drift import OVERALL, VALIDATED
from rag_annotator.reports.drift import build_drift
from rag_annotator.storage.store import GoldSetStore
from tests.builders import last_id
from tests.helpers import run_cli, stderr_lines


def build_two_versions(store: GoldSetStore, n: int = 30, lost: int = 20) -> None:
    """``n`` cases each with one relevant document; run v1 ranks it first everywhere and
    has every answer validated; run v2 (new index) loses it for ``lost`` cases and has
    those answers not validated."""
    ops.create_run(store, name="v1", model="m", index_version="idx-1", corpus_version="c")
    v1 = last_id(store, "runs")
    ops.create_run(store, name="v2", model="m", index_version="idx-2", corpus_version="c")
    v2 = last_id(store, "runs")
    filler = []
    for j in range(10):
        ops.create_document(store, key=f"F{j}", title=f"F{j}", text=f"filler {j}")
        filler.append(last_id(store, "documents"))
    case_ids, doc_ids = [], []
    for i in range(n):
        ops.create_case(store, key=f"C{i:02d}", question=f"Question {i} ?", family="ordinary")
        case_ids.append(last_id(store, "cases"))
        ops.create_document(store, key=f"D{i:02d}", title=f"D{i}", text=f"document {i}")
        doc_ids.append(last_id(store, "documents"))
    with store.operation("test_load", "runs") as op:
        for i, (case, doc) in enumerate(zip(case_ids, doc_ids)):
            for run, first in ((v1, True), (v2, i >= lost)):
                docs = [doc, *filler] if first else [*filler, doc]
                for rank, d in enumerate(docs, start=1):
                    op.insert("retrieved", {"run_id": run, "case_id": case,
                                            "document_id": d, "rank": rank, "score": 1 / rank})
                op.insert("answers", {"run_id": run, "case_id": case, "text": "x"})
    for i, (case, doc) in enumerate(zip(case_ids, doc_ids)):
        judging_ops.set_judgment(store, case, doc, 1)
        for f in filler:
            judging_ops.set_judgment(store, case, f, 0)
        ops.set_answer_review(store, v1, case, outcome="answered", validated=True)
        ops.set_answer_review(store, v2, case, outcome="answered", validated=i >= lost)


def test_a_store_regression_names_the_index_change_and_the_flipped_cases(
        store: GoldSetStore) -> None:
    build_two_versions(store)
    table = build_drift(store)
    assert [row.name for row in table.rows] == ["v1", "v2"]
    v2 = table.rows[1]
    assert v2.point.version.fields["index_version"] == "idx-2"
    found = {r.measure: r for r in v2.regressions}
    assert {"Success@10", VALIDATED, "RR", "nDCG@10"} <= set(found)
    for regression in found.values():
        assert regression.changed_fields == {"index_version": ("idx-1", "idx-2")}
        assert regression.lost_relevant == tuple(f"C{i:02d}" for i in range(20))
        assert regression.flipped_validated == tuple(f"C{i:02d}" for i in range(20))
    success = v2.point.headlines[OVERALL]["success"]
    assert success.value == pytest.approx(10 / 30) and success.n == 30
    assert v2.from_previous[OVERALL]["success"] == pytest.approx(10 / 30 - 1.0)


def test_drift_cli_json_and_text(store: GoldSetStore, goldset_path: Path) -> None:
    build_two_versions(store)
    store.close()
    out = run_cli("metrics", str(goldset_path), "--drift", "--json", "--resamples", "2000")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [r["run"] for r in data["runs"]] == ["v1", "v2"]
    assert data["runs"][1]["versions"]["index_version"] == "idx-2"
    regressions = data["runs"][1]["regressions"]
    assert regressions and all(r["verdict"] == "worse" for r in regressions)
    assert regressions[0]["changed"] == {"index_version": {"before": "idx-1",
                                                           "after": "idx-2"}}
    text = run_cli("metrics", str(goldset_path), "--drift", "--baseline", "v1")
    assert text.returncode == 0, text.stderr
    assert "REGRESSION" in text.stdout and "index_version: idx-1 -> idx-2" in text.stdout
    bad = run_cli("metrics", str(goldset_path), "--drift", "--baseline", "v9")
    assert bad.returncode == 2
    assert stderr_lines(bad) == [f"error: --baseline: no run 'v9' in {goldset_path}; "
                                 "runs: v1, v2."]
