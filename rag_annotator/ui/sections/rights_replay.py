"""The "what if" dialog of the rights matrix: replay a change on what the runs produced.

Choose an identity and one of its groups (or, from the matrix, the toggle of the current
cell): the dialog lists, without running any system,
every stored answer whose ranking, context or citations the change would expose (run, case,
stages, documents) and the figures that would change (before → after).  "Apply" makes the
change for real, as one undoable operation; "Close" leaves the file as it was.  The work is
``reports.rights_replay`` (the same as ``rag-annotator rights``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain import rights_ops
from rag_annotator.domain.rights import Identities, RightsChange, remove_group
from rag_annotator.reports.rights_replay import Replay, replay
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.models import Column, RowsModel
from rag_annotator.ui.sections.base import esc, make_table


class ReplayDialog(QDialog):
    """Remove a group from an identity, as a what-if; apply it for real on request."""

    def __init__(self, ctx: UiContext, identities: Identities, identity: str = "",
                 parent: QWidget | None = None,
                 cell: tuple[str, str, list[str]] | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.cell = cell  # (document key, identity, the document's rights after a toggle)
        self.setWindowTitle(self.tr("What if: replay a rights change"))
        self.identities = Identities(tuple(i for i in identities.items if i.groups))
        self.replayed: Replay | None = None
        self.change: RightsChange | None = None
        self.label = ""
        self.mode = QComboBox()
        self.mode.addItem(self.tr("Remove a group from an identity"), "group")
        if cell is not None:
            self.mode.addItem(self.tr("Toggle the current cell: %1 × %2 (groups → %3)")
                              .replace("%1", cell[0]).replace("%2", cell[1])
                              .replace("%3", ", ".join(cell[2])), "cell")
        self.mode.currentIndexChanged.connect(lambda _i: self._fill_groups())
        self.identity = QComboBox()
        self.group = QComboBox()
        for item in self.identities.items:
            self.identity.addItem(f"{item.name} ({', '.join(item.groups)})", item.name)
        self.identity.setCurrentIndex(max(self.identity.findData(identity), 0))
        self.identity.currentIndexChanged.connect(self._fill_groups)
        self.group.currentIndexChanged.connect(lambda _i: self.run_replay())
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.answers = RowsModel([
            Column(self.tr("Run"), lambda r: r["run"], 18),
            Column(self.tr("Case"), lambda r: r["case"], 6),
            Column(self.tr("Identity"), lambda r: r["identity"], 10),
            Column(self.tr("Now exposed"), lambda r: r["stages"], 22),
            Column(self.tr("Documents"), lambda r: r["documents"], 18, stretch=True),
        ], self)
        self.figures = RowsModel([
            Column(self.tr("Figure"), lambda r: r["what"], 34, stretch=True),
            Column(self.tr("Before"), lambda r: r["before"], 7, numeric=True),
            Column(self.tr("After"), lambda r: r["after"], 7, numeric=True),
        ], self)
        self.answers_table = make_table(self.answers)
        self.figures_table = make_table(self.figures)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.apply_button = QPushButton(self.tr("Apply the change"))
        buttons.addButton(self.apply_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.apply_button.clicked.connect(self.apply)
        buttons.rejected.connect(self.reject)
        form = QHBoxLayout()
        self.form_labels = (QLabel(self.tr("Remove from identity")), QLabel(self.tr("the group")))
        form.addWidget(self.form_labels[0])
        form.addWidget(self.identity, 1)
        form.addWidget(self.form_labels[1])
        form.addWidget(self.group, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.mode)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(QLabel(self.tr("Stored answers that would expose a forbidden "
                                        "document:")))
        layout.addWidget(self.answers_table, 2)
        layout.addWidget(QLabel(self.tr("Figures that would change:")))
        layout.addWidget(self.figures_table, 3)
        layout.addWidget(buttons)
        self.resize(820, 620)
        self._fill_groups()
        self.identity.setFocus()

    def _fill_groups(self) -> None:
        item = self.identities.get(self.identity.currentData() or "")
        self.group.blockSignals(True)
        self.group.clear()
        for group in item.groups if item is not None else ():
            self.group.addItem(group, group)
        self.group.blockSignals(False)
        self.run_replay()

    def _stage(self, stage: str) -> str:
        return {"retrieved": self.tr("retrieved"), "context": self.tr("context"),
                "cited": self.tr("cited")}[stage]

    def _measure(self, scope: str, name: str, measure: str) -> str:
        what = (self.tr("cases exposed") if measure == "cases" else
                self.tr("all exposures") if measure == "total" else self._stage(measure))
        owner = (self.tr("identity %1") if scope == "identity" else self.tr("run %1"))
        return f"{owner.replace('%1', name)} · {what}"

    def _chosen(self) -> tuple[RightsChange | None, str]:
        """The change the form describes, and its label (None: incomplete)."""
        by_cell = self.mode.currentData() == "cell" and self.cell is not None
        for widget in (self.identity, self.group, *self.form_labels):
            widget.setVisible(not by_cell)
        if by_cell and self.cell is not None:
            key, identity, after = self.cell
            return (RightsChange(document_rights={key: tuple(after)}),
                    f"{key} · {identity}")
        identity, group = self.identity.currentData(), self.group.currentData()
        if not identity or not group:
            return None, ""
        return remove_group(self.identities, identity, group), f"{identity} − {group}"

    def run_replay(self) -> None:
        """Replay the chosen change (reads only) and show what it would expose."""
        store = self.ctx.hub.store
        change, self.label = self._chosen()
        if store is None or change is None:
            self.change = self.replayed = None
            self.answers.set_rows([])
            self.figures.set_rows([])
            self.summary.setText(esc(self.tr("Choose an identity and one of its groups.")))
            self.apply_button.setEnabled(False)
            return
        self.change = change
        self.replayed = replay(store, self.change)
        answers = self.replayed.answers()
        self.answers.set_rows([
            {"run": run, "case": case, "identity": events[0].identity,
             "stages": ", ".join(dict.fromkeys(self._stage(e.stage) for e in events)),
             "documents": ", ".join(sorted({e.document for e in events}))}
            for (run, case), events in answers.items()])
        self.figures.set_rows([
            {"what": self._measure(f.scope, f.name, f.measure), "before": str(f.before),
             "after": str(f.after)} for f in self.replayed.figures()])
        runs = len({run for run, _case in answers})
        self.summary.setText("<b>" + esc(
            self.tr("After %1: %2 new exposure(s) in %3 stored answer(s) of %4 run(s), %5 "
                    "removed. Nothing is run again; nothing changes until you apply.")
            .replace("%1", self.label).replace("%2", str(len(self.replayed.new)))
            .replace("%3", str(len(answers))).replace("%4", str(runs))
            .replace("%5", str(len(self.replayed.gone)))) + "</b>")
        self.apply_button.setEnabled(True)

    def apply(self) -> None:
        """Make the change for real: one undoable operation, then close."""
        change = self.change
        if change is None:
            return
        label = self.label
        if self.ctx.undo.run(lambda s: rights_ops.apply_rights_change(s, change, label)):
            self.accept()
