"""TREC run and qrels: strict parsing, all-or-nothing import, exports other tools read."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_annotator.errors import Conflict
from rag_annotator.import_export import trec_files
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.storage.store import GoldSetStore

RUN = """\
q1 Q0 d3 1 0.5 sys
q1 Q0 d1 2 0.9 sys
q1 Q0 d2 3 0.5 sys
q2 Q0 d1 1 3 sys
"""
QRELS = """\
q1 0 d1 1
q1 0 d2 0
q1 0 d9 -1
q2 0 d1 2
"""


@pytest.fixture
def store(tmp_path: Path) -> GoldSetStore:
    with GoldSetStore.create(tmp_path / "g.goldset", assessor="ana") as created:
        yield created


def _write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _dump(store: GoldSetStore) -> str:
    """Every entity row, to prove a refused import changed nothing."""
    rows = []
    for table in ("cases", "documents", "runs", "retrieved", "judgments", "operations",
                  "history", "meta"):
        rows.append(repr(store.query(f"SELECT * FROM {table} ORDER BY 1")))
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def test_run_is_ordered_like_trec_eval(store: GoldSetStore, tmp_path: Path) -> None:
    report = trec_files.import_run(store, _write(tmp_path, "run.txt", RUN))
    assert report.name == "sys" and report.rows == 4 and report.cases == 2
    assert sorted(report.new_cases) == ["q1", "q2"]
    ranking = store.run_rankings(store.by_key("runs", "sys")["id"])
    # score descending, the 0.5 tie broken by docid descending (d3 before d2)
    assert [d for d, _s in ranking["q1"]] == ["d1", "d3", "d2"]
    assert store.by_key("documents", "d1")["origin"] == "placeholder"


def test_strict_import_refuses_unknown_ids(store: GoldSetStore, tmp_path: Path) -> None:
    before = _dump(store)
    with pytest.raises(ImportRejected, match=r"run\.txt:1: unknown case id 'q1'"):
        trec_files.import_run(store, _write(tmp_path, "run.txt", RUN), strict=True)
    assert _dump(store) == before


@pytest.mark.parametrize(("text", "line", "message"), [
    ("q1 Q0 d1 1 0.5\n", 1, "expected 6 fields"),
    ("q1 Q0 d1 1 0.5 s\nq1 Q0 d2 1 0.4\n", 2, "expected 6 fields"),
    ("q1 Q0 d1 1 0,5 s\n", 1, "not a number"),
    ("q1 Q0 d1 1 nan s\n", 1, "not finite"),
    ("q1 Q0 d1 x 0.5 s\n", 1, "not an integer"),
    ("q1 Q0 d1 1 0.5 s\n\nq1 Q0 d1 2 0.4 s\n", 3, "appears twice for query q1 (first at line 1)"),
])
def test_bad_run_lines_are_refused_with_their_line(store: GoldSetStore, tmp_path: Path,
                                                    text: str, line: int, message: str) -> None:
    before = _dump(store)
    path = _write(tmp_path, "bad.txt", text)
    with pytest.raises(ImportRejected, match=re.escape(message)) as info:
        trec_files.import_run(store, path)
    assert info.value.line == line
    assert f"bad.txt:{line}:" in str(info.value)
    assert _dump(store) == before


@pytest.mark.parametrize(("content", "message"), [
    (b"q1 Q0 d1 1 0.5 s\nq1 Q0 d\xe9 2 0.4 s\n", "bad.txt:2: not UTF-8"),
    (b"q1 Q0 d1 1 0.5 s\x00\n", "bad.txt:1: the line holds a NUL byte"),
    (b"", "holds no run lines"),
])
def test_non_text_runs_are_refused(store: GoldSetStore, tmp_path: Path, content: bytes,
                                   message: str) -> None:
    with pytest.raises(ImportRejected, match=re.escape(message)):
        trec_files.import_run(store, _write(tmp_path, "bad.txt", content))


def test_bom_and_comments_are_tolerated(store: GoldSetStore, tmp_path: Path) -> None:
    path = _write(tmp_path, "run.txt", "\ufeff# a comment\n" + RUN)
    trec_files.import_run(store, path, name="with-bom")
    assert "q1" in store.run_rankings(store.by_key("runs", "with-bom")["id"])


def test_same_run_name_twice_is_a_conflict(store: GoldSetStore, tmp_path: Path) -> None:
    path = _write(tmp_path, "run.txt", RUN)
    trec_files.import_run(store, path)
    before = _dump(store)
    with pytest.raises(Conflict, match="already exists"):
        trec_files.import_run(store, path)
    assert _dump(store) == before


def test_qrels_negative_label_is_unjudged_and_scale_rises(store: GoldSetStore,
                                                         tmp_path: Path) -> None:
    trec_files.import_qrels(store, _write(tmp_path, "q.txt", QRELS), assessor="nist")
    labels = store.universe_labels()
    assert labels["q1"] == {"d1": 1, "d2": 0, "d9": None}
    assert labels["q2"] == {"d1": 2}
    assert store.meta("max_grade") == "2"
    assert store.judgment_counts() == {"relevant": 2, "not_relevant": 1, "unjudged": 1,
                                       "disputed": 0}


def test_qrels_duplicates_and_out_of_scale_labels(store: GoldSetStore, tmp_path: Path) -> None:
    with pytest.raises(ImportRejected, match=r"q\.txt:3: query q1, document d1 is labelled "
                                             r"twice \(first at line 1\)"):
        trec_files.import_qrels(
            store, _write(tmp_path, "q.txt", "q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 0\n"), assessor="x")
    with pytest.raises(ImportRejected, match=r"q\.txt:1: the label 'x' is not an integer"):
        trec_files.import_qrels(store, _write(tmp_path, "q.txt", "q1 0 d1 x\n"), assessor="x")
    trec_files.import_qrels(store, _write(tmp_path, "q.txt", "q1 0 d1 1\n"), assessor="x")
    before = _dump(store)
    with pytest.raises(ImportRejected, match="locked because judgments exist"):
        trec_files.import_qrels(store, _write(tmp_path, "q2.txt", "q1 0 d2 3\n"), assessor="y")
    assert _dump(store) == before


def test_import_is_one_undoable_operation(store: GoldSetStore, tmp_path: Path) -> None:
    before = _dump(store)
    report = trec_files.import_run(store, _write(tmp_path, "run.txt", RUN))
    op_id = store.operation_ids()[0]
    store.revert(op_id)
    assert store.count("runs") == 0 and store.count("retrieved") == 0
    assert store.count("cases") == 0 and store.count("documents") == 0
    assert report.rows == 4 and before != _dump(store)  # history grew, content restored


def test_qrels_export_writes_judged_effective_labels_only(store: GoldSetStore,
                                                          tmp_path: Path) -> None:
    trec_files.import_qrels(store, _write(tmp_path, "q.txt", QRELS), assessor="nist")
    # a second assessor disagrees on q1/d2: a dispute, left out of the export
    trec_files.import_qrels(store, _write(tmp_path, "q2.txt", "q1 0 d2 1\n"), assessor="other")
    out = tmp_path / "out.qrels.txt"
    report = trec_files.export_qrels(store, out)
    data = out.read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf") and b"\r" not in data
    lines = data.decode().splitlines()
    assert lines == ["q1 0 d1 1", "q2 0 d1 2"]
    assert all(len(line.split()) == 4 for line in lines)
    assert any("1 disputed pairs left out" in w for w in report.warnings)


def test_run_export_keeps_tied_scores(store: GoldSetStore, tmp_path: Path) -> None:
    """Issue 18, point 7: a tie kept its place but every score of the case was rewritten."""
    trec_files.import_run(store, _write(tmp_path, "run.txt", RUN))
    out = tmp_path / "run.out.txt"
    report = trec_files.export_run(store, "sys", out)
    rows = [line.split() for line in out.read_text().splitlines()]
    assert all(len(r) == 6 for r in rows)
    q1 = [r for r in rows if r[0] == "q1"]
    assert [r[2] for r in q1] == ["d1", "d3", "d2"]
    assert [float(r[4]) for r in q1] == [0.9, 0.5, 0.5]
    assert [r[3] for r in q1] == ["1", "2", "3"]
    assert not any("rewritten" in w for w in report.warnings)
    # re-importing the export gives the same ranking
    trec_files.import_run(store, out, name="again")
    assert (store.run_rankings(store.by_key("runs", "again")["id"])["q1"][0][0] == "d1")


ids = st.text(alphabet="abcdefghij0123456789-_.", min_size=1, max_size=6)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(ids, st.lists(ids, min_size=1, max_size=8, unique=True),
                       min_size=1, max_size=4))
def test_run_round_trip(tmp_path: Path, rankings: dict[str, list[str]]) -> None:
    """Export → import gives back each case's ranking (hypothesis)."""
    folder = tmp_path / hashlib.sha1(repr(rankings).encode()).hexdigest()
    folder.mkdir()
    lines = [f"{q} Q0 d{d} {r} {100 - r} sys" for q, docs in rankings.items()
             for r, d in enumerate(docs, start=1)]
    source = _write(folder, "in.txt", "\n".join(lines) + "\n")
    with GoldSetStore.create(folder / "g.goldset") as store:
        trec_files.import_run(store, source)
        trec_files.export_run(store, "sys", folder / "out.txt")
        trec_files.import_run(store, folder / "out.txt", name="back")
        first = store.run_rankings(store.by_key("runs", "sys")["id"])
        back = store.run_rankings(store.by_key("runs", "back")["id"])
    assert {q: [d for d, _ in v] for q, v in back.items()} == {
        q: [f"d{d}" for d in docs] for q, docs in rankings.items()}
    assert {q: [d for d, _ in v] for q, v in first.items()} == {
        q: [d for d, _ in v] for q, v in back.items()}


def test_a_run_or_qrels_naming_an_agent_case_is_refused(store: GoldSetStore,
                                                        tmp_path: Path) -> None:
    """Retrieved lists and relevance labels belong to RAG cases: an agent case's key in a
    run or qrels file is refused with its line, nothing stored."""
    from rag_annotator.domain import operations as ops

    ops.create_case(store, key="q2", kind="agent", question="changer d'offre")
    before = _dump(store)
    with pytest.raises(ImportRejected, match=r"run\.txt:4: case 'q2' is an agent case"):
        trec_files.import_run(store, _write(tmp_path, "run.txt", RUN))
    with pytest.raises(ImportRejected, match=r"qrels\.txt:4: case 'q2' is an agent case"):
        trec_files.import_qrels(store, _write(tmp_path, "qrels.txt", QRELS), assessor="ana")
    assert _dump(store) == before


def test_exporting_an_agent_run_as_trec_says_why_nothing_is_written(
        store: GoldSetStore, tmp_path: Path) -> None:
    from rag_annotator.domain import agent_ops
    from rag_annotator.domain import operations as ops
    from rag_annotator.domain.agent_ops import TrajectoryInput
    from rag_annotator.errors import KnownError

    ops.create_case(store, key="A01", kind="agent", question="changer d'offre")
    agent_ops.import_trajectories(store, "agent-v1", [
        TrajectoryInput(case="A01", steps=[("verifier_identite", {}, "ok")])])
    dest = tmp_path / "agent.run"
    with pytest.raises(KnownError, match="holds agent trajectories and no retrieved lists"):
        trec_files.export_run(store, "agent-v1", dest)
    assert not dest.exists()
