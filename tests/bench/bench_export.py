"""Export speed on 1,000,000 judgments, against the raw libraries on the same rows.

* CSV: ``csv_export.write_csv`` of the judgments (data profile, then excel fr) against a raw
  ``csv.writer.writerows`` of the same query's rows (want <= 2x).
* XLSX: the workbook's judgments sheet (neutralisation, escapes, header, filters) against a
  raw openpyxl write-only ``append`` of the same rows (want <= 1.3x).
* Then the whole ``csv`` and ``xlsx`` exports, for the record.

Both sides read the same SQL cursor, so the ratio is what this app adds.  Usage:
``python tests/bench/bench_export.py [FILE.goldset] [--scale 1.0]`` (without FILE, one is
generated with ``tests/bench/generate.py`` in a temporary folder).
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rag_annotator.import_export import csv_export, xlsx_export
from rag_annotator.import_export.csv_export import Dialect, TablesReport, Ticker
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.reads_exchange import Scope
from rag_annotator.storage.store import GoldSetStore


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _interleaved(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], _best(fn, 1))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", type=Path, nargs="?")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=2)
    ns = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench_export_"))
    path = ns.file
    if path is None:
        sys.path.insert(0, str(Path(__file__).parent))
        from generate import generate  # type: ignore[import-not-found]

        path = tmp / "bench.goldset"
        start = time.perf_counter()
        counts = generate(path, ns.scale)
        print(f"generated {counts} in {time.perf_counter() - start:.1f} s")
    store = GoldSetStore.open(path, read_only=True)
    n = store.count("judgments")
    print(f"{path}: {n:,} judgments")
    columns = store.entity_rows("judgments")[0]

    def raw_csv() -> None:
        _cols, rows = store.entity_rows("judgments")
        with open(tmp / "raw.csv", "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(columns)
            writer.writerows(rows)

    def ours_csv(dialect: Dialect) -> Callable[[], None]:
        def run() -> None:
            _cols, rows = csv_export.entity_stream(store, "judgments", Scope())
            csv_export.write_csv(tmp / "ours.csv", columns, rows, dialect,
                                 Ticker(Options(), n))
        return run

    def raw_xlsx() -> None:
        from openpyxl import Workbook

        _cols, rows = store.entity_rows("judgments")
        wb = Workbook(write_only=True)
        ws = wb.create_sheet("judgments")
        ws.append(list(columns))
        for row in rows:
            ws.append(row)
        wb.save(tmp / "raw.xlsx")

    def ours_xlsx() -> None:
        from openpyxl import Workbook

        _cols, rows = csv_export.entity_stream(store, "judgments", Scope())
        wb = Workbook(write_only=True)
        sheets = xlsx_export._Sheets(wb, "judgments", columns, TablesReport(tmp / "o.xlsx"))
        sheets.write(rows, Ticker(Options(), n))
        xlsx_export.save_atomically(wb, tmp / "ours.xlsx")

    # Interleaved, best of ``repeat``: the machine is shared, and a load spike must not
    # land on one side only.
    raw, data, excel = _interleaved([raw_csv, ours_csv(Dialect.of("data", None)),
                                     ours_csv(Dialect.of("excel", "fr"))], ns.repeat)
    print(f"CSV  raw csv.writer {raw:6.2f} s | data profile {data:6.2f} s ({data / raw:.2f}x) "
          f"| excel fr {excel:6.2f} s ({excel / raw:.2f}x)   want <= 2x")
    raw_x, ours_x = _interleaved([raw_xlsx, ours_xlsx], ns.repeat)
    print(f"XLSX raw openpyxl write-only {raw_x:6.2f} s | ours {ours_x:6.2f} s "
          f"({ours_x / raw_x:.2f}x)   want <= 1.3x")
    start = time.perf_counter()
    report = csv_export.export_csv(store, tmp / "folder", Options())
    print(f"whole csv export ({sum(report.counts.values()):,} rows): "
          f"{time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    report = xlsx_export.export_xlsx(store, tmp / "all.xlsx", Options())
    print(f"whole xlsx export ({sum(report.counts.values()):,} rows, summary included): "
          f"{time.perf_counter() - start:.1f} s, {(tmp / 'all.xlsx').stat().st_size:,} bytes")
    store.close()
    print(f"(files left in {tmp})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
