"""The "Draw a review sample…" dialog (issue 22): the app's face of ``rag-annotator sample``.

The user picks the automatic judge, the level (claims, answers, relevance), a size or a
target half-width of the judge's accuracy interval — then the dialog shows the size the
domain proposes (:func:`~rag_annotator.domain.review_sample.proposed_size`, the same as the
CLI's) — and a seed.  The draw is the one undoable operation
:func:`~rag_annotator.domain.review_sample.draw_review_sample`; the caller then opens the
matching review queue (Verify's Q for claims and answers, Judge's Q for relevance).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from rag_annotator.domain.review_sample import (
    DEFAULT_SAMPLE_SEED,
    LEVELS,
    draw_review_sample,
    proposed_size,
)

if TYPE_CHECKING:
    from rag_annotator.storage.store import GoldSetStore
    from rag_annotator.ui.context import UiContext

Row = dict[str, Any]


class DrawSampleDialog(QDialog):
    """Judge, level, size or half-width (with the proposed size), seed."""

    def __init__(self, store: GoldSetStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Draw a Review Sample"))
        self.store = store
        self._assessors = store.export_assessors()
        self._units: dict[tuple[str, str], list[Row]] = {}
        self.level = QComboBox()
        level_names = {"claims": self.tr("Claims"), "answers": self.tr("Answers"),
                       "relevance": self.tr("Relevance (case, document)")}
        for level in LEVELS:
            self.level.addItem(level_names[level], level)
        self.judge = QComboBox()
        self.by_size = QRadioButton(self.tr("Size:"))
        self.size_box = QSpinBox()
        self.size_box.setRange(1, 1_000_000)
        self.size_box.setValue(100)
        self.by_width = QRadioButton(self.tr("Target half-width (±):"))
        self.half_width = QDoubleSpinBox()
        self.half_width.setRange(0.005, 0.5)
        self.half_width.setDecimals(3)
        self.half_width.setSingleStep(0.01)
        self.half_width.setValue(0.05)
        self.by_width.setChecked(True)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_147_483_647)
        self.seed.setValue(DEFAULT_SAMPLE_SEED)
        self.proposal = QLabel()
        self.proposal.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Draw"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.tr("Level:"), self.level)
        form.addRow(self.tr("Judge:"), self.judge)
        form.addRow(self.by_size, self.size_box)
        form.addRow(self.by_width, self.half_width)
        form.addRow(self.tr("Seed:"), self.seed)
        form.addRow(self.proposal)
        form.addRow(buttons)
        self.level.currentIndexChanged.connect(self._fill_judges)
        self.judge.currentIndexChanged.connect(self._update)
        for signal in (self.by_size.toggled, self.size_box.valueChanged,
                       self.half_width.valueChanged):
            signal.connect(self._update)
        self._fill_judges()

    def chosen_level(self) -> str:
        return str(self.level.currentData())

    def chosen_judge(self) -> str:
        return self.judge.currentText()

    def units(self) -> list[Row]:
        """The units the chosen judge labelled at the chosen level (read once each)."""
        key = (self.chosen_judge(), self.chosen_level())
        if not key[0]:
            return []
        if key not in self._units:
            self._units[key] = self.store.judged_units(*key)
        return self._units[key]

    def proposed(self) -> int | None:
        """The size proposed for the half-width (None: a size is given)."""
        if self.by_size.isChecked():
            return None
        return proposed_size(self.units(), self.half_width.value())

    def choice(self) -> tuple[str, str, int | None, float | None, int]:
        """(judge, level, size or None, half-width or None, seed) for the draw."""
        width = None if self.by_size.isChecked() else self.half_width.value()
        size = self.size_box.value() if self.by_size.isChecked() else None
        return self.chosen_judge(), self.chosen_level(), size, width, self.seed.value()

    def _fill_judges(self) -> None:
        """Claims and answers: the assessors of kind judge; relevance: also the other
        assessors (an automatic judge's labels come in as qrels under a plain assessor)."""
        relevance = self.chosen_level() == "relevance"
        names = [str(a["name"]) for a in self._assessors
                 if a["kind"] == "judge" or (relevance and a["kind"] != "judge"
                                             and a["name"] != self.store.assessor)]
        self.judge.blockSignals(True)
        self.judge.clear()
        self.judge.addItems(names)
        self.judge.blockSignals(False)
        self._update()

    def _update(self) -> None:
        self.size_box.setEnabled(self.by_size.isChecked())
        self.half_width.setEnabled(not self.by_size.isChecked())
        units = self.units()
        if not self.chosen_judge():
            text = self.tr("No automatic judge in this file for this level: import one's "
                           "verdicts first.")
        elif not units:
            text = (self.tr("%1 labelled nothing at this level.")
                    .replace("%1", self.chosen_judge()))
        else:
            proposed = self.proposed()
            size = proposed if proposed is not None else self.size_box.value()
            text = (self.tr("%1 of the %2 units the judge labelled will be drawn.")
                    .replace("%1", str(size)).replace("%2", str(len(units))))
            if proposed is not None:
                text = (self.tr("Proposed size: %1 (for ±%2 at 95%). ")
                        .replace("%1", str(proposed))
                        .replace("%2", f"{self.half_width.value():g}")) + text
            elif size > len(units):
                text = (self.tr("The judge labelled only %1 units: give a size between 1 "
                                "and %1.").replace("%1", str(len(units))))
        kind = next((a["kind"] for a in self._assessors if a["name"] == self.chosen_judge()),
                    "judge")
        if units and kind != "judge":
            text += " " + (self.tr("Drawing declares %1 an automatic judge: its labels no "
                                   "longer count as a human's (undoable).")
                           .replace("%1", self.chosen_judge()))
        self.proposal.setText(text)
        self.ok_button.setEnabled(bool(units) and 0 < (self.proposed() or self.size_box.value())
                                  <= len(units))


def draw_with_dialog(ctx: UiContext, parent: QWidget) -> tuple[str, str] | None:
    """Ask, then draw the sample as one undoable operation; (judge, level) once drawn."""
    store = ctx.hub.store
    if store is None:
        return None
    dialog = DrawSampleDialog(store, parent)
    if not dialog.exec():
        return None
    judge, level, size, width, seed = dialog.choice()
    units = dialog.units()
    changes = ctx.undo.run(lambda s: draw_review_sample(s, judge, level, units, size, seed,
                                                        width)[0])
    return None if changes is None else (judge, level)
