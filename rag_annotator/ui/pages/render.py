"""Pages rendered off the key path: one worker thread, a cache, stale results not shown.

A key (J, PgDown, H…) never waits for a page: the view asks :class:`PageRenderer` for a page
image, gets it at once when it is cached, and otherwise keeps showing what it showed (the
document's text, or the previous page) until :attr:`PageRenderer.page_ready` brings it.  The
work runs on the app's background-job helper (:class:`~rag_annotator.ui.serial_worker.
SerialWorker`: one thread, jobs in order), which is also the one thread that ever calls
PDFium for the window (:mod:`rag_annotator.ui.pages.pdf_pages`).

Stale work is dropped twice: a render job whose page is no longer wanted by any view (the
assessor pressed J five times while the first page rendered) is skipped when its turn comes,
and a result is shown only by a view that still wants that page (every result still goes
into the cache: PgUp back to it is then instant).  A PDF's bytes are read on the worker,
from its own read-only connection to the file, once per PDF kept open.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QImage

from rag_annotator.ui.serial_worker import SerialWorker, window_first

log = logging.getLogger("rag_annotator")

#: Bytes of rendered pages kept (an A4 page 1,000 pixels wide takes 5.7 MB).
IMAGE_BUDGET = 96 * 1024 * 1024
#: Rectangle lists kept (highlights and selections already asked for).
RECTS_KEPT = 512
#: Pages read ahead that are still worth rendering when their turn comes.
PREFETCH_KEPT = 6


class PageKey(NamedTuple):
    """One page of one kept PDF, rendered so many pixels wide."""

    sha256: str
    page: int  # 0-based
    width: int


@dataclass(frozen=True)
class PdfSource:
    """Where a PDF's bytes are: the kept file of ``document_id`` in the gold set at ``path``."""

    path: Path
    document_id: int
    sha256: str


@dataclass(frozen=True)
class PageImage:
    """A rendered page: its pixels, its stored text and how long the render took."""

    key: PageKey
    image: QImage
    text: str
    milliseconds: float


Fraction = tuple[float, float, float, float]
RectsKey = tuple[str, int, int, int]  # sha256, page index, start, end (page text offsets)


class PageRenderer(QObject):
    """Renders PDF pages and answers geometry questions for every page view of a window.

    Signals (on the GUI thread):
        page_ready(PageImage): a page was rendered (cached; views check they want it).
        rects_ready(): rectangles asked for are known (views ask :meth:`rects` again).
        hit_ready(int, object): (ticket, stored offset or None) of a point asked with
            :meth:`hit`.
        failed(str, str): (sha256, message) a PDF could not be opened or rendered.
    """

    page_ready = Signal(object)
    rects_ready = Signal()
    hit_ready = Signal(int, object)
    failed = Signal(str, str)
    _rendered = Signal(object)
    _skipped = Signal(object)
    _measured = Signal(object)
    _hit = Signal(int, object)
    _failed = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: SerialWorker | None = None
        self._pdf: object | None = None  # PdfPages, made on the worker's first job
        self._images: OrderedDict[PageKey, PageImage] = OrderedDict()
        self._image_bytes = 0
        self._rects: OrderedDict[RectsKey, list[Fraction]] = OrderedDict()
        self._asked_rects: set[RectsKey] = set()
        self._wanted: dict[int, PageKey] = {}  # view id -> the page it shows
        self._prefetch: deque[PageKey] = deque(maxlen=PREFETCH_KEPT)
        self._queued: set[PageKey] = set()
        self._sources: dict[PageKey, PdfSource] = {}  # of the pages queued
        # What the worker may still render: replaced whole (never changed in place) on the
        # GUI thread, so the worker reads one consistent set.
        self._live: frozenset[PageKey] = frozenset()
        self.broken: dict[str, str] = {}  # sha256 -> why it cannot be shown
        self.first_render_logged = False
        self._tickets = 0
        self._rendered.connect(self._store_image, Qt.ConnectionType.QueuedConnection)
        self._skipped.connect(self._unqueue, Qt.ConnectionType.QueuedConnection)
        self._measured.connect(self._store_rects, Qt.ConnectionType.QueuedConnection)
        self._hit.connect(self.hit_ready, Qt.ConnectionType.QueuedConnection)
        self._failed.connect(self._store_failure, Qt.ConnectionType.QueuedConnection)

    # -- asking --------------------------------------------------------------------------------
    def image(self, key: PageKey) -> PageImage | None:
        """The page if it is rendered (no work started)."""
        found = self._images.get(key)
        if found is not None:
            self._images.move_to_end(key)
        return found

    def request(self, view: int, source: PdfSource, key: PageKey) -> PageImage | None:
        """The page ``view`` shows now: returned when cached, else rendered in the
        background (``page_ready`` then brings it).  Replaces what ``view`` wanted before."""
        self._wanted[view] = key
        self._update_live()
        return self._ask(source, key)

    def prefetch(self, source: PdfSource, key: PageKey) -> None:
        """Render a page a view is likely to show next (kept while few are asked)."""
        if key in self._images or source.sha256 in self.broken:
            return
        if key not in self._prefetch:
            self._prefetch.append(key)
            self._update_live()
        self._ask(source, key)

    def forget_view(self, view: int) -> None:
        """``view`` shows no page any more: its page is no longer worth rendering."""
        self._wanted.pop(view, None)
        self._update_live()

    def rects(self, source: PdfSource, index: int, spans: list[tuple[int, int]]
              ) -> dict[tuple[int, int], list[Fraction]]:
        """The known rectangles of ``spans`` (page text offsets) on page ``index``; those
        not known yet are asked for (``rects_ready`` says when they are)."""
        known: dict[tuple[int, int], list[Fraction]] = {}
        missing = []
        for span in spans:
            key = (source.sha256, index, span[0], span[1])
            found = self._rects.get(key)
            if found is not None:
                known[span] = found
            elif key not in self._asked_rects:
                self._asked_rects.add(key)
                missing.append(span)
        if missing and source.sha256 not in self.broken:
            self._submit(self._measure_job, source, index, missing)
        return known

    def next_ticket(self) -> int:
        """A number no other question to :meth:`hit` carries (views tell their answers)."""
        self._tickets += 1
        return self._tickets

    def hit(self, source: PdfSource, index: int, fx: float, fy: float, ticket: int) -> None:
        """Find the stored offset at page fraction ``(fx, fy)``; ``hit_ready(ticket, …)``."""
        if source.sha256 not in self.broken:
            self._submit(self._hit_job, source, index, fx, fy, ticket)

    def close(self) -> None:
        """Stop the worker (the running job ends first) and close the PDFs it opened."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.shutdown()
        pdf, self._pdf = self._pdf, None
        if pdf is not None:
            from rag_annotator.import_export.documents.pdf_layer import PDFIUM_LOCK

            with PDFIUM_LOCK:
                pdf.close()  # type: ignore[attr-defined]

    # -- internals (GUI thread) ----------------------------------------------------------------
    def _ask(self, source: PdfSource, key: PageKey) -> PageImage | None:
        found = self.image(key)
        if found is not None or source.sha256 in self.broken or key in self._queued:
            return found
        self._queued.add(key)
        self._sources[key] = source
        self._submit(self._render_job, source, key)
        return None

    def _submit(self, job: Callable[..., None], *args: object) -> None:
        if self._worker is None:
            self._worker = SerialWorker("page-renderer")
        self._worker.submit(_window_first, job, *args)

    def _update_live(self) -> None:
        self._live = frozenset((*self._wanted.values(), *self._prefetch))

    def _unqueue(self, key: PageKey) -> None:
        """The worker skipped ``key`` (nobody wanted it then); wanted again meanwhile, it is
        asked for again."""
        self._queued.discard(key)
        source = self._sources.pop(key, None)
        if source is not None and key in self._live:
            self._ask(source, key)

    def _store_image(self, page: PageImage) -> None:
        self._queued.discard(page.key)
        self._sources.pop(page.key, None)
        old = self._images.pop(page.key, None)
        if old is not None:
            self._image_bytes -= old.image.sizeInBytes()
        self._images[page.key] = page
        self._image_bytes += page.image.sizeInBytes()
        while self._image_bytes > IMAGE_BUDGET and len(self._images) > 1:
            _key, dropped = self._images.popitem(last=False)
            self._image_bytes -= dropped.image.sizeInBytes()
        if not self.first_render_logged:
            self.first_render_logged = True
            log.info("page view: first PDF page rendered (%d x %d px) in %.0f ms",
                     page.image.width(), page.image.height(), page.milliseconds)
        self.page_ready.emit(page)

    def _store_rects(self, found: dict[RectsKey, list[Fraction]]) -> None:
        for key, rects in found.items():
            self._asked_rects.discard(key)
            self._rects[key] = rects
        while len(self._rects) > RECTS_KEPT:
            self._rects.popitem(last=False)
        self.rects_ready.emit()

    def _store_failure(self, sha256: str, message: str) -> None:
        self.broken[sha256] = message
        for key in [k for k in self._queued if k.sha256 == sha256]:
            self._queued.discard(key)
            self._sources.pop(key, None)
        log.warning("page view: %s", message)
        self.failed.emit(sha256, message)

    # -- jobs (the worker's thread) ------------------------------------------------------------
    def _pages(self, source: PdfSource) -> object | None:
        """The open PDFs, ``source``'s opened (None when it cannot be: reported)."""
        from rag_annotator.ui.pages.pdf_pages import PdfPages

        if self._pdf is None:
            self._pdf = PdfPages()
        pdf = self._pdf
        assert isinstance(pdf, PdfPages)
        if pdf.has(source.sha256):
            return pdf
        try:
            data = _read_file(source)
            pdf.open(source.sha256, data)
        except Exception as error:  # a damaged or missing file: said, never a crash
            self._failed.emit(source.sha256, _describe(source, error))
            return None
        return pdf

    def _render_job(self, source: PdfSource, key: PageKey) -> None:
        from rag_annotator.import_export.documents.pdf_layer import PDFIUM_LOCK

        if key not in self._live:  # no view wants it any more: not worth the time
            self._skipped.emit(key)
            return
        started = time.perf_counter()
        with PDFIUM_LOCK:
            pdf = self._pages(source)
            if pdf is None:
                return
            try:
                image, text = pdf.render(key.sha256, key.page, key.width)  # type: ignore[attr-defined]
            except Exception as error:
                self._failed.emit(source.sha256, _describe(source, error))
                return
        self._rendered.emit(PageImage(key, image, text,
                                      (time.perf_counter() - started) * 1000))

    def _measure_job(self, source: PdfSource, index: int, spans: list[tuple[int, int]]
                     ) -> None:
        from rag_annotator.import_export.documents.pdf_layer import PDFIUM_LOCK

        with PDFIUM_LOCK:
            pdf = self._pages(source)
            if pdf is None:
                return
            try:
                found = pdf.rects(source.sha256, index, spans)  # type: ignore[attr-defined]
            except Exception as error:
                self._failed.emit(source.sha256, _describe(source, error))
                return
        self._measured.emit({(source.sha256, index, s, e): rects
                             for (s, e), rects in zip(spans, found)})

    def _hit_job(self, source: PdfSource, index: int, fx: float, fy: float,
                 ticket: int) -> None:
        from rag_annotator.import_export.documents.pdf_layer import PDFIUM_LOCK

        with PDFIUM_LOCK:
            pdf = self._pages(source)
            offset = None
            if pdf is not None:
                try:
                    offset = pdf.offset_at(source.sha256, index, fx, fy)  # type: ignore[attr-defined]
                except Exception as error:
                    self._failed.emit(source.sha256, _describe(source, error))
        self._hit.emit(ticket, offset)


def _window_first(job: Callable[..., None], *args: object) -> None:
    """Run a job with the GIL handed back to the window's thread quickly: between PDFium's
    calls the job runs Python, and a key's code waited up to the interpreter's 5 ms switch
    interval for it (the import workers' rule)."""
    with window_first():
        job(*args)


def _read_file(source: PdfSource) -> bytes:
    """The kept file's bytes, read on this thread's own read-only connection, checked
    against the hash the view asked for."""
    from rag_annotator.storage.store import GoldSetStore

    with GoldSetStore.open(source.path, read_only=True, verify="skip") as reader:
        kept = reader.document_file(source.document_id)
    if kept is None or hashlib.sha256(kept.data).hexdigest() != source.sha256:
        raise LookupError("the kept file is no longer in the gold set")
    return kept.data


def _describe(source: PdfSource, error: BaseException) -> str:
    return (f"the PDF of document {source.document_id} cannot be shown as pages "
            f"({type(error).__name__}: {error})")
