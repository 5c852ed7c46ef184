"""The one place changes are announced (the context every section shares is ``context.py``).

DESIGN section 2: a user action becomes a domain operation, which returns a ``Changes``; the
undo controller emits it once on :attr:`Hub.changes_applied` and each view decides for
itself whether it cares (``Changes.touches`` / ``Changes.reshapes``).  No view calls another
view to refresh it, so adding a view never means editing the others.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from rag_annotator.storage.store import GoldSetStore


class Hub(QObject):
    """Holds the open store and broadcasts what changed in it.

    Signals:
        changes_applied(Changes): after every committed operation, undo, redo or revert.
        store_replaced(GoldSetStore | None): a file was opened or closed.
        assessor_changed(str): the session's assessor name changed.
    """

    changes_applied = Signal(object)
    store_replaced = Signal(object)
    assessor_changed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store: GoldSetStore | None = None

    def set_store(self, store: GoldSetStore | None) -> None:
        """Make ``store`` the open file (the caller closes the previous one)."""
        self.store = store
        self.store_replaced.emit(store)

    def set_assessor(self, name: str) -> None:
        """Record ``name`` with every later operation of this session."""
        if self.store is not None:
            self.store.assessor = name
        self.assessor_changed.emit(name)
