"""Campaigns of claims and trajectories (issue 15): ``assign --items claims|trajectories``
deals each item of the runs to k distinct assessors; each expert verifies in their own file;
``collect`` brings each assessor's verdict into the per-assessor tables, once."""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from rag_annotator.cli import main
from rag_annotator.domain import agent_ops, operations
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.team_files import collect, hand_out
from rag_annotator.storage.store import GoldSetStore
from tests.team_builders import ITEM_EXPERTS, VERDICTS

NAMES = ITEM_EXPERTS


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


def test_a_verdict_older_than_the_masters_is_kept_out_and_said(
        master: GoldSetStore, tmp_path: Path) -> None:
    """The master holds a newer, different verdict for one slot (set after the first
    collect): collecting the file again keeps the master's and says so; it is not counted
    among the unchanged."""
    report = hand_out(master, NAMES, 2, tmp_path / "out", seed=7, items="claims")
    handed = {name: verify_file(path, name) for name, path in report.files.items()}
    collect(master, list(report.files.values()))
    row = master.query("SELECT a.id, a.verdict, a.updated_at, s.name FROM claim_assessments a "
                       "JOIN assessors s ON s.id = a.assessor_id ORDER BY a.id LIMIT 1")[0]
    newer = datetime.now(timezone.utc) + timedelta(seconds=5)
    master._conn.execute(  # as if re-verdicted in the master after the first collect
        "UPDATE claim_assessments SET verdict = ?, updated_at = ? WHERE id = ?",
        (next(v for v in VERDICTS if v != row["verdict"]),
         newer.strftime("%Y-%m-%dT%H:%M:%S.") + f"{newer.microsecond // 1000:03d}Z",
         row["id"]))
    again = {f.assessor: f for f in collect(master, list(report.files.values())).files}
    mine = again[row["name"]]
    assert (mine.added, mine.updated, mine.older) == (0, 0, 1)
    assert mine.unchanged == handed[row["name"]] - 1
    assert "1 older than the master's (its label kept)" in mine.summary()
    assert all(f.older == 0 for name, f in again.items() if name != row["name"])


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


def _schema() -> dict[str, object]:
    import json
    from importlib import resources

    return json.loads((resources.files("rag_annotator.resources") / "schema" /
                       "goldset.schema.json").read_text(encoding="utf-8"))


def test_native_json_carries_claims_and_trajectories_campaigns_and_their_verdicts(
        master: GoldSetStore, tmp_path: Path) -> None:
    """Export → import into a new file → export gives the same bytes, the JSON Schema holds,
    ``check`` passes, and the new file holds the same slots and per-assessor verdicts (read
    with raw SQL by natural keys, not with the code that wrote them)."""
    import json

    import jsonschema

    from rag_annotator.import_export import native_json
    from rag_annotator.import_export.registry import Options

    claims = hand_out(master, NAMES, 2, tmp_path / "c", seed=7, items="claims")
    for name, path in claims.files.items():
        verify_file(path, name)
    collect(master, list(claims.files.values()))
    trajectories = master.query("SELECT id FROM trajectories")
    if trajectories:
        handed = hand_out(master, NAMES, 2, tmp_path / "t", seed=3, items="trajectories")
        for name, path in handed.files.items():
            review_file(path, name)
        collect(master, list(handed.files.values()))
    pairs = hand_out(master, NAMES[:2], 1, tmp_path / "p", seed=2)
    assert pairs.pairs
    native_json.export_json(master, tmp_path / "a.json", Options())
    first = (tmp_path / "a.json").read_bytes()
    data = json.loads(first)
    jsonschema.validate(data, _schema())
    assert [c["items"] for c in data["campaigns"]] == (
        ["claims", "trajectories", "pairs"] if trajectories else ["claims", "pairs"])
    slots = {r["n"] for r in master.query("SELECT count(*) AS n FROM assignments")}
    assert {len(data["assignments"])} == slots
    assert len(data["claim_assessments"]) == master.count("claim_assessments") > 0
    assert len(data["trajectory_assessments"]) == master.count("trajectory_assessments")
    slot_sql = ("SELECT g.uuid, s.name, a.position, a.is_control, c.key, d.key, r.name, "
                "x.position, x.text, rt.name, ct.key, t.trial FROM assignments a "
                "JOIN campaigns g ON g.id = a.campaign_id JOIN assessors s ON s.id = "
                "a.assessor_id LEFT JOIN cases c ON c.id = a.case_id LEFT JOIN documents d ON "
                "d.id = a.document_id LEFT JOIN claims x ON x.id = a.claim_id LEFT JOIN "
                "answers an ON an.id = x.answer_id LEFT JOIN runs r ON r.id = an.run_id "
                "LEFT JOIN trajectories t ON t.id = a.trajectory_id LEFT JOIN runs rt ON "
                "rt.id = t.run_id LEFT JOIN cases ct ON ct.id = t.case_id ORDER BY 1, 2, 3")
    verdict_sql = ("SELECT g.uuid, s.name, x.text, v.verdict, v.rationale, v.updated_at "
                   "FROM claim_assessments v JOIN campaigns g ON g.id = v.campaign_id "
                   "JOIN claims x ON x.id = v.claim_id JOIN assessors s ON s.id = "
                   "v.assessor_id ORDER BY 1, 2, 3")
    review_sql = ("SELECT g.uuid, s.name, r.name, t.trial, v.task_success, v.note, "
                  "v.updated_at FROM trajectory_assessments v JOIN campaigns g ON g.id = "
                  "v.campaign_id JOIN trajectories t ON t.id = v.trajectory_id JOIN runs r "
                  "ON r.id = t.run_id JOIN assessors s ON s.id = v.assessor_id "
                  "ORDER BY 1, 2, 3, 4")
    with GoldSetStore.create(tmp_path / "b.goldset", assessor="imp") as other:
        native_json.import_json(other, tmp_path / "a.json", Options())
        native_json.export_json(other, tmp_path / "b.json", Options())
        for sql in (slot_sql, verdict_sql, review_sql):
            assert other.query(sql) == master.query(sql)
        assert other.campaigns() == master.campaigns()
        assert other.schema_problems() == [] and other.cross_reference_problems() == []
    assert (tmp_path / "b.json").read_bytes() == first
    from rag_annotator.cli import main

    assert main(["check", str(tmp_path / "b.goldset")]) == 0


def test_native_json_refuses_a_claim_slot_that_names_a_document(
        master: GoldSetStore, tmp_path: Path) -> None:
    import json

    from rag_annotator.errors import KnownError
    from rag_annotator.import_export import native_json
    from rag_annotator.import_export.registry import Options

    hand_out(master, NAMES, 2, tmp_path / "c", seed=7, items="claims")
    native_json.export_json(master, tmp_path / "a.json", Options())
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    data["assignments"][0]["document"] = "doc-x"
    (tmp_path / "a.json").write_text(json.dumps(data), encoding="utf-8")
    with GoldSetStore.create(tmp_path / "b.goldset", assessor="imp") as other:
        with pytest.raises(KnownError, match=r"assignments\[0\]\.document: must be null"):
            native_json.import_json(other, tmp_path / "a.json", Options())
        assert other.count("queues") == 0 and other.count("campaigns") == 0


def _verify_some(path: Path, name: str, limit: int) -> None:
    with GoldSetStore.open(path, assessor=name) as store:
        for claim in store.query("SELECT id FROM claims ORDER BY id LIMIT ?", (limit,)):
            operations.set_claim_verdict(store, claim["id"], "supported", name)


def _slots(master: Path, name: str) -> int:
    from tests.helpers import rows

    return int(rows(master, "SELECT count(*) FROM assignments a JOIN assessors s ON s.id = "
                            "a.assessor_id WHERE s.name = ? AND a.claim_id IS NOT NULL",
                    (name,))[0][0])


def test_team_figures_show_progress_on_claims_per_assessor_from_the_folder_and_the_master(
        master: GoldSetStore, tmp_path: Path) -> None:
    """The team panel (a folder read live) and the Assessors sheet (the master) give each
    assessor of a claims campaign: assigned, done, remaining — counted here with raw SQL on
    the files, and read back from the workbook with python-calamine."""
    from python_calamine import CalamineWorkbook

    from rag_annotator.import_export.registry import Options
    from rag_annotator.import_export.xlsx_export import export_xlsx
    from rag_annotator.reports.team import read_team_folder, store_team_figures

    report = hand_out(master, NAMES, 2, tmp_path / "team", seed=7, items="claims")
    done = {"alice": 10**6, "bruno": 5, "chloé": 0}
    for name, limit in done.items():
        _verify_some(report.files[name], name, limit)
    assigned = {name: _slots(master.path, name) for name in NAMES}
    done["alice"] = assigned["alice"]
    status = read_team_folder(tmp_path / "team", skip=master.path)
    assert not status.unread and status.figures.assessors == ()  # no relevance figures
    got = {p.name: (p.items, p.assigned, p.done, p.remaining) for p in status.figures.items}
    assert got == {n: ("claims", assigned[n], done[n], assigned[n] - done[n]) for n in NAMES}
    collect(master, list(report.files.values()))
    figures = store_team_figures(master)
    assert {p.name: (p.assigned, p.done) for p in figures.items} == {
        n: (assigned[n], done[n]) for n in NAMES}
    dest = tmp_path / "r.xlsx"
    export_xlsx(master, dest, Options(locale="en"))
    sheet = CalamineWorkbook.from_path(str(dest)).get_sheet_by_name("Assessors").to_python()
    header = next(i for i, r in enumerate(sheet) if r[:2] == ["assessor", "items"])
    table = {str(r[0]): r[1:5] for r in sheet[header + 1:] if r and r[0] in NAMES}
    assert {n: [str(r[0]), int(r[1]), int(r[2]), int(r[3])] for n, r in table.items()} == {
        n: ["claims", assigned[n], done[n], assigned[n] - done[n]] for n in NAMES}
