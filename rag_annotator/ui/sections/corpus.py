"""Corpus section: the document registry (lazy: 100,000 rows list instantly), its metadata
editor (owner, rights, validity, status, version, supersedes) and a reader with search; a
second tab holds the rights matrix (documents × test identities, ``rights_matrix``).

Each metadata field commits when it is left (one ``edit_document`` operation, undoable).
Warnings list the expected sources that point at outdated, withdrawn or placeholder
documents; the selected document shows the cases that cite it.  Imports (BEIR, CSV/XLSX, a
folder of documents) report what changed since the last import.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain import operations as ops
from rag_annotator.domain.changes import Changes
from rag_annotator.ui import labels
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.goldset.case_editor import split_tags
from rag_annotator.ui.look import colours
from rag_annotator.ui.models import DocumentsModel, json_list
from rag_annotator.ui.pages.keys import VIEWER_ACTIONS
from rag_annotator.ui.pages.viewer import DocumentViewer
from rag_annotator.ui.sections.base import (
    ListSection,
    choice_combo,
    esc,
    make_table,
    search_field,
    vertical_split,
)
from rag_annotator.ui.sections.rights_matrix import (
    RightsMatrixView,
    confirm_widening,
    file_identities,
)

# The section's own commands; its rights matrix (Ctrl+Shift+X) is the window's, so that it
# works from any section.
CORPUS_ACTIONS = ("corpus.import", "corpus.find_in_text", "corpus.rights_replay")


class CorpusSection(ListSection):
    """Lists the documents; edits the selected one's metadata and shows its text."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model: DocumentsModel = DocumentsModel(self)
        self.search = search_field(self.tr("Search key or title…"))
        self.status = choice_combo(self.tr("All statuses"),
                                   {k: labels.tr(v) for k, v in labels.DOC_STATUSES.items()})
        self.count = QLabel()
        self.table = make_table(self.model)
        self.source_warnings = QLabel()
        self.source_warnings.setWordWrap(True)
        self.source_warnings.setTextFormat(Qt.TextFormat.RichText)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.viewer = DocumentViewer(ctx.pages, self.text)  # a PDF's page, or the text (F7)
        self.text_finder = search_field(self.tr("Find in the text…"))
        self.text_finder.setMinimumWidth(160)
        self.find_status = QLabel()
        self.text_finder.returnPressed.connect(lambda: self.find_in_text(forward=True))
        self.text_finder.textChanged.connect(
            lambda _t: self.find_in_text(forward=True, restart=True))
        self.document_id: int | None = None
        self.document: dict[str, Any] = {}
        self._committing = False
        meta = self._build_metadata()
        # PgDown / PgUp turn the pages while the document has the keyboard (in the list, they
        # page through the documents); F7 anywhere in the section.
        pages = (self.viewer.page_view, self.text)
        self.commands = self.install_commands(
            (*CORPUS_ACTIONS, *VIEWER_ACTIONS),
            {"document.next_page": pages, "document.previous_page": pages})
        self.viewer.connect_commands(self.commands)
        self.commands["corpus.import"].triggered.connect(lambda: self.open_import("corpus"))
        self.commands["corpus.find_in_text"].triggered.connect(
            lambda: self.text_finder.setFocus(Qt.FocusReason.ShortcutFocusReason))
        documents = QWidget()
        documents_layout = QVBoxLayout(documents)
        documents_layout.addLayout(self._build_bar())
        documents_layout.addWidget(self._build_panes(meta), 1)
        self.matrix = RightsMatrixView(ctx, self)
        self.commands["corpus.rights_replay"].triggered.connect(self.matrix.open_replay)
        self.tabs = QTabWidget()
        self.tabs.addTab(documents, self.tr("Documents"))
        self.tabs.addTab(self.matrix, self.tr("Rights matrix"))
        self.tabs.currentChanged.connect(lambda _i: self._sync_matrix())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs, 1)
        self.connect_filters(self.status)

    def _build_metadata(self) -> QWidget:
        """The selected document's metadata, each field committed when the user leaves it."""
        self.title_field = QLineEdit()
        self.owner = QLineEdit()
        self.rights = QLineEdit()
        self.rights.setPlaceholderText(self.tr("groups that may read it, comma-separated"))
        self.valid_from = QLineEdit()
        self.valid_from.setPlaceholderText("YYYY-MM-DD")
        self.valid_until = QLineEdit()
        self.valid_until.setPlaceholderText("YYYY-MM-DD")
        self.doc_status = QComboBox()
        for code, label in labels.DOC_STATUSES.items():
            self.doc_status.addItem(labels.tr(label), code)
        self.version = QLineEdit()
        self.supersedes = QLineEdit()
        self.supersedes.setPlaceholderText(self.tr("key of the older version"))
        self.hash = QLabel()
        self.hash.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hash.setMinimumWidth(1)  # a 71-character hash must not widen the form (zoom)
        self.hash.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.cited_by = QLabel()
        self.cited_by.setWordWrap(True)
        self.fields: dict[str, QLineEdit] = {
            "title": self.title_field, "owner": self.owner, "rights": self.rights,
            "valid_from": self.valid_from, "valid_until": self.valid_until,
            "version": self.version, "supersedes": self.supersedes,
        }
        for name, widget in self.fields.items():
            widget.editingFinished.connect(lambda n=name: self.commit(n))
        self.doc_status.activated.connect(lambda _i: self.commit("status"))
        form = QFormLayout()
        form.addRow(self.tr("Title"), self.title_field)
        form.addRow(self.tr("Owner"), self.owner)
        form.addRow(self.tr("Rights"), self.rights)
        form.addRow(self.tr("Valid from"), self.valid_from)
        form.addRow(self.tr("Valid until"), self.valid_until)
        form.addRow(self.tr("Status"), self.doc_status)
        form.addRow(self.tr("Version"), self.version)
        form.addRow(self.tr("Supersedes"), self.supersedes)
        form.addRow(self.tr("Content hash"), self.hash)
        form.addRow(self.tr("Cited by"), self.cited_by)
        meta = QWidget()
        meta_layout = QVBoxLayout(meta)
        meta_layout.setContentsMargins(0, 0, 0, 0)
        meta_layout.addLayout(form)
        meta_layout.addStretch(1)
        return meta

    def _build_bar(self) -> QHBoxLayout:
        """Search, status filter, the import buttons and the count of documents shown."""
        import_file = QPushButton(self.tr("Import corpus…"))
        import_file.clicked.connect(lambda: self.open_import("corpus"))
        import_folder = QPushButton(self.tr("Import a folder…"))
        import_folder.clicked.connect(lambda: self.open_import("corpus-folder"))
        for button in (import_file, import_folder):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        bar = QHBoxLayout()
        bar.addWidget(self.search, 2)
        bar.addWidget(QLabel(self.tr("Status:")))
        bar.addWidget(self.status)
        bar.addWidget(import_file)
        bar.addWidget(import_folder)
        bar.addStretch(1)
        bar.addWidget(self.count)
        return bar

    def _build_panes(self, meta: QWidget) -> QSplitter:
        """The list above; the metadata beside the text (with its find field) below."""
        find_bar = QHBoxLayout()
        find_bar.addWidget(self.heading, 1)
        find_bar.addWidget(self.text_finder)
        find_bar.addWidget(self.find_status)
        reader = QWidget()
        reader_layout = QVBoxLayout(reader)
        reader_layout.setContentsMargins(0, 0, 0, 0)
        reader_layout.addLayout(find_bar)
        reader_layout.addWidget(self.viewer, 1)
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(meta)
        lower.addWidget(reader)
        lower.setSizes([1000, 2000])
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.source_warnings)
        top_layout.addWidget(self.table, 1)
        return vertical_split(top, lower, (3, 2))

    def refresh(self) -> None:
        super().refresh()
        self.show_source_warnings()
        self._sync_matrix()

    def show_matrix(self) -> None:
        """Show the rights matrix tab, its table focused."""
        self.tabs.setCurrentWidget(self.matrix)
        self.matrix.table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _sync_matrix(self) -> None:
        """Load the matrix when its tab is shown (and keep it in step with the file)."""
        if self.tabs.currentWidget() is self.matrix and self.matrix.model.store is not self.store:
            self.matrix.set_store(self.store)

    def restyle(self) -> None:
        super().restyle()
        if self.loaded:
            self.show_current()  # its warnings are rich text

    def clear(self) -> None:
        """Nothing of the previous file stays: the list, the text and the metadata form."""
        self.matrix.set_store(None)
        self.model.set_store(None)
        self.heading.clear()
        self.text.clear()
        self.viewer.clear()
        self.count.clear()
        self.source_warnings.clear()
        self.document_id = None
        self.document = {}
        for field in self.fields.values():
            field.blockSignals(True)  # an empty field is not an edit to commit
            field.clear()
            field.blockSignals(False)
        self.hash.clear()
        self.hash.setToolTip("")
        self.cited_by.clear()

    def apply_changes(self, changes: Changes) -> None:
        if self.matrix.model.store is not None:
            self.matrix.apply_changes(changes)
        if changes.reshapes("documents"):
            self._reload(keep=self._current_id())
        elif changes.touches("documents"):
            self.model.refresh_ids(changes.ids("documents"))
            current = self._current_id()
            if current is not None and (current in changes.ids("documents")
                                        or "*" in changes.rows):
                self.show_current()
        if changes.touches("documents", "expected_sources", "cases"):
            self.show_source_warnings()
            if self._current_id() is not None and self.document_id == self._current_id():
                self._show_cited()

    def apply_model_filters(self) -> None:
        self.model.search = self.search.text().strip()
        self.model.status = self.status.currentData() or ""

    def count_text(self, total: int) -> str:
        return self.tr("%Ln document(s)", "", total)

    def show_nothing(self) -> None:
        nothing = self.tr("No document matches.")
        self.heading.setText(f"<i>{esc(nothing)}</i>")
        self.text.clear()
        self.viewer.clear()
        self.document_id = None
        self.document = {}

    def show_source_warnings(self) -> None:
        """Expected sources pointing at outdated, withdrawn or placeholder documents."""
        store = self.store
        rows = store.source_warnings() if store is not None else []
        if not rows:
            self.source_warnings.hide()
            return
        status = {"outdated": self.tr("outdated"), "withdrawn": self.tr("withdrawn")}
        items = []
        for row in rows[:8]:
            what = (self.tr("not in the corpus") if row["origin"] != "corpus"
                    else status.get(row["status"], str(row["status"] or "")))
            items.append(self.tr("case %1 cites %2 (%3)").replace("%1", row["case"])
                         .replace("%2", row["document"]).replace("%3", what))
        more = len(rows) - len(items)
        text = "; ".join(items) + (self.tr("; and %1 more").replace("%1", str(more))
                                   if more > 0 else "")
        title = self.tr("%Ln expected source(s) to check:", "", len(rows))
        self.source_warnings.setText(colours.coloured(
            "text_warning", f"<b>⚠ {esc(title)}</b> {esc(text)}"))
        self.source_warnings.show()

    def show_current(self) -> None:
        store = self.store
        doc_id = self._current_id()
        if store is None or doc_id is None:
            return
        row = store.document_row(doc_id)
        if row is None:
            return
        if doc_id != self.document_id:
            self.flush()
        self.document_id, self.document = doc_id, row
        details = [labels.doc_status(row["status"])]
        if row["version"]:
            details.append(self.tr("version %1").replace("%1", str(row["version"])))
        if row["supersedes"]:
            details.append(self.tr("supersedes %1").replace("%1", str(row["supersedes"])))
        self.heading.setText(f"<b>{esc(row['key'])}</b> — {esc(row['title'])}"
                             " " + colours.coloured("text_muted", f"({esc(', '.join(details))})"))
        for name, widget in self.fields.items():
            widget.blockSignals(True)
            widget.setText(self._stored(name))
            widget.blockSignals(False)
        self.doc_status.setCurrentIndex(max(self.doc_status.findData(row["status"]), 0))
        self.hash.setText(str(row["content_hash"]))
        self.hash.setToolTip(str(row["content_hash"]))  # whole, when the label clips it
        text = store.document_text(doc_id)
        if self.text.toPlainText() != text:
            self.text.setPlainText(text)
        self.viewer.show_structure(store.document_structure(doc_id), store.path, text)
        self._show_cited()

    def _show_cited(self) -> None:
        store = self.store
        if store is None or self.document_id is None:
            return
        cases = store.cases_citing(self.document_id)
        self.cited_by.setText(", ".join(c["key"] for c in cases[:30])
                              + (" …" if len(cases) > 30 else "") or "—")

    # -- editing -------------------------------------------------------------------------------
    def _stored(self, name: str) -> str:
        value = self.document.get(name)
        if name == "rights":
            return ", ".join(map(str, value or []))
        return "" if value is None else str(value)

    def flush(self) -> None:
        """Commit the fields being edited."""
        typed = {name: widget.text() for name, widget in self.fields.items()}
        for name, widget in self.fields.items():
            # Each commit re-reads the document into the form: put back what was typed.
            widget.blockSignals(True)
            widget.setText(typed[name])
            widget.blockSignals(False)
            self.commit(name)

    def commit(self, name: str) -> None:
        """Store one metadata field if it changed (one undoable operation)."""
        store = self.store
        doc_id = self.document_id
        if store is None or doc_id is None or not self.document or self._committing:
            return
        value: Any
        if name == "status":
            value = self.doc_status.currentData()
            if value == self.document.get("status"):
                return
        else:
            typed = self.fields[name].text().strip()
            if typed == self._stored(name):
                return
            if name == "rights":
                value = split_tags(typed)
                if not self._rights_confirmed(value):
                    self.fields["rights"].setText(self._stored("rights"))
                    return
            elif name == "supersedes":
                name = "supersedes_id"
                if typed:
                    found = store.document_keys().get(typed)
                    if found is None:
                        from rag_annotator.ui.errors import show_known_error

                        show_known_error(self, self.tr("There is no document “%1”; give the "
                                                       "key of the older version.")
                                         .replace("%1", typed))
                        self.fields["supersedes"].setText(self._stored("supersedes"))
                        return
                    value = found
                else:
                    value = None
            else:
                value = typed
        field = name
        self._committing = True  # a refusal's message box must not trigger a second commit
        try:
            result = self.ctx.undo.run(lambda s: ops.edit_document(s, doc_id, **{field: value}))
        finally:
            self._committing = False
        if result is None:
            self.show_current()

    def _rights_confirmed(self, rights: list[str]) -> bool:
        """Typed rights that let someone new read the document are asked about first."""
        before = [str(r) for r in json_list(self.document.get("rights"))]
        identities, _rows = file_identities(self.store)
        self._committing = True  # the box takes the focus: no second commit meanwhile
        try:
            return confirm_widening(self, str(self.document.get("key", "")), before, rights,
                                    identities)
        finally:
            self._committing = False

    # -- reader ----------------------------------------------------------------------------------
    def find_in_text(self, *, forward: bool = True, restart: bool = False) -> bool:
        """Select the next occurrence of the find field's text in the document."""
        needle = self.text_finder.text()
        if not needle:
            self.find_status.clear()
            return False
        self.viewer.set_pages(False)  # what is found is selected in the text
        if restart:
            self.text.moveCursor(QTextCursor.MoveOperation.Start)
        flags = QTextDocument.FindFlag(0) if forward else QTextDocument.FindFlag.FindBackward
        found = self.text.find(needle, flags)
        if not found:  # wrap around
            self.text.moveCursor(QTextCursor.MoveOperation.Start)
            found = self.text.find(needle, flags)
        self.find_status.setText("" if found else self.tr("not found"))
        return bool(found)

    def open_import(self, kind: str) -> None:
        """Import or re-import a corpus."""
        from rag_annotator.ui.exchange.import_dialog import open_import_dialog

        open_import_dialog(self, self.ctx, kind)
