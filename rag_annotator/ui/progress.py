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
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import KnownError
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.hub import Hub

log = logging.getLogger("rag_annotator")

Row = dict[str, Any]
COUNT_KEYS = ("pairs", "mine", "relevant", "not_relevant", "unjudged", "disputed")
JUDGING_TABLES = ("cases", "judgments", "adjudications", "retrieved", "expected_sources")


class JudgingProgress(QObject):
    """Judging counts per case (see ``GoldSetStore.judging_progress``) and their totals.

    Signals:
        updated(frozenset[int] | None): these cases' counts changed (None: all of them).
        completed(): every case has been counted at least once.
        failed(str): the background count hit a known error (e.g. the file is busy).
    """

    updated = Signal(object)
    completed = Signal()
    failed = Signal(str)
    _chunk_ready = Signal(int, int, object, int)  # last: 1 on the final chunk
    _chunk_failed = Signal(int, object)

    CHUNK = 250

    def __init__(self, hub: Hub) -> None:
        super().__init__(hub)
        self._hub = hub
        self._rows: dict[int, Row] = {}
        self._complete = False
        self._generation = 0
        self._seq = 0
        self._touched: dict[int, int] = {}
        self._executor: ThreadPoolExecutor | None = None
        self._chunk_ready.connect(self._merge, Qt.ConnectionType.QueuedConnection)
        self._chunk_failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        hub.store_replaced.connect(self.restart)
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
        """Sums over every case (None until the first count is complete)."""
        if not self._complete:
            return None
        totals = dict.fromkeys(COUNT_KEYS, 0)
        for row in self._rows.values():
            for key in COUNT_KEYS:
                totals[key] += row[key]
        return totals

    # -- counting ------------------------------------------------------------------------------
    def restart(self, store: GoldSetStore | None) -> None:
        """Forget every count and count ``store`` again in the background."""
        self._generation += 1
        self._rows.clear()
        self._touched.clear()
        self._complete = False
        self.updated.emit(None)
        if store is None:
            return
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1,
                                                thread_name_prefix="judging-progress")
        ids = store.case_ids()
        if not ids:
            self._complete = True
            self.completed.emit()
            return
        self._executor.submit(self._count, self._generation, store.path, store.assessor, ids)

    def close(self) -> None:
        """Stop counting and wait for the worker (its connection closes with it)."""
        self._generation += 1
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _count(self, generation: int, path: Path, assessor: str, ids: list[int]) -> None:
        """Worker thread: count ``ids`` chunk by chunk on a read-only connection."""
        try:
            reader = GoldSetStore.open(path, read_only=True, verify="skip")
        except Exception as error:  # reported on the GUI thread
            self._chunk_failed.emit(generation, error)
            return
        try:
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
        self._rows.update(fresh)
        if fresh:
            self.updated.emit(frozenset(fresh))
        if last:
            self._complete = True
            self.completed.emit()

    def _on_failed(self, generation: int, error: BaseException) -> None:
        if generation != self._generation:
            return
        if isinstance(error, KnownError):
            log.warning("judging counts: %s", error)
            self.failed.emit(str(error))
            return
        raise error  # a bug: goes to the crash dialog

    def _on_changes(self, changes: Changes) -> None:
        store = self._hub.store
        if store is None or not changes.touches(*JUDGING_TABLES):
            return
        cases = store.cases_touched_by(changes.operation_id) if changes.operation_id else set()
        if "*" in changes.rows or not cases:
            self.restart(store)  # unlogged bulk change: count everything again
            return
        self._seq += 1
        for case_id in cases:
            self._touched[case_id] = self._seq
        self._rows.update(store.judging_progress(sorted(cases), store.assessor))
        self.updated.emit(frozenset(cases))
