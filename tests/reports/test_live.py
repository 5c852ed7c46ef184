"""reports.live: figures updated judgment by judgment are the figures built anew — on the
sample (small groups: a new multinomial bootstrap) and on a generated file whose whole run
is a large group (keyed resampling), with a comparison to another run — and a change that
cannot be followed asks for a new build."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.import_export.sample import create_sample
from rag_annotator.metrics import DEFAULT_MEASURES, Policy
from rag_annotator.reports.live import LiveFigures
from rag_annotator.reports.run_figures import FigureOptions, RunFigures, build
from rag_annotator.storage.store import GoldSetStore
from tests.bench.generate import generate


def _same(live: RunFigures, fresh: RunFigures) -> None:
    assert live.report.per_query == fresh.report.per_query
    assert live.report.topics == fresh.report.topics
    assert live.report.mean_count == fresh.report.mean_count
    for m, value in fresh.report.mean.items():
        assert live.report.mean[m] == pytest.approx(value, abs=1e-12), m
    assert live.table.keys() == fresh.table.keys()
    for key, figure in fresh.table.items():
        shown = live.table[key]
        assert (shown.n, shown.cases, shown.left_out) == (figure.n, figure.cases,
                                                          figure.left_out), key
        assert shown.value == pytest.approx(figure.value, abs=1e-12), key
        if figure.interval is None:
            assert shown.interval is None, key
        else:
            assert shown.interval is not None, key
            assert shown.interval.low == pytest.approx(figure.interval.low, abs=1e-9), key
            assert shown.interval.high == pytest.approx(figure.interval.high, abs=1e-9), key
    for measure in fresh.report.measures:
        assert live.histogram(measure) == fresh.histogram(measure), measure
    for family, found in fresh.intervals.enough.items():
        for name, enough in found.items():
            assert live.intervals.enough[family][name].needed == enough.needed, (family, name)
    if fresh.comparison is not None:
        assert live.comparison is not None
        assert live.comparison.per_case == fresh.comparison.per_case
        for m, c in fresh.comparison.by_measure.items():
            assert live.comparison.by_measure[m].wins == c.wins
        assert live.significance is not None and fresh.significance is not None
        for m, r in fresh.significance.items():
            mine = live.significance[m]
            assert (mine.cases, mine.p_randomization, mine.verdict) == (
                r.cases, r.p_randomization, r.verdict), m
            assert mine.mean_diff == pytest.approx(r.mean_diff)


def _judge_some(store: GoldSetStore, run: str, count: int, seed: int
                ) -> list[tuple[int, int, int]]:
    """``count`` (case id, document id, grade) among the run's ranked pairs."""
    rng = random.Random(seed)
    rows = store.query("SELECT t.case_id, t.document_id FROM retrieved t JOIN runs r "
                       "ON r.id = t.run_id WHERE r.name = ? AND t.rank <= 5", (run,))
    return [(int(r["case_id"]), int(r["document_id"]), rng.choice((0, 1)))
            for r in rng.sample(rows, count)]


@pytest.mark.parametrize("policy", [Policy.TREC, Policy.JUDGED_ONLY])
def test_the_sample_followed_judgment_by_judgment(goldset_path: Path, policy: Policy) -> None:
    create_sample(goldset_path, assessor="alice").close()
    options = FigureOptions(policy=policy, measures=(*DEFAULT_MEASURES, "Success@10"),
                            compare="hybride-mistral-v2", resamples=2_000)
    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        live = LiveFigures(store, "bm25-gpt4o-v1", options)
        for case, doc, grade in _judge_some(store, "bm25-gpt4o-v1", 6, seed=1):
            changes = judging_ops.set_judgment(store, case, doc, grade)
            updated = live.apply(store, changes)
            assert updated is not None
            _same(updated, build(store, "bm25-gpt4o-v1", options))


def test_a_large_group_followed_by_its_keyed_sums(tmp_path: Path) -> None:
    path = tmp_path / "medium.goldset"
    generate(path, scale=0.15)  # 1,500 cases (1,125 not retired): a large group
    options = FigureOptions(measures=("P@5", "nDCG@10", "RR"), compare="run2",
                            resamples=1_000)
    with GoldSetStore.open(path, assessor="assessor1") as store:
        live = LiveFigures(store, "run1", options)
        assert None in live.figures.intervals.states  # the whole run: keyed
        for case, doc, grade in _judge_some(store, "run1", 5, seed=2):
            updated = live.apply(store, judging_ops.set_judgment(store, case, doc, grade))
            assert updated is not None
        _same(updated, build(store, "run1", options))


def test_the_judged_cases_read_alone_are_read_as_with_the_run(goldset_path: Path) -> None:
    create_sample(goldset_path, assessor="alice").close()
    with GoldSetStore.open(goldset_path, read_only=True) as store:
        every = store.metric_inputs("bm25-gpt4o-v1")
        ids = {store.by_key("cases", k)["id"]: k for k in ("Q01", "Q07", "A01", "Q21")}
        alone = store.metric_inputs("bm25-gpt4o-v1", set(ids))
    # A01 (an agent case) and Q21 (retired) are not covered by the run
    assert alone == {k: every[k] for k in ("Q01", "Q07")}


def test_a_verdict_moves_the_answer_figures_only(goldset_path: Path) -> None:
    create_sample(goldset_path, assessor="alice").close()
    options = FigureOptions(compare="hybride-mistral-v2", resamples=1_000)
    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        live = LiveFigures(store, "bm25-gpt4o-v1", options)
        kept = live.figures.intervals.retrieval
        claims: Any = store.query(
            "SELECT cl.id FROM claims cl JOIN answers a ON a.id = cl.answer_id JOIN runs r "
            "ON r.id = a.run_id WHERE r.name = 'bm25-gpt4o-v1' AND cl.verdict IS NULL")
        for claim, verdict in zip(claims[:3], ("contradicted", "supported", "not_supported")):
            updated = live.apply(store, ops.set_claim_verdict(store, claim["id"], verdict))
            assert updated is not None and live.moved == "answers"
        assert updated.intervals.retrieval is kept  # the retrieval's bootstraps reused
        fresh = build(store, "bm25-gpt4o-v1", options)
        _same(updated, fresh)
        assert updated.answers.contradicted_claims == fresh.answers.contradicted_claims
        for key in (("faithfulness_mean", None), ("success", None), ("quality", "ordinary")):
            mine, theirs = updated.table[key], fresh.table[key]
            assert (mine.value, mine.n, mine.interval) == (theirs.value, theirs.n,
                                                           theirs.interval), key
        assert updated.diagnosis.counts() == fresh.diagnosis.counts()


def test_a_change_it_cannot_follow_asks_for_a_new_build(goldset_path: Path) -> None:
    create_sample(goldset_path, assessor="alice").close()
    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        live = LiveFigures(store, "bm25-gpt4o-v1", FigureOptions(resamples=500))
        case = store.query("SELECT id FROM cases WHERE key = 'Q01'")[0]["id"]
        assert live.apply(store, ops.edit_case(store, case, family="sensitive")) is None
        strict = LiveFigures(store, "bm25-gpt4o-v1", FigureOptions(
            policy=Policy.STRICT, next_count=5, resamples=500))
        case, doc, grade = _judge_some(store, "bm25-gpt4o-v1", 1, seed=3)[0]
        assert strict.apply(store, judging_ops.set_judgment(store, case, doc, grade)) is None
