"""The rights matrix of the Corpus section: documents × test identities (seed 003, "droits").

Each cell says, in words and a symbol (colour only repeats it), whether the identity may
read the document: "✓ allowed", "✓ open to all" (the document lists no group or an open
one) or "✗ forbidden".  Space toggles the current cell: rights are per *group*, so the
document's groups change (``domain.rights.toggled_rights``: forbidding removes every group
of the identity, allowing adds its most specific group) and other identities sharing the
group change with it, which the matrix shows at once.  Every edit is one undoable operation
(Ctrl+Z).  The rows are lazy (100,000 documents list at once); the filters are the
document's key or title and one identity.  Identities are added, renamed, regrouped and
removed with the buttons above; the roles cases use without a declared identity are shown
as columns of their own ("role only": one group of the same name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain import rights_ops
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.rights import (
    Identities,
    Identity,
    gained_readers,
    is_open,
    norm,
    toggled_rights,
)
from rag_annotator.errors import KnownError
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.look import colours
from rag_annotator.ui.models import Column, LazyTableModel, json_list, one_line
from rag_annotator.ui.sections.base import esc, make_table, search_field

Index = QModelIndex | QPersistentModelIndex
translate = QCoreApplication.translate
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_ALLOWED = "good"  # colour roles (ui/look/colours.py)
_FORBIDDEN = "bad"
#: Columns before the identities: key, title, the document's groups.
FIXED = 3


def file_identities(store: GoldSetStore | None) -> tuple[Identities, list[dict[str, Any]]]:
    """The file's identities as the matrix shows them — the declared ones, then each role
    cases use without one (one group of its name) — and the declared rows."""
    rows = store.identity_rows() if store is not None else []
    declared = Identities.from_rows(rows)
    roles = sorted({r for r in (store.case_roles().values() if store else [])
                    if declared.get(r) is None}, key=norm)
    extra = tuple(Identity(r, (r,)) for r in dict.fromkeys(roles))
    return Identities(declared.items + extra), rows


def confirm_widening(parent: QWidget, key: str, before: Sequence[str], after: Sequence[str],
                     identities: Identities, allowed: str | None = None) -> bool:
    """Ask before a rights change lets more identities read document ``key`` than the one
    the user meant to allow (``allowed``; None: a typed change, where anyone let in counts),
    naming who gains access; True when there is nothing to ask or the user allows it.

    Rights are per group, so one cell can open a document to every identity sharing the
    group — or to everyone, when the identity holds only the open group."""
    gained = gained_readers(before, after, identities)
    others = [n for n in gained if allowed is None or norm(n) != norm(allowed)]
    opens = is_open(after) and not is_open(before)
    if not others and not opens:
        return True
    from PySide6.QtWidgets import QMessageBox

    groups = ", ".join(after) or translate("RightsMatrixView", "none")
    text = (translate("RightsMatrixView", "%1 would become readable by everyone (its groups: "
                      "%2).") if opens else
            translate("RightsMatrixView", "%1's groups would become: %2.")
            ).replace("%1", key).replace("%2", groups)
    who = (translate("RightsMatrixView", "These identities gain access: %1.")
           .replace("%1", ", ".join(gained)) if gained else "")
    if opens:
        who = " ".join(part for part in (who, translate(
            "RightsMatrixView", "So does any role without a declared identity.")) if part)
    box = QMessageBox(QMessageBox.Icon.Warning,
                      translate("RightsMatrixView", "Widen who may read %1?").replace("%1", key),
                      text, QMessageBox.StandardButton.Cancel, parent)
    box.setInformativeText(who)
    allow = box.addButton(translate("RightsMatrixView", "Allow"),
                          QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)  # Enter keeps the rights as they are
    box.exec()
    return box.clickedButton() is allow


class RightsMatrixModel(LazyTableModel):
    """Documents (lazy, filtered by key or title) × identities (filtered by name)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__([], parent)
        self.search = ""
        self.identity_filter = ""
        self.identities = Identities()
        self.identity_ids: dict[str, int] = {}  # declared identity name -> id
        self.shown: list[Identity] = []
        self._columns()

    def _columns(self) -> None:
        self.columns = [Column(translate("DocumentsModel", "Key"), lambda r: r["key"], 14),
                        Column(translate("DocumentsModel", "Title"), lambda r: one_line(r["title"]),
                               26),
                        Column(self.tr("Groups"), lambda r: ", ".join(
                            map(str, json_list(r["rights"]))) or "—", 12)]
        for identity in self.shown:
            title = identity.name if identity.name in self.identity_ids else self.tr(
                "%1 (role only)").replace("%1", identity.name)
            self.columns.append(Column(title, self._cell(identity), 14))

    def _cell(self, identity: Identity) -> Callable[[dict[str, Any]], str]:
        """The display function of one identity's column."""
        return lambda row: self.cell_text(row, identity)

    def load_identities(self, store: GoldSetStore | None) -> None:
        """Read the identities (and the roles cases use without one); rebuild the columns."""
        self.identities, rows = file_identities(store)
        self.identity_ids = {r["name"]: int(r["id"]) for r in rows}
        self.shown = [i for i in self.identities.items
                      if not self.identity_filter or norm(i.name) == norm(self.identity_filter)]
        self._columns()

    def fetch_ids(self, store: GoldSetStore) -> list[int]:
        return store.document_ids(search=self.search, status="")

    def fetch_rows(self, store: GoldSetStore, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        return store.documents_rows(ids)

    def identity_at(self, column: int) -> Identity | None:
        """The identity of a column (None for the key and title)."""
        i = column - FIXED
        return self.shown[i] if 0 <= i < len(self.shown) else None

    def allowed(self, row: dict[str, Any], identity: Identity) -> bool:
        return self.identities.may_read(json_list(row["rights"]), identity.name)

    def cell_text(self, row: dict[str, Any], identity: Identity) -> str:
        rights = json_list(row["rights"])
        if is_open(rights):
            return self.tr("✓ open to all")
        return self.tr("✓ allowed") if self.allowed(row, identity) else self.tr("✗ forbidden")

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        identity = self.identity_at(index.column()) if index.isValid() else None
        if role in (_BACKGROUND, _FOREGROUND) and identity is not None:
            row = self.row_at(index.row())
            if row is None:
                return None
            look = _ALLOWED if self.allowed(row, identity) else _FORBIDDEN
            return QBrush(colours.bg(look) if role == _BACKGROUND else colours.fg(look))
        if role == int(Qt.ItemDataRole.ToolTipRole) and identity is not None:
            row = self.row_at(index.row())
            if row is None:
                return None
            rights = ", ".join(map(str, json_list(row["rights"]))) or self.tr("none (open)")
            return (self.tr("Document groups: %1 · groups of %2: %3 · Space toggles, Ctrl+Z "
                            "undoes").replace("%1", rights).replace("%2", identity.name)
                    .replace("%3", ", ".join(identity.groups) or "—"))
        return super().data(index, role)


class RightsMatrixView(QWidget):
    """The matrix with its filters, identity buttons and the "what if" replay."""

    #: Emitted with a short text after each edit (what changed), for the status line.
    edited = Signal(str)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.model = RightsMatrixModel(self)
        self.table = make_table(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.search = search_field(self.tr("Filter documents by key or title…"))
        self.identity_combo = QComboBox()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(250)
        self._debounce.timeout.connect(self.reload)
        self.search.textChanged.connect(self._debounce.start)
        self.search.returnPressed.connect(self.reload)
        self.identity_combo.activated.connect(lambda _i: self.reload())
        self._buttons: dict[str, QPushButton] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._build_bar())
        layout.addLayout(self._build_identity_bar())
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        from rag_annotator.ui import actions

        self.toggle_action = actions.make_action("corpus.rights_toggle", self.table,
                                                 Qt.ShortcutContext.WidgetShortcut)
        self.table.addAction(self.toggle_action)
        self.toggle_action.triggered.connect(self.toggle_current)

    def _build_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        bar.addWidget(self.search, 2)
        bar.addWidget(QLabel(self.tr("Identity:")))
        bar.addWidget(self.identity_combo, 1)
        return bar

    def _build_identity_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        for key, text, slot in (
                ("add", self.tr("Add identity…"), self.add_identity),
                ("rename", self.tr("Rename…"), self.rename_identity),
                ("groups", self.tr("Groups…"), self.edit_groups),
                ("remove", self.tr("Remove identity"), self.remove_identity),
                ("replay", self.tr("What if…"), self.open_replay)):
            button = QPushButton(text)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(slot)
            self._buttons[key] = button
            bar.addWidget(button)
        bar.addStretch(1)
        return bar

    # -- loading -------------------------------------------------------------------------------
    def set_store(self, store: GoldSetStore | None) -> None:
        self.model.store = store
        self.reload()

    def reload(self) -> None:
        """Read the identities and the filtered documents again, keeping the current cell."""
        self._debounce.stop()
        keep = self._current()
        self.model.search = self.search.text().strip()
        self.model.identity_filter = self.identity_combo.currentData() or ""
        self.model.load_identities(self.model.store)
        self._fill_identity_combo()
        self.model.reload()
        self._resize_columns()
        self._restore(keep)

    def _fill_identity_combo(self) -> None:
        chosen = self.identity_combo.currentData() or ""
        self.identity_combo.blockSignals(True)
        self.identity_combo.clear()
        self.identity_combo.addItem(self.tr("All identities"), "")
        for identity in self.model.identities.items:
            groups = ", ".join(identity.groups) or "—"
            self.identity_combo.addItem(f"{identity.name} ({groups})", identity.name)
        self.identity_combo.setCurrentIndex(max(self.identity_combo.findData(chosen), 0))
        self.identity_combo.blockSignals(False)

    def _resize_columns(self) -> None:
        metrics = self.table.fontMetrics()
        for i, column in enumerate(self.model.columns):
            width = max(metrics.horizontalAdvance("0") * column.width + 16,
                        metrics.horizontalAdvance(column.title) + 24)
            self.table.setColumnWidth(i, width)

    def _current(self) -> tuple[int | None, str | None, int]:
        index = self.table.currentIndex()
        identity = self.model.identity_at(index.column()) if index.isValid() else None
        doc = self.model.id_at(index.row()) if index.isValid() else None
        return doc, identity.name if identity is not None else None, index.column()

    def _restore(self, keep: tuple[int | None, str | None, int]) -> None:
        """Back on the same document and identity; a renamed identity keeps its column."""
        doc, name, at = keep
        row = self.model.row_of(doc) if doc is not None else None
        last = self.model.columnCount() - 1
        column = next((FIXED + i for i, ident in enumerate(self.model.shown)
                       if ident.name == name), min(max(at, 0), last) if at >= 0 else
                      (FIXED if self.model.shown else 0))
        if self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(row if row is not None else 0, column))

    def apply_changes(self, changes: Changes) -> None:
        """Refresh after an edit (here or elsewhere: the Corpus form, an import, an undo)."""
        if changes.touches("identities", "cases") or changes.reshapes("documents"):
            self.reload()
        elif changes.touches("documents"):
            self.model.refresh_ids(changes.ids("documents"))
            if "*" in changes.rows:
                self.reload()

    # -- editing -------------------------------------------------------------------------------
    def current_identity(self) -> Identity | None:
        index = self.table.currentIndex()
        return self.model.identity_at(index.column()) if index.isValid() else None

    def toggle_current(self) -> None:
        """Toggle the current cell: one undoable change of the document's groups."""
        index = self.table.currentIndex()
        identity = self.current_identity()
        row = self.model.row_at(index.row()) if index.isValid() else None
        if identity is None or row is None:
            self.status.setText(esc(self.tr("Move to an identity's column first.")))
            return
        before = [str(r) for r in json_list(row["rights"])]
        try:
            after = toggled_rights(before, identity.name, self.model.identities)
        except KnownError as error:  # an identity without any group
            from rag_annotator.ui.errors import show_known_error

            show_known_error(self, error)
            return
        doc_id, key = int(row["id"]), str(row["key"])
        if not confirm_widening(self, key, before, after, self.model.identities,
                                allowed=identity.name):
            self.status.setText(esc(self.tr("%1: unchanged.").replace("%1", key)))
            return
        if self.ctx.undo.run(lambda s: rights_ops.set_document_rights(
                s, doc_id, after, f"{key} · {identity.name}")) is None:
            return
        text = (self.tr("%1: groups %2 → %3").replace("%1", key)
                .replace("%2", ", ".join(before) or "—").replace("%3", ", ".join(after)))
        self.status.setText(esc(text))
        self.edited.emit(text)

    def _declared(self) -> tuple[int, Identity] | None:
        identity = self.current_identity()
        if identity is None or identity.name not in self.model.identity_ids:
            self.status.setText(esc(self.tr("Move to a declared identity's column first "
                                            "(a role only column: add it as an identity).")))
            return None
        return self.model.identity_ids[identity.name], identity

    def _ask(self, title: str, prompt: str, text: str = "") -> str | None:
        from rag_annotator.ui.line_dialog import LineDialog

        dialog = LineDialog(title, prompt, text, required=True, parent=self)
        return dialog.text if dialog.exec() else None

    def add_identity(self) -> None:
        current = self.current_identity()
        suggestion = current.name if current is not None and \
            current.name not in self.model.identity_ids else ""
        name = self._ask(self.tr("Add a test identity"), self.tr("Name of the identity "
                         "(e.g. salarié, manager, RH):"), suggestion)
        if name is None:
            return
        groups = self._ask(self.tr("Groups of %1").replace("%1", name),
                           self.tr("Its groups, comma-separated (e.g. tous, managers):"),
                           suggestion)
        if groups is None:
            return
        self.ctx.undo.run(lambda s: rights_ops.create_identity(s, name, groups.split(",")))

    def rename_identity(self) -> None:
        found = self._declared()
        if found is None:
            return
        identity_id, identity = found
        name = self._ask(self.tr("Rename %1").replace("%1", identity.name),
                         self.tr("New name (the cases it asks follow):"), identity.name)
        if name is not None:
            self.ctx.undo.run(lambda s: rights_ops.edit_identity(s, identity_id, name=name))

    def edit_groups(self) -> None:
        found = self._declared()
        if found is None:
            return
        identity_id, identity = found
        groups = self._ask(self.tr("Groups of %1").replace("%1", identity.name),
                           self.tr("Its groups, comma-separated:"), ", ".join(identity.groups))
        if groups is not None:
            self.ctx.undo.run(lambda s: rights_ops.edit_identity(
                s, identity_id, groups=groups.split(",")))

    def remove_identity(self) -> None:
        found = self._declared()
        if found is not None:
            identity_id = found[0]
            self.ctx.undo.run(lambda s: rights_ops.delete_identity(s, identity_id))

    def open_replay(self) -> None:
        """The "what if" dialog, on the current identity."""
        from rag_annotator.ui.sections.rights_replay import ReplayDialog

        identity = self.current_identity()
        index = self.table.currentIndex()
        row = self.model.row_at(index.row()) if index.isValid() else None
        cell = None
        if identity is not None and row is not None:
            try:
                after = toggled_rights([str(r) for r in json_list(row["rights"])],
                                       identity.name, self.model.identities)
                cell = (str(row["key"]), identity.name, after)
            except KnownError:  # an identity without any group: no cell change to offer
                cell = None
        dialog = ReplayDialog(self.ctx, self.model.identities,
                              identity.name if identity is not None else "", parent=self,
                              cell=cell)
        dialog.exec()

    @property
    def view(self) -> QTableView:
        return self.table
