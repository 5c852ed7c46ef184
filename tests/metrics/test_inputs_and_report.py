"""Measure names, input validation, and the report a CLI dumps as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from math import log2

import pytest

from rag_annotator.metrics import (
    DEFAULT_MEASURES,
    Measure,
    MeasureKind,
    Policy,
    QueryInput,
    evaluate,
    parse_measure,
    parse_measures,
)


@pytest.mark.parametrize(("text", "kind", "cutoff"), [
    ("P@5", MeasureKind.PRECISION, 5), ("R@10", MeasureKind.RECALL, 10),
    ("RR", MeasureKind.RECIPROCAL_RANK, None), ("RR@10", MeasureKind.RECIPROCAL_RANK, 10),
    ("nDCG@10", MeasureKind.NDCG, 10), ("nDCG", MeasureKind.NDCG, None),
    ("AP", MeasureKind.AVERAGE_PRECISION, None), ("AP@100", MeasureKind.AVERAGE_PRECISION, 100),
    ("Judged@10", MeasureKind.JUDGED, 10), ("Success@10", MeasureKind.SUCCESS, 10),
    (" P@5 ", MeasureKind.PRECISION, 5),
])
def test_ir_measures_names_parse(text: str, kind: MeasureKind, cutoff: int | None) -> None:
    measure = parse_measure(text)
    assert measure == Measure(kind, cutoff)
    assert measure.name == text.strip()


@pytest.mark.parametrize("text", ["P", "P@0", "P@05", "p@5", "ndcg@10", "MAP", "Judged",
                                  "Success", "R", "P@-1", "nDCG@10x", "", "Recall@5"])
def test_unknown_names_are_refused_with_the_valid_forms(text: str) -> None:
    with pytest.raises(ValueError, match=r"P@k, R@k, RR, RR@k, nDCG, nDCG@k, AP, AP@k"):
        parse_measure(text)


def test_a_measure_list_from_the_command_line() -> None:
    assert [m.name for m in parse_measures("P@5,nDCG@10  RR,P@5")] == ["P@5", "nDCG@10", "RR"]
    with pytest.raises(ValueError, match="no measure"):
        parse_measures(" , ")
    with pytest.raises(ValueError, match="P@k"):
        parse_measures(["P@5", "bogus"])


def test_policies_by_their_cli_names() -> None:
    assert [Policy.parse(p) for p in ("trec", "judged-only", "strict")] == list(Policy)
    with pytest.raises(ValueError, match="trec, judged-only, strict"):
        Policy.parse("lenient")


@pytest.mark.parametrize(("labels", "max_grade", "message"), [
    ({"a": 2}, 1, "outside 0..1"),
    ({"a": -1}, 1, "negative TREC label means unjudged"),
    ({"a": True}, 1, "whole number or None"),
    ({"a": 1.0}, 1, "whole number or None"),
    ({"a": 1}, 0, "max_grade"),
])
def test_bad_labels_are_refused(labels: dict[str, object], max_grade: int,
                                message: str) -> None:
    with pytest.raises(ValueError, match=message):
        QueryInput(["a"], labels, max_grade)  # type: ignore[arg-type]


def test_the_input_is_a_snapshot() -> None:
    labels: dict[str, int | None] = {"a": 1}
    ranking = ["a"]
    query = QueryInput(ranking, labels)
    labels["a"] = 0
    ranking.append("b")
    assert query.labels["a"] == 1 and tuple(query.ranking) == ("a",)


def run_of_three() -> dict[str, QueryInput]:
    return {
        "q1": QueryInput(["a", "b", "c"], {"a": 1, "b": 0, "c": 1}),
        "q2": QueryInput(["u", "a"], {"a": 1, "u": None}),
        "q3": QueryInput(["a"], {"a": 0}),  # nothing relevant: R@k, AP, nDCG not defined
    }


def test_trec_means_run_over_one_topic_set_undefined_counting_zero() -> None:
    """Issue 18: under trec every measure of the table averages over the same topics, as
    trec_eval does; a value not defined (q3 has no relevant document) stays null per case
    but counts 0 in the mean, and a case without any judgment is in no mean."""
    queries = {**run_of_three(), "q4": QueryInput(["z"], {"z": None})}
    report = evaluate(queries, ["P@2", "R@2", "AP"], "trec")
    assert report.cases == 4
    assert report.topics == ("q1", "q2", "q3") and report.unjudged_topics == ("q4",)
    assert report.per_query["q3"] == {"P@2": 0.0, "R@2": None, "AP": None}
    assert report.mean_count == {"P@2": 3, "R@2": 3, "AP": 3}
    assert report.mean["P@2"] == pytest.approx((0.5 + 0.5 + 0.0) / 3)
    assert report.mean["R@2"] == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert report.mean["AP"] == pytest.approx(((1 + 2 / 3) / 2 + 0.5 + 0.0) / 3)


def test_all_judged_adds_the_judged_topics_the_run_misses_at_zero() -> None:
    report = evaluate(run_of_three(), ["P@2", "AP"], "trec", judged_topics={"q1", "q3", "q9"})
    assert report.missing_topics == ("q9",) and len(report.topics) == 4
    assert report.mean["P@2"] == pytest.approx((0.5 + 0.5 + 0.0 + 0.0) / 4)
    assert "4 all judged topics" in report.topic_note()


def test_strict_mean_says_over_how_many_cases_it_is_defined() -> None:
    queries = dict(run_of_three())
    queries["q3"] = QueryInput(["a"], {"a": 1})
    report = evaluate(queries, ["P@2", "RR"], "strict")
    assert report.per_query["q2"] == {"P@2": None, "RR": None}  # u could be relevant
    assert report.mean_count == {"P@2": 2, "RR": 2}
    assert report.mean["P@2"] == pytest.approx((0.5 + 0.5) / 2)
    # Every case is defined under every grading, so the mean over all cases has bounds.
    assert report.mean_low["P@2"] == pytest.approx((0.5 + 0.5 + 0.5) / 3)
    assert report.mean_high["P@2"] == pytest.approx((0.5 + 1.0 + 0.5) / 3)
    assert report.readings["q2"]["RR"].low == 0.5


def test_report_json_has_the_cli_contract() -> None:
    report = evaluate(run_of_three(), ["P@2", "nDCG@2"], "strict")
    data = json.loads(json.dumps(report.to_json("bm25")))
    assert {"run", "unjudged", "measures", "per_query", "mean"} <= data.keys()
    assert data["run"] == "bm25" and data["unjudged"] == "strict"
    assert data["measures"] == ["P@2", "nDCG@2"]
    assert data["per_query"]["q1"] == pytest.approx({"P@2": 0.5, "nDCG@2": 1 / (1 + 1 / log2(3))})
    assert data["per_query"]["q2"]["P@2"] is None
    assert data["bounds"]["q2"]["P@2"] == {"low": 0.5, "high": 1.0, "undefined_for_some": False}
    assert data["bounds"]["q3"]["nDCG@2"] == {"low": None, "high": None,
                                              "undefined_for_some": True}
    assert data["mean_count"] == {"P@2": 2, "nDCG@2": 1}
    assert data["cases"] == 3
    trec = evaluate(run_of_three(), DEFAULT_MEASURES, Policy.TREC).to_json("bm25")
    assert "bounds" not in trec and trec["measures"] == list(DEFAULT_MEASURES)


def test_an_empty_run_reports_nothing_defined() -> None:
    report = evaluate({}, ["P@5"], "strict")
    assert report.cases == 0 and report.mean == {"P@5": None}
    assert report.mean_count == {"P@5": 0} and report.mean_low == {"P@5": None}


def test_unknown_measure_fails_before_any_work() -> None:
    with pytest.raises(ValueError, match="unknown measure 'MRR'"):
        evaluate(run_of_three(), ["P@5", "MRR"])


def test_the_metrics_core_loads_neither_qt_nor_sql() -> None:
    """DESIGN section 2: metrics are pure functions, usable where Qt cannot even load."""
    code = ("import sys, rag_annotator.metrics\n"
            "bad = sorted(m for m in sys.modules if m.startswith(('PySide6', 'sqlite3')))\n"
            "print(bad); sys.exit(1 if bad else 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stdout + out.stderr
