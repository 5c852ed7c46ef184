"""One rule for the effective label everywhere: counts (info), per-case progress and the pool.

Assessors agree when they give the same label (relevant vs not relevant); on a graded scale
the lowest grade is kept; relevant vs not relevant is a dispute until adjudicated.  The rule
is written in three SQL queries (for speed); this test holds them to the same answers.
"""

from __future__ import annotations

from pathlib import Path

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.storage.store import GoldSetStore

# document key → grades given by assessors a, b, c (None = that assessor did not judge it)
GRADES: dict[str, tuple[int | None, int | None, int | None]] = {
    "d-agree-rel": (1, 2, None),      # relevant, graded differently: agree, grade 1
    "d-agree-rel3": (3, 3, 2),        # relevant: agree, grade 2
    "d-agree-not": (0, 0, None),      # not relevant
    "d-dispute": (0, 2, None),        # dispute
    "d-dispute-adj": (0, 1, None),    # dispute, then adjudicated 2
    "d-one": (None, None, 1),         # one assessor: relevant
    "d-none": (None, None, None),     # only retrieved: unjudged
}
EXPECTED = {"d-agree-rel": (1, False), "d-agree-rel3": (2, False), "d-agree-not": (0, False),
            "d-dispute": (None, True), "d-dispute-adj": (2, False), "d-one": (1, False),
            "d-none": (None, False)}


def test_counts_progress_and_pool_agree(tmp_path: Path) -> None:
    with GoldSetStore.create(tmp_path / "g.goldset", assessor="a") as store:
        judging_ops.set_graded_scale(store, 3)
        ops.create_case(store, key="Q1", question="?")
        case_id = store.by_key("cases", "Q1")["id"]
        ops.create_run(store, name="r")
        for key in GRADES:
            ops.create_document(store, key=key, text=key)
        for who, column in (("a", 0), ("b", 1), ("c", 2)):
            store.assessor = who
            for key, grades in GRADES.items():
                if grades[column] is not None:
                    judging_ops.set_judgment(store, case_id, store.by_key("documents", key)["id"],
                                     grades[column])
        store.assessor = "judge"
        judging_ops.set_adjudication(
            store, case_id, store.by_key("documents", "d-dispute-adj")["id"], 2)
        # d-none is only in the universe through an expected source
        ops.add_expected_source(store, case_id, store.by_key("documents", "d-none")["id"])

        labels = {doc: (grade, disputed) for _c, doc, grade, disputed in store.effective_labels()}
        assert labels == EXPECTED
        pool = {r["key"]: (r["effective_grade"], bool(r["disputed"]))
                for r in store.pool_of_case(case_id, "a")}
        assert pool == EXPECTED
        progress = store.judging_progress([case_id], "a")[case_id]
        counts = store.judgment_counts()
        relevant = sum(1 for g, _d in EXPECTED.values() if g is not None and g >= 1)
        not_relevant = sum(1 for g, _d in EXPECTED.values() if g == 0)
        unjudged = sum(1 for g, _d in EXPECTED.values() if g is None)
        disputed = sum(1 for _g, d in EXPECTED.values() if d)
        assert counts == {"relevant": relevant, "not_relevant": not_relevant,
                          "unjudged": unjudged, "disputed": disputed}
        assert {k: progress[k] for k in counts} == counts
        assert progress["pairs"] == len(GRADES)
