"""Verify section: the runs' generated answers with their claims and verdicts.

Lists every answer with how many of its claims are verified and how (supported / not
supported / contradicted); below, the selected answer's text and its claims in order.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import NotFound
from rag_annotator.ui import labels
from rag_annotator.ui.hub import UiContext
from rag_annotator.ui.models import Column, RowsModel, number, one_line
from rag_annotator.ui.sections.base import (
    Section,
    current_row,
    esc,
    make_table,
    select_row,
    vertical_split,
)


class VerifySection(Section):
    """Answers overview, answer text and its claims."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.answers = RowsModel([
            Column(self.tr("Run"), lambda r: r["run"], 16),
            Column(self.tr("Case"), lambda r: r["case_key"], 8),
            Column(self.tr("Question"), lambda r: one_line(r["question"]), 30, stretch=True),
            Column(self.tr("Claims"), lambda r: number(r["claims"]), 7, numeric=True),
            Column(self.tr("Verified"), lambda r: number(r["verified"]), 7, numeric=True),
            Column(self.tr("Supported"), lambda r: number(r["supported"] or 0), 8,
                   numeric=True),
            Column(self.tr("Not supported"), lambda r: number(r["not_supported"] or 0), 8,
                   numeric=True),
            Column(self.tr("Contradicted"), lambda r: number(r["contradicted"] or 0), 8,
                   numeric=True),
        ], self)
        self.claims = RowsModel([
            Column(self.tr("#"), lambda r: number(r["position"]), 3, numeric=True),
            Column(self.tr("Claim"), lambda r: one_line(r["text"]), 40, stretch=True),
            Column(self.tr("Verdict"), lambda r: labels.verdict(r["verdict"]), 12),
            Column(self.tr("Rationale"), lambda r: one_line(r["rationale"]), 30, stretch=True),
            Column(self.tr("Evidence"), lambda r: ", ".join(map(str, r["evidence"])), 12),
        ], self)
        self.answers_table = make_table(self.answers)
        self.claims_table = make_table(self.claims)
        self.answer_text = QTextBrowser()
        self.answer_text.setOpenLinks(False)
        self.empty = QLabel()
        self.empty.setWordWrap(True)

        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(self.answer_text)
        bottom.addWidget(self.claims_table)
        bottom.setStretchFactor(0, 2)
        bottom.setStretchFactor(1, 3)
        bottom.setSizes([2000, 3000])
        layout = QVBoxLayout(self)
        layout.addWidget(vertical_split(self.answers_table, bottom, (1, 1)), 1)
        layout.addWidget(self.empty)
        self.answers_table.selectionModel().currentRowChanged.connect(self._show_answer)

    def focus_widget(self) -> QWidget:
        return self.answers_table

    def refresh(self) -> None:
        store = self.store
        if store is None:
            return
        keep = self._answer_id()
        rows = store.answers_overview()
        self.answers.set_rows(rows)
        self.empty.setText("" if rows else self.tr(
            "No run has generated answers in this gold set yet: import a run with its answers "
            "to verify them claim by claim."))
        self.empty.setVisible(not rows)
        target = next((i for i, r in enumerate(rows) if r["id"] == keep), 0)
        if rows:
            select_row(self.answers_table, target)
        else:
            self._show_answer()

    def clear(self) -> None:
        self.answers.set_rows([])
        self.claims.set_rows([])
        self.answer_text.clear()

    def cares(self, changes: Changes) -> bool:
        return changes.touches("answers", "claims", "evidence", "runs", "cases")

    def _answer_id(self) -> int | None:
        row = self.answers.row_at(current_row(self.answers_table))
        return None if row is None else int(row["id"])

    def _show_answer(self) -> None:
        store, answer_id = self.store, self._answer_id()
        if store is None or answer_id is None:
            self.answer_text.clear()
            self.claims.set_rows([])
            return
        try:
            answer = store.answer_detail(answer_id)
        except NotFound:
            return
        self.answer_text.setHtml(
            f"<p><b>{esc(answer['run'])} · {esc(answer['case_key'])}</b> — "
            f"{esc(answer['question'])}</p><hr><p>{esc(answer['text'])}</p>")
        self.claims.set_rows(store.claims_of(answer_id))
