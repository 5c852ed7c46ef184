"""Locating retrieved chunks: 10,000 chunks in a 5,000-page corpus (want under 30 s).

Usage: ``python tests/bench/bench_locate.py [--pages 5000] [--chunks 10000] [--seed 7]``.

The corpus is made of real pages: the 44 pages of the three PDFs of ``tests/data/chunks``
(PDFium's text, as the app stores a PDF), copied until it holds ``--pages`` pages.  So that
the copies are different documents and not one text repeated (which would put every chunk
"at several places"), copy ``c`` (c >= 1) has its letters a-z enciphered by a substitution
alphabet of its own (seeded by ``c``; capitals alike, accents, digits and pdfminer's
``(cid:n)`` kept), after NFKC:
every copy keeps its pages' lengths, lines, spaces, hyphens and layout, but no 20-letter
run of one copy is in another.  The chunks are those the pipelines of
``tests/import_export/pipelines.py`` make of the original pages (pypdf, pdfminer.six and a
Markdown rendering, recursive and fixed-window splitters), enciphered the same way for the
copy they are drawn from: ``--chunks`` of them, drawn at random over the copies.

Prints the time to index the corpus and to locate the chunks (per chunk too; and the
process's CPU time, which another load on the machine does not inflate), how many were
located exactly / normalised / fuzzy / not, and how many on their page, on another page
(want 0) or at several places.
"""

from __future__ import annotations

import argparse
import random
import re
import string
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rag_annotator.domain.layout import Layout, join_pages
from rag_annotator.import_export.chunk_locator import ChunkLocator
from tests.import_export.pdf_documents import pdf_text
from tests.import_export.pipelines import Chunk, all_chunks

DATA = Path(__file__).resolve().parents[1] / "data" / "chunks"
FILES = ("geotopo-p9-30.pdf", "multicolumn.pdf", "vitam-transfert.pdf")


def cipher(copy: int) -> dict[int, str]:
    """Copy ``copy``'s substitution alphabet (copy 0: the text as it is)."""
    if copy == 0:
        return {}
    letters = list(string.ascii_lowercase)
    random.Random(copy).shuffle(letters)
    table = dict(zip(string.ascii_lowercase, letters))
    table.update({k.upper(): v.upper() for k, v in table.items()})
    return str.maketrans(table)


def variant(text: str, table: dict[int, str]) -> str:
    """``text`` as copy ``table`` has it (pdfminer's ``(cid:n)`` marks left as they are)."""
    if not table:
        return text
    parts = re.split(r"(\(cid:\d+\))", unicodedata.normalize("NFKC", text))
    return "".join(p if i % 2 else p.translate(table) for i, p in enumerate(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", action="store_true", help="print the chunks put on another "
                                                             "page")
    args = parser.parse_args()

    originals = {Path(name).stem: pdf_text(DATA / name) for name in FILES}
    page_texts = {key: [text[slice(*layout.page_span(n, len(text)))]
                        for n in range(1, layout.page_count + 1)]
                  for key, (text, layout) in originals.items()}
    per_set = sum(len(p) for p in page_texts.values())
    copies = -(-args.pages // per_set)
    t0 = time.perf_counter()
    made = {key: all_chunks(DATA / name) for key, name in zip(originals, FILES)}
    print(f"chunks of the original pages made by the pipelines: "
          f"{sum(map(len, made.values()))} in {time.perf_counter() - t0:.1f} s")

    documents: dict[str, tuple[str, Layout]] = {}
    for copy in range(copies):
        table = cipher(copy)
        for key, pages in page_texts.items():
            text, starts = join_pages([variant(p, table) for p in pages])
            documents[f"{key}-{copy:04d}"] = (text, Layout(starts))
    pages = sum(layout.page_count for _t, layout in documents.values())
    characters = sum(len(t) for t, _l in documents.values())
    print(f"corpus: {len(documents)} documents, {pages} pages, {characters:,} characters "
          f"({copies} copies of {per_set} real pages)")

    rnd = random.Random(args.seed)
    pool: list[tuple[str, Chunk]] = [(key, c) for key, chunks in made.items() for c in chunks]
    drawn: list[tuple[str, Chunk, str]] = []
    for _ in range(args.chunks):
        key, chunk = rnd.choice(pool)
        copy = rnd.randrange(copies)
        drawn.append((f"{key}-{copy:04d}", chunk, variant(chunk.text, cipher(copy))))

    t0, c0 = time.perf_counter(), time.process_time()
    locator = ChunkLocator([(k, t) for k, (t, _l) in documents.items()])
    indexed = time.perf_counter() - t0
    t1 = time.perf_counter()
    results = [locator.locate(text) for _k, _c, text in drawn]
    located = time.perf_counter() - t1
    cpu = time.process_time() - c0

    how, where = Counter(), Counter()
    for (key, chunk, _text), found in zip(drawn, results):
        how[found.how if found else "not found"] += 1
        if found is None:
            continue
        if found.several:
            where["several places"] += 1
            continue
        page = documents[found.key][1].page_of(found.start)
        right = found.key == key and page in chunk.pages
        where["own page" if right else "OTHER PAGE"] += 1
        if args.show and not right:
            print(f"{chunk.pipeline} {key} p. {chunk.pages} -> {found.key} p. {page} "
                  f"({found.how} {found.score}): {chunk.text[:70]!r}")
    print(f"index: {indexed:.2f} s; locate {len(drawn)} chunks: {located:.2f} s "
          f"({1000 * located / len(drawn):.2f} ms a chunk); total {indexed + located:.2f} s "
          f"(want < 30 s); CPU time of both {cpu:.2f} s (the wall time on a busy machine "
          f"is more)")
    print("how:", ", ".join(f"{k} {v}" for k, v in sorted(how.items())))
    print("where:", ", ".join(f"{k} {v}" for k, v in sorted(where.items())),
          f"({100 * where['own page'] / len(drawn):.1f} % on their own page)")


if __name__ == "__main__":
    main()
