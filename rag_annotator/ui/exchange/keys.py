"""Commands and history-action titles of imports and exports (export dialog, format imports).

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut); ``ACTION_TITLES`` gives the translated titles of this area's
history actions (``labels`` context).
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("file.export", QT_TRANSLATE_NOOP("actions", "Export…"), ("Ctrl+E",), "file"),
)

ACTION_TITLES: dict[str, str] = {
    "import_file": QT_TRANSLATE_NOOP("labels", "Import a file"),
}

__all__ = ["ACTION_TITLES", "QT_TRANSLATE_NOOP", "SPECS"]
