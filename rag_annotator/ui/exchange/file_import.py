"""Importing a file through the format registry from the app: one undoable step, a report.

Used by the Runs section (run formats) and by *File → Import* for the formats that bring a
whole gold set or a corpus with its judgments (JSON, a CSV folder, an Excel workbook, a BEIR
folder, DeepEval goldens).  The import runs in the window's thread, as the CLI's does: the
formats here are read whole anyway, and an import is all or nothing, so nothing is shown
half-done.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from rag_annotator.domain.changes import Changes
from rag_annotator.import_export import registry
from rag_annotator.import_export.registry import Report
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

#: File → Import entries beyond cases, corpus and runs: format → (menu text, folder?, filter).
GOLDSET_FORMATS: dict[str, tuple[str, bool, str]] = {
    "json": (QT_TRANSLATE_NOOP("file_import", "Gold Set from Native JSON…"), False,
             "JSON (*.json)"),
    "csv": (QT_TRANSLATE_NOOP("file_import", "Gold Set from a CSV Folder…"), True, ""),
    "xlsx": (QT_TRANSLATE_NOOP("file_import", "Gold Set from an Excel Workbook…"),
             False, "Excel (*.xlsx)"),
    "beir": (QT_TRANSLATE_NOOP("file_import", "BEIR Folder (corpus, queries, qrels)…"),
             True, ""),
    "deepeval": (QT_TRANSLATE_NOOP("file_import", "DeepEval Goldens…"), False,
                 "JSON (*.json)"),
}


def import_file(ctx: UiContext, parent: QWidget | None, fmt: str, path: Path,
                options: registry.Options | None = None,
                title: str = "") -> Changes | None:
    """Run one import as an undoable operation and show its report; None when refused
    (the error is shown and nothing changed)."""
    importer = registry.importer(fmt)
    chosen = options or registry.Options()
    reports: list[Report] = []

    def run(store: GoldSetStore) -> Changes:
        before = store.newest_operation_id()
        report = importer(store, path, chosen)
        reports.append(report)
        after = store.newest_operation_id()
        if after == before:
            return Changes(None, "import_file", "", {})
        return Changes(after, "import_file", path.name, {"*": {"insert": frozenset()}})

    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        changes = ctx.undo.run(run)
    finally:
        QGuiApplication.restoreOverrideCursor()
    if reports:
        box = QMessageBox(QMessageBox.Icon.Information,
                          title or QCoreApplication.translate("file_import", "Import"),
                          reports[0].summary(), parent=parent)
        if reports[0].warnings:
            box.setDetailedText("\n".join(reports[0].warnings))
        box.open()
    return changes


def ask_and_import(ctx: UiContext, parent: QWidget | None, fmt: str) -> Changes | None:
    """Ask for the file or folder of one of :data:`GOLDSET_FORMATS`, then import it."""
    source, folder, pattern = GOLDSET_FORMATS[fmt]
    text = QCoreApplication.translate("file_import", source)
    if folder:
        chosen = QFileDialog.getExistingDirectory(parent, text)
    else:
        chosen, _ = QFileDialog.getOpenFileName(parent, text, "", pattern)
    if not chosen:
        return None
    return import_file(ctx, parent, fmt, Path(chosen), title=text.rstrip("…"))
