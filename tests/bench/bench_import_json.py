"""Native JSON import of a 1,000,000-judgment gold set against its export (issue 19: want
import <= 1.5x the export).

Setup (not timed): ``tests/bench/generate.py`` at ``--scale`` (1.0: 10,000 cases, 100,000
documents, 1,000,000 judgments, 40,000 retrieved, 100,000 claims) in a temporary folder.
Timed, alternated, best of ``--repeat``, each a whole CLI process (``python -m
rag_annotator``), as a user runs them:

* ``export``: ``export FILE json OUT.json``;
* ``import``: ``new EMPTY`` (not timed) then ``import EMPTY json OUT.json`` — streaming
  read, every row checked, one undoable operation, durable commit.

Prints seconds, peak RSS of each process and the ratio import / export; checks that the
re-export of the imported file gives the same bytes.  Usage: ``python
tests/bench/bench_import_json.py [--scale 1.0] [--repeat 2] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _cli(*args: str) -> tuple[float, float]:
    """Seconds and peak RSS (MB) of one CLI process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rag_annotator", *args],
                          capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"rag-annotator {' '.join(args)} failed: {done.stderr[-2000:]}")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return seconds, rss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="reuse/keep the files in this folder")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench_json_"))
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["RAG_ANNOTATOR_HOME"] = str(folder / "home")
    gold = folder / "bench.goldset"
    try:
        if not gold.exists():
            sys.path.insert(0, str(Path(__file__).parent))
            from generate import generate  # type: ignore[import-not-found]

            start = time.perf_counter()
            counts = generate(gold, args.scale)
            print(f"generated {counts} in {time.perf_counter() - start:.1f} s (not timed)")
        exports, imports = [], []
        rss_export = rss_import = 0.0
        for _ in range(args.repeat):
            seconds, rss_export = _cli("export", str(gold), "json", str(folder / "out.json"))
            exports.append(seconds)
            target = folder / "imported.goldset"
            target.unlink(missing_ok=True)
            _cli("new", str(target))
            seconds, rss_import = _cli("import", str(target), "json", str(folder / "out.json"))
            imports.append(seconds)
        _cli("export", str(target), "json", str(folder / "again.json"))
        same = filecmp.cmp(folder / "out.json", folder / "again.json", shallow=False)
        size = (folder / "out.json").stat().st_size
        print(f"file: {size / 1e6:.0f} MB of JSON")
        print(f"export (whole process): {min(exports):.2f} s (peak RSS so far "
              f"{rss_export:.0f} MB)")
        print(f"import (whole process): {min(imports):.2f} s (peak RSS so far "
              f"{rss_import:.0f} MB)")
        print(f"ratio import / export: {min(imports) / min(exports):.2f}x (want <= 1.5x)")
        print(f"re-export of the imported file gives the same bytes: {same}")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
