"""Rendering a PDF page at screen size (want: median under 100 ms).

Three measures per page width (``--widths``, device pixels across: a page view beside the
Judge pairs is ~500, a full-width Corpus reader ~1,000, a HiDPI screen ~2,000):

* *cold*: a page never opened — PDFium opens it, its text is extracted (the page view's
  text and the map back to PDFium's characters), its printed box is found, it is rendered
  and copied into a QImage (``PdfPages.render``: everything the worker does for a page);
* *bare*: PDFium alone on the same pages, the floor (``pypdfium2``: open the page and
  render the very same pixels — same part of the page, scale and pixel format — with no
  text, no box to find, no copy into a QImage), measured in the same run, alternated page
  by page with *cold* so the machine's load falls on both alike;
* *through the renderer*: the window's path, from the request on the GUI thread to the
  image back on it (``PageRenderer``: worker queue, render, the queued signal), pages
  asked one at a time.

The PDFs: a long one made of the pages of ``tests/data/pages`` (``generate_pdf.long_pdf``)
and, with ``--pdf FILE`` (repeatable), any others.  Prints count, median, p95 and max per
measure and width, and CPU time (``time.thread_time``) apart: the machine's load inflates
wall time, not CPU.  Usage: ``python tests/bench/bench_pages.py [--pages 200]
[--widths 512,1024,2048] [--pdf FILE]``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from keybench import percentile  # noqa: E402


def line(label: str, values: list[float], cpu: list[float] | None = None) -> str:
    text = (f"{label:<34} n={len(values):<4} median {statistics.median(values):6.1f} ms, "
            f"p95 {percentile(values, 95):6.1f} ms, max {max(values):6.1f} ms")
    if cpu:
        text += f"; CPU median {statistics.median(cpu):5.1f} ms"
    return text


def cold_and_bare(data: bytes, width: int, pages: int) -> tuple[list[float], list[float],
                                                                 list[float], list[float]]:
    """Every page: ``PdfPages.render`` on a fresh open, then PDFium alone (alternated)."""
    import pypdfium2 as pdfium

    from rag_annotator.ui.pages.pdf_pages import PdfPages

    sha = hashlib.sha256(data).hexdigest()
    ours = PdfPages()
    ours.open(sha, data)
    bare_pdf = pdfium.PdfDocument(data)
    cold, cold_cpu, bare, bare_cpu = [], [], [], []
    for index in range(min(pages, len(bare_pdf))):
        start, cpu = time.perf_counter(), time.thread_time()
        ours.render(sha, index, width)
        cold.append((time.perf_counter() - start) * 1000)
        cold_cpu.append((time.thread_time() - cpu) * 1000)
        left, top, right, bottom = ours.shown_box(sha, index)
        start, cpu = time.perf_counter(), time.thread_time()
        page = bare_pdf[index]
        page_width, page_height = page.get_size()
        bitmap = page.render(scale=(width + 0.5) / ((right - left) * page_width),
                             crop=(left * page_width, (1 - bottom) * page_height,
                                   (1 - right) * page_width, top * page_height),
                             prefer_bgrx=True, draw_annots=True)
        bitmap.close()
        page.close()
        bare.append((time.perf_counter() - start) * 1000)
        bare_cpu.append((time.thread_time() - cpu) * 1000)
    ours.close()
    bare_pdf.close()
    return cold, cold_cpu, bare, bare_cpu


def through_renderer(app: Any, path: Path, document_id: int, sha: str, width: int,
                     pages: int) -> list[float]:
    """Request → image back on the GUI thread, one page at a time, pages never seen."""
    from rag_annotator.ui.pages.render import PageKey, PageRenderer, PdfSource

    renderer = PageRenderer()
    source = PdfSource(path, document_id, sha)
    done: list[float] = []
    arrived: list[Any] = []
    renderer.page_ready.connect(arrived.append)
    try:
        for index in range(pages):
            arrived.clear()
            start = time.perf_counter()
            assert renderer.request(1, source, PageKey(sha, index, width)) is None
            while not arrived:
                app.processEvents()
                time.sleep(0.0005)
            done.append((time.perf_counter() - start) * 1000)
    finally:
        renderer.close()
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=200, help="pages of the long PDF")
    parser.add_argument("--widths", default="512,1024,2048")
    parser.add_argument("--pdf", type=Path, action="append", default=[])
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    import tempfile

    from generate_pdf import long_pdf
    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv[:1])
    pdfs = [("long PDF of the test pages", long_pdf(args.pages))]
    pdfs += [(p.name, p.read_bytes()) for p in args.pdf]
    widths = [int(w) for w in args.widths.split(",")]
    import pypdfium2 as pdfium

    print(f"pypdfium2 {pdfium.version.PYPDFIUM_INFO}, PDFium {pdfium.version.PDFIUM_INFO}; "
          f"platform {os.environ.get('QT_QPA_PLATFORM', 'xcb')}")
    for name, data in pdfs:
        count = len(pdfium.PdfDocument(data))
        print(f"== {name}: {count} pages, {len(data) / 1e6:.2f} MB")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "pages.goldset"
            document_id = _store(path, data)
            sha = hashlib.sha256(data).hexdigest()
            for width in widths:
                cold, cold_cpu, bare, bare_cpu = cold_and_bare(data, width, count)
                print(line(f"{width:>5} px  cold (PdfPages.render)", cold, cold_cpu))
                print(line(f"{width:>5} px  bare PDFium render", bare, bare_cpu))
                ratio = statistics.median(cold) / statistics.median(bare)
                print(f"{'':>10}cold / bare (medians): {ratio:.2f}")
                queued = through_renderer(app, path, document_id, sha, width,
                                          min(count, 60))
                print(line(f"{width:>5} px  request -> image (window)", queued))
    return 0


def _store(path: Path, data: bytes) -> int:
    """A gold set keeping ``data`` as a PDF document (what the renderer reads from)."""
    from generate_pdf import page_texts

    from rag_annotator.domain.clock import utc_now
    from rag_annotator.domain.layout import join_pages
    from rag_annotator.domain.validation import content_hash
    from rag_annotator.storage.store import GoldSetStore

    text, starts = join_pages(page_texts(data))
    now = utc_now()
    with GoldSetStore.create(path, assessor="bench") as store:
        with store.operation("load_sample", "bench", log=False, undoable=False) as op:
            file_id = op.insert("document_files", {
                "sha256": hashlib.sha256(data).hexdigest(), "kind": "pdf",
                "name": "bench.pdf", "size": len(data), "data": data, "created_at": now})["id"]
            op.insert_many("documents", [{
                "key": "PDF", "title": "bench", "text": text, "kind": "pdf",
                "content_hash": content_hash(text), "file_id": file_id,
                "pages": "[" + ",".join(map(str, starts)) + "]",
                "created_at": now, "updated_at": now}])
        return int(store.by_key("documents", "PDF")["id"])


if __name__ == "__main__":
    raise SystemExit(main())
