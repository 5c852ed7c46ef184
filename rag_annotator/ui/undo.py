"""Undo and redo on top of the file's history (DESIGN section 3).

Every change is a domain operation that commits at once and writes before/after images into
the history; undo is ``store.revert(op, action="undo")`` and redo reverts that undo.  A
QUndoStack keeps the session's order and the menu texts, but it must never get ahead of the
file: a revert can be refused (Conflict: someone changed the same rows since).  So
:class:`UndoController` performs the revert first and moves the stack only once it succeeded;
the command's own ``redo``/``undo`` then skip the work already done.  Operations likewise run
before their command is pushed, and the command's first ``redo`` (called by ``push``) is a
no-op.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QWidget

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import KnownError
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.hub import Hub

Operation = Callable[[GoldSetStore], Changes]


class OperationCommand(QUndoCommand):
    """One committed operation on the undo stack.

    Attributes:
        applied_id: the operation whose effect is in the file now: the original, then the
            undo operation after an undo, then the redo operation after a redo…
    """

    def __init__(self, controller: UndoController, changes: Changes) -> None:
        super().__init__(labels.command_text(changes.action, changes.label))
        assert changes.operation_id, "only logged operations can be undone"
        self.applied_id: int = changes.operation_id
        self.undone = False
        self._controller = controller
        self._skip_next = True  # push() calls redo(); the operation has already run

    def redo(self) -> None:
        if self._skip_next:
            self._skip_next = False
            return
        self._controller.replay(self, "redo")

    def undo(self) -> None:
        if self._skip_next:
            self._skip_next = False
            return
        self._controller.replay(self, "undo")

    def skip_next(self) -> None:
        """The controller already did the work of the next redo()/undo()."""
        self._skip_next = True


class UndoController(QObject):
    """Runs operations, keeps the undo stack in step with the file, announces changes."""

    def __init__(self, hub: Hub, parent_widget: Callable[[], QWidget | None],
                 ask_name: Callable[[], bool] | None = None) -> None:
        super().__init__(hub)
        self.hub = hub
        self.stack = QUndoStack(self)
        self._parent_widget = parent_widget
        self._ask_name = ask_name
        hub.store_replaced.connect(lambda _store: self.stack.clear())

    def run(self, operation: Operation) -> Changes | None:
        """Run an operation on the open file; on success push it and announce its changes.

        A KnownError is shown as a message and None returned; nothing else happens.  Every
        operation records who made it: while the session has no name yet, ``ask_name`` asks
        for it first (the first start asks nothing), and nothing runs without one.
        """
        store = self.hub.store
        if store is None or not self.ensure_name():
            return None
        try:
            changes = operation(store)
        except KnownError as error:
            from rag_annotator.ui.errors import show_known_error  # on error only

            show_known_error(self._parent_widget(), error)
            return None
        if changes.empty:
            return changes
        if changes.operation_id:
            self.stack.push(OperationCommand(self, changes))
        self.hub.changes_applied.emit(changes)
        return changes

    def ensure_name(self) -> bool:
        """Whether the session has a name to record with a change, asking for it first when
        it has none (imports and team jobs, which write on a worker thread, ask here too);
        True for a read-only file, which no change reaches anyway."""
        store = self.hub.store
        if store is None or store.assessor or store.read_only or self._ask_name is None:
            return True
        return self._ask_name() and bool(store.assessor)

    def undo(self) -> bool:
        """Undo the last operation of the session; False (with a message) when refused."""
        if not self.stack.canUndo():
            return False
        command = self.stack.command(self.stack.index() - 1)
        assert isinstance(command, OperationCommand)
        changes = self._revert(command, "undo")
        if changes is None:
            return False
        command.skip_next()
        self.stack.undo()
        self.hub.changes_applied.emit(changes)
        return True

    def redo(self) -> bool:
        """Redo the last undone operation; False (with a message) when refused."""
        if not self.stack.canRedo():
            return False
        command = self.stack.command(self.stack.index())
        assert isinstance(command, OperationCommand)
        changes = self._revert(command, "redo")
        if changes is None:
            return False
        command.skip_next()
        self.stack.redo()
        self.hub.changes_applied.emit(changes)
        return True

    def replay(self, command: OperationCommand, action: str) -> None:
        """For QUndoStack.undo()/redo() called directly (e.g. by a QUndoView)."""
        changes = self._revert(command, action)
        if changes is not None:
            self.hub.changes_applied.emit(changes)

    def _revert(self, command: OperationCommand, action: str) -> Changes | None:
        store = self.hub.store
        if store is None:
            return None
        try:
            changes = store.revert(command.applied_id, action=action)
        except KnownError as error:
            from rag_annotator.ui.errors import show_known_error  # on error only

            show_known_error(self._parent_widget(), error)
            return None
        command.applied_id = changes.operation_id or command.applied_id
        command.undone = action == "undo"
        return changes
