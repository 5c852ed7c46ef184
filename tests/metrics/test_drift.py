"""metrics.drift (pure): runs in the order made, changes from the previous run and the
baseline, regressions with the version fields that changed and the cases that flipped."""

from __future__ import annotations

import pytest

from rag_annotator.metrics.drift import (
    OVERALL,
    VALIDATED,
    Headline,
    RunPoint,
    RunVersion,
    drift,
)
from rag_annotator.metrics.intervals import wilson

FIELDS = {"model": "m1", "corpus_version": "c1", "index_version": "i1",
          "prompt_version": "p1", "notes": "k=10"}


def point(name: str, run_id: int, created: str, success: dict[str, float],
          validated: dict[str, float], **fields: str) -> RunPoint:
    per_case: dict[str, dict[str, float | None]] = {
        c: {"Success@10": v, VALIDATED: validated.get(c)} for c, v in success.items()}
    k = int(sum(validated.values()))
    headline = Headline(k / len(validated), wilson(k, len(validated)), len(validated))
    return RunPoint(RunVersion(name, run_id, created, {**FIELDS, **fields}),
                    {OVERALL: {"success": headline}}, per_case, ("Success@10", VALIDATED),
                    "Success@10")


def cases(n: int, ones: int) -> dict[str, float]:
    return {f"q{i:02d}": 1.0 if i < ones else 0.0 for i in range(n)}


def test_runs_are_ordered_by_creation_then_id_with_changes_and_regressions() -> None:
    good = point("good", 2, "2026-01-01T10:00:00Z", cases(40, 40), cases(40, 30))
    also = point("also", 1, "2026-01-01T10:00:00Z", cases(40, 40), cases(40, 30))
    worse = point("worse", 3, "2026-02-01T10:00:00Z", cases(40, 15), cases(40, 10),
                  index_version="i2", prompt_version="p2")
    table = drift([worse, good, also], resamples=2000)
    assert [row.name for row in table.rows] == ["also", "good", "worse"]  # same date: id
    assert table.baseline == "also"
    first, second, third = table.rows
    assert first.from_previous == {} and first.from_baseline == {}
    assert second.from_previous[OVERALL]["success"] == pytest.approx(0.0)
    assert third.from_previous[OVERALL]["success"] == pytest.approx(10 / 40 - 30 / 40)
    assert not first.regressions and not second.regressions
    measures = {r.measure for r in third.regressions}
    assert measures == {"Success@10", VALIDATED}
    against = {r.against for r in third.regressions}
    assert against == {"good", "also"}  # the previous run, and the baseline before it
    regression = next(r for r in third.regressions if r.against == "good")
    assert regression.changed_fields == {"index_version": ("i1", "i2"),
                                         "prompt_version": ("p1", "p2")}
    assert regression.flipped_validated == tuple(f"q{i:02d}" for i in range(10, 30))
    assert regression.lost_relevant == tuple(f"q{i:02d}" for i in range(15, 40))
    assert regression.result.verdict == "worse" and regression.result.p_holm is not None
    data = table.to_json()
    assert [r["run"] for r in data["runs"]] == ["also", "good", "worse"]  # type: ignore[index]


def test_chance_is_not_a_regression_and_a_baseline_can_be_chosen() -> None:
    a = point("a", 1, "2026-01-01", cases(6, 5), cases(6, 4))
    b = point("b", 2, "2026-01-02", cases(6, 4), cases(6, 3), model="m2")
    table = drift([a, b], baseline="b", resamples=2000)
    assert table.baseline == "b" and not table.regressions
    assert table.rows[0].from_baseline[OVERALL]["success"] == pytest.approx(4 / 6 - 3 / 6)
    assert table.rows[1].from_baseline == {}
    with pytest.raises(ValueError, match="no run named 'zz'; runs: a, b"):
        drift([a, b], baseline="zz")
    assert drift([]).rows == () and drift([]).baseline is None
