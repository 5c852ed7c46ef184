"""How errors reach the user (DESIGN section 9: two kinds of error).

A :class:`~rag_annotator.errors.KnownError` (bad input, a file that is not ours, a conflict
on undo) is shown as a short message that says what to do.  Any other exception is a bug:
it is logged and shown in a crash dialog with the traceback and a "Copy details" button, and
the app keeps running (every edit is already committed, so nothing is lost).  Exceptions
from worker threads reach the dialog through a queued signal, on the GUI thread.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import Callable
from types import TracebackType
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from rag_annotator import __version__
from rag_annotator.errors import KnownError
from rag_annotator.messages import render_any
from rag_annotator.ui.look.zoom import monospace

log = logging.getLogger("rag_annotator")


def show_known_error(parent: QWidget | None, error: KnownError | str) -> None:
    """Show a known error's message in a modal warning box."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(QCoreApplication.translate("errors", "rag-annotator"))
    box.setText(QCoreApplication.translate("errors", "This could not be done."))
    box.setInformativeText(render_any(error))  # the window's language
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.exec()


class CrashDialog(QDialog):
    """Shows the details of a bug and lets the user copy them; several bugs pile up here."""

    def __init__(self, details: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Unexpected error"))
        self.resize(720, 420)
        intro = QLabel(self.tr(
            "Something went wrong inside rag-annotator. Your work is safe: every change "
            "already made is saved in the file. Please copy the details below and send them "
            "to whoever supports the application."))
        intro.setWordWrap(True)
        self.details = QPlainTextEdit(details)
        self.details.setReadOnly(True)
        monospace(self.details)  # follows the text zoom
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton(self.tr("Copy details"),
                                             QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)

    def add_details(self, details: str) -> None:
        """Append another report (a bug that repeats must not open a dialog per event)."""
        self.details.appendPlainText("\n" + details)

    def copy_details(self) -> None:
        """Put the details on the clipboard."""
        QGuiApplication.clipboard().setText(self.details.toPlainText())


def format_exception(exc_type: type[BaseException], exc: BaseException,
                     tb: TracebackType | None) -> str:
    """The text shown and copied: versions first, then the traceback."""
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import qVersion

    header = (f"rag-annotator {__version__} · Python {sys.version.split()[0]} · "
              f"Qt {qVersion()} · PySide6 {pyside_version} · {sys.platform}\n")
    return header + "".join(traceback.format_exception(exc_type, exc, tb))


class ErrorReporter(QObject):
    """Routes uncaught exceptions (any thread) to a message or the crash dialog."""

    _report = Signal(str, bool)

    def __init__(self, parent_widget: Callable[[], QWidget | None] = lambda: None) -> None:
        super().__init__()
        self._parent_widget = parent_widget
        self.dialog: CrashDialog | None = None
        self._showing = False
        self._report.connect(self._show, Qt.ConnectionType.QueuedConnection)

    def excepthook(self, exc_type: type[BaseException], exc: BaseException,
                   tb: TracebackType | None) -> None:
        """``sys.excepthook``: also receives exceptions raised in Qt slots."""
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        if isinstance(exc, KnownError):
            self._report.emit(exc.render(), True)
            return
        details = format_exception(exc_type, exc, tb)
        log.error("unexpected error\n%s", details)
        sys.stderr.write(details)
        self._report.emit(details, False)

    def threading_hook(self, args: Any) -> None:
        """``threading.excepthook``: reports from a worker thread, shown on the GUI thread."""
        if args.exc_type is SystemExit:
            return
        self.excepthook(args.exc_type, args.exc_value, args.exc_traceback)

    def _show(self, text: str, known: bool) -> None:
        if self._showing:  # an error while showing an error: do not loop
            sys.stderr.write(text + "\n")
            return
        self._showing = True
        try:
            if known:
                show_known_error(self._parent_widget(), text)
            elif self.dialog is not None and self.dialog.isVisible():
                self.dialog.add_details(text)
            else:
                self.dialog = CrashDialog(text, self._parent_widget())
                self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
                self.dialog.show()
                self.dialog.raise_()
        finally:
            self._showing = False


def install_exception_hooks(parent_widget: Callable[[], QWidget | None] = lambda: None
                            ) -> ErrorReporter:
    """Replace ``sys.excepthook`` and ``threading.excepthook``; keep the returned object."""
    reporter = ErrorReporter(parent_widget)
    sys.excepthook = reporter.excepthook
    threading.excepthook = reporter.threading_hook
    return reporter
