"""The export dialog: format, scope, a preview of what will be written, progress and Cancel.

:func:`open_export_dialog` shows it for the open gold-set file.  The user picks a format
(the registry's export formats; CSV with its data or Excel profile), a destination, a run
where the format needs one, and a scope (a release, runs, families, assessors: nothing
ticked means everything).  **Preview** counts the rows each entity will hold and lists the
warnings, on a worker thread; **Export** runs the export on a worker thread with its own
read-only connection to the file, with a progress bar and Cancel (a cancelled or failed
export leaves no file: exports write a temporary file and rename it).  Afterwards **Open the
folder** shows the result.  The last choices are kept in the settings (``export_choices``).
Qt widgets are touched only on the GUI thread; workers report through queued signals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.import_export import registry
from rag_annotator.messages import render_any
from rag_annotator.paths import app_paths, user_folder
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.exchange.store_worker import StoreWorker
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP
from rag_annotator.ui.look import colours

#: (choice id, registry format, CSV profile, title, writes a folder, needs a run)
FORMATS: tuple[tuple[str, str, str, str, bool, str], ...] = (
    ("xlsx", "xlsx", "", QT_TRANSLATE_NOOP("export", "Excel workbook for managers (.xlsx)"),
     False, "no"),
    ("pdf", "pdf", "", QT_TRANSLATE_NOOP("export", "One-page PDF summary for managers (.pdf)"),
     False, "no"),
    ("csv-excel", "csv", "excel", QT_TRANSLATE_NOOP("export", "CSV for Excel (folder)"),
     True, "no"),
    ("csv-data", "csv", "data", QT_TRANSLATE_NOOP("export", "CSV for data tools (folder)"),
     True, "no"),
    ("json", "json", "", QT_TRANSLATE_NOOP("export", "Native JSON, lossless (.json)"),
     False, "no"),
    ("qrels", "qrels", "", QT_TRANSLATE_NOOP("export", "TREC qrels (.txt)"), False, "no"),
    ("trec-run", "trec-run", "", QT_TRANSLATE_NOOP("export", "TREC run (.txt)"), False,
     "yes"),
    ("beir", "beir", "", QT_TRANSLATE_NOOP("export", "BEIR dataset (folder)"), True, "no"),
    ("ragas", "ragas", "", QT_TRANSLATE_NOOP("export", "Ragas dataset (.jsonl)"), False,
     "yes"),
    ("ragchecker", "ragchecker", "", QT_TRANSLATE_NOOP("export", "RAGChecker input (.json)"),
     False, "yes"),
    ("deepeval", "deepeval", "", QT_TRANSLATE_NOOP("export", "DeepEval goldens (.json)"),
     False, "optional"),
)
_BY_ID = {f[0]: f for f in FORMATS}
_SUFFIX = {"xlsx": ".xlsx", "pdf": ".pdf", "json": ".json", "qrels": ".qrels.txt",
           "trec-run": ".run.txt",
           "ragas": ".ragas.jsonl", "ragchecker": ".ragchecker.json",
           "deepeval": ".deepeval.json"}


def _tr(text: str) -> str:
    return QCoreApplication.translate("export", text)


def preview(store: GoldSetStore, fmt: str, options: registry.Options) -> tuple[
        list[tuple[str, int]], list[str]]:
    """(entity, rows) the export will write, and warnings — read-only, no file written."""
    from rag_annotator.import_export.csv_export import count_rows, scope_of

    warnings: list[str] = []
    scope = scope_of(store, options)
    counts = count_rows(store, scope)
    # the ecosystem formats are about RAG: agent cases are left out of them
    rag_cases = counts["cases"] - store.agent_case_count(scope.families, scope.cases)
    if fmt in ("xlsx", "csv"):
        rows = list(counts.items())
    elif fmt == "json":
        rows = [(name, store.count(name)) for name in (
            "cases", "documents", "runs", "retrieved", "answers", "judgments", "claims",
            "answer_reviews", "trajectories", "trajectory_steps", "trajectory_reviews",
            "releases")]
    elif fmt in ("qrels", "beir"):
        labels = store.judgment_counts()
        rows = [("cases", rag_cases),
                ("judged pairs", labels["relevant"] + labels["not_relevant"])]
        if labels["disputed"]:
            warnings.append(QCoreApplication.translate(
                "export", "%1 disputed pairs will be left out (adjudicate them first).")
                            .replace("%1", str(labels["disputed"])))
    else:
        rows = [("cases", rag_cases)] + [
            (name, counts[name]) for name in ("retrieved", "answers", "claims")]
    if fmt in ("trec-run", "ragas", "ragchecker") and not options.run:
        warnings.append(QCoreApplication.translate("export", "Choose a run."))
    if fmt == "xlsx" and any(n > 1_048_575 for _e, n in rows):
        warnings.append(QCoreApplication.translate(
            "export", "Tables longer than 1,048,575 rows continue on further sheets."))
    if fmt in ("xlsx", "csv"):
        for entity, n in store.long_texts(32_767).items():
            text = (QCoreApplication.translate(
                "export", "%1: %2 rows hold a text longer than a cell holds (32,767 "
                        "characters); it will be cut, with a visible mark.") if fmt == "xlsx"
                    else QCoreApplication.translate(
                        "export", "%1: %2 rows hold a text longer than Excel keeps in a cell; "
                             "Excel will cut it when it opens the file."))
            warnings.append(text.replace("%1", _entity_title(entity)).replace("%2", str(n)))
    return rows, warnings


class ExportWorker(StoreWorker):
    """Runs a preview or an export on its own read-only connection.

    ``done`` carries (result, error text): the preview's (rows, warnings), or the report.
    """

    def __init__(self, path: Path, fmt: str, dest: Path | None,
                 options: registry.Options) -> None:
        super().__init__(path, read_only=True)
        self.fmt, self.dest = fmt, dest
        self.options = self.with_progress(options)

    def work(self, store: GoldSetStore) -> Any:
        if self.dest is None:
            return preview(store, self.fmt, self.options)
        return registry.exporter(self.fmt)(store, self.dest, self.options)


class ExportDialog(QDialog):
    """Choose, preview, export."""

    def __init__(self, path: Path, parent: QWidget | None = None,
                 settings: Settings | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self._window: Any  # the main window whose settings these are, if any
        self.settings, self._window = _settings(parent) if settings is None else (settings,
                                                                                    None)
        self.worker: ExportWorker | None = None
        self.report: Any = None
        self.error: str | None = None
        self.setWindowTitle(self.tr("Export"))
        self.resize(720, 620)
        with GoldSetStore.open(path, read_only=True, verify="skip") as store:
            runs, families = store.names_of("runs"), store.names_of("families")
            assessors = store.names_of("assessors")
            releases = store.release_names()

        choices = self._build_choices(runs, releases)
        scope = self._build_scope(runs, families, assessors)
        buttons = self._build_buttons()
        layout = QVBoxLayout(self)
        layout.addLayout(choices)
        layout.addWidget(scope, 1)
        layout.addWidget(self.summary)
        layout.addLayout(buttons)
        self.format.currentIndexChanged.connect(self._format_changed)
        self._restore()
        self._format_changed()

    def _build_choices(self, runs: list[str], releases: list[str]) -> QFormLayout:
        """Format, destination, CSV separators, run and release."""
        self.format = QComboBox()
        for fid, _fmt, _profile, title, _folder, _run in FORMATS:
            self.format.addItem(_tr(title), fid)
        self.dest = QLineEdit()
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self.browse)
        dest_row = QHBoxLayout()
        dest_row.addWidget(self.dest, 1)
        dest_row.addWidget(browse)
        self.csv_locale = QComboBox()
        self.csv_locale.addItem(self.tr("System language"), "")
        self.csv_locale.addItem(self.tr("French (; and decimal comma)"), "fr")
        self.csv_locale.addItem(self.tr("English (, and decimal point)"), "en")
        self.run = QComboBox()
        self.run.addItem(self.tr("(none)"), "")
        for name in runs:
            self.run.addItem(name, name)
        self.release = QComboBox()
        self.release.addItem(self.tr("Current content"), "")
        for name in releases:
            self.release.addItem(name, name)
        form = QFormLayout()
        form.addRow(self.tr("&Format:"), self.format)
        dest_label = QLabel(self.tr("&Destination:"))
        dest_label.setBuddy(self.dest)
        form.addRow(dest_label, dest_row)
        form.addRow(self.tr("CSV &separators:"), self.csv_locale)
        form.addRow(self.tr("&Run:"), self.run)
        form.addRow(self.tr("R&elease:"), self.release)
        return form

    def _build_scope(self, runs: list[str], families: list[str],
                     assessors: list[str]) -> QGroupBox:
        """What to export: runs, families, assessors (nothing ticked: everything)."""
        self.runs = self._checklist(runs)
        self.families = self._checklist(families, labels.family)
        self.assessors = self._checklist(assessors)
        scope = QGroupBox(self.tr("Scope (nothing ticked: everything)"))
        lists = QHBoxLayout(scope)
        for title, widget in ((self.tr("Runs"), self.runs), (self.tr("Families"), self.families),
                              (self.tr("Assessors"), self.assessors)):
            column = QVBoxLayout()
            column.addWidget(QLabel(title))
            column.addWidget(widget)
            lists.addLayout(column)
        return scope

    def _build_buttons(self) -> QHBoxLayout:
        """The summary, the progress bar and Preview / Export / Open / Cancel."""
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar()
        self.progress.hide()
        self.preview_button = QPushButton(self.tr("&Preview"))
        self.export_button = QPushButton(self.tr("&Export"))
        self.export_button.setDefault(True)
        self.open_button = QPushButton(self.tr("&Open the Folder"))
        self.open_button.hide()
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.preview_button.clicked.connect(self.start_preview)
        self.export_button.clicked.connect(self.start_export)
        self.open_button.clicked.connect(self.open_folder)
        self.cancel_button.clicked.connect(self.cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.progress, 1)
        for button in (self.preview_button, self.export_button, self.open_button,
                       self.cancel_button):
            buttons.addWidget(button)
        return buttons

    # -- choices -------------------------------------------------------------------------------
    def _checklist(self, names: list[str], title: Any = str) -> QListWidget:
        widget = QListWidget()
        for name in names:
            item = QListWidgetItem(title(name))
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            widget.addItem(item)
        return widget

    @staticmethod
    def _checked(widget: QListWidget) -> tuple[str, ...]:
        return tuple(str(widget.item(i).data(Qt.ItemDataRole.UserRole))
                     for i in range(widget.count())
                     if widget.item(i).checkState() == Qt.CheckState.Checked)

    @staticmethod
    def _check(widget: QListWidget, names: Any) -> None:
        chosen = set(names) if isinstance(names, list) else set()
        for i in range(widget.count()):
            item = widget.item(i)
            item.setCheckState(Qt.CheckState.Checked
                               if item.data(Qt.ItemDataRole.UserRole) in chosen
                               else Qt.CheckState.Unchecked)

    def choice(self) -> tuple[str, str, str, bool, str]:
        """(choice id, registry format, profile, writes a folder, needs a run)."""
        fid = str(self.format.currentData())
        _fid, fmt, profile, _title, folder, run = _BY_ID[fid]
        return fid, fmt, profile, folder, run

    def set_format(self, fid: str) -> None:
        """Choose a format by its id (``xlsx``, ``csv-excel``, ``json``…)."""
        self.format.setCurrentIndex(max(self.format.findData(fid), 0))

    def options(self) -> registry.Options:
        """The registry options the dialog's choices make."""
        fid, _fmt, profile, _folder, _run = self.choice()
        locale = self.csv_locale.currentData() or None
        if fid in ("xlsx", "pdf"):  # the summary speaks the window's language
            locale = "fr" if QLocale().language() == QLocale.Language.French else "en"
        return registry.Options(
            run=self.run.currentData() or None, profile=profile or "data",
            locale=locale, level=self.settings.interval_level,
            release=self.release.currentData() or None, runs=self._checked(self.runs),
            families=self._checked(self.families), assessors=self._checked(self.assessors))

    def _format_changed(self) -> None:
        fid, fmt, _profile, folder, run = self.choice()
        self.csv_locale.setEnabled(fid == "csv-excel")
        self.run.setEnabled(run != "no")
        current = self.dest.text().strip()
        parent = Path(current).parent if current else user_folder(self.path)
        name = f"{self.path.stem}-{fmt}" if folder else self.path.stem + _SUFFIX.get(fmt, "")
        self.dest.setText(str(parent / name))
        self.summary.clear()

    def browse(self) -> None:
        """Ask where to write (a folder for folder formats, else a file)."""
        _fid, _fmt, _profile, folder, _run = self.choice()
        if folder:
            chosen = QFileDialog.getExistingDirectory(self, self.tr("Export into"),
                                                      str(Path(self.dest.text()).parent))
            if chosen:
                self.dest.setText(str(Path(chosen) / Path(self.dest.text()).name))
            return
        name, _filter = QFileDialog.getSaveFileName(self, self.tr("Export as"),
                                                    self.dest.text())
        if name:
            self.dest.setText(name)

    def _restore(self) -> None:
        saved = self.settings.export_choices
        if not isinstance(saved, dict):
            return
        self.set_format(str(saved.get("format", "xlsx")))
        for combo, key in ((self.csv_locale, "locale"), (self.run, "run"),
                           (self.release, "release")):
            index = combo.findData(saved.get(key, ""))
            if index >= 0:
                combo.setCurrentIndex(index)
        self._check(self.runs, saved.get("runs"))
        self._check(self.families, saved.get("families"))
        self._check(self.assessors, saved.get("assessors"))
        folder = saved.get("folder")
        if (isinstance(folder, str) and folder and Path(folder).is_dir()
                and not app_paths().holds(Path(folder))):  # an old default: the data folder
            self.dest.setText(str(Path(folder) / Path(self.dest.text()).name))

    def _remember(self, dest: Path) -> None:
        options = self.options()
        self.settings.export_choices = {
            "format": self.choice()[0], "locale": self.csv_locale.currentData() or "",
            "run": options.run or "", "release": options.release or "",
            "runs": list(options.runs), "families": list(options.families),
            "assessors": list(options.assessors), "folder": str(dest.parent)}
        try:
            self.settings.save(getattr(self._window, "paths", app_paths()).settings_file)
        except OSError:
            pass  # losing a remembered choice must never stop an export

    # -- running -------------------------------------------------------------------------------
    def start_preview(self) -> None:
        """Count what the export would write (worker thread)."""
        self._start(None)

    def start_export(self) -> None:
        """Write the export (worker thread)."""
        text = self.dest.text().strip()
        if not text:
            self.summary.setText(self.tr("Choose a destination."))
            return
        self._start(Path(text).expanduser())

    def _start(self, dest: Path | None) -> None:
        if self.worker is not None and self.worker.isRunning():
            return
        _fid, fmt, _profile, _folder, _run = self.choice()
        self.report, self.error = None, None
        if dest is not None:
            self._remember(dest)
        self.preview_button.setEnabled(False)
        self.export_button.setEnabled(False)
        self.open_button.hide()
        self.progress.show()
        self.progress.setRange(0, 0)
        self.worker = ExportWorker(self.path, fmt, dest, self.options())
        self.worker.progressed.connect(self._progress, Qt.ConnectionType.QueuedConnection)
        self.worker.done.connect(
            lambda result, error: self._finished(dest, result, error),
            Qt.ConnectionType.QueuedConnection)
        self.worker.start()

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def cancel(self) -> None:
        """Stop a running export (no file is left) or close the dialog."""
        if self.worker is not None and self.worker.isRunning():
            self.worker.cancelled.set()
            return
        self.reject()

    def _finished(self, dest: Path | None, result: Any, error: str | None) -> None:
        if self.worker is not None:
            self.worker.wait()
        self.progress.hide()
        self.preview_button.setEnabled(True)
        self.export_button.setEnabled(True)
        self.error = error
        if error is not None:
            self.summary.setText(colours.coloured("text_bad", f"⚠ {_html(error)}"))
            return
        if dest is None:
            rows, warnings = result
            lines = [self.tr("Will be written:")]
            lines += [f"• {_entity_title(name)}: {n:,}" for name, n in rows]
            lines += [f"⚠ {w}" for w in warnings]
            self.summary.setText(_html("\n").join(_html(x) for x in lines))
            return
        self.report = result
        lines = [self.tr("Export written: %1").replace("%1", str(dest)),
                 render_any(result.summary())]
        lines += [f"⚠ {render_any(w)}" for w in result.warnings]
        self.summary.setText(_html("\n").join(_html(x) for x in lines))
        self.open_button.show()
        self.cancel_button.setText(self.tr("Close"))

    def open_folder(self) -> None:
        """Show the folder holding the export in the system's file manager."""
        text = self.dest.text().strip()
        if not text:
            return
        dest = Path(text)
        folder = dest if dest.is_dir() else dest.parent
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def wait_done(self, timeout_ms: int = 60000) -> bool:
        """Block until the worker ends (tests)."""
        return self.worker.wait(timeout_ms) if self.worker is not None else True


def _entity_title(name: str) -> str:
    """An entity's translated name where the UI has one (else its English id)."""
    return labels.table_name(name) if name in labels.TABLES else name.replace("_", " ")


def _html(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\n", "<br>"))


def _settings(parent: QWidget | None) -> tuple[Settings, Any]:
    """The main window's settings (so its later saves keep our choices), or the file's."""
    window = parent.window() if parent is not None else None
    settings = getattr(window, "settings", None)
    if isinstance(settings, Settings):
        return settings, window
    return Settings.load(app_paths().settings_file), None


def open_export_dialog(parent: QWidget | None, store_path: Path | str) -> ExportDialog:
    """Show the export dialog for a gold-set file (window-modal, not blocking)."""
    dialog = ExportDialog(Path(store_path), parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
