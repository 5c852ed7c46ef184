"""Which folder the experts' assignment files arrive in, per gold-set file.

The folder is a place on this machine (a synced folder, a git working copy), so it is kept in
the user's settings (``Settings.team_folders``, by the file's path), not in the gold set: the
file travels to colleagues whose folders are elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from rag_annotator.settings import Settings
from rag_annotator.ui.hub import Hub


class TeamFolders(QObject):
    """The team folder of the open file.

    Signals:
        changed(): the open file's team folder was set, changed or cleared, or another file
            was opened.
    """

    changed = Signal()

    def __init__(self, hub: Hub, settings: Settings, save: Callable[[], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hub, self._settings, self._save = hub, settings, save
        hub.store_replaced.connect(lambda _store: self.changed.emit())

    def _key(self) -> str | None:
        store = self._hub.store
        return None if store is None else str(store.path)

    def folder(self) -> Path | None:
        """The open file's team folder (None: none chosen, or no file open)."""
        key = self._key()
        text = self._settings.team_folders.get(key, "") if key else ""
        return Path(text) if text else None

    def set_folder(self, folder: Path | None) -> None:
        """Remember ``folder`` for the open file (None forgets it)."""
        key = self._key()
        if key is None:
            return
        if folder is None:
            self._settings.team_folders.pop(key, None)
        else:
            self._settings.team_folders[key] = str(folder)
        self._save()
        self.changed.emit()
