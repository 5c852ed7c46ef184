"""The judge measured on its review sample (issue 22) against scikit-learn: weighted
precision and recall per class, confusion matrix, kappa; units outside the sample apart."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix, precision_recall_fscore_support

from rag_annotator.domain.review_sample import draw
from rag_annotator.metrics.judge_sample import CLASSES, measure_judge, stratum_name

LABELS = CLASSES["claims"]


def _population(seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    units = []
    for i in range(400):
        human = rng.choices(LABELS, (6, 3, 1))[0]
        judge = human if rng.random() < 0.75 else rng.choice(LABELS)
        units.append({"unit_id": i, "document_id": None, "judge": judge, "human": human,
                      "family": rng.choice(("ordinary", "sensitive")), "rationale": f"r{i}"})
    return units


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_precision_recall_kappa_against_sklearn(seed: int) -> None:
    population = _population(seed)
    drawn = draw(population, 80, seed)
    sampled = {d.unit_id for d in drawn}
    # humans reviewed 70 of the 80 sampled, and 50 units outside the sample
    reviewed = {d.unit_id for d in drawn[:70]}
    outside = [u["unit_id"] for u in population if u["unit_id"] not in sampled][:50]
    units = [{**u, "human": u["human"] if u["unit_id"] in reviewed or u["unit_id"] in outside
              else None} for u in population]
    items = [{"unit_id": d.unit_id, "document_id": None} for d in drawn]
    got = measure_judge("J", "claims", units, items)
    assert got.sampled == 80 and got.reviewed == 70 and got.to_review == 10
    assert got.outside["labelled"] == 50
    rows = [u for u in units if u["unit_id"] in reviewed]
    sizes = Counter(stratum_name(u) for u in units)
    counts = Counter(stratum_name(u) for u in rows)
    weights = [sizes[stratum_name(u)] / counts[stratum_name(u)] for u in rows]
    human = [u["human"] for u in rows]
    judge = [u["judge"] for u in rows]
    precision, recall, _f, _s = precision_recall_fscore_support(
        human, judge, labels=list(LABELS), sample_weight=weights, zero_division=0)
    for i, label in enumerate(LABELS):
        score = got.classes[label]
        assert score.precision == pytest.approx(precision[i])
        assert score.recall == pytest.approx(recall[i])
        assert score.precision_ci is not None
        assert score.precision_ci.low <= score.precision <= score.precision_ci.high
    assert got.confusion == confusion_matrix(human, judge, labels=list(LABELS)).tolist()
    assert got.kappa == pytest.approx(cohen_kappa_score(human, judge))
    assert len(got.disagreements) == sum(h != j for h, j in zip(human, judge))
    assert all(d["rationale"].startswith("r") for d in got.disagreements)
    agree = sum(w for u, w in zip(rows, weights) if u["human"] == u["judge"]) / sum(weights)
    assert got.accuracy == pytest.approx(agree)
    figure = got.figures["supported_share"]
    assert figure.naive == pytest.approx(
        sum(u["judge"] == "supported" for u in units) / len(units))
    assert figure.human == pytest.approx(
        sum(w * (u["human"] == "supported") for u, w in zip(rows, weights)) / sum(weights))
    assert figure.ppi is not None and figure.ppi.n_human == 70 and figure.n_judge == 400
