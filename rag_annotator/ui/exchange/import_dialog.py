"""Import dialogs for cases, corpora and generated test sets: preview, column mapping,
progress and Cancel.

:func:`open_import_dialog` asks for the file (or folder), previews its first rows with the
column each one goes to (recognised French/English headers, else the mapping remembered for
this set of headers, else the user's choice in the combo above each column), then runs the
import on a worker thread with its own connection to the file.  Cancel stops it: the import
is one transaction, so nothing is stored.  The finished import is one entry of the undo
stack.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.cases_import import (
    FIELDS,
    has_question,
    norm,
    recognise_headers,
)
from rag_annotator.import_export.tabular import Table, read_table
from rag_annotator.messages import render_any
from rag_annotator.paths import app_paths, user_folder
from rag_annotator.settings import Settings
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.exchange.file_import import apply_import
from rag_annotator.ui.exchange.store_worker import ImportWorker
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP
from rag_annotator.ui.look import colours

PREVIEW_ROWS = 30

FIELD_TITLES: dict[str, str] = {
    "key": QT_TRANSLATE_NOOP("import", "Id"),
    "question": QT_TRANSLATE_NOOP("import", "Question"),
    "reference_answer": QT_TRANSLATE_NOOP("import", "Reference answer"),
    "sources": QT_TRANSLATE_NOOP("import", "Expected sources"),
    "must_contain": QT_TRANSLATE_NOOP("import", "Must contain"),
    "forbidden": QT_TRANSLATE_NOOP("import", "Must never say"),
    "family": QT_TRANSLATE_NOOP("import", "Family"),
    "tags": QT_TRANSLATE_NOOP("import", "Tags"),
    "variants": QT_TRANSLATE_NOOP("import", "Variants"),
    "expected_behaviour": QT_TRANSLATE_NOOP("import", "Expected behaviour"),
    "difficulty": QT_TRANSLATE_NOOP("import", "Difficulty"),
    "role": QT_TRANSLATE_NOOP("import", "Role"),
    "notes": QT_TRANSLATE_NOOP("import", "Notes"),
    "status": QT_TRANSLATE_NOOP("import", "Status"),
    "author": QT_TRANSLATE_NOOP("import", "Author"),
    "kind": QT_TRANSLATE_NOOP("import", "Kind (RAG or agent)"),
    "expected_state": QT_TRANSLATE_NOOP("import", "Expected final state"),
    "forbidden_tools": QT_TRANSLATE_NOOP("import", "Forbidden tools"),
    "required_tools": QT_TRANSLATE_NOOP("import", "Required tools"),
    "tool_order": QT_TRANSLATE_NOOP("import", "Tool order"),
    "max_steps": QT_TRANSLATE_NOOP("import", "Max steps"),
    "max_tokens": QT_TRANSLATE_NOOP("import", "Max tokens"),
    "max_seconds": QT_TRANSLATE_NOOP("import", "Max seconds"),
    "max_cost": QT_TRANSLATE_NOOP("import", "Max cost"),
    "output_contract": QT_TRANSLATE_NOOP("import", "Output contract (JSON)"),
}



def header_set_key(headers: list[str]) -> str:
    """What identifies a spreadsheet's layout: its normalised headers, in order."""
    return "|".join(norm(h) for h in headers)


def _settings(parent: QWidget | None) -> tuple[Settings, Any]:
    """The main window's settings (so a later save keeps our change), or the file's."""
    widget = parent
    while widget is not None:
        settings = getattr(widget, "settings", None)
        if isinstance(settings, Settings):
            return settings, widget
        widget = widget.parentWidget()
    return Settings.load(app_paths().settings_file), None


def remembered_mapping(parent: QWidget | None, headers: list[str]) -> dict[str, str]:
    """The mapping the user chose last time for this header set (field → header)."""
    settings, _window = _settings(parent)
    saved = settings.column_mappings.get(header_set_key(headers), {})
    if not isinstance(saved, dict):
        return {}
    return {str(k): str(v) for k, v in saved.items() if v in headers and k in FIELDS}


def remember_mapping(parent: QWidget | None, headers: list[str],
                     mapping: dict[str, str]) -> None:
    """Keep the mapping chosen for this header set."""
    settings, window = _settings(parent)
    settings.column_mappings[header_set_key(headers)] = dict(mapping)
    try:
        settings.save(getattr(window, "paths", app_paths()).settings_file)
    except OSError:
        pass  # losing a remembered mapping must never stop an import


class ImportDialog(QDialog):
    """Preview, mapping, then the import with progress and Cancel."""

    def __init__(self, ctx: UiContext, kind: str, source: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx, self.kind, self.source = ctx, kind, source
        self.report: Any = None
        self.error: str | None = None
        self.worker: ImportWorker | None = None
        titles = {"cases": self.tr("Import cases"), "corpus": self.tr("Import a corpus"),
                  "ragas-testset": self.tr("Import a generated test set")}
        self.setWindowTitle(titles.get(kind, kind))
        self.resize(1000, 600)
        self.info = QLabel(str(source))
        self.info.setWordWrap(True)
        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.grid = QTableWidget()
        self.combos: list[QComboBox] = []
        self.progress = QProgressBar()
        self.progress.hide()
        self.outcome = QLabel()
        self.outcome.setWordWrap(True)
        # a folder's import: one line per file (the ones not imported first), selectable
        self.files = QPlainTextEdit()
        self.files.setReadOnly(True)
        self.files.setAccessibleName(self.tr("What the import did with each file"))
        self.files.hide()
        self.import_button = QPushButton(self.tr("Import"))
        self.import_button.setDefault(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.import_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.info)
        layout.addWidget(self.warnings)
        layout.addWidget(self.grid, 1)
        layout.addWidget(self.outcome)
        layout.addWidget(self.files, 1)
        layout.addLayout(buttons)
        self.table: Table | None = None
        self._preview()

    # -- preview and mapping ---------------------------------------------------------------
    def _preview(self) -> None:
        tabular = self.source.is_file() and self.source.suffix.lower() in (
            ".csv", ".tsv", ".txt", ".xlsx", ".xlsm")
        if not tabular:
            self.grid.hide()
            return
        try:
            self.table = read_table(self.source,
                                    accept=has_question if self.kind == "cases" else None)
        except KnownError as error:
            self.warnings.setText(colours.coloured("text_bad", f"⚠ {error.render()}"))
            self.import_button.setEnabled(False)
            self.grid.hide()
            return
        table = self.table
        self.warnings.setText("\n".join(render_any(w) for w in table.warnings))
        rows = table.rows[:PREVIEW_ROWS]
        self.grid.setColumnCount(len(table.headers))
        self.grid.setRowCount(len(rows) + 1)
        self.grid.setVerticalHeaderLabels([self.tr("→ field")] + [str(n) for n, _ in rows])
        self.grid.setHorizontalHeaderLabels(table.headers)
        if self.kind != "cases":
            self.grid.removeRow(0)
            self.grid.setVerticalHeaderLabels([str(n) for n, _ in rows])
        start = 1 if self.kind == "cases" else 0
        for r, (_n, cells) in enumerate(rows):
            for c, cell in enumerate(cells):
                item = QTableWidgetItem(cell if len(cell) < 200 else cell[:199] + "…")
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                self.grid.setItem(r + start, c, item)
        if self.kind == "cases":
            self._mapping_row(table.headers)
        self.grid.resizeColumnsToContents()
        self.info.setText(self.tr("%1 — %2 rows").replace("%1", str(self.source))
                          .replace("%2", str(len(table.rows))))

    def _mapping_row(self, headers: list[str]) -> None:
        remembered = remembered_mapping(self, headers)
        try:
            found = recognise_headers(headers, remembered)
        except KnownError:
            found = recognise_headers(headers)
        by_column = {i: name for name, i in found.items()}
        for c, _header in enumerate(headers):
            combo = QComboBox()
            combo.addItem(self.tr("(ignored)"), "")
            for name in FIELDS:
                combo.addItem(QCoreApplication.translate("import", FIELD_TITLES[name]), name)
            combo.setCurrentIndex(max(combo.findData(by_column.get(c, "")), 0))
            self.grid.setCellWidget(0, c, combo)
            self.combos.append(combo)

    def mapping(self) -> dict[str, str]:
        """Field → header as chosen in the combos (cases only)."""
        if self.table is None or not self.combos:
            return {}
        out: dict[str, str] = {}
        for combo, header in zip(self.combos, self.table.headers):
            name = combo.currentData()
            if name and name not in out:
                out[name] = header
        return out

    def set_field(self, column: int, name: str) -> None:
        """Choose the field of one column (tests, keyboard users)."""
        combo = self.combos[column]
        combo.setCurrentIndex(max(combo.findData(name), 0))

    # -- running -------------------------------------------------------------------------------
    def start(self) -> None:
        """Run the import on a worker thread."""
        store = self.ctx.hub.store
        if store is None or not self.ctx.undo.ensure_name():
            return
        mapping = self.mapping()
        if self.kind == "cases" and self.table is not None:
            if "question" not in mapping:
                self.warnings.setText(self.tr("Choose the column that holds the question."))
                return
            if mapping != {n: self.table.headers[i] for n, i in
                           recognise_headers(self.table.headers).items()}:
                remember_mapping(self, self.table.headers, mapping)
        self.import_button.setEnabled(False)
        self.progress.show()
        self.progress.setRange(0, 0)
        self.worker = ImportWorker(store.path, store.assessor, self.kind, self.source,
                                   registry.Options(mapping=mapping))
        self.worker.progressed.connect(self._progress, Qt.ConnectionType.QueuedConnection)
        self.worker.done.connect(self._finished, Qt.ConnectionType.QueuedConnection)
        self.worker.start()

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def cancel(self) -> None:
        """Stop a running import (nothing is stored) or close the dialog."""
        if self.worker is not None and self.worker.isRunning():
            self.worker.cancelled.set()
            self.cancel_button.setEnabled(False)
            return
        self.reject()

    def _finished(self, report: Any, error: str | None) -> None:
        if self.worker is not None:
            self.worker.wait()
        self.progress.hide()
        self.cancel_button.setEnabled(True)
        self.report, self.error = report, error
        if error is not None:
            self.outcome.setText(colours.coloured("text_bad", f"⚠ {error}"))
            self.import_button.setEnabled(True)
            return
        apply_import(self.ctx, report)  # the import's own Changes: one undoable step
        lines = [self.summary_text(report), *(render_any(w) for w in report.warnings)]
        self.outcome.setText("\n".join(lines))
        file_lines = getattr(report, "file_lines", None)
        if file_lines is not None and report.files:
            self.grid.hide()
            self.files.setPlainText("\n".join(render_any(line) for line in file_lines()))
            self.files.show()
        self.cancel_button.setText(self.tr("Close"))
        self.import_button.hide()

    def summary_text(self, report: Any) -> str:
        """What the import did, in the user's language (warnings stay as the format says)."""
        from rag_annotator.import_export.corpus_import import CorpusImportReport
        from rag_annotator.import_export.ragas_testset import TestsetReport

        parts: list[str] = []
        if isinstance(report, CorpusImportReport):
            parts.append(self.tr("%1 document(s) added, %2 changed, %3 unchanged, %4 "
                                 "disappeared (kept).")
                         .replace("%1", str(len(report.added)))
                         .replace("%2", str(len(report.changed)))
                         .replace("%3", str(report.unchanged))
                         .replace("%4", str(len(report.disappeared))))
            if report.not_imported:
                parts.append(self.tr("%n file(s) not imported: the list below says why.", "",
                                     len(report.not_imported)))
            if report.touched_cases or report.touched_judgments:
                parts.append(self.tr("Changed or disappeared documents touch %1 case(s) (%2) "
                                     "and %3 judgment(s).")
                             .replace("%1", str(len(report.touched_cases)))
                             .replace("%2", ", ".join(report.touched_cases[:10]))
                             .replace("%3", str(report.touched_judgments)))
            return " ".join(parts)
        if isinstance(report, TestsetReport):
            parts.append(self.tr("%n generated case(s) added to the review queue.", "",
                                 report.cases))
            if report.near_duplicates:
                parts.append(self.tr("%n case(s) flagged as near-duplicates.", "",
                                     len(report.near_duplicates)))
        else:
            parts.append(self.tr("%n case(s) imported.", "", report.cases))
            if report.no_answer:
                parts.append(self.tr("%n case(s) expect abstention (the answer is not in the "
                                     "documents).", "", report.no_answer))
        parts.append(self.tr("%n expected source(s) found in the corpus.", "", report.sources))
        if report.unmatched_sources:
            parts.append(self.tr("%n source text(s) matched no document and were kept in the "
                                 "notes.", "", len(report.unmatched_sources)))
        return " ".join(parts)

    def wait_done(self, timeout_ms: int = 30000) -> bool:
        """Block until the worker ends (tests)."""
        return self.worker.wait(timeout_ms) if self.worker is not None else True


def ask_source(parent: QWidget | None, kind: str, start: str = "") -> Path | None:
    """Ask which file (or folder, for ``corpus-folder``) to import, from ``start``."""
    def tr(text: str) -> str:
        return QCoreApplication.translate("import", text)

    if kind == "corpus-folder":
        folder = QFileDialog.getExistingDirectory(parent, QCoreApplication.translate(
            "import", "Folder of documents (PDF, Word, OpenDocument, HTML, PowerPoint, RTF, "
            "Markdown, text)"), start)
        return Path(folder) if folder else None
    filters = {
        "cases": QCoreApplication.translate(
            "import", "Spreadsheets and JSON Lines (*.csv *.tsv *.txt *.xlsx *.jsonl)"),
        "corpus": QCoreApplication.translate(
            "import", "Corpus files and documents (*.jsonl *.csv *.tsv *.xlsx *.pdf *.docx "
            "*.odt *.html *.htm *.pptx *.rtf *.md)"),
        "ragas-testset": QCoreApplication.translate(
            "import", "Ragas test sets (*.jsonl *.json *.csv)"),
    }
    name, _filter = QFileDialog.getOpenFileName(parent, QCoreApplication.translate(
        "import", "Import"), start, filters.get(kind, ""))
    return Path(name) if name else None


def open_import_dialog(parent: QWidget | None, ctx: UiContext, kind: str,
                       source: Path | None = None) -> ImportDialog | None:
    """Ask for the file (unless given), then show the import dialog; None if cancelled.

    ``kind``: ``cases``, ``corpus``, ``corpus-folder`` or ``ragas-testset``.
    """
    if ctx.hub.store is None:
        return None
    path = source or ask_source(parent, kind, str(user_folder(ctx.hub.store.path)))
    if path is None:
        return None
    dialog = ImportDialog(ctx, "corpus" if kind == "corpus-folder" else kind, path, parent)
    dialog.exec()
    return dialog
