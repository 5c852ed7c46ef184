"""Per-case judging counts, computed in the background and kept up to date after each edit.

Counting effective labels over a million judgments takes seconds, so it must not run when a
file opens nor after each key press (DESIGN section 3: as responsive with a big file as with
the sample).  The first count runs on a worker thread, on its own read-only connection, in
chunks of cases (each chunk holds SQLite's shared lock only briefly, so an edit made
meanwhile commits without waiting).  After that, an edit recounts only the cases its history
rows name (a few milliseconds).  The status bar, the dashboard and the Judge section read the
same numbers, so they always agree.

A chunk read on the worker may predate an edit that lands while it is in flight; the change
counter ``_seq`` tells which is newer, and the GUI thread's own recount wins.

The status bar's file totals (cases, documents, unverified claims) are counted first on the
same worker: grouping 100,000 claims takes tens of milliseconds, too long to wait for before
the window shows a big file.  After an edit, only the totals of the tables it touched are
recounted, on the GUI thread; a worker result older than that recount is dropped.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import KnownError
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.hub import Hub
from rag_annotator.ui.serial_worker import SerialWorker

log = logging.getLogger("rag_annotator")

Row = dict[str, Any]
COUNT_KEYS = ("pairs", "mine", "relevant", "not_relevant", "unjudged", "disputed")
JUDGING_TABLES = ("cases", "judgments", "adjudications", "retrieved", "expected_sources")
FILE_TOTAL_TABLES = ("cases", "documents", "claims")


def file_totals(store: GoldSetStore, tables: tuple[str, ...] = FILE_TOTAL_TABLES
                ) -> dict[str, int]:
    """The status bar's totals that depend on ``tables``: cases, documents, unverified."""
    totals: dict[str, int] = {}
    if "cases" in tables:
        totals["cases"] = store.count("cases")
    if "documents" in tables:
        totals["documents"] = store.count("documents")
    if "claims" in tables:
        totals["unverified"] = store.unverified_claims()
    return totals


class JudgingProgress(QObject):
    """Judging counts per case (see ``GoldSetStore.judging_progress``) and their totals.

    Also holds the file totals shown in the status bar (:meth:`file_totals`).

    Signals:
        updated(frozenset[int] | None): these cases' counts changed (None: all of them).
        completed(): every case has been counted at least once.
        failed(str): the background count hit a known error (e.g. the file is busy).
        totals_changed(): the file totals changed (or became known).
    """

    updated = Signal(object)
    completed = Signal()
    failed = Signal(str)
    totals_changed = Signal()
    _chunk_ready = Signal(int, int, object, int)  # last: 1 on the final chunk
    _chunk_failed = Signal(int, object)
    _totals_ready = Signal(int, int, object)

    CHUNK = 250

    def __init__(self, hub: Hub) -> None:
        super().__init__(hub)
        self._hub = hub
        self._rows: dict[int, Row] = {}
        self._sums: dict[str, int] = dict.fromkeys(COUNT_KEYS, 0)
        self._complete = False
        self._generation = 0
        self._seq = 0
        self._touched: dict[int, int] = {}
        self._totals: dict[str, int] = {}
        self._totals_seq = 0
        self._executor: SerialWorker | None = None
        self._held = False
        self._pending: tuple[int, GoldSetStore] | None = None
        self._chunk_ready.connect(self._merge, Qt.ConnectionType.QueuedConnection)
        self._totals_ready.connect(self._merge_totals, Qt.ConnectionType.QueuedConnection)
        self._chunk_failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        hub.store_replaced.connect(self._restart_all)
        hub.assessor_changed.connect(lambda _name: self.restart(self._hub.store))
        hub.changes_applied.connect(self._on_changes)

    # -- reading -------------------------------------------------------------------------------
    @property
    def complete(self) -> bool:
        """True once every case has been counted."""
        return self._complete

    def row(self, case_id: int) -> Row | None:
        """The counts of one case, or None while it has not been counted yet."""
        return self._rows.get(case_id)

    def totals(self) -> dict[str, int] | None:
        """Sums over every case (None until the first count is complete).

        Kept up to date as rows are stored (:meth:`_store_rows`): summing 10,000 cases at each
        read cost milliseconds, and the status bar and the Judge section read it after every
        judging key.
        """
        if not self._complete:
            return None
        return dict(self._sums)

    def _store_rows(self, rows: dict[int, Row]) -> None:
        """Replace these cases' counts, moving the running sums by the difference."""
        sums = self._sums
        for case_id, row in rows.items():
            old = self._rows.get(case_id)
            for key in COUNT_KEYS:
                sums[key] += row[key] - (old[key] if old is not None else 0)
            self._rows[case_id] = row

    def file_totals(self) -> dict[str, int] | None:
        """Cases, documents and unverified claims of the file (None while being counted)."""
        return self._totals if len(self._totals) == 3 else None

    # -- counting ------------------------------------------------------------------------------
    def restart(self, store: GoldSetStore | None) -> None:
        """Forget every count and count ``store`` again in the background."""
        self._generation += 1
        self._rows.clear()
        self._sums = dict.fromkeys(COUNT_KEYS, 0)
        self._touched.clear()
        self._complete = False
        self.updated.emit(None)
        if store is None:
            return
        if self._held:
            self._pending = (self._generation, store)
            return
        self._submit(self._generation, store)

    def hold(self) -> None:
        """Start no background count until :meth:`release` (the window is not painted yet:
        the worker would compete with the first paint for the CPU and the GIL)."""
        self._held = True

    def release(self) -> None:
        """Start the count that :meth:`hold` kept waiting, if it is still wanted."""
        self._held = False
        pending, self._pending = self._pending, None
        if pending is not None and pending[0] == self._generation:
            self._submit(*pending)

    def _submit(self, generation: int, store: GoldSetStore) -> None:
        if self._executor is None:
            self._executor = SerialWorker("judging-progress")
        self._executor.submit(self._count, generation, store.path, store.assessor)

    def _restart_all(self, store: GoldSetStore | None) -> None:
        """A file was opened or closed: its totals and judging counts are counted anew."""
        self._totals_seq += 1
        self._totals = {}
        self.totals_changed.emit()
        self.restart(store)

    def recount_totals(self, tables: tuple[str, ...]) -> None:
        """Recount now the file totals that depend on ``tables`` (after an edit)."""
        store = self._hub.store
        tables = tuple(t for t in tables if t in FILE_TOTAL_TABLES)
        if store is None or not tables:
            return
        if self.file_totals() is None:  # the worker's totals will be dropped: count all
            tables = FILE_TOTAL_TABLES
        self._totals_seq += 1
        self._totals.update(file_totals(store, tables))
        self.totals_changed.emit()

    def close(self) -> None:
        """Stop counting and wait for the worker (its connection closes with it)."""
        self._generation += 1
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None

    def _count(self, generation: int, path: Path, assessor: str) -> None:
        """Worker thread: the file totals (unless already known), then every case's counts
        chunk by chunk, on a read-only connection."""
        try:
            reader = GoldSetStore.open(path, read_only=True, verify="skip")
        except Exception as error:  # reported on the GUI thread
            self._chunk_failed.emit(generation, error)
            return
        try:
            if self.file_totals() is None:
                seq = self._totals_seq
                self._totals_ready.emit(generation, seq, file_totals(reader))
            ids = reader.case_ids()
            if not ids:
                self._chunk_ready.emit(generation, self._seq, {}, 1)
            for start in range(0, len(ids), self.CHUNK):
                if generation != self._generation:
                    return
                seq = self._seq
                rows = reader.judging_progress(ids[start:start + self.CHUNK], assessor)
                self._chunk_ready.emit(generation, seq, rows,
                                       int(start + self.CHUNK >= len(ids)))
        except Exception as error:
            self._chunk_failed.emit(generation, error)
        finally:
            reader.close()

    def _merge(self, generation: int, seq: int, rows: dict[int, Row], last: int) -> None:
        if generation != self._generation:
            return
        fresh = {c: r for c, r in rows.items() if self._touched.get(c, -1) <= seq}
        self._store_rows(fresh)
        if fresh:
            self.updated.emit(frozenset(fresh))
        if last:
            self._complete = True
            self.completed.emit()

    def _merge_totals(self, generation: int, seq: int, totals: dict[str, int]) -> None:
        if generation != self._generation or seq != self._totals_seq:
            return  # another file, or the GUI thread recounted after an edit meanwhile
        self._totals = totals
        self.totals_changed.emit()

    def _on_failed(self, generation: int, error: BaseException) -> None:
        if generation != self._generation:
            return
        if isinstance(error, KnownError):
            log.warning("judging counts: %s", error)
            self.failed.emit(error.render())
            return
        raise error  # a bug: goes to the crash dialog

    def _move_unverified(self, store: GoldSetStore, changes: Changes) -> bool:
        """Move the unverified count by what ``changes`` did to verdicts (its history rows)
        instead of counting every claim again after each verdict key; False when that
        cannot be told (no totals yet, a ranged write, rows not logged one by one)."""
        if (self.file_totals() is None or changes.operation_id is None
                or changes.claims_touched() is None or "*" in changes.rows):
            return False
        delta = store.unverified_delta(changes.operation_id, len(changes.ids("claims")))
        if delta is None:
            return False
        if delta:
            self._totals_seq += 1
            self._totals["unverified"] += delta
            self.totals_changed.emit()
        return True

    def _pool_changed(self, changes: Changes) -> bool:
        keys = changes.rows.get("meta", {})
        return any(k in ("pool_runs", "pool_depth") for ids in keys.values() for k in ids)

    def _on_changes(self, changes: Changes) -> None:
        store = self._hub.store
        if store is None:
            return
        tables = tuple(t for t in FILE_TOTAL_TABLES if changes.touches(t))
        if "claims" in tables and self._move_unverified(store, changes):
            tables = tuple(t for t in tables if t != "claims")
        self.recount_totals(tables)
        if changes.touches("meta") and self._pool_changed(changes):
            self.restart(store)  # another pool: every case's pairs change
            return
        if not changes.touches(*JUDGING_TABLES):
            return
        cases = changes.cases_touched()
        if cases is None:
            self.restart(store)  # a ranged bulk change names no case: count everything again
            return
        if not cases:
            return  # e.g. a document's text: no case's pairs or labels changed
        self._seq += 1
        for case_id in cases:
            self._touched[case_id] = self._seq
        self._store_rows(store.judging_progress(sorted(cases), store.assessor))
        self.updated.emit(frozenset(cases))
