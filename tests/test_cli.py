"""The command line contract of DESIGN section 6: ``new``, ``info --json``, ``check``.

Counts printed by ``info`` are checked against an independent computation written here in
Python from raw rows (the definitions of DESIGN sections 4–6), never against the store's SQL.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections import Counter, defaultdict
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from rag_annotator import __version__
from rag_annotator.domain.enums import Family
from rag_annotator.storage.connection import APPLICATION_ID
from rag_annotator.storage.schema import SCHEMA_VERSION
from rag_annotator.storage.store import GoldSetStore
from tests.builders import Rich, build_rich
from tests.helpers import (
    fingerprint,
    header_ids,
    listing,
    ro_connect,
    run_cli,
    scalar,
    stderr_lines,
)

Pair = tuple[int, int]


# -- an independent model of the counts ------------------------------------------------------
def expected_info(path: Path) -> dict[str, Any]:
    """What ``info --json`` must print, computed in Python from raw rows."""
    with closing(ro_connect(path)) as c:
        def q(sql: str) -> list[tuple[Any, ...]]:
            return c.execute(sql).fetchall()

        runs: dict[str, int] = {}
        for run_id, name in q("SELECT id, name FROM runs"):
            covered = {case for case, run in q("SELECT case_id, run_id FROM retrieved")
                       if run == run_id}
            covered |= {case for case, run in q("SELECT case_id, run_id FROM answers")
                        if run == run_id}
            covered |= {case for case, run in q("SELECT case_id, run_id FROM trajectories")
                        if run == run_id}
            runs[name] = len(covered)
        families = {f.value: 0 for f in Family}
        for (family,) in q("SELECT family FROM cases"):
            families[family] += 1
        universe: set[Pair] = set()
        for table in ("retrieved", "expected_sources", "judgments", "adjudications"):
            universe |= set(q(f"SELECT case_id, document_id FROM {table}"))
        adjudicated = {(c_, d): g for c_, d, g in
                       q("SELECT case_id, document_id, grade FROM adjudications")}
        grades: dict[Pair, set[int]] = defaultdict(set)
        for c_, d, g in q("SELECT case_id, document_id, grade FROM judgments"):
            if g is not None:
                grades[(c_, d)].add(g)
        counts = Counter()
        for pair in universe:
            if pair in adjudicated:
                grade: int | None = adjudicated[pair]
            elif len(grades[pair]) == 1:
                grade = next(iter(grades[pair]))
            else:
                grade = None
                counts["disputed"] += len(grades[pair]) > 1
            counts["unjudged" if grade is None else
                   "relevant" if grade >= 1 else "not_relevant"] += 1
        verdicts = Counter(v or "unverified" for (v,) in q("SELECT verdict FROM claims"))
        agents = {"cases": sum(kind == "agent" for (kind,) in q("SELECT kind FROM cases")),
                  "trajectories": len(q("SELECT id FROM trajectories")),
                  "steps": len(q("SELECT id FROM trajectory_steps")),
                  "reviewed": len(q("SELECT id FROM trajectory_reviews"))}
        return {
            "agents": agents,
            "schema_version": c.execute("PRAGMA user_version").fetchone()[0],
            "documents": len(q("SELECT id FROM documents")),
            "cases": len(q("SELECT id FROM cases")),
            "runs": runs,
            "families": families,
            "judgments": {k: counts[k] for k in ("relevant", "not_relevant", "unjudged")},
            "disputed": counts["disputed"],
            "claims": {k: verdicts[k] for k in
                       ("supported", "not_supported", "contradicted", "unverified")},
        }


def info_json(path: Path) -> dict[str, Any]:
    result = run_cli("info", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def assert_info_shape(info: dict[str, Any]) -> None:
    """Keys and types promised by DESIGN section 6."""
    for key in ("schema_version", "documents", "cases"):
        assert type(info[key]) is int and info[key] >= 0, key
    assert isinstance(info["runs"], dict)
    assert all(isinstance(k, str) and type(v) is int for k, v in info["runs"].items())
    assert set(info["families"]) == {f.value for f in Family} and len(info["families"]) == 9
    assert all(type(v) is int for v in info["families"].values())
    assert {"relevant", "not_relevant", "unjudged"} <= set(info["judgments"])
    assert all(type(info["judgments"][k]) is int
               for k in ("relevant", "not_relevant", "unjudged"))
    assert set(info["claims"]) >= {"supported", "not_supported", "contradicted", "unverified"}
    assert all(type(v) is int for v in info["claims"].values())


def assert_info_matches(info: dict[str, Any], expected: dict[str, Any]) -> None:
    for key in ("schema_version", "documents", "cases", "runs", "families", "claims",
                "agents"):
        assert info[key] == expected[key], key
    for key, value in expected["judgments"].items():
        assert info["judgments"][key] == value, key
    if "disputed" in info["judgments"]:
        assert info["judgments"]["disputed"] == expected["disputed"]


@pytest.fixture
def rich_file(goldset_path: Path) -> tuple[Path, Rich]:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        rich = build_rich(store)
    return goldset_path, rich


# -- help and version --------------------------------------------------------------------------
def test_help_lists_the_commands() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    for command in ("new", "info", "check"):
        assert f"rag-annotator {command} FILE" in result.stdout, command


def test_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0
    assert __version__ in result.stdout and f"schema {SCHEMA_VERSION}" in result.stdout


@pytest.mark.parametrize("command", ["new", "info", "check"])
def test_command_help(command: str) -> None:
    result = run_cli(command, "--help")
    assert result.returncode == 0 and "usage:" in result.stdout


def test_unknown_option_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli("info", str(tmp_path / "x.goldset"), "--frobnicate")
    assert result.returncode == 2 and "usage:" in result.stderr
    assert listing(tmp_path) == []


# -- new -------------------------------------------------------------------------------------
def test_new_empty(tmp_path: Path) -> None:
    path = tmp_path / "vide.goldset"
    result = run_cli("new", str(path), "--name", "Mon jeu")
    assert result.returncode == 0, result.stderr
    assert str(path) in result.stdout
    assert listing(tmp_path) == ["vide.goldset"]
    assert header_ids(path) == (APPLICATION_ID, SCHEMA_VERSION)
    assert scalar(path, "SELECT value FROM meta WHERE key = 'name'") == "Mon jeu"
    info = info_json(path)
    assert_info_shape(info)
    assert_info_matches(info, expected_info(path))
    assert info["cases"] == info["documents"] == 0 and info["runs"] == {}
    assert run_cli("check", str(path)).returncode == 0


@pytest.mark.parametrize("sample", [False, True], ids=["empty", "sample"])
def test_new_refuses_an_existing_path(tmp_path: Path, sample: bool) -> None:
    path = tmp_path / "taken.goldset"
    path.write_bytes(b"someone's work")
    before = fingerprint(path)
    result = run_cli("new", str(path), *(["--sample"] if sample else []))
    assert result.returncode == 2
    lines = stderr_lines(result)
    assert len(lines) == 1 and lines[0].startswith("error:") and str(path) in lines[0]
    assert fingerprint(path) == before
    assert listing(tmp_path) == ["taken.goldset"]


def test_new_in_a_missing_folder(tmp_path: Path) -> None:
    result = run_cli("new", str(tmp_path / "absent" / "x.goldset"))
    assert result.returncode == 2
    lines = stderr_lines(result)
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert listing(tmp_path) == []


def test_new_sample(tmp_path: Path) -> None:
    """Needs rag_annotator/resources/sample/sample_fr.json."""
    path = tmp_path / "exemple.goldset"
    result = run_cli("new", str(path), "--sample")
    assert result.returncode == 0, result.stderr
    assert listing(tmp_path) == ["exemple.goldset"]
    info = info_json(path)
    assert_info_shape(info)
    expected = expected_info(path)
    assert_info_matches(info, expected)
    # The sample has cases in every family, two runs, judgments and verified claims.
    assert all(n > 0 for n in info["families"].values()), info["families"]
    assert len(info["runs"]) >= 2 and all(n > 0 for n in info["runs"].values())
    assert info["documents"] > 0
    assert info["judgments"]["relevant"] > 0 and info["judgments"]["not_relevant"] > 0
    assert sum(info["claims"].values()) > info["claims"]["unverified"]
    check = run_cli("check", str(path))
    assert check.returncode == 0, check.stdout + check.stderr


# -- info --------------------------------------------------------------------------------------
def test_info_json_counts(rich_file: tuple[Path, Rich]) -> None:
    path, _ = rich_file
    expected = expected_info(path)
    # The model agrees with what build_rich set up by hand: agreement (Q1·D1) and the
    # adjudicated dispute (Q1·D3) are relevant, Q1·D5 is not; the open dispute (Q1·D2), the
    # reset row (Q2·D4) and the never-judged pairs (Q2·D1, Q2·D6) are unjudged.
    assert expected["judgments"] == {"relevant": 2, "not_relevant": 1, "unjudged": 4}
    assert expected["disputed"] == 1
    assert expected["runs"] == {"bm25": 2, "dense": 2}
    assert expected["claims"] == {"supported": 1, "not_supported": 0, "contradicted": 1,
                                  "unverified": 1}

    info = info_json(path)
    assert_info_shape(info)
    assert_info_matches(info, expected)
    assert info["schema_version"] == SCHEMA_VERSION


def test_info_counts_follow_edits(rich_file: tuple[Path, Rich]) -> None:
    """Settle the open dispute and reset a claim: the counts move as the model says."""
    from rag_annotator.domain import judging_ops
    from rag_annotator.domain import operations as ops

    path, rich = rich_file
    with GoldSetStore.open(path, assessor="bob") as store:
        # now agrees with alice
        judging_ops.set_judgment(store, rich.cases["Q1"], rich.docs["D2"], 1)
        ops.set_claim_verdict(store, rich.claims[0], None)
        ops.delete_run(store, rich.runs["dense"])
    info = info_json(path)
    expected = expected_info(path)
    assert_info_matches(info, expected)
    assert expected["disputed"] == 0 and "dense" not in info["runs"]


def test_info_text(rich_file: tuple[Path, Rich]) -> None:
    path, _ = rich_file
    result = run_cli("info", str(path))
    assert result.returncode == 0, result.stderr
    expected = expected_info(path)
    j = expected["judgments"]
    assert f"relevant {j['relevant']}, not relevant {j['not_relevant']}" in result.stdout
    assert f"unjudged {j['unjudged']}" in result.stdout
    assert "bm25 (2 cases)" in result.stdout


# -- check ---------------------------------------------------------------------------------------
def _corrupt(path: Path, sql: list[str]) -> None:
    """Edit the file behind the app's back (plain sqlite3, foreign keys off)."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        for statement in sql:
            conn.execute(statement)
        conn.commit()


def _problems(rich: Rich) -> dict[str, tuple[list[str], list[str]]]:
    """name → (SQL that breaks the file, substrings every resulting line must match)."""
    c, d = rich.cases, rich.docs
    return {
        "expected_span_beyond_document": (
            [f"UPDATE expected_sources SET span_end = 10000 WHERE id = {rich.sources[0]}"],
            ["case Q1", "D1", "10000"]),
        "claim_span_beyond_answer": (
            [f"UPDATE claims SET span_end = 500 WHERE id = {rich.claims[1]}"],
            [f"claim {rich.claims[1]}", "500"]),
        "evidence_span_beyond_document": (
            [f"UPDATE evidence SET span_end = 9999 WHERE id = {rich.evidence[0]}"],
            [f"claim {rich.claims[0]}", "9999"]),
        "supersedes_cycle": (
            [f"UPDATE documents SET supersedes_id = {d['D5']} WHERE id = {d['D4']}",
             f"UPDATE documents SET supersedes_id = {d['D4']} WHERE id = {d['D5']}"],
            ["cycle"]),
        "grade_above_scale": (
            [f"UPDATE judgments SET grade = 3 WHERE case_id = {c['Q1']} AND grade = 0 "
             "AND id = (SELECT min(id) FROM judgments WHERE grade = 0)"],
            ["grade above", "max 1"]),
        "tags_not_a_list": (
            [f"UPDATE cases SET tags = 'rh' WHERE id = {c['Q2']}"],
            [f"cases {c['Q2']}", "tags"]),
        "dangling_foreign_key": (
            [f"INSERT INTO judgments (case_id, document_id, assessor_id, grade, updated_at) "
             f"VALUES ({c['Q3']}, 999, 1, 1, 'x')"],
            ["judgments", "documents"]),
        "rank_gap": (
            [f"UPDATE retrieved SET rank = 7 WHERE case_id = {c['Q2']} AND rank = 2"],
            ["run bm25", "case Q2"]),
        "expected_state_not_an_object": (
            [f"UPDATE cases SET expected_state = '[1]' WHERE id = {c['Q1']}"],
            [f"cases {c['Q1']}", "expected_state", "JSON object"]),
        "tool_order_not_pairs": (
            [f"UPDATE cases SET tool_order = '[[\"a\"]]' WHERE id = {c['Q3']}"],
            ["case Q3", "tool_order"]),
    }


def _check(path: Path) -> tuple[int, list[str], list[str]]:
    result = run_cli("check", str(path))
    return result.returncode, result.stdout.splitlines(), stderr_lines(result)


def test_check_good_file(rich_file: tuple[Path, Rich]) -> None:
    path, _ = rich_file
    before = fingerprint(path)
    code, out, err = _check(path)
    assert code == 0, out
    assert len(out) == 1 and "ok" in out[0] and str(path) in out[0]
    assert err == []
    assert fingerprint(path) == before


@pytest.mark.parametrize("problem", [
    "expected_span_beyond_document", "claim_span_beyond_answer",
    "evidence_span_beyond_document", "supersedes_cycle", "grade_above_scale",
    "tags_not_a_list", "dangling_foreign_key", "rank_gap", "expected_state_not_an_object",
    "tool_order_not_pairs"])
def test_check_reports_each_problem(rich_file: tuple[Path, Rich], problem: str) -> None:
    path, rich = rich_file
    sql, needles = _problems(rich)[problem]
    _corrupt(path, sql)
    before = fingerprint(path)
    code, out, err = _check(path)
    assert code == 1, out
    assert out, "one line per problem on stdout"
    for line in out:
        assert line.startswith(f"{path}: ")
        assert all(n in line for n in needles), (line, needles)
    assert len(err) == 1 and str(len(out)) in err[0]
    assert fingerprint(path) == before


def test_check_reports_every_problem_at_once(rich_file: tuple[Path, Rich],
                                             tmp_path: Path) -> None:
    path, rich = rich_file
    problems = _problems(rich)
    for sql, _ in problems.values():
        _corrupt(path, sql)
    code, out, _ = _check(path)
    assert code == 1
    # Every problem is reported, and every line is about one of them.
    for name, (_, needles) in problems.items():
        assert any(all(n in line for n in needles) for line in out), name
    for line in out:
        assert any(all(n in line for n in needles) for _, needles in problems.values()), line
    assert len(out) >= len(problems)


def test_check_reports_schema_drift(rich_file: tuple[Path, Rich], tmp_path: Path) -> None:
    """A table dropped by another tool is a schema problem, not a crash."""
    path, _ = rich_file
    copy = Path(shutil.copyfile(path, tmp_path / "drift.goldset"))
    _corrupt(copy, ["DROP TABLE releases"])
    code, out, _ = _check(copy)
    assert code == 1
    assert any("releases" in line for line in out), out
