"""The ``trec`` report read on arrays (``store.ranked_grades`` + ``metrics.trec_arrays``,
issue 19) is the report read case by case (``metric_inputs`` + ``evaluate``), to the last
bit, on gold sets holding every shape of input: graded judgments by three assessors that
agree, disagree or reset a label, adjudications, expected sources, other runs' documents,
retired and agent cases, cases answered without a ranking, rankings of uneven lengths."""

from __future__ import annotations

import random

import pytest

from rag_annotator.domain import judging_ops
from rag_annotator.metrics import evaluate, parse_measures, trec_arrays
from rag_annotator.reports.inputs import load_queries, run_report
from rag_annotator.storage.store import GoldSetStore

MEASURES = ("P@1", "P@5", "P@30", "R@3", "R@10", "RR", "RR@2", "nDCG", "nDCG@3",
            "nDCG@10", "AP", "AP@4", "Judged@1", "Judged@10", "Success@3")
STAMP = "2026-01-01T00:00:00Z"


def _fill(store: GoldSetStore, seed: int, scale: int) -> None:
    """Random cases, documents, three runs, judgments, adjudications and sources."""
    rng = random.Random(seed)
    judging_ops.set_graded_scale(store, scale)
    with store.operation("test", "fill") as op:
        assessors = [op.insert("assessors", {"name": n, "created_at": STAMP})["id"]
                     for n in ("a", "b", "c")]
        cases = [op.insert("cases", {
            "key": f"q{i:03d}", "kind": "agent" if i % 17 == 5 else "rag",
            "status": "retired" if i % 11 == 3 else "draft",
            "created_at": STAMP, "updated_at": STAMP})["id"] for i in range(40)]
        docs = [op.insert("documents", {"key": f"d{i}", "content_hash": "h",
                                        "created_at": STAMP, "updated_at": STAMP})["id"]
                for i in range(60)]
        runs = [op.insert("runs", {"name": n, "created_at": STAMP})["id"]
                for n in ("sys", "other", "empty")]
        for case in cases:
            for run in runs[:2]:
                depth = rng.choice((0, 0, 1, 3, 12, 40))
                for rank, doc in enumerate(rng.sample(docs, depth), start=1):
                    op.insert("retrieved", {"run_id": run, "case_id": case,
                                            "document_id": doc, "rank": rank})
                if depth == 0 and rng.random() < 0.5:
                    op.insert("answers", {"run_id": run, "case_id": case, "text": "oui"})
            for doc in rng.sample(docs, rng.choice((0, 2, 15))):
                for who in rng.sample(assessors, rng.randint(1, 3)):
                    op.insert("judgments", {"case_id": case, "document_id": doc,
                                            "assessor_id": who, "updated_at": STAMP,
                                            "grade": rng.choice((None, 0, *range(scale + 1)))})
                if rng.random() < 0.1:
                    op.insert("adjudications", {"case_id": case, "document_id": doc,
                                                "grade": rng.randint(0, scale),
                                                "assessor_id": assessors[0],
                                                "updated_at": STAMP})
            for doc in rng.sample(docs, rng.choice((0, 1))):
                op.insert("expected_sources", {"case_id": case, "document_id": doc})


@pytest.mark.parametrize("seed,scale", [(1, 1), (2, 3), (3, 2)])
def test_arrays_equal_the_case_by_case_report(store: GoldSetStore, seed: int,
                                              scale: int) -> None:
    _fill(store, seed, scale)
    judged = {"q000", "q001", "zz"}
    for run in ("sys", "other", "empty"):
        queries = load_queries(store, run)
        for level in range(1, scale + 2):
            for topics in (None, judged):
                fast = run_report(store, run, MEASURES, "trec", relevance_level=level,
                                  judged_topics=topics)
                slow = evaluate(queries, MEASURES, "trec", relevance_level=level,
                                judged_topics=topics)
                assert fast == slow
                assert fast.to_json(run) == slow.to_json(run)
    assert run_report(store, "sys", MEASURES).per_query  # the arrays did read something


def test_a_run_without_any_label(store: GoldSetStore) -> None:
    """Nothing judged nor adjudicated yet: no topic, every case read all the same."""
    with store.operation("test", "bare") as op:
        run = op.insert("runs", {"name": "sys", "created_at": STAMP})["id"]
        doc = op.insert("documents", {"key": "d", "content_hash": "h", "created_at": STAMP,
                                      "updated_at": STAMP})["id"]
        for key in ("q1", "q2"):
            case = op.insert("cases", {"key": key, "created_at": STAMP,
                                       "updated_at": STAMP})["id"]
            op.insert("retrieved", {"run_id": run, "case_id": case, "document_id": doc,
                                    "rank": 1})
    report = run_report(store, "sys", MEASURES)
    assert report == evaluate(load_queries(store, "sys"), MEASURES)
    assert report.unjudged_topics == ("q1", "q2")


def test_uneven_rankings_fall_back_to_the_case_by_case_path(
        store: GoldSetStore, monkeypatch: pytest.MonkeyPatch) -> None:
    _fill(store, 4, 2)
    monkeypatch.setattr(trec_arrays, "_MAX_PADDING", 0)
    monkeypatch.setattr(trec_arrays, "_PADDING_FLOOR", 0)
    ranked = store.ranked_grades("sys")
    assert trec_arrays.trec_columns(ranked.starts, ranked.lengths, ranked.grades,
                                    ranked.histogram, parse_measures(MEASURES)) is None
    assert run_report(store, "sys", MEASURES) == evaluate(load_queries(store, "sys"), MEASURES)


def test_a_grade_above_the_scale_is_refused_as_case_by_case(store: GoldSetStore) -> None:
    _fill(store, 5, 1)
    with store.operation("test", "bad") as op:
        case = op.select("cases", key="q000")[0]["id"]
        doc = op.select("documents", key="d0")[0]["id"]
        op.insert("adjudications", {"case_id": case, "document_id": doc, "grade": 3,
                                    "assessor_id": op.select("assessors", name="a")[0]["id"],
                                    "updated_at": STAMP})
    with pytest.raises(ValueError, match=r"outside 0\.\.1"):
        run_report(store, "sys", MEASURES)


def test_policies_other_than_trec_read_case_by_case(store: GoldSetStore) -> None:
    _fill(store, 6, 2)
    queries = load_queries(store, "sys")
    for policy in ("judged-only", "strict"):
        assert run_report(store, "sys", MEASURES, policy) == evaluate(queries, MEASURES,
                                                                      policy)
