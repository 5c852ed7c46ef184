"""One run's retrieval measures, whole CLI process, against ir_measures on the same files
(the issue's benchmark: want <= 1x).

Setup (not timed): a TREC run of 10,000 queries x 100 retrieved documents and qrels with
30 graded judgments per query (half from the run's top 40, half from outside it), written to a
temporary folder, then imported into a fresh ``.goldset`` through the CLI (``new``,
``import trec-run``, ``import qrels``).

Timed, alternated (one run of each per round) and best of ``--repeat`` rounds, each a whole
process started from the shell; the first run of ours is also printed: it runs the full
damage check, later ones skip it (the file is unchanged since that clean check, issue 19):

* ``ours``: ``rag-annotator metrics FILE --run sys --json`` (default measures ``P@5``,
  ``P@10``, ``R@10``, ``RR``, ``nDCG@10``, ``AP``, ``Judged@10``, per query and mean, under
  ``trec``; the JSON also holds the answer metrics, diagnosis and latency blocks);
* ``ir_measures``: ``python -c`` reading the same qrels and run with
  ``ir_measures.read_trec_qrels`` / ``read_trec_run`` and computing the same measures per
  query (``iter_calc``) and their means, printed as JSON.

Prints seconds and the ratio ours / ir_measures; asserts nothing (timings depend on the
machine).  Usage: ``python tests/bench/bench_metrics.py [--queries 10000] [--depth 100]
[--repeat 3] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MEASURES = ("P@5", "P@10", "R@10", "RR", "nDCG@10", "AP", "Judged@10")

IR_MEASURES_SCRIPT = """
import json, sys, ir_measures
from ir_measures import parse_measure
measures = [parse_measure(m) for m in sys.argv[3].split(',')]
qrels = list(ir_measures.read_trec_qrels(sys.argv[1]))
run = list(ir_measures.read_trec_run(sys.argv[2]))
per_query = {}
for m in ir_measures.iter_calc(measures, qrels, run):
    per_query.setdefault(m.query_id, {})[str(m.measure)] = m.value
names = [str(m) for m in measures]
mean = {n: sum(v.get(n, 0.0) for v in per_query.values()) / len(per_query) for n in names}
print(json.dumps({"per_query": per_query, "mean": mean}))
"""


def prepare(folder: Path, queries: int, depth: int, seed: int = 11) -> None:
    """Write ``run.txt`` and ``qrels.txt``."""
    rng = random.Random(seed)
    n_docs = max(100_000, depth * 10)
    run_lines: list[str] = []
    qrel_lines: list[str] = []
    for q in range(1, queries + 1):
        qid = f"q{q:05d}"
        docs = rng.sample(range(n_docs), depth + 15)
        ranked, others = docs[:depth], docs[depth:]
        run_lines += [f"{qid} Q0 d{d} {i} {1000 - i} sys" for i, d in enumerate(ranked, 1)]
        judged = rng.sample(ranked[:40], 15) + others
        qrel_lines += [f"{qid} 0 d{d} {rng.choice((0, 0, 0, 1, 2))}" for d in judged]
    (folder / "run.txt").write_text("\n".join(run_lines) + "\n", encoding="utf-8")
    (folder / "qrels.txt").write_text("\n".join(qrel_lines) + "\n", encoding="utf-8")


def _cli(*args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "rag_annotator", *args],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"rag-annotator {' '.join(args)} failed: {done.stderr}")


def _timed(command: list[str], repeat: int) -> tuple[float, str, float]:
    """Best of ``repeat`` runs, the output, and the first run's time (ours: the one that
    runs the full damage check; later runs skip it, the file being unchanged)."""
    best = float("inf")
    out = ""
    first = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode:
            raise SystemExit(f"{command[:3]} failed: {done.stderr[-2000:]}")
        best = min(best, elapsed)
        first = first or elapsed
        out = done.stdout
    return best, out, first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="reuse/keep the files in this folder")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench_metrics_"))
    folder.mkdir(parents=True, exist_ok=True)
    gold = folder / "bench.goldset"
    # The app's own folders (the record of clean damage checks) under the bench's folder,
    # emptied so the first timed run checks in full, as a first open does.
    os.environ["RAG_ANNOTATOR_HOME"] = str(folder / "home")
    shutil.rmtree(folder / "home", ignore_errors=True)
    try:
        if not gold.exists():
            start = time.perf_counter()
            prepare(folder, args.queries, args.depth)
            _cli("new", str(gold))
            _cli("import", str(gold), "trec-run", str(folder / "run.txt"), "--run", "sys")
            _cli("import", str(gold), "qrels", str(folder / "qrels.txt"), "--assessor", "nist")
            print(f"setup: {args.queries} queries x {args.depth} documents "
                  f"({time.perf_counter() - start:.1f} s, not timed)")
        ours_command = [sys.executable, "-m", "rag_annotator", "metrics", str(gold),
                        "--run", "sys", "--measures", ",".join(MEASURES), "--json"]
        their_command = [sys.executable, "-c", IR_MEASURES_SCRIPT, str(folder / "qrels.txt"),
                         str(folder / "run.txt"), ",".join(MEASURES)]
        # Alternated, one run of each per round: the machine is shared, and a load spike
        # must not land on one side only.
        ours = theirs = cold = float("inf")
        ours_out = their_out = ""
        for _ in range(args.repeat):
            seconds, ours_out, _first = _timed(ours_command, 1)
            cold = seconds if cold == float("inf") else cold
            ours = min(ours, seconds)
            seconds, their_out, _first = _timed(their_command, 1)
            theirs = min(theirs, seconds)
        ours_mean = json.loads(ours_out)["mean"]
        their_mean = json.loads(their_out)["mean"]
        print(f"ours (rag-annotator metrics --json, whole process): {ours:.2f} s best; first "
              f"run (full damage check) {cold:.2f} s = {cold / theirs:.2f}x")
        print(f"ir_measures (python -c, whole process):             {theirs:.2f} s")
        print(f"ratio ours / ir_measures: {ours / theirs:.2f}x (want <= 1x)")
        for name in MEASURES:
            a, b = ours_mean.get(name), their_mean.get(name)
            print(f"  mean {name:<10} ours {a if a is None else round(a, 4)!s:>8}  "
                  f"ir_measures {round(b, 4):>8}")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
