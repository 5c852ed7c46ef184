"""Runs section: each RAG configuration with its versions, coverage and judging progress.

``runs_summary`` counts over the retrieved lists, so it is read when the section is shown
and again only when a change concerns runs (not on every judgment while hidden).
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from rag_annotator.domain.changes import Changes
from rag_annotator.ui.hub import UiContext
from rag_annotator.ui.models import Column, RowsModel, number, one_line
from rag_annotator.ui.sections.base import Section, make_table


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
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(hint)

    def focus_widget(self) -> QWidget:
        return self.table

    def refresh(self) -> None:
        if self.store is not None:
            self.model.set_rows(self.store.runs_summary())

    def clear(self) -> None:
        self.model.set_rows([])

    def cares(self, changes: Changes) -> bool:
        return changes.touches("runs", "retrieved", "answers", "judgments", "cases")
