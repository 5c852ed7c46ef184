"""Commands and shortcuts of a document shown to judge or verify (the Judge section's
document, Verify's context, the Corpus reader, the expected-source dialog).

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut).  Each place that shows a document installs these commands on its
own widgets, so the same key does the same thing wherever a document is shown.

===============  ====================================================================
PgDown / PgUp    next / previous page of the document (in the text: to that page's start)
F7               the page (a PDF, rendered) or the text (with its headings)
Shift+arrows     on the page: select whole words (Shift+Right / Left: a word more or
                 less, Shift+Down / Up: to the next or previous line); the arrows alone
                 move the word cursor, Esc drops the selection
===============  ====================================================================

F7 is free in every section (F1 is the guide, F2 edits, F6 moves Verify's focus); PgDown
and PgUp turn pages even while a list has the keyboard, as they do in a document reader.
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP


def _spec(action_id: str, label: str, *keys: str) -> ActionSpec:
    return ActionSpec(f"document.{action_id}", label, keys, "document")


SPECS: tuple[ActionSpec, ...] = (
    _spec("next_page", QT_TRANSLATE_NOOP("actions", "Next page of the document"), "PgDown"),
    _spec("previous_page", QT_TRANSLATE_NOOP("actions", "Previous page of the document"),
          "PgUp"),
    _spec("page_or_text", QT_TRANSLATE_NOOP(
        "actions", "Show the document's page or its text"), "F7"),
    _spec("select_words", QT_TRANSLATE_NOOP(
        "actions", "On the page: select words (a word more or less, a line down or up)"),
          "Shift+Right", "Shift+Left", "Shift+Down", "Shift+Up"),
)

#: The commands a place showing a document installs (the selection keys live on the page).
VIEWER_ACTIONS = ("document.next_page", "document.previous_page", "document.page_or_text")

__all__ = ["QT_TRANSLATE_NOOP", "SPECS", "VIEWER_ACTIONS"]
