"""A PDF page as the expert knows it: the rendered page, the passage in question
highlighted on it, and whole words selected on it with the mouse or the keyboard.

The view paints a :class:`~rag_annotator.ui.pages.render.PageImage` the width of its
viewport (scrolling down a page taller than the view) and draws three kinds of marks over
it, each told by more than its colour: the *passage* (the retrieved chunk, the expected
passage: a yellow fill and a bar in the margin), *evidence* spans (a blue fill, underlined)
and the *selection* (a fill with a dashed outline).  The word cursor (when the view has the
keyboard) is a thin frame around one word.

Nothing here waits for PDFium: rectangles and the character under the mouse come back from
the renderer's thread (:class:`~rag_annotator.ui.pages.render.PageRenderer`); until they do,
the selection is already known as offsets (what E stores) and is drawn a moment later.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from rag_annotator.ui.look import colours
from rag_annotator.ui.pages.render import Fraction, PageImage, PageKey, PageRenderer, PdfSource
from rag_annotator.ui.pages.words import WordCursor

#: Fills drawn over the page (always a white, printed page: the light variants).
PASSAGE_FILL = "#ffe066"
EVIDENCE_FILL = "#74c0fc"
SELECTION_FILL = "#b197fc"
#: Width (pixels) of the margin bar beside the passage's lines.
BAR = 4
#: Fallback width before the view is laid out.
DEFAULT_WIDTH = 800
#: Widths are rounded down to this step, so a resize by a few pixels reuses the render.
WIDTH_STEP = 16

Span = tuple[int, int]


class PageView(QAbstractScrollArea):
    """One page of a PDF with its marks; word selection by mouse and keyboard.

    Signals:
        selection_changed(): the selected words changed (see :meth:`selection`).
    """

    selection_changed = Signal()

    def __init__(self, renderer: PageRenderer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self.source: PdfSource | None = None
        self.index = 0  # the page shown (0-based)
        self.shown: PageImage | None = None  # what is painted (maybe another page, waiting)
        self.passage: Span | None = None  # page text offsets
        self.evidence: list[Span] = []
        self.words: WordCursor | None = None  # the word cursor and selection
        self._cursor_at = 0  # where the word cursor starts on a fresh page
        self._asked: set[int] = set()  # tickets of this view's questions in flight
        self._press_ticket = -1
        self._dragging = False
        self._hit_next: tuple[float, float] | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setMouseTracking(False)
        self.verticalScrollBar().setSingleStep(24)
        self.horizontalScrollBar().setRange(0, 0)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        renderer.page_ready.connect(self._on_page_ready)
        renderer.rects_ready.connect(self.viewport().update)
        renderer.hit_ready.connect(self._on_hit)
        self._selection_keys()

    def _selection_keys(self) -> None:
        """Shift+arrows: registered commands (listed in the cheat sheet), one action per key,
        working while the page has the keyboard."""
        from PySide6.QtGui import QAction, QKeySequence

        from rag_annotator.ui import actions

        declared = actions.spec("document.select_words")
        moves = {"Shift+Right": lambda: self.move_word(+1, True),
                 "Shift+Left": lambda: self.move_word(-1, True),
                 "Shift+Down": lambda: self.move_line(+1, True),
                 "Shift+Up": lambda: self.move_line(-1, True)}
        for shortcut in declared.shortcuts:
            action = QAction(actions.tr(declared.label), self)
            action.setObjectName(declared.id)
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            action.triggered.connect(moves[shortcut])
            self.addAction(action)

    # -- what to show ---------------------------------------------------------------------------
    def render_width(self) -> int:
        """Pixels across the page is rendered at (device pixels, rounded down a little)."""
        width = self.viewport().width() if self.viewport().width() > 50 else DEFAULT_WIDTH
        width = int(width * self.devicePixelRatioF())
        return max(WIDTH_STEP, width - width % WIDTH_STEP)

    def key(self, index: int | None = None) -> PageKey | None:
        if self.source is None:
            return None
        return PageKey(self.source.sha256, self.index if index is None else index,
                       self.render_width())

    def show_page(self, source: PdfSource, index: int, *, passage: Span | None = None,
                  evidence: list[Span] | None = None, cursor_at: int = 0) -> bool:
        """Show page ``index`` of ``source`` with its marks (page text offsets); True when
        its image is ready now (else it comes from the renderer and the previous image
        stays until then).  ``cursor_at``: where the word cursor starts."""
        same_page = self.source == source and self.index == index
        self.source, self.index = source, index
        self.passage, self.evidence = passage, list(evidence or [])
        if not same_page:
            self.words = None
            self._cursor_at = cursor_at
            self._dragging = False
        key = self.key()
        assert key is not None
        ready = self.renderer.request(id(self), source, key)
        if ready is not None:
            self._take(ready, scroll=not same_page)
        self.viewport().update()
        return ready is not None

    def set_evidence(self, evidence: list[Span]) -> None:
        """Replace the evidence marks (page text offsets)."""
        self.evidence = list(evidence)
        self.viewport().update()

    def clear(self) -> None:
        """Show nothing."""
        self.source, self.shown, self.words = None, None, None
        self.renderer.forget_view(id(self))
        self.viewport().update()

    @property
    def ready(self) -> bool:
        """The page asked for is the one painted."""
        return self.shown is not None and self.shown.key == self.key()

    def page_text(self) -> str | None:
        """The stored text of the page shown (None while it is being rendered)."""
        return self.shown.text if self.ready and self.shown is not None else None

    def selection(self) -> Span | None:
        """The selected words (page text offsets), None when nothing is selected."""
        return self.words.selection() if self.words is not None else None

    def selected_text(self) -> str | None:
        """The words selected, as the page's text has them."""
        selection, text = self.selection(), self.page_text()
        return None if selection is None or text is None else text[selection[0]:selection[1]]

    def prefetch(self, index: int) -> None:
        """Render page ``index`` of the same PDF ahead (PgDown / PgUp then show it at once)."""
        key = self.key(index)
        if key is not None and self.source is not None:
            self.renderer.prefetch(self.source, key)

    # -- keyboard selection ----------------------------------------------------------------------
    def move_word(self, step: int, extend: bool) -> None:
        """Cursor to the next (+1) / previous (-1) word; ``extend`` selects."""
        self._edit(lambda c: c.move(step, extend))

    def move_line(self, step: int, extend: bool) -> None:
        """Cursor to the next (+1) / previous (-1) line; ``extend`` selects."""
        self._edit(lambda c: c.move_line(step, extend))

    def _edit(self, change: Callable[[WordCursor], None]) -> None:
        cursor = self._word_cursor()
        if cursor is None:
            return
        before = cursor.selection()
        change(cursor)
        self._ensure_visible()
        self.viewport().update()
        if cursor.selection() != before:
            self.selection_changed.emit()

    def clear_selection(self) -> bool:
        """Drop the selection (True when there was one)."""
        if self.words is None or self.words.selection() is None:
            return False
        self.words.clear()
        self.viewport().update()
        self.selection_changed.emit()
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = Qt.Key(event.key()), event.modifiers()
        extend = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        moves = {Qt.Key.Key_Right: lambda: self.move_word(+1, extend),
                 Qt.Key.Key_Left: lambda: self.move_word(-1, extend),
                 Qt.Key.Key_Down: lambda: self.move_line(+1, extend),
                 Qt.Key.Key_Up: lambda: self.move_line(-1, extend),
                 Qt.Key.Key_Home: lambda: self._edit(lambda c: c.line_end(False, extend)),
                 Qt.Key.Key_End: lambda: self._edit(lambda c: c.line_end(True, extend))}
        if key in moves and not mods & (Qt.KeyboardModifier.ControlModifier
                                        | Qt.KeyboardModifier.AltModifier):
            moves[key]()
            return
        if key == Qt.Key.Key_Escape and self.clear_selection():
            return
        super().keyPressEvent(event)

    def _word_cursor(self) -> WordCursor | None:
        text = self.page_text()
        if text is None:
            return None
        if self.words is None or self.words.text != text:
            self.words = WordCursor.on(text, self._cursor_at)
        return None if self.words.empty else self.words

    # -- mouse selection -------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.ready:
            self.setFocus(Qt.FocusReason.MouseFocusReason)
            self._dragging = True
            self._hit_next = None
            self._press_ticket = self._ask_hit(event.position(), press=True)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._dragging and event.buttons() & Qt.MouseButton.LeftButton:
            self._ask_hit(event.position())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._dragging and event.button() == Qt.MouseButton.LeftButton:
            self._ask_hit(event.position())
            self._dragging = False
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def _ask_hit(self, point: QPointF, press: bool = False) -> int:
        """Ask the renderer which character is under ``point``.  A drag keeps one question
        in flight: the positions it passes meanwhile wait, and only the last is asked."""
        fraction = self._to_fraction(point)
        if fraction is None or self.source is None:
            return -1
        if self._asked and not press:
            self._hit_next = fraction
            return -1
        return self._send_hit(fraction)

    def _send_hit(self, fraction: tuple[float, float]) -> int:
        assert self.source is not None
        ticket = self.renderer.next_ticket()
        self._asked.add(ticket)
        self.renderer.hit(self.source, self.index, fraction[0], fraction[1], ticket)
        return ticket

    def _on_hit(self, ticket: int, offset: object) -> None:
        if ticket not in self._asked:
            return  # another view's question
        self._asked.discard(ticket)
        cursor = self._word_cursor()
        if cursor is not None and isinstance(offset, int):
            word = cursor.word_at(offset)
            before = cursor.selection()
            if ticket == self._press_ticket:
                cursor.index, cursor.anchor = word, None
            elif cursor.anchor is None and word != cursor.index:
                cursor.select_between(cursor.index, word)
            elif cursor.anchor is not None:
                cursor.index = word
            self.viewport().update()
            if cursor.selection() != before:
                self.selection_changed.emit()
        follow, self._hit_next = self._hit_next, None
        if follow is not None and not self._asked and self.source is not None:
            self._send_hit(follow)

    def focusInEvent(self, event: object) -> None:
        super().focusInEvent(event)  # type: ignore[arg-type]
        self.viewport().update()  # the word cursor shows while the view has the keyboard

    def focusOutEvent(self, event: object) -> None:
        super().focusOutEvent(event)  # type: ignore[arg-type]
        self.viewport().update()

    # -- painting --------------------------------------------------------------------------------
    def _on_page_ready(self, page: PageImage) -> None:
        if page.key == self.key():
            self._take(page, scroll=self.shown is None or self.shown.key != page.key)
        elif self.source is not None and page.key[:2] == (self.source.sha256, self.index):
            key = self.key()
            if key is not None:
                self.renderer.request(id(self), self.source, key)  # resized meanwhile

    def _take(self, page: PageImage, scroll: bool) -> None:
        self.shown = page
        self._update_bars()
        if scroll:
            self._scroll_to_marks()
        self.viewport().update()

    def _image_rect(self) -> QRectF:
        """Where the page is painted in the viewport (device-independent pixels)."""
        if self.shown is None:
            return QRectF()
        ratio = self.devicePixelRatioF()
        width = self.shown.image.width() / ratio
        height = self.shown.image.height() / ratio
        left = max(0.0, (self.viewport().width() - width) / 2)
        return QRectF(left, -self.verticalScrollBar().value(), width, height)

    def _update_bars(self) -> None:
        page = self._image_rect()
        bar = self.verticalScrollBar()
        bar.setRange(0, max(0, int(page.height()) - self.viewport().height()))
        bar.setPageStep(self.viewport().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.source is not None and self.shown is not None \
                and self.shown.key.width != self.render_width():
            self.renderer.request(id(self), self.source, self.key())  # type: ignore[arg-type]
        self._update_bars()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.fillRect(self.viewport().rect(), self.palette().color(QPalette.ColorRole.Mid))
        if self.shown is None:
            return
        target = self._image_rect()
        painter.drawImage(target, self.shown.image)
        if not self.ready:  # the previous page, until the one asked for is rendered
            painter.fillRect(target, QColor(255, 255, 255, 150))
            return
        self._paint_marks(painter, target)

    def _paint_marks(self, painter: QPainter, target: QRectF) -> None:
        spans = ([self.passage] if self.passage else []) + self.evidence
        selection = self.selection()
        if selection is not None:
            spans.append(selection)
        cursor = self.words.cursor_span() if self.words is not None and self.hasFocus() \
            else None
        if cursor is not None:
            spans.append(cursor)
        if not spans or self.source is None:
            return
        known = self.renderer.rects(self.source, self.index, spans)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Multiply)
        if self.passage in known:
            for rect in known[self.passage]:
                box = self._to_view(rect, target)
                painter.fillRect(box, QColor(PASSAGE_FILL))
                painter.fillRect(QRectF(target.left() + 6, box.top(), BAR, box.height()),
                                 QColor(colours.ROLES["text_warning"][0].fg))
        for span in self.evidence:
            for rect in known.get(span, []):
                box = self._to_view(rect, target)
                painter.fillRect(box, QColor(EVIDENCE_FILL))
                painter.fillRect(QRectF(box.left(), box.bottom() - 1.5, box.width(), 1.5),
                                 QColor("#1864ab"))
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        if selection is not None:
            pen = QPen(QColor("#5f3dc4"), 1.2, Qt.PenStyle.DashLine)
            for rect in known.get(selection, []):
                box = self._to_view(rect, target)
                fill = QColor(SELECTION_FILL)
                fill.setAlpha(110)
                painter.fillRect(box, fill)
                painter.setPen(pen)
                painter.drawRect(box)
        if cursor is not None and cursor != selection:
            painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 1.5))
            for rect in known.get(cursor, []):
                painter.drawRect(self._to_view(rect, target).adjusted(-1, -1, 1, 1))

    # -- geometry --------------------------------------------------------------------------------
    @staticmethod
    def _to_view(rect: Fraction, target: QRectF) -> QRectF:
        left, top, right, bottom = rect
        return QRectF(target.left() + left * target.width(),
                      target.top() + top * target.height(),
                      (right - left) * target.width(), (bottom - top) * target.height())

    def _to_fraction(self, point: QPointF) -> tuple[float, float] | None:
        target = self._image_rect()
        if target.isEmpty():
            return None
        fx = (point.x() - target.left()) / target.width()
        fy = (point.y() - target.top()) / target.height()
        return min(max(fx, 0.0), 1.0), min(max(fy, 0.0), 1.0)

    def _scroll_to_marks(self) -> None:
        """A new page: its passage (else the top) in view."""
        bar = self.verticalScrollBar()
        first = None
        if self.passage is not None and self.source is not None:
            known = self.renderer.rects(self.source, self.index, [self.passage])
            rects = known.get(self.passage)
            if rects:
                first = min(r[1] for r in rects)
            else:  # asked for: scroll when they come
                self.renderer.rects_ready.connect(self._scroll_when_known,
                                                  Qt.ConnectionType.SingleShotConnection)
        height = self._image_rect().height()
        bar.setValue(0 if first is None else max(0, int(first * height) - 60))

    def _scroll_when_known(self) -> None:
        if self.ready and self.passage is not None:
            self._scroll_to_marks()

    def _ensure_visible(self) -> None:
        """The word cursor in view after a key moved it."""
        if self.words is None or self.source is None:
            return
        span = self.words.cursor_span()
        if span is None:
            return
        rects = self.renderer.rects(self.source, self.index, [span]).get(span)
        if not rects:
            return
        target = self._image_rect()
        box = self._to_view(rects[0], target)
        bar = self.verticalScrollBar()
        if box.top() < 0:
            bar.setValue(bar.value() + int(box.top()) - 30)
        elif box.bottom() > self.viewport().height():
            bar.setValue(bar.value() + int(box.bottom() - self.viewport().height()) + 30)

