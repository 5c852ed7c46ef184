"""What every section shares: lazy first load, refresh on changes, table and text helpers.

A section loads nothing until it is first shown (a big file opens as fast as an empty one)
and, while hidden, only notes that a change concerns it; it refreshes when shown again.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.hub import UiContext
from rag_annotator.ui.models import LazyTableModel, RowsModel


class Section(QWidget):
    """A page of the main window.

    Subclasses implement :meth:`refresh` (read what they show from the store), :meth:`clear`
    and :meth:`cares` (does a change concern them), and may override :meth:`apply_changes`
    for a finer update than a refresh.
    """

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.loaded = False
        self.dirty = False
        self.active = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._refresh_now)
        ctx.hub.store_replaced.connect(self._on_store)
        ctx.hub.changes_applied.connect(self._on_changes)

    @property
    def store(self) -> GoldSetStore | None:
        """The open file."""
        return self.ctx.hub.store

    # -- what subclasses provide ---------------------------------------------------------------
    def refresh(self) -> None:
        """Read what the section shows."""

    def clear(self) -> None:
        """Show nothing (the file was closed or replaced)."""

    def cares(self, changes: Changes) -> bool:
        """Whether ``changes`` concern this section."""
        return False

    def apply_changes(self, changes: Changes) -> None:
        """React to a change while loaded; by default refresh (now if shown, else later)."""
        if self.cares(changes):
            self.schedule_refresh()

    def focus_widget(self) -> QWidget | None:
        """The widget that gets the keyboard when the section is shown."""
        return None

    def find_field(self) -> QLineEdit | None:
        """The section's search field, if it has one (Ctrl+F)."""
        return None

    # -- life cycle ----------------------------------------------------------------------------
    def activate(self) -> None:
        """The section is shown: load on first show, refresh if a change came meanwhile."""
        self.active = True
        if self.store is None:
            return
        if not self.loaded or self.dirty:
            self.loaded = True
            self.dirty = False
            self.refresh()

    def deactivate(self) -> None:
        """Another section is shown."""
        self.active = False

    def schedule_refresh(self) -> None:
        """Refresh once the current event is handled (several changes make one refresh)."""
        if self.active:
            self._timer.start()
        else:
            self.dirty = True

    def _refresh_now(self) -> None:
        if self.store is not None and self.active:
            self.dirty = False
            self.refresh()

    def _on_store(self, store: GoldSetStore | None) -> None:
        self.loaded = False
        self.dirty = False
        self.clear()
        if store is not None and self.active:
            self.activate()

    def _on_changes(self, changes: Changes) -> None:
        if self.loaded and self.store is not None:
            self.apply_changes(changes)


def make_table(model: LazyTableModel | RowsModel, parent: QWidget | None = None) -> QTableView:
    """A read-only, row-selecting table with widths taken from the model's columns."""
    view = QTableView(parent)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    view.setTabKeyNavigation(False)
    view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    vertical = view.verticalHeader()
    vertical.setVisible(False)
    vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vertical.setDefaultSectionSize(view.fontMetrics().height() + 8)
    header = view.horizontalHeader()
    header.setHighlightSections(False)
    header.setStretchLastSection(False)
    metrics = view.fontMetrics()
    for i, column in enumerate(model.columns):
        if column.stretch:
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.Stretch)
        else:
            width = max(metrics.horizontalAdvance("0") * column.width + 16,
                        metrics.horizontalAdvance(column.title) + 24)
            header.resizeSection(i, width)
    return view


def select_row(view: QTableView, row: int) -> None:
    """Make ``row`` current and selected, and scroll to it."""
    model = view.model()
    if not 0 <= row < model.rowCount():
        return
    index = model.index(row, 0)
    view.selectionModel().setCurrentIndex(
        index, QItemSelectionModel.SelectionFlag.ClearAndSelect
        | QItemSelectionModel.SelectionFlag.Rows)
    view.scrollTo(index)


def current_row(view: QTableView) -> int:
    """The current row, or -1."""
    index = view.selectionModel().currentIndex()
    return index.row() if index.isValid() else -1


def search_field(placeholder: str, parent: QWidget | None = None) -> QLineEdit:
    """A search box with a clear button."""
    field = QLineEdit(parent)
    field.setPlaceholderText(placeholder)
    field.setClearButtonEnabled(True)
    field.setMinimumWidth(260)
    return field


def choice_combo(all_label: str, choices: dict[str, str],
                 parent: QWidget | None = None) -> QComboBox:
    """A filter combo: "all" (empty code) then each (code, label)."""
    combo = QComboBox(parent)
    combo.addItem(all_label, "")
    for code, label in choices.items():
        combo.addItem(label, code)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    return combo


def placeholder_label(text: str, parent: QWidget | None = None) -> QLabel:
    """A grey centred hint shown where there is nothing yet."""
    label = QLabel(text, parent)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(True)
    label.setEnabled(False)
    return label


def esc(text: object) -> str:
    """HTML-escaped text, newlines kept."""
    return html.escape(str(text or "")).replace("\n", "<br>")


def html_list(items: Iterable[object], empty: str) -> str:
    """A bulleted list, or an italic 'none' text."""
    entries = [f"<li>{esc(item)}</li>" for item in items if str(item or "").strip()]
    return f"<ul>{''.join(entries)}</ul>" if entries else f"<p><i>{esc(empty)}</i></p>"
