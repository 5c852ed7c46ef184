"""``Changes`` names the judging pairs and claims an operation touched (so views refresh
from it without reading the history back), and says "every pair" when it cannot."""

from __future__ import annotations

from pathlib import Path

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.domain.changes import Changes
from rag_annotator.import_export import trec_files
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich


def test_a_judgment_names_its_pair_and_case(store: GoldSetStore) -> None:
    r = build_rich(store)
    case, doc = r.cases["Q2"], r.docs["D4"]
    changes = judging_ops.set_judgment(store, case, doc, 0)
    assert changes.pairs_touched() == {(case, doc)}
    assert changes.cases_touched() == {case}
    assert changes.claims_touched() == frozenset()


def test_an_adjudication_and_its_undo_name_the_pair(store: GoldSetStore) -> None:
    r = build_rich(store)
    case, doc = r.cases["Q1"], r.docs["D2"]
    changes = judging_ops.set_adjudication(store, case, doc, 1)
    assert changes.pairs == {(case, doc)}
    undone = store.revert(changes.operation_id or 0)
    assert undone.pairs_touched() == {(case, doc)}  # removed rows are named too


def test_a_claim_and_its_evidence_are_named(store: GoldSetStore) -> None:
    r = build_rich(store)
    assert ops.set_claim_verdict(store, r.claims[1], "supported").claims == {r.claims[1]}
    assert ops.delete_claim(store, r.claims[0]).claims_touched() == {r.claims[0]}


def test_a_new_case_is_a_touched_case(store: GoldSetStore) -> None:
    changes = ops.create_case(store, key="Q9", question="?")
    assert changes.cases_touched() == {int(next(iter(changes.ids("cases"))))}
    assert changes.pairs == frozenset()


def test_a_ranged_import_says_every_pair(store: GoldSetStore, tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("Q1 Q0 D1 1 2.0 r\nQ1 Q0 D2 2 1.0 r\n", encoding="utf-8")
    changes = trec_files.import_run(store, run).changes
    assert changes is not None and changes.every_pair
    assert changes.pairs_touched() is None and changes.cases_touched() is None
    assert store.revert(changes.operation_id or 0).pairs_touched() is None


def test_everything_names_no_pair() -> None:
    everything = Changes.everything()
    assert everything.pairs_touched() is None
    assert everything.cases_touched() is None
    assert everything.claims_touched() is None
