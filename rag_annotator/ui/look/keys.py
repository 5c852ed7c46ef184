"""The View menu's text zoom and appearance: declared here, gathered by ``ui/actions.py``."""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("view.zoom_in", QT_TRANSLATE_NOOP("actions", "Larger Text"), ("Ctrl++", "Ctrl+="),
               "view"),
    ActionSpec("view.zoom_out", QT_TRANSLATE_NOOP("actions", "Smaller Text"), ("Ctrl+-",),
               "view"),
    ActionSpec("view.zoom_reset", QT_TRANSLATE_NOOP("actions", "Normal Text Size"), ("Ctrl+0",),
               "view"),
    ActionSpec("view.appearance.system", QT_TRANSLATE_NOOP("actions", "System Look"), (),
               "view", checkable=True),
    ActionSpec("view.appearance.light", QT_TRANSLATE_NOOP("actions", "Light"), (), "view",
               checkable=True),
    ActionSpec("view.appearance.dark", QT_TRANSLATE_NOOP("actions", "Dark"), (), "view",
               checkable=True),
    ActionSpec("view.appearance.high_contrast", QT_TRANSLATE_NOOP("actions", "High Contrast"),
               (), "view", checkable=True),
)
