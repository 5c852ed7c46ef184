"""Seed 003's ranking workshop: the fictional corpus A-F and its scenarios K01-K10.

The seed gives, for each scenario, the reading an expert must see; under ``strict`` its
publication rule is ours (publish only what is defined and identical under every labelling of
the missing judgments).  Corpus and judgments are written out here from the seed's table; 1 is
relevant, 0 not relevant, None unjudged.
"""

from __future__ import annotations

import math

import pytest

from rag_annotator.metrics import QueryInput, Reading, evaluate_query

LABELS: dict[str, dict[str, int | None]] = {
    # document:  A     B     C     D  E  F
    "Q1": dict(zip("ABCDEF", (1, 1, 1, 0, 0, 0))),
    "Q2": dict(zip("ABCDEF", (0, 0, 0, 1, 0, 0))),
    "Q3": dict(zip("ABCDEF", (0, 0, 0, 0, 0, 0))),
    "Q4": dict(zip("ABCDEF", (1, 1, None, 0, 0, 0))),
    "Q5": dict(zip("ABCDEF", (1, None, 0, 0, 0, 0))),
}


def read(need: str, order: str, k: int, policy: str = "strict") -> dict[str, Reading]:
    names = [f"P@{k}", f"R@{k}", f"RR@{k}", f"nDCG@{k}"]
    readings = evaluate_query(QueryInput(order.split(","), LABELS[need]), names, policy)
    return {name.split("@")[0]: readings[name] for name in names}


def dcg(*gains: int) -> float:
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


def published(reading: Reading) -> float:
    assert reading.status == "published", reading
    assert reading.value is not None
    return reading.value


def undetermined(reading: Reading) -> tuple[float, float]:
    assert reading.status == "undetermined", reading
    assert reading.value is None and reading.low is not None and reading.high is not None
    assert reading.low < reading.high or reading.undefined_for_some
    return reading.low, reading.high


def not_defined(reading: Reading) -> None:
    assert reading.status == "not_defined", reading
    assert reading.value is None and reading.low is None and reading.high is None


@pytest.mark.parametrize("policy", ["strict", "trec", "judged-only"])
def test_k01_relevant_first_everything_is_1(policy: str) -> None:
    r = read("Q1", "A,B,C,D,E,F", 3, policy)
    assert [published(r[m]) for m in ("P", "R", "RR", "nDCG")] == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("policy", ["strict", "trec", "judged-only"])
def test_k02_relevant_after_the_cutoff_everything_is_0(policy: str) -> None:
    r = read("Q1", "D,E,F,A,B,C", 3, policy)
    assert [published(r[m]) for m in ("P", "R", "RR", "nDCG")] == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("policy", ["strict", "trec", "judged-only"])
def test_k03_first_relevant_second(policy: str) -> None:
    r = read("Q1", "D,A,E,B,F,C", 3, policy)
    assert published(r["P"]) == pytest.approx(1 / 3)
    assert published(r["R"]) == pytest.approx(1 / 3)
    assert published(r["RR"]) == 0.5
    assert published(r["nDCG"]) == pytest.approx(dcg(0, 1, 0) / dcg(1, 1, 1))


@pytest.mark.parametrize("policy", ["strict", "trec", "judged-only"])
def test_k04_recall_keeps_every_relevant_document_of_the_corpus(policy: str) -> None:
    r = read("Q1", "A,D,E,F", 3, policy)
    assert published(r["R"]) == pytest.approx(1 / 3)  # R = 3, not the 1 retrieved
    assert published(r["P"]) == pytest.approx(1 / 3)
    assert published(r["RR"]) == 1.0
    assert published(r["nDCG"]) == pytest.approx(dcg(1) / dcg(1, 1, 1))


def test_k05_duplicate_is_refused_never_counted_twice() -> None:
    with pytest.raises(ValueError, match=r"'A' is ranked twice \(ranks 1 and 2\)"):
        QueryInput(["A", "A", "B"], LABELS["Q1"])


def test_k06_unjudged_before_the_first_relevant_leaves_all_four_undetermined() -> None:
    r = read("Q4", "C,A,D,E,B,F", 3)
    assert undetermined(r["P"]) == pytest.approx((1 / 3, 2 / 3))
    assert undetermined(r["R"]) == pytest.approx((1 / 2, 2 / 3))  # R is 2 or 3
    assert undetermined(r["RR"]) == (0.5, 1.0)
    low, high = undetermined(r["nDCG"])
    assert low == pytest.approx(dcg(0, 1) / dcg(1, 1))
    assert high == pytest.approx(dcg(1, 1) / dcg(1, 1, 1))
    assert not any(x.undefined_for_some for x in r.values())


def test_k06_trec_counts_c_as_not_relevant() -> None:
    r = read("Q4", "C,A,D,E,B,F", 3, "trec")
    assert published(r["P"]) == pytest.approx(1 / 3)
    assert published(r["R"]) == 0.5
    assert published(r["RR"]) == 0.5


def test_k07_unjudged_after_the_window() -> None:
    r = read("Q4", "A,B,D,E,F,C", 3)
    assert published(r["P"]) == pytest.approx(2 / 3)
    assert published(r["RR"]) == 1.0
    assert undetermined(r["R"]) == pytest.approx((2 / 3, 1.0))
    assert undetermined(r["nDCG"]) == pytest.approx((dcg(1, 1) / dcg(1, 1, 1), 1.0))


def test_k08_nothing_relevant_recall_and_ndcg_are_not_defined() -> None:
    for policy in ("strict", "trec", "judged-only"):
        r = read("Q3", "A,B,C,D,E,F", 3, policy)
        assert published(r["P"]) == 0.0
        assert published(r["RR"]) == 0.0
        not_defined(r["R"])
        not_defined(r["nDCG"])


@pytest.mark.parametrize("policy", ["strict", "trec", "judged-only"])
def test_k09_changing_the_depth(policy: str) -> None:
    r1 = read("Q2", "A,D,B,C,E,F", 1, policy)
    assert [published(r1[m]) for m in ("P", "R", "RR", "nDCG")] == [0.0, 0.0, 0.0, 0.0]
    r2 = read("Q2", "A,D,B,C,E,F", 2, policy)
    assert published(r2["P"]) == 0.5
    assert published(r2["R"]) == 1.0
    assert published(r2["RR"]) == 0.5
    assert published(r2["nDCG"]) == pytest.approx(dcg(0, 1) / dcg(1))


def test_k10_unknown_relevance_but_order_always_ideal() -> None:
    r = read("Q5", "A,B,C,D,E,F", 2)
    assert published(r["R"]) == 1.0
    assert published(r["RR"]) == 1.0
    assert published(r["nDCG"]) == 1.0
    assert undetermined(r["P"]) == (0.5, 1.0)


def test_k10_trec_and_judged_only_differ_on_precision() -> None:
    assert published(read("Q5", "A,B,C,D,E,F", 2, "trec")["P"]) == 0.5
    # judged-only condenses the list to A,C,D,E,F: C takes B's place.
    assert published(read("Q5", "A,B,C,D,E,F", 2, "judged-only")["P"]) == 0.5
