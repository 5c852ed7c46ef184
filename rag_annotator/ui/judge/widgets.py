"""The Judge section's models and widgets: the cases with their judging counts, and the
highlighter that marks the question's terms in the document being judged."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import QLineEdit, QWidget

from rag_annotator.domain.terms import question_terms, term_spans
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.look import colours
from rag_annotator.ui.models import Column, LazyTableModel, Row, number, one_line
from rag_annotator.ui.pages.headings import StructureHighlighter
from rag_annotator.ui.progress import JudgingProgress


class JudgeProgressModel(LazyTableModel):
    """Cases (key and question loaded by page) with their judging counts."""

    def __init__(self, progress: JudgingProgress, parent: Any = None) -> None:
        super().__init__([], parent)
        self.progress = progress

        def count(key: str) -> Any:
            return lambda r: number(r.get(key)) if "pairs" in r else "…"

        self.columns = [
            Column(self.tr("Key"), lambda r: r["key"], 8),
            Column(self.tr("Question"), lambda r: one_line(r["question"]), 36, stretch=True),
            Column(self.tr("Pairs"), count("pairs"), 5, numeric=True),
            Column(self.tr("By you"), count("mine"), 6, numeric=True),
            Column(self.tr("Unjudged"), count("unjudged"), 7, numeric=True),
            Column(self.tr("Disputed"), count("disputed"), 7, numeric=True),
        ]
        progress.updated.connect(self._on_progress)

    def fetch_ids(self, store: GoldSetStore) -> list[int]:
        return store.case_ids()

    def fetch_rows(self, store: GoldSetStore, ids: Sequence[int]) -> dict[int, Row]:
        return store.cases_rows(ids)

    def row_at(self, row: int) -> Row | None:
        base = super().row_at(row)
        if base is None:
            return None
        counts = self.progress.row(base["id"])
        return {**base, **counts} if counts is not None else base

    def _on_progress(self, case_ids: frozenset[int] | None) -> None:
        if case_ids is None:
            self.refresh_all()
            return
        # Only the counts changed, and row_at() reads them from the progress at each call:
        # repaint the count cells without dropping (and re-reading) the cases' pages.
        first, last = 2, self.columnCount() - 1
        for case_id in case_ids:
            row = self.row_of(case_id)
            if row is not None:
                self.dataChanged.emit(self.index(row, first), self.index(row, last))


#: Lines whose term spans a highlighter keeps (a few documents' worth).
SPANS_KEPT = 4096


class TermHighlighter(StructureHighlighter):
    """Marks the question's terms in the document being judged (see ``domain.terms``), over
    the document's headings.

    The spans of each line are kept, and :meth:`prepare` finds those of a document read
    ahead, so the key that shows it only applies them (a key within a frame)."""

    def __init__(self, document: QTextDocument, view: QWidget | None = None) -> None:
        super().__init__(document)
        self.terms: frozenset[str] = frozenset()
        self._spans: dict[tuple[frozenset[str], str], list[tuple[int, int]]] = {}
        self.term_format = QTextCharFormat()
        self.restyle()
        if view is not None:  # the view showing the document: its palette changes with the look
            view.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.PaletteChange:
            self.restyle()
        return super().eventFilter(watched, event)

    def restyle(self) -> None:
        """Take the highlight's colours from the palette now (a new look), and apply them."""
        back, text = colours.bg("highlight"), colours.fg("highlight")
        if (self.term_format.background().color() == back
                and self.term_format.foreground().color() == text):
            return
        self.term_format.setBackground(back)
        self.term_format.setForeground(text)
        self.term_format.setFontUnderline(True)  # not told by colour alone
        if not self.document().isEmpty():
            self.rehighlight()

    def set_question(self, question: str) -> None:
        terms = question_terms(question)
        if terms != self.terms:
            self.terms = terms
            self.rehighlight()

    def prepare(self, text: str, question: str | None = None) -> None:
        """Find the spans of ``text``'s lines ahead, for ``question``'s terms (default: the
        question shown)."""
        terms = self.terms if question is None else question_terms(question)
        for line in text.split("\n"):
            self._line_spans(terms, line)

    def _line_spans(self, terms: frozenset[str], line: str) -> list[tuple[int, int]]:
        found = self._spans.get((terms, line))
        if found is None:
            if len(self._spans) >= SPANS_KEPT:
                self._spans.clear()
            found = self._spans[(terms, line)] = term_spans(line, terms)
        return found

    def highlightBlock(self, text: str) -> None:
        super().highlightBlock(text)
        spans = self._line_spans(self.terms, text)
        if spans:
            term_format = self.with_heading(self.term_format)
            for start, end in spans:
                self.setFormat(start, end - start, term_format)


def show_guidelines(view: Any, store: Any) -> None:
    """The file's judging guidelines in ``view`` (Markdown), or what to do when it has none."""
    from PySide6.QtCore import QCoreApplication

    text = store.meta("guidelines", "") if store is not None else ""
    if text.strip():
        view.setMarkdown(text)
    else:
        view.setPlainText(QCoreApplication.translate(
            "JudgeSection", "No judging guidelines yet. Write them with Edit → Judging "
            "Guidelines… so every assessor reads the same rules."))


class NoteField(QLineEdit):
    """The note on the current pair (E to write, Enter saves).  Esc drops what was typed:
    ``dropped`` tells the section, which puts the stored note back and the keyboard back on
    the pairs."""

    dropped = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.dropped.emit()
            return
        super().keyPressEvent(event)


def counting_text(progress: JudgingProgress) -> str:
    """The line under the cases: pairs in the pools, judged by this assessor, with no
    agreed label (or that they are being counted)."""
    from PySide6.QtCore import QCoreApplication

    if not progress.complete:
        return QCoreApplication.translate("JudgeSection", "Counting judgments…")
    totals = progress.totals() or {}
    return (QCoreApplication.translate(
        "JudgeSection", "%1 pairs in the pools: %2 judged by you, %3 with no agreed label.")
        .replace("%1", number(totals.get("pairs", 0)))
        .replace("%2", number(totals.get("mine", 0)))
        .replace("%3", number(totals.get("unjudged", 0))))
