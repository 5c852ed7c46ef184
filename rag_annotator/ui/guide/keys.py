"""The guide's command: F1 opens the page of the section on screen.

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut).  F1 was the cheat sheet's second key; the cheat sheet keeps ``?``
and the guide's pages say where it is.
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("help.guide", QT_TRANSLATE_NOOP("actions", "Guide (This Section’s Page)"),
               ("F1",), "help"),
)
