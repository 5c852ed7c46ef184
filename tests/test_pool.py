"""The judging pool: chosen runs' top-k documents, plus expected sources and judged pairs.

Issue 4 item 2: a document retrieved by several runs is judged once; the metrics' universe
stays every document any run retrieved.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.errors import InvalidValue, NotFound
from rag_annotator.import_export import trec_files
from rag_annotator.storage.store import GoldSetStore

# run name → ranked documents of case Q1
RUNS = {"bm25": ["d1", "d2", "d3", "d4"], "dense": ["d3", "d5", "d1", "d6"]}


@pytest.fixture
def pooled(tmp_path: Path) -> GoldSetStore:
    store = GoldSetStore.create(tmp_path / "pool.goldset", assessor="alice")
    ops.create_case(store, key="Q1", question="Quel délai ?")
    for n in range(1, 8):
        ops.create_document(store, key=f"d{n}", text=f"document {n}")
    for name, docs in RUNS.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"Q1 Q0 {d} {i + 1} {10 - i} {name}\n"
                                for i, d in enumerate(docs)), encoding="utf-8")
        trec_files.import_run(store, path, name=name)
    return store


def _pool(store: GoldSetStore) -> list[str]:
    case_id = store.by_key("cases", "Q1")["id"]
    return [r["key"] for r in store.pool_of_case(case_id, "alice")]


def _pairs(store: GoldSetStore) -> int:
    case_id = store.by_key("cases", "Q1")["id"]
    return int(store.judging_progress([case_id], "alice")[case_id]["pairs"])


def test_default_pool_is_every_run_whole_list(pooled: GoldSetStore) -> None:
    assert _pool(pooled) == ["d1", "d2", "d3", "d4", "d5", "d6"]
    assert _pairs(pooled) == 6
    assert pooled.pool_settings() == (None, None)


def test_top_k_of_chosen_runs_union_once(pooled: GoldSetStore) -> None:
    judging_ops.set_pool(pooled, None, 2)
    # bm25 top 2: d1 d2; dense top 2: d3 d5 — d1 is in both runs' lists but judged once
    assert _pool(pooled) == ["d1", "d2", "d3", "d5"]
    assert _pairs(pooled) == 4
    judging_ops.set_pool(pooled, ["dense"], 3)
    assert _pool(pooled) == ["d1", "d3", "d5"]
    assert pooled.pool_settings() == (["dense"], 3)


def test_expected_sources_and_judged_pairs_stay_in_the_pool(pooled: GoldSetStore) -> None:
    case_id = pooled.by_key("cases", "Q1")["id"]
    judging_ops.set_judgment(pooled, case_id, pooled.by_key("documents", "d4")["id"], 0)
    ops.add_expected_source(pooled, case_id, pooled.by_key("documents", "d7")["id"])
    judging_ops.set_pool(pooled, ["bm25"], 1)
    assert _pool(pooled) == ["d1", "d4", "d7"]
    assert _pairs(pooled) == 3


def test_metric_universe_does_not_shrink_with_the_pool(pooled: GoldSetStore) -> None:
    before = pooled.metric_inputs("dense")
    judging_ops.set_pool(pooled, ["bm25"], 1)
    assert pooled.metric_inputs("dense") == before
    ranking, labels = before["Q1"]
    assert ranking == RUNS["dense"]
    assert set(labels) == {"d1", "d2", "d3", "d4", "d5", "d6"}


def test_pool_choice_is_undoable_and_validated(pooled: GoldSetStore) -> None:
    changes = judging_ops.set_pool(pooled, ["bm25"], 2)
    assert _pool(pooled) == ["d1", "d2"]
    pooled.revert(changes.operation_id)
    assert _pool(pooled) == ["d1", "d2", "d3", "d4", "d5", "d6"]
    assert pooled.pool_settings() == (None, None)
    with pytest.raises(NotFound, match="no run named 'nope'"):
        judging_ops.set_pool(pooled, ["nope"], 2)
    with pytest.raises(InvalidValue, match="depth"):
        judging_ops.set_pool(pooled, None, 0)
    with pytest.raises(InvalidValue, match="at least one run"):
        judging_ops.set_pool(pooled, [], None)
    assert pooled.pool_settings() == (None, None)
