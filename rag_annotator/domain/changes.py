"""The value every operation returns: what it changed, so views refresh only what they show."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Changes:
    """Rows touched by one committed operation, by table and kind (insert/update/delete).

    ``rows[table][kind]`` holds the primary keys (ids) touched.  A view that lists ids needs a
    reset only when rows were inserted or deleted; otherwise it refreshes the rows it shows.

    ``pairs`` holds the (case id, document id) of every judging row written or removed — in
    ``judgments``, ``adjudications``, ``retrieved`` and ``expected_sources``, i.e. the pairs
    whose label or membership of a pool may have changed — and ``claims`` the ids of the
    claims whose row or evidence was written or removed.  A bulk insert or delete of ranges
    (an import, its undo) does not name its rows: then ``every_pair`` is True and a view must
    treat every pair (and every case's counts) as changed — :meth:`pairs_touched` and
    :meth:`cases_touched` say so by returning None; ``every_claim`` likewise for claims
    (:meth:`claims_touched`).
    """

    operation_id: int | None
    action: str
    label: str
    rows: Mapping[str, Mapping[str, frozenset[int | str]]] = field(default_factory=dict)
    pairs: frozenset[tuple[int, int]] = frozenset()
    claims: frozenset[int] = frozenset()
    every_pair: bool = False
    every_claim: bool = False

    @classmethod
    def build(cls, operation_id: int | None, action: str, label: str,
              touched: Mapping[str, Mapping[str, set[int | str]]], *,
              pairs: Iterable[tuple[int, int]] = (), claims: Iterable[int] = (),
              every_pair: bool = False, every_claim: bool = False) -> Changes:
        """Freeze the sets an operation collected."""
        rows = {t: {k: frozenset(v) for k, v in kinds.items()} for t, kinds in touched.items()}
        return cls(operation_id, action, label, rows, frozenset(pairs), frozenset(claims),
                   every_pair, every_claim)

    @classmethod
    def everything(cls, label: str = "") -> Changes:
        """A change that concerns every view (file opened, bulk import without row detail)."""
        return cls(None, "reload", label, {"*": {"insert": frozenset()}}, every_pair=True,
                   every_claim=True)

    def pairs_touched(self) -> frozenset[tuple[int, int]] | None:
        """The (case, document) pairs whose judging rows changed; None when the operation
        does not name them (a ranged bulk write, or a change of everything): then every pair
        may have changed, and a view must read what it shows again."""
        if self.every_pair or "*" in self.rows:
            return None
        return self.pairs

    def claims_touched(self) -> frozenset[int] | None:
        """The claims whose row or evidence changed; None when every claim may have."""
        if self.every_claim or "*" in self.rows:
            return None
        return self.claims

    def cases_touched(self) -> frozenset[int] | None:
        """The cases whose judging universe or labels changed (their pairs' cases and the
        cases rows written); None when every case may have (see :meth:`pairs_touched`)."""
        pairs = self.pairs_touched()
        if pairs is None:
            return None
        cases = {int(i) for i in self.ids("cases")}
        cases.update(c for c, _d in pairs)
        return frozenset(cases)

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


def made(changes: Changes) -> Changes | None:
    """``changes``, or None when its operation changed nothing: what an import's report
    carries (see ``import_export.registry``)."""
    return None if changes.empty else changes
