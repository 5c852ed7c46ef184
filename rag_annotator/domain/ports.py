"""What domain operations need from storage, as protocols (domain never imports storage)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from rag_annotator.domain.changes import Changes

Row = dict[str, Any]


class Writer(Protocol):
    """Row-level writes inside one transaction, each one recorded in the history.

    ``label`` is the operation's subject as shown in the history and undo menu; operations
    may refine it once they have read the rows they change.
    """

    label: str

    def get(self, table: str, key: Mapping[str, Any]) -> Row | None: ...
    def select(self, table: str, order_by: str | None = None, **where: Any) -> list[Row]: ...
    def ids_by_key(self, table: str) -> dict[str, int]: ...
    def select_columns(self, table: str, columns: Sequence[str],
                       **where: Any) -> list[tuple[Any, ...]]: ...
    def insert(self, table: str, row: Mapping[str, Any]) -> Row: ...
    def insert_many(self, table: str, rows: Iterable[Mapping[str, Any]]) -> int: ...
    def insert_rows(self, table: str, columns: Sequence[str],
                    rows: Iterable[Sequence[Any]]) -> int: ...
    def update(self, table: str, key: Mapping[str, Any],
               values: Mapping[str, Any]) -> Row | None: ...
    def delete(self, table: str, key: Mapping[str, Any]) -> Row | None: ...
    def delete_where(self, table: str, **where: Any) -> int: ...
    def changes(self) -> Changes: ...


class Store(Protocol):
    """The part of the gold-set store that operations use."""

    assessor: str

    def operation(self, action: str, label: str, *,
                  log: bool = True) -> AbstractContextManager[Writer]: ...
