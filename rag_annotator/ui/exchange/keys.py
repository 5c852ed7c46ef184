"""Commands and shortcuts of imports and exports (export dialog, format imports).

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut).  The titles of this area's history actions are in the one
registry, ``domain/action_names.py``.
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("file.export", QT_TRANSLATE_NOOP("actions", "Export…"), ("Ctrl+E",), "file"),
)

__all__ = ["QT_TRANSLATE_NOOP", "SPECS"]
