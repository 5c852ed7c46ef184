"""Runs section: each RAG configuration with its versions, coverage and judging progress.

``runs_summary`` counts over the retrieved lists, so it is read when the section is shown
and again only when a change concerns runs (not on every judgment while hidden).  Enter (or a
double click) edits a run's name and version notes; Delete removes it after a confirmation;
"Import a Run…" brings a TREC run, a JSONL run, a Ragas file or an agent's trajectories
(this app's JSONL shape, or OpenAI-style chat logs with tool calls) in — each one undoable
step.  An agent run shows its trajectories beside the RAG columns.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.domain.operations import delete_run, edit_run
from rag_annotator.import_export import registry
from rag_annotator.paths import user_folder
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP
from rag_annotator.ui.models import Column, RowsModel, number, one_line
from rag_annotator.ui.sections.base import Section, current_row, make_table

if TYPE_CHECKING:
    from rag_annotator.ui.exchange.file_import import FileImport

#: Run formats the import button offers, with the file filter of each.
RUN_FORMATS = {
    "trec-run": QT_TRANSLATE_NOOP("RunsSection", "TREC run (qid Q0 docno rank score tag)"),
    "jsonl-run": QT_TRANSLATE_NOOP("RunsSection", "JSONL run (case, retrieved, answer…)"),
    "ragas": QT_TRANSLATE_NOOP("RunsSection",
                               "Ragas CSV or JSONL (user_input or question, contexts…)"),
    "trajectories": QT_TRANSLATE_NOOP("RunsSection",
                                      "Agent trajectories JSONL (case, steps, final_state…)"),
    "openai-trajectories": QT_TRANSLATE_NOOP(
        "RunsSection", "Agent chat logs, OpenAI style (messages with tool_calls)"),
    "tau-bench": QT_TRANSLATE_NOOP(
        "RunsSection", "tau-bench / tau2-bench results (task_id, trial, reward, traj)"),
    "ragchecker-run": QT_TRANSLATE_NOOP(
        "RunsSection", "RAGChecker input or output file (results with retrieved_context)"),
}


#: A field of the first JSON line → the run format it points to (first match wins).
_FIRST_LINE_FIELDS = (('"traj"', "tau-bench"), ('"simulations"', "tau-bench"),
                      ('"retrieved_context"', "ragchecker-run"),
                      ('"messages"', "openai-trajectories"), ('"steps"', "trajectories"),
                      ('"user_input"', "ragas"), ('"retrieved"', "jsonl-run"),
                      ('"contexts"', "jsonl-run"))


def guess_run_format(path: Path) -> str | None:
    """The format a chosen file most likely has, from its first bytes (None: no idea).

    Only a preselection in the dialog: the user still sees and can change it."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return None
    first = next((line for line in head.splitlines() if line.strip()), "").strip()
    if first.startswith(("{", "[")):
        for field, fmt in _FIRST_LINE_FIELDS:
            if field in first or (first in ("[", "{") and field in head):
                return fmt
        return None
    if len(first.split()) == 6:
        return "trec-run"
    from rag_annotator.import_export.detect import detect

    found = detect(path)  # a Ragas CSV, a gzipped run…
    return found[0] if found is not None and found[0] in RUN_FORMATS else None


class RunsSection(Section):
    """The runs table."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model = RowsModel([
            Column(self.tr("Run"), lambda r: r["name"], 14),
            Column(self.tr("Model"), lambda r: r["model"], 14),
            Column(self.tr("Corpus version"), lambda r: r["corpus_version"], 10),
            Column(self.tr("Prompt version"), lambda r: r["prompt_version"], 10),
            Column(self.tr("Index version"), lambda r: r["index_version"], 10),
            Column(self.tr("Cases"), lambda r: number(r["cases"]), 7, numeric=True),
            Column(self.tr("Depth"), lambda r: number(r["depth"]), 7, numeric=True),
            Column(self.tr("Answers"), lambda r: number(r["answers"]), 8, numeric=True),
            Column(self.tr("Trajectories"), lambda r: number(r["trajectories"]), 8,
                   numeric=True),
            Column(self.tr("Judged / retrieved pairs"),
                   lambda r: f"{number(r['judged'])} / {number(r['retrieved'])}", 14,
                   numeric=True),
            Column(self.tr("Notes"), lambda r: one_line(r["notes"]), 20, stretch=True),
        ], self)
        self.table = make_table(self.model)
        hint = QLabel(self.tr(
            "A pair counts as judged when at least one assessor gave it a label. Depth is the "
            "longest ranked list the run returned for a case."))
        hint.setWordWrap(True)
        self.import_button = QPushButton(self.tr("Import a Run…"))
        self.import_button.clicked.connect(self.ask_import)
        self.edit_button = QPushButton(self.tr("Edit…"))
        self.edit_button.clicked.connect(self.edit_current)
        self.delete_button = QPushButton(self.tr("Delete"))
        self.delete_button.clicked.connect(self.delete_current)
        self.table.activated.connect(lambda _index: self.edit_current())
        delete = QAction(self)
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete.triggered.connect(self.delete_current)
        self.table.addAction(delete)
        buttons = QHBoxLayout()
        for button in (self.import_button, self.edit_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        layout.addWidget(hint)

    def focus_widget(self) -> QWidget:
        return self.table

    def refresh(self) -> None:
        if self.store is not None:
            counts = self.store.trajectory_counts()
            # an agent run covers the cases it has trajectories for (one per case)
            self.model.set_rows([{**row, "trajectories": counts.get(row["id"], 0),
                                  "cases": (row["cases"] or 0) + counts.get(row["id"], 0)}
                                 for row in self.store.runs_summary()])

    def clear(self) -> None:
        self.model.set_rows([])

    def cares(self, changes: Changes) -> bool:
        return changes.touches("runs", "retrieved", "answers", "judgments", "cases",
                               "trajectories")

    # -- commands ------------------------------------------------------------------------------
    def current_run(self) -> dict[str, object] | None:
        return self.model.row_at(current_row(self.table))

    def edit_current(self) -> None:
        """Edit the selected run's name and version notes (one undoable operation)."""
        run = self.current_run()
        if run is None:
            return
        dialog = RunDialog(run, self)
        if dialog.exec():
            fields = dialog.fields()
            changed = {k: v for k, v in fields.items() if v != run.get(k)}
            if changed:
                run_id = int(str(run["id"]))
                self.ctx.undo.run(lambda s: edit_run(s, run_id, **changed))

    def delete_current(self) -> None:
        """Delete the selected run with its lists, answers and reviews, after confirming."""
        run = self.current_run()
        if run is None:
            return
        text = (self.tr("Delete the run “%1” with its %2 retrieved documents and %3 answers? "
                        "Judgments stay (they belong to the pairs). Ctrl+Z brings it back.")
                .replace("%1", str(run["name"])).replace("%2", number(run["retrieved"]))
                .replace("%3", number(run["answers"])))
        if run.get("trajectories"):
            text += " " + self.tr("Its %n agent trajectory(ies) and their reviews go too.", "",
                                  int(str(run["trajectories"])))
        answer = QMessageBox.question(self, self.tr("Delete Run"), text)
        if answer == QMessageBox.StandardButton.Yes:
            run_id = int(str(run["id"]))
            self.ctx.undo.run(lambda s: delete_run(s, run_id))

    def ask_import(self) -> None:
        """Choose a format and a file, then import it as a new run."""
        store = self.store
        dialog = RunImportDialog(self, user_folder(store.path if store is not None else None))
        if dialog.exec():
            self.import_run(dialog.format(), Path(dialog.path.text()), dialog.name.text())

    def import_run(self, fmt: str, path: Path, name: str = "") -> FileImport | None:
        """Start importing one run file on a worker thread, with progress and Cancel;
        undoable like any edit once done.  Errors are shown, nothing changed."""
        from rag_annotator.ui.exchange.file_import import import_file

        return import_file(self.ctx, self, fmt, path,
                           registry.Options(run=name.strip() or None), self.tr("Import a Run"))


class RunDialog(QDialog):
    """A run's name and version notes (model, corpus, prompt, index)."""

    FIELDS = (("name", QT_TRANSLATE_NOOP("RunDialog", "Name:")),
              ("model", QT_TRANSLATE_NOOP("RunDialog", "Model:")),
              ("corpus_version", QT_TRANSLATE_NOOP("RunDialog", "Corpus version:")),
              ("prompt_version", QT_TRANSLATE_NOOP("RunDialog", "Prompt version:")),
              ("index_version", QT_TRANSLATE_NOOP("RunDialog", "Index version:")))

    def __init__(self, run: dict[str, object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Run %1").replace("%1", str(run["name"])))
        form = QFormLayout(self)
        self.edits: dict[str, QLineEdit] = {}
        for key, label in self.FIELDS:
            edit = QLineEdit(str(run.get(key) or ""))
            self.edits[key] = edit
            form.addRow(self.tr(label), edit)
        self.notes = QPlainTextEdit(str(run.get("notes") or ""))
        self.notes.setTabChangesFocus(True)
        form.addRow(self.tr("Notes:"), self.notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def fields(self) -> dict[str, str]:
        values = {key: edit.text().strip() for key, edit in self.edits.items()}
        values["notes"] = self.notes.toPlainText().strip()
        return values


class RunImportDialog(QDialog):
    """Format, file and optional name of a run to import."""

    def __init__(self, parent: QWidget | None = None, start: Path | None = None) -> None:
        super().__init__(parent)
        self.start = start  # where the file dialog starts
        self.setWindowTitle(self.tr("Import a Run"))
        self.formats = QComboBox()
        for code, label in RUN_FORMATS.items():
            self.formats.addItem(QCoreApplication.translate("RunsSection", label), code)
        self.path = QLineEdit()
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        self.name = QLineEdit()
        self.name.setPlaceholderText(self.tr("default: the run tag or the file name"))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.path.textChanged.connect(self._sync)
        form = QFormLayout(self)
        form.addRow(self.tr("Format:"), self.formats)
        form.addRow(self.tr("File:"), row)
        form.addRow(self.tr("Run name:"), self.name)
        form.addRow(self.buttons)
        self._sync()

    def format(self) -> str:
        return str(self.formats.currentData())

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import a Run"),
                                              str(self.start or ""))
        if path:
            self.path.setText(path)
            guessed = guess_run_format(Path(path))
            if guessed is not None:
                self.formats.setCurrentIndex(max(self.formats.findData(guessed), 0))

    def _sync(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.path.text().strip()))
