"""Small dialogs: the assessor's name, the keyboard cheat sheet, About."""

from __future__ import annotations

import html
import sqlite3
import sys

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QCoreApplication, Qt, qVersion
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rag_annotator import __version__
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import actions
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP


def ask_assessor(parent: QWidget | None, current: str = "", *, first: bool = False
                 ) -> str | None:
    """Ask the name recorded with this user's judgments; None if cancelled or left empty.

    ``first``: asked by the session's first change, which waits for the answer."""
    prompt = (QCoreApplication.translate(
        "dialogs", "Before this first change: your name or initials, recorded with each of "
        "your judgments, verdicts and changes\n(so several experts' work can be compared and "
        "merged). It is kept for the next times (Settings → Assessor Name…).")
        if first else QCoreApplication.translate(
            "dialogs",
            "Your name or initials, recorded with each of your judgments and verdicts\n"
            "(so several experts' work can be compared and merged):"))
    name, ok = QInputDialog.getText(
        parent, QCoreApplication.translate("dialogs", "Assessor name"), prompt,
        QLineEdit.EchoMode.Normal, current)
    name = " ".join(name.split())
    return name if ok and name else None


class CheatSheetDialog(QDialog):
    """Every registered command with its shortcut, generated from the action registry."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        self.resize(560, 640)
        self.browser = QTextBrowser()
        self.browser.setHtml(cheat_sheet_html())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)


def cheat_sheet_html() -> str:
    """The cheat sheet as an HTML table per section."""
    parts = []
    for title, rows in actions.cheat_sheet():
        parts.append(f"<h3>{html.escape(title)}</h3><table width='100%' cellspacing='0' "
                     "cellpadding='3'>")
        for label, keys in rows:
            parts.append(f"<tr><td>{html.escape(label.replace('&', ''))}</td>"
                         f"<td align='right'><b>{html.escape(keys) or '—'}</b></td></tr>")
        parts.append("</table>")
    return "".join(parts)


def show_about(parent: QWidget | None, store: GoldSetStore | None) -> None:
    """Versions, the open file and its schema version."""
    def tr(text: str) -> str:
        return QCoreApplication.translate("dialogs", text)

    rows = [
        (tr(QT_TRANSLATE_NOOP("dialogs", "Version")), __version__),
        (tr(QT_TRANSLATE_NOOP("dialogs", "File")),
         str(store.path) if store else tr(QT_TRANSLATE_NOOP("dialogs", "none"))),
        (tr(QT_TRANSLATE_NOOP("dialogs", "Schema version")),
         str(store.schema_version) if store else "—"),
        (tr(QT_TRANSLATE_NOOP("dialogs", "Assessor")), store.assessor if store else "—"),
        ("Qt", qVersion()),
        ("PySide6", pyside_version),
        ("Python", sys.version.split()[0]),
        ("SQLite", sqlite3.sqlite_version),
    ]
    table = "".join(f"<tr><td>{html.escape(k)}</td><td><b>{html.escape(v)}</b></td></tr>"
                    for k, v in rows)
    blurb = QCoreApplication.translate(
        "dialogs", "Build, judge and verify the gold set a RAG system is evaluated against. "
        "Works offline: your files never leave this computer.")
    box = QMessageBox(parent)
    box.setWindowTitle(QCoreApplication.translate("dialogs", "About rag-annotator"))
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(f"<h3>rag-annotator</h3><p>{html.escape(blurb)}</p>"
                f"<table cellpadding='2'>{table}</table>")
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.exec()
