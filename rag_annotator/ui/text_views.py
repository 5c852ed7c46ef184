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

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractScrollArea, QPlainTextEdit, QTextEdit

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
