"""A document shown to judge or verify: its PDF page with the passage highlighted, or its
text with its headings; the page number and the heading path always said above it.

The sections (Judge, Verify, Corpus, the expected-source dialog) keep filling their text
view as before; :meth:`DocumentViewer.show_structure` then says what the text is — a PDF
document, a passage located in one, a Word file with headings — and the viewer shows the
page when it can (a PDF whose file is kept), else the text.  F7 switches between the two,
PgDown / PgUp turn the pages (in the text: to the next page's start).

A key never waits for a page: while a new document's page renders, its text is shown (the
page replaces it when ready); while another page of the same PDF renders, the previous one
stays, veiled.  The pages next to the one shown are rendered ahead.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPlainTextEdit, QStackedWidget, QVBoxLayout, QWidget

from rag_annotator.domain.layout import PAGE_SEPARATOR, Layout
from rag_annotator.storage.reads_documents import DocumentStructure
from rag_annotator.ui.look import colours
from rag_annotator.ui.pages.headings import StructureHighlighter, heading_lines
from rag_annotator.ui.pages.page_view import PageView
from rag_annotator.ui.pages.render import PageImage, PageRenderer, PdfSource
from rag_annotator.ui.text_views import QuietLabel, from_qt, to_qt

Span = tuple[int, int]
NEIGHBOURS_AFTER_MS = 400  # a page in view this long: the pages beside it rendered ahead


translate = QCoreApplication.translate


class DocumentViewer(QWidget):
    """The text view and the page view of one document, one of them shown, under a header
    saying the page and the heading path.

    Signals:
        selection_changed(): words were selected (or unselected) on the page or in the text.
    """

    selection_changed = Signal()

    def __init__(self, renderer: PageRenderer, text_view: QPlainTextEdit | None = None,
                 highlighter: StructureHighlighter | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self.header = QuietLabel()
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.text_view = text_view if text_view is not None else QPlainTextEdit()
        if text_view is None:
            self.text_view.setReadOnly(True)
        self.highlighter = (highlighter if highlighter is not None
                            else StructureHighlighter(self.text_view.document()))
        self.page_view = PageView(renderer)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.text_view)
        self.stack.addWidget(self.page_view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.header)
        layout.addWidget(self.stack, 1)
        self.prefer_pages = True  # F7 switches (for this view, while the app runs)
        self.structure: DocumentStructure | None = None
        self.path: Path | None = None
        self.page = 1  # 1-based, of the paged document
        self.text_start = 0  # where the document's text starts in the text view
        self._prefix_lines = 0
        self.passage: Span | None = None  # offsets of the paged document's text
        self.evidence: list[Span] = []
        self._neighbours = QTimer(self)
        self._neighbours.setSingleShot(True)
        self._neighbours.timeout.connect(self._render_neighbours)
        self._turned = False  # the last move was a page turn (PgDown / PgUp)
        self.failed = ""  # why the page cannot be shown (said in the header)
        self.mismatch = False  # the page's text differs from the stored one: no selection
        renderer.page_ready.connect(self._on_page_ready)
        renderer.failed.connect(self._on_failed)
        self.page_view.selection_changed.connect(self._on_selection)
        self.text_view.selectionChanged.connect(self.selection_changed)
        self.text_view.cursorPositionChanged.connect(self._text_moved)

    # -- what is shown --------------------------------------------------------------------------
    def show_structure(self, structure: DocumentStructure | None, path: Path | None,
                       text: str, *, prefix: str = "", evidence: list[Span] | None = None,
                       focus: Span | None = None) -> None:
        """The text view now shows ``prefix`` (a title line…) then ``structure``'s
        document's ``text``: show its page when it has one to show, its page number
        and its headings.  ``evidence``: spans of the paged document's text to mark on the
        page.  ``focus``: a span of the document's text to highlight as the passage in
        question (an expected source's); a located passage's own span is highlighted
        anyway."""
        same = (structure is not None and self.structure is not None
                and structure.paged_id == self.structure.paged_id and path == self.path)
        self._turned = False
        self.structure, self.path, self.text_start = structure, path, len(prefix)
        self._prefix_lines = prefix.count("\n")
        self.evidence = list(evidence or [])
        self.passage = structure.span if structure is not None and structure.is_passage \
            else focus
        layout = self.layout_of()
        if self.passage is not None:
            self.page = layout.page_of(self.passage[0]) or 1
        elif not same:
            self.page = 1
        self._style_headings(text)
        self._show()

    def set_pages(self, shown: bool) -> None:
        """Prefer the page (True) or the text (False), as F7 would, and show it."""
        if shown != self.prefer_pages:
            self.prefer_pages = shown
            self._show()

    def set_evidence(self, evidence: list[Span]) -> None:
        """Replace the evidence marks (spans of the paged document's text)."""
        self.evidence = list(evidence)
        if self.showing_pages():
            self.page_view.set_evidence(self._on_page(self.evidence))

    def clear(self) -> None:
        """No document."""
        self.structure = None
        self.page_view.clear()
        self.stack.setCurrentWidget(self.text_view)
        self.header.clear()

    def structure_id(self) -> int | None:
        """The paged document's id (whose text the page's offsets are of)."""
        return self.structure.paged_id if self.structure is not None else None

    def layout_of(self) -> Layout:
        """The paged document's layout (an empty one when nothing is shown)."""
        return self.structure.paged_layout if self.structure is not None else Layout()

    def source(self) -> PdfSource | None:
        """The kept PDF the page view can show (None: not a PDF, or its file not kept)."""
        s = self.structure
        if (s is None or self.path is None or s.file_kind != "pdf" or not s.file_sha256
                or not s.paged_layout.pages or s.file_sha256 in self.renderer.broken):
            return None
        return PdfSource(self.path, s.paged_id, s.file_sha256)

    def can_show_pages(self) -> bool:
        return self.source() is not None

    def showing_pages(self) -> bool:
        return self.stack.currentWidget() is self.page_view

    # -- commands -------------------------------------------------------------------------------
    def connect_commands(self, commands: Mapping[str, QAction]) -> None:
        """Wire the place's PgDown, PgUp and F7 (``keys.VIEWER_ACTIONS``) to this view."""
        commands["document.next_page"].triggered.connect(lambda: self._page_key(+1))
        commands["document.previous_page"].triggered.connect(lambda: self._page_key(-1))
        commands["document.page_or_text"].triggered.connect(self._toggle_key)

    def _page_key(self, step: int) -> None:
        if self.structure is not None and not self.layout_of().pages:
            self.hint(translate("DocumentViewer",
                                "This document has no pages: it came as one text."))
            return
        self.step_page(step)

    def _toggle_key(self) -> None:
        if self.structure is not None and not self.toggle_pages():
            self.hint(translate("DocumentViewer",
                                "Only a PDF document whose file is kept can be shown as "
                                "its pages; this one is shown as its text."))

    def hint(self, text: str) -> None:
        """A passing message: in the window's status bar, else in the header."""
        status = getattr(self.window(), "statusBar", None)
        if callable(status):
            status().showMessage(text, 6000)
        else:
            self.header.setText(colours.coloured_text("text_muted", text))

    def toggle_pages(self) -> bool:
        """F7: the page or the text (False when this document has no page to show)."""
        if not self.can_show_pages():
            return False
        self.prefer_pages = not self.prefer_pages
        self._show()
        shown = self.page_view if self.prefer_pages else self.text_view
        if any(w.hasFocus() for w in (self.text_view, self.page_view)):
            shown.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def step_page(self, step: int) -> bool:
        """PgDown (+1) / PgUp (-1): the next or previous page (False at either end or when
        the document has no pages)."""
        count = self.layout_of().page_count
        target = self.page + step
        if not count or not 1 <= target <= count:
            return False
        self.page = target
        self._turned = True
        if self.showing_pages() or (self.prefer_pages and self.can_show_pages()):
            self._show()
        else:
            self._text_to_page()
            self._update_header()
        return True

    def selected_span(self) -> tuple[int, int, int] | None:
        """``(document id, start, end)`` of the words selected: on the page, offsets of the
        paged document's text; in the text, of the document the text view shows."""
        s = self.structure
        if s is None:
            return None
        if self.showing_pages():
            selection = self.page_view.selection()
            if selection is None or self.mismatch:
                return None
            start = self.layout_of().pages[self.page - 1]
            return s.paged_id, start + selection[0], start + selection[1]
        cursor = self.text_view.textCursor()
        if not cursor.hasSelection():
            return None
        shown = self.text_view.toPlainText()
        first = from_qt(shown, cursor.selectionStart()) - self.text_start
        last = from_qt(shown, cursor.selectionEnd()) - self.text_start
        if last <= 0:
            return None
        return s.document_id, max(first, 0), last

    def prefetch(self, structure: DocumentStructure | None, path: Path | None) -> None:
        """Render ahead the page ``structure`` would open on (the next pair's)."""
        if structure is None or path is None or not self.prefer_pages:
            return
        if (structure.file_kind != "pdf" or not structure.file_sha256
                or not structure.paged_layout.pages):
            return
        page = (structure.paged_layout.page_of(structure.span[0]) or 1
                if structure.is_passage and structure.span else 1)
        key = self.page_view.key(page - 1)
        source = PdfSource(path, structure.paged_id, structure.file_sha256)
        if key is not None:
            key = key._replace(sha256=structure.file_sha256)
        else:
            from rag_annotator.ui.pages.render import PageKey

            key = PageKey(structure.file_sha256, page - 1, self.page_view.render_width())
        self.renderer.prefetch(source, key)

    # -- internals ------------------------------------------------------------------------------
    def _show(self) -> None:
        source = self.source()
        if source is None or not self.prefer_pages:
            self.page_view.clear()
            self.stack.setCurrentWidget(self.text_view)
            self._update_header()
            return
        flipping = self.showing_pages() and self.page_view.source == source
        start = self.layout_of().pages[self.page - 1]
        cursor_at = max(0, self.passage[0] - start) if self._passage_here() and \
            self.passage is not None else 0
        ready = self.page_view.show_page(source, self.page - 1,
                                         passage=self._clip(self.passage),
                                         evidence=self._on_page(self.evidence),
                                         cursor_at=cursor_at)
        if ready:
            self._check_text()
        if ready or flipping:
            self._switch_to(self.page_view)
        else:
            self._switch_to(self.text_view)  # the text until the page is rendered
        if ready:
            self._prefetch_neighbours()
        self._update_header()

    def _switch_to(self, widget: QWidget) -> None:
        if self.stack.currentWidget() is widget:
            return
        had_focus = any(w.hasFocus() for w in (self.text_view, self.page_view))
        self.stack.setCurrentWidget(widget)
        if had_focus:
            widget.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_page_ready(self, page: PageImage) -> None:
        source = self.source()
        if (source is None or not self.prefer_pages or page.key.sha256 != source.sha256
                or page.key.page != self.page - 1):
            return
        if self.page_view.ready:
            self._check_text()
            self._switch_to(self.page_view)
            self._prefetch_neighbours()
            self._update_header()

    def _on_failed(self, sha256: str, _message: str) -> None:
        if self.structure is not None and self.structure.file_sha256 == sha256:
            self.failed = translate("DocumentViewer",
                                    "This PDF cannot be shown as pages (its file is damaged "
                                    "or missing); its text is shown.")
            self._show()

    def _check_text(self) -> None:
        """The page's text (PDFium's, now) must be the stored one, or offsets would not
        name the words seen: selection is refused on a page where they differ."""
        text = self.page_view.page_text()
        layout = self.layout_of()
        if text is None or not layout.pages:
            return
        if self.page < layout.page_count:  # the last page's end is the text's: not known here
            start, end = layout.pages[self.page - 1], layout.pages[self.page]
            self.mismatch = len(text) != end - start - len(PAGE_SEPARATOR)
        else:
            self.mismatch = False

    def _prefetch_neighbours(self) -> None:
        """The pages before and after, rendered ahead once the page has been in view a
        moment (an assessor pressing J past a pair never turns its pages: no work for
        them); at once after PgDown / PgUp, the next turn being likely."""
        self._neighbours.start(0 if self._turned else NEIGHBOURS_AFTER_MS)

    def _render_neighbours(self) -> None:
        count = self.layout_of().page_count
        if not self.showing_pages():
            return
        for target in (self.page + 1, self.page - 1):
            if 1 <= target <= count:
                self.page_view.prefetch(target - 1)

    def _passage_here(self) -> bool:
        return self._clip(self.passage) is not None

    def _page_bounds(self) -> tuple[int, int]:
        layout = self.layout_of()
        start = layout.pages[self.page - 1]
        end = layout.pages[self.page] if self.page < layout.page_count else 1 << 62
        return start, end

    def _clip(self, span: Span | None) -> Span | None:
        """``span`` (paged document offsets) as offsets of the shown page's text."""
        if span is None or not self.layout_of().pages:
            return None
        start, end = self._page_bounds()
        first, last = max(span[0], start), min(span[1], end)
        return (first - start, last - start) if first < last else None

    def _on_page(self, spans: list[Span]) -> list[Span]:
        return [c for c in (self._clip(s) for s in spans) if c is not None]

    def _style_headings(self, text: str) -> None:
        s = self.structure
        lines: dict[int, int] = {}
        if s is not None and not s.is_passage and s.layout.headings:
            lines = heading_lines(text, s.layout.headings, self._prefix_lines)
        self.highlighter.set_headings(lines)

    def _text_to_page(self) -> None:
        """In the text: the cursor to the start of the current page, scrolled to the top."""
        start = self.layout_of().pages[self.page - 1] + self.text_start
        shown = self.text_view.toPlainText()
        cursor = self.text_view.textCursor()
        cursor.setPosition(to_qt(shown, min(start, len(shown))))
        self.text_view.setTextCursor(cursor)
        bar = self.text_view.verticalScrollBar()
        bar.setValue(cursor.block().firstLineNumber())

    def _text_moved(self) -> None:
        if not self.showing_pages() and self.structure is not None \
                and not self.structure.is_passage and self.layout_of().pages:
            shown = self.text_view.toPlainText()
            offset = from_qt(shown, self.text_view.textCursor().position()) - self.text_start
            page = self.layout_of().page_of(max(offset, 0))
            if page is not None and page != self.page:
                self.page = page
                self._update_header()

    def _on_selection(self) -> None:
        self._update_header()
        self.selection_changed.emit()

    def _update_header(self) -> None:
        self.header.setText(header_html(self))


# A heading this close to a page's start (characters: a line or two) is the page's own: the
# page "is in" that section even though its first characters come before the heading's.
TOP_OF_PAGE = 120


def page_top(layout: Layout, page: int) -> int:
    """The offset whose heading path says where page ``page`` is: its start, or a heading
    that opens the page."""
    start = layout.pages[page - 1]
    end = layout.pages[page] if page < layout.page_count else start + TOP_OF_PAGE
    nearby = [h.start for h in layout.headings
              if start <= h.start < min(start + TOP_OF_PAGE, end)]
    return nearby[0] if nearby else start


def header_html(viewer: DocumentViewer) -> str:
    """The line above the document: page n of N, the heading path, the passage's pages, the
    selection's place, and why a page cannot be shown."""
    from html import escape

    s = viewer.structure
    if s is None:
        return ""
    layout = viewer.layout_of()
    parts: list[str] = []
    word = (translate("DocumentViewer", "Slide") if s.paged_kind == "pptx"
            else translate("DocumentViewer", "Page"))
    focus = viewer.passage[0] if viewer.passage is not None else None
    if layout.pages:
        parts.append(f"<b>{escape(word)} {viewer.page}</b> / {layout.page_count}")
        if focus is None or layout.page_of(focus) != viewer.page:
            focus = page_top(layout, viewer.page)
    path = layout.heading_path(focus if focus is not None else 0) if layout.headings else []
    if path:
        parts.append(escape(" › ".join(path)))
    if viewer.passage is not None and layout.pages:
        pages = layout.pages_of(*viewer.passage)
        if pages is not None:
            where = (translate("DocumentViewer", "passage on page %1")
                     .replace("%1", str(pages[0])) if pages[0] == pages[1] else
                     translate("DocumentViewer", "passage on pages %1–%2")
                     .replace("%1", str(pages[0])).replace("%2", str(pages[1])))
            parts.append(colours.coloured("text_warning", "▌" + escape(where)))
    selected = viewer.selected_span() if viewer.showing_pages() else None
    if selected is not None:
        page = layout.page_of(selected[1]) or viewer.page
        parts.append(escape(translate("DocumentViewer", "selected: page %1, characters %2–%3")
                            .replace("%1", str(page)).replace("%2", str(selected[1]))
                            .replace("%3", str(selected[2]))))
    if viewer.mismatch and viewer.showing_pages():
        parts.append(colours.coloured("text_warning", escape(translate(
            "DocumentViewer",
            "this page's text differs from the stored text: select in the text (F7)"))))
    if viewer.failed and viewer.structure is not None and not viewer.can_show_pages() \
            and s.file_kind == "pdf":
        parts.append(colours.coloured("text_bad", "⚠ " + escape(viewer.failed)))
    return " · ".join(parts)


