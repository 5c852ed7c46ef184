"""Import of a 1,000,000-line TREC run against raw ``sqlite3`` ``executemany`` (the issue's
benchmark: want import <= 3x raw).

Setup (not timed): a gold set holding a 100,000-document corpus and 10,000 cases, and a run
file of 10,000 queries x 100 documents drawn from that corpus, so no placeholder is created.
Timed, each in a child process of its own so its peak RSS is its own:

* ``import``: ``trec_files.import_run`` into a fresh copy of that gold set — parsing, id lookups,
  the logged operation (one ``insert_range`` history row per batch, so it stays undoable)
  and the durable commit;
* ``parse``: ``trec_files.parse_run`` alone (part of ``import``);
* ``raw``: ``sqlite3`` ``executemany`` of the same 1,000,000 rows (ids already resolved,
  prepared before timing) into a fresh file with the same ``retrieved`` table and indexes,
  default pragmas, one transaction; ``raw-cache``: the same with the 256 MB page cache
  ``insert_rows`` takes for a bulk insert;
* ``undo``: ``store.revert`` of the import (writes the rows into the history as JSON, so a
  redo can restore them).

Prints seconds, the ratio and peak RSS; asserts nothing (timings depend on the machine).
Usage: ``python tests/bench/bench_import_run.py [--queries 10000] [--depth 100]``
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rag_annotator.domain.clock import utc_now
from rag_annotator.import_export import trec_files
from rag_annotator.storage import transaction
from rag_annotator.storage.store import GoldSetStore

CORPUS = 100_000
RETRIEVED_DDL = """
CREATE TABLE retrieved (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER NOT NULL,
    case_id     INTEGER NOT NULL,
    document_id INTEGER NOT NULL,
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    score       REAL,
    UNIQUE (run_id, case_id, document_id),
    UNIQUE (run_id, case_id, rank)
);
CREATE INDEX retrieved_pair ON retrieved(case_id, document_id);
CREATE INDEX retrieved_document ON retrieved(document_id);
"""


def prepare(folder: Path, queries: int, depth: int) -> None:
    """The gold set with its corpus and cases, and the run file."""
    now = utc_now()
    with GoldSetStore.create(folder / "corpus.goldset", assessor="bench") as store, \
            store.operation("load_sample", "bench corpus", log=False, undoable=False) as op:
        op.insert_many("documents", (
            {"key": f"doc{i:06d}", "text": "", "content_hash": "", "created_at": now,
             "updated_at": now} for i in range(CORPUS)))
        op.insert_many("cases", ({"key": f"q{q:05d}", "created_at": now, "updated_at": now}
                                 for q in range(queries)))
    rng = random.Random(42)
    with open(folder / "run.txt", "w", encoding="utf-8") as out:
        for q in range(queries):
            for rank, doc in enumerate(rng.sample(range(CORPUS), depth), start=1):
                out.write(f"q{q:05d} Q0 doc{doc:06d} {rank} {1000 - rank * 0.37:.4f} bench\n")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def phase_import(folder: Path) -> dict[str, float]:
    target = folder / "import.goldset"
    shutil.copyfile(folder / "corpus.goldset", target)
    with GoldSetStore.open(target, assessor="bench") as store:
        start = time.perf_counter()
        report = trec_files.import_run(store, folder / "run.txt")
        seconds = time.perf_counter() - start
        assert not report.new_documents and not report.new_cases
        history = store.query("SELECT count(*) AS n FROM history")[0]["n"]
    return {"seconds": seconds, "rows": report.rows, "history_rows": history,
            "rss_mb": peak_rss_mb()}


def phase_parse(folder: Path) -> dict[str, float]:
    start = time.perf_counter()
    queries, _tag = trec_files.parse_run(folder / "run.txt")
    return {"seconds": time.perf_counter() - start,
            "rows": sum(len(lines) for lines in queries.values()), "rss_mb": peak_rss_mb()}


def phase_undo(folder: Path) -> dict[str, float]:
    with GoldSetStore.open(folder / "import.goldset", assessor="bench") as store:
        op_id = store.operation_ids()[0]
        start = time.perf_counter()
        store.revert(op_id)
        seconds = time.perf_counter() - start
        assert store.count("retrieved") == 0
    return {"seconds": seconds, "rss_mb": peak_rss_mb()}


def phase_raw(folder: Path, cache_kib: int = 0) -> dict[str, float]:
    # The same rows the import stores (its ids: corpus and cases were inserted in key order).
    queries, _tag = trec_files.parse_run(folder / "run.txt")
    rows = [(1, int(qid[1:]) + 1, int(r.docno[3:]) + 1, rank, r.score)
            for qid, lines in queries.items() for rank, r in enumerate(lines, start=1)]
    target = folder / "raw.sqlite"
    target.unlink(missing_ok=True)
    conn = sqlite3.connect(target, isolation_level=None)
    conn.executescript(RETRIEVED_DDL)
    if cache_kib:
        conn.execute(f"PRAGMA cache_size = {-cache_kib}")
    start = time.perf_counter()
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO retrieved (run_id, case_id, document_id, rank, score) "
                     "VALUES (?, ?, ?, ?, ?)", rows)
    conn.execute("COMMIT")
    seconds = time.perf_counter() - start
    conn.close()
    return {"seconds": seconds, "rows": len(rows), "rss_mb": peak_rss_mb()}


def phase_raw_cache(folder: Path) -> dict[str, float]:
    """Raw again, with the page cache ``insert_rows`` gives itself (a fairer baseline)."""
    return phase_raw(folder, transaction.BULK_CACHE_KIB)


PHASES = {"import": phase_import, "parse": phase_parse, "undo": phase_undo, "raw": phase_raw,
          "raw-cache": phase_raw_cache}


def child(phase: str, folder: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--phase", phase, str(folder)],
                         capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--phase", choices=sorted(PHASES))
    parser.add_argument("folder", nargs="?", type=Path)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(PHASES[args.phase](args.folder)))
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        prepare(folder, args.queries, args.depth)
        print(f"setup: {CORPUS:,} documents, {args.queries:,} cases, "
              f"{args.queries * args.depth:,}-line run ({time.perf_counter() - start:.1f} s)")
        raw = child("raw", folder)
        raw_cache = child("raw-cache", folder)
        parse = child("parse", folder)
        imported = child("import", folder)
        undo = child("undo", folder)
        print(f"raw executemany : {raw['seconds']:6.2f} s  (peak RSS {raw['rss_mb']:.0f} MB, "
              "parse and row building not timed)")
        print(f"raw, 256 MB cache: {raw_cache['seconds']:5.2f} s  (the cache import_run uses)")
        print(f"parse_run       : {parse['seconds']:6.2f} s  (peak RSS {parse['rss_mb']:.0f} MB)")
        print(f"import_run      : {imported['seconds']:6.2f} s  "
              f"(peak RSS {imported['rss_mb']:.0f} MB, {imported['rows']:,} rows, "
              f"{imported['history_rows']:,} history rows)")
        print(f"ratio import/raw: {imported['seconds'] / raw['seconds']:6.2f}x  (want <= 3x); "
              f"against raw with the same cache: "
              f"{imported['seconds'] / raw_cache['seconds']:.2f}x")
        print(f"undo of import  : {undo['seconds']:6.2f} s  (peak RSS {undo['rss_mb']:.0f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
