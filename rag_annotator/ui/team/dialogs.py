"""Dialogs of File → Team: what to hand out (assessors, k, control share, seed, folder), which
files to collect, and the report of a hand-out or a collect (conflicts listed, never applied).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
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


@dataclass(frozen=True)
class HandOutDefaults:
    """What the open file proposes: its assessors, runs, pool setting (runs None: every
    run; depth None: whole lists) and how many claims and trajectories it holds."""

    assessors: Sequence[str] = ()
    runs: Sequence[str] = ()
    pool_runs: Sequence[str] | None = None
    pool_depth: int | None = None
    counts: dict[str, int] = field(default_factory=dict)


#: What a campaign hands out, in the order of the dialog's choice.
ITEMS = ("pairs", "claims", "trajectories")


class HandOutDialog(QDialog):
    """Who judges, what (pairs of the pool, claims or trajectories of chosen runs), how many
    judgments per item, the share of control repeats, the seed, the campaign's name and where
    the assignment files go; everything the ``assign`` command takes."""

    def __init__(self, defaults: HandOutDefaults, folder: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Hand Out Assignments"))
        self.defaults = defaults
        self.names = QLineEdit(", ".join(defaults.assessors))
        self.names.setPlaceholderText(self.tr("e.g. Alice, Bruno, Chloé"))
        self.names.setMinimumWidth(420)
        self.items = QComboBox()
        for label, kind in ((self.tr("Judgment pairs of the pool"), "pairs"),
                            (self.tr("Claims of the runs' answers, to verify"), "claims"),
                            (self.tr("Trajectories of the runs, to review"), "trajectories")):
            self.items.addItem(label, kind)
        model = self.items.model()
        for row, kind in enumerate(ITEMS[1:], start=1):  # nothing to hand out: not offered
            if not defaults.counts.get(kind, 0):
                model.item(row).setEnabled(False)  # type: ignore[attr-defined]
        self.per_pair = QSpinBox()
        self.per_pair.setRange(1, 20)
        self.per_pair.setValue(2)
        self.control = QDoubleSpinBox()
        self.control.setRange(0.0, 50.0)
        self.control.setDecimals(1)
        self.control.setValue(5.0)
        self.control.setSuffix(" %")
        self._pool_widgets(defaults)
        self.seed = QSpinBox()
        self.seed.setRange(RANDOM_SEED, 2_000_000_000)
        self.seed.setSpecialValueText(self.tr("random"))
        self.seed.setValue(RANDOM_SEED)
        self.name = QLineEdit()
        self._proposed = ""  # the default name last shown: replaced while not edited
        self.folder = QLineEdit(str(folder))
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        self.folder_row = QHBoxLayout()
        self.folder_row.addWidget(self.folder, 1)
        self.folder_row.addWidget(browse)
        self.explain = QLabel()
        self.explain.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        for signal in (self.names.textChanged, self.folder.textChanged,
                       self.per_pair.valueChanged, self.items.currentIndexChanged,
                       self.every.toggled, self.runs.itemChanged):
            signal.connect(self._sync)
        layout = QVBoxLayout(self)
        layout.addLayout(self._form())
        layout.addWidget(self.explain)
        layout.addWidget(self.buttons)
        self._sync()

    def _pool_widgets(self, defaults: HandOutDefaults) -> None:
        """Runs (every run, or those checked; default: the pool setting) and depth."""
        self.every = QCheckBox(self.tr("Every run"))
        self.every.setChecked(defaults.pool_runs is None)
        self.runs = QListWidget()
        self.runs.setMaximumHeight(110)
        for name in defaults.runs:
            entry = QListWidgetItem(name)
            entry.setFlags(entry.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            entry.setCheckState(Qt.CheckState.Checked if defaults.pool_runs is None
                                or name in defaults.pool_runs else Qt.CheckState.Unchecked)
            self.runs.addItem(entry)
        self.depth_box = QSpinBox()
        self.depth_box.setRange(0, 100_000)
        self.depth_box.setSpecialValueText(self.tr("whole lists"))
        self.depth_box.setValue(defaults.pool_depth or 0)
        self.depth_box.setSuffix(self.tr(" documents per run"))

    def _form(self) -> QFormLayout:
        runs_box = QVBoxLayout()
        runs_box.addWidget(self.every)
        runs_box.addWidget(self.runs)
        form = QFormLayout()
        form.addRow(self.tr("&Assessors (comma-separated):"), self.names)
        form.addRow(self.tr("&Hand out:"), self.items)
        self.per_pair_label = QLabel(self.tr("&Judgments per pair (k):"))
        self.per_pair_label.setBuddy(self.per_pair)
        form.addRow(self.per_pair_label, self.per_pair)
        runs_label = QLabel(self.tr("&Runs:"))
        runs_label.setBuddy(self.every)
        form.addRow(runs_label, runs_box)
        form.addRow(self.tr("&Depth:"), self.depth_box)
        form.addRow(self.tr("&Control pairs (shown again, blind):"), self.control)
        form.addRow(self.tr("&Seed of the order:"), self.seed)
        form.addRow(self.tr("Campaign &name:"), self.name)
        folder_label = QLabel(self.tr("&Output folder:"))
        folder_label.setBuddy(self.folder)  # the field is a row: no buddy by itself
        form.addRow(folder_label, self.folder_row)
        return form

    def assessors(self) -> list[str]:
        """The names typed, in order, without blanks or repeats."""
        seen: list[str] = []
        for name in (n.strip() for n in self.names.text().split(",")):
            if name and name not in seen:
                seen.append(name)
        return seen

    def kind(self) -> str:
        """What is handed out: ``pairs``, ``claims`` or ``trajectories``."""
        return str(self.items.currentData())

    def checked_runs(self) -> list[str]:
        return [self.runs.item(i).text() for i in range(self.runs.count())
                if self.runs.item(i).checkState() == Qt.CheckState.Checked]

    def default_name(self) -> str:
        """"3 assessors × 2", in the interface's language (the campaign's name)."""
        return self.tr("%n assessor(s) × %1", "", len(self.assessors())).replace(
            "%1", str(self.per_pair.value()))

    def choice(self) -> dict[str, Any]:
        """The arguments of ``team_files.hand_out`` the dialog chose.  Runs and depth as
        the file's pool setting: both None (the pool as Judge → Pool… set it)."""
        seed = self.seed.value()
        kind = self.kind()
        runs: list[str] | None = None if self.every.isChecked() else self.checked_runs()
        depth = (self.depth_box.value() or None) if kind == "pairs" else None
        if kind == "pairs":
            same = (runs is None if self.defaults.pool_runs is None
                    else runs is not None and set(runs) == set(self.defaults.pool_runs))
            if same and depth == self.defaults.pool_depth:
                runs, depth = None, None
            elif runs is None and depth is None:  # every run, whole lists: said explicitly
                runs = list(self.defaults.runs)
        return {"assessors": self.assessors(), "per_pair": self.per_pair.value(),
                "control": round(self.control.value() / 100.0, 4) if kind == "pairs" else 0.0,
                "seed": None if seed == RANDOM_SEED else seed,
                "out_dir": Path(self.folder.text().strip()).expanduser(),
                "runs": runs, "depth": depth, "items": kind,
                "name": self.name.text().strip() or self.default_name()}

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Output folder"),
                                                  self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def _sync(self, *_args: object) -> None:
        kind = self.kind()
        pairs = kind == "pairs"
        self.per_pair_label.setText({"pairs": self.tr("&Judgments per pair (k):"),
                                     "claims": self.tr("&Verdicts per claim (k):"),
                                     "trajectories": self.tr("&Reviews per trajectory (k):")
                                     }[kind])
        self.per_pair.setSuffix({"pairs": self.tr(" assessors per pair"),
                                 "claims": self.tr(" assessors per claim"),
                                 "trajectories": self.tr(" assessors per trajectory")}[kind])
        for widget in (self.depth_box, self.control):
            widget.setEnabled(pairs)
        self.runs.setEnabled(not self.every.isChecked())
        if self.name.text().strip() in ("", self._proposed):
            self._proposed = self.default_name()
            self.name.setText(self._proposed)
        self.explain.setText(self.tr(
            "The pool (Judge → Pool…) is shared out so that every pair gets k different "
            "assessors and each assessor about the same number of pairs, each in an order of "
            "their own. One file per assessor is written in the folder; send each expert "
            "theirs (a synced folder or a git repository will do), then File → Team → "
            "Collect… brings their work back.") if pairs else self.tr(
            "Each item of the chosen runs goes to k different assessors, about the same "
            "number each, in an order of their own; the experts verify in the Verify or "
            "Agents section of their file, without anyone's verdict. One file per assessor is "
            "written in the folder; File → Team → Collect… brings their verdicts back."))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.assessors()) and bool(self.folder.text().strip())
                      and (self.every.isChecked() or bool(self.checked_runs())))


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
                         .replace("%2", render_any(f.refused)))
            continue
        lines.append(translate("TeamMenu", "%1 (%2): %3 added, %4 updated, %5 unchanged, "
                                           "%6 control repeats, %7 can’t judge, %8 conflicts")
                     .replace("%1", f.path.name).replace("%2", f.assessor)
                     .replace("%3", str(f.added)).replace("%4", str(f.updated))
                     .replace("%5", str(f.unchanged)).replace("%6", str(f.controls))
                     .replace("%7", str(f.cannot_judge)).replace("%8", str(len(f.conflicts))))
        if f.older:  # labels that differ from the master's, older: the master's are kept
            lines[-1] += CollectReport().older(f.older)
        # the lines are the core's messages: in the window's language
        details += few_lines([translate("TeamMenu", "%1: %2").replace("%1", f.path.name)
                              .replace("%2", render_any(c)) for c in f.conflicts])
        details += few_lines([translate("TeamMenu", "%1: skipped — %2")
                              .replace("%1", f.path.name).replace("%2", render_any(s))
                              for s in f.skipped])
    return lines, details


class CollectReport(QObject):
    """The collect report's plural, in a class: lupdate reads plurals only from ``self.tr``
    in a class."""

    def collected(self, n: int) -> str:
        return self.tr("Collected %n file(s); each one is a step Undo can take back.", "", n)

    def older(self, n: int) -> str:
        return self.tr("; %n label(s) older than the master's (its own kept)", "", n)


def show_collect_report(parent: QWidget | None, report: Any) -> QMessageBox:
    """Each file's outcome, the disputes now in the adjudication queue, and every conflict
    (shared content an expert edited: reported, not applied)."""
    lines, details = collect_lines(report)
    if report.master_skipped:
        lines.insert(0, translate("TeamMenu", "Skipped the master itself (it collects, it is "
                                              "not collected)."))
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
    collected = len(report.files) - len(report.refused)
    box.setText(CollectReport().collected(collected))
    box.setInformativeText("\n".join(lines))
    if details:
        box.setDetailedText("\n".join(details))
    box.open()
    return box


def show_hand_out_report(parent: QWidget | None, report: Any,
                         items: str = "pairs") -> QMessageBox:
    """Which file each assessor gets and how many pairs (claims, trajectories)."""
    each = {"pairs": translate("TeamMenu", "%1: %2 pairs → %3"),
            "claims": translate("TeamMenu", "%1: %2 claims → %3"),
            "trajectories": translate("TeamMenu", "%1: %2 trajectories → %3")}[items]
    lines = [each.replace("%1", name).replace("%2", str(report.slots.get(name, 0)))
             .replace("%3", str(path)) for name, path in report.files.items()]
    box = QMessageBox(parent)
    box.setStyleSheet(  # one line per file, not four
        "QLabel#qt_msgbox_informativelabel { min-width: 560px; }")
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle(translate("TeamMenu", "Hand Out Assignments"))
    total = {"pairs": translate("TeamMenu", "%1 pairs handed out; send each expert their file."),
             "claims": translate("TeamMenu", "%1 claims handed out; send each expert their "
                                             "file."),
             "trajectories": translate("TeamMenu", "%1 trajectories handed out; send each "
                                                   "expert their file.")}[items]
    box.setText(total.replace("%1", str(report.pairs)))
    box.setInformativeText("\n".join([*lines, *map(render_any, report.warnings)]))
    box.open()
    return box
