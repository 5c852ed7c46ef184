"""Choosing an expected source for a case: a document, and optionally the passage that holds
the answer (the case editor's "Add source…"), selected in its text or on its PDF page; and
showing an expected source already named, its passage highlighted on its page (Enter in
the case editor's sources list).

A passage selected on a PDF page is stored as offsets of that PDF document's text (the
page's start plus the words' place on the page), with the page said beside it.  When the
document listed is a passage located in a PDF, the page shown is its parent's, and a
passage selected there names the parent document.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.ui import actions
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.models import DocumentsModel
from rag_annotator.ui.pages.keys import VIEWER_ACTIONS
from rag_annotator.ui.pages.viewer import DocumentViewer
from rag_annotator.ui.sections.base import (
    current_row,
    make_table,
    search_field,
    select_row,
    vertical_split,
)
from rag_annotator.ui.text_views import to_qt


class SourceDialog(QDialog):
    """Choose a document, and optionally select the passage that holds the answer.

    ``shown``: (document id, span or None) of an expected source to show instead, its
    passage highlighted and selected.
    """

    def __init__(self, ctx: UiContext, parent: QWidget | None = None,
                 shown: tuple[int, tuple[int, int] | None] | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._focus = shown[1] if shown is not None else None
        self.setWindowTitle(self.tr("Add an expected source") if shown is None
                            else self.tr("Expected source"))
        self.resize(1000, 760)
        self.document_id: int | None = None
        self.model = DocumentsModel(self)
        self.search = search_field(self.tr("Search key or title…"))
        self.table = make_table(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                          | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.viewer = DocumentViewer(ctx.pages, self.text)  # a PDF's page, or the text (F7)
        self.commands = actions.make_actions(VIEWER_ACTIONS, self,
                                             Qt.ShortcutContext.WidgetWithChildrenShortcut)
        for action in self.commands.values():
            self.addAction(action)
        self.viewer.connect_commands(self.commands)
        self.use_passage = QCheckBox(self.tr("Only the selected passage"))
        self.passage = QLabel()
        self.note = QLineEdit()
        self.note.setPlaceholderText(self.tr("Note (optional): why this source, the conflict…"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close if shown else (
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(QLabel(self.tr(
            "Select a passage in the text or on the page (mouse, or Shift and the arrow keys) "
            "to name it; F7 shows the page or the text, PgDown / PgUp turn the pages:")))
        lower_layout.addWidget(self.viewer, 1)
        lower_layout.addWidget(self.use_passage)
        lower_layout.addWidget(self.passage)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(vertical_split(self.table, lower, (2, 3)), 1)
        layout.addWidget(self.note)
        layout.addWidget(buttons)
        for only_to_add in (self.note, self.use_passage):
            only_to_add.setVisible(shown is None)
        self.model.store = ctx.hub.store
        self.model.reload()
        self.search.textChanged.connect(self._filter)
        self.table.selectionModel().currentRowChanged.connect(self._show)
        self.viewer.selection_changed.connect(self._selection)
        if shown is not None:
            store = ctx.hub.store
            row = store.document_row(shown[0]) if store is not None else None
            if row is not None:
                self.search.setText(str(row["key"]))  # the list holds it alone (or first)
                found = self.model.row_of(shown[0])
                if found is not None:
                    select_row(self.table, found)
        elif self.model.rowCount():
            select_row(self.table, 0)

    def _filter(self) -> None:
        self.model.search = self.search.text().strip()
        self.model.reload()
        if self.model.rowCount():
            select_row(self.table, 0)

    def _show(self) -> None:
        self.document_id = self.model.id_at(current_row(self.table))
        store = self.ctx.hub.store
        text = (store.document_text(self.document_id)
                if store is not None and self.document_id is not None else "")
        self.text.setPlainText(text)
        structure = (store.document_structure(self.document_id)
                     if store is not None and self.document_id is not None else None)
        focus, self._focus = self._focus, None  # the expected source shown, once
        self.viewer.show_structure(structure, store.path if store is not None else None, text,
                                   focus=focus)
        self.use_passage.setChecked(False)
        if focus is not None and not self.viewer.showing_pages():
            cursor = self.text.textCursor()
            cursor.setPosition(to_qt(text, focus[0]))
            cursor.setPosition(to_qt(text, min(focus[1], len(text))),
                               QTextCursor.MoveMode.KeepAnchor)
            self.text.setTextCursor(cursor)
        self._selection()

    def _selection(self) -> None:
        selected = self.viewer.selected_span()
        self.use_passage.setEnabled(selected is not None)
        if selected is None:
            self.passage.setText("")
            return
        self.use_passage.setChecked(True)
        _document, start, end = selected
        if self.viewer.showing_pages():
            words = self.viewer.page_view.selected_text() or ""
        else:
            words = self.text.textCursor().selectedText()
        short = words if len(words) <= 120 else words[:117] + "…"
        page = self.viewer.layout_of().page_of(start) if _document == \
            self.viewer.structure_id() else None
        where = (self.tr("Characters %1–%2: “%3”") if page is None else
                 self.tr("Page %4, characters %1–%2: “%3”").replace("%4", str(page)))
        self.passage.setText(where.replace("%1", str(start)).replace("%2", str(end))
                             .replace("%3", short))

    def span(self) -> tuple[int, int] | None:
        """The chosen passage (offsets of :meth:`chosen_document`'s text), or None for the
        whole document."""
        selected = self.viewer.selected_span()
        if not self.use_passage.isChecked() or selected is None:
            return None
        return selected[1], selected[2]

    def chosen_document(self) -> int | None:
        """The document the source names: the one listed, or — for a passage selected on a
        PDF page — the PDF document whose page it is."""
        selected = self.viewer.selected_span()
        if self.use_passage.isChecked() and selected is not None:
            return selected[0]
        return self.document_id
