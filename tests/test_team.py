"""Judging as a team (issue 15): a campaign over the sample's pool, one assignment file per
assessor judged through the domain operations, collected back in any order and twice.

Checked against independent peers: agreement against scikit-learn's ``cohen_kappa_score``,
disputes against the raw judgment rows read with ``sqlite3``, files against the bytes on disk.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from sklearn.metrics import cohen_kappa_score

from rag_annotator.domain import team_ops, team_plan
from rag_annotator.errors import InvalidValue
from rag_annotator.import_export.files import Cancelled
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.team_files import collect, hand_out, safe_file_name
from rag_annotator.metrics.agreement import JudgmentRow, pairwise
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import ENTITY_TABLES, dump, rows, sha256

TEAM = ("Anne", "Bruno", "Chloé")
TEAM_TABLES = (*ENTITY_TABLES, "campaigns", "campaign_assessors", "queues",
               "control_judgments", "cannot_judge", "operations")


def truth(case_id: int, document_id: int) -> int:
    """A made-up "true" label, so assessors mostly agree."""
    return (case_id * 7 + document_id * 3) % 5 < 2


def label(name: str, case_id: int, document_id: int, rng: random.Random) -> int:
    """An assessor's label: the truth, flipped 15 % of the time."""
    value = truth(case_id, document_id)
    return int(not value) if rng.random() < 0.15 else int(value)


@pytest.fixture
def master(tmp_path: Path) -> Iterator[GoldSetStore]:
    with create_sample(tmp_path / "master.goldset", assessor="lead") as store:
        yield store


def judge_file(path: Path, name: str, *, seed: int, cannot: int = -1) -> dict[int, float]:
    """Judge every slot of an assignment file as the keyboard would (one operation per key,
    with its seconds); slot index ``cannot`` is marked can't judge.  Returns seconds by
    position."""
    rng = random.Random(seed)
    seconds: dict[int, float] = {}
    with GoldSetStore.open(path, assessor=name) as store:
        assert store.assignment_info() is not None
        for i, slot in enumerate(store.assignment_queue()):
            if i == cannot and not slot["is_control"]:
                team_ops.cannot_judge_assigned(store, slot["id"], "je ne connais pas ce texte")
                continue
            seconds[slot["position"]] = round(rng.uniform(2, 40), 3)
            team_ops.judge_assigned(store, slot["id"],
                                    label(name, slot["case_id"], slot["document_id"], rng),
                                    seconds[slot["position"]])
        assert store.assignment_progress()["next"] is None
    return seconds


def campaign_judgments(path: Path) -> list[tuple[int, int, str, int | None, float | None]]:
    """Raw judgments of the team, read with sqlite3 (not through the store under test)."""
    return rows(path, "SELECT j.case_id, j.document_id, s.name, j.grade, j.seconds "
                      "FROM judgments j JOIN assessors s ON s.id = j.assessor_id "
                      f"WHERE s.name IN ({', '.join('?' for _ in TEAM)})", TEAM)


# -- planning ----------------------------------------------------------------------------
@pytest.mark.parametrize(("n_pairs", "n", "k"), [(180, 3, 2), (1001, 10, 2), (57, 5, 5),
                                                 (10, 4, 1), (3, 7, 3)])
def test_every_pair_gets_k_distinct_assessors_and_loads_are_balanced(
        n_pairs: int, n: int, k: int) -> None:
    pairs = [(i // 10 + 1, i % 10 + 1) for i in range(n_pairs)]
    names = [f"a{i}" for i in range(n)]
    queues = team_plan.plan(pairs, names, k, 0.05, seed=11)
    holders: dict[tuple[int, int], list[str]] = defaultdict(list)
    for name, queue in queues.items():
        slots = list(queue.slots())
        assert [s[0] for s in slots] == list(range(1, len(slots) + 1))
        for _position, case_id, document_id, control in slots:
            if not control:
                holders[(case_id, document_id)].append(name)
    assert set(holders) == set(pairs)
    assert all(len(h) == k == len(set(h)) for h in holders.values())
    loads = [len(queue.pairs) - len(queue.controls) for queue in queues.values()]
    assert max(loads) - min(loads) <= k
    if n > k:  # fresh permutations: every two assessors share pairs on a large pool
        shared = Counter(frozenset(p) for h in holders.values()
                         for p in __import__("itertools").combinations(h, 2))
        assert n_pairs < 1000 or len(shared) == n * (n - 1) // 2


def test_controls_repeat_a_pair_shown_earlier_to_the_same_assessor() -> None:
    pairs = [(c, d) for c in range(1, 41) for d in range(1, 11)]
    queues = team_plan.plan(pairs, ["a", "b", "c"], 2, 0.05, seed=3)
    for queue in queues.values():
        slots = list(queue.slots())
        controls = [s for s in slots if s[3]]
        assert len(controls) == round((len(slots) - len(controls)) * 0.05)
        for position, case_id, document_id, _control in controls:
            first = [s for s in slots if not s[3] and s[1:3] == (case_id, document_id)]
            assert len(first) == 1
            assert position - first[0][0] > team_plan.CONTROL_GAP
    # the same seed gives the same plan; another seed another order
    assert team_plan.plan(pairs, ["a", "b", "c"], 2, 0.05, seed=3) == queues
    assert team_plan.plan(pairs, ["a", "b", "c"], 2, 0.05, seed=4) != queues


# -- the scenario of "Done when" ---------------------------------------------------------
def test_three_assessors_judge_their_files_and_the_lead_collects_them_twice(
        master: GoldSetStore, tmp_path: Path) -> None:
    pool = set(master.campaign_pool(None, None))
    report = hand_out(master, TEAM, 2, tmp_path / "team", control=0.05, seed=2026)
    assert set(report.files) == set(TEAM) and report.pairs == len(pool)
    for name, path in report.files.items():  # the report's counts, read back as JSON
        (text,) = rows(path, "SELECT slots FROM queues")[0]
        assert report.slots[name] == len(json.loads(text)) > 0
    seconds = {name: judge_file(path, name, seed=i, cannot=3 if name == "Bruno" else -1)
               for i, (name, path) in enumerate(report.files.items())}
    order = list(report.files.values())
    random.Random(5).shuffle(order)
    first = collect(master, order)
    assert not first.refused and all(f.conflicts == [] for f in first.files)
    after_first = dump(master.path, TEAM_TABLES)
    again = collect(master, reversed(order))  # any order, twice: nothing new
    assert all(f.added == f.updated == 0 and f.changes is None for f in again.files)
    assert dump(master.path, TEAM_TABLES) == after_first

    judged = campaign_judgments(master.path)
    by_pair: dict[tuple[int, int], list[str]] = defaultdict(list)
    for case_id, document_id, name, grade, _s in judged:
        if grade is not None:
            by_pair[(case_id, document_id)].append(name)
    cannot = rows(master.path, "SELECT n.case_id, n.document_id, s.name, n.reason "
                               "FROM cannot_judge n JOIN assessors s ON s.id = n.assessor_id")
    assert [(r[2], r[3]) for r in cannot] == [("Bruno", "je ne connais pas ce texte")]
    skipped = {(cannot[0][0], cannot[0][1])}
    for pair in pool:  # exactly two judgments from two different assessors
        expected = 1 if pair in skipped else 2
        assert len(by_pair[pair]) == expected == len(set(by_pair[pair])), pair
    assert set(by_pair) == pool

    # seconds travelled with every judgment, as each assessor measured them
    with GoldSetStore.open(report.files["Anne"], read_only=True) as anne:
        positions = {(r["case_id"], r["document_id"]): r["position"]
                     for r in anne.assignment_queue() if not r["is_control"]}
    for case_id, document_id, name, _grade, secs in judged:
        if name == "Anne":
            assert secs == seconds["Anne"][positions[(case_id, document_id)]]

    # control pairs: judged twice by the same assessor (the judgment and the blind repeat)
    controls = rows(master.path, "SELECT a.case_id, a.document_id, s.name FROM assignments a "
                                 "JOIN assessors s ON s.id = a.assessor_id WHERE a.is_control")
    assert controls
    repeats = master.control_rows()
    assert len(repeats) == len(controls)
    for case_id, document_id, name in controls:
        assert name in by_pair[(case_id, document_id)]
    consistency = sum(r["first"] == r["repeat"] for r in repeats) / len(repeats)
    assert 0 <= consistency <= 1

    # Cohen's kappa of every two assessors = scikit-learn's on the same labels
    labels: dict[str, dict[tuple[int, int], bool]] = defaultdict(dict)
    for case_id, document_id, name, grade, _s in judged:
        if grade is not None:
            labels[name][(case_id, document_id)] = grade >= 1
    found = {tuple(p["assessors"]): p["kappa"]
             for p in pairwise(JudgmentRow(*r) for r in master.judgment_rows()
                               if r[2] in TEAM)}
    assert len(found) == 3
    for (a, b), kappa in found.items():
        shared = sorted(set(labels[str(a)]) & set(labels[str(b)]))
        assert shared
        reference = cohen_kappa_score([labels[str(a)][p] for p in shared],
                                      [labels[str(b)][p] for p in shared])
        assert kappa == pytest.approx(reference)

    # disputes: the pairs whose assessors disagree, all of them in the adjudication queue
    grades: dict[tuple[int, int], set[bool]] = defaultdict(set)
    for case_id, document_id, grade in rows(master.path, "SELECT case_id, document_id, grade "
                                                         "FROM judgments WHERE grade NOT NULL"):
        grades[(case_id, document_id)].add(grade >= 1)
    settled = set(rows(master.path, "SELECT case_id, document_id FROM adjudications"))
    disputed = {p for p, g in grades.items() if len(g) == 2 and p not in settled}
    assert disputed & pool
    assert {(r["case_id"], r["document_id"]) for r in master.disputed_pairs()} == disputed
    assert again.disputes == len(disputed)
    progress = master.assessor_progress()
    # a "can't judge" is done (its pair stays unjudged): nothing remains for anyone
    assert {name: progress[name]["remaining"] for name in TEAM} == dict.fromkeys(TEAM, 0)
    assert progress["Bruno"]["judged"] == len(labels["Bruno"])
    assert master.integrity_problems() == [] and master.cross_reference_problems() == []


def test_a_collect_is_one_undoable_operation_per_file(master: GoldSetStore,
                                                      tmp_path: Path) -> None:
    report = hand_out(master, TEAM, 2, tmp_path / "team", seed=1)
    judge_file(report.files["Anne"], "Anne", seed=1)
    before = dump(master.path)
    result = collect(master, [report.files["Anne"]])
    (anne,) = result.files
    assert anne.added > 0 and anne.changes is not None
    master.revert(anne.changes.operation_id)
    assert dump(master.path, ("judgments", "control_judgments", "cannot_judge")) == {
        t: before.get(t, []) for t in
        ("judgments", "control_judgments", "cannot_judge")}


def test_a_label_changed_later_in_the_file_replaces_the_collected_one(
        master: GoldSetStore, tmp_path: Path) -> None:
    report = hand_out(master, TEAM, 2, tmp_path / "team", seed=1)
    path = report.files["Chloé"]
    with GoldSetStore.open(path, assessor="Chloé") as store:
        slot = store.assignment_queue()[0]
        team_ops.judge_assigned(store, slot["id"], 0, 5.0)
    collect(master, [path])
    with GoldSetStore.open(path, assessor="Chloé") as store:
        team_ops.judge_assigned(store, slot["id"], 1, 9.5)
    (result,) = collect(master, [path]).files
    assert (result.added, result.updated) == (0, 1)
    assert rows(master.path, "SELECT grade, seconds FROM judgments j JOIN assessors s "
                             "ON s.id = j.assessor_id WHERE s.name = 'Chloé'") == [(1, 9.5)]


# -- refusals ----------------------------------------------------------------------------
def test_a_file_of_another_master_or_campaign_is_refused_and_the_master_untouched(
        master: GoldSetStore, tmp_path: Path) -> None:
    with create_sample(tmp_path / "other.goldset", assessor="x") as other:
        foreign = hand_out(other, TEAM, 2, tmp_path / "foreign", seed=1).files["Anne"]
    hand_out(master, TEAM, 2, tmp_path / "mine", seed=1)
    master.save_copy(tmp_path / "copy.goldset")
    with GoldSetStore.open(tmp_path / "copy.goldset", assessor="lead") as copy:
        later = hand_out(copy, TEAM, 2, tmp_path / "later", seed=2).files["Bruno"]
    before = sha256(master.path)
    report = collect(master, [foreign, later])
    assert [f.refused for f in report.files] == [
        f"{foreign}: it was handed out by another master file, not this one; collect it "
        "into the file that ran 'assign'.",
        f"{later}: it belongs to campaign {report_campaign(later)}, which this file does "
        "not have (removed or undone?); nothing was collected."]
    assert sha256(master.path) == before


def report_campaign(path: Path) -> str:
    with GoldSetStore.open(path, read_only=True) as store:
        info = store.assignment_info()
    assert info is not None
    return info["campaign"]


def test_a_foreign_sqlite_file_and_a_plain_gold_set_are_refused(
        master: GoldSetStore, tmp_path: Path) -> None:
    hand_out(master, TEAM, 2, tmp_path / "team", seed=1)
    alien = tmp_path / "drop" / "notes.goldset"
    alien.parent.mkdir()
    with closing(sqlite3.connect(alien)) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.commit()
    with create_sample(tmp_path / "drop" / "plain.goldset"):
        pass
    before = sha256(master.path)
    report = collect(master, [tmp_path / "drop"])
    refused = {f.path.name: f.refused for f in report.files}
    assert set(refused) == {"notes.goldset", "plain.goldset"}
    assert all(line is not None and "\n" not in line for line in refused.values())
    assert "not an assignment file" in str(refused["plain.goldset"])
    assert str(alien) in str(refused["notes.goldset"])
    assert sha256(master.path) == before


def test_an_edited_case_is_a_conflict_not_applied(master: GoldSetStore,
                                                  tmp_path: Path) -> None:
    from rag_annotator.domain import operations as ops

    path = hand_out(master, TEAM, 2, tmp_path / "team", seed=1).files["Anne"]
    judge_file(path, "Anne", seed=3)
    with GoldSetStore.open(path, assessor="Anne") as store:
        case = store.assignment_queue()[0]["case"]
        ops.edit_case(store, store.by_key("cases", case)["id"], question="Ma question à moi ?")
    question = master.by_key("cases", case)["question"]
    (result,) = collect(master, [path]).files
    assert result.conflicts == [f"case {case} was edited in the assignment file; this file's "
                                "version kept"]
    assert master.by_key("cases", case)["question"] == question
    assert result.added > 0  # the judgments still came in


# -- hostile inputs ----------------------------------------------------------------------
def test_hostile_inputs_get_one_clear_line(master: GoldSetStore, tmp_path: Path) -> None:
    from rag_annotator.errors import FileNotFound, KnownError

    before = sha256(master.path)
    with pytest.raises(InvalidValue, match=r"--per-pair 4 needs at least 4 assessors"):
        hand_out(master, TEAM, 4, tmp_path / "team")
    with pytest.raises(InvalidValue, match="appears twice"):
        hand_out(master, ["Anne", "Anne"], 1, tmp_path / "team")
    with pytest.raises(FileNotFound):
        hand_out(master, TEAM, 2, tmp_path / "no" / "such" / "dir")
    with pytest.raises(FileNotFound, match="no such file or folder to collect"):
        collect(master, [tmp_path / "missing"])
    with pytest.raises(Cancelled):
        hand_out(master, TEAM, 2, tmp_path / "team", cancel=lambda: True)
    assert sha256(master.path) == before and not (tmp_path / "team").exists()
    names = ["a/b", "a_b", "Zoë:1", "..", "CON", "名前", " x"]
    with pytest.raises(InvalidValue):  # a name with surrounding spaces is not a name
        hand_out(master, names, 2, tmp_path / "team")
    names.pop()
    report = hand_out(master, names, 2, tmp_path / "team", seed=9)
    files = [p.name for p in report.files.values()]
    assert len(set(f.lower() for f in files)) == len(names)
    assert all("/" not in f and ":" not in f and not f.startswith(".") for f in files)
    assert safe_file_name("名前") == "名前.goldset" and safe_file_name("CON").startswith("_")
    for name, path in report.files.items():
        assert path.parent == tmp_path / "team"
        with GoldSetStore.open(path, read_only=True) as store:
            assert store.assignment_info()["assessor"] == name  # type: ignore[index]
    with pytest.raises(KnownError, match="already there"):  # never overwritten
        hand_out(master, names, 2, tmp_path / "team")


def test_garbage_and_empty_files_are_refused_one_line_each(master: GoldSetStore,
                                                           tmp_path: Path) -> None:
    report = hand_out(master, TEAM, 2, tmp_path / "team", seed=1)
    judge_file(report.files["Chloé"], "Chloé", seed=1)
    (tmp_path / "team" / "garbage.goldset").write_bytes(bytes(range(256)) * 20)
    (tmp_path / "team" / "empty.goldset").write_bytes(b"")
    (tmp_path / "team" / "cut.goldset").write_bytes(
        report.files["Anne"].read_bytes()[:3000])
    result = {f.path.name: f for f in collect(master, [tmp_path / "team"]).files}
    for name in ("garbage.goldset", "empty.goldset", "cut.goldset"):
        refused = result[name].refused
        assert refused is not None and refused.startswith(str(tmp_path / "team" / name))
        assert "\n" not in refused
    assert result[report.files["Chloé"].name].added > 0


@pytest.mark.skipif(__import__("os").geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_refused_and_the_others_collected(
        master: GoldSetStore, tmp_path: Path) -> None:
    report = hand_out(master, TEAM, 2, tmp_path / "team", seed=1)
    judge_file(report.files["Anne"], "Anne", seed=1)
    report.files["Bruno"].chmod(0)
    try:
        result = collect(master, [tmp_path / "team"])
    finally:
        report.files["Bruno"].chmod(0o644)
    outcome = {f.assessor or f.path.name: f for f in result.files}
    assert outcome["Anne"].added > 0
    assert outcome[report.files["Bruno"].name].refused is not None


def test_judging_takes_seconds_and_cannot_judge_keeps_the_pair_unjudged(
        master: GoldSetStore, tmp_path: Path) -> None:
    path = hand_out(master, TEAM, 2, tmp_path / "team", seed=1).files["Anne"]
    with GoldSetStore.open(path, assessor="someone else") as store:
        slot = store.assignment_queue()[0]
        changes = team_ops.judge_assigned(store, slot["id"], 1, 12.5)
        assert changes.pairs == {(slot["case_id"], slot["document_id"])}
        with pytest.raises(InvalidValue, match="seconds"):
            team_ops.judge_assigned(store, slot["id"], 1, -1.0)
        changes = team_ops.cannot_judge_assigned(store, slot["id"], "  illisible ")
        row = store.assignment_queue()[0]
        assert (row["grade"], row["cannot_judge"], row["done"]) == (None, "illisible", True)
        store.revert(changes.operation_id)
        assert store.assignment_queue()[0]["grade"] == 1
        assert rows(path, "SELECT s.name, j.seconds FROM judgments j JOIN assessors s "
                          "ON s.id = j.assessor_id") == [("Anne", 12.5)]


# -- formats and checks --------------------------------------------------------------------
def test_native_json_carries_the_campaign_and_round_trips_byte_for_byte(
        master: GoldSetStore, tmp_path: Path) -> None:
    import json
    from importlib import resources

    import jsonschema

    from rag_annotator.import_export import native_json
    from rag_annotator.import_export.registry import Options

    report = hand_out(master, TEAM, 2, tmp_path / "team", control=0.05, seed=4)
    for i, (name, path) in enumerate(report.files.items()):
        judge_file(path, name, seed=i, cannot=2)
    collect(master, [tmp_path / "team"])
    native_json.export_json(master, tmp_path / "a.json", Options())
    first = (tmp_path / "a.json").read_bytes()
    with GoldSetStore.create(tmp_path / "b.goldset", assessor="imp") as other:
        native_json.import_json(other, tmp_path / "a.json", Options())
        native_json.export_json(other, tmp_path / "b.json", Options())
        assert other.assessor_progress() == master.assessor_progress()
        assert other.control_rows() == master.control_rows()
    assert (tmp_path / "b.json").read_bytes() == first
    data = json.loads(first)
    schema = json.loads((resources.files("rag_annotator.resources") / "schema" /
                         "goldset.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    (campaign,) = data["campaigns"]
    assert campaign["assessors"] == list(TEAM) and campaign["per_pair"] == 2
    slots = rows(master.path, "SELECT count(*) FROM assignments")[0][0]
    assert len(data["assignments"]) == slots
    assert len(data["cannot_judge"]) == 3 and data["control_judgments"]
    timed = [j for j in data["judgments"] if j["assessor"] in TEAM]
    assert timed and all(isinstance(j["seconds"], float) for j in timed)


def test_check_reports_a_bad_slot_and_a_control_without_its_pair(
        master: GoldSetStore, tmp_path: Path) -> None:
    hand_out(master, TEAM, 2, tmp_path / "team", control=0.05, seed=4)
    with closing(sqlite3.connect(master.path)) as conn:
        # Anne's original slot of a pair that comes back as one of HER control slots goes,
        # and a slot that is no packed pair (0) comes at the end of her queue
        anne = "assessor_id = (SELECT id FROM assessors WHERE name = 'Anne')"
        (text,) = conn.execute(f"SELECT slots FROM queues WHERE {anne}").fetchone()
        slots = json.loads(text)
        control = next(v for v in slots if v < 0)
        slots.remove(-control)
        conn.execute(f"UPDATE queues SET slots = ? WHERE {anne}",
                     (json.dumps([*slots, 0]),))
        conn.commit()
    problems = master.cross_reference_problems()
    assert any("assessor Anne: the queue holds a slot that names no pair" in p
               for p in problems)
    assert any("assessor Anne: control slot" in p and "repeats no pair" in p
               for p in problems)
    assert not any("Bruno" in p for p in problems)


def test_hand_out_reports_progress_per_file(master: GoldSetStore, tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    hand_out(master, TEAM, 2, tmp_path / "team", progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 4) and seen[-1] == (4, 4)
    assert [d for d, _t in seen] == sorted(d for d, _t in seen)


def test_collect_by_keys_matches_collect_by_ids(master: GoldSetStore, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A file whose ids are the master's is classified by ids (the fast path); any other by
    keys.  Forced down the key path, the same files bring exactly the same rows."""
    from rag_annotator.storage import team_merge

    report = hand_out(master, TEAM, 2, tmp_path / "team", control=0.05, seed=9)
    for n, (name, path) in enumerate(report.files.items()):
        judge_file(path, name, seed=n, cannot=3)
    master.close()
    by_keys = tmp_path / "by_keys.goldset"
    by_keys.write_bytes(master.path.read_bytes())
    tables = ("judgments", "control_judgments", "cannot_judge")
    with GoldSetStore.open(master.path, assessor="lead") as store:
        fast = collect(store, [tmp_path / "team"])
    monkeypatch.setattr(team_merge, "_SAME_IDS", "SELECT 0")
    with GoldSetStore.open(by_keys, assessor="lead") as store:
        slow = collect(store, [tmp_path / "team"])
    assert [f.summary().split(": ", 1)[1] for f in fast.files] == [
        f.summary().split(": ", 1)[1] for f in slow.files]
    assert sum(f.added for f in fast.files) > 0 and fast.disputes == slow.disputes
    assert dump(master.path, tables, drop=frozenset({"updated_at"})) == dump(
        by_keys, tables, drop=frozenset({"updated_at"}))


def test_a_version_10_queue_is_packed_into_one_row_by_the_migration(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Version 11 packs an older file's one-row-per-slot queue into ``queues`` (position
    order, controls negated); the ``assignments`` view reads the same slots back."""
    from rag_annotator.storage import schema
    from tests.helpers import schema_up_to

    path = tmp_path / "old.goldset"
    with monkeypatch.context() as patch:
        schema_up_to(patch, schema.TEAM_ITEMS_VERSION - 1)
        GoldSetStore.create(path, assessor="lead").close()
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("INSERT INTO assessors (id, name, created_at) VALUES (7, 'Anne', 't')")
        conn.executemany("INSERT INTO cases (id, key, created_at, updated_at) VALUES "
                         "(?, ?, 't', 't')", [(3, "Q3"), (5, "Q5")])
        conn.executemany("INSERT INTO documents (id, key, content_hash, created_at, "
                         "updated_at) VALUES (?, ?, 'h', 't', 't')", [(2, "D2"), (9, "D9")])
        conn.execute("INSERT INTO campaigns (id, uuid, per_pair, seed, master, created_at) "
                     "VALUES (1, ?, 1, 0, ?, 't')", ("a" * 32, "b" * 32))
        conn.execute("INSERT INTO campaign_assessors (campaign_id, assessor_id) VALUES (1, 7)")
        slots = [(2, 5, 9, 0), (1, 3, 2, 0), (3, 3, 2, 1)]  # (position, case, doc, control)
        conn.executemany("INSERT INTO assignments (campaign_id, assessor_id, position, "
                         "case_id, document_id, is_control) VALUES (1, 7, ?, ?, ?, ?)", slots)
        conn.commit()
    with GoldSetStore.open(path, assessor="lead") as store:
        assert store.schema_version == schema.SCHEMA_VERSION
        (packed,) = [json.loads(r["slots"]) for r in store.query("SELECT slots FROM queues")]
        assert packed == [(3 << 32) + 2, (5 << 32) + 9, -((3 << 32) + 2)]
        view = store.query("SELECT position, case_id, document_id, is_control "
                           "FROM assignments ORDER BY position")
        assert [tuple(r.values()) for r in view] == sorted(slots)
        queue = store.assignment_queue("Anne")
        assert [(r["case"], r["document"], r["is_control"]) for r in queue] == [
            ("Q3", "D2", False), ("Q5", "D9", False), ("Q3", "D2", True)]
        assert store.queue_slot(queue[2]["id"])["is_control"] is True
        assert store.cross_reference_problems() == []
