"""Dialogs of File → Team: what to hand out (assessors, k, control share, seed, folder), which
files to collect, and the report of a hand-out or a collect (conflicts listed, never applied).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.import_export.long_lists import few_lines
from rag_annotator.messages import render_any

translate = QCoreApplication.translate

#: The seed box's value that means "choose one at random".
RANDOM_SEED = -1


class HandOutDialog(QDialog):
    """Who judges, how many judgments per pair, the share of control repeats, the seed and
    where the assignment files go."""

    def __init__(self, assessors: Sequence[str], folder: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Hand Out Assignments"))
        self.names = QLineEdit(", ".join(assessors))
        self.names.setPlaceholderText(self.tr("e.g. Alice, Bruno, Chloé"))
        self.names.setMinimumWidth(420)
        self.per_pair = QSpinBox()
        self.per_pair.setRange(1, 20)
        self.per_pair.setValue(2)
        self.per_pair.setSuffix(self.tr(" assessors per pair"))
        self.control = QDoubleSpinBox()
        self.control.setRange(0.0, 50.0)
        self.control.setDecimals(1)
        self.control.setValue(5.0)
        self.control.setSuffix(" %")
        self.seed = QSpinBox()
        self.seed.setRange(RANDOM_SEED, 2_000_000_000)
        self.seed.setSpecialValueText(self.tr("random"))
        self.seed.setValue(RANDOM_SEED)
        self.folder = QLineEdit(str(folder))
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        form = QFormLayout()
        form.addRow(self.tr("&Assessors (comma-separated):"), self.names)
        form.addRow(self.tr("&Judgments per pair (k):"), self.per_pair)
        form.addRow(self.tr("&Control pairs (shown again, blind):"), self.control)
        form.addRow(self.tr("&Seed of the order:"), self.seed)
        folder_label = QLabel(self.tr("&Output folder:"))
        folder_label.setBuddy(self.folder)  # the field is a row: no buddy by itself
        form.addRow(folder_label, folder_row)
        explain = QLabel(self.tr(
            "The pool (Judge → Pool…) is shared out so that every pair gets k different "
            "assessors and each assessor about the same number of pairs, each in an order of "
            "their own. One file per assessor is written in the folder; send each expert "
            "theirs (a synced folder or a git repository will do), then File → Team → "
            "Collect… brings their work back."))
        explain.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.names.textChanged.connect(self._sync)
        self.folder.textChanged.connect(self._sync)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(explain)
        layout.addWidget(self.buttons)
        self._sync()

    def assessors(self) -> list[str]:
        """The names typed, in order, without blanks or repeats."""
        seen: list[str] = []
        for name in (n.strip() for n in self.names.text().split(",")):
            if name and name not in seen:
                seen.append(name)
        return seen

    def choice(self) -> dict[str, Any]:
        """The arguments of ``team_files.hand_out`` the dialog chose."""
        seed = self.seed.value()
        return {"assessors": self.assessors(), "per_pair": self.per_pair.value(),
                "control": round(self.control.value() / 100.0, 4),
                "seed": None if seed == RANDOM_SEED else seed,
                "out_dir": Path(self.folder.text().strip()).expanduser()}

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Output folder"),
                                                  self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def _sync(self, *_args: object) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.assessors()) and bool(self.folder.text().strip()))


def ask_collect_sources(parent: QWidget | None, start: str) -> list[Path]:
    """The assignment files to collect: a whole folder (every ``*.goldset`` in it, as the
    team folder holds them) or files picked one by one."""
    title = translate("TeamMenu", "Collect Assignment Files")
    box = QMessageBox(QMessageBox.Icon.Question, title, translate(
        "TeamMenu", "Collect every assignment file of a folder, or pick files?"),
        QMessageBox.StandardButton.Cancel, parent)
    folder_button = box.addButton(translate("TeamMenu", "A &Folder…"),
                                  QMessageBox.ButtonRole.AcceptRole)
    files_button = box.addButton(translate("TeamMenu", "&Files…"),
                                 QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(folder_button)
    box.exec()
    if box.clickedButton() is files_button:
        pattern = translate("TeamMenu", "Gold sets (*.goldset)")
        files, _ = QFileDialog.getOpenFileNames(parent, title, start, pattern)
        return [Path(f) for f in files]
    if box.clickedButton() is folder_button:
        folder = QFileDialog.getExistingDirectory(parent, title, start)
        return [Path(folder)] if folder else []
    return []


def collect_lines(report: Any) -> tuple[list[str], list[str]]:
    """(one line per file, the details: conflicts and skipped rows) of a collect report."""
    lines: list[str] = []
    details: list[str] = []
    for f in report.files:
        if f.refused is not None:
            lines.append(translate("TeamMenu", "%1: refused — %2").replace("%1", f.path.name)
                         .replace("%2", f.refused))
            continue
        lines.append(translate("TeamMenu", "%1 (%2): %3 added, %4 updated, %5 unchanged, "
                                           "%6 control repeats, %7 can’t judge, %8 conflicts")
                     .replace("%1", f.path.name).replace("%2", f.assessor)
                     .replace("%3", str(f.added)).replace("%4", str(f.updated))
                     .replace("%5", str(f.unchanged)).replace("%6", str(f.controls))
                     .replace("%7", str(f.cannot_judge)).replace("%8", str(len(f.conflicts))))
        details += few_lines([f"{f.path.name}: {c}" for c in f.conflicts])
        details += few_lines([f"{f.path.name}: skipped {s}" for s in f.skipped])
    return lines, details


def show_collect_report(parent: QWidget | None, report: Any) -> QMessageBox:
    """Each file's outcome, the disputes now in the adjudication queue, and every conflict
    (shared content an expert edited: reported, not applied)."""
    lines, details = collect_lines(report)
    if not report.files:
        lines.append(translate("TeamMenu", "No assignment file found there."))
    lines.append(translate("TeamMenu", "Disputed pairs waiting in the adjudication queue "
                                       "(Judge → D): %1.").replace("%1", str(report.disputes)))
    trouble = bool(details) or bool(report.refused)
    box = QMessageBox(parent)
    box.setStyleSheet(  # one line per file, not four
        "QLabel#qt_msgbox_informativelabel { min-width: 560px; }")
    box.setIcon(QMessageBox.Icon.Warning if trouble else QMessageBox.Icon.Information)
    box.setWindowTitle(translate("TeamMenu", "Collect"))
    box.setText(translate("TeamMenu", "Collected %n file(s); each one is a step Undo can take "
                                      "back.", "", len(report.files) - len(report.refused)))
    box.setInformativeText("\n".join(lines))
    if details:
        box.setDetailedText("\n".join(details))
    box.open()
    return box


def show_hand_out_report(parent: QWidget | None, report: Any) -> QMessageBox:
    """Which file each assessor gets and how many pairs."""
    lines = [translate("TeamMenu", "%1: %2 pairs → %3").replace("%1", name)
             .replace("%2", str(report.slots.get(name, 0))).replace("%3", str(path))
             for name, path in report.files.items()]
    box = QMessageBox(parent)
    box.setStyleSheet(  # one line per file, not four
        "QLabel#qt_msgbox_informativelabel { min-width: 560px; }")
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle(translate("TeamMenu", "Hand Out Assignments"))
    box.setText(translate("TeamMenu", "%1 pairs handed out; send each expert their file.")
                .replace("%1", str(report.pairs)))
    box.setInformativeText("\n".join([*lines, *map(render_any, report.warnings)]))
    box.open()
    return box
