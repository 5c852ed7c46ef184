"""The app's TREC means equal trec_eval's own outputs (issue 18, point 2).

Files from usnistgov/trec_eval's ``test/`` folder (tests/data/trec_eval/README.md): the
reference outputs were written by trec_eval itself (its Makefile's ``make test`` targets):

* ``out.test.aqc`` = ``trec_eval -m all_trec -q -c qrels.test results.trunc``: the run
  covers topics 301 and 303 only, ``-c`` averages over all three judged topics;
* ``out.test.aql`` = ``trec_eval -m all_trec -q -l2 qrels.rel_level results.test``: graded
  labels (and -1, unjudged), relevant means grade >= 2 for the binary measures.

Each file goes through the real import (qrels, run) and ``metrics``' one assembly
(``reports.run_figures.build``), to 4 decimals as trec_eval prints them.  pytrec_eval
(trec_eval's C code) checks the same numbers per topic.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytrec_eval

from rag_annotator.import_export import trec_files
from rag_annotator.metrics.values import Policy
from rag_annotator.reports.run_figures import RETRIEVAL, FigureOptions, build
from rag_annotator.storage.store import GoldSetStore

DATA = Path(__file__).parent.parent / "data" / "trec_eval"
#: Ours → trec_eval's name.
MEASURES = {"P@5": "P_5", "P@10": "P_10", "R@10": "recall_10", "RR": "recip_rank",
            "nDCG@10": "ndcg_cut_10", "nDCG": "ndcg", "AP": "map", "Success@10": "success_10"}


def trec_eval_all(name: str) -> dict[str, float]:
    """The ``all`` lines of a trec_eval output file."""
    out = {}
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        measure, topic, value = line.split()
        if topic == "all" and measure not in ("runid", "relstring"):
            out[measure] = float(value)
    return out


def _figures(tmp_path: Path, qrels: str, run: str, **options: object) -> dict[str, float | None]:
    with GoldSetStore.create(tmp_path / "g.goldset", assessor="nist") as store:
        trec_files.import_qrels(store, DATA / qrels, assessor="nist")
        trec_files.import_run(store, DATA / run, name="run")
        figures = build(store, "run", FigureOptions(
            policy=Policy.TREC, measures=tuple(MEASURES), parts=frozenset({RETRIEVAL}),
            **options))  # type: ignore[arg-type]
    return dict(figures.report.mean)


def test_all_judged_equals_trec_eval_dash_c(tmp_path: Path) -> None:
    reference = trec_eval_all("out.test.aqc")
    assert reference["num_q"] == 3  # the run covers 2 of the 3 judged topics
    means = _figures(tmp_path, "qrels.test", "results.trunc", all_judged=True)
    for ours, theirs in MEASURES.items():
        assert means[ours] == pytest.approx(reference[theirs], abs=5e-5), ours


def test_default_topics_equal_trec_eval_without_dash_c(tmp_path: Path) -> None:
    """Without -c trec_eval averages over the judged topics the run covers (2 here)."""
    qrels: dict[str, dict[str, int]] = {}
    for line in (DATA / "qrels.test").read_text(encoding="utf-8").splitlines():
        qid, _it, doc, rel = line.split()
        qrels.setdefault(qid, {})[doc] = int(rel)
    run: dict[str, dict[str, float]] = {}
    for line in (DATA / "results.trunc").read_text(encoding="utf-8").splitlines():
        qid, _q0, doc, _rank, score = line.split()[:5]
        run.setdefault(qid, {})[doc] = float(score)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES.values()))
    per_topic = evaluator.evaluate(run)
    means = _figures(tmp_path, "qrels.test", "results.trunc")
    for ours, theirs in MEASURES.items():
        expected = sum(v[theirs] for v in per_topic.values()) / len(per_topic)
        assert means[ours] == pytest.approx(expected, abs=5e-5), ours


def test_relevance_level_equals_trec_eval_dash_l(tmp_path: Path) -> None:
    reference = trec_eval_all("out.test.aql")
    means = _figures(tmp_path, "qrels.rel_level", "results.test", relevance_level=2)
    for ours, theirs in MEASURES.items():
        assert means[ours] == pytest.approx(reference[theirs], abs=5e-5), ours


def test_a_run_covering_more_topics_than_the_qrels(tmp_path: Path) -> None:
    """TREC RAG 2024's shape (301 topics run, 89 judged), on trec_eval's files: qrels cut
    to topics 301 and 302, the run covers 301-303.  Every measure averages over the two
    judged topics, as trec_eval does; before, topic 303 counted 0 in P@k and RR only."""
    cut = tmp_path / "qrels.cut"
    cut.write_text("".join(line for line in (DATA / "qrels.test").read_text(
        encoding="utf-8").splitlines(keepends=True) if line.split()[0] != "303"),
        encoding="utf-8")
    qrels: dict[str, dict[str, int]] = {}
    for line in cut.read_text(encoding="utf-8").splitlines():
        qid, _it, doc, rel = line.split()
        qrels.setdefault(qid, {})[doc] = int(rel)
    run: dict[str, dict[str, float]] = {}
    for line in (DATA / "results.test").read_text(encoding="utf-8").splitlines():
        qid, _q0, doc, _rank, score = line.split()[:5]
        run.setdefault(qid, {})[doc] = float(score)
    per_topic = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES.values())).evaluate(run)
    assert sorted(per_topic) == ["301", "302"]
    with GoldSetStore.create(tmp_path / "g.goldset", assessor="nist") as store:
        trec_files.import_qrels(store, cut, assessor="nist")
        trec_files.import_run(store, DATA / "results.test", name="run")
        report = build(store, "run", FigureOptions(measures=tuple(MEASURES),
                                                   parts=frozenset({RETRIEVAL}))).report
    assert report.unjudged_topics == ("303",) and len(report.topics) == 2
    for ours, theirs in MEASURES.items():
        expected = sum(v[theirs] for v in per_topic.values()) / 2
        assert report.mean[ours] == pytest.approx(expected, abs=5e-5), ours
        assert report.mean_count[ours] == 2


def test_the_cli_takes_both_options_and_says_over_which_topics(tmp_path: Path) -> None:
    """``metrics --all-judged --relevance-level 2 --json`` on trec_eval's files: the means
    are trec_eval's and the ``topics`` object says which topics they run over."""
    import json
    import subprocess
    import sys

    goldset = tmp_path / "g.goldset"

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "rag_annotator", *args],
                              capture_output=True, text=True, check=False)

    assert cli("new", str(goldset)).returncode == 0
    assert cli("import", str(goldset), "qrels", str(DATA / "qrels.rel_level")).returncode == 0
    done = cli("import", str(goldset), "trec-run", str(DATA / "results.trunc"), "--run", "r")
    assert done.returncode == 0 and "fields after the sixth" in done.stderr
    out = cli("metrics", str(goldset), "--run", "r", "--all-judged", "--relevance-level", "2",
              "--measures", "P@10,AP,nDCG@10", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    topics = data["topics"]
    assert topics["rule"] == "all judged topics" and topics["count"] == 3
    assert topics["missing"] == ["302"] and topics["relevance_level"] == 2
    assert "grade >= 2" in topics["note"]
    assert data["mean_count"] == {"P@10": 3, "AP": 3, "nDCG@10": 3}
    bad = cli("metrics", str(goldset), "--run", "r", "--relevance-level", "0")
    assert bad.returncode != 0 and "--relevance-level" in bad.stderr


CAST = Path(__file__).parent.parent / "data" / "trec_cast"
#: Every measure both compute (trec_eval's all_trec depths).
SHARED = {"RR": "recip_rank", "nDCG": "ndcg", "AP": "map",
          **{f"P@{k}": f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)},
          **{f"R@{k}": f"recall_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)},
          **{f"nDCG@{k}": f"ndcg_cut_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)},
          **{f"Success@{k}": f"success_{k}" for k in (1, 5, 10)}}


DL = Path(__file__).parent.parent / "data" / "trec_dl"


@pytest.mark.parametrize(("qrels", "run", "out", "topics"), [
    (DL / "qrels.dl19-passage.cut-for-run.txt", DL / "run.dl19-passage.bm25.rank_llm.cut.txt",
     DL / "out.dl19.c_l2", 10),
    (CAST / "cast2021.qrels-docs.cut.qrel", CAST / "cast2021.org_manual_bm25.cut.run",
     CAST / "out.cast2021.c_l2", 12)], ids=["trec-dl-2019", "trec-cast-2021"])
def test_a_real_graded_run_equals_trec_eval_dash_c_dash_l2(
        tmp_path: Path, qrels: Path, run: Path, out: Path, topics: int) -> None:
    """A published TREC Deep Learning 2019 passage run (Pyserini BM25, from rank_llm) with
    NIST's qrels (0-3), and TREC CAsT 2021's organisers' run with its qrels (0-4), both cut
    (tests/data/trec_dl, trec_cast READMEs): ``--all-judged --relevance-level 2`` gives
    trec_eval's ``-c -l 2`` means to 4 decimals for every measure both compute.  In each
    cut two judged topics are missing from the run and one run topic is unjudged, so both
    options matter."""
    reference: dict[str, float] = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        measure, topic, value = line.split()
        if topic == "all" and measure not in ("runid", "relstring"):
            reference[measure] = float(value)
    assert reference["num_q"] == topics
    with GoldSetStore.create(tmp_path / "g.goldset", assessor="nist") as store:
        trec_files.import_qrels(store, qrels, assessor="nist")
        trec_files.import_run(store, run, name="run")
        report = build(store, "run", FigureOptions(
            policy=Policy.TREC, measures=tuple(SHARED), parts=frozenset({RETRIEVAL}),
            all_judged=True, relevance_level=2)).report
    assert len(report.topics) == topics
    assert len(SHARED) == 33
    for ours, theirs in SHARED.items():
        assert report.mean[ours] == pytest.approx(reference[theirs], abs=5e-5), ours
        assert round(report.mean[ours] or 0.0, 4) == reference[theirs], ours
