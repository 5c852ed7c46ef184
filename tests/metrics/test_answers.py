"""Answer metrics: seed 003's decomposition, faithfulness, must-contain recall, abstention."""

from __future__ import annotations

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.errors import NotFound
from rag_annotator.metrics.answers import AnswerInput, summarize_inputs
from rag_annotator.reports.inputs import summarize_answers as summarize
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich


def _answered(key: str, family: str, validated: bool, **extra: object) -> AnswerInput:
    return AnswerInput(key, family, "answer", True, "answered", validated, **extra)  # type: ignore[arg-type]


def _no_answer(key: str, family: str) -> AnswerInput:
    return AnswerInput(key, family, "answer", True, "abstained", None)


def seed003_items() -> list[AnswerInput]:
    """Seed 003's fictitious example: ordinary 80 / 78 / 72, sensitive 20 / 2 / 0."""
    items: list[AnswerInput] = []
    for i in range(80):
        key = f"O{i:03d}"
        items.append(_answered(key, "ordinary", i < 72) if i < 78 else _no_answer(key, "ordinary"))
    for i in range(20):
        key = f"S{i:03d}"
        items.append(_answered(key, "sensitive", False) if i < 2 else _no_answer(key, "sensitive"))
    return items


def test_seed003_decomposition_per_family_and_overall() -> None:
    summary = summarize_inputs("A", seed003_items())
    data = summary.to_json()
    ordinary = data["per_family"]["ordinary"]
    assert (ordinary["tested"], ordinary["produced"], ordinary["validated"]) == (80, 78, 72)
    assert ordinary["quality"] == pytest.approx(72 / 78)  # ≈ 92.31 %
    assert ordinary["coverage"] == pytest.approx(0.975)
    sensitive = data["per_family"]["sensitive"]
    assert (sensitive["tested"], sensitive["produced"], sensitive["validated"]) == (20, 2, 0)
    assert sensitive["quality"] == 0.0 and sensitive["coverage"] == pytest.approx(0.10)
    overall = data["overall"]
    assert (overall["tested"], overall["produced"], overall["validated"]) == (100, 80, 72)
    assert overall["quality"] == pytest.approx(0.90)
    assert overall["coverage"] == pytest.approx(0.80)
    assert overall["success"] == pytest.approx(0.72)
    # 100 = 72 + 8 + 20: the absences stay visible.
    assert (overall["validated"], overall["not_validated"], overall["no_answer"]) == (72, 8, 20)
    assert len(summary.overall.cases("not_validated")) == 8
    assert summary.group("sensitive").cases("validated") == ()


def test_configurations_a_and_b_of_seed003() -> None:
    a = [_answered(f"q{i}", "ordinary", i < 54) if i < 60 else _no_answer(f"q{i}", "ordinary")
         for i in range(100)]
    b = [_answered(f"q{i}", "ordinary", i < 63) if i < 90 else _no_answer(f"q{i}", "ordinary")
         for i in range(100)]
    sa, sb = summarize_inputs("A", a).overall, summarize_inputs("B", b).overall
    assert sa.quality == pytest.approx(0.90) and sa.success == pytest.approx(0.54)
    assert sb.quality == pytest.approx(0.70) and sb.success == pytest.approx(0.63)
    assert len(sa.cases("not_validated")) == 6 and len(sb.cases("not_validated")) == 27


def test_zero_denominators_are_not_computable_never_zero() -> None:
    summary = summarize_inputs("A", [])
    overall = summary.to_json()["overall"]
    assert overall["quality"] is None and overall["coverage"] is None
    assert overall["success"] is None and summary.faithfulness_mean is None
    # Tested but nothing produced: coverage 0 (a real zero), quality not computable.
    only_refusals = summarize_inputs("A", [_no_answer("q1", "ordinary")]).overall
    assert only_refusals.coverage == 0.0 and only_refusals.success == 0.0
    assert only_refusals.quality is None


def test_unreviewed_cases_are_not_counted_as_no_answer() -> None:
    items = [
        AnswerInput("q1", "ordinary", "answer", True, None, None),           # no review
        AnswerInput("q2", "ordinary", "answer", True, "answered", None),     # not validated yet
        _answered("q3", "ordinary", True),
    ]
    items.append(AnswerInput("q4", "ordinary", "answer", False, None, None))  # retrieval only
    overall = summarize_inputs("A", items).overall
    assert overall.tested == 1 and overall.produced == 1 and overall.validated == 1
    assert overall.cases("unreviewed") == ("q1", "q2")
    assert overall.to_json()["unreviewed"] == 2
    assert overall.cases("not_generated") == ("q4",)
    assert overall.to_json()["not_generated"] == 1


def test_faithfulness_and_claim_shares() -> None:
    items = [
        _answered("q1", "ordinary", True, claims=4, verified=4, supported=3, contradicted=1),
        _answered("q2", "ordinary", False, claims=3, verified=2, supported=1, not_supported=1),
        _answered("q3", "ordinary", False, claims=2, verified=0),  # nothing verified yet
    ]
    summary = summarize_inputs("A", items)
    per_answer = {a["case"]: a for a in summary.to_json()["per_answer"]}
    assert per_answer["q1"]["faithfulness"] == 0.75
    assert per_answer["q2"]["faithfulness"] == 0.5
    assert per_answer["q3"]["faithfulness"] is None
    assert summary.faithfulness_mean == pytest.approx(0.625)  # over the 2 defined answers
    assert summary.contradicted_share == pytest.approx(1 / 6)
    assert summary.unsupported_share == pytest.approx(1 / 6)
    assert summary.to_json()["claims"]["unverified"] == 3


def test_must_contain_recall_needs_every_point_checked() -> None:
    done = _answered("q1", "ordinary", True, must_contain=3,
                     must_contain_found=(True, False, True))
    partial = _answered("q2", "ordinary", True, must_contain=2, must_contain_found=(True, None))
    short = _answered("q3", "ordinary", True, must_contain=2, must_contain_found=(True,))
    assert done.must_contain_recall == pytest.approx(2 / 3)
    assert partial.must_contain_recall is None and short.must_contain_recall is None
    summary = summarize_inputs("A", [done, partial, short])
    assert summary.must_contain_recall == pytest.approx(2 / 3)
    assert summary.must_contain_answers == 1


@pytest.mark.parametrize(("expected", "outcome", "correct"), [
    ("abstain", "abstained", True), ("abstain", "escalated", True),
    ("abstain", "answered", False), ("escalate", "escalated", True),
    ("escalate", "abstained", False), ("escalate", "answered", False),
])
def test_abstention_correctness(expected: str, outcome: str, correct: bool) -> None:
    item = AnswerInput("q1", "no_answer", expected, True, outcome, None)
    assert item.abstention_correct is correct
    overall = summarize_inputs("A", [item]).overall
    # Cases expecting abstention never enter seed 003's answer denominators.
    assert overall.tested == 0
    assert overall.abstention_rate == (1.0 if correct else 0.0)
    assert overall.cases("abstention_correct" if correct else "abstention_wrong") == ("q1",)


def test_summarize_reads_the_store(store: GoldSetStore) -> None:
    rich = build_rich(store)
    summary = summarize(store, "bm25")
    data = summary.to_json()
    assert set(data) >= {"per_family", "overall", "faithfulness_mean", "per_answer"}
    assert set(data["per_family"]) == {"ordinary", "ambiguous"}  # Q1, Q2 (bm25 covers them)
    ordinary = data["per_family"]["ordinary"]
    assert {k: ordinary[k] for k in ("tested", "produced", "validated")} == {
        "tested": 1, "produced": 1, "validated": 1}
    # Q2: bm25 retrieved for it but produced no answer, and nobody reviewed it.
    assert data["per_family"]["ambiguous"]["not_generated"] == 1
    assert data["per_family"]["ambiguous"]["unreviewed"] == 0
    assert summary.faithfulness_mean == 0.5  # Q1: one supported, one contradicted
    # A verdict changes the figure (what the dashboard shows live).
    ops.set_claim_verdict(store, rich.claims[1], "supported")
    assert summarize(store, "bm25").faithfulness_mean == 1.0
    with pytest.raises(NotFound, match="no run named 'nope'"):
        summarize(store, "nope")


def test_retired_cases_are_left_out(store: GoldSetStore) -> None:
    rich = build_rich(store)
    ops.edit_case(store, rich.cases["Q2"], status="retired")
    assert [a["case"] for a in summarize(store, "bm25").to_json()["per_answer"]] == ["Q1"]


def test_faithfulness_counts_answers_not_yet_reviewed() -> None:
    unreviewed = AnswerInput("q1", "ordinary", "answer", True, None, None, claims=2,
                             verified=2, supported=1, contradicted=1)
    no_answer = AnswerInput("q2", "ordinary", "answer", False, None, None)
    summary = summarize_inputs("A", [unreviewed, no_answer])
    assert summary.faithfulness_mean == 0.5
    assert summary.overall.tested == 0  # but it is not "tested" before its review
