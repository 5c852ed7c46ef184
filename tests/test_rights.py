"""The rights matrix (seed 003, "droits"): identities, exposures, the replay, the CLI.

Expected values are hand counts over the sample's own JSON with plain loops (never the
code under test's output)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.domain import rights_ops
from rag_annotator.domain.rights import (
    NOBODY,
    Identities,
    Identity,
    RightsChange,
    gained_readers,
    remove_group,
    toggled_rights,
)
from rag_annotator.errors import Conflict, InvalidValue
from rag_annotator.import_export.sample import create_sample, sample_data
from rag_annotator.reports.render import metrics_json
from rag_annotator.reports.rights_figures import exposure_of, load_state
from rag_annotator.reports.rights_replay import replay
from rag_annotator.reports.run_figures import build
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import schema_up_to

OPEN = {"*", "all", "tous", "everyone", "public"}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rag_annotator", *args], capture_output=True,
                          text=True, check=False)


def _hand_readable(rights: list[str], groups: set[str]) -> bool:
    names = {r.strip().lower() for r in rights if r.strip()}
    return not names or bool(names & OPEN) or bool(names & {g.lower() for g in groups})


def _hand_groups(data: dict[str, Any], role: str) -> set[str]:
    for identity in data.get("identities", []):
        if identity["name"].lower() == role.lower():
            return set(identity["groups"])
    return {role}


def _hand_exposures(data: dict[str, Any], groups_of: dict[str, set[str]],
                    depth: int = 10) -> set[tuple[str, str, str, str]]:
    """(run, case, stage, document) of every exposure, by plain loops over the JSON."""
    rights = {d["key"]: d["rights"] for d in data["documents"]}
    cases = {c["key"]: c for c in data["cases"]}
    out = set()
    for run in data["runs"]:
        for result in run.get("results", []):
            case = cases[result["case"]]
            role = case.get("role") or ""
            if not role.strip() or case.get("kind") == "agent" or case["status"] == "retired":
                continue
            groups = groups_of.get(role, _hand_groups(data, role))
            answered = bool(result.get("answer"))
            for rank, item in enumerate(result["retrieved"], start=1):
                if not _hand_readable(rights[item["document"]], groups):
                    out.add((run["name"], case["key"], "retrieved", item["document"]))
                    if answered and rank <= depth:
                        out.add((run["name"], case["key"], "context", item["document"]))
            for citation in (result.get("answer") or {}).get("citations", []):
                if not _hand_readable(rights[citation["document"]], groups):
                    out.add((run["name"], case["key"], "cited", citation["document"]))
    return out


@pytest.fixture
def sample(tmp_path: Path) -> GoldSetStore:
    store = create_sample(tmp_path / "s.goldset", assessor="alice")
    yield store
    store.close()


def _events(summary: Any) -> set[tuple[str, str, str, str]]:
    return {(e.run, e.case, e.stage, e.document) for e in summary.events}


def test_exposures_of_the_sample_match_a_hand_count(sample: GoldSetStore) -> None:
    data = sample_data()
    expected = _hand_exposures(data, {})
    assert _events(exposure_of(load_state(sample))) == expected
    assert {stage for _r, _c, stage, _d in expected} == {"retrieved", "context", "cited"}


@pytest.mark.parametrize("identity,group", [("manager", "manager"), ("rh", "rh"),
                                            ("salarie", "tous"), ("manager", "tous")])
def test_removing_a_group_lists_exactly_the_answers_it_exposes(
        sample: GoldSetStore, identity: str, group: str) -> None:
    data = sample_data()
    groups = _hand_groups(data, identity) - {group}
    before = _hand_exposures(data, {})
    after = _hand_exposures(data, {identity: groups})
    # the documents the group gave this identity access to, and the answers touching them
    rights = {d["key"]: d["rights"] for d in data["documents"]}
    lost = {k for k, r in rights.items()
            if _hand_readable(r, _hand_groups(data, identity)) and not _hand_readable(r, groups)}
    answers = set()
    for run in data["runs"]:
        for result in run.get("results", []):
            case = next(c for c in data["cases"] if c["key"] == result["case"])
            if (case.get("role") or "").lower() != identity:
                continue
            touched = {r["document"] for r in result["retrieved"]} | {
                c["document"] for c in (result.get("answer") or {}).get("citations", [])}
            if touched & lost:
                answers.add((run["name"], case["key"]))
    state = load_state(sample)
    result = replay(sample, remove_group(state.identities, identity, group))
    assert set(result.answers()) == answers
    assert {(e.run, e.case, e.stage, e.document) for e in result.new} == after - before
    assert not result.gone
    changed = {(f.scope, f.name, f.measure): (f.before, f.after) for f in result.figures()}
    mine = {(r, c, s, d) for r, c, s, d in after
            if (next(x for x in data["cases"] if x["key"] == c).get("role") or "") == identity}
    for stage in ("retrieved", "context", "cited"):
        n_after = sum(1 for e in mine if e[2] == stage)
        n_before = sum(1 for e in before if e[2] == stage and e in mine)
        if n_after != n_before:
            assert changed[("identity", identity, stage)] == (n_before, n_after)
    if identity == "manager" and group == "manager":  # the sample's worked example
        assert answers == {("bm25-gpt4o-v1", "Q16"), ("bm25-gpt4o-v1", "Q18"),
                           ("hybride-mistral-v2", "Q16"), ("hybride-mistral-v2", "Q18")}


def test_metrics_json_has_exposure_per_identity(tmp_path: Path) -> None:
    path = tmp_path / "s.goldset"
    assert _cli("new", str(path), "--sample").returncode == 0
    out = _cli("metrics", str(path), "--run", "hybride-mistral-v2", "--json")
    assert out.returncode == 0, out.stderr
    exposure = json.loads(out.stdout)["exposure"]
    assert set(exposure["per_identity"]) == {"salarie", "manager", "rh"}
    hand = {e for e in _hand_exposures(sample_data(), {}) if e[0] == "hybride-mistral-v2"}
    for stage in ("retrieved", "context", "cited"):
        assert exposure["per_identity"]["salarie"][stage]["count"] == sum(
            1 for e in hand if e[2] == stage)
        assert exposure["per_run"]["hybride-mistral-v2"][stage] == sum(
            1 for e in hand if e[2] == stage)
    assert exposure["per_identity"]["salarie"]["cited"]["cases"] == ["Q08"]
    assert set(exposure["outcomes"]) == {"wrong_answer", "missing_evidence", "exposure"}


def test_exposure_never_changes_quality(sample: GoldSetStore) -> None:
    run = "bm25-gpt4o-v1"
    before = metrics_json(build(sample, run))
    state = load_state(sample)
    rights_ops.apply_rights_change(sample, remove_group(state.identities, "manager", "manager"))
    after = metrics_json(build(sample, run))
    assert after["exposure"]["total"] > before["exposure"]["total"]
    for key in ("mean", "per_query", "answers", "latency"):
        assert after.get(key) == before.get(key), key


def test_old_files_with_roles_only_give_the_same_flags(sample: GoldSetStore) -> None:
    """The sample's identities are its roles as groups: deleting them (a file written before
    identities) changes no exposure and no diagnosis flag."""
    with_identities = _events(exposure_of(load_state(sample)))
    diagnosis = {r: build(sample, r).diagnosis.to_json()["per_case"] for r in
                 ("bm25-gpt4o-v1", "hybride-mistral-v2")}
    for row in sample.identity_rows():
        rights_ops.delete_identity(sample, row["id"])
    assert sample.identity_rows() == []
    assert _events(exposure_of(load_state(sample))) == with_identities
    assert {r: build(sample, r).diagnosis.to_json()["per_case"] for r in diagnosis} == diagnosis


def test_a_role_without_identity_is_one_group_of_its_name() -> None:
    identities = Identities((Identity("manager", ("tous", "managers")),))
    assert identities.groups_of("Salarie ") == {"salarie"}
    assert identities.may_read(["salarie"], "salarie")
    assert not identities.may_read(["rh"], "salarie")
    assert identities.may_read(["Managers"], "MANAGER")
    assert identities.may_read([], "anyone") and identities.may_read(["tous"], "x")
    assert identities.groups_of("") is None and identities.may_read(["rh"], "")


def test_toggled_rights_moves_one_cell_by_groups() -> None:
    ids = Identities((Identity("salarie", ("tous",)), Identity("manager", ("tous", "managers")),
                      Identity("rh", ("tous", "rh", "managers"))))
    # forbidden -> allowed: the group held by the fewest identities
    assert toggled_rights(["rh"], "manager", ids) == ["rh", "managers"]
    # allowed -> forbidden: every group of the identity leaves
    assert toggled_rights(["managers", "rh"], "manager", ids) == ["rh"]
    # an open document closes to the other identities' groups
    assert toggled_rights(["tous"], "salarie", ids) == ["managers", "rh"]
    # nobody left: not an empty list (which would mean everyone)
    assert toggled_rights(["rh"], "rh", ids) == [NOBODY]
    assert toggled_rights([NOBODY], "rh", ids) == ["rh"]
    # an identity whose only group is open makes the document open
    assert toggled_rights(["rh"], "salarie", ids) == ["tous"]


def test_matrix_edits_and_identity_edits_are_undoable(sample: GoldSetStore) -> None:
    doc = sample.by_key("documents", "RH-SAL-2025")
    ids = Identities.from_rows(sample.identity_rows())
    new = toggled_rights(json.loads(doc["rights"]), "manager", ids)
    changes = rights_ops.set_document_rights(sample, doc["id"], new)
    assert json.loads(sample.by_key("documents", "RH-SAL-2025")["rights"]) == ["rh", "manager"]
    sample.revert(changes.operation_id)
    assert sample.by_key("documents", "RH-SAL-2025")["rights"] == doc["rights"]
    manager = next(r for r in sample.identity_rows() if r["name"] == "manager")
    rename = rights_ops.edit_identity(sample, manager["id"], name="encadrant",
                                      groups=["tous", "managers"])
    assert sample.by_key("cases", "Q16")["role"] == "encadrant"
    with pytest.raises(Conflict):
        rights_ops.create_identity(sample, "RH", ["x"])
    with pytest.raises(InvalidValue):
        rights_ops.create_identity(sample, "  ", ["x"])
    sample.revert(rename.operation_id)
    assert sample.by_key("cases", "Q16")["role"] == "manager"
    assert next(r for r in sample.identity_rows() if r["name"] == "manager")["groups"] == [
        "tous", "manager"]


def test_cli_replay_apply_and_bad_inputs(tmp_path: Path) -> None:
    path = tmp_path / "s.goldset"
    assert _cli("new", str(path), "--sample").returncode == 0
    before = path.read_bytes()
    for args, word in ((("--identity", "boss", "--remove-group", "manager"), "boss"),
                       (("--identity", "manager", "--remove-group", "rh"), "rh"),
                       (("--identity", "manager"), "--remove-group"),
                       (("--apply",), "--apply")):
        out = _cli("rights", str(path), *args)
        assert out.returncode == 2 and out.stdout == ""
        assert len(out.stderr.strip().splitlines()) == 1 and word in out.stderr, out.stderr
    assert path.read_bytes() == before
    out = _cli("rights", str(path), "--identity", "manager", "--remove-group", "manager",
               "--json")
    assert out.returncode == 0 and path.read_bytes() == before
    dry = json.loads(out.stdout)
    assert {(a["run"], a["case"]) for a in dry["answers"]} == {
        ("bm25-gpt4o-v1", "Q16"), ("bm25-gpt4o-v1", "Q18"),
        ("hybride-mistral-v2", "Q16"), ("hybride-mistral-v2", "Q18")}
    assert dry["applied"] is False
    out = _cli("rights", str(path), "--identity", "manager", "--remove-group", "manager",
               "--apply")
    assert out.returncode == 0, out.stderr
    with GoldSetStore.open(path) as store:
        assert next(r for r in store.identity_rows() if r["name"] == "manager")["groups"] == [
            "tous"]
        store.revert(store.newest_operation_id())
        assert next(r for r in store.identity_rows() if r["name"] == "manager")["groups"] == [
            "tous", "manager"]


def test_a_document_change_replays_too(sample: GoldSetStore) -> None:
    """Any matrix change replays: opening RH-SAL-2025 to everyone removes its exposures."""
    result = replay(sample, RightsChange(document_rights={"RH-SAL-2025": ("tous",)}))
    assert not result.new
    assert {(e.case, e.document) for e in result.gone} == {("Q08", "RH-SAL-2025")}


def test_native_json_keeps_the_identities(sample: GoldSetStore, tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    assert _cli("export", str(sample.path), "json", str(out)).returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["identities"] == [{"name": i["name"], "groups": i["groups"],
                                   "note": i.get("note", "")}
                                  for i in sample_data()["identities"]]
    again = tmp_path / "again.goldset"
    assert _cli("new", str(again)).returncode == 0
    result = _cli("import", str(again), "json", str(out))
    assert result.returncode == 0, result.stderr
    with GoldSetStore.open(again, read_only=True) as store:
        assert [r["name"] for r in store.identity_rows()] == ["salarie", "manager", "rh"]


def test_workbook_has_the_exposure_sheet(sample: GoldSetStore, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    out = tmp_path / "s.xlsx"
    assert _cli("export", str(sample.path), "xlsx", str(out), "--locale", "en").returncode == 0
    rows = [r or (None,) for r in
            load_workbook(out, read_only=True)["Exposure"].iter_rows(values_only=True)]
    hand = _hand_exposures(sample_data(), {})
    start = next(i for i, r in enumerate(rows) if r[0] == "Every exposure") + 2
    listed = {(r[0], r[1], r[3], r[4]) for r in rows[start:] if r[0]}
    assert listed == hand and len(rows[start:]) == len(hand)
    salarie = [r for r in rows[:start] if r[0] == "salarie"]
    assert [r[5] for r in salarie] == [  # cited, per run in name order
        sum(1 for e in hand if e[0] == run and e[2] == "cited")
        for run in ("bm25-gpt4o-v1", "hybride-mistral-v2")]
    outcomes = [r for r in rows if r[0] == "out-of-scope exposure"]
    assert [r[1] for r in outcomes] == [
        len({e[1] for e in hand if e[0] == run}) for run in ("bm25-gpt4o-v1",
                                                             "hybride-mistral-v2")]


def test_a_file_written_before_identities_migrates_with_the_same_flags(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file at the version before the identities (roles only) is upgraded: no identity is
    declared, and every exposure is the one the role-only rule gives (hand count)."""

    from rag_annotator.import_export import sample as sample_mod
    from rag_annotator.import_export.sample import load_sample
    from rag_annotator.storage import schema

    data = sample_data()
    del data["identities"]
    for case in data["cases"]:  # output contracts came after the identities (migration 5)
        case.pop("output_contract", None)
    # agent runs (trials came later too) say nothing of rights
    data["runs"] = [r for r in data["runs"] if not r.get("trajectories")]
    path = tmp_path / "old.goldset"
    before = schema.IDENTITIES_VERSION - 1
    with monkeypatch.context() as patch:
        schema_up_to(patch, before)
        patch.setattr(sample_mod, "check_answers_in", lambda *args, **kwargs: None)
        with GoldSetStore.create(path) as old:
            assert old.schema_version == before
            load_sample(old, data, with_judge=False)  # review samples: migration 7
    with GoldSetStore.open(path) as store:
        assert store.schema_version == schema.SCHEMA_VERSION
        assert store.identity_rows() == [] and store.schema_problems() == []
        assert _events(exposure_of(load_state(store))) == _hand_exposures(data, {})


def test_check_reports_identities_named_alike_and_unreadable_groups(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "s.goldset"
    create_sample(path).close()
    with sqlite3.connect(path) as conn:  # what another tool could write
        conn.execute("INSERT INTO identities (name, group_names) VALUES ('Manager', 'x')")
    out = _cli("check", str(path))
    assert out.returncode == 1
    problems = [line for line in out.stdout.splitlines() if "identit" in line]
    assert any("named 'manager'" in line for line in problems), out.stdout
    assert any("group_names is not a JSON list" in line for line in problems), out.stdout


def test_renaming_an_identity_respects_a_frozen_release(sample: GoldSetStore) -> None:
    from rag_annotator.domain import operations as ops
    from rag_annotator.domain.releases import freeze_release

    q16 = sample.by_key("cases", "Q16")
    ops.edit_case(sample, q16["id"], status="approved")
    freeze_release(sample, "v1")
    manager = next(r for r in sample.identity_rows() if r["name"] == "manager")
    with pytest.raises(Conflict, match="Q16"):
        rights_ops.edit_identity(sample, manager["id"], name="encadrant")
    assert [r["name"] for r in sample.identity_rows()][1] == "manager"
    assert sample.by_key("cases", "Q18")["role"] == "manager"  # nothing half-changed


def test_gained_readers_are_who_a_change_lets_in() -> None:
    """The sample's identities: salarie holds only the open group, so allowing it on the
    salary grid opens the grid to everyone — manager gains access too, rh already had it."""
    ids = Identities((Identity("salarie", ("tous",)), Identity("manager", ("tous", "manager")),
                      Identity("rh", ("tous", "rh"))))
    opened = toggled_rights(["rh"], "salarie", ids)
    assert opened == ["tous"]
    assert gained_readers(["rh"], opened, ids) == ["salarie", "manager"]
    # allowing manager adds its own group: nobody else gets in
    assert gained_readers(["rh"], ["rh", "manager"], ids) == ["manager"]
    # forbidding lets nobody in; an unchanged document neither
    assert gained_readers(["rh", "manager"], ["rh"], ids) == []
    assert gained_readers(["rh"], ["rh"], ids) == []
    # an empty list is open to all: every identity that could not read gains
    assert gained_readers([NOBODY], [], ids) == ["salarie", "manager", "rh"]
