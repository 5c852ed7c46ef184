"""``metrics`` with intervals on the sample (issue 16): an ``X_ci`` beside every proportion and
mean of ``metrics --json`` (the JSON walked), Wilson ranges equal to scipy's, the paired
comparison of ``--compare``, ``--drift`` listing the runs with their version fields, and one
clear line for each bad option."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from tests.helpers import run_cli, stderr_lines

#: Keys whose value is a proportion or a mean (``None`` when not computable).
FIGURES = {"quality", "coverage", "success", "abstention_rate", "faithfulness_mean",
           "contradicted_share", "unsupported_share", "must_contain_recall",
           "share_under_target", "mean_steps", "mean_tokens", "mean_seconds"}
#: Blocks holding a ``rate``: the range sits beside the block.
RATE_BLOCKS = {"task_success", "path_acceptable", "both", "abstention"}
#: Mappings of measure -> mean (per family for the second).
MEANS = {"mean", "mean_per_family"}


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "s.goldset"
    out = run_cli("new", str(path), "--sample")
    assert out.returncode == 0, out.stderr
    return path


def metrics(path: Path, *args: str) -> dict[str, Any]:
    out = run_cli("metrics", str(path), *args, "--json")
    assert out.returncode == 0, out.stderr
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def is_range(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, (int, float)) for v in value) and value[0] <= value[1])


UNBOUNDED_MEANS = {"mean_steps", "mean_tokens", "mean_seconds"}


def check_ranges(block: dict[str, Any], path: str, seen: list[str]) -> None:
    """Every figure of ``block`` (recursively) has its range beside it: a [low, high] that
    holds the figure, or null exactly when the figure is null."""
    for key, value in block.items():
        where = f"{path}/{key}"
        if key in FIGURES and (value is None or isinstance(value, (int, float))):
            assert f"{key}_ci" in block, where
            ci = block[f"{key}_ci"]
            # null exactly when the figure is null, or for a mean of counts (steps, tokens,
            # seconds) over a single case: one value outside [0, 1] gives no interval
            single = key in UNBOUNDED_MEANS and value is not None and value > 1
            assert (ci is None) == (value is None) or (ci is None and single), where
            assert ci is None or (is_range(ci) and ci[0] - 1e-9 <= value <= ci[1] + 1e-9), where
            seen.append(where)
        elif key in RATE_BLOCKS and isinstance(value, dict) and "rate" in value:
            ci = block[f"{key}_ci"]
            assert (ci is None) == (value["rate"] is None), where
            assert ci is None or (is_range(ci) and ci[0] <= value["rate"] <= ci[1]), where
            seen.append(where)
        elif key == "violations" and isinstance(value, dict):
            ranges = block["violations_ci"]
            assert set(ranges) == set(value), where
            for code, v in value.items():
                assert (ranges[code] is None) == (v["rate"] is None), f"{where}/{code}"
                seen.append(f"{where}/{code}")
        elif key in MEANS:
            ranges = block[f"{key}_ci"]
            flat = value.items() if key == "mean" else (
                (f"{f}/{m}", v) for f, ms in value.items() for m, v in ms.items())
            for name, mean in flat:
                ci = ranges[name] if key == "mean" else ranges[name.split("/")[0]][
                    name.split("/")[1]]
                assert (ci is None) == (mean is None), f"{where}/{name}"
                assert ci is None or ci[0] - 1e-9 <= mean <= ci[1] + 1e-9, f"{where}/{name}"
                seen.append(f"{where}/{name}")
        elif isinstance(value, dict) and key not in ("per_query", "bounds", "enough"):
            check_ranges(value, where, seen)


@pytest.mark.parametrize("run", ["bm25-gpt4o-v1", "hybride-mistral-v2", "agent-support-v1"])
def test_every_proportion_and_mean_has_its_range(sample: Path, run: str) -> None:
    data = metrics(sample, "--run", run)
    seen: list[str] = []
    check_ranges(data, "", seen)
    assert "/answers/overall/quality" in seen and "/agents/overall/task_success" in seen
    if run != "agent-support-v1":
        assert "/mean/P@5" in seen and "/mean_per_family/ordinary/nDCG@10" in seen
        assert "/latency/share_under_target" in seen
    else:
        assert "/agents/overall/violations/forbidden:supprimer_compte" in seen
    assert data["interval_level"] == 0.95
    assert set(data["enough"]) >= {"overall"}


def test_sample_wilson_ranges_equal_scipy_binomtest(sample: Path) -> None:
    data = metrics(sample, "--run", "bm25-gpt4o-v1", "--level", "0.9")
    checked = 0
    for group in [data["answers"]["overall"], *data["answers"]["per_family"].values()]:
        for figure, k, n in (("quality", "validated", "produced"),
                             ("coverage", "produced", "tested"),
                             ("success", "validated", "tested")):
            if group[n]:
                ci = stats.binomtest(group[k], group[n]).proportion_ci(
                    confidence_level=0.9, method="wilson")
                assert group[f"{figure}_ci"] == pytest.approx([ci.low, ci.high], abs=1e-12)
                checked += 1
    assert checked >= 6


def test_sample_same_seed_same_ranges_other_seed_other_ranges(sample: Path) -> None:
    a = metrics(sample, "--run", "bm25-gpt4o-v1", "--seed", "7", "--resamples", "3000")
    b = metrics(sample, "--run", "bm25-gpt4o-v1", "--seed", "7", "--resamples", "3000")
    c = metrics(sample, "--run", "bm25-gpt4o-v1", "--seed", "8", "--resamples", "3000")
    assert a["mean_ci"] == b["mean_ci"] and a["mean_ci"] != c["mean_ci"]


def test_compare_json_keeps_compare_and_adds_comparison(sample: Path) -> None:
    data = metrics(sample, "--run", "bm25-gpt4o-v1", "--compare", "hybride-mistral-v2")
    assert "by_measure" in data["compare"]  # the existing block, unchanged
    comparison = data["comparison"]
    assert set(comparison) == set(data["measures"])
    for measure, c in comparison.items():
        assert set(c) >= {"mean_diff", "mean_diff_ci", "p_t", "p_randomization", "p_holm",
                          "verdict"}, measure
        assert c["verdict"] in ("better", "worse") or c["verdict"].startswith(
            "no detectable difference with ")
        assert c["mean_diff"] == pytest.approx(data["compare"]["by_measure"][measure]["delta"])
    text = run_cli("metrics", str(sample), "--run", "bm25-gpt4o-v1", "--compare",
                   "hybride-mistral-v2")
    # the text says what the JSON says, with the number of cases both runs cover
    verdicts = {c["verdict"] for c in comparison.values()}
    assert any(v.startswith("no detectable difference with ") for v in verdicts)
    assert all(v in text.stdout for v in verdicts)


def test_drift_lists_the_runs_with_their_version_fields(sample: Path) -> None:
    data = metrics(sample, "--drift", "--resamples", "2000")
    with closing(sqlite3.connect(sample)) as conn:
        rows = conn.execute("SELECT name, model, corpus_version, index_version, "
                            "prompt_version, notes FROM runs ORDER BY created_at, id").fetchall()
    assert [r["run"] for r in data["runs"]] == [r[0] for r in rows]
    for listed, row in zip(data["runs"], rows):
        assert listed["versions"] == dict(zip(
            ("model", "corpus_version", "index_version", "prompt_version", "notes"), row[1:]))
    assert data["baseline"] == rows[0][0]
    text = run_cli("metrics", str(sample), "--drift")
    assert text.returncode == 0, text.stderr
    for row in rows:
        assert row[0] in text.stdout and f"model: {row[1]}" in text.stdout


@pytest.mark.parametrize(("args", "line"), [
    (("--run", "bm25-gpt4o-v1", "--level", "1.5"),
     "error: --level: 1.5 is not between 0 and 1; give e.g. 0.95."),
    (("--run", "bm25-gpt4o-v1", "--resamples", "0"),
     "error: --resamples: 0 is below 1; give a whole number >= 1, e.g. 10000."),
    (("--run", "bm25-gpt4o-v1", "--target-half-width", "0"),
     "error: --target-half-width: 0.0 is not between 0 and 1; give e.g. 0.1 for ±10 "
     "points."),
    (("--drift", "--baseline", "nope"), None),
    (("--run", "bm25-gpt4o-v1", "--baseline", "bm25-gpt4o-v1"),
     "error: --baseline: only used with --drift."),
    ((), "error: --run NAME is required (or --drift for every run)."),
    (("--drift", "--run", "bm25-gpt4o-v1"),
     "error: --run: not used with --drift (the drift table covers every run)."),
])
def test_bad_options_give_one_clear_line(sample: Path, args: tuple[str, ...],
                                         line: str | None) -> None:
    out = run_cli("metrics", str(sample), *args)
    assert out.returncode == 2 and out.stdout == ""
    if line is None:
        line = (f"error: --baseline: no run 'nope' in {sample}; runs: agent-support-v1, "
                "agent-support-v2, bm25-gpt4o-v1, hybride-mistral-v2.")
    assert stderr_lines(out) == [line]


def test_text_shows_the_ranges_and_how_many_cases_are_enough(sample: Path) -> None:
    data = metrics(sample, "--run", "bm25-gpt4o-v1")
    out = run_cli("metrics", str(sample), "--run", "bm25-gpt4o-v1")
    assert out.returncode == 0, out.stderr
    overall = data["answers"]["overall"]
    low, high = overall["quality_ci"]
    assert f"quality {overall['quality']:.1%} [{low:.1%}–{high:.1%}]" in out.stdout
    low_row = next(line for line in out.stdout.splitlines() if line.startswith("95% low"))
    assert f"{data['mean_ci']['P@5'][0]:.4f}" in low_row
    success = data["enough"]["overall"]["success"]
    assert (f"success ±{success['half_width'] * 100:.1f} -> +{success['more']}"
            in out.stdout)
