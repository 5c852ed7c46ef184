"""The value every operation returns: what it changed, so views refresh only what they show."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Changes:
    """Rows touched by one committed operation, by table and kind (insert/update/delete).

    ``rows[table][kind]`` holds the primary keys (ids) touched.  A view that lists ids needs a
    reset only when rows were inserted or deleted; otherwise it refreshes the rows it shows.
    """

    operation_id: int | None
    action: str
    label: str
    rows: Mapping[str, Mapping[str, frozenset[int | str]]] = field(default_factory=dict)

    @classmethod
    def build(cls, operation_id: int | None, action: str, label: str,
              touched: Mapping[str, Mapping[str, set[int | str]]]) -> Changes:
        """Freeze the sets an operation collected."""
        rows = {t: {k: frozenset(v) for k, v in kinds.items()} for t, kinds in touched.items()}
        return cls(operation_id, action, label, rows)

    @classmethod
    def everything(cls, label: str = "") -> Changes:
        """A change that concerns every view (file opened, bulk import without row detail)."""
        return cls(None, "reload", label, {"*": {"insert": frozenset()}})

    def touches(self, *tables: str) -> bool:
        """True if any of ``tables`` changed (or the change concerns everything)."""
        return "*" in self.rows or any(t in self.rows for t in tables)

    def reshapes(self, *tables: str) -> bool:
        """True if rows were added to or removed from any of ``tables``."""
        if "*" in self.rows:
            return True
        return any(
            kind in self.rows.get(t, {}) for t in tables for kind in ("insert", "delete")
        )

    def ids(self, table: str) -> frozenset[int | str]:
        """Every key of ``table`` touched, whatever the kind."""
        kinds = self.rows.get(table, {})
        out: frozenset[int | str] = frozenset()
        for keys in kinds.values():
            out |= keys
        return out

    @property
    def empty(self) -> bool:
        """True when the operation changed nothing (e.g. setting a value to itself)."""
        return not self.rows
