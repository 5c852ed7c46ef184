"""Choosing an expected source for a case: a document, and optionally the passage of its
text that holds the answer (the case editor's "Add source…")."""

from __future__ import annotations

from PySide6.QtCore import Qt
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

from rag_annotator.ui.context import UiContext
from rag_annotator.ui.models import DocumentsModel
from rag_annotator.ui.sections.base import (
    current_row,
    make_table,
    search_field,
    select_row,
    vertical_split,
)


class SourceDialog(QDialog):
    """Choose a document, and optionally select the passage that holds the answer."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Add an expected source"))
        self.resize(900, 640)
        self.document_id: int | None = None
        self.model = DocumentsModel(self)
        self.search = search_field(self.tr("Search key or title…"))
        self.table = make_table(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                          | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.use_passage = QCheckBox(self.tr("Only the selected passage"))
        self.passage = QLabel()
        self.note = QLineEdit()
        self.note.setPlaceholderText(self.tr("Note (optional): why this source, the conflict…"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(QLabel(self.tr("Select a passage in the text to name it:")))
        lower_layout.addWidget(self.text, 1)
        lower_layout.addWidget(self.use_passage)
        lower_layout.addWidget(self.passage)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(vertical_split(self.table, lower, (2, 3)), 1)
        layout.addWidget(self.note)
        layout.addWidget(buttons)
        self.model.store = ctx.hub.store
        self.model.reload()
        self.search.textChanged.connect(self._filter)
        self.table.selectionModel().currentRowChanged.connect(self._show)
        self.text.selectionChanged.connect(self._selection)
        if self.model.rowCount():
            select_row(self.table, 0)

    def _filter(self) -> None:
        self.model.search = self.search.text().strip()
        self.model.reload()
        if self.model.rowCount():
            select_row(self.table, 0)

    def _show(self) -> None:
        self.document_id = self.model.id_at(current_row(self.table))
        store = self.ctx.hub.store
        self.text.setPlainText(store.document_text(self.document_id)
                               if store is not None and self.document_id is not None else "")
        self.use_passage.setChecked(False)
        self._selection()

    def _selection(self) -> None:
        cursor = self.text.textCursor()
        has = cursor.hasSelection()
        self.use_passage.setEnabled(has)
        if has:
            self.use_passage.setChecked(True)
            start, end = self.span_of_cursor()
            shown = cursor.selectedText()
            short = shown if len(shown) <= 120 else shown[:117] + "…"
            self.passage.setText(self.tr("Characters %1–%2: “%3”").replace(
                "%1", str(start)).replace("%2", str(end)).replace("%3", short))
        else:
            self.passage.setText("")

    def span_of_cursor(self) -> tuple[int, int]:
        """The selection as character offsets in the document's text (Python indices)."""
        cursor = self.text.textCursor()
        text = self.text.toPlainText()
        # Qt counts UTF-16 code units; Python counts code points: convert the offsets.
        prefix = _utf16_to_index(text, cursor.selectionStart())
        end = _utf16_to_index(text, cursor.selectionEnd())
        return prefix, end

    def span(self) -> tuple[int, int] | None:
        """The chosen passage, or None for the whole document."""
        if not self.use_passage.isChecked() or not self.text.textCursor().hasSelection():
            return None
        return self.span_of_cursor()


def _utf16_to_index(text: str, units: int) -> int:
    count = 0
    for i, char in enumerate(text):
        if count >= units:
            return i
        count += 2 if ord(char) > 0xFFFF else 1
    return len(text)
