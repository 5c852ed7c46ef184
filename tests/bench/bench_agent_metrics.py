"""Agent metrics of one run of 50,000 trajectories x 8 steps, against a baseline measured in
the same process: the raw SQL read of the same rows (issue 9, item 5).

Setup (not timed): a fresh ``.goldset`` with 50,000 agent cases (seed 000's expectations:
a forbidden tool, an ordering pair, a step budget, an expected final state, a token budget
on every tenth case) in four families, one trajectory each in run ``agent`` with 8 steps
drawn from five tools, a final state, tokens, seconds and cost, and a review on every
twentieth trajectory; written in one operation with the bulk inserts.

Timed, best of ``--repeat``, each on a freshly opened store:

* ``baseline``: the SQL alone — every trajectory with its case's columns and review, and
  every step's tool, read into Python lists (what any computation must at least read);
* ``read``: ``store.agent_inputs(run)`` (the same rows, grouped and decoded);
* ``metrics``: ``reports.inputs.summarize_agents(store, run)`` then ``.to_json()`` (read, checks of
  every trajectory, figures per family and overall);
* ``cli``: ``rag-annotator metrics FILE --run agent --json`` as a whole process.

Prints seconds and the ratios to the baseline; asserts nothing.  Usage:
``python tests/bench/bench_agent_metrics.py [--trajectories 50000] [--steps 8] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rag_annotator.reports.inputs import summarize_agents as summarize
from rag_annotator.storage.store import GoldSetStore

TOOLS = ("verifier_identite", "modifier_offre", "creer_ticket", "chercher",
         "supprimer_compte")
FAMILIES = ("ordinary", "sensitive", "ambiguous", "out_of_scope")
RUN = "agent"


def build(path: Path, n: int, steps: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    stamp = "2026-01-01T00:00:00Z"
    with GoldSetStore.create(path, assessor="bench") as store, \
            store.operation("bench_load", "agents") as op:
        op.insert_rows("cases", (
            "key", "kind", "question", "family", "expected_state", "forbidden_tools",
            "tool_order", "max_steps", "max_tokens", "created_at", "updated_at"), (
            (f"A{i:06d}", "agent", f"tâche {i}", FAMILIES[i % 4],
             '{"ticket.category": "changement_offre"}', '["supprimer_compte"]',
             '[["verifier_identite", "modifier_offre"]]', 8,
             2000 if i % 10 == 0 else None, stamp, stamp) for i in range(n)))
        run_id = op.insert("runs", {"name": RUN, "created_at": stamp})["id"]
        case_ids = op.ids_by_key("cases")
        op.insert_rows("trajectories", (
            "run_id", "case_id", "final_state", "tokens", "seconds", "cost"), (
            (run_id, case_ids[f"A{i:06d}"],
             json.dumps({"ticket": {"category": rng.choice(
                 ("changement_offre", "changement_offre", "resiliation"))}}),
             rng.randint(500, 3000) if i % 7 else None, rng.uniform(1, 20),
             rng.uniform(0.001, 0.05)) for i in range(n)))
        trajectory_ids = [r["id"] for r in op.select("trajectories", order_by="id")]
        op.insert_rows("trajectory_steps", (
            "trajectory_id", "position", "tool", "arguments", "result"), (
            (tid, p, rng.choice(TOOLS[:4]) if rng.random() > 0.02 else TOOLS[4],
             '{"client": "C-42"}', "ok")
            for tid in trajectory_ids for p in range(1, steps + 1)))
        assessor = op.insert("assessors", {"name": "bench", "created_at": stamp})["id"]
        op.insert_rows("trajectory_reviews", (
            "trajectory_id", "assessor_id", "task_success", "success_reason",
            "updated_at"), (
            (tid, assessor, 1, "vu", stamp) for tid in trajectory_ids[::20]))


def baseline(store: GoldSetStore) -> int:
    conn = store._conn
    rows = conn.execute(
        "SELECT t.id, c.key, c.family, c.status, t.final_state, t.tokens, t.seconds, t.cost, "
        "v.task_success, v.path_acceptable, c.expected_state, c.forbidden_tools, "
        "c.required_tools, c.tool_order, c.max_steps, c.max_tokens, c.max_seconds, "
        "c.max_cost FROM trajectories t JOIN runs r ON r.id = t.run_id "
        "JOIN cases c ON c.id = t.case_id "
        "LEFT JOIN trajectory_reviews v ON v.trajectory_id = t.id WHERE r.name = ?",
        (RUN,)).fetchall()
    steps = conn.execute(
        "SELECT s.trajectory_id, s.tool FROM trajectory_steps s "
        "JOIN trajectories t ON t.id = s.trajectory_id JOIN runs r ON r.id = t.run_id "
        "WHERE r.name = ? ORDER BY s.trajectory_id, s.position", (RUN,)).fetchall()
    return len(rows) + len(steps)


def best(repeat: int, path: Path, task: Callable[[GoldSetStore], object]) -> float:
    times = []
    for _ in range(repeat):
        with GoldSetStore.open(path, read_only=True) as store:
            start = time.perf_counter()
            task(store)
            times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trajectories", type=int, default=50_000)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "agents.goldset"
        start = time.perf_counter()
        build(path, args.trajectories, args.steps)
        print(f"setup: {args.trajectories:,} trajectories x {args.steps} steps in "
              f"{time.perf_counter() - start:.1f} s")
        base = best(args.repeat, path, baseline)
        read = best(args.repeat, path, lambda s: s.agent_inputs(RUN))
        full = best(args.repeat, path, lambda s: summarize(s, RUN).to_json())
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "rag_annotator", "metrics", str(path),
                                  "--run", RUN, "--json"], capture_output=True, text=True,
                                 check=True)
            times.append(time.perf_counter() - start)
        overall = json.loads(out.stdout)["agents"]["overall"]
        print(f"baseline (raw SQL read of the same rows): {base:.3f} s")
        print(f"store.agent_inputs:                       {read:.3f} s  ({read / base:.1f}x)")
        print(f"agent metrics (read + checks + figures):  {full:.3f} s  ({full / base:.1f}x)")
        print(f"CLI metrics --json, whole process:        {min(times):.3f} s")
        print(f"task success {overall['task_success']['rate']:.3f}, path acceptable "
              f"{overall['path_acceptable']['rate']:.3f}, mean steps "
              f"{overall['mean_steps']:.1f}, cost per success "
              f"{overall['cost_per_success']:.4f}")


if __name__ == "__main__":
    main()
