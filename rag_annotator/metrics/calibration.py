"""How far an automatic judge (an LLM grader) agrees with the human verdicts on claims.

Compared on the claims that both the human (the claim's verdict) and the judge verdicted,
over the three classes supported / not supported / contradicted:

* the confusion matrix, rows the human verdict, columns the judge's (the layout of
  scikit-learn's ``confusion_matrix(human, judge, labels=CLASSES)``);
* per class: how many claims each gave that class, how many both did, and the judge's
  precision and recall on it against the human (None when not defined);
* the share of claims where they agree and Cohen's kappa (nominal, unweighted; None when it
  is 0/0: no claim, or both always give the same single class);
* the claims where they disagree, to go and look.

Claims only one of them verdicted are counted apart (``judge_only``, i.e. the judge graded a
claim no human has verified yet; and the judge's labels our mapping left without a verdict,
``unmapped``), never folded into a class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

CLASSES = ("supported", "not_supported", "contradicted")


def confusion(human: Sequence[str], judge: Sequence[str],
              classes: Sequence[str] = CLASSES) -> list[list[int]]:
    """Counts ``[i][j]`` of claims the human put in ``classes[i]`` and the judge in
    ``classes[j]``."""
    if len(human) != len(judge):
        raise ValueError("confusion needs two sequences of the same length")
    index = {c: i for i, c in enumerate(classes)}
    matrix = [[0] * len(classes) for _ in classes]
    for h, j in zip(human, judge):
        matrix[index[h]][index[j]] += 1
    return matrix


def kappa(matrix: Sequence[Sequence[int]]) -> float | None:
    """Cohen's kappa of a square confusion matrix (None when undefined)."""
    n = sum(sum(row) for row in matrix)
    if n == 0:
        return None
    observed = sum(matrix[i][i] for i in range(len(matrix))) / n
    rows = [sum(row) / n for row in matrix]
    cols = [sum(matrix[i][j] for i in range(len(matrix))) / n for j in range(len(matrix))]
    expected = sum(r * c for r, c in zip(rows, cols))
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def _share(num: int, den: int) -> float | None:
    return None if den == 0 else num / den


def calibration_report(judge: str, pairs: Sequence[Mapping[str, Any]],
                       counts: Mapping[str, int]) -> dict[str, Any]:
    """Human vs ``judge`` on claims (see the module docstring), as a JSON-ready dict.

    ``pairs``: the claims both verdicted (``store.calibration_pairs``: ``human``, ``judge``
    and the claim's fields); ``counts``: everything the judge graded, by verdict
    (``store.judge_verdict_counts``).

    Keys: ``judge``, ``classes``, ``pairs`` (claims compared), ``confusion`` (rows human,
    columns judge), ``per_class`` {class: {``human``, ``judge``, ``both``, ``precision``,
    ``recall``}}, ``agreement`` (share, 0–1), ``kappa``, ``judge_verdicts`` (everything the
    judge graded, by verdict code, ``unmapped`` for labels without one), ``judge_only``
    (judge verdicts on claims no human verified), ``disagreements`` (``claim_id``, ``run``,
    ``case_key``, ``position``, ``text``, ``human``, ``judge``, ``raw_label``).
    """
    human = [str(p["human"]) for p in pairs]
    machine = [str(p["judge"]) for p in pairs]
    matrix = confusion(human, machine)
    per_class: dict[str, dict[str, Any]] = {}
    for i, name in enumerate(CLASSES):
        both = matrix[i][i]
        by_human = sum(matrix[i])
        by_judge = sum(row[i] for row in matrix)
        per_class[name] = {"human": by_human, "judge": by_judge, "both": both,
                           "precision": _share(both, by_judge),
                           "recall": _share(both, by_human)}
    agree = sum(matrix[i][i] for i in range(len(CLASSES)))
    mapped = sum(n for verdict, n in counts.items() if verdict != "unmapped")
    return {
        "judge": judge,
        "classes": list(CLASSES),
        "pairs": len(pairs),
        "confusion": matrix,
        "per_class": per_class,
        "agreement": _share(agree, len(pairs)),
        "kappa": kappa(matrix),
        "judge_verdicts": dict(counts),
        "judge_only": mapped - len(pairs),
        "disagreements": [dict(p) for p in pairs if p["human"] != p["judge"]],
    }
