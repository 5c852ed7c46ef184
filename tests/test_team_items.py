"""Campaigns of claims and trajectories (issue 15): ``assign --items claims|trajectories``
deals each item of the runs to k distinct assessors; each expert verifies in their own file;
``collect`` brings each assessor's verdict into the per-assessor tables, once."""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_annotator.cli import main
from rag_annotator.domain import agent_ops, operations
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.team_files import collect, hand_out
from rag_annotator.storage.store import GoldSetStore

NAMES = ["alice", "bruno", "chloé"]
VERDICTS = ("supported", "not_supported", "contradicted")


@pytest.fixture
def master(tmp_path: Path) -> Iterator[GoldSetStore]:
    with create_sample(tmp_path / "master.goldset", assessor="lead") as store:
        yield store


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def verify_file(path: Path, name: str) -> int:
    """The expert gives every claim of their file a verdict (as the Verify panel does)."""
    with GoldSetStore.open(path, assessor=name) as store:
        claims = store.query("SELECT id, verdict FROM claims ORDER BY id")
        assert claims and all(c["verdict"] is None for c in claims)  # blind: none carried
        for claim in claims:
            operations.set_claim_verdict(store, claim["id"],
                                         VERDICTS[(claim["id"] + len(name)) % 3], name)
    return len(claims)


def review_file(path: Path, name: str) -> int:
    with GoldSetStore.open(path, assessor=name) as store:
        rows = store.query("SELECT id FROM trajectories ORDER BY id")
        assert rows and not store.query("SELECT id FROM trajectory_reviews")
        for row in rows:
            agent_ops.review_trajectory(store, row["id"], task_success=len(name) % 2 == 0,
                                        success_reason=f"vu par {name}", note=name)
    return len(rows)


def test_every_claim_gets_two_distinct_assessors_verdicts_and_a_second_collect_adds_nothing(
        master: GoldSetStore, tmp_path: Path) -> None:
    claims = {r["id"] for r in master.query("SELECT id FROM claims")}
    assert claims
    report = hand_out(master, NAMES, 2, tmp_path / "out", seed=7, items="claims")
    slots = master.query("SELECT assessor_id, claim_id, case_id FROM assignments")
    assert {s["claim_id"] for s in slots} == claims
    assert all(s["case_id"] is None for s in slots)
    per_claim = Counter(s["claim_id"] for s in slots)
    assert set(per_claim.values()) == {2}
    loads = Counter(s["assessor_id"] for s in slots)
    assert max(loads.values()) - min(loads.values()) <= 2
    handed = {name: verify_file(path, name) for name, path in report.files.items()}
    assert sum(handed.values()) == 2 * len(claims)
    first = collect(master, list(report.files.values()))
    assert not first.refused and sum(f.added for f in first.files) == 2 * len(claims)
    rows = master.query("SELECT a.claim_id, s.name, a.verdict, a.rationale FROM "
                        "claim_assessments a JOIN assessors s ON s.id = a.assessor_id")
    who: dict[int, set[str]] = defaultdict(set)
    for row in rows:
        who[row["claim_id"]].add(row["name"])
        assert row["verdict"] == VERDICTS[(row["claim_id"] + len(row["name"])) % 3]
        assert row["rationale"] == row["name"]
    assert set(who) == claims and all(len(names) == 2 for names in who.values())
    before = digest(master.path)
    second = collect(master, list(report.files.values()))
    assert all(f.changes is None and f.added == f.updated == 0 for f in second.files)
    assert digest(master.path) == before
    undone = first.files[0].changes
    assert undone is not None and undone.operation_id
    master.revert(undone.operation_id)  # one undoable step per file
    assert len(master.query("SELECT id FROM claim_assessments")) == \
        2 * len(claims) - first.files[0].added


def test_trajectories_are_dealt_and_collected_the_same_way(master: GoldSetStore,
                                                           tmp_path: Path) -> None:
    trajectories = {r["id"] for r in master.query("SELECT id FROM trajectories")}
    if not trajectories:
        pytest.skip("the sample holds no trajectory")
    report = hand_out(master, NAMES, 2, tmp_path / "out", seed=3, items="trajectories")
    for name, path in report.files.items():
        review_file(path, name)
    first = collect(master, list(report.files.values()))
    assert not first.refused
    rows = master.query("SELECT t.trajectory_id, t.task_success, t.success_reason, t.note, "
                        "s.name FROM trajectory_assessments t "
                        "JOIN assessors s ON s.id = t.assessor_id")
    who: dict[int, set[str]] = defaultdict(set)
    for row in rows:
        who[row["trajectory_id"]].add(row["name"])
        assert row["task_success"] == (len(row["name"]) % 2 == 0)
        assert row["note"] == row["name"]
    assert set(who) == trajectories and all(len(ids) == 2 for ids in who.values())
    second = collect(master, list(report.files.values()))
    assert all(f.changes is None for f in second.files)


def test_control_repeats_are_refused_for_claims(master: GoldSetStore, tmp_path: Path) -> None:
    from rag_annotator.errors import InvalidValue

    with pytest.raises(InvalidValue, match="--control"):
        hand_out(master, NAMES, 2, tmp_path / "out", control=0.1, items="claims")


def test_the_cli_assigns_claims_and_collects_them_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    master = tmp_path / "m.goldset"
    assert main(["new", str(master), "--sample"]) == 0
    assert main(["assign", str(master), "--assessors", ",".join(NAMES), "--per-pair", "2",
                 "--seed", "5", "--items", "claims", "--out", str(tmp_path / "team")]) == 0
    out = capsys.readouterr().out
    assert out.count("claims to verify") == 3
    for name in NAMES:
        verify_file(next((tmp_path / "team").glob(f"{name}*.goldset")), name)
    assert main(["collect", str(master), str(tmp_path / "team")]) == 0
    first = capsys.readouterr().out
    assert first.count("claim verdicts added") == 3 and " 0 claim verdicts added" not in first
    before = digest(master)
    assert main(["collect", str(master), str(tmp_path / "team")]) == 0
    assert capsys.readouterr().out.count(" 0 claim verdicts added, 0 updated") == 3
    assert digest(master) == before


def test_a_reworded_claim_or_another_assessors_verdict_is_not_collected(
        master: GoldSetStore, tmp_path: Path) -> None:
    import sqlite3
    from contextlib import closing

    report = hand_out(master, NAMES, 2, tmp_path / "out", seed=9, items="claims")
    path = report.files["alice"]
    verify_file(path, "alice")
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE claims SET text = text || ' (revu)' WHERE id = "
                     "(SELECT min(id) FROM claims)")
        conn.execute("INSERT INTO assessors (name, created_at) VALUES ('mallory', "
                     "'2026-01-01T00:00:00.000Z')")
        conn.execute("UPDATE claims SET assessor_id = (SELECT id FROM assessors WHERE "
                     "name = 'mallory') WHERE id = (SELECT max(id) FROM claims)")
        conn.execute("UPDATE claims SET updated_at = '2999-01-01T00:00:00.000Z' WHERE id = "
                     "(SELECT id FROM claims ORDER BY id LIMIT 1 OFFSET 1)")
        conn.commit()
    (result,) = collect(master, [path]).files
    assert result.refused is None
    assert len(result.conflicts) == 1 and "reworded" in result.conflicts[0]
    assert len(result.skipped) == 2 and "mallory" in " ".join(result.skipped)
    assert "2999" in " ".join(result.skipped)
    held = master.query("SELECT id FROM claim_assessments")
    assert len(held) == result.added == \
        len(master.query("SELECT id FROM assignments WHERE assessor_id = (SELECT id FROM "
                         "assessors WHERE name = 'alice')")) - 3
