"""The Dashboard's file-wide panels — the counts of cases, labels and claims, the agreement
between assessors, the automatic judges measured on their samples — and when to read them:
:class:`FilePanels`.

They are about the file, not the run shown, so they are read for every file (with a run or
not) from one :class:`~rag_annotator.reports.file_figures.FileFigures`; after a label only
what a label moves is read again (the agreement, a judge measured on relevance), and the
pairs by effective label come from the judging progress, kept up to date pair by pair.
"""

from __future__ import annotations

from dataclasses import replace

from rag_annotator.reports.file_figures import FileFigures, build_file_figures
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.dashboard.goldset_panels import AgreementPanel, CountsPanel
from rag_annotator.ui.dashboard.judge_sample_panel import JudgeSamplePanel
from rag_annotator.ui.progress import JudgingProgress

#: Above this many judgments the Dashboard does not recount agreement at every change.
AGREEMENT_UI_MAX = 50_000


class FilePanels:
    """``counts``, ``agreement`` and ``judges`` (the three panels), and ``figures``, the
    file-wide figures they show (None: none read yet, or the file was closed)."""

    def __init__(self, progress: JudgingProgress) -> None:
        self.progress = progress
        self.counts = CountsPanel()
        self.agreement = AgreementPanel()
        self.judges = JudgeSamplePanel()
        self.figures: FileFigures | None = None

    def clear(self) -> None:
        self.figures = None
        for panel in (self.counts, self.agreement, self.judges):
            panel.clear()

    def show(self, store: GoldSetStore, level: float, judging_only: bool = False) -> None:
        """Read and show them; ``judging_only``: the change was a label, which moves neither
        the cases' nor the claims' counts, nor a judge measured on claims or answers (those
        are kept)."""
        if not judging_only:
            self.counts.show_counts(store.family_counts(), store.status_counts(),
                                    store.claim_counts())
        self.show_judgments()
        before = self.figures
        judges = not judging_only or before is None or any(
            "relevance" in levels for levels in before.judges.values())
        if judging_only and not judges and before is not None \
                and not before.agreement_counted:
            return  # too many judgments to recount, no judge on labels: nothing moves
        file = build_file_figures(store, level, agreement_limit=AGREEMENT_UI_MAX,
                                  counts=False, judges=judges)
        if not judges and before is not None:
            file = replace(file, judges=before.judges)
        self.figures = file
        if file.agreement_counted:
            self.agreement.show_report(file.agreement)
        else:
            self.agreement.show_too_many()
        self.judges.show_judges(file.judges)

    def show_judgments(self) -> None:
        """The pairs by effective label, from the judging progress (None: still counting)."""
        self.counts.show_judgments(self.progress.totals())
