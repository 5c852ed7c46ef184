"""Run comparison: wins, losses, ties per case and measure, family filter, cases behind."""

from __future__ import annotations

import pytest

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.metrics import QueryInput, evaluate
from rag_annotator.metrics.compare import compare_reports
from rag_annotator.reports.inputs import compare
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich

LABELS = {"a": 1, "b": 0, "c": 1, "u": None}


def _reports() -> tuple:
    run_a = {"q1": QueryInput(["a", "b"], LABELS), "q2": QueryInput(["b", "a"], LABELS),
             "q3": QueryInput(["a", "c"], LABELS), "q4": QueryInput(["u", "b"], {"u": None}),
             "only_a": QueryInput(["a"], LABELS)}
    run_b = {"q1": QueryInput(["b", "a"], LABELS), "q2": QueryInput(["a", "b"], LABELS),
             "q3": QueryInput(["a", "c"], LABELS), "q4": QueryInput(["b"], {"u": None}),
             "only_b": QueryInput(["a"], LABELS)}
    return evaluate(run_a, "P@1,R@2", "trec"), evaluate(run_b, "P@1,R@2", "trec")


def test_wins_losses_ties_and_not_comparable() -> None:
    a, b = _reports()
    result = compare_reports("A", a, "B", b)
    p1 = result.by_measure["P@1"]
    assert p1.wins == ("q1",) and p1.losses == ("q2",)
    assert p1.ties == ("q3", "q4")
    r2 = result.by_measure["R@2"]
    # q4 has no relevant document: R@2 not defined for both, so not comparable, not a tie.
    assert r2.not_comparable == ("q4",)
    assert r2.ties == ("q1", "q2", "q3") and r2.wins == ()
    assert result.only_a == ("only_a",) and result.only_b == ("only_b",)
    # Means are paired: over the comparable cases only.
    assert p1.mean_a == pytest.approx(2 / 4) and p1.mean_b == pytest.approx(2 / 4)
    assert p1.delta == pytest.approx(0.0)
    assert r2.mean_a == pytest.approx((0.5 + 0.5 + 1.0) / 3)
    data = result.to_json()
    assert data["by_measure"]["P@1"]["wins"] == 1
    assert data["by_measure"]["P@1"]["cases"]["losses"] == ["q2"]
    assert data["per_query"]["q1"]["P@1"] == {"run": 1.0, "other": 0.0}


def test_family_filter_keeps_only_that_family() -> None:
    a, b = _reports()
    families = {"q1": "ordinary", "q2": "sensitive", "q3": "ordinary", "q4": "ordinary"}
    result = compare_reports("A", a, "B", b, families, "sensitive")
    assert list(result.per_case) == ["q2"]
    assert result.by_measure["P@1"].losses == ("q2",) and result.by_measure["P@1"].wins == ()
    assert result.only_a == () and result.only_b == ()


def test_reports_must_match() -> None:
    a, _b = _reports()
    other = evaluate({"q1": QueryInput(["a"], LABELS)}, "P@1", "strict")
    with pytest.raises(ValueError, match="same measures and policy"):
        compare_reports("A", a, "B", other)


def test_compare_reads_the_store_and_follows_judgments(store: GoldSetStore) -> None:
    rich = build_rich(store)
    result = compare(store, "bm25", "dense", "P@1", "trec")
    # Q1: bm25 ranks D1 (relevant) first, dense D2 (disputed → unjudged → 0 under trec).
    assert result.by_measure["P@1"].wins == ("Q1",)
    assert result.only_a == ("Q2",) and result.only_b == ("Q3",)
    # Adjudicate D2 relevant: now a tie.
    with store.operation("test", "adjudicate") as op:
        bob = op.select("assessors", name="bob")[0]["id"]
        op.insert("adjudications", {"case_id": rich.cases["Q1"], "document_id": rich.docs["D2"],
                                    "grade": 1, "assessor_id": bob, "note": "",
                                    "updated_at": "2026-01-01T00:00:00Z"})
    assert compare(store, "bm25", "dense", "P@1", "trec").by_measure["P@1"].ties == ("Q1",)
    assert compare(store, "bm25", "dense", "P@1", "trec", family="ambiguous").per_case == {}


def test_restrict_equals_filtering_at_the_source() -> None:
    a, b = _reports()
    families = {"q1": "ordinary", "q2": "sensitive", "q3": "ordinary", "q4": "ordinary",
                "only_a": "ordinary", "only_b": "sensitive"}
    full = compare_reports("A", a, "B", b, families)
    for family in ("ordinary", "sensitive", "none"):
        assert full.restrict(families, family) == compare_reports("A", a, "B", b, families,
                                                                  family)


def _reference_inputs(store: GoldSetStore, run: str
                      ) -> dict[str, tuple[list[str], dict[str, int | None]]]:
    """The inputs built the plain way: the run's rankings and the SQL effective labels
    (``queries.EFFECTIVE_PAIRS_SQL``, through ``universe_labels``)."""
    run_id = int(store.by_key("runs", run)["id"])
    rankings = store.run_rankings(run_id)
    covered = [r["key"] for r in store.query(
        "SELECT c.key FROM cases c WHERE c.status != 'retired' AND (EXISTS ("
        "SELECT 1 FROM retrieved t WHERE t.run_id = ?1 AND t.case_id = c.id) OR EXISTS ("
        "SELECT 1 FROM answers a WHERE a.run_id = ?1 AND a.case_id = c.id)) ORDER BY c.key",
        (run_id,))]
    labels = store.universe_labels()
    return {key: ([doc for doc, _score in rankings.get(key, [])], labels.get(key, {}))
            for key in covered}


def test_fast_metric_inputs_equal_the_store_reference(store: GoldSetStore) -> None:
    rich = build_rich(store)
    ops.add_expected_source(store, rich.cases["Q2"], rich.docs["D5"])
    judging_ops.set_judgment(store, rich.cases["Q3"], rich.docs["D6"], 1)
    for run in ("bm25", "dense"):
        assert store.metric_inputs(run) == _reference_inputs(store, run)
    ops.edit_case(store, rich.cases["Q1"], status="retired")
    assert store.metric_inputs("bm25") == _reference_inputs(store, "bm25")
