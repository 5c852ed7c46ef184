"""The status bar's line: file name · assessor on the left, the file's counts on the right.

Rendered once per event-loop turn however many updates arrive (a judging key, the background
counts, a change of name): each key of a judging session renders it, so it stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QStatusBar

from rag_annotator.ui.hub import Hub
from rag_annotator.ui.models import number
from rag_annotator.ui.progress import JudgingProgress


class StatusLine(QObject):
    """The labels of the window's status bar and what they say.

    Attributes:
        file_label, assessor_label, counts_label: the three texts (tests read them).
    """

    def __init__(self, bar: QStatusBar, hub: Hub, progress: JudgingProgress,
                 assessor: Callable[[], str]) -> None:
        super().__init__(bar)
        self.hub, self.progress, self._assessor = hub, progress, assessor
        self.file_label = QLabel()
        self.assessor_label = QLabel()
        self.counts_label = QLabel()
        self.separator_label = QLabel("·")
        bar.addWidget(self.file_label)
        bar.addWidget(self.separator_label)
        bar.addWidget(self.assessor_label)
        bar.addPermanentWidget(self.counts_label)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self.render)
        hub.changes_applied.connect(lambda _changes: self.timer.start())
        hub.assessor_changed.connect(lambda _name: self.render())
        progress.updated.connect(lambda _ids: self.timer.start())
        progress.completed.connect(self.timer.start)
        progress.failed.connect(lambda text: bar.showMessage(text, 8000))
        progress.totals_changed.connect(self.timer.start)

    def render(self) -> None:
        """Say the open file, who works on it and its counts (or that they are counted)."""
        store = self.hub.store
        self.separator_label.setVisible(store is not None)
        if store is None:
            self.file_label.setText(self.tr("No file open"))
            self.assessor_label.clear()
            self.counts_label.clear()
            return
        self.file_label.setText(store.path.name)
        if self.file_label.toolTip() != str(store.path):  # each key renders the status
            self.file_label.setToolTip(str(store.path))
        self.assessor_label.setText(self.tr("Assessor: %1").replace(
            "%1", self._assessor() or self.tr("(asked at your first change)")))
        file_totals = self.progress.file_totals()
        if file_totals is None:  # counted first on the judging-count worker, just opened
            self.counts_label.setText(self.tr("counting judgments…"))
            return
        parts = [self.tr("%Ln case(s)", "", file_totals["cases"]),
                 self.tr("%Ln document(s)", "", file_totals["documents"])]
        totals = self.progress.totals()
        assignment = store.assignment_progress() if store.assignment_info() else None
        if assignment is not None:  # an expert's file: their queue, not the (absent) pool
            parts.append(self.tr("assignment: %1 / %2 done")
                         .replace("%1", number(int(assignment["done"] or 0)))
                         .replace("%2", number(int(assignment["total"] or 0))))
        elif totals is None:
            parts.append(self.tr("counting judgments…"))
        else:
            judged = totals["relevant"] + totals["not_relevant"]
            parts.append(self.tr("%1 judged / %2 unjudged pairs")
                         .replace("%1", number(judged)).replace("%2", number(totals["unjudged"])))
        parts.append(self.tr("%Ln claim(s) unverified", "", file_totals["unverified"]))
        self.counts_label.setText(" · ".join(parts))
