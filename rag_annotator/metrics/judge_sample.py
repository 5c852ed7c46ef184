"""An automatic judge measured on a random human review sample, and its figures corrected.

Input: the judge's population at one level (every unit it labelled, with the human's label
where there is one: ``store.judged_units``) and the sample drawn from it
(``store.review_sample``).  Only the sampled units a human labelled count — whenever the
human did it, before the draw too — and units humans labelled outside the sample are
counted apart (``outside``), never mixed in: a convenience sample says little about the
judge's figures over the run.

Strata are (judge's label, family), taken from the population as it is now (a unit whose
judge label changed since the draw moves with it); stratum ``h`` holds ``N_h`` units and
``n_h`` reviewed ones, and a reviewed unit weighs ``N_h / n_h`` (the inverse of its
inclusion probability).  With these weights:

* per class, the judge's precision (of the units it put in the class, the share the human
  did too) and recall (of the units the human put there, the share the judge found), with
  Wilson intervals on the weighted share over the reviewed units;
* the judge's accuracy (weighted) with its Wilson interval;
* the confusion matrix (rows human, columns judge) and Cohen's kappa on the reviewed units,
  unweighted, as the Verify agreement view computes them (``metrics.calibration``);
* the disagreements, with the human's rationale;
* for each figure computed from the judge's labels, three numbers: the judge's naive figure
  over the population, the human sample's own (weighted) figure, and the stratified
  prediction-powered estimate with its interval (``metrics.ppi``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.metrics.calibration import confusion, kappa
from rag_annotator.metrics.intervals import Interval, z_value
from rag_annotator.metrics.ppi import PpiEstimate, Stratum, ppi_mean_stratified, weighted_mean

Row = Mapping[str, Any]
Value = Callable[[Row, str], "float | None"]

CLASSES: dict[str, tuple[str, ...]] = {
    "claims": ("supported", "not_supported", "contradicted"),
    "answers": ("validated", "not_validated"),
    "relevance": ("relevant", "not_relevant"),
}


def _is(label: str) -> Value:
    def value(unit: Row, who: str) -> float | None:
        word = unit[who]
        return None if word is None else float(word == label)
    return value


def _faithfulness(unit: Row, who: str) -> float | None:
    value = unit.get(f"{who}_faithfulness")
    return None if value is None else float(value)


#: The figures computed from a judge's labels, per level: measure → unit's value.
MEASURES: dict[str, dict[str, Value]] = {
    "claims": {"supported_share": _is("supported"),
               "contradicted_share": _is("contradicted")},
    "answers": {"validated_rate": _is("validated"), "faithfulness_mean": _faithfulness},
    "relevance": {"relevant_share": _is("relevant")},
}


def key_of(unit: Row) -> tuple[int, int | None]:
    """A unit's identity: (unit id, document id or None)."""
    return int(unit["unit_id"]), unit.get("document_id")


def stratum_name(unit: Row) -> str:
    """The stratum of a unit: judge's label / family."""
    return f"{unit['judge']}/{unit['family']}"


def wilson_share(p: float, n: int, level: float = 0.95) -> Interval | None:
    """The Wilson score interval of a (weighted) share ``p`` over ``n`` units."""
    if n <= 0:
        return None
    z = z_value(level)
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Interval(max(0.0, centre - half), min(1.0, centre + half), level)


@dataclass(frozen=True)
class Figure:
    """One figure three ways."""

    naive: float | None
    human: float | None
    ppi: PpiEstimate | None
    n_judge: int

    def to_json(self) -> dict[str, Any]:
        return {"naive": self.naive, "human": self.human,
                "ppi": None if self.ppi is None else self.ppi.value,
                "ppi_ci": None if self.ppi is None else self.ppi.interval.to_json(),
                "n_human": 0 if self.ppi is None else self.ppi.n_human,
                "n_judge": self.n_judge}


@dataclass(frozen=True)
class ClassScore:
    """The judge's precision and recall on one class."""

    precision: float | None
    precision_ci: Interval | None
    recall: float | None
    recall_ci: Interval | None
    judge_n: int
    human_n: int

    def to_json(self) -> dict[str, Any]:
        return {"precision": self.precision, "recall": self.recall,
                "precision_ci": self.precision_ci.to_json() if self.precision_ci else None,
                "recall_ci": self.recall_ci.to_json() if self.recall_ci else None,
                "judge_n": self.judge_n, "human_n": self.human_n}


@dataclass(frozen=True)
class JudgeSample:
    """The judge measured on its review sample at one level."""

    judge: str
    level: str
    population: int
    sampled: int
    reviewed: int
    accuracy: float | None
    accuracy_ci: Interval | None
    classes: dict[str, ClassScore]
    confusion: list[list[int]]
    kappa: float | None
    figures: dict[str, Figure]
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    outside: dict[str, Any] = field(default_factory=dict)

    @property
    def to_review(self) -> int:
        """Sampled units no human labelled yet."""
        return self.sampled - self.reviewed

    def to_json(self) -> dict[str, Any]:
        return {"population": self.population, "sampled": self.sampled,
                "reviewed": self.reviewed, "accuracy": self.accuracy,
                "accuracy_ci": self.accuracy_ci.to_json() if self.accuracy_ci else None,
                "classes": {c: s.to_json() for c, s in self.classes.items()},
                "class_order": list(CLASSES[self.level]), "confusion": self.confusion,
                "kappa": self.kappa, "disagreements": self.disagreements,
                "outside_sample": self.outside,
                **{m: f.to_json() for m, f in self.figures.items()}}


def _strata(units: Sequence[Row]) -> dict[str, list[Row]]:
    strata: dict[str, list[Row]] = {}
    for unit in units:
        strata.setdefault(stratum_name(unit), []).append(unit)
    return strata


def _weights(reviewed: Sequence[Row], sizes: Mapping[str, int]) -> list[float]:
    """N_h / n_h of each reviewed unit (post-stratified on the population now)."""
    counts: dict[str, int] = {}
    for unit in reviewed:
        counts[stratum_name(unit)] = counts.get(stratum_name(unit), 0) + 1
    return [sizes[stratum_name(u)] / counts[stratum_name(u)] for u in reviewed]


def _figure(value: Value, strata: Mapping[str, list[Row]], sampled: set[tuple[int, Any]],
            level: float) -> Figure:
    judged = [(u, value(u, "judge")) for rows in strata.values() for u in rows]
    judge_values = [f for _u, f in judged if f is not None]
    parts: dict[str, Stratum] = {}
    human_values: list[float] = []
    human_weights: list[float] = []
    for name, rows in strata.items():
        f_all = [f for f in (value(u, "judge") for u in rows) if f is not None]
        pairs = [(y, f) for y, f in ((value(u, "human"), value(u, "judge")) for u in rows
                                      if key_of(u) in sampled) if y is not None and f is not None]
        parts[name] = Stratum(f_all, [y for y, _f in pairs], [f for _y, f in pairs])
        human_values += [y for y, _f in pairs]
        if pairs:
            human_weights += [len(f_all) / len(pairs)] * len(pairs)
    return Figure(sum(judge_values) / len(judge_values) if judge_values else None,
                  weighted_mean(human_values, human_weights),
                  ppi_mean_stratified(parts, level), len(judge_values))


def _class_scores(classes: Sequence[str], reviewed: Sequence[Row], weights: Sequence[float],
                  level: float) -> dict[str, ClassScore]:
    scores: dict[str, ClassScore] = {}
    for c in classes:
        both = sum(w for u, w in zip(reviewed, weights) if u["judge"] == c == u["human"])
        judge_w = sum(w for u, w in zip(reviewed, weights) if u["judge"] == c)
        human_w = sum(w for u, w in zip(reviewed, weights) if u["human"] == c)
        judge_n = sum(1 for u in reviewed if u["judge"] == c)
        human_n = sum(1 for u in reviewed if u["human"] == c)
        precision = both / judge_w if judge_w else None
        recall = both / human_w if human_w else None
        scores[c] = ClassScore(
            precision, None if precision is None else wilson_share(precision, judge_n, level),
            recall, None if recall is None else wilson_share(recall, human_n, level),
            judge_n, human_n)
    return scores


def _disagreement(unit: Row) -> dict[str, Any]:
    shown = {k: unit.get(k) for k in ("unit_id", "document_id", "run", "case_key",
                                      "document_key", "position", "text") if k in unit}
    return {**shown, "human": unit["human"], "judge": unit["judge"],
            "rationale": unit.get("rationale") or ""}


def measure_judge(judge: str, level: str, units: Sequence[Row],
                  sample_items: Sequence[Row], confidence: float = 0.95) -> JudgeSample:
    """The judge on its sample (see the module's docstring)."""
    classes = CLASSES[level]
    sampled = {key_of(item) for item in sample_items}
    present = [u for u in units if key_of(u) in sampled]
    reviewed = [u for u in present if u["human"] is not None]
    strata = _strata(units)
    sizes = {h: len(rows) for h, rows in strata.items()}
    weights = _weights(reviewed, sizes)
    total = sum(weights)
    agree = sum(w for u, w in zip(reviewed, weights) if u["human"] == u["judge"])
    accuracy = agree / total if total else None
    outside = [u for u in units if u["human"] is not None and key_of(u) not in sampled]
    matrix = confusion([u["human"] for u in reviewed], [u["judge"] for u in reviewed],
                       classes)
    return JudgeSample(
        judge, level, len(units), len(present), len(reviewed), accuracy,
        None if accuracy is None else wilson_share(accuracy, len(reviewed), confidence),
        _class_scores(classes, reviewed, weights, confidence), matrix,
        kappa(matrix) if reviewed else None,
        {m: _figure(value, strata, sampled, confidence) for m, value in MEASURES[level].items()},
        [_disagreement(u) for u in reviewed if u["human"] != u["judge"]],
        {"labelled": len(outside),
         "agreement": (sum(u["human"] == u["judge"] for u in outside) / len(outside))
         if outside else None})
