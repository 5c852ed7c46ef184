"""What every section shares: lazy first load, refresh on changes, table and text helpers.

A section loads nothing until it is first shown (a big file opens as fast as an empty one)
and, while hidden, only notes that a change concerns it; it refreshes when shown again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import actions
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.look.zoom import StretchFloor
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

    def install_commands(self, action_ids: Iterable[str],
                         local: Mapping[str, Sequence[QWidget]] | None = None
                         ) -> dict[str, QAction]:
        """The section's commands, by id: shortcuts that work anywhere in the section, except
        those in ``local``, which work only while one of the given widgets has the focus (a
        key such as Enter or Space that a dialog's field or another list needs itself)."""
        local = local or {}
        commands = actions.make_actions([i for i in action_ids if i not in local], self,
                                        Qt.ShortcutContext.WidgetWithChildrenShortcut)
        for action in commands.values():
            self.addAction(action)
        for action_id, widgets in local.items():
            action = actions.make_action(action_id, widgets[0],
                                         Qt.ShortcutContext.WidgetShortcut)
            for widget in widgets:
                widget.addAction(action)
            commands[action_id] = action
        return commands

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

    def restyle(self) -> None:
        """The look changed (View → Appearance): render again what was coloured when it was
        rendered (rich text, chart bars); tables and banners follow the palette by
        themselves.  By default a refresh, now if shown, else when next shown."""
        if self.loaded:
            self.schedule_refresh()

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


class ListSection(Section):
    """A searchable, filterable lazy list with the selected row shown in full below it.

    Subclasses create ``model``, ``search``, ``count`` and ``table``, lay out with
    :meth:`lay_out` and wire with :meth:`connect_filters`, then provide
    :meth:`apply_model_filters`, :meth:`count_text`, :meth:`show_nothing` and
    :meth:`show_current`.  Typing in the search field is debounced (250 ms) so a 100,000-row
    list is not re-queried at every key.
    """

    model: LazyTableModel
    search: QLineEdit
    count: QLabel
    table: QTableView

    def lay_out(self, bar: QHBoxLayout, detail: QWidget, sizes: tuple[int, int]) -> None:
        """The filter bar on top, then the list above ``detail`` (split ``sizes``)."""
        splitter = vertical_split(self.table, detail, sizes)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(splitter, 1)

    def connect_filters(self, *combos: QComboBox) -> None:
        """Re-filter on typing (debounced), Enter and every filter combo; follow selection."""
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(250)
        self._debounce.timeout.connect(self._apply_filters)
        self.search.textChanged.connect(self._debounce.start)
        self.search.returnPressed.connect(self._apply_filters)
        for combo in combos:
            combo.currentIndexChanged.connect(self._apply_filters)
        self.table.selectionModel().currentRowChanged.connect(self.show_current)

    # -- what subclasses provide ---------------------------------------------------------------
    def apply_model_filters(self) -> None:
        """Copy the filter widgets' values onto the model."""

    def count_text(self, total: int) -> str:
        """"12 cases" (translated in the subclass, where lupdate finds the string)."""
        return str(total)

    def show_nothing(self) -> None:
        """The list is empty: say that nothing matches."""

    def show_current(self) -> None:
        """Show the selected row in full."""

    # -- shared behaviour ----------------------------------------------------------------------
    def focus_widget(self) -> QWidget:
        return self.table

    def find_field(self) -> QLineEdit:
        return self.search

    def refresh(self) -> None:
        self.model.store = self.store
        self._reload(keep=self._current_id())

    def _current_id(self) -> int | None:
        return self.model.id_at(current_row(self.table))

    def _apply_filters(self) -> None:
        self._debounce.stop()
        self.apply_model_filters()
        if self.store is not None:
            self._reload(keep=self._current_id())

    def _reload(self, keep: int | None) -> None:
        self.model.reload()
        total = self.model.rowCount()
        self.count.setText(self.count_text(total))
        row = self.model.row_of(keep) if keep is not None else None
        if total:
            select_row(self.table, row if row is not None else 0)
        else:
            self.show_nothing()


def vertical_split(top: QWidget, bottom: QWidget, stretch: tuple[int, int]) -> QSplitter:
    """``top`` above ``bottom``, sharing the height in the ratio ``stretch``."""
    splitter = QSplitter(Qt.Orientation.Vertical)
    splitter.addWidget(top)
    splitter.addWidget(bottom)
    splitter.setStretchFactor(0, stretch[0])
    splitter.setStretchFactor(1, stretch[1])
    splitter.setSizes([1000 * stretch[0], 1000 * stretch[1]])
    return splitter


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
    # The header shares the table's selection model by default, to highlight the selected
    # sections (off here): then every row selected repaints every header section, a few
    # tenths of a millisecond of each key that moves (issue 19).  It gets one of its own.
    header.setSelectionModel(QItemSelectionModel(model, header))
    header.setStretchLastSection(False)
    metrics = view.fontMetrics()
    for i, column in enumerate(model.columns):
        if column.stretch:
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.Stretch)
            StretchFloor(view, i)  # a large text size leaves it room to be read
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
    import html  # here: its import reads the HTML entity table (~2 ms of the first paint)

    return html.escape(str(text or "")).replace("\n", "<br>")


def html_list(items: Iterable[object], empty: str) -> str:
    """A bulleted list, or an italic 'none' text."""
    entries = [f"<li>{esc(item)}</li>" for item in items if str(item or "").strip()]
    return f"<ul>{''.join(entries)}</ul>" if entries else f"<p><i>{esc(empty)}</i></p>"
