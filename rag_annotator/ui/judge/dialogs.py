"""Dialogs of the judging workflow: the pool (runs and depth), the judging guidelines, and the
report of a merge of a colleague's file."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QSpinBox,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.import_export.long_lists import few_lines
from rag_annotator.import_export.merge import MergeReport
from rag_annotator.messages import Message
from rag_annotator.ui.context import UiContext

__all__ = ["GuidelinesDialog", "PoolDialog", "show_merge_report"]


class PoolDialog(QDialog):
    """Choose the runs whose top-k documents are judged, and k.

    "Every run" also takes runs imported later; depth 0 ("whole lists") judges everything a
    run returned.  Expected sources and pairs already judged are always in the pool.
    """

    def __init__(self, runs: Sequence[str], chosen: Sequence[str] | None, depth: int | None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Judging Pool"))
        self.every = QCheckBox(self.tr("Every run, including runs imported later"))
        self.every.setChecked(chosen is None)
        self.runs = QListWidget()
        for name in runs:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if chosen is None or name in chosen
                               else Qt.CheckState.Unchecked)
            self.runs.addItem(item)
        self.depth_box = QSpinBox()
        self.depth_box.setRange(0, 100_000)
        self.depth_box.setSpecialValueText(self.tr("whole lists"))
        self.depth_box.setValue(depth or 0)
        self.depth_box.setSuffix(self.tr(" documents per run"))
        self.every.toggled.connect(self._sync)
        self.runs.itemChanged.connect(self._sync)

        self.explain = QLabel(self.tr(
            "The pool of a case is the union of the chosen runs' top documents, plus its "
            "expected sources and every pair already judged. A document several runs "
            "retrieved is judged once. The metrics still count every retrieved document: "
            "outside the pool, unjudged documents are counted by the chosen policy."))
        self.explain.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.tr("Depth:"), self.depth_box)
        layout = QVBoxLayout(self)
        layout.addWidget(self.every)
        layout.addWidget(self.runs, 1)
        layout.addLayout(form)
        layout.addWidget(self.explain)
        layout.addWidget(self.buttons)
        self._sync()

    def checked_runs(self) -> list[str]:
        return [self.runs.item(i).text() for i in range(self.runs.count())
                if self.runs.item(i).checkState() == Qt.CheckState.Checked]

    def choice(self) -> tuple[list[str] | None, int | None]:
        """(runs or None for every run, depth or None for whole lists)."""
        runs = None if self.every.isChecked() else self.checked_runs()
        return runs, (self.depth_box.value() or None)

    def _sync(self, *_args: object) -> None:
        self.runs.setEnabled(not self.every.isChecked())
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(self.every.isChecked() or bool(self.checked_runs()))


def choose_pool(ctx: UiContext, parent: QWidget) -> None:
    """The pool dialog on the open file's runs and settings; what it chose is applied as
    one undoable operation."""
    store = ctx.hub.store
    if store is None:
        return
    from rag_annotator.domain.judging_ops import set_pool

    runs = [r["name"] for r in store.runs_summary()]
    chosen, depth = store.pool_settings()
    dialog = PoolDialog(runs, chosen, depth, parent)
    if dialog.exec():
        new_runs, new_depth = dialog.choice()
        ctx.undo.run(lambda s: set_pool(s, new_runs, new_depth))


class GuidelinesDialog(QDialog):
    """Edit the gold set's judging guidelines (markdown) with a live preview."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Judging Guidelines"))
        self.resize(900, 600)
        self.editor = QPlainTextEdit(text)
        self.editor.setPlaceholderText(self.tr(
            "# What counts as relevant\n\nA document is relevant when it contains the answer "
            "or a passage an expert would cite…"))
        self.preview = QTextBrowser()
        self.editor.textChanged.connect(self._preview)
        splitter = QSplitter()
        splitter.addWidget(self.editor)
        splitter.addWidget(self.preview)
        hint = QLabel(self.tr("Markdown. Every assessor sees these rules in the Judge section "
                              "(G); they are saved in the gold-set file."))
        hint.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addWidget(splitter, 1)
        layout.addWidget(buttons)
        self._preview()

    def text(self) -> str:
        return self.editor.toPlainText()

    def _preview(self) -> None:
        self.preview.setMarkdown(self.editor.toPlainText())


def show_merge_report(parent: QWidget | None, report: MergeReport) -> None:
    """What a merge brought in, what it skipped and every conflict, in one message."""
    translate = QCoreApplication.translate
    names = {"judgments": translate("MergeReport", "Judgments"),
             "adjudications": translate("MergeReport", "Adjudications"),
             "claims": translate("MergeReport", "Claim verdicts"),
             "assessors": translate("MergeReport", "Assessors"),
             "trajectory_reviews": translate("MergeReport", "Trajectory reviews")}
    lines = [translate("MergeReport", "%1: %2 added, %3 updated, %4 unchanged")
             .replace("%1", names.get(entity, entity)).replace("%2", str(c["added"]))
             .replace("%3", str(c["updated"])).replace("%4", str(c["unchanged"]))
             for entity, c in report.counts.items()]
    lines.append(translate("MergeReport", "Skipped: %1. Conflicts: %2 (listed in the details).")
                 .replace("%1", str(len(report.skipped)))
                 .replace("%2", str(len(report.conflicts))))
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Information if not report.conflicts
                else QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("MergeReport", "Merge"))
    box.setText(translate("MergeReport", "Merged %1.").replace("%1", report.source.name))
    box.setInformativeText("\n".join(lines))
    details = (few_lines([c.describe() for c in report.conflicts])
               + few_lines([Message("skipped {line}", line=s) for s in report.skipped]))
    if details:
        box.setDetailedText("\n".join(details))
    box.exec()
