"""Import of 20,000 agent trajectories x 8 steps (JSON Lines, ``trajectories`` shape) against
raw ``sqlite3`` ``executemany`` of the same rows (issue 9's target: within 3x of raw).

Setup (not timed): a gold set holding 20,000 agent cases (seed 000's invariants), and a
``trajectories`` file with one line per case: 8 steps with small argument objects and
results, a nested final state, tokens, seconds and cost.
Timed, alternated and repeated (best of ``--repeat``), in one process:

* ``import``: ``trajectories.import_trajectories_file`` (what the CLI and the app call)
  into a fresh copy of the gold set — reading
  (size limit, UTF-8 and NUL checks), JSON with duplicate-key and NaN refusal, every field
  checked, case lookups, the logged operation (undoable: a few history rows per batch) and
  the durable commit;
* ``parse``: ``trajectories.parse_native`` alone (part of ``import``; the cyclic collector
  paused, as the import pauses it);
* ``raw``: ``sqlite3`` ``executemany`` of the same rows (prepared before timing: the JSON
  texts already serialised, ids already known) into ``trajectories`` and
  ``trajectory_steps`` of a fresh copy of the same gold set (same schema and indexes), one
  transaction, default pragmas;
* ``raw + json``: the same, timing also what any JSON Lines importer pays before its first
  insert: ``json.loads`` of every line and ``json.dumps`` of each state and arguments
  (no checks at all);
* ``undo``: ``store.revert`` of the import.

Prints seconds, rows per second and the ratios import / raw (issue 19: <= 2.5x) and
import / (raw + json) (<= 1.42x); asserts nothing.  The code measured is the one Python
imports: ``PYTHONPATH=OTHER_CHECKOUT`` measures that checkout's code (alternate the two
to compare).
Usage: ``python tests/bench/bench_import_trajectories.py [--trajectories 20000] [--steps 8]``

Recorded (issue 19).  Before (quiet machine): import 1.914 s, raw 0.713 s: 2.68x; raw + json
1.897 s: 1.01x; parse_native 0.996 s.  After orjson for plain lines and rows streamed to
``executemany``, on 2 cores shared with two other sessions (load 1.9-3.7, ``--repeat 4``,
seven pairs alternated with the previous code): CPU ratio import / raw 2.43, 2.43, 2.31,
2.46, 2.56, 2.41, 2.06x (previous code 3.17, 2.71, 3.09, 2.62, 2.74, 2.76, 2.83x); wall
2.37, 2.66, 2.28, 2.44, 2.53, 2.28, 2.45x (previous 2.83, 2.62, 3.33, 2.52, 2.65, 2.67,
2.60x); import / (raw + json) 0.86-1.03x CPU; parse_native 0.66-0.90 s (previous
0.76-1.60 s).  The load moves single figures by 20 %: compare pairs, or a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from rag_annotator.domain.clock import utc_now
from rag_annotator.gc_pause import bulk_objects
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.trajectories import import_trajectories_file, parse_native
from rag_annotator.storage.store import GoldSetStore

TOOLS = ("verifier_identite", "consulter_offres", "modifier_offre", "creer_ticket",
         "envoyer_email", "consulter_facture", "rechercher_client", "noter_echange")


def prepare(folder: Path, count: int, steps: int) -> None:
    """The gold set of agent cases, and the trajectories file."""
    now = utc_now()
    with GoldSetStore.create(folder / "cases.goldset", assessor="bench") as store, \
            store.operation("load_sample", "bench cases", log=False, undoable=False) as op:
        op.insert_many("cases", ({
            "key": f"A{i:05d}", "kind": "agent", "question": "Je veux changer d'offre",
            "forbidden_tools": '["supprimer_compte"]', "max_steps": 10,
            "tool_order": '[["verifier_identite", "modifier_offre"]]',
            "expected_state": '{"ticket.category": "changement_offre"}',
            "created_at": now, "updated_at": now} for i in range(count)))
    with open(folder / "run.jsonl", "w", encoding="utf-8") as out:
        for i in range(count):
            line = {"case": f"A{i:05d}", "steps": [
                {"tool": TOOLS[s % len(TOOLS)],
                 "arguments": {"client_id": f"C-{i}", "step": s, "offre": "fibre_max"},
                 "result": f"ok: {TOOLS[s % len(TOOLS)]} pour C-{i} (étape {s + 1})"}
                for s in range(steps)],
                "final_state": {"ticket": {"id": f"T-{i}", "category": "changement_offre",
                                           "client": f"C-{i}"}},
                "answer": f"Ticket T-{i} créé : votre offre passe à Fibre Max.",
                "tokens": 1000 + i % 900, "seconds": 4.5 + (i % 50) / 10, "cost": 0.012}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")


def raw_rows(folder: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The rows the import stores, ready for executemany (run 1, case ids 1..N in order)."""
    trajectories, steps = [], []
    with open(folder / "run.jsonl", encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            obj = json.loads(text)
            trajectories.append((1, number, json.dumps(obj["final_state"], ensure_ascii=False),
                                 obj["answer"], obj["tokens"], obj["seconds"], obj["cost"]))
            steps.extend((number, position, s["tool"],
                          json.dumps(s["arguments"], ensure_ascii=False), s["result"])
                         for position, s in enumerate(obj["steps"], start=1))
    return trajectories, steps


def time_import(folder: Path) -> tuple[float, float, int, float]:
    """(wall seconds, CPU seconds, history rows, undo seconds) of one import."""
    target = folder / "import.goldset"
    shutil.copyfile(folder / "cases.goldset", target)
    with GoldSetStore.open(target, assessor="bench") as store:
        cpu, start = time.process_time(), time.perf_counter()
        report = import_trajectories_file(store, folder / "run.jsonl", Options(run="bench"))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        history = store.query("SELECT count(*) AS n FROM history")[0]["n"]
        start = time.perf_counter()
        store.revert(store.operation_ids()[0])
        undo = time.perf_counter() - start
        assert store.count("trajectory_steps") == 0
    assert report.trajectories and report.steps
    return seconds, cpu, history, undo


def time_parse(folder: Path) -> float:
    """``parse_native`` as the import runs it (the cyclic collector paused)."""
    with bulk_objects():
        start = time.perf_counter()
        parse_native(folder / "run.jsonl")
        return time.perf_counter() - start


def time_raw(folder: Path, rows: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]] | None
             ) -> tuple[float, float]:
    """(wall, CPU) seconds of raw inserts of ``rows``; with None, the JSON reading is timed
    too."""
    target = folder / "raw.goldset"
    shutil.copyfile(folder / "cases.goldset", target)
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    cpu, start = time.process_time(), time.perf_counter()
    trajectories, steps = raw_rows(folder) if rows is None else rows
    conn.execute("BEGIN")
    conn.execute("INSERT INTO runs (name, created_at) VALUES ('bench', ?)", (utc_now(),))
    conn.executemany("INSERT INTO trajectories (run_id, case_id, final_state, final_answer, "
                     "tokens, seconds, cost) VALUES (?, ?, ?, ?, ?, ?, ?)", trajectories)
    conn.executemany("INSERT INTO trajectory_steps (trajectory_id, position, tool, arguments, "
                     "result) VALUES (?, ?, ?, ?, ?)", steps)
    conn.execute("COMMIT")
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    conn.close()
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trajectories", type=int, default=20_000)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        prepare(folder, args.trajectories, args.steps)
        rows = raw_rows(folder)
        size = (folder / "run.jsonl").stat().st_size
        imports, parses, raws, raws_json, undos = [], [], [], [], []
        cpus: dict[str, list[float]] = {"import": [], "raw": [], "raw + json": []}
        history = 0
        for _ in range(args.repeat):
            seconds, cpu, history, undo = time_import(folder)
            imports.append(seconds)
            cpus["import"].append(cpu)
            undos.append(undo)
            parses.append(time_parse(folder))
            for name, given, into in (("raw", rows, raws), ("raw + json", None, raws_json)):
                seconds, cpu = time_raw(folder, given)
                into.append(seconds)
                cpus[name].append(cpu)
        total = len(rows[0]) + len(rows[1])
        best_import, best_raw = min(imports), min(raws)
        print(f"trajectories: {len(rows[0]):,} x {args.steps} steps = {total:,} rows; "
              f"file {size / 1e6:.1f} MB")
        print(f"import (parse + checks + logged op + commit): {best_import:.3f} s "
              f"({total / best_import:,.0f} rows/s; {history} history rows) best of "
              f"{args.repeat}")
        print(f"  of which parse_native:                     {min(parses):.3f} s")
        print(f"raw executemany, same rows, same schema:      {best_raw:.3f} s "
              f"({total / best_raw:,.0f} rows/s)")
        print(f"raw + json.loads/dumps (no checks):           {min(raws_json):.3f} s")
        print(f"ratio import / raw:                           {best_import / best_raw:.2f}x "
              "(want <= 2.5x)")
        print(f"ratio import / (raw + json):                  "
              f"{best_import / min(raws_json):.2f}x (want <= 1.42x)")
        cpu = {name: min(values) for name, values in cpus.items()}
        print(f"CPU (process_time, what other processes' load inflates least): import "
              f"{cpu['import']:.3f} s, raw {cpu['raw']:.3f} s, raw + json "
              f"{cpu['raw + json']:.3f} s; ratios {cpu['import'] / cpu['raw']:.2f}x and "
              f"{cpu['import'] / cpu['raw + json']:.2f}x")
        print(f"undo of the import:                           {min(undos):.3f} s")


if __name__ == "__main__":
    main()
