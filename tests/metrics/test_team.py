"""Team figures against reference implementations (scikit-learn's ``cohen_kappa_score``, the
``krippendorff`` package, ``statistics.median``) and the outlier rules on made-up teams."""

from __future__ import annotations

import math
import statistics
import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from rag_annotator.metrics.team import (
    FAST_SHARE,
    KAPPA_GAP,
    TimedJudgment,
    alpha_of_grades,
    team_figures,
)

Matrix = list[list[int | None]]


@st.composite
def matrices(draw: st.DrawFn) -> Matrix:
    """Raters × units of grades 0–3 or None (not judged by that rater)."""
    m = draw(st.integers(2, 4))
    n = draw(st.integers(0, 25))
    cell = st.none() | st.integers(0, 3)
    return [draw(st.lists(cell, min_size=n, max_size=n)) for _ in range(m)]


def to_rows(matrix: Matrix) -> list[TimedJudgment]:
    return [TimedJudgment(f"Q{u}", f"D{u}", f"r{r}", g, float(u + r))
            for r, line in enumerate(matrix) for u, g in enumerate(line) if g is not None]


def same(ours: float | None, theirs: float | None) -> bool:
    if ours is None or theirs is None:
        return ours is None and theirs is None
    return ours == pytest.approx(theirs, abs=1e-9)


def sklearn_kappa(a: list[int | None], b: list[int | None]) -> float | None:
    pairs = [(int(x >= 1), int(y >= 1)) for x, y in zip(a, b) if x is not None and y is not None]
    if not pairs:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = cohen_kappa_score([p[0] for p in pairs], [p[1] for p in pairs], labels=[0, 1])
    return None if math.isnan(value) else float(value)


def package_alpha(matrix: Matrix, level: str, binary: bool) -> float | None:
    data = np.array([[np.nan if g is None else float(g >= 1 if binary else g) for g in line]
                     for line in matrix])
    if data.size == 0:
        return None
    pairable = data[:, np.sum(~np.isnan(data), axis=0) >= 2]
    if len(set(pairable[~np.isnan(pairable)].tolist())) < 2:
        return None  # the package answers nan or raises
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = krippendorff.alpha(reliability_data=pairable, level_of_measurement=level)
    return None if math.isnan(value) else float(value)


@settings(max_examples=200, deadline=None)
@given(matrices())
def test_pairwise_kappa_matches_scikit_learn(matrix: Matrix) -> None:
    figures = team_figures(to_rows(matrix))
    for pair in figures.pairwise:
        i, j = int(pair.first[1:]), int(pair.second[1:])
        assert same(pair.kappa, sklearn_kappa(matrix[i], matrix[j]))
        assert pair.units == sum(x is not None and y is not None
                                 for x, y in zip(matrix[i], matrix[j]))


@settings(max_examples=200, deadline=None)
@given(matrices())
def test_assessor_kappa_is_the_mean_of_their_pairwise_kappas(matrix: Matrix) -> None:
    figures = team_figures(to_rows(matrix))
    for who in figures.assessors:
        r = int(who.name[1:])
        values = [k for k in (sklearn_kappa(matrix[r], matrix[o]) for o in range(len(matrix))
                              if o != r) if k is not None]
        assert who.kappa_partners == len(values)
        assert same(who.kappa, sum(values) / len(values) if values else None)


@settings(max_examples=200, deadline=None)
@given(matrices())
def test_alpha_matches_krippendorff_package(matrix: Matrix) -> None:
    figures = team_figures(to_rows(matrix), graded=True)
    assert same(figures.alpha, package_alpha(matrix, "nominal", binary=True))
    assert same(figures.alpha_ordinal, package_alpha(matrix, "ordinal", binary=False))


@settings(max_examples=100, deadline=None)
@given(matrices())
def test_nominal_alpha_on_grades_matches_the_package(matrix: Matrix) -> None:
    units: dict[int, dict[str, int]] = {}
    for r, line in enumerate(matrix):
        for u, g in enumerate(line):
            if g is not None:
                units.setdefault(u, {})[f"r{r}"] = g
    assert same(alpha_of_grades(units.values(), "nominal"),
                package_alpha(matrix, "nominal", binary=False))


def test_judged_remaining_median_and_self_consistency() -> None:
    rows = [TimedJudgment("Q1", "D1", "ana", 1, 10.0), TimedJudgment("Q1", "D2", "ana", 0, 30.0),
            TimedJudgment("Q2", "D1", "ana", 2, None),
            TimedJudgment("Q1", "D1", "bob", 0, 4.0)]
    figures = team_figures(rows, assigned={"ana": 10, "bob": 5, "cleo": 7},
                           controls={"ana": [(1, 2), (0, 1), (0, 0)]},
                           cant_judge={"bob": 1}).by_name()
    ana, bob, cleo = figures["ana"], figures["bob"], figures["cleo"]
    assert (ana.judged, ana.remaining, ana.timed) == (3, 7, 2)
    assert ana.median_seconds == statistics.median([10.0, 30.0])
    assert (ana.controls, ana.consistent) == (3, 2)  # binary: 1 and 2 are both relevant
    assert ana.self_consistency == pytest.approx(2 / 3)
    assert (bob.judged, bob.cant_judge, bob.remaining) == (1, 1, 3)
    assert (cleo.judged, cleo.remaining, cleo.median_seconds, cleo.kappa) == (0, 7, None, None)
    assert cleo.self_consistency is None
    graded = team_figures(rows, controls={"ana": [(1, 2), (0, 1), (0, 0)]}, graded=True)
    assert graded.by_name()["ana"].consistent == 1  # graded: only 0/0 is the same grade


def _team(times: dict[str, float], labels: dict[str, list[int]]) -> list[TimedJudgment]:
    return [TimedJudgment(f"Q{u}", "D", name, g, times[name])
            for name, line in labels.items() for u, g in enumerate(line)]


def test_a_fast_assessor_is_flagged_with_the_reason() -> None:
    same_labels = [1, 0, 1, 1, 0, 0, 1, 0]
    rows = _team({"ana": 30.0, "bob": 24.0, "cleo": 5.0},
                 {n: same_labels for n in ("ana", "bob", "cleo")})
    figures = team_figures(rows)
    assert figures.team_median_seconds == 24.0
    flagged = {a.name: [o.code for o in a.outliers] for a in figures.assessors}
    assert flagged == {"ana": [], "bob": [], "cleo": ["fast"]}
    assert 24.0 * FAST_SHARE > 5.0
    reason = figures.by_name()["cleo"].outliers[0].reason
    assert "5.0 s" in reason and "24.0 s" in reason


def test_a_low_kappa_assessor_is_flagged() -> None:
    truth = [1, 0, 1, 1, 0, 0, 1, 0, 1, 0]
    noisy = [0, 1, 1, 0, 1, 0, 0, 1, 1, 1]
    rows = _team({n: 20.0 for n in "abcd"},
                 {"a": truth, "b": truth, "c": truth, "d": noisy})
    figures = team_figures(rows)
    by = figures.by_name()
    assert figures.team_median_kappa is not None
    assert by["d"].kappa is not None
    assert by["d"].kappa < figures.team_median_kappa - KAPPA_GAP
    assert [o.code for o in by["d"].outliers] == ["low_kappa"]
    assert not any(by[n].outliers for n in "abc")


def test_two_assessors_are_never_kappa_outliers_and_json_is_plain() -> None:
    rows = _team({"a": 20.0, "b": 20.0}, {"a": [1, 0, 1, 0], "b": [0, 1, 0, 1]})
    figures = team_figures(rows, controls={"a": [(1, 0), (0, 1), (1, 0)]})
    assert figures.team_median_kappa == -1.0  # reported, but no rule with two
    by = figures.by_name()
    assert [o.code for o in by["a"].outliers] == ["inconsistent"]
    data = figures.to_json()
    assert set(data["per_assessor"]) == {"a", "b"}  # type: ignore[arg-type]
    assert data["outlier_rules"]
    import json

    json.dumps(data)  # plain values only


def test_empty_team() -> None:
    figures = team_figures([])
    assert figures.assessors == () and figures.alpha is None and figures.units == 0
