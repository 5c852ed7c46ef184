"""Import of a 10,000-row XLSX of cases against openpyxl's read-only reading of the same file
(issue 3's benchmark: want import <= 1.5x reading alone), and Cancel in the middle.

Setup (not timed): an XLSX in seed 004's French shape plus the usual optional columns
(``# | Question | Réponse attendue | Où se trouve la réponse | Doit contenir | Famille |
Tags``), 10,000 rows, a corpus of 200 documents that half of the source cells name.
Timed, each run alternated and repeated (best of ``--repeat``), same process:

* ``read``: ``openpyxl.load_workbook(read_only=True, data_only=True)`` and iterating every
  row's values — what any importer must pay;
* ``import``: ``cases_import.import_cases`` into a fresh copy of the gold set: the safety
  check, the same reading, header recognition, validation, source matching, the logged
  operation (undoable) and the durable commit.

Then Cancel: the import is started with a ``cancel`` that answers True after a few polls;
the file's bytes must be identical afterwards.  Prints seconds and the ratio; asserts only
that the cancelled import left the file unchanged.
Usage: ``python tests/bench/bench_cases_xlsx.py [--rows 10000] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import tempfile
import time
from pathlib import Path

import openpyxl

from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.validation import content_hash
from rag_annotator.import_export.cases_import import import_cases
from rag_annotator.import_export.files import Cancelled
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore

FAMILIES = ("Ordinaire", "Ambiguë", "Sensible", "Hors périmètre", "Sources contradictoires")


def make_xlsx(path: Path, n: int) -> None:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Jeu de questions")
    sheet.append(["#", "Question", "Réponse attendue", "Où se trouve la réponse",
                  "Doit contenir", "Famille", "Tags"])
    for i in range(1, n + 1):
        source = f"DOC-{i % 200:03d}" if i % 2 else "Politique interne, section 4"
        sheet.append([i, f"Question numéro {i} : combien de jours de congés pour le cas {i} ?",
                      f"Réponse de référence {i}, avec un peu de texte pour être réaliste.",
                      source, f"Le nombre de jours\nLa condition {i}", FAMILIES[i % 5],
                      f"rh, lot-{i % 7}"])
    book.save(path)


def make_goldset(path: Path) -> None:
    with GoldSetStore.create(path, assessor="bench") as store:
        now = utc_now()
        with store.operation("bench", "corpus") as op:
            op.insert_many("documents", (
                {"key": f"DOC-{i:03d}", "title": f"Document {i}", "text": f"Texte {i}",
                 "content_hash": content_hash(f"Texte {i}"), "created_at": now,
                 "updated_at": now} for i in range(200)))


def read_only(path: Path) -> int:
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    count = sum(1 for _row in book.worksheets[0].iter_rows(values_only=True))
    book.close()
    return count


def run_import(template: Path, work: Path, source: Path) -> float:
    target = work / "run.goldset"
    target.unlink(missing_ok=True)
    shutil.copy(template, target)
    with GoldSetStore.open(target, assessor="bench") as store:
        start = time.perf_counter()
        report = import_cases(store, source, Options())
        elapsed = time.perf_counter() - start
    assert report.cases > 0
    return elapsed


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        source, template = work / "cases.xlsx", work / "template.goldset"
        make_xlsx(source, args.rows)
        make_goldset(template)
        reads, imports = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            read_only(source)
            reads.append(time.perf_counter() - start)
            imports.append(run_import(template, work, source))
        read, imported = min(reads), min(imports)
        print(f"rows: {args.rows:,}  file: {source.stat().st_size / 1e6:.1f} MB")
        print(f"openpyxl read-only alone: {read:.3f} s (best of {args.repeat})")
        print(f"import_cases:             {imported:.3f} s (best of {args.repeat})")
        print(f"ratio import / read:      {imported / read:.2f}x (want <= 1.5x)")

        target = work / "cancel.goldset"
        shutil.copy(template, target)
        before = sha(target)
        polls = []

        def cancel() -> bool:
            polls.append(1)
            return len(polls) >= 5  # a few thousand rows in

        with GoldSetStore.open(target, assessor="bench") as store:
            try:
                import_cases(store, source, Options(cancel=cancel))
            except Cancelled as error:
                print(f"cancel after {len(polls)} polls: {error}")
            else:
                raise SystemExit("the import was not cancelled")
        after = sha(target)
        print(f"file unchanged after cancel: {before == after}")
        if before != after:
            raise SystemExit("a cancelled import changed the file")


if __name__ == "__main__":
    main()
