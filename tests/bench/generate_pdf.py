"""Generate a PDF-heavy gold set for the page benchmarks, through the store's bulk path.

One long PDF (``--pages`` pages, made of the pages of ``tests/data/pages`` repeated) is kept
in the file as a document; every document a run retrieved is a passage of it located on a
page of its own (400 characters from a random place of the page), as a run import stores
the chunks it found.  So each judging key shows another page: with the page view on, every
key asks for a page the worker renders while the next keys come.  Deterministic (seeded).
Usage: ``python tests/bench/generate_pdf.py OUT.goldset [--cases 2000] [--pages 400]``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import random
import sys
import time
from pathlib import Path

from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.enums import Behaviour, CaseStatus, Family, values
from rag_annotator.domain.layout import Layout, join_pages
from rag_annotator.domain.validation import content_hash
from rag_annotator.import_export.documents.pdf_layer import normalise_page_text
from rag_annotator.storage.store import GoldSetStore

SOURCES = Path(__file__).resolve().parents[1] / "data" / "pages"
PASSAGE = 400


def long_pdf(pages: int) -> bytes:
    """A PDF of ``pages`` pages: the sample PDFs' pages, in turn, again and again."""
    import pypdfium2 as pdfium

    sources = [pdfium.PdfDocument(p.read_bytes()) for p in sorted(SOURCES.glob("*.pdf"))
               if "rotated" not in p.name]
    out = pdfium.PdfDocument.new()
    while len(out) < pages:
        for source in sources:
            take = min(len(source), pages - len(out))
            if take > 0:
                out.import_pages(source, list(range(take)))
    buffer = io.BytesIO()
    out.save(buffer)
    return buffer.getvalue()


def page_texts(data: bytes) -> list[str]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    return [normalise_page_text(pdf[i].get_textpage().get_text_range())
            for i in range(len(pdf))]


def generate_pdf(path: Path, cases: int = 2000, pages: int = 400, depth: int = 10,
                 seed: int = 7) -> dict[str, int]:
    """Write the file; return the row counts."""
    rng = random.Random(seed)
    data = long_pdf(pages)
    text, starts = join_pages(page_texts(data))
    layout = Layout(starts)
    now = utc_now()
    store = GoldSetStore.create(path, name="bench-pdf", assessor="bench")
    with store.operation("load_sample", "bench-pdf", log=False, undoable=False) as op:
        op.insert_many("assessors", ({"name": f"assessor{i}", "created_at": now}
                                     for i in range(1, 4)))
        file_id = op.insert("document_files", {
            "sha256": hashlib.sha256(data).hexdigest(), "kind": "pdf", "name": "long.pdf",
            "size": len(data), "data": data, "created_at": now})["id"]
        op.insert_many("documents", [{
            "key": "LONG-PDF", "title": f"A PDF of {pages} pages", "text": text,
            "content_hash": content_hash(text), "kind": "pdf", "file_id": file_id,
            "created_at": now, "updated_at": now, **layout.columns()}])

        def passages():  # type: ignore[no-untyped-def]
            for i in range(cases * 2 * depth):
                page = rng.randrange(1, pages + 1)
                first, last = layout.page_span(page, len(text))
                start = rng.randrange(first, max(first + 1, last - PASSAGE))
                end = min(start + PASSAGE, last)
                yield {"key": f"LONG-PDF#{i:06d}", "title": f"page {page}",
                       "text": text[start:end], "content_hash": content_hash(text[start:end]),
                       "parent_id": 1, "span_start": start, "span_end": end,
                       "located": "exact", "match_score": 100.0,
                       "created_at": now, "updated_at": now}

        op.insert_many("documents", passages())
        families, statuses = values(Family), values(CaseStatus)
        op.insert_many("cases", (
            {"key": f"Q{i:05d}", "question": "what does the blind text tell about the font ?",
             "reference_answer": "", "family": families[i % len(families)],
             "status": statuses[i % len(statuses)],
             "expected_behaviour": Behaviour.ANSWER.value, "tags": "[]",
             "created_at": now, "updated_at": now} for i in range(1, cases + 1)))
        op.insert_many("runs", ({"name": f"run{r}", "created_at": now} for r in (1, 2)))
        op.insert_many("retrieved", (
            {"run_id": run, "case_id": c + 1,
             "document_id": 2 + c * 2 * depth + (run - 1) * depth + rank,
             "rank": rank + 1, "score": float(depth - rank)}
            for run in (1, 2) for c in range(cases) for rank in range(depth)))
        # a quarter of the pairs judged by one assessor: the rest waits for the bench
        op.insert_many("judgments", (
            {"case_id": c + 1, "document_id": 2 + c * 2 * depth + k, "assessor_id": 1,
             "grade": rng.choice((0, 1)), "note": "", "updated_at": now}
            for c in range(cases) for k in range(0, 2 * depth, 4)))
    counts = {t: store.count(t) for t in ("cases", "documents", "judgments", "retrieved")}
    counts["pages"] = pages
    store.close()
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=400)
    args = parser.parse_args()
    if args.out.exists():
        sys.exit(f"{args.out} exists; remove it first")
    start = time.perf_counter()
    counts = generate_pdf(args.out, args.cases, args.pages)
    size = args.out.stat().st_size / 1e6
    print(f"generated {args.out} in {time.perf_counter() - start:.1f} s, {size:.0f} MB: "
          + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
