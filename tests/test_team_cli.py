"""``assign``, ``export … qrels --pending``, ``import … qrels --assessor`` and ``collect``
from the command line, and a folder of assignment files carried through git."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from rag_annotator.cli import main
from rag_annotator.domain import team_ops
from rag_annotator.messages import set_language
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import rows, sha256

TEAM = ("Anne", "Bruno", "Chloé")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_assign_fill_the_pending_qrels_import_collect(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    master = tmp_path / "master.goldset"
    assert cli(capsys, "new", str(master), "--sample")[0] == 0
    with GoldSetStore.open(master, read_only=True) as store:
        n_pool = len(set(store.campaign_pool(None, None)))
    code, out, _err = cli(capsys, "assign", str(master), "--assessors", ",".join(TEAM),
                          "--per-pair", "2", "--control", "0.05", "--seed", "7",
                          "--out", str(tmp_path / "team"))
    assert code == 0 and f"{n_pool} pairs handed out to 3 assessors" in out
    queues: dict[str, list[str]] = {}
    controls: dict[str, int] = {}
    for name in TEAM:
        path = tmp_path / "team" / f"{name}.goldset"
        pending = tmp_path / f"{name}.qrels"
        assert cli(capsys, "export", str(path), "qrels", str(pending), "--pending")[0] == 0
        lines = pending.read_text(encoding="utf-8").splitlines()
        with GoldSetStore.open(path, read_only=True) as store:
            order = [(r["case"], r["document"]) for r in store.assignment_queue()
                     if not r["is_control"]]
            controls[name] = sum(r["is_control"] for r in store.assignment_queue())
        assert [tuple(line.split()[::2]) for line in lines] == order  # their order
        assert {line.split()[3] for line in lines} == {"-1"}
        filled = tmp_path / f"{name}-filled.qrels"
        filled.write_text("".join(f"{q} 0 {d} {len(q + d + name) % 2}\n"
                                  for q, _it, d, _l in (line.split() for line in lines)),
                          encoding="utf-8")
        assert cli(capsys, "import", str(path), "qrels", str(filled), "--assessor", name)[0] == 0
        queues[name] = lines
    code, out, err = cli(capsys, "collect", str(master), str(tmp_path / "team"))
    assert code == 0, err
    assert "3 files collected, 0 refused" in out
    code, out, _err = cli(capsys, "info", str(master), "--json")
    info = json.loads(out)
    # the qrels carry one label per pair: the blind control repeats remain to be judged
    assert {name: info["assessors"][name] for name in TEAM} == {
        name: {"judged": len(queues[name]), "remaining": controls[name]} for name in TEAM}
    assert all(controls.values())
    # every pool pair judged: no pool pair left without an effective label or a dispute
    pending = tmp_path / "left.qrels"
    assert cli(capsys, "export", str(master), "qrels", str(pending), "--pending")[0] == 0
    assert pending.read_text(encoding="utf-8") == ""
    pool = rows(master, "SELECT count(*) FROM (SELECT DISTINCT case_id, document_id FROM "
                        "assignments)")[0][0]
    team_pairs = rows(master, "SELECT count(DISTINCT case_id || '/' || document_id) FROM "
                              "judgments j JOIN assessors s ON s.id = j.assessor_id "
                              f"WHERE s.name IN {TEAM!r} AND j.grade IS NOT NULL")[0][0]
    assert team_pairs == pool == n_pool
    # a second collect changes nothing
    before = sha256(master)
    assert cli(capsys, "collect", str(master), str(tmp_path / "team"))[0] == 0
    assert sha256(master) == before


def test_refusals_are_one_error_line_each(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    master, other = tmp_path / "master.goldset", tmp_path / "other.goldset"
    for path in (master, other):
        cli(capsys, "new", str(path), "--sample")
    cli(capsys, "assign", str(master), "--assessors", "Anne,Bruno", "--per-pair", "2",
        "--out", str(tmp_path / "mine"))
    cli(capsys, "assign", str(other), "--assessors", "Anne,Bruno", "--per-pair", "2",
        "--out", str(tmp_path / "theirs"))
    before = sha256(master)
    code, _out, err = cli(capsys, "collect", str(master), str(tmp_path / "theirs"))
    assert code == 2 and sha256(master) == before
    assert [line.startswith("error: ") and "another master file" in line
            for line in err.splitlines()] == [True, True]
    code, _out, err = cli(capsys, "assign", str(master), "--assessors", "Anne,Bruno",
                          "--per-pair", "3", "--out", str(tmp_path / "x"))
    assert code == 2 and err.splitlines() == [
        "error: --per-pair 3 needs at least 3 assessors, and 2 were named; name more or "
        "lower --per-pair."]
    code, _out, err = cli(capsys, "collect", str(master), str(tmp_path / "nowhere"))
    assert code == 2 and err.splitlines() == [
        f"error: {tmp_path / 'nowhere'}: no such file or folder to collect; check the path."]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org",
         "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True, capture_output=True,
        text=True).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_assignment_files_round_trip_through_git(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The lead commits the folder, an expert clones it, judges, commits; the lead pulls
    and collects: the expert's labels arrive."""
    master, repo, clone = tmp_path / "master.goldset", tmp_path / "repo", tmp_path / "clone"
    cli(capsys, "new", str(master), "--sample")
    cli(capsys, "assign", str(master), "--assessors", "Anne,Bruno", "--per-pair", "1",
        "--seed", "3", "--out", str(repo))
    git(repo, "init", "-q")
    (repo / ".gitignore").write_text("*.goldset-journal\n*.lock\n.rag-annotator-tmp-*\n",
                                     encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "assignments")
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    with GoldSetStore.open(clone / "Anne.goldset", assessor="Anne") as store:
        queue = store.assignment_queue()
        for slot in queue[:10]:
            team_ops.judge_assigned(store, slot["id"], slot["position"] % 2, 4.0)
    git(clone, "commit", "-qam", "Anne: 10 pairs")
    git(repo, "pull", "-q", str(clone), "HEAD")
    assert git(repo, "status", "--porcelain") == ""
    code, out, _err = cli(capsys, "collect", str(master), str(repo))
    assert code == 0 and "Anne: 10 judgments added" in out
    assert rows(master, "SELECT count(*), sum(seconds) FROM judgments j JOIN assessors s "
                        "ON s.id = j.assessor_id WHERE s.name = 'Anne'") == [(10, 40.0)]


def test_collecting_the_master_itself_says_it_was_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``collect MASTER MASTER`` (or a folder holding the master) collects nothing and says
    in one line that the master itself was left out, instead of a silent "0 collected"."""
    master = tmp_path / "master.goldset"
    assert cli(capsys, "new", str(master), "--sample")[0] == 0
    before = sha256(master)
    code, out, _err = cli(capsys, "collect", str(master), str(master))
    assert code == 0 and sha256(master) == before
    said = [line for line in out.splitlines() if "master itself" in line]
    assert len(said) == 1 and said[0].startswith(f"{master}: skipped")
    assert "0 files collected" in out
    assert cli(capsys, "assign", str(master), "--assessors", "Anne,Bruno", "--per-pair", "1",
               "--seed", "1", "--out", str(tmp_path / "team"))[0] == 0
    code, out, _err = cli(capsys, "collect", str(master), str(tmp_path))  # holds the master
    assert code == 0 and out.count("master itself") == 1
    assert "2 files collected" in out
    code, out, _err = cli(capsys, "collect", str(master), str(tmp_path / "team"))
    assert code == 0 and "master itself" not in out


def test_the_collect_summary_counts_in_words_in_english_and_french(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One file is "1 file collected" (not "1 file(s)"), in French too."""
    master = tmp_path / "master.goldset"
    cli(capsys, "new", str(master), "--sample")
    cli(capsys, "assign", str(master), "--assessors", "Anne,Bruno", "--per-pair", "1",
        "--seed", "3", "--out", str(tmp_path / "team"))
    anne = str(tmp_path / "team" / "Anne.goldset")
    with GoldSetStore.open(anne, assessor="Anne") as store:  # one label, one "can't judge"
        first, second = store.assignment_queue()[:2]
        team_ops.judge_assigned(store, first["id"], 1, 2.5)
        team_ops.cannot_judge_assigned(store, second["id"], "Outside my expertise")
    code, out, _err = cli(capsys, "collect", str(master), anne)
    assert code == 0
    assert out.splitlines()[-2:] == [
        f"{anne}: Anne: 1 judgment added, 0 updated, 0 unchanged, 0 control repeats, "
        "1 can't-judge; 0 conflicts, 0 skipped",
        f"{master}: 1 file collected, 0 refused; 0 disputed pairs in the adjudication queue"]
    try:
        code, out, _err = cli(capsys, "collect", str(master), anne,
                              str(tmp_path / "team" / "Bruno.goldset"), "--language", "fr")
    finally:
        set_language(None)  # the session's language, set by --language
    assert code == 0
    assert out.splitlines()[-3:] == [
        f"{anne} : Anne : 0 jugement ajouté, 0 mis à jour, 1 inchangé, 0 répétition de "
        "contrôle, 0 « impossible de juger » ; 0 conflit, 0 ignoré",
        f"{tmp_path / 'team' / 'Bruno.goldset'} : Bruno : 0 jugement ajouté, 0 mis à jour, "
        "0 inchangé, 0 répétition de contrôle, 0 « impossible de juger » ; 0 conflit, 0 ignoré",
        f"{master}: 2 fichiers récupérés, 0 refusé ; 0 paire en désaccord dans la file "
        "d'arbitrage"]


def test_a_campaign_s_default_name_is_in_the_session_s_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``assign`` without ``--name`` names the campaign "3 assessors × 2", in French
    "3 annotateurs × 2" (what the expert then reads above their queue)."""
    names = {}
    for lang in ("en", "fr"):
        master = tmp_path / f"{lang}.goldset"
        cli(capsys, "new", str(master), "--sample")
        try:
            assert cli(capsys, "assign", str(master), "--assessors", "Anne,Bruno,Chloé",
                       "--per-pair", "2", "--seed", "1", "--out", str(tmp_path / lang),
                       "--language", lang)[0] == 0
        finally:
            set_language(None)
        names[lang] = [rows(path, "SELECT name FROM campaigns")[0][0]
                       for path in (master, tmp_path / lang / "Anne.goldset")]
    assert names == {"en": ["3 assessors × 2"] * 2, "fr": ["3 annotateurs × 2"] * 2}
