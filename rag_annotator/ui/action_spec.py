"""What an action declaration is, and the cheat sheet's sections (no widgets here).

Each area declares its commands in its wing's ``keys.py`` (``ui/<wing>/keys.py``);
``actions.py`` gathers them into one registry.
"""

from __future__ import annotations

from dataclasses import dataclass

from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class ActionSpec:
    """One command.

    Attributes:
        id: stable identifier ("file.open").
        label: English source text (translated at runtime in the ``actions`` context).
        shortcuts: portable key sequences ("Ctrl+O"), the first one shown in menus.
        section: key of :data:`SECTIONS`, where the cheat sheet lists it.
        checkable: a toggle or one of a group (languages).
    """

    id: str
    label: str
    shortcuts: tuple[str, ...] = ()
    section: str = "file"
    checkable: bool = False


SECTIONS: dict[str, str] = {
    "file": QT_TRANSLATE_NOOP("actions", "File"),
    "edit": QT_TRANSLATE_NOOP("actions", "Edit"),
    "go": QT_TRANSLATE_NOOP("actions", "Go to"),
    "view": QT_TRANSLATE_NOOP("actions", "View"),
    "goldset": QT_TRANSLATE_NOOP("actions", "Gold set section"),
    "judge": QT_TRANSLATE_NOOP("actions", "Judging (Judge section)"),
    "verify": QT_TRANSLATE_NOOP("actions", "Verifying (Verify section)"),
    "document": QT_TRANSLATE_NOOP(
        "actions", "Documents: pages and passages (Judge, Verify, Corpus, expected sources)"),
    "dashboard": QT_TRANSLATE_NOOP("actions", "Dashboard"),
    "agents": QT_TRANSLATE_NOOP("actions", "Reviewing agents (Agents section)"),
    "settings": QT_TRANSLATE_NOOP("actions", "Settings"),
    "help": QT_TRANSLATE_NOOP("actions", "Help"),
}
