"""Importing a folder of PDFs totalling 2,000 pages, against pypdfium2's bare text extraction
of the same pages in the same run (want <= 1.5x), and the peak memory of one 2,000-page PDF.

Setup (not timed): 20 PDFs of 100 pages each, made by copying the pages of the real PDFs of
``tests/data/documents`` (a French law text, a two-column article, an outlined agreement)
with PDFium's own page import, so every page has real text and the files real structure.

Timed, alternated ``--rounds`` times (medians printed):

* ``bare``: open each PDF with pypdfium2 and take every page's ``get_text_range()`` (the
  floor: the library's extraction and nothing else);
* ``import``: ``import_corpus`` of the folder into a new gold set: the same extraction and
  normalisation, the outline, the properties, hashing and keeping each PDF's bytes, one
  undoable operation storing 20 documents and their files, committed.

Then, each in a fresh child process so its peak resident memory is its own: the import of
ONE 2,000-page PDF (the 20 files' pages in one document) and the bare extraction of it, with
the child's peak RSS (``ru_maxrss``) and the PDF's size.  Prints the figures and ``RATIO``
lines; asserts nothing.

    .venv/bin/python tests/bench/bench_import_documents.py [--rounds 5] [--keep DIR]

Measured 2026-12-04 on the shared 2-core machine (load 5.9, other builds running), 5 rounds:
bare extraction median 6.10 s wall / 2.71 s CPU, corpus import 7.30 s / 3.03 s: **1.20x wall,
1.12x CPU** (want <= 1.5x); an earlier run at load 3.8 gave 1.13x wall.  One 2,000-page PDF
(54.7 MB) in a fresh process: bare extraction peak RSS 264 MiB, corpus import 392 MiB
(1.48x): the import holds the file's bytes once to hash and once more to store them (the
kept file), and the document's text; pages are closed as they are read, so memory follows
the file's size and text, not its page count.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).parents[1] / "data" / "documents"
SOURCES = ("jorf-2023-06-21-delegation-signature-dinum.pdf", "multicolumn.pdf",
           "bookmark_sample.pdf")
FILES, PAGES_EACH = 20, 100


def make_pdf(dest: Path, pages: int, offset: int) -> None:
    """A PDF of ``pages`` pages copied in turn from the real sources."""
    import pypdfium2 as pdfium

    sources = [pdfium.PdfDocument(DATA / name) for name in SOURCES]
    out = pdfium.PdfDocument.new()
    n = 0
    turn = offset
    while n < pages:
        source = sources[turn % len(sources)]
        take = min(len(source), pages - n)
        out.import_pages(source, list(range(take)))
        n += take
        turn += 1
    out.save(dest)


def bare(folder: Path) -> int:
    """Every page's text by pypdfium2 alone; the number of characters."""
    import pypdfium2 as pdfium

    total = 0
    for path in sorted(folder.glob("*.pdf")):
        pdf = pdfium.PdfDocument(path)
        for i in range(len(pdf)):
            page = pdf[i]
            textpage = page.get_textpage()
            total += len(textpage.get_text_range())
            textpage.close()
            page.close()
        pdf.close()
    return total


def import_folder(folder: Path, goldset: Path) -> int:
    """The app's corpus import of the folder into a new gold set; the documents stored."""
    from rag_annotator.import_export.corpus_import import import_corpus
    from rag_annotator.import_export.registry import Options
    from rag_annotator.storage.store import GoldSetStore

    with GoldSetStore.create(goldset, assessor="bench") as store:
        report = import_corpus(store, folder, Options())
    return len(report.added)


def child(mode: str, path: Path, goldset: Path) -> None:
    """Run in a child process: one phase, then its peak RSS on stdout."""
    if mode == "bare":
        bare(path)
    else:
        import_folder(path, goldset)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def peak_rss(mode: str, folder: Path, goldset: Path) -> tuple[float, int]:
    """(seconds, peak RSS in KiB) of ``mode`` run alone in a child process."""
    if goldset.exists():
        goldset.unlink()
    start = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(folder),
                          str(goldset)], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    return time.perf_counter() - start, int(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build the PDFs here and keep them")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]), Path(args.child[2]))
        return
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-docs-"))
    folder, one = work / "pdfs", work / "one"
    folder.mkdir(parents=True, exist_ok=True)
    one.mkdir(exist_ok=True)
    for i in range(FILES):
        if not (folder / f"doc{i:02}.pdf").exists():
            make_pdf(folder / f"doc{i:02}.pdf", PAGES_EACH, i)
    if not (one / "long.pdf").exists():
        make_pdf(one / "long.pdf", FILES * PAGES_EACH, 0)
    size = sum(p.stat().st_size for p in folder.glob("*.pdf"))
    print(f"{FILES} PDFs, {FILES * PAGES_EACH} pages, {size / 1e6:.1f} MB; "
          f"load {os.getloadavg()[0]:.1f}")
    times: dict[str, list[float]] = {"bare": [], "import": []}
    cpu: dict[str, list[float]] = {"bare": [], "import": []}
    for r in range(args.rounds):
        start, start_cpu = time.perf_counter(), time.process_time()
        chars = bare(folder)
        times["bare"].append(time.perf_counter() - start)
        cpu["bare"].append(time.process_time() - start_cpu)
        goldset = work / f"round{r}.goldset"
        start, start_cpu = time.perf_counter(), time.process_time()
        stored = import_folder(folder, goldset)
        times["import"].append(time.perf_counter() - start)
        cpu["import"].append(time.process_time() - start_cpu)
        goldset.unlink()
        print(f"round {r + 1}: bare {times['bare'][-1]:.3f} s (CPU {cpu['bare'][-1]:.3f} s, "
              f"{chars:,} characters), import {times['import'][-1]:.3f} s "
              f"(CPU {cpu['import'][-1]:.3f} s, {stored} documents)")
    base, ours = statistics.median(times["bare"]), statistics.median(times["import"])
    base_cpu, ours_cpu = statistics.median(cpu["bare"]), statistics.median(cpu["import"])
    print(f"bare extraction   median {base:.3f} s, CPU {base_cpu:.3f} s")
    print(f"corpus import     median {ours:.3f} s, CPU {ours_cpu:.3f} s")
    print(f"RATIO import / bare: {ours / base:.2f}x wall, {ours_cpu / base_cpu:.2f}x CPU "
          f"(want <= 1.5x)")
    bare_s, bare_kib = peak_rss("bare", one, work / "one.goldset")
    import_s, import_kib = peak_rss("import", one, work / "one.goldset")
    long_size = (one / "long.pdf").stat().st_size
    print(f"one {FILES * PAGES_EACH}-page PDF ({long_size / 1e6:.1f} MB), each in a fresh "
          f"process (interpreter start included):")
    print(f"  bare extraction  {bare_s:.2f} s, peak RSS {bare_kib / 1024:.0f} MiB")
    print(f"  corpus import    {import_s:.2f} s, peak RSS {import_kib / 1024:.0f} MiB")
    print(f"RATIO peak RSS import / bare: {import_kib / bare_kib:.2f}x")
    if args.keep is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
