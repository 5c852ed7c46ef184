"""Agreement figures against reference implementations (scikit-learn, ``krippendorff``).

Labels are generated as rater × unit matrices with holes (unjudged), so kappa sees only the
pairs both raters judged and alpha only the units with two labels or more.
"""

from __future__ import annotations

import math
import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from rag_annotator.metrics.agreement import (
    JudgmentRow,
    agreement,
    agreement_by_family,
    agreement_json,
    cohen_kappa,
    krippendorff_alpha,
    pairwise,
    percent_agreement,
    units_of,
)

Matrix = list[list[int | None]]


@st.composite
def matrices(draw: st.DrawFn, raters: int | None = None) -> Matrix:
    """Raters × units of grades 0–2 or None (not judged by that rater)."""
    m = raters if raters is not None else draw(st.integers(2, 4))
    n = draw(st.integers(0, 25))
    cell = st.none() | st.integers(0, 2)
    return [draw(st.lists(cell, min_size=n, max_size=n)) for _ in range(m)]


def to_rows(matrix: Matrix, family: str = "ordinary") -> list[JudgmentRow]:
    return [JudgmentRow(f"Q{u}", f"D{u}", f"r{r}", g, family)
            for r, line in enumerate(matrix) for u, g in enumerate(line) if g is not None]


def reference_kappa(matrix: Matrix) -> float | None:
    a, b = matrix
    pairs = [(int(x >= 1), int(y >= 1)) for x, y in zip(a, b) if x is not None and y is not None]
    if not pairs:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = cohen_kappa_score([p[0] for p in pairs], [p[1] for p in pairs], labels=[0, 1])
    return None if math.isnan(value) else float(value)


def reference_alpha(matrix: Matrix) -> float | None:
    data = np.array([[np.nan if g is None else float(g >= 1) for g in line] for line in matrix])
    if data.size == 0 or not np.any(np.sum(~np.isnan(data), axis=0) >= 2):
        return None
    pairable = data[:, np.sum(~np.isnan(data), axis=0) >= 2]
    if len(set(pairable[~np.isnan(pairable)].tolist())) < 2:
        return None  # the package answers nan (one category) or raises
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal",
                                   value_domain=[0.0, 1.0])
    return None if math.isnan(value) else float(value)


def same(ours: float | None, theirs: float | None) -> bool:
    if ours is None or theirs is None:
        return ours is None and theirs is None
    return ours == pytest.approx(theirs, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(matrices(raters=2))
def test_kappa_matches_scikit_learn(matrix: Matrix) -> None:
    result = agreement(to_rows(matrix))
    expected = reference_kappa(matrix) if result.assessors == 2 else None
    assert same(result.kappa, expected), (result, expected)


@settings(max_examples=300, deadline=None)
@given(matrices())
def test_alpha_matches_krippendorff_package(matrix: Matrix) -> None:
    assert same(agreement(to_rows(matrix)).alpha, reference_alpha(matrix))


@settings(max_examples=200, deadline=None)
@given(matrices(raters=2))
def test_percent_is_the_share_of_agreeing_pairs_for_two(matrix: Matrix) -> None:
    a, b = matrix
    pairs = [(x >= 1, y >= 1) for x, y in zip(a, b) if x is not None and y is not None]
    expected = 100 * sum(x == y for x, y in pairs) / len(pairs) if pairs else None
    assert same(agreement(to_rows(matrix)).percent, expected)


def test_undefined_cases_give_none() -> None:
    assert cohen_kappa([], []) is None
    assert cohen_kappa([True, True], [True, True]) is None  # chance agreement is 1
    assert cohen_kappa([True, False], [True, False]) == 1.0
    assert krippendorff_alpha([]) is None
    assert krippendorff_alpha([{"a": True, "b": True}]) is None  # one category
    assert krippendorff_alpha([{"a": True}, {"b": False}]) is None  # nothing pairable
    assert percent_agreement([{"a": True}]) is None
    empty = agreement([])
    assert (empty.assessors, empty.units, empty.percent, empty.kappa, empty.alpha) == (
        0, 0, None, None, None)


def test_kappa_only_for_exactly_two_assessors() -> None:
    rows = to_rows([[0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0]])
    result = agreement(rows)
    assert result.assessors == 3 and result.kappa is None
    assert result.alpha is not None and result.units == 4
    # three raters: mean share of agreeing rater pairs (1/3, 1, 1/3, 1)
    assert result.percent == pytest.approx(100 * (1 / 3 + 1 + 1 / 3 + 1) / 4)


@settings(max_examples=100, deadline=None)
@given(matrices())
def test_pairwise_kappa_matches_scikit_learn(matrix: Matrix) -> None:
    found = {tuple(p["assessors"]): p["kappa"] for p in pairwise(to_rows(matrix))}
    for (first, second), kappa in found.items():
        i, j = int(first[1:]), int(second[1:])  # type: ignore[index]
        assert same(kappa, reference_kappa([matrix[i], matrix[j]]))  # type: ignore[arg-type]


def test_grades_are_binary_labels() -> None:
    """Grades 1 and 2 are both 'relevant': assessors giving them agree."""
    rows = [JudgmentRow("Q", "D", "a", 1, "ordinary"), JudgmentRow("Q", "D", "b", 2, "ordinary")]
    assert units_of(rows) == {("Q", "D"): {"a": True, "b": True}}
    assert agreement(rows).percent == 100.0


def test_by_family_and_json() -> None:
    rows = [*to_rows([[0, 1, 1, 0], [0, 1, 0, 0]], "ordinary"),
            JudgmentRow("S1", "D1", "r0", 1, "sensitive")]
    families = agreement_by_family(rows)
    assert list(families) == ["ordinary", "sensitive"]
    assert families["ordinary"].kappa == pytest.approx(
        cohen_kappa_score([0, 1, 1, 0], [0, 1, 0, 0]))
    assert families["sensitive"].assessors == 1 and families["sensitive"].kappa is None
    out = agreement_json(rows)
    assert set(out) == {"assessors", "units", "percent", "kappa", "alpha", "pairwise",
                        "by_family"}
    assert out["pairwise"] == [{"assessors": ["r0", "r1"], "units": 4, "percent": 75.0,
                                "kappa": pytest.approx(families["ordinary"].kappa)}]
    assert out["by_family"]["sensitive"]["percent"] is None  # type: ignore[index]
