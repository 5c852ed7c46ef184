"""End to end: TREC files in through the CLI, ``metrics --json`` out, checked against
pytrec_eval (trec_eval's own code) on the very same files."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytrec_eval = pytest.importorskip("pytrec_eval")

MEASURES = {"P@5": "P_5", "P@10": "P_10", "R@10": "recall_10", "RR": "recip_rank",
            "nDCG@10": "ndcg_cut_10", "AP": "map", "Success@5": "success_5"}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rag_annotator", *args], capture_output=True,
                          text=True, check=False)


def _files(tmp_path: Path, seed: int) -> tuple[Path, Path, dict, dict]:
    rng = random.Random(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    q_lines, r_lines = [], []
    for q in range(1, 9):
        qid = f"Q{q}"
        docs = [f"D{d}" for d in rng.sample(range(1, 60), 25)]
        judged = docs[:18]
        qrels[qid] = {d: rng.choice((0, 0, 1, 2)) for d in judged}
        if not any(qrels[qid].values()):
            qrels[qid][judged[0]] = 1
        q_lines += [f"{qid} 0 {d} {g}" for d, g in qrels[qid].items()]
        ranked = rng.sample(docs, 15)
        run[qid] = {d: float(100 - i) for i, d in enumerate(ranked)}
        r_lines += [f"{qid} Q0 {d} {i + 1} {100 - i} sys" for i, d in enumerate(ranked)]
    qrels_file, run_file = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_file.write_text("\n".join(q_lines) + "\n")
    run_file.write_text("\n".join(r_lines) + "\n")
    return qrels_file, run_file, qrels, run


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_metrics_json_equals_pytrec_eval(tmp_path: Path, seed: int) -> None:
    qrels_file, run_file, qrels, run = _files(tmp_path, seed)
    gold = tmp_path / "g.goldset"
    assert _cli("new", str(gold)).returncode == 0
    assert _cli("import", str(gold), "trec-run", str(run_file), "--run", "sys").returncode == 0
    out = _cli("import", str(gold), "qrels", str(qrels_file), "--assessor", "nist")
    assert out.returncode == 0, out.stderr
    out = _cli("metrics", str(gold), "--run", "sys", "--measures", ",".join(MEASURES),
               "--unjudged", "trec", "--json")
    assert out.returncode == 0, out.stderr
    ours = json.loads(out.stdout)
    assert ours["run"] == "sys" and ours["unjudged"] == "trec"
    assert set(ours) >= {"run", "unjudged", "measures", "per_query", "mean"}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES.values())).evaluate(run)
    assert set(ours["per_query"]) == set(theirs)
    for qid, values in theirs.items():
        for name, te in MEASURES.items():
            assert ours["per_query"][qid][name] == pytest.approx(values[te], abs=1e-9), (qid, name)


def test_strict_marks_what_depends_on_unjudged_documents(tmp_path: Path) -> None:
    """Seed 003's K07 through the CLI: C is unjudged and ranked after the window."""
    gold = tmp_path / "g.goldset"
    (tmp_path / "run.txt").write_text("".join(
        f"Q4 Q0 {d} {i} {10 - i} sys\n" for i, d in enumerate("ABDEFC", start=1)))
    (tmp_path / "qrels.txt").write_text(
        "Q4 0 A 1\nQ4 0 B 1\nQ4 0 C -1\nQ4 0 D 0\nQ4 0 E 0\nQ4 0 F 0\n")
    _cli("new", str(gold))
    _cli("import", str(gold), "trec-run", str(tmp_path / "run.txt"))
    _cli("import", str(gold), "qrels", str(tmp_path / "qrels.txt"))
    out = _cli("metrics", str(gold), "--run", "sys", "--measures", "P@3,RR@3,R@3,nDCG@3",
               "--unjudged", "strict", "--json")
    data = json.loads(out.stdout)
    q4 = data["per_query"]["Q4"]
    assert q4["P@3"] == pytest.approx(2 / 3) and q4["RR@3"] == 1.0
    assert q4["R@3"] is None and q4["nDCG@3"] is None
    assert data["bounds"]["Q4"]["R@3"]["low"] == pytest.approx(2 / 3)
    assert data["bounds"]["Q4"]["R@3"]["high"] == 1.0


def test_metrics_errors_are_one_line(tmp_path: Path) -> None:
    gold = tmp_path / "g.goldset"
    _cli("new", str(gold))
    out = _cli("metrics", str(gold), "--run", "nope")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "no run named 'nope'" in out.stderr
    out = _cli("metrics", str(gold), "--run", "x", "--measures", "P@0")
    assert out.returncode == 2 and out.stderr.startswith("error: --measures:")


def _sample(tmp_path: Path) -> Path:
    gold = tmp_path / "s.goldset"
    out = _cli("new", str(gold), "--sample")
    assert out.returncode == 0, out.stderr
    return gold


def test_json_keeps_its_keys_and_adds_answers_diagnosis_latency(tmp_path: Path) -> None:
    gold = _sample(tmp_path)
    out = _cli("metrics", str(gold), "--run", "bm25-gpt4o-v1", "--json", "--target-ms", "1500")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= {"run", "unjudged", "measures", "per_query", "mean", "answers",
                         "diagnosis", "latency"}
    answers = data["answers"]
    assert set(answers) >= {"per_family", "overall", "faithfulness_mean", "per_answer"}
    assert set(answers["overall"]) >= {"tested", "produced", "validated", "quality",
                                       "coverage", "success"}
    assert {a["case"] for a in answers["per_answer"]} == set(data["per_query"])
    latency = data["latency"]
    assert latency["target_ms"] == 1500 and latency["timed"] > 0
    assert 0.0 <= latency["share_under_target"] <= 1.0
    assert latency["median_ms"] <= latency["p90_ms"]
    assert set(data["diagnosis"]["overall"]) == {"access", "retrieval", "abstention",
                                                 "generation"}


def test_json_without_latencies_has_no_latency_key(tmp_path: Path) -> None:
    qrels_file, run_file, _q, _r = _files(tmp_path, 5)
    gold = tmp_path / "g.goldset"
    _cli("new", str(gold))
    _cli("import", str(gold), "trec-run", str(run_file), "--run", "sys")
    _cli("import", str(gold), "qrels", str(qrels_file))
    data = json.loads(_cli("metrics", str(gold), "--run", "sys", "--json").stdout)
    assert "latency" not in data and "compare" not in data and "next" not in data
    assert data["answers"]["overall"]["quality"] is None  # no answer: not computable


def test_compare_and_next(tmp_path: Path) -> None:
    gold = _sample(tmp_path)
    out = _cli("metrics", str(gold), "--run", "bm25-gpt4o-v1", "--compare",
               "hybride-mistral-v2", "--measures", "P@5,RR", "--next", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    compared = data["compare"]
    assert compared["run"] == "bm25-gpt4o-v1" and compared["other"] == "hybride-mistral-v2"
    rr = compared["by_measure"]["RR"]
    assert rr["wins"] + rr["losses"] + rr["ties"] + rr["not_comparable"] == len(
        compared["per_query"])
    assert len(data["next"]) <= 3
    assert all(set(s) >= {"case", "document", "settles"} for s in data["next"])
    settles = [s["settles"] for s in data["next"]]
    assert settles == sorted(settles, reverse=True)
    family = _cli("metrics", str(gold), "--run", "bm25-gpt4o-v1", "--compare",
                  "hybride-mistral-v2", "--family", "ordinary", "--json")
    kept = set(json.loads(family.stdout)["compare"]["per_query"])
    assert kept and kept < set(compared["per_query"])
    text = _cli("metrics", str(gold), "--run", "bm25-gpt4o-v1", "--compare",
                "hybride-mistral-v2", "--next", "2", "--unjudged", "strict")
    assert text.returncode == 0, text.stderr
    assert "against hybride-mistral-v2" in text.stdout and "judge next" in text.stdout
    assert "answers (cases expecting an answer" in text.stdout
    assert "diagnosis (top 10)" in text.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("--compare", "nope"), "no run named 'nope'"),
    (("--target-ms", "-5"), "--target-ms"),
    (("--next", "-1"), "--next"),
    (("--depth", "0"), "--depth"),
    (("--family", "ordinary"), "--family: only used with --compare"),
    (("--compare", "hybride-mistral-v2", "--family", "martian"), "no case of family"),
])
def test_bad_options_are_one_line_errors(tmp_path: Path, args: tuple[str, ...],
                                         message: str) -> None:
    gold = _sample(tmp_path)
    out = _cli("metrics", str(gold), "--run", "bm25-gpt4o-v1", *args)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert message in out.stderr


# -- agent runs (issue 9) ----------------------------------------------------------------------
def _agents_file(tmp_path: Path, run: str = "agent-v1") -> Path:
    from rag_annotator.storage.store import GoldSetStore
    from tests.builders import build_agents, build_rich

    path = tmp_path / "agents.goldset"
    with GoldSetStore.create(path, assessor="alice") as store:
        rich = build_rich(store)
        build_agents(store, run=run)
        if run == "bm25":  # an agent case a TREC run once named: it must not count
            with store.operation("test_load", "leak") as op:
                op.insert("retrieved", {"run_id": rich.runs["bm25"],
                                        "case_id": store.case_id_of("A01"),
                                        "document_id": rich.docs["D1"], "rank": 1,
                                        "score": 1.0})
    return path


def test_a_run_of_trajectories_only_says_so_and_gives_agent_figures(tmp_path: Path) -> None:
    path = _agents_file(tmp_path)
    out = _cli("metrics", str(path), "--run", "agent-v1")
    assert out.returncode == 0, out.stderr
    assert "agent trajectories only" in out.stdout and "P@5" not in out.stdout
    assert "task success 75.0% (3/4, 1 undecided)" in out.stdout
    assert "order:verifier_identite<modifier_offre" in out.stdout
    assert "cost per successful task 0.0217" in out.stdout
    out = _cli("metrics", str(path), "--run", "agent-v1", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["per_query"] == {} and data["answers"]["overall"]["tested"] == 0
    agents = data["agents"]
    assert agents["run"] == "agent-v1" and agents["trajectories"] == 5
    overall = agents["overall"]
    assert overall["task_success"] == {"rate": 0.75, "successes": 3, "failures": 1,
                                       "undecided": 1}
    assert overall["violations"]["forbidden:supprimer_compte"]["rate"] == 0.2
    assert overall["mean_steps"] == 2.8 and overall["tokens_trajectories"] == 4
    assert set(agents["per_family"]) == {"ordinary", "sensitive"}
    assert agents["per_family"]["sensitive"]["cost_per_success"] is None


def test_agent_cases_never_enter_the_rag_metrics(tmp_path: Path) -> None:
    path = _agents_file(tmp_path, run="bm25")
    out = _cli("metrics", str(path), "--run", "bm25", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data["per_query"]) == {"Q1", "Q2"}  # not A01, which has a retrieved row
    assert {a["case"] for a in data["answers"]["per_answer"]} <= {"Q1", "Q2", "Q3"}
    assert data["diagnosis"]["cases"] == 2
    assert data["agents"]["trajectories"] == 5  # the same run's trajectories, apart
    out = _cli("metrics", str(path), "--run", "bm25")
    assert "agents (5 trajectories" in out.stdout and "Q1" in out.stdout
    from rag_annotator.storage.store import GoldSetStore

    with GoldSetStore.open(path, read_only=True) as store:
        assert "A01" not in store.metric_inputs("bm25")
        assert "A01" not in {r["case_key"] for r in store.answer_inputs("bm25")}
        assert not set(store.case_families()) & {"A01", "A02", "S05"}
