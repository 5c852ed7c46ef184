"""Files the system asks the app to open (macOS: double-click in the Finder, "Open With").

On macOS a double-clicked ``.goldset`` does not arrive on the command line: the system starts
the app (or reuses the running one) and sends it a :class:`QFileOpenEvent`.  On Linux and
Windows the file comes as ``argv[1]`` (the ``.desktop`` file's ``%f``, the ProgID's ``"%1"``),
so this filter never fires there.  Install it once the main window exists::

    file_open = install_file_open_handler(app, window.open_file)

Paths that arrive before a handler is ready (macOS may send the event while the app is still
starting) are kept and handed over by :meth:`FileOpenFilter.set_handler`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QFileOpenEvent

Handler = Callable[[Path], object]


def opened_path(event: QEvent) -> Path | None:
    """The local file a :class:`QFileOpenEvent` asks for (None: another event, or a URL
    that is not a local file)."""
    if event.type() != QEvent.Type.FileOpen or not isinstance(event, QFileOpenEvent):
        return None
    name = event.file() or event.url().toLocalFile()
    return Path(name) if name else None


class FileOpenFilter(QObject):
    """An application-wide event filter that hands each requested file to a handler."""

    def __init__(self, handler: Handler | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._handler = handler
        self.pending: list[Path] = []

    def set_handler(self, handler: Handler) -> None:
        """Use ``handler`` from now on, first for the paths that arrived without one."""
        self._handler = handler
        waiting, self.pending = self.pending, []
        for path in waiting:
            handler(path)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        path = opened_path(event)
        if path is None:
            return super().eventFilter(watched, event)
        if self._handler is None:
            self.pending.append(path)
        else:
            self._handler(path)
        return True


def install_file_open_handler(app: QCoreApplication,
                              handler: Handler | None = None) -> FileOpenFilter:
    """Install the filter on ``app`` (parented to it, so it lives as long as the app)."""
    file_filter = FileOpenFilter(handler, app)
    app.installEventFilter(file_filter)
    return file_filter
