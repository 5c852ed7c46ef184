"""Commands of judging as a team (File → Team): hand out assignment files, collect them back,
choose the folder the experts' files arrive in (the Dashboard's team panel watches it).

No shortcut: each opens a dialog the lead uses once in a while.
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("team.hand_out", QT_TRANSLATE_NOOP("actions", "Hand Out Assignments…"), ()),
    ActionSpec("team.collect", QT_TRANSLATE_NOOP("actions", "Collect…"), ()),
    ActionSpec("team.folder", QT_TRANSLATE_NOOP("actions", "Team Folder…"), ()),
)
