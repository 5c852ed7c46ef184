"""``collect`` as ONE transaction with one undoable operation per file, a file unchanged
since it was collected recognised by its digest, and the hand-out's queues logged as one
id range (issue 15's benchmark point).

Checked against the bytes on disk (SHA-256 of the master), the raw rows read with
``sqlite3`` and the ``operations`` table, never against the collect's own report alone.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.domain import team_ops, team_plan
from rag_annotator.errors import KnownError
from rag_annotator.import_export.files import Cancelled
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.team_files import collect, hand_out
from rag_annotator.messages import render_any
from rag_annotator.storage import team_merge
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import rows, sha256

TEAM = ("Anne", "Bruno", "Chloé")


def judge_file(path: Path, name: str, *, seed: int) -> None:
    """Judge every slot of an assignment file as the keyboard would (one operation per
    key, with its seconds), with seeded labels."""
    rng = random.Random(seed)
    with GoldSetStore.open(path, assessor=name) as store:
        for slot in store.assignment_queue():
            team_ops.judge_assigned(store, slot["id"], rng.randint(0, 1),
                                    round(rng.uniform(2, 40), 3))
        assert store.assignment_progress()["next"] is None


@pytest.fixture
def master(tmp_path: Path) -> Iterator[GoldSetStore]:
    with create_sample(tmp_path / "master.goldset", assessor="lead") as store:
        yield store


@pytest.fixture
def judged(master: GoldSetStore, tmp_path: Path) -> dict[str, Path]:
    """The three assignment files, every slot judged."""
    files = hand_out(master, TEAM, 2, tmp_path / "team", seed=1).files
    for seed, name in enumerate(TEAM):
        judge_file(files[name], name, seed=seed)
    return files


def judgments_of(path: Path, name: str) -> int:
    return rows(path, "SELECT count(*) FROM judgments j JOIN assessors s ON s.id = "
                      "j.assessor_id WHERE s.name = ?", (name,))[0][0]


def graded_in_file(path: Path) -> int:
    return rows(path, "SELECT count(*) FROM judgments WHERE grade IS NOT NULL")[0][0]


def collect_ops(path: Path, after: int) -> list[tuple[str, int]]:
    return rows(path, "SELECT action, undoable FROM operations WHERE id > ? ORDER BY id",
                (after,))


def test_a_cancel_after_a_file_was_brought_in_keeps_nothing(
        master: GoldSetStore, judged: dict[str, Path], tmp_path: Path) -> None:
    last = master.newest_operation_id()
    before = sha256(master.path)
    polls: list[bool] = []

    def cancel() -> bool:  # cancels once a file's operation is in the open transaction
        polls.append(master.in_transaction())
        return master.newest_operation_id() > last

    with pytest.raises(Cancelled):
        collect(master, [tmp_path / "team"], cancel=cancel)
    assert polls[-1] and polls.count(True) == 1  # after the first file, inside the batch
    assert sha256(master.path) == before
    assert not Path(f"{master.path}-journal").exists() and not master.in_transaction()
    # collected for real afterwards: still one undoable operation per file
    result = collect(master, [tmp_path / "team"])
    assert collect_ops(master.path, last) == [("collect", 1)] * len(TEAM)
    assert sorted(f.changes.operation_id for f in result.files if f.changes) == sorted(
        r[0] for r in rows(master.path, "SELECT id FROM operations WHERE id > ?", (last,)))


def test_a_file_refused_while_brought_in_leaves_the_others(
        master: GoldSetStore, judged: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    bruno = int(master.by_key("assessors", "Bruno")["id"])
    real = team_merge.insert_new

    def insert_new(op: Any, assessor_id: int) -> int:
        count = real(op, assessor_id)  # written, then refused: must be rolled back
        if assessor_id == bruno:
            raise KnownError("the disk said no; nothing of it was collected.")
        return count

    monkeypatch.setattr(team_merge, "insert_new", insert_new)
    last = master.newest_operation_id()
    result = {f.assessor: f for f in collect(master, list(judged.values())).files}
    assert result["Bruno"].refused == "the disk said no; nothing of it was collected."
    assert result["Bruno"].changes is None
    assert judgments_of(master.path, "Bruno") == 0
    for name in ("Anne", "Chloé"):
        assert judgments_of(master.path, name) == result[name].added > 0
    assert collect_ops(master.path, last) == [("collect", 1)] * 2
    # each file is its own undoable step: undoing Anne's leaves Chloé's
    anne = result["Anne"].changes
    assert anne is not None
    master.revert(anne.operation_id)
    assert judgments_of(master.path, "Anne") == 0
    assert judgments_of(master.path, "Chloé") == result["Chloé"].added


def test_a_file_unchanged_since_collected_is_not_read_again(
        master: GoldSetStore, judged: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = judged["Anne"]
    (first,) = collect(master, [path]).files
    assert first.added == graded_in_file(path)
    before = sha256(master.path)
    staged: list[object] = []
    real = team_merge.stage
    monkeypatch.setattr(team_merge, "stage", lambda *a: staged.append(a) or real(*a))
    (again,) = collect(master, [path]).files
    assert staged == [] and sha256(master.path) == before
    assert (again.refused, again.added, again.updated, again.controls) == (None, 0, 0, 0)
    # what reading it in full says: every judged pair of the file is already there
    assert again.unchanged == graded_in_file(path)
    # a copy elsewhere (same bytes) is the same file
    copy = path.parent.parent / "copie" / path.name
    copy.parent.mkdir()
    copy.write_bytes(path.read_bytes())
    assert collect(master, [copy]).files[0].unchanged == again.unchanged and staged == []


def test_undoing_a_collect_forgets_the_file(master: GoldSetStore,
                                            judged: dict[str, Path]) -> None:
    path = judged["Bruno"]
    (first,) = collect(master, [path]).files
    assert first.changes is not None
    master.revert(first.changes.operation_id)
    assert judgments_of(master.path, "Bruno") == 0
    (again,) = collect(master, [path]).files
    assert again.added == first.added == judgments_of(master.path, "Bruno")


def test_a_file_judged_again_is_read_again(master: GoldSetStore,
                                           judged: dict[str, Path]) -> None:
    path = judged["Chloé"]
    collect(master, [path])
    with GoldSetStore.open(path, assessor="Chloé") as store:
        slot = next(s for s in store.assignment_queue() if not s["is_control"])
        grade = rows(path, "SELECT grade FROM judgments WHERE case_id = ? AND "
                           "document_id = ?", (slot["case_id"], slot["document_id"]))[0][0]
        team_ops.judge_assigned(store, slot["id"], 1 - grade, 12.5)
    (again,) = collect(master, [path]).files
    assert (again.added, again.updated) == (0, 1)
    assert (again.unchanged + again.updated) == graded_in_file(path)


def test_a_file_with_a_conflict_reports_it_at_every_collect(
        master: GoldSetStore, judged: dict[str, Path]) -> None:
    path = judged["Anne"]
    with GoldSetStore.open(path, assessor="Anne") as store:
        case = store.assignment_queue()[0]["case"]
        ops.edit_case(store, store.by_key("cases", case)["id"], question="Autre question ?")
    line = f"case {case} was edited in the assignment file; this file's version kept"
    assert collect(master, [path]).files[0].conflicts == [line]
    assert collect(master, [path]).files[0].conflicts == [line]


# -- handing out: the queues logged as a range, read back by numpy ------------------------
@pytest.mark.parametrize("text", ["[]", "[1,-2,3]", " [ 5 , 6 ] ", "[4294967297,-8589934594]",
                                  "[1.0,2]", "[7]"])
def test_unpack_reads_what_json_reads(text: str) -> None:
    assert team_plan.unpack(text).tolist() == np.asarray(json.loads(text),
                                                         dtype=np.int64).tolist()


@pytest.mark.parametrize("text", ["[1,,2]", "[1,x]", "1,2", "[1,2"])
def test_unpack_refuses_what_json_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        team_plan.unpack(text)


def test_a_campaign_undone_and_redone_keeps_its_queues(master: GoldSetStore) -> None:
    changes = team_ops.create_campaign(master, TEAM, 2, control=0.1, seed=4)
    queues = rows(master.path, "SELECT * FROM queues ORDER BY id")
    assert len(queues) == len(TEAM) and all(len(json.loads(q[-1])) > 0 for q in queues)
    undo = master.revert(changes.operation_id)
    assert rows(master.path, "SELECT count(*) FROM queues")[0][0] == 0
    master.revert(undo.operation_id, action="redo")
    assert rows(master.path, "SELECT * FROM queues ORDER BY id") == queues


@pytest.mark.parametrize("gone", ["documents", "cases"])
def test_a_slot_whose_document_or_case_is_gone_is_skipped_not_written(
        master: GoldSetStore, judged: dict[str, Path], gone: str) -> None:
    """The collect writes with SQLite's foreign-key checks off: its own verdicts must stop
    a judgment whose document (or case) exists in neither file any more (removed behind
    the app's back, in both) instead of writing a dangling reference."""
    import sqlite3
    from contextlib import closing

    path = judged["Anne"]
    case_id, doc_id = rows(path, "SELECT case_id, document_id FROM judgments WHERE grade "
                                 "IS NOT NULL ORDER BY id LIMIT 1")[0]
    column, gone_id, kept, kept_id = (("document_id", doc_id, "case_id", case_id)
                                      if gone == "documents" else
                                      ("case_id", case_id, "document_id", doc_id))
    for file in (master.path, path):
        with closing(sqlite3.connect(file)) as conn:  # foreign keys off, as sqlite3's default
            conn.execute(f"DELETE FROM {gone} WHERE id = ?", (gone_id,))
            conn.commit()
    on_it = rows(path, "SELECT count(*) FROM judgments WHERE grade IS NOT NULL AND "
                       f"{column} = ?", (gone_id,))[0][0]
    (result,) = collect(master, [path]).files
    assert result.refused is None and on_it >= 1
    assert result.added == graded_in_file(path) - on_it
    assert len(result.skipped) >= on_it
    assert all("not one of" in line for line in result.skipped)
    anne = "SELECT count(*) FROM judgments j JOIN assessors s ON s.id = j.assessor_id " \
           "WHERE s.name = 'Anne' AND "
    assert rows(master.path, anne + f"j.{column} = ?", (gone_id,)) == [(0,)]
    if gone == "documents":  # the case's other pairs still come in
        assert rows(master.path, anne + f"j.{kept} = ?", (kept_id,))[0][0] > 0
    assert rows(master.path, "PRAGMA foreign_keys") == [(0,)]  # (a new connection's default)
    assert master.pragmas()["foreign_keys"] == 1  # the store's is back on


def test_a_disk_full_mid_collect_refuses_the_files_that_did_not_fit(
        master: GoldSetStore, judged: dict[str, Path]) -> None:
    """The disk fills while the second file is brought in (SQLite's page limit stands for
    it): the first file is kept, the others are refused with the disk-full line and
    nothing of theirs is written; once there is room, collecting again brings exactly them
    (the first is recognised, nothing is doubled)."""
    pages = master._conn.execute("PRAGMA page_count").fetchone()[0]
    master._conn.execute(f"PRAGMA max_page_count = {pages + 3}")  # room for one file only
    order = [judged[name] for name in TEAM]
    first = collect(master, order)
    assert first.files[0].refused is None and first.files[0].added > 0
    full = [f for f in first.files if f.refused is not None]
    assert [f.path for f in full] == order[1:]
    assert all("the disk is full" in str(f.refused) and "free some space" in str(f.refused)
               for f in full)
    assert not master.in_transaction()
    assert judgments_of(master.path, TEAM[0]) == graded_in_file(order[0])
    assert [judgments_of(master.path, name) for name in TEAM[1:]] == [0, 0]
    master._conn.execute("PRAGMA max_page_count = 4294967294")  # space freed
    again = collect(master, order)
    assert [f.refused for f in again.files] == [None, None, None]
    assert again.files[0].added == 0
    for name, path in zip(TEAM, order):
        assert judgments_of(master.path, name) == graded_in_file(path)


def test_two_files_of_one_assessor_are_both_brought_in_and_flagged(
        master: GoldSetStore, judged: dict[str, Path]) -> None:
    """A sync engine's conflicted copy beside the expert's file: both come in, the newer
    label of each pair wins, and each file's report names the other, at every collect."""
    anne = judged["Anne"]
    copy = anne.with_name("Anne (conflicted copy 2026-12-02).goldset")
    copy.write_bytes(anne.read_bytes())
    with GoldSetStore.open(copy, assessor="Anne") as store:  # relabelled later, elsewhere
        changed = {}
        for slot in store.assignment_queue()[:4]:
            if not slot["is_control"] and slot["grade"] is not None:
                team_ops.judge_assigned(store, slot["id"], 1 - slot["grade"], 2.0)
                changed[(slot["case_id"], slot["document_id"])] = 1 - slot["grade"]
    assert changed
    for round_ in range(2):
        result = collect(master, [anne, copy])
        assert [f.refused for f in result.files] == [None, None]
        for file, other in ((result.files[0], copy), (result.files[1], anne)):
            (line,) = [c for c in file.conflicts if "another file of Anne" in c]
            assert other.name in line and "newer label is kept" in line
        first, second = result.files
        if round_ == 0:  # the copy's newer labels replace the original's
            assert (first.older, second.updated) == (0, len(changed))
            assert "older" not in first.summary()
        else:  # the original's labels now differ and are older: said, not "unchanged"
            assert first.older == len(changed) and first.updated == 0
            assert first.unchanged == graded_in_file(anne) - len(changed)
            assert f"{len(changed)} older than the master's" in first.summary()
            assert f"{len(changed)} plus ancienne" in render_any(first.summary(), "fr")
    held = dict(((c, d), g) for c, d, g in rows(
        master.path, "SELECT j.case_id, j.document_id, j.grade FROM judgments j JOIN assessors "
        "s ON s.id = j.assessor_id WHERE s.name = 'Anne'"))
    assert all(held[pair] == grade for pair, grade in changed.items())
    assert len(held) == graded_in_file(anne)
