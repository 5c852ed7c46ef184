"""Filling a text view without the work Qt does by default (issue 19: a key within a frame).

``setHtml`` / ``setPlainText`` first empty the document: a view whose text needs a vertical
scroll bar hides it, lays the viewport out wider, then shows it again and lays out the new
text a second time — and Fusion repaints the whole scroll bar (several milliseconds on a
panel the height of the window).  :func:`set_html` and :func:`set_plain_text` keep the scroll
bar where it is while the text is replaced (Qt then shows or hides it once, if the new text
needs it or not), and do nothing at all when the view already shows that very text.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractScrollArea, QLabel, QPlainTextEdit, QTextEdit, QWidget

_SHOWN = "_rag_shown_text"  # (document revision, characters, text) last set by this module


def set_html(view: QTextEdit, html: str) -> bool:
    """Show ``html`` in ``view``; False (nothing done) when it already shows exactly it."""
    return _replace(view, html, lambda: view.setHtml(html))


def set_plain_text(view: QPlainTextEdit | QTextEdit, text: str) -> bool:
    """Show ``text`` in ``view``; False (nothing done) when it already shows exactly it."""
    return _replace(view, text, lambda: view.setPlainText(text))


def _replace(view: QPlainTextEdit | QTextEdit, text: str, fill: Callable[[], None]) -> bool:
    document = view.document()
    shown = getattr(view, _SHOWN, None)
    if shown == (document.revision(), document.characterCount(), text):
        return False  # nothing (not even clear()) touched the document since we set it
    keep_bar(view, fill)
    setattr(view, _SHOWN, (document.revision(), document.characterCount(), text))
    return True


def to_qt(text: str, index: int) -> int:
    """A code-point offset into ``text`` as a UTF-16 position."""
    return index + sum(1 for ch in text[:index] if ord(ch) > 0xFFFF)


def from_qt(text: str, position: int) -> int:
    """A UTF-16 position in ``text`` as a code-point offset."""
    units = 0
    for i, ch in enumerate(text):
        if units >= position:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def keep_bar(view: QAbstractScrollArea, change: Callable[[], None]) -> None:
    """Run ``change`` with the vertical scroll bar held visible if it is (no hide and show
    round trip), then let it follow the new content again."""
    bar = view.verticalScrollBar()
    policy = view.verticalScrollBarPolicy()
    if policy != Qt.ScrollBarPolicy.ScrollBarAsNeeded or not bar.isVisible():
        change()
        return
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    try:
        change()
    finally:
        view.setVerticalScrollBarPolicy(policy)


class QuietLabel(QWidget):
    """A word-wrapped label whose new text is laid out again only when it needs another
    height (then the layout is told once); otherwise only the label is repainted.

    The label sits in a widget without a layout, where its geometry requests stop.
    ``wrap=False``: one line, cut at the right edge when too long, and no height-for-width
    (which a layout would pass up: a section in a scroll area then grows to its preferred
    height, and every section of the stack with it).
    """

    def __init__(self, parent: QWidget | None = None, wrap: bool = True) -> None:
        super().__init__(parent)
        self._label = QLabel(self)
        self._label.setWordWrap(wrap)
        self._wrap = wrap
        self._height = -1

    def text(self) -> str:
        return self._label.text()

    def setTextFormat(self, text_format: Qt.TextFormat) -> None:
        self._label.setTextFormat(text_format)

    def setText(self, text: str) -> None:
        if text == self._label.text():
            return  # nothing to lay out nor repaint
        self._label.setText(text)
        self._fit()

    def clear(self) -> None:
        self.setText("")

    def hasHeightForWidth(self) -> bool:
        return self._wrap

    def heightForWidth(self, width: int) -> int:
        return self._label.heightForWidth(width) if self._wrap else -1

    def sizeHint(self) -> QSize:
        return QSize(self._label.sizeHint().width(), max(self._height, 0)
                     or self._label.sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self._label.fontMetrics().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._label.setGeometry(self.rect())
        self._fit()
        super().resizeEvent(event)

    def _fit(self) -> None:
        height = (self._label.heightForWidth(max(self.width(), 1)) if self._wrap
                  else self._label.sizeHint().height())
        if height != self._height:
            self._height = height
            self.updateGeometry()
