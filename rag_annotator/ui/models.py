"""Table models: an ordered id list, rows loaded lazily by page (DESIGN section 9).

A :class:`LazyTableModel` asks the store for the ids of what it lists (cheap, even for
100,000 documents) and for full rows only a page at a time, when the view paints them.  Pages
are cached and dropped when a change touches them; a change that adds or removes rows resets
the id list.  :class:`RowsModel` is for short lists read whole (runs, claims of an answer).
Views never see SQL: models call the store's typed read methods.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QDateTime,
    QLocale,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels

Row = dict[str, Any]
Index = QModelIndex | QPersistentModelIndex
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
# Roles and flags looked up once: a view calls data() for several roles per painted cell,
# and each ``Qt.ItemDataRole.X`` in the call is a Python-level enum lookup (first paint of a
# big table at startup).
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_SHOWN_ROLES = frozenset((_DISPLAY, _TOOLTIP, _ALIGNMENT))
_HORIZONTAL = Qt.Orientation.Horizontal
_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NO_FLAGS = Qt.ItemFlag.NoItemFlags


@dataclass(frozen=True)
class Column:
    """One column: translated title, how to show a row, and its initial width in characters."""

    title: str
    value: Callable[[Row], object]
    width: int = 12
    numeric: bool = False
    stretch: bool = False


def one_line(text: object) -> str:
    """Cell text: newlines folded so a row stays one line high."""
    return " ".join(str(text or "").split())


def number(value: object) -> str:
    """An integer in the user's locale ("10 000" in French); empty for None."""
    if value is None or value == "":
        return ""
    return QLocale().toString(int(value))  # type: ignore[call-overload]


def json_list(value: object) -> list[Any]:
    """A stored JSON list (tags, rights) as a list; [] when unreadable."""
    if isinstance(value, list):
        return value
    try:
        parsed = json.loads(str(value or "[]"))
    except ValueError:
        return []
    return parsed if isinstance(parsed, list) else []


def local_time(text: object) -> str:
    """A stored UTC ISO time shown in local time, to the second."""
    stamp = QDateTime.fromString(str(text or ""), Qt.DateFormat.ISODateWithMs)
    if not stamp.isValid():
        stamp = QDateTime.fromString(str(text or ""), Qt.DateFormat.ISODate)
    if not stamp.isValid():
        return str(text or "")
    return stamp.toLocalTime().toString("yyyy-MM-dd HH:mm:ss")


class _TableBase(QAbstractTableModel):
    """What both model kinds share: columns, header, display and alignment roles."""

    def __init__(self, columns: Sequence[Column], parent: Any = None) -> None:
        super().__init__(parent)
        self.columns = list(columns)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == _HORIZONTAL and role == _DISPLAY and 0 <= section < len(self.columns):
            return self.columns[section].title
        return None

    def row_at(self, row: int) -> Row | None:
        raise NotImplementedError

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        if role not in _SHOWN_ROLES or not index.isValid():
            return None
        column_index = index.column()
        if not 0 <= column_index < len(self.columns):
            return None
        column = self.columns[column_index]
        if role == _ALIGNMENT:
            return _RIGHT if column.numeric else None
        row = self.row_at(index.row())
        if row is None:
            return "…" if role == _DISPLAY else None
        text = str(column.value(row))
        if role == _TOOLTIP:  # the whole text of an elided cell
            return text if text and not column.numeric else None
        return text

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _ROW_FLAGS if index.isValid() else _NO_FLAGS


class LazyTableModel(_TableBase):
    """Rows identified by id, loaded from the store a page at a time.

    Subclasses implement :meth:`fetch_ids` and :meth:`fetch_rows`.
    """

    PAGE = 200

    def __init__(self, columns: Sequence[Column], parent: Any = None) -> None:
        super().__init__(columns, parent)
        self.store: GoldSetStore | None = None
        self._ids: list[int] = []
        self._positions_of: dict[int, int] | None = {}
        self._pages: dict[int, dict[int, Row]] = {}

    # -- what subclasses provide ---------------------------------------------------------------
    def fetch_ids(self, store: GoldSetStore) -> list[int]:
        """The ordered ids to list."""
        raise NotImplementedError

    def fetch_rows(self, store: GoldSetStore, ids: Sequence[int]) -> dict[int, Row]:
        """Rows by id for one page."""
        raise NotImplementedError

    # -- Qt model interface --------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def row_at(self, row: int) -> Row | None:
        if self.store is None or not 0 <= row < len(self._ids):
            return None
        page = row // self.PAGE
        rows = self._pages.get(page)
        if rows is None:
            ids = self._ids[page * self.PAGE:(page + 1) * self.PAGE]
            rows = self._pages[page] = self.fetch_rows(self.store, ids)
        return rows.get(self._ids[row])

    # -- ids and refresh -----------------------------------------------------------------------
    def set_store(self, store: GoldSetStore | None) -> None:
        """Show ``store`` (or nothing) and load its id list."""
        self.store = store
        self.reload()

    def reload(self) -> None:
        """Fetch the id list again (rows were added or removed, or filters changed)."""
        self.beginResetModel()
        self._ids = self.fetch_ids(self.store) if self.store is not None else []
        self._positions_of = None  # built when first asked (see _positions)
        self._pages.clear()
        self.endResetModel()

    @property
    def _positions(self) -> dict[int, int]:
        """Row by id, built on first use: a 10,000-case list is shown (the first paint of a
        large file) without it; a key that changes a row asks for it."""
        if self._positions_of is None:
            self._positions_of = {row_id: i for i, row_id in enumerate(self._ids)}
        return self._positions_of

    def refresh_ids(self, ids: Iterable[int | str]) -> None:
        """Rows with these ids changed: read those rows again where their page is loaded
        (not the page: a review key re-read 200 rows for one), tell the views."""
        rows = sorted(self._positions[i] for i in ids if isinstance(i, int)
                      and i in self._positions)
        loaded = [self._ids[row] for row in rows if row // self.PAGE in self._pages]
        if loaded and self.store is not None:
            fresh = self.fetch_rows(self.store, loaded)
            for row_id in loaded:
                page = self._pages[self._positions[row_id] // self.PAGE]
                if row_id in fresh:
                    page[row_id] = fresh[row_id]
                else:
                    page.pop(row_id, None)  # gone meanwhile: shown empty, as a page read
        last = self.columnCount() - 1
        for row in rows:
            self.dataChanged.emit(self.index(row, 0), self.index(row, last))

    def patch_row(self, row_id: int, values: Row) -> None:
        """Set ``values`` in ``row_id``'s row where its page is loaded, without reading it
        again (the caller read what changed), and tell the views."""
        row = self._positions.get(row_id)
        if row is None:
            return
        page = self._pages.get(row // self.PAGE)
        if page is not None and row_id in page:
            page[row_id].update(values)
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def refresh_all(self) -> None:
        """Every row may have changed (e.g. a count shown in each row)."""
        self._pages.clear()
        if self._ids:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self._ids) - 1, self.columnCount() - 1))

    def id_at(self, row: int) -> int | None:
        """The id shown on ``row``."""
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def row_of(self, row_id: int) -> int | None:
        """The row showing ``row_id`` (None if not listed)."""
        return self._positions.get(row_id)

    @property
    def ids(self) -> list[int]:
        """The listed ids, in order (a copy)."""
        return list(self._ids)


class CasesModel(LazyTableModel):
    """The gold set's cases, filtered by text, family and status."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__([], parent)
        self.columns = [
            Column(self.tr("Key"), lambda r: r["key"], 8),
            Column(self.tr("Question"), lambda r: one_line(r["question"]), 48, stretch=True),
            Column(self.tr("Family"), lambda r: labels.family(r["family"]), 20),
            Column(self.tr("Status"), lambda r: labels.case_status(r["status"]), 10),
            Column(self.tr("Behaviour"), lambda r: labels.behaviour(r["expected_behaviour"]),
                   11),
            Column(self.tr("Tags"), lambda r: ", ".join(map(str, json_list(r["tags"]))), 16),
            Column(self.tr("Sources"), lambda r: number(r["sources"]), 7, numeric=True),
        ]
        self.search = ""
        self.family = ""
        self.status = ""

    def fetch_ids(self, store: GoldSetStore) -> list[int]:
        return store.case_ids(search=self.search, family=self.family, status=self.status)

    def fetch_rows(self, store: GoldSetStore, ids: Sequence[int]) -> dict[int, Row]:
        return store.cases_rows(ids)


class DocumentsModel(LazyTableModel):
    """The corpus registry, filtered by text and status."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__([], parent)
        self.columns = [
            Column(self.tr("Key"), lambda r: r["key"], 14),
            Column(self.tr("Title"), lambda r: one_line(r["title"]), 36, stretch=True),
            Column(self.tr("Status"), lambda r: labels.doc_status(r["status"]), 9),
            Column(self.tr("Version"), lambda r: r["version"], 8),
            Column(self.tr("Owner"), lambda r: r["owner"], 14),
            Column(self.tr("Rights"), lambda r: ", ".join(map(str, json_list(r["rights"]))), 14),
            Column(self.tr("Valid from"), lambda r: r["valid_from"] or "", 10),
            Column(self.tr("Valid until"), lambda r: r["valid_until"] or "", 10),
            Column(self.tr("Supersedes"), lambda r: r["supersedes"] or "", 12),
            Column(self.tr("Length"), lambda r: number(r["length"]), 8, numeric=True),
        ]
        self.search = ""
        self.status = ""

    def fetch_ids(self, store: GoldSetStore) -> list[int]:
        return store.document_ids(search=self.search, status=self.status)

    def fetch_rows(self, store: GoldSetStore, ids: Sequence[int]) -> dict[int, Row]:
        return store.documents_rows(ids)


class HistoryModel(LazyTableModel):
    """Every operation of the file, newest first."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__([], parent)
        self.columns = [
            Column(self.tr("Time"), lambda r: local_time(r["at"]), 18),
            Column(self.tr("Assessor"), lambda r: r["assessor"], 12),
            Column(self.tr("Action"), lambda r: labels.action_title(r["action"]), 22),
            Column(self.tr("Label"), lambda r: labels.operation_label(r["label"]), 40,
                   stretch=True),
            Column(self.tr("Rows changed"), lambda r: number(r["row_count"]), 8, numeric=True),
        ]

    def fetch_ids(self, store: GoldSetStore) -> list[int]:
        return store.operation_ids()

    def fetch_rows(self, store: GoldSetStore, ids: Sequence[int]) -> dict[int, Row]:
        return store.operations_rows(ids)


class RowsModel(_TableBase):
    """A short list of rows read whole (runs, answers, claims, a case's pool)."""

    def __init__(self, columns: Sequence[Column], parent: Any = None) -> None:
        super().__init__(columns, parent)
        self._rows: list[Row] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def row_at(self, row: int) -> Row | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def set_rows(self, rows: Sequence[Row]) -> None:
        """Replace every row."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def replace_rows(self, rows: Sequence[Row], changed_only: bool = False) -> None:
        """Replace every row without a model reset: rows are removed or inserted at the end
        and the others changed in place, so the view keeps its header, scroll bar and
        current row instead of laying everything out again (a judging key that moves to the
        next case's pool; issue 19).  ``changed_only``: only the cells that show another
        value than before are repainted (for columns that show nothing but their row's own
        values: the old value is computed again to compare)."""
        new, old = list(rows), len(self._rows)
        kept = self._rows[:min(old, len(new))]
        if len(new) < old:
            self.beginRemoveRows(QModelIndex(), len(new), old - 1)
            del self._rows[len(new):]
            self.endRemoveRows()
        elif len(new) > old:
            self.beginInsertRows(QModelIndex(), old, len(new) - 1)
            self._rows.extend(new[old:])
            self.endInsertRows()
        self._rows[:] = new
        if not kept:
            return
        if not changed_only:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(kept) - 1, self.columnCount() - 1))
            return
        cells = [(i, c) for i, row in enumerate(kept) if row != new[i]
                 for c, column in enumerate(self.columns)
                 if column.value(row) != column.value(new[i])]
        if cells:  # the box around the cells that show something else, and only it
            rows_, columns = [i for i, _ in cells], [c for _, c in cells]
            self.dataChanged.emit(self.index(min(rows_), min(columns)),
                                  self.index(max(rows_), max(columns)))

    def update_row(self, row: int, values: Row) -> None:
        """Replace one row's values in place."""
        if 0 <= row < len(self._rows):
            self._rows[row] = values
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    @property
    def rows(self) -> list[Row]:
        """The rows (a copy of the list)."""
        return list(self._rows)
