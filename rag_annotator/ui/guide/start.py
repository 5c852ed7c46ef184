"""The first steps of a gold set that lacks its questions, its documents or its runs.

Shown above the sections while a writable file has no case, no document or no run: three
numbered steps, each a button that opens the import the rest of the app already has (File →
Import → Cases, Corpus, Run), each marked done, with its count, once it is.  The expert who
opens a new file is told what to do first instead of facing empty tables.  *Hide these steps*
hides them for this file until it is opened again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton, QVBoxLayout

from rag_annotator.domain.changes import Changes
from rag_annotator.storage.store import GoldSetStore

if TYPE_CHECKING:
    from rag_annotator.ui.main_window import MainWindow

#: (step, the table whose rows mean the step is done, the import it opens).
STEPS: tuple[tuple[str, str, str], ...] = (("cases", "cases", "cases"),
                                           ("documents", "documents", "corpus"),
                                           ("run", "runs", "run"))


class StartSteps(QFrame):
    """The three first steps (import the questions, the documents, a run) as buttons.

    Attributes:
        buttons: step name ("cases", "documents", "run") → the button that opens its import.
        folder_button: the documents' other way in, a folder of PDF, Word, HTML… files.
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.setObjectName("startSteps")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._hidden_for: str | None = None
        title = QLabel(self.tr("<b>Start here.</b> This gold set is still empty; "
                               "three steps fill it (F1 explains each one):"))
        title.setWordWrap(True)
        texts = {
            "cases": self.tr("Import the spreadsheet of questions (CSV, Excel or JSONL): one "
                             "row per question, with its reference answer if you have it."),
            "documents": self.tr("Import the documents the assistant searches (a BEIR "
                                 "corpus, CSV, Excel, or a folder of PDF, Word, HTML, text "
                                 "files)."),
            "run": self.tr("Import a run: what the RAG system retrieved and answered for "
                           "each question (TREC, JSONL, Ragas, agent trajectories)."),
        }
        labels = {"cases": self.tr("1. Import the Questions…"),
                  "documents": self.tr("2. Import the Documents…"),
                  "run": self.tr("3. Import a Run…")}
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        self.states: dict[str, QLabel] = {}
        for row, (step, _table, kind) in enumerate(STEPS):
            button = QPushButton(labels[step])
            button.setObjectName(f"start.{step}")
            button.clicked.connect(lambda _checked=False, k=kind: window.ask_import(k))
            text = QLabel(texts[step])
            text.setWordWrap(True)
            state = QLabel()
            self.buttons[step], self.states[step] = button, state
            grid.addWidget(button, row, 0)
            grid.addWidget(text, row, 1)
            grid.addWidget(state, row, 2)
        grid.setColumnStretch(1, 1)
        self.folder_button = QPushButton(self.tr("…or a Folder of Documents…"))
        self.folder_button.setFlat(True)
        self.folder_button.clicked.connect(lambda: window.ask_import("corpus-folder"))
        grid.addWidget(self.folder_button, 3, 0)
        hide = QPushButton(self.tr("Hide These Steps"))
        hide.clicked.connect(self.hide_for_this_file)
        grid.addWidget(hide, 3, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addLayout(grid)
        self.setVisible(False)
        window.hub.store_replaced.connect(self._on_store)
        window.hub.changes_applied.connect(self._on_changes)

    def counts(self, store: GoldSetStore) -> dict[str, int]:
        """Rows of each step's table (three ``COUNT(*)``: asked only while the steps show or
        when a file is opened)."""
        return {step: store.count(table) for step, table, _kind in STEPS}

    def update_state(self) -> None:
        """Show the steps while an open, writable file lacks one of the three (never in an
        expert's assignment file: it is for judging the pairs it holds, not for building)."""
        store = self.window_.store
        if (store is None or store.read_only or self._hidden_for == str(store.path)
                or store.assignment_info() is not None):
            self.setVisible(False)
            return
        if all(store.has_rows(table) for _step, table, _kind in STEPS):
            self.setVisible(False)  # nothing to count: a file with all three shows no steps
            return
        counts = self.counts(store)
        for step, count in counts.items():
            self.states[step].setText(self.tr("✓ done (%1)").replace("%1", str(count))
                                      if count else "")
            self.states[step].setAlignment(Qt.AlignmentFlag.AlignRight)
        self.setVisible(not all(counts.values()))

    def hide_for_this_file(self) -> None:
        """The expert knows the way: no steps for this file until it is opened again."""
        store = self.window_.store
        self._hidden_for = str(store.path) if store is not None else None
        self.setVisible(False)

    def _on_store(self, _store: object) -> None:
        self._hidden_for = None  # opened again: the steps come back if still needed
        self.update_state()

    def _on_changes(self, changes: Changes) -> None:
        # counted again only when a step's table changed (not after every review key)
        if self.isVisible() and changes.touches(*(table for _s, table, _k in STEPS)):
            self.update_state()

