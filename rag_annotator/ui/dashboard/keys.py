"""Commands of the Dashboard section (metrics, comparison).

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut).  The Dashboard makes no history actions of its own.
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("dashboard.policy",
               QT_TRANSLATE_NOOP("actions", "Switch the Unjudged-Document Policy"),
               ("Alt+P",), "dashboard"),
)
