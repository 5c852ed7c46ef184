"""Verify's context pane: the run's retrieved documents one at a time, the current claim's
evidence marked, as text or — for a PDF — as the page the expert knows.

A retrieved passage of a PDF (a chunk located in the document) is shown on its parent's
page, the chunk highlighted, and words selected there become evidence on that document
(offsets of its text: the page's start plus the words' place on the page), so an evidence
span always names words of the file the expert saw.  Evidence stored against a passage that
was located exactly in its parent (its text is the parent's words) is drawn on the parent's
page too, and the other way round in the passage's text.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from rag_annotator.storage.reads_documents import DocumentStructure
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.look import colours
from rag_annotator.ui.pages.render import PageRenderer
from rag_annotator.ui.pages.viewer import DocumentViewer
from rag_annotator.ui.sections.base import esc
from rag_annotator.ui.text_views import QuietLabel, set_plain_text, to_qt
from rag_annotator.ui.verify.widgets import EVIDENCE_COLOUR

Row = dict[str, Any]
Span = tuple[int, int]
#: Structures kept (a run retrieves tens of documents per case).
STRUCTURES_KEPT = 256


translate = QCoreApplication.translate


class ContextPane(QWidget):
    """The label saying which retrieved document is shown, and the document itself."""

    def __init__(self, renderer: PageRenderer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QuietLabel()
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                          | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.viewer = DocumentViewer(renderer, self.text)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.viewer, 1)
        self._structures: dict[int, DocumentStructure | None] = {}

    # -- reads ----------------------------------------------------------------------------------
    def structure(self, store: GoldSetStore | None, document_id: int
                  ) -> DocumentStructure | None:
        """A context document's structure (read once while the file is unchanged)."""
        if document_id not in self._structures:
            if len(self._structures) >= STRUCTURES_KEPT:
                self._structures.clear()
            self._structures[document_id] = (store.document_structure(document_id)
                                             if store is not None else None)
        return self._structures[document_id]

    def forget(self) -> None:
        """Documents changed: read their structures again."""
        self._structures.clear()

    def index_for(self, store: GoldSetStore | None, contexts: list[Row], document_id: int
                  ) -> int | None:
        """The context showing ``document_id``: itself, or a passage located in it."""
        for i, doc in enumerate(contexts):
            if doc["document_id"] == document_id:
                return i
        for i, doc in enumerate(contexts):
            found = self.structure(store, int(doc["document_id"]))
            if found is not None and found.paged_id == document_id:
                return i
        return None

    # -- showing --------------------------------------------------------------------------------
    def show_context(self, store: GoldSetStore | None, doc: Row, place: str, role: str,
                     claim: Row | None) -> None:
        """Show retrieved document ``doc`` (``place``: "Context 2 of 5 (rank 2): "), its
        rights warning for ``role``, and ``claim``'s evidence."""
        shown = self.text.property("document_id")
        if shown != doc["document_id"] or self.text.toPlainText() != doc["text"]:
            set_plain_text(self.text, doc["text"])
            self.text.setProperty("document_id", doc["document_id"])
        warning = ""
        if doc["restricted"]:
            words = translate("VerifySection", "role %1 may not read this document")
            warning = " — " + colours.coloured("text_bad", "⚠ " + esc(words.replace("%1", role)),
                                               bold=True)
        self.label.setText(esc(place) + f"<b>{esc(doc['key'])}</b> {esc(doc['title'])}"
                           f"{warning}")
        structure = self.structure(store, int(doc["document_id"]))
        self.viewer.show_structure(structure, store.path if store is not None else None,
                                   doc["text"], evidence=self._page_marks(structure, claim))
        self._mark_text(doc, structure, claim)

    def show_nothing(self, message: str) -> None:
        set_plain_text(self.text, message)
        self.text.setProperty("document_id", None)
        self.label.setText("")
        self.text.setExtraSelections([])
        self.viewer.clear()

    def clear(self) -> None:
        self.text.clear()
        self.text.setProperty("document_id", None)
        self.label.clear()
        self.viewer.clear()

    def focus_target(self) -> QWidget:
        """The view the keyboard goes to (F6): the page when it is shown, else the text."""
        return self.viewer.page_view if self.viewer.showing_pages() else self.text

    def has_focus(self) -> bool:
        return self.text.hasFocus() or self.viewer.page_view.hasFocus()

    # -- evidence -------------------------------------------------------------------------------
    def selected_evidence(self, doc: Row) -> tuple[int, int, int] | None:
        """``(document id, start, end)`` of the words selected in the shown context: on the
        page, the paged document's offsets; in the text, the context's own (the spaces
        around the words left out)."""
        selected = self.viewer.selected_span()
        if selected is None:
            return None
        document_id, start, end = selected
        if not self.viewer.showing_pages():
            text = doc["text"]
            end = min(end, len(text))
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            document_id = int(doc["document_id"])
        return (document_id, start, end) if start < end else None

    def _page_marks(self, structure: DocumentStructure | None, claim: Row | None
                    ) -> list[Span]:
        """``claim``'s evidence as spans of the paged document's text."""
        if structure is None or claim is None:
            return []
        marks = []
        for evidence in claim["evidence"]:
            span = (int(evidence["span_start"]), int(evidence["span_end"]))
            if evidence["document_id"] == structure.paged_id:
                marks.append(span)
            elif (evidence["document_id"] == structure.document_id and structure.is_passage
                  and structure.located == "exact" and structure.span is not None):
                marks.append((span[0] + structure.span[0], span[1] + structure.span[0]))
        return marks

    def _text_marks(self, doc: Row, structure: DocumentStructure | None, claim: Row | None
                    ) -> list[Span]:
        """``claim``'s evidence as spans of the shown context's own text."""
        if claim is None:
            return []
        marks = []
        length = len(doc["text"])
        for evidence in claim["evidence"]:
            span = (int(evidence["span_start"]), int(evidence["span_end"]))
            if evidence["document_id"] == doc["document_id"]:
                marks.append(span)
            elif (structure is not None and structure.is_passage
                  and evidence["document_id"] == structure.paged_id
                  and structure.located == "exact" and structure.span is not None):
                start, end = span[0] - structure.span[0], span[1] - structure.span[0]
                if end > 0 and start < length:
                    marks.append((max(start, 0), min(end, length)))
        return marks

    def _mark_text(self, doc: Row, structure: DocumentStructure | None,
                   claim: Row | None) -> None:
        selections = []
        text = doc["text"]
        for start, end in self._text_marks(doc, structure, claim):
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.text.document())
            cursor.setPosition(to_qt(text, start))
            cursor.setPosition(to_qt(text, end), QTextCursor.MoveMode.KeepAnchor)
            fmt = QTextCharFormat()
            fmt.setBackground(colours.bg(EVIDENCE_COLOUR))
            fmt.setForeground(colours.fg(EVIDENCE_COLOUR))
            fmt.setFontUnderline(True)  # not told by colour alone
            selection.cursor = cursor
            selection.format = fmt
            selections.append(selection)
        self.text.setExtraSelections(selections)
