"""Bugs open a crash dialog with details to copy (any thread); known errors a short message."""

from __future__ import annotations

import sys
import threading

import pytest
from PySide6.QtWidgets import QApplication

from rag_annotator.errors import Conflict
from rag_annotator.ui.errors import ErrorReporter
from tests.ui.driving import ModalCatcher

pytestmark = pytest.mark.gui


def raise_and_report(reporter: ErrorReporter, error: BaseException) -> None:
    try:
        raise error
    except BaseException:
        reporter.excepthook(*sys.exc_info())  # type: ignore[arg-type]


def test_a_bug_opens_the_crash_dialog_and_details_can_be_copied(qtbot) -> None:
    reporter = ErrorReporter()
    raise_and_report(reporter, ValueError("boom in a slot"))
    qtbot.waitUntil(lambda: reporter.dialog is not None and reporter.dialog.isVisible())
    dialog = reporter.dialog
    assert dialog is not None
    qtbot.addWidget(dialog)
    details = dialog.details.toPlainText()
    assert "ValueError: boom in a slot" in details and "Traceback" in details
    assert dialog.details.isReadOnly()
    dialog.copy_button.click()
    assert QApplication.clipboard().text() == details
    # A second bug while the dialog is open is appended, not a second dialog.
    raise_and_report(reporter, KeyError("again"))
    qtbot.waitUntil(lambda: "KeyError" in dialog.details.toPlainText())
    assert reporter.dialog is dialog
    dialog.close()


def test_a_bug_in_a_worker_thread_reaches_the_dialog_on_the_gui_thread(
        qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    reporter = ErrorReporter()
    monkeypatch.setattr(threading, "excepthook", reporter.threading_hook)

    def work() -> None:
        raise RuntimeError("failed in the background")

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: reporter.dialog is not None and reporter.dialog.isVisible())
    assert reporter.dialog is not None
    qtbot.addWidget(reporter.dialog)
    assert "RuntimeError: failed in the background" in reporter.dialog.details.toPlainText()
    reporter.dialog.close()


def test_an_uncaught_known_error_is_a_short_message(qtbot, modals: ModalCatcher) -> None:
    reporter = ErrorReporter()
    modals.expect()
    raise_and_report(reporter, Conflict("cannot undo: judgments id=3 was changed since."))
    qtbot.waitUntil(lambda: bool(modals.texts))
    assert "cannot undo" in modals.texts[0] and "Traceback" not in modals.texts[0]
    assert reporter.dialog is None
