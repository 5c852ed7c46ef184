"""Import of a cases CSV without an id column: every row gets a generated key (issue 20,
finding 4c: it was quadratic — 10k rows 29 s, 20k 117 s — one scan of every key in use per
row).  Prints the seconds of ``import_cases`` for 10k, 20k and 100k rows into a fresh gold
set, and the ratio 20k/10k (about 2 when linear, 4 when quadratic); asserts only that every
key is unique.
Usage: ``python tests/bench/bench_case_keys.py [--rows 10000,20000,100000]``
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rag_annotator.import_export.cases_import import import_cases
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore


def seconds_for(folder: Path, n: int) -> float:
    source = folder / f"questions-{n}.csv"
    source.write_text("Question;Réponse attendue\n" + "".join(
        f"Question numéro {i} : combien de jours ?;Réponse {i}\n" for i in range(n)),
        encoding="utf-8")
    path = folder / f"g-{n}.goldset"
    with GoldSetStore.create(path, assessor="bench") as store:
        start = time.perf_counter()
        import_cases(store, source, Options())
        took = time.perf_counter() - start
        keys = store.case_keys()
    assert len(set(keys)) == len(keys) == n
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="10000,20000,100000")
    sizes = [int(n) for n in parser.parse_args().rows.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        figures = {n: seconds_for(Path(tmp), n) for n in sizes}
    for n, took in figures.items():
        print(f"{n:>8,} rows without id column: {took:6.2f} s  ({n / took:,.0f} rows/s)")
    if 10_000 in figures and 20_000 in figures:
        print(f"ratio 20k/10k: {figures[20_000] / figures[10_000]:.2f} (linear ≈ 2, "
              "quadratic ≈ 4)")


if __name__ == "__main__":
    main()
