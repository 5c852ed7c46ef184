"""Several assessors: ``merge FILE OTHER``, agreement in ``info --json``, adjudication.

The Done-when scenario of the issue: two copies of the sample, the same 40 pairs judged by
Alice in one and Bob in the other (with disagreements), Bob's file merged into Alice's; the
kappa ``info --json`` prints must equal scikit-learn's on the same labels.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from sklearn.metrics import cohen_kappa_score

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.errors import InvalidValue, KnownError
from rag_annotator.import_export import merge as merge_mod
from rag_annotator.import_export.merge import merge_file
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import ENTITY_TABLES, dump, full_dump, run_cli, stderr_lines

SAMPLE_ASSESSOR = "Claire Dubois"
N_PAIRS = 40
FLIPS = {3, 8, 15, 22, 31, 37}  # where Bob disagrees with Alice
FLIPS_0 = 3
EXTRA_ALICE, EXTRA_BOB = (40, 41, 42), (43, 44)  # pairs only one of them judges


def universe(path: Path) -> list[tuple[str, str]]:
    with GoldSetStore.open(path, read_only=True) as store:
        return [(case, doc) for case, doc, _grade, _disputed in store.effective_labels()]


def alice_grades() -> list[int]:
    rng = random.Random(7)
    return [rng.choice((0, 0, 1)) for _ in range(N_PAIRS + 5)]


def judge(path: Path, assessor: str, grades: dict[int, int],
          pairs: list[tuple[str, str]], *, withdraw_sample: bool) -> None:
    """Judge pairs (by index in ``pairs``) as ``assessor`` through the domain operations."""
    with GoldSetStore.open(path, assessor=assessor) as store:
        for i, grade in grades.items():
            case, doc = pairs[i]
            judging_ops.set_judgment(store, store.by_key("cases", case)["id"],
                             store.by_key("documents", doc)["id"], grade)
        if withdraw_sample:
            store.assessor = SAMPLE_ASSESSOR
            for row in store.query(
                    "SELECT case_id, document_id FROM judgments j JOIN assessors s "
                    "ON s.id = j.assessor_id WHERE s.name = ? AND grade IS NOT NULL",
                    (SAMPLE_ASSESSOR,)):
                judging_ops.set_judgment(store, row["case_id"], row["document_id"], None)


def two_files(tmp_path: Path, *, withdraw_sample: bool = False,
              via_cli: bool = False) -> tuple[Path, Path, dict[int, int], dict[int, int]]:
    a, b = tmp_path / "a.goldset", tmp_path / "b.goldset"
    for path in (a, b):
        if via_cli:
            result = run_cli("new", str(path), "--sample")
            assert result.returncode == 0, result.stderr
        else:
            create_sample(path).close()
    pairs = universe(a)
    assert len(pairs) >= N_PAIRS + 5 and pairs == universe(b)
    base = alice_grades()
    alice = {i: base[i] for i in [*range(N_PAIRS), *EXTRA_ALICE]}
    bob = {i: (1 - base[i]) if i in FLIPS else base[i] for i in [*range(N_PAIRS), *EXTRA_BOB]}
    judge(a, "Alice", alice, pairs, withdraw_sample=withdraw_sample)
    judge(b, "Bob", bob, pairs, withdraw_sample=withdraw_sample)
    return a, b, alice, bob


def reference_kappa(alice: dict[int, int], bob: dict[int, int]) -> float:
    shared = sorted(set(alice) & set(bob))
    return float(cohen_kappa_score([alice[i] >= 1 for i in shared],
                                   [bob[i] >= 1 for i in shared]))


# -- the Done-when scenario ------------------------------------------------------------------
def test_merged_kappa_equals_scikit_learn(tmp_path: Path) -> None:
    a, b, alice, bob = two_files(tmp_path, withdraw_sample=True, via_cli=True)
    result = run_cli("merge", str(a), str(b))
    assert result.returncode == 0, result.stderr
    assert f"{len(EXTRA_BOB) + N_PAIRS} added" in result.stdout
    disputes = [line for line in stderr_lines(result) if line.startswith("warning: dispute")]
    assert len(disputes) == len(FLIPS)

    info = run_cli("info", str(a), "--json")
    assert info.returncode == 0, info.stderr
    agreement = json.loads(info.stdout)["agreement"]
    expected = reference_kappa(alice, bob)
    assert agreement["assessors"] == 2
    assert agreement["units"] == N_PAIRS
    assert agreement["kappa"] == pytest.approx(expected, abs=1e-12)
    assert agreement["percent"] == pytest.approx(100 * (N_PAIRS - len(FLIPS)) / N_PAIRS)
    assert agreement["alpha"] is not None
    [pair] = agreement["pairwise"]
    assert pair["assessors"] == ["Alice", "Bob"]
    assert pair["kappa"] == pytest.approx(expected, abs=1e-12)
    assert set(agreement["by_family"]) <= {
        f for f, n in json.loads(info.stdout)["families"].items() if n}
    assert json.loads(info.stdout)["judgments"]["disputed"] == len(FLIPS)
    text = run_cli("info", str(a)).stdout
    assert f"agreement  2 assessors, {N_PAIRS} pairs judged by two or more" in text
    assert f"kappa {expected:.3f}" in text


def test_with_the_sample_assessor_kappa_is_pairwise_only(tmp_path: Path) -> None:
    a, b, alice, bob = two_files(tmp_path)
    with GoldSetStore.open(a) as store:
        merge_file(store, b)
    info = json.loads(run_cli("info", str(a), "--json").stdout)["agreement"]
    assert info["assessors"] == 3 and info["kappa"] is None
    found = {tuple(p["assessors"]): p["kappa"] for p in info["pairwise"]}
    assert found[("Alice", "Bob")] == pytest.approx(reference_kappa(alice, bob), abs=1e-12)


# -- all or nothing, undo, idempotence ---------------------------------------------------------
def test_bad_other_file_changes_nothing(tmp_path: Path) -> None:
    a, b, _alice, _bob = two_files(tmp_path)
    before = full_dump(a)
    garbage = tmp_path / "garbage.goldset"
    garbage.write_bytes(b"not a gold set at all" * 100)
    damaged = tmp_path / "damaged.goldset"
    data = bytearray(b.read_bytes())
    data[4096:8192] = b"\xff" * 4096
    damaged.write_bytes(bytes(data))
    with GoldSetStore.open(a) as store:
        for bad in (garbage, damaged, tmp_path / "missing.goldset", a):
            with pytest.raises(KnownError):
                merge_file(store, bad)
    assert full_dump(a) == before
    result = run_cli("merge", str(a), str(garbage))
    assert result.returncode == 2
    [line] = stderr_lines(result)
    assert line.startswith("error: ") and "garbage.goldset" in line
    assert full_dump(a) == before


def test_failure_half_way_rolls_everything_back(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, _alice, _bob = two_files(tmp_path)
    before = full_dump(a)

    def boom(*_args: object) -> None:
        raise InvalidValue("simulated failure after the judgments were written")

    monkeypatch.setattr(merge_mod, "_merge_claims", boom)
    with GoldSetStore.open(a) as store, pytest.raises(InvalidValue):
        merge_file(store, b)
    assert full_dump(a) == before


def test_undo_restores_the_file_exactly(tmp_path: Path) -> None:
    a, b, _alice, _bob = two_files(tmp_path)
    before = dump(a)
    with GoldSetStore.open(a) as store:
        report = merge_file(store, b)
        assert report.operation_id
        row = store.operation_row(report.operation_id)
        assert (row["action"], row["label"]) == ("merge", "← b.goldset")
        assert dump(a) != before
        store.revert(report.operation_id)
    assert dump(a) == before


def test_merging_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    a, b, _alice, _bob = two_files(tmp_path)
    with GoldSetStore.open(a) as store:
        first = merge_file(store, b)
        after_first = full_dump(a)
        second = merge_file(store, b)
    assert full_dump(a) == after_first
    assert second.operation_id == 0
    assert all(c["added"] == c["updated"] == 0 for c in second.counts.values())
    assert second.counts["judgments"]["unchanged"] == (
        first.counts["judgments"]["added"] + first.counts["judgments"]["unchanged"])
    # Disputes and same-assessor clashes were news once; nothing new comes in the second time.
    assert {c.kind for c in first.conflicts} == {"dispute"}
    assert second.conflicts == []


# -- conflicts -----------------------------------------------------------------------------
def test_conflicts_are_reported(tmp_path: Path) -> None:
    a, b, _alice, _bob = two_files(tmp_path)
    pairs = universe(a)
    with GoldSetStore.open(a, assessor="Alice") as store:
        ids = [(store.by_key("cases", c)["id"], store.by_key("documents", d)["id"])
               for c, d in pairs]
        claims = store.query("SELECT id, verdict FROM claims ORDER BY id")
        verified = next(c["id"] for c in claims if c["verdict"] is not None)
        unverified = next(c["id"] for c in claims if c["verdict"] is None)
        judging_ops.set_adjudication(store, *ids[3], 1)
    with GoldSetStore.open(b, assessor="Alice") as store:
        # Alice, later, changes her mind in b on pair 0: newer wins.
        judging_ops.set_judgment(store, *ids[0], 1 - alice_grades()[0])
        ops.set_claim_verdict(store, verified, "contradicted")
        ops.set_claim_verdict(store, unverified, "supported")
        store.assessor = "Carol"
        judging_ops.set_adjudication(store, *ids[3], 0)  # clashes with a's adjudication
        judging_ops.set_adjudication(store, *ids[8], 0)  # new
        ops.create_case(store, key="ONLY-IN-B", question="?")
        judging_ops.set_judgment(store, store.by_key("cases", "ONLY-IN-B")["id"], ids[0][1], 1)
    with GoldSetStore.open(a) as store:
        report = merge_file(store, b)
        kinds = sorted(c.kind for c in report.conflicts)
        same = [c for c in report.conflicts if c.kind == "same_assessor"]
        assert len(same) == 1 and same[0].assessors == ("Alice",)
        assert (same[0].case, same[0].document) == pairs[0]
        assert "other file" in same[0].kept
        assert "verdict" in kinds and "adjudication" in kinds
        disputed = {(c.case, c.document) for c in report.conflicts if c.kind == "dispute"}
        expected = set()
        for i in [*range(N_PAIRS), *EXTRA_BOB]:
            labels = {r["grade"] >= 1 for r in store.query(
                "SELECT grade FROM judgments WHERE case_id = ? AND document_id = ? "
                "AND grade IS NOT NULL", ids[i])}
            if len(labels) == 2:
                expected.add(pairs[i])
        assert disputed == expected and pairs[FLIPS_0] in disputed
        [settled] = [c for c in report.conflicts if c.kind == "dispute"
                     and (c.case, c.document) == pairs[FLIPS_0]]
        assert "adjudication decides" in settled.kept
        assert report.counts["claims"]["updated"] == 1
        assert report.counts["adjudications"] == {"added": 1, "updated": 0, "unchanged": 1}
        assert report.counts["assessors"]["added"] == 2  # Bob, Carol
        assert any("ONLY-IN-B" in s for s in report.skipped)
        grade = store.query("SELECT j.grade FROM judgments j JOIN assessors s "
                            "ON s.id = j.assessor_id WHERE s.name = 'Alice' "
                            "AND case_id = ? AND document_id = ?", ids[0])[0]["grade"]
        assert grade == 1 - alice_grades()[0]
        kept = store.query("SELECT grade FROM adjudications WHERE case_id = ? "
                           "AND document_id = ?", ids[3])
        assert kept == [{"grade": 1}]
        verdicts = {r["id"]: r["verdict"] for r in store.query("SELECT id, verdict FROM claims")}
        assert verdicts[unverified] == "supported"
        assert verdicts[verified] == next(c["verdict"] for c in claims if c["id"] == verified)
        for conflict in report.conflicts:
            assert conflict.describe()


# -- adjudication -----------------------------------------------------------------------------
def test_adjudication_settles_a_dispute(tmp_path: Path) -> None:
    a, b, _alice, _bob = two_files(tmp_path, withdraw_sample=True)
    with GoldSetStore.open(a, assessor="Dana") as store:
        merge_file(store, b)
        queue = store.disputed_pairs()
        assert len(queue) == len(FLIPS)
        first = queue[0]
        assert set(first["grades"]) == {"Alice", "Bob"}
        assert sorted(first["grades"].values()) == [0, 1]
        changes = judging_ops.set_adjudication(store, first["case_id"], first["document_id"], 1)
        assert changes.label.endswith("→ relevant")
        assert len(store.disputed_pairs()) == len(FLIPS) - 1
        labels = {(c, d): g for c, d, g, _x in store.effective_labels()}
        assert labels[(first["case"], first["document"])] == 1
        row = store.query("SELECT s.name FROM adjudications a JOIN assessors s "
                          "ON s.id = a.assessor_id")
        assert row == [{"name": "Dana"}]
        assert judging_ops.set_adjudication(store, first["case_id"], first["document_id"], 1).empty
        with pytest.raises(InvalidValue):
            judging_ops.set_adjudication(store, first["case_id"], first["document_id"], 3)
        judging_ops.set_adjudication(store, first["case_id"], first["document_id"], None)
        assert len(store.disputed_pairs()) == len(FLIPS)
        assert judging_ops.set_adjudication(store, first["case_id"], first["document_id"],
                                            None).empty


def test_merge_of_a_copy_is_a_no_op(tmp_path: Path) -> None:
    a, _b, _alice, _bob = two_files(tmp_path)
    copy = tmp_path / "copy.goldset"
    shutil.copyfile(a, copy)
    before = full_dump(a)
    with GoldSetStore.open(a) as store:
        report = merge_file(store, copy)
    assert report.operation_id == 0 and report.conflicts == [] and report.skipped == []
    assert full_dump(a) == before
    assert dump(a, ENTITY_TABLES) == dump(copy, ENTITY_TABLES)


def test_grades_above_the_files_scale_are_skipped(tmp_path: Path) -> None:
    """FILE's scale is never changed silently: a grade it cannot hold is listed, not taken."""
    a, b = tmp_path / "binary.goldset", tmp_path / "graded.goldset"
    for path, scale in ((a, 1), (b, 3)):
        with GoldSetStore.create(path, assessor="Bob") as store:
            judging_ops.set_graded_scale(store, scale)
            ops.create_case(store, key="Q1")
            for doc in ("D1", "D2"):
                ops.create_document(store, key=doc)
            if scale == 3:
                judging_ops.set_judgment(store, 1, 1, 3)
                judging_ops.set_judgment(store, 1, 2, 1)
    with GoldSetStore.open(a) as store:
        report = merge_file(store, b)
        assert report.counts["judgments"]["added"] == 1
        assert len(report.skipped) == 1 and "above this file's scale" in report.skipped[0]
        assert store.judgment_rows() == [("Q1", "D2", "Bob", 1, "ordinary")]


def test_trajectory_reviews_merge_like_verdicts(tmp_path: Path) -> None:
    """A colleague's trajectory reviews come in where this file has none; where both
    reviewed differently this file's is kept and the clash reported; one undo takes the
    merge back."""
    from rag_annotator.domain import agent_ops
    from rag_annotator.domain.agent_ops import TrajectoryInput

    mine, theirs = tmp_path / "alice.goldset", tmp_path / "bob.goldset"
    with GoldSetStore.create(mine, assessor="alice") as store:
        for key in ("A01", "A02", "A03"):
            ops.create_case(store, key=key, kind="agent", question="changer d'offre",
                            forbidden_tools=["supprimer_compte"])
        agent_ops.import_trajectories(store, "agent-v1", [
            TrajectoryInput(case=k, steps=[("supprimer_compte", {}, "")])
            for k in ("A01", "A02", "A03")])
    shutil.copyfile(mine, theirs)
    with GoldSetStore.open(theirs, assessor="bob") as store:
        ids = [r["id"] for r in store.trajectory_queue()]
        agent_ops.confirm_trajectory(store, ids[0])
        agent_ops.review_trajectory(store, ids[1], path_acceptable=True,
                                    path_reason="appel de test, sans effet")
    with GoldSetStore.open(mine, assessor="alice") as store:
        ids = [r["id"] for r in store.trajectory_queue()]
        agent_ops.confirm_trajectory(store, ids[1])  # path: no (automatic)
        tables = (*ENTITY_TABLES, "trajectories", "trajectory_reviews")
        before = dump(mine, tables)
        report = merge_file(store, theirs)
        assert report.counts["trajectory_reviews"] == {"added": 1, "updated": 0,
                                                       "unchanged": 1}
        (clash,) = report.conflicts
        assert clash.kind == "trajectory" and clash.case == "A02"
        assert "path no" in clash.file_label and "path yes" in clash.other_label
        reviews = {r["id"]: store.trajectory_detail(r["id"])["review"]
                   for r in store.trajectory_queue()}
        assert reviews[ids[0]]["assessor"] == "bob" and reviews[ids[2]] is None
        assert reviews[ids[1]]["assessor"] == "alice"
        store.revert(report.operation_id)
    assert dump(mine, tables) == before
