"""The team folder, read read-only: figures per assessor from real assignment files, every
file byte-identical afterwards, and files that cannot be read listed with their reason."""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import pytest
from sklearn.metrics import cohen_kappa_score

from rag_annotator.messages import render_any
from rag_annotator.reports.team import read_team_folder, store_team_figures
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import sha256
from tests.team_builders import judge_file, make_team


def _labels(names: dict[str, Path]) -> dict[str, dict[tuple[str, str], int]]:
    out: dict[str, dict[tuple[str, str], int]] = {}
    for name, path in names.items():
        with GoldSetStore.open(path, read_only=True) as store:
            out[name] = {(r["case"], r["document"]): int(r["grade"])
                         for r in store.assignment_queue()
                         if r["grade"] is not None and not r["is_control"]}
    return out


def test_figures_from_the_folder_match_independent_counts(tmp_path: Path) -> None:
    master, files = make_team(tmp_path, ("ana", "bruno"), per_pair=2, control=0.2)
    # ana: relevant on even positions, 10 s each; bruno: relevant on positions divisible
    # by 3, 2 s each, stops after 12 slots, one can't-judge.
    judge_file(files["ana"], lambda p, _r: int(p % 2 == 0), seconds=lambda p: 10.0 + p)
    judge_file(files["bruno"], lambda p, _r: int(p % 3 == 0), seconds=lambda _p: 2.0,
               limit=12, cant={2: "outside my expertise"})
    before = {p: sha256(p) for p in files.values()}
    stamps = {p: os.stat(p).st_mtime_ns for p in files.values()}

    status = read_team_folder(tmp_path / "team", skip=master)

    assert {p: sha256(p) for p in files.values()} == before
    assert {p: os.stat(p).st_mtime_ns for p in files.values()} == stamps
    assert sorted(f.name for f in status.files) == sorted(p.name for p in files.values())
    assert status.unread == ()
    by = status.figures.by_name()
    with GoldSetStore.open(files["bruno"], read_only=True) as store:
        queue = store.assignment_queue()
    assert by["bruno"].assigned == len(queue)
    assert by["bruno"].cant_judge == 1
    # can't judge marks the pair: its control repeat later in the queue is done with it
    marked = (queue[1]["case"], queue[1]["document"])
    repeats = sum(1 for r in queue[12:] if r["is_control"]
                  and (r["case"], r["document"]) == marked)
    assert by["bruno"].remaining == len(queue) - 12 - repeats
    assert by["bruno"].median_seconds == 2.0
    with GoldSetStore.open(files["ana"], read_only=True) as store:
        ana_queue = store.assignment_queue()
    assert by["ana"].median_seconds == statistics.median(10.0 + r["position"]
                                                         for r in ana_queue)
    assert by["ana"].remaining == 0
    # kappa on the pairs both judged equals scikit-learn's on the same labels
    labels = _labels(files)
    shared = sorted(set(labels["ana"]) & set(labels["bruno"]))
    assert shared
    expected = cohen_kappa_score([int(labels["ana"][k] >= 1) for k in shared],
                                 [int(labels["bruno"][k] >= 1) for k in shared])
    pair = status.figures.pairwise[0]
    assert pair.units == len(shared)
    assert pair.kappa == pytest.approx(expected)
    # control repeats: ana judged hers twice, labels by position parity
    controls = [r for r in ana_queue if r["is_control"]]
    assert controls and by["ana"].controls == len(controls)
    first = {(r["case"], r["document"]): r["grade"] for r in ana_queue if not r["is_control"]}
    same = sum(first[(r["case"], r["document"])] == r["grade"] for r in controls)
    assert by["ana"].consistent == same


def test_unreadable_files_are_listed_with_their_reason(tmp_path: Path) -> None:
    master, files = make_team(tmp_path, ("ana", "bruno"), control=0.0)
    judge_file(files["ana"], lambda _p, _r: 1, limit=5)
    folder = tmp_path / "team"
    (folder / "empty.goldset").write_bytes(b"")
    (folder / "notes.goldset").write_text("not a database at all\n" * 50, encoding="utf-8")
    damaged = folder / "damaged.goldset"
    data = bytearray(files["bruno"].read_bytes())
    data[4096:8192] = b"\xff" * 4096  # a page of garbage
    damaged.write_bytes(bytes(data))
    busy = folder / "busy.goldset"
    busy.write_bytes(files["ana"].read_bytes())
    (folder / "busy.goldset-journal").write_bytes(b"")
    os.symlink(master, folder / "link.goldset")
    master_copy = folder / "master-copy.goldset"
    master_copy.write_bytes(master.read_bytes())
    before = {p.name: sha256(p) for p in folder.iterdir() if p.is_file()
              and not p.is_symlink()}

    status = read_team_folder(folder, skip=master)

    after = {p.name: sha256(p) for p in folder.iterdir() if p.is_file()
             and not p.is_symlink()}
    assert after == before
    problems = {f.name: f.problem for f in status.unread}
    assert "empty" in problems["empty.goldset"]
    assert problems["notes.goldset"]
    assert problems["damaged.goldset"]
    assert "being written" in problems["busy.goldset"]
    assert "link" in problems["link.goldset"]
    assert "not an assignment file" in problems["master-copy.goldset"]
    for name, problem in problems.items():  # the panel shows them in the window's language
        french = render_any(problem, "fr")
        assert french and french != str(problem) and str(folder) not in french, name
    assert "en cours d'écriture" in render_any(problems["busy.goldset"], "fr")
    assert {f.assessor for f in status.read} == {"ana", "bruno"}
    assert status.figures.by_name()["ana"].judged == 5


def test_an_older_copy_of_one_assessors_file_is_left_out(tmp_path: Path) -> None:
    master, files = make_team(tmp_path, ("ana", "bruno"), control=0.0)
    folder = tmp_path / "team"
    conflicted = folder / "ana (conflicted copy).goldset"
    conflicted.write_bytes(files["ana"].read_bytes())
    old = time.time() - 3600
    os.utime(conflicted, (old, old))
    judge_file(files["ana"], lambda _p, _r: 0, limit=3)
    status = read_team_folder(folder, skip=master)
    problems = {f.name: f.problem for f in status.unread}
    assert "newer" in problems[conflicted.name]
    # the name leads, so French never reads « de ana » where it elides (« d'Anne »)
    assert render_any(problems[conflicted.name], "fr").startswith(
        "ana a un autre fichier, plus récent (ana.goldset)")
    assert status.figures.by_name()["ana"].judged == 3


def test_another_campaign_and_a_missing_folder(tmp_path: Path) -> None:
    master, _files = make_team(tmp_path, ("ana", "bruno"), control=0.0)
    status = read_team_folder(tmp_path / "team", skip=master, campaigns={"0" * 32})
    assert all("another campaign" in f.problem for f in status.files)
    gone = read_team_folder(tmp_path / "nowhere")
    assert gone.files == () and "cannot be read" in gone.notes[0]
    assert "le dossier est illisible" in render_any(gone.notes[0], "fr")


def test_store_figures_after_collect_match_the_folder(tmp_path: Path) -> None:
    from rag_annotator.import_export.team_files import collect

    master, files = make_team(tmp_path, ("ana", "bruno", "chloe"), control=0.1)
    for i, path in enumerate(files.values()):
        judge_file(path, lambda p, _r, i=i: int((p + i) % 2 == 0), seconds=lambda p: 3.0 + p)
    folder = read_team_folder(tmp_path / "team", skip=master).figures
    with GoldSetStore.open(master, assessor="lead") as store:
        collect(store, [tmp_path / "team"])
        stored = store_team_figures(store)
    for name in files:
        a, b = folder.by_name()[name], stored.by_name()[name]
        assert (a.judged, a.median_seconds, a.controls, a.consistent) == (
            b.judged, b.median_seconds, b.controls, b.consistent)
        assert b.remaining == 0
    # the sample's own assessors judged some pairs too: compare the team's pairs only
    team = set(files)
    mine = {(p.first, p.second): p for p in folder.pairwise}
    theirs = {(p.first, p.second): p for p in stored.pairwise
              if {p.first, p.second} <= team}
    assert mine.keys() == theirs.keys() and mine
    for key, pair in mine.items():
        assert (pair.units, pair.kappa) == (theirs[key].units, theirs[key].kappa)


def test_a_cached_read_reopens_only_changed_files(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from rag_annotator.reports import team

    master, files = make_team(tmp_path, ("ana", "bruno"), control=0.0)
    opened: list[str] = []
    real = team._read_one

    def counting(path: Path, campaigns: object) -> object:
        opened.append(path.name)
        return real(path, campaigns)  # type: ignore[arg-type]

    monkeypatch.setattr(team, "_read_one", counting)
    cache: team.FolderCache = {}
    first = read_team_folder(tmp_path / "team", skip=master, cache=cache)
    assert sorted(opened) == ["ana.goldset", "bruno.goldset"]
    opened.clear()
    again = read_team_folder(tmp_path / "team", skip=master, cache=cache)
    assert opened == [] and again.figures == first.figures
    judge_file(files["bruno"], lambda _p, _r: 1, limit=2)
    third = read_team_folder(tmp_path / "team", skip=master, cache=cache)
    assert opened == ["bruno.goldset"]
    assert third.figures.by_name()["bruno"].judged == 2
