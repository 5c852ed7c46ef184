"""What every section is given: the hub, the undo controller, the shared judging counts and
the page renderer every document view of the window shares.

Kept apart from ``hub.py`` so the hub depends on nothing of the UI: the undo controller and the
judging counts use the hub, and the hub knows neither (no ``hub ↔ undo ↔ progress`` cycle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rag_annotator.ui.hub import Hub
from rag_annotator.ui.pages.render import PageRenderer
from rag_annotator.ui.progress import JudgingProgress
from rag_annotator.ui.undo import UndoController

if TYPE_CHECKING:
    from rag_annotator.ui.team.folders import TeamFolders


@dataclass
class UiContext:
    """What a section needs: the hub, the undo controller, the shared judging counts and the
    page renderer (one worker thread for the window's PDF pages)."""

    hub: Hub
    undo: UndoController
    progress: JudgingProgress
    pages: PageRenderer
    team: TeamFolders | None = None  # the open file's team folder (the main window sets it)
