"""Dashboard section: where the gold set stands, in counts read from the file.

Family and status counts are indexed queries; judgment counts come from the shared
background count (see ``progress.py``), so opening a big file stays instant.  The pooling
assumption is stated next to the numbers, as DESIGN section 5 asks wherever numbers are shown.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.ui import labels
from rag_annotator.ui.hub import UiContext
from rag_annotator.ui.models import number
from rag_annotator.ui.sections.base import Section


class _CountsBox(QGroupBox):
    """A titled list of label → count, rebuilt on each refresh."""

    def __init__(self, title: str) -> None:
        super().__init__(title)
        self.form = QFormLayout(self)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft)
        self._shown: list[tuple[str, str]] = []

    def show_counts(self, rows: list[tuple[str, str]]) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self._shown = list(rows)
        for label, value in rows:
            value_label = QLabel(value)
            value_label.setAlignment(Qt.AlignmentFlag.AlignRight)
            value_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.form.addRow(label, value_label)

    def values(self) -> dict[str, str]:
        """Shown label → value (for tests)."""
        return dict(self._shown)


class DashboardSection(Section):
    """Counts by family, status, judgment label and claim verdict."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.families = _CountsBox(self.tr("Cases by family"))
        self.statuses = _CountsBox(self.tr("Cases by status"))
        self.judgments = _CountsBox(self.tr("Pairs by effective label"))
        self.claims = _CountsBox(self.tr("Claims by verdict"))
        self.pooling = QLabel(self.tr(
            "Pooling assumption: a document outside a case's universe (not retrieved by any "
            "run, not an expected source, never judged) counts as not relevant. Inside the "
            "universe, an unjudged pair is not \"not relevant\": it stays unjudged until "
            "someone labels it, and assessors who disagree make a disputed pair, never "
            "resolved silently."))
        self.pooling.setWordWrap(True)
        grid = QGridLayout()
        grid.addWidget(self.families, 0, 0, 2, 1)
        grid.addWidget(self.statuses, 0, 1)
        grid.addWidget(self.claims, 1, 1)
        grid.addWidget(self.judgments, 0, 2, 2, 1)
        for column in range(3):
            grid.setColumnStretch(column, 1)
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.addLayout(grid)
        body_layout.addWidget(self.pooling)
        body_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        ctx.progress.updated.connect(self._on_progress)
        ctx.progress.completed.connect(self._on_progress)

    def refresh(self) -> None:
        store = self.store
        if store is None:
            return
        self.families.show_counts([(labels.family(k), number(v))
                                   for k, v in store.family_counts().items()])
        statuses = store.status_counts()
        self.statuses.show_counts([(labels.case_status(k), number(statuses.get(k, 0)))
                                   for k in labels.CASE_STATUSES])
        claims = store.claim_counts()
        self.claims.show_counts([(labels.verdict(k), number(claims.get(k, 0)))
                                 for k in ("supported", "not_supported", "contradicted",
                                           "unverified")])
        self._show_judgments()

    def clear(self) -> None:
        for box in (self.families, self.statuses, self.judgments, self.claims):
            box.show_counts([])

    def cares(self, changes: Changes) -> bool:
        return changes.touches("cases", "claims")

    def _on_progress(self, *_args: object) -> None:
        if self.loaded and self.active:
            self._show_judgments()
        elif self.loaded:
            self.dirty = True

    def _show_judgments(self) -> None:
        totals = self.ctx.progress.totals()
        if totals is None:
            self.judgments.show_counts([(self.tr("Counting judgments…"), "")])
            return
        self.judgments.show_counts([
            (labels.judgment("relevant"), number(totals["relevant"])),
            (labels.judgment("not_relevant"), number(totals["not_relevant"])),
            (labels.judgment("unjudged"), number(totals["unjudged"])),
            (self.tr("of which disputed"), number(totals["disputed"])),
            (self.tr("Pairs in the pools"), number(totals["pairs"])),
        ])
