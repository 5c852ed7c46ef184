"""Corpus section: the document registry (lazy: 100,000 rows list instantly) and a reader."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.ui import labels
from rag_annotator.ui.hub import UiContext
from rag_annotator.ui.models import DocumentsModel
from rag_annotator.ui.sections.base import (
    ListSection,
    choice_combo,
    current_row,
    esc,
    make_table,
    search_field,
)


class CorpusSection(ListSection):
    """Lists the documents and shows the selected one's text."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model: DocumentsModel = DocumentsModel(self)
        self.search = search_field(self.tr("Search key or title…"))
        self.status = choice_combo(self.tr("All statuses"),
                                   {k: labels.tr(v) for k, v in labels.DOC_STATUSES.items()})
        self.count = QLabel()
        self.table = make_table(self.model)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)

        bar = QHBoxLayout()
        bar.addWidget(self.search, 2)
        bar.addWidget(QLabel(self.tr("Status:")))
        bar.addWidget(self.status)
        bar.addStretch(1)
        bar.addWidget(self.count)
        reader = QWidget()
        reader_layout = QVBoxLayout(reader)
        reader_layout.setContentsMargins(0, 0, 0, 0)
        reader_layout.addWidget(self.heading)
        reader_layout.addWidget(self.text, 1)
        self.lay_out(bar, reader, (3, 2))
        self.connect_filters(self.status)

    def clear(self) -> None:
        self.model.set_store(None)
        self.heading.clear()
        self.text.clear()
        self.count.clear()

    def apply_changes(self, changes: Changes) -> None:
        if changes.reshapes("documents"):
            self._reload(keep=self._current_id())
        elif changes.touches("documents"):
            self.model.refresh_ids(changes.ids("documents"))
            current = self._current_id()
            if current is not None and current in changes.ids("documents"):
                self.show_current()

    def apply_model_filters(self) -> None:
        self.model.search = self.search.text().strip()
        self.model.status = self.status.currentData() or ""

    def count_text(self, total: int) -> str:
        return self.tr("%Ln document(s)", "", total)

    def show_nothing(self) -> None:
        nothing = self.tr("No document matches.")
        self.heading.setText(f"<i>{esc(nothing)}</i>")
        self.text.clear()

    def show_current(self) -> None:
        store = self.store
        row = current_row(self.table)
        doc_id = self.model.id_at(row)
        info = self.model.row_at(row)
        if store is None or doc_id is None or info is None:
            return
        details = [labels.doc_status(info["status"])]
        if info["version"]:
            details.append(self.tr("version %1").replace("%1", str(info["version"])))
        if info["supersedes"]:
            details.append(self.tr("supersedes %1").replace("%1", str(info["supersedes"])))
        self.heading.setText(f"<b>{esc(info['key'])}</b> — {esc(info['title'])}"
                             f" <span style='color:gray'>({esc(', '.join(details))})</span>")
        self.text.setPlainText(store.document_text(doc_id))
