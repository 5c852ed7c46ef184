"""One run's retrieval measures, whole CLI process, against ir_measures on the same files
(the issue's benchmark: want <= 1x).

Setup (not timed): a TREC run of 10,000 queries x 100 retrieved documents and qrels with
30 graded judgments per query (half from the run's top 40, half from outside it), written to a
temporary folder, then imported into a fresh ``.goldset`` through the CLI (``new``,
``import trec-run``, ``import qrels``).

Timed, alternated (one run of each per round, ``--repeat`` rounds, medians), each a whole
process started from the shell, after one untimed run of each (ours: that first run runs the
full damage check and is printed; later ones skip it, the file being unchanged since that
clean check, issue 19).  The children cache their compiled modules under the bench's folder
(an installed package has them; ``--no-bytecode-cache`` keeps the shell's
PYTHONDONTWRITEBYTECODE):

* ``ours``: ``rag-annotator metrics FILE --run sys --json`` (default measures ``P@5``,
  ``P@10``, ``R@10``, ``RR``, ``nDCG@10``, ``AP``, ``Judged@10``, per query and mean, under
  ``trec``; the JSON also holds the answer metrics, diagnosis and latency blocks);
* ``before`` (with ``--before CHECKOUT``): the same command on that checkout's code
  (PYTHONPATH), its JSON checked byte-identical to ours;
* ``ir_measures``: ``python -c`` reading the same qrels and run with
  ``ir_measures.read_trec_qrels`` / ``read_trec_run`` and computing the same measures per
  query (``iter_calc``) and their means, printed as JSON.

Prints wall and CPU seconds (medians) and the ratios to ir_measures; asserts nothing
(timings depend on the machine).  Usage: ``python tests/bench/bench_metrics.py [--queries
10000] [--depth 100] [--repeat 3] [--keep DIR] [--before CHECKOUT] [--no-bytecode-cache]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The checkout holding this bench: its ``rag_annotator`` is "ours".
CHECKOUT = Path(__file__).resolve().parents[2]
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


def _run(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Run ``command`` once: wall seconds, CPU seconds of the child (user + system: on a
    shared machine the wall time carries other processes' load) and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # Run from the bench's folder: ``python -m`` puts the working directory first on the
    # path, which would import the checkout the bench was started from whatever PYTHONPATH
    # says.
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env,
                          cwd=env["BENCH_FOLDER"])
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{command[:3]} failed: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def _environment(folder: Path, bytecode: bool, code: str = str(CHECKOUT)) -> dict[str, str]:
    """The children's environment.  ``bytecode``: compiled modules cached (under the bench's
    folder), as an installed package has them, even when the shell sets
    PYTHONDONTWRITEBYTECODE (else ~100 modules of ours are compiled at every start while
    ir_measures' come compiled from site-packages).  ``code``: the checkout whose
    ``rag_annotator`` runs (PYTHONPATH; by default the one holding this bench)."""
    env = dict(os.environ, BENCH_FOLDER=str(folder))
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    env["PYTHONPATH"] = code
    return env


def _report(name: str, walls: list[float], cpus: list[float], theirs: tuple[float, float]
            ) -> None:
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"{name:<40} wall median {wall:6.2f} s (best {min(walls):.2f}), CPU median "
          f"{cpu:6.2f} s; / ir_measures: wall {wall / theirs[0]:.2f}x, CPU "
          f"{cpu / theirs[1]:.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="reuse/keep the files in this folder")
    parser.add_argument("--before", metavar="CHECKOUT",
                        help="also time this checkout's rag_annotator (e.g. main) in the same "
                             "rounds, and check that its JSON is byte-identical to ours")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="keep the shell's PYTHONDONTWRITEBYTECODE for the children")
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
        bytecode = not args.no_bytecode_cache
        ours_command = [sys.executable, "-m", "rag_annotator", "metrics", str(gold),
                        "--run", "sys", "--measures", ",".join(MEASURES), "--json"]
        their_command = [sys.executable, "-c", IR_MEASURES_SCRIPT, str(folder / "qrels.txt"),
                         str(folder / "run.txt"), ",".join(MEASURES)]
        sides = {"ours (rag-annotator metrics --json)": (ours_command,
                                                         _environment(folder, bytecode))}
        if args.before:
            sides[f"before ({args.before})"] = (
                ours_command, _environment(folder, bytecode, args.before))
        sides["ir_measures (python -c)"] = (their_command, _environment(folder, bytecode))
        # Each side once untimed (bytecode compiled); ours first: it runs the full damage
        # check (later runs skip it, the file being unchanged since that clean check).
        outputs = {}
        for name, (command, env) in sides.items():
            wall, cpu, outputs[name] = _run(command, env)
            if name.startswith("ours"):
                print(f"first run of ours (full damage check): {wall:.2f} s, CPU {cpu:.2f} s")
        # Alternated, one run of each per round: the machine is shared, and a load spike
        # must not land on one side only.
        walls: dict[str, list[float]] = {name: [] for name in sides}
        cpus: dict[str, list[float]] = {name: [] for name in sides}
        for round_ in range(1, args.repeat + 1):
            line = []
            for name, (command, env) in sides.items():
                wall, cpu, outputs[name] = _run(command, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
                line.append(f"{name.split()[0]} {wall:.2f} s (CPU {cpu:.2f})")
            print(f"round {round_}: " + ", ".join(line))
        names = list(sides)
        theirs = (statistics.median(walls[names[-1]]), statistics.median(cpus[names[-1]]))
        print(f"whole processes, {args.repeat} alternated rounds"
              f"{'' if bytecode else ', no bytecode cache'}:")
        for name in names:
            _report(name, walls[name], cpus[name], theirs)
        if args.before:
            same = outputs[names[0]] == outputs[names[1]]
            print(f"JSON of ours and before: {'byte-identical' if same else 'DIFFERENT'}")
        ours = statistics.median(walls[names[0]])
        print(f"ratio ours / ir_measures: {ours / theirs[0]:.2f}x wall (want <= 1x)")
        ours_mean = json.loads(outputs[names[0]])["mean"]
        their_mean = json.loads(outputs[names[-1]])["mean"]
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
