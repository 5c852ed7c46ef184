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

When the judge graded claims of its own that no human verified (RAGChecker's triplets
beside a human's sentences), claims cannot be paired; the **answer level** still
compares: per answer, the judge's faithfulness (its supported claims / claims it graded)
against the human's (supported / verified claims of the same answer), with the mean
absolute difference and how often both call the answer fully supported or not
(:func:`answer_agreement`).

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


def answer_agreement(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Judge vs human at the answer level (``store.answer_faithfulness`` rows).

    Keys: ``answers`` (the judge graded), ``compared`` (a human verified some claim too),
    ``mean_abs_difference`` of the two faithfulness shares, ``same_fully_supported`` (share
    of compared answers where both say "every claim supported", or both say not),
    ``judge_faithfulness`` / ``human_faithfulness`` (means over the compared answers), and
    ``per_answer`` (``run``, ``case_key``, ``judge``, ``human``: shares, human None when
    no claim of the answer is verified)."""
    per_answer = []
    for row in rows:
        judged = _share(int(row["judge_supported"] or 0), int(row["judge_graded"]))
        human = _share(int(row["human_supported"] or 0), int(row["human_verified"]))
        per_answer.append({"run": row["run"], "case_key": row["case_key"], "judge": judged,
                           "human": human})
    both = [(p["judge"], p["human"]) for p in per_answer if p["human"] is not None]
    return {
        "answers": len(per_answer),
        "compared": len(both),
        "mean_abs_difference": _mean([abs(j - h) for j, h in both]),
        "same_fully_supported": _mean([float((j == 1.0) == (h == 1.0)) for j, h in both]),
        "judge_faithfulness": _mean([j for j, _h in both]),
        "human_faithfulness": _mean([h for _j, h in both]),
        "per_answer": per_answer,
    }


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def calibration_report(judge: str, pairs: Sequence[Mapping[str, Any]],
                       counts: Mapping[str, int],
                       answers: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Human vs ``judge`` on claims (see the module docstring), as a JSON-ready dict.

    ``pairs``: the claims both verdicted (``store.calibration_pairs``: ``human``, ``judge``
    and the claim's fields); ``counts``: everything the judge graded, by verdict
    (``store.judge_verdict_counts``).

    Keys: ``judge``, ``classes``, ``pairs`` (claims compared), ``confusion`` (rows human,
    columns judge), ``per_class`` {class: {``human``, ``judge``, ``both``, ``precision``,
    ``recall``}}, ``agreement`` (share, 0–1), ``kappa``, ``judge_verdicts`` (everything the
    judge graded, by verdict code, ``unmapped`` for labels without one), ``judge_only``
    (judge verdicts on claims no human verified), ``disagreements`` (``claim_id``, ``run``,
    ``case_key``, ``position``, ``text``, ``human``, ``judge``, ``raw_label``),
    ``answer_level`` (:func:`answer_agreement` of ``answers``).
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
        "answer_level": answer_agreement(answers),
    }
