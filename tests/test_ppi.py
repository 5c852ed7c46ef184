"""Prediction-powered estimates (issue 22) against ppi_py, a hand computation and a
simulation of judges with a known error rate; the seeded, stratified draw."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

from rag_annotator.domain.review_sample import allocate, draw, proposed_size
from rag_annotator.errors import InvalidValue
from rag_annotator.import_export.sample import create_sample
from rag_annotator.metrics.judge_sample import MEASURES, key_of
from rag_annotator.metrics.ppi import Stratum, ppi_mean, ppi_mean_stratified
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import run_cli


def _peer(y: list[float], f: list[float], f_all: list[float],
          level: float = 0.95) -> tuple[float, float, float]:
    arrays = np.array(y, float), np.array(f, float), np.array(f_all, float)
    low, high = ppi_mean_ci(*arrays, alpha=1 - level, lam=1)
    value = ppi_mean_pointestimate(*arrays, lam=1)
    return float(np.ravel(value)[0]), float(np.ravel(low)[0]), float(np.ravel(high)[0])


@pytest.mark.parametrize("seed", range(6))
def test_ppi_equals_ppi_py_on_generated_data(seed: int) -> None:
    rng = np.random.default_rng(seed)
    big_n, n = int(rng.integers(50, 3000)), int(rng.integers(5, 300))
    truth = rng.random(big_n) < rng.uniform(0.2, 0.9)
    judge = np.where(rng.random(big_n) < rng.uniform(0.05, 0.3), ~truth, truth).astype(float)
    if seed % 2:  # a continuous figure too (faithfulness-like)
        judge = np.clip(judge * 0.8 + rng.random(big_n) * 0.2, 0, 1)
    picked = rng.choice(big_n, size=min(n, big_n), replace=False)
    y, f = truth[picked].astype(float).tolist(), judge[picked].tolist()
    level = (0.9, 0.95, 0.99)[seed % 3]
    ours = ppi_mean(y, f, judge.tolist(), level)
    assert ours is not None
    value, low, high = _peer(y, f, judge.tolist(), level)
    assert ours.value == pytest.approx(value, abs=1e-6)
    assert ours.interval.low == pytest.approx(low, abs=1e-6)
    assert ours.interval.high == pytest.approx(high, abs=1e-6)


def test_stratified_equals_a_hand_computation() -> None:
    # stratum a: N=6, judge 1,1,1,1,0,0; humans on 3 of them (1,0,1) where judge said (1,1,0)
    # stratum b: N=4, judge 0,0,0,1; humans on 2 (0,1) where judge said (0,0)
    a = Stratum([1, 1, 1, 1, 0, 0], [1, 0, 1], [1, 1, 0])
    b = Stratum([0, 0, 0, 1], [0, 1], [0, 0])
    got = ppi_mean_stratified({"a": a, "b": b})
    assert got is not None
    # theta_a = 4/6 + (0 - 1 + 1)/3 = 2/3; theta_b = 1/4 + (0 + 1)/2 = 3/4
    theta = 0.6 * (2 / 3) + 0.4 * 0.75
    # var_a = var(f_a)/6 + var(r_a)/3, var(f_a) = 2/9, r_a = (0,-1,1): var 2/3
    # var_b = var(f_b)/4 + var(r_b)/2, var(f_b) = 3/16, r_b = (0,1): var 1/4
    var = 0.36 * ((2 / 9) / 6 + (2 / 3) / 3) + 0.16 * ((3 / 16) / 4 + 0.25 / 2)
    # + the weights' variance: sum W_h (theta_h - theta)^2 / N
    var += (0.6 * (2 / 3 - theta) ** 2 + 0.4 * (0.75 - theta) ** 2) / 10
    half = 1.959963984540054 * var ** 0.5
    assert got.value == pytest.approx(theta, abs=1e-12)
    assert got.interval.low == pytest.approx(theta - half, abs=1e-9)
    assert got.interval.high == pytest.approx(theta + half, abs=1e-9)
    assert got.n_human == 5 and got.n_judge == 10 and got.stratified


def test_stratum_without_human_labels_uses_the_pooled_correction() -> None:
    got = ppi_mean_stratified({"a": Stratum([1, 1], [0, 1], [1, 1]), "b": Stratum([0, 0])})
    assert got is not None
    assert got.value == pytest.approx(0.5 * (1 - 0.5) + 0.5 * (0 - 0.5))


def test_no_human_label_gives_none() -> None:
    assert ppi_mean([], [], [1.0, 0.0]) is None
    assert ppi_mean_stratified({"a": Stratum([1.0])}) is None
    with pytest.raises(ValueError):
        ppi_mean([1.0], [], [1.0])


@pytest.mark.parametrize("stratified", [False, True])
def test_interval_covers_the_truth_at_its_level(stratified: bool) -> None:
    """1,000 seeded trials: each draws a run of 2,000 claims, 60 % of them truly supported,
    graded by a judge that errs on 15 % of them (lenient: it calls them supported), and a
    human sample of 200; the 95 % interval covers the true share 0.6 in 93-97 % of trials
    (PPI's guarantee is for the share the claims are drawn from)."""
    rng = np.random.default_rng(2022)
    big_n, n, covered, true_share = 2000, 200, 0, 0.6
    for _trial in range(1000):
        truth = rng.random(big_n) < true_share
        judge = np.where(rng.random(big_n) < 0.15, True, truth).astype(float)
        if stratified:
            strata = {}
            for label in (0.0, 1.0):
                members = np.flatnonzero(judge == label)
                take = max(2, round(n * members.size / big_n))
                picked = rng.choice(members, size=take, replace=False)
                strata[str(label)] = Stratum(judge[members].tolist(),
                                             truth[picked].astype(float).tolist(),
                                             judge[picked].tolist())
            got = ppi_mean_stratified(strata)
        else:
            picked = rng.choice(big_n, size=n, replace=False)
            got = ppi_mean(truth[picked].astype(float).tolist(), judge[picked].tolist(),
                           judge.tolist())
        assert got is not None
        covered += got.interval.low <= true_share <= got.interval.high
    assert 930 <= covered <= 970, covered


def _units(n: int, seed: int = 1) -> list[dict[str, object]]:
    rng = random.Random(seed)
    return [{"unit_id": i, "document_id": None,
             "family": rng.choice(("ordinary", "ordinary", "sensitive", "ambiguous")),
             "judge": rng.choice(("supported", "supported", "not_supported", "contradicted")),
             "human": None} for i in range(n)]


def test_draw_is_reproducible_and_proportional() -> None:
    units = _units(500)
    first, again, other = draw(units, 100, 7), draw(list(reversed(units)), 100, 7), draw(
        units, 100, 8)
    assert [d.unit_id for d in first] == [d.unit_id for d in again]
    assert [d.unit_id for d in first] != [d.unit_id for d in other]
    assert len({d.unit_id for d in first}) == 100
    sizes = Counter(f"{u['judge']}/{u['family']}" for u in units)
    drawn = Counter(d.stratum for d in first)
    for stratum, size in sizes.items():
        assert abs(drawn[stratum] - 100 * size / 500) < 1  # largest remainders
    for d in first:
        assert d.weight == pytest.approx(drawn[d.stratum] / sizes[d.stratum])


def test_allocation_and_proposed_size() -> None:
    assert allocate({"a": 5, "b": 3, "c": 2}, 5) == {"a": 3, "b": 1, "c": 1}
    assert sum(allocate({"a": 7, "b": 11, "c": 13}, 17).values()) == 17
    with pytest.raises(InvalidValue):
        allocate({"a": 2}, 3)
    # worst case p = 0.5, ±5 points at 95 %: 384.1 → 385 without correction; N = 1000:
    # 384.146 / (1 + 383.146 / 1000) = 277.7 → 278
    assert proposed_size(_units(1000), 0.05) == 278
    assert proposed_size(_units(100_000), 0.05) == 383 or proposed_size(
        _units(100_000), 0.05) == 384


def _sample_inputs(path: Path) -> tuple[list[dict[str, object]], set[tuple[int, object]]]:
    with GoldSetStore.open(path, read_only=True) as store:
        units = store.judged_units("RAGChecker", "claims")
        sample = store.review_sample("RAGChecker", "claims")
    assert sample is not None
    return units, {key_of(i) for i in sample["items"]}


def test_the_sample_holds_a_judge_and_its_figures_equal_ppi_py(tmp_path: Path) -> None:
    path = tmp_path / "s.goldset"
    create_sample(path).close()
    units, sampled = _sample_inputs(path)
    assert len(units) == 93 and len(sampled) == 30
    for measure, value in MEASURES["claims"].items():
        reviewed = [u for u in units if key_of(u) in sampled and u["human"] is not None]
        y = [value(u, "human") for u in reviewed]
        f = [value(u, "judge") for u in reviewed]
        f_all = [value(u, "judge") for u in units]
        ours = ppi_mean(y, f, f_all)  # type: ignore[arg-type]
        assert ours is not None, measure
        peer = _peer(y, f, f_all)  # type: ignore[arg-type]
        assert (ours.value, ours.interval.low, ours.interval.high) == pytest.approx(
            peer, abs=1e-6)
    result = run_cli("metrics", str(path), "--run", "bm25-gpt4o-v1", "--json")
    assert result.returncode == 0, result.stderr
    judges = json.loads(result.stdout)["judges"]
    claims = judges["RAGChecker"]["claims"]
    for measure in ("supported_share", "contradicted_share"):
        figure = claims[measure]
        assert set(figure) >= {"naive", "human", "ppi", "ppi_ci", "n_human", "n_judge"}
        assert figure["ppi_ci"][0] <= figure["ppi"] <= figure["ppi_ci"][1]
        assert figure["n_judge"] == 93 and 0 < figure["n_human"] <= 30
    assert claims["confusion"] and claims["kappa"] is not None


def test_sample_command_draws_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "s.goldset"
    create_sample(path).close()
    first = run_cli("sample", str(path), "--judge", "RAGChecker", "--level", "claims",
                    "--size", "20", "--seed", "5", "--json")
    assert first.returncode == 0, first.stderr
    drawn = json.loads(first.stdout)
    assert drawn["size"] == 20 and drawn["population"] == 93
    assert sum(s["drawn"] for s in drawn["strata"].values()) == 20
    _units_now, sampled = _sample_inputs(path)
    again = run_cli("sample", str(path), "--judge", "RAGChecker", "--level", "claims",
                    "--size", "20", "--seed", "5")
    assert again.returncode == 0 and _sample_inputs(path)[1] == sampled
    planned = run_cli("sample", str(path), "--judge", "RAGChecker", "--level", "answers",
                      "--half-width", "0.2", "--json")
    assert planned.returncode == 0, planned.stderr
    assert json.loads(planned.stdout)["proposed_size"] == json.loads(planned.stdout)["size"]
    bad = run_cli("sample", str(path), "--judge", "Nobody", "--level", "claims", "--size", "3")
    assert bad.returncode == 2 and str(path) in bad.stderr and "Nobody" in bad.stderr
    big = run_cli("sample", str(path), "--judge", "RAGChecker", "--level", "claims",
                  "--size", "500")
    assert big.returncode == 2 and "between 1 and 93" in big.stderr


@pytest.mark.parametrize(("locale", "title"), [("en", "Judges"), ("fr", "Juges")])
def test_the_workbook_has_the_judges_sheet(tmp_path: Path, locale: str, title: str) -> None:
    from openpyxl import load_workbook

    path = tmp_path / "s.goldset"
    create_sample(path).close()
    dest = tmp_path / "w.xlsx"
    result = run_cli("export", str(path), "xlsx", str(dest), "--locale", locale)
    assert result.returncode == 0, result.stderr
    wb = load_workbook(dest, read_only=True)
    assert title in wb.sheetnames
    rows = [r for r in wb[title].iter_rows(values_only=True)]
    with GoldSetStore.open(path, read_only=True) as store:
        from rag_annotator.reports.judge_figures import judge_samples

        claims = judge_samples(store)["RAGChecker"]["claims"]
    figure = claims.figures["supported_share"]
    # The sheet speaks the reader's language: levels, figures and verdicts in words.
    words = {"fr": {"claims": "affirmations", "supported_share": "part d'affirmations étayées",
                    "verdicts": ("étayée", "non étayée", "contredite")},
             "en": {"claims": "claims", "supported_share": "supported share of claims",
                    "verdicts": ("supported", "not supported", "contradicted")}}[locale]
    row = next(r for r in rows
               if r[:3] == ("RAGChecker", words["claims"], words["supported_share"]))
    assert figure.ppi is not None
    assert row[3:8] == pytest.approx((figure.naive, figure.human, figure.ppi.value,
                                      figure.ppi.interval.low, figure.ppi.interval.high))
    assert sum(1 for r in rows if r and r[0] == "RAGChecker" and len(r) > 5
               and r[3] in words["verdicts"] and r[4] in words["verdicts"]) == len(
        claims.disagreements)


def test_review_samples_travel_in_the_native_json(tmp_path: Path) -> None:
    """Export → import into a new file → export: the same bytes, samples included, valid
    against the packaged JSON Schema; the imported file measures the judge the same."""
    from importlib import resources

    import jsonschema

    from rag_annotator.import_export import native_json
    from rag_annotator.import_export.registry import Options
    from rag_annotator.reports.judge_figures import judge_samples, judges_json

    path = tmp_path / "s.goldset"
    create_sample(path).close()
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert run_cli("export", str(path), "json", str(first)).returncode == 0
    with GoldSetStore.create(tmp_path / "b.goldset", assessor="imp") as other:
        native_json.import_json(other, first, Options())
        again = judges_json(judge_samples(other))
    assert run_cli("export", str(tmp_path / "b.goldset"), "json", str(second)).returncode == 0
    assert first.read_bytes() == second.read_bytes()
    data = json.loads(first.read_text(encoding="utf-8"))
    assert len(data["review_samples"]) == 1
    assert len(data["review_samples"][0]["sample_items"]) == 30
    schema = json.loads((resources.files("rag_annotator.resources") / "schema" /
                         "goldset.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    with GoldSetStore.open(path, read_only=True) as store:
        assert judges_json(judge_samples(store)) == again
