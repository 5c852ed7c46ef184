"""The action registry: every command of the app declared once (id, label, shortcut, section).

Menus, the judging panel and the keyboard cheat sheet are all built from :data:`REGISTRY`, so
a shortcut cannot exist without being listed, nor be listed without existing.  Labels are
English source texts of the ``actions`` translation context, translated when the QAction is
made.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

from rag_annotator.ui.action_spec import SECTIONS, ActionSpec
from rag_annotator.ui.agents import keys as keys_agents
from rag_annotator.ui.dashboard import keys as keys_dashboard
from rag_annotator.ui.exchange import keys as keys_exchange
from rag_annotator.ui.goldset import keys as keys_goldset
from rag_annotator.ui.guide import keys as keys_guide
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP
from rag_annotator.ui.judge import keys as keys_judge
from rag_annotator.ui.look import keys as keys_look
from rag_annotator.ui.pages import keys as keys_pages
from rag_annotator.ui.team import keys as keys_team
from rag_annotator.ui.verify import keys as keys_verify

_CORE: tuple[ActionSpec, ...] = (
    ActionSpec("file.new", QT_TRANSLATE_NOOP("actions", "New Gold Set…"), ("Ctrl+N",)),
    ActionSpec("file.open", QT_TRANSLATE_NOOP("actions", "Open…"), ("Ctrl+O",)),
    ActionSpec("file.save_copy", QT_TRANSLATE_NOOP("actions", "Save a Copy…"),
               ("Ctrl+Shift+S",)),
    ActionSpec("file.merge", QT_TRANSLATE_NOOP("actions", "Merge a Colleague’s File…"), ()),
    ActionSpec("file.restore", QT_TRANSLATE_NOOP("actions", "Restore from Backup…"), ()),
    ActionSpec("file.close", QT_TRANSLATE_NOOP("actions", "Close"), ("Ctrl+W",)),
    ActionSpec("file.quit", QT_TRANSLATE_NOOP("actions", "Quit"), ("Ctrl+Q",)),
    ActionSpec("edit.undo", QT_TRANSLATE_NOOP("actions", "Undo"), ("Ctrl+Z",), "edit"),
    ActionSpec("edit.redo", QT_TRANSLATE_NOOP("actions", "Redo"), ("Ctrl+Shift+Z", "Ctrl+Y"),
               "edit"),
    ActionSpec("edit.find", QT_TRANSLATE_NOOP("actions", "Find in This Section"), ("Ctrl+F",),
               "edit"),
    ActionSpec("edit.guidelines", QT_TRANSLATE_NOOP("actions", "Judging Guidelines…"), (),
               "edit"),
    ActionSpec("go.goldset", QT_TRANSLATE_NOOP("actions", "Gold Set"), ("Ctrl+1",), "go"),
    ActionSpec("go.corpus", QT_TRANSLATE_NOOP("actions", "Corpus"), ("Ctrl+2",), "go"),
    ActionSpec("go.runs", QT_TRANSLATE_NOOP("actions", "Runs"), ("Ctrl+3",), "go"),
    ActionSpec("go.judge", QT_TRANSLATE_NOOP("actions", "Judge"), ("Ctrl+4",), "go"),
    ActionSpec("go.verify", QT_TRANSLATE_NOOP("actions", "Verify"), ("Ctrl+5",), "go"),
    ActionSpec("go.dashboard", QT_TRANSLATE_NOOP("actions", "Dashboard"), ("Ctrl+6",), "go"),
    ActionSpec("go.history", QT_TRANSLATE_NOOP("actions", "History"), ("Ctrl+7",), "go"),
    ActionSpec("go.agents", QT_TRANSLATE_NOOP("actions", "Agents"), ("Ctrl+8",), "go"),
    ActionSpec("settings.language.system", QT_TRANSLATE_NOOP("actions", "System Language"),
               (), "settings", checkable=True),
    ActionSpec("settings.language.fr", QT_TRANSLATE_NOOP("actions", "Français"), (), "settings",
               checkable=True),
    ActionSpec("settings.language.en", QT_TRANSLATE_NOOP("actions", "English"), (), "settings",
               checkable=True),
    ActionSpec("settings.assessor", QT_TRANSLATE_NOOP("actions", "Assessor Name…"), (),
               "settings"),
    ActionSpec("help.shortcuts", QT_TRANSLATE_NOOP("actions", "Keyboard Shortcuts"),
               ("?",), "help"),
    ActionSpec("help.about", QT_TRANSLATE_NOOP("actions", "About rag-annotator"), (), "help"),
)

REGISTRY: tuple[ActionSpec, ...] = (
    *_CORE, *keys_judge.SPECS, *keys_goldset.SPECS, *keys_verify.SPECS, *keys_dashboard.SPECS,
    *keys_exchange.SPECS, *keys_agents.SPECS, *keys_team.SPECS, *keys_look.SPECS,
    *keys_guide.SPECS, *keys_pages.SPECS)

_BY_ID = {spec.id: spec for spec in REGISTRY}
assert len(_BY_ID) == len(REGISTRY), "duplicate action id"


def tr(text: str) -> str:
    """Translate a source text of the ``actions`` context."""
    return QCoreApplication.translate("actions", text)


def spec(action_id: str) -> ActionSpec:
    """The declaration of one action."""
    return _BY_ID[action_id]


def ids_in(section: str) -> list[str]:
    """The ids of a section's actions, in declaration order."""
    return [s.id for s in REGISTRY if s.section == section]


def shortcut_text(action: ActionSpec) -> str:
    """The shortcuts as the user's platform and language write them ("Ctrl+Maj+Z")."""
    return ", ".join(QKeySequence(s).toString(QKeySequence.SequenceFormat.NativeText)
                     for s in action.shortcuts)


def make_action(action_id: str, parent: QObject,
                context: Qt.ShortcutContext = Qt.ShortcutContext.WindowShortcut) -> QAction:
    """A QAction for a registered command (label translated, shortcuts set)."""
    declared = _BY_ID[action_id]
    action = QAction(tr(declared.label), parent)
    action.setObjectName(declared.id)
    action.setShortcuts([QKeySequence(s) for s in declared.shortcuts])
    action.setShortcutContext(context)
    action.setCheckable(declared.checkable)
    if declared.shortcuts:
        action.setToolTip(f"{tr(declared.label)} ({shortcut_text(declared)})")
    return action


def make_actions(action_ids: Iterable[str], parent: QObject,
                 context: Qt.ShortcutContext = Qt.ShortcutContext.WindowShortcut
                 ) -> dict[str, QAction]:
    """QActions for several commands, by id."""
    return {i: make_action(i, parent, context) for i in action_ids}


def cheat_sheet() -> list[tuple[str, list[tuple[str, str]]]]:
    """(section title, [(label, shortcuts)]) for every registered command, in order."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    for key, title in SECTIONS.items():
        rows = [(tr(s.label), shortcut_text(s)) for s in REGISTRY if s.section == key]
        if rows:
            out.append((tr(title), rows))
    return out
