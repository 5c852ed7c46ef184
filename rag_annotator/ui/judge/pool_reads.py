"""What the judging panel reads of the store, with the next pair and case read ahead.

A judging key must paint the next pair within a frame (issue 19).  The durable commit takes
most of that frame, so the key reads nothing it can avoid: the pair it labelled is refreshed
in place (:meth:`PoolReads.fresh_pairs`, one pool row, never the whole pool), and what the
next key will show — the next pair's document text, and when the case is nearly done the next
case's pool and reference answer — is read once the current pair is painted, while the
assessor reads (:meth:`PoolReads.read_ahead`, run from a zero-delay timer).  A case switch
then costs no query at all.

What was read ahead stays valid until a change says otherwise (:meth:`PoolReads.forget`):
labels of a case drop that case's pool, anything touching the pool's membership, the
documents, the assessors or the pool settings drops everything.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import KnownError
from rag_annotator.storage.reads_documents import DocumentStructure
from rag_annotator.storage.store import GoldSetStore

Row = dict[str, Any]
#: Changes to these tables may move a pair in or out of a pool or change what it shows.
MEMBERSHIP_TABLES = ("cases", "retrieved", "expected_sources", "documents", "runs", "meta")
#: Document texts kept (the shown pair's, the next pair's, the next case's first pair's).
TEXTS_KEPT = 8
#: Document structures kept (small: a row of offsets each, read ahead with the texts).
STRUCTURES_KEPT = 64
#: Pools kept (the current case's next case and the one before, for N and P).
POOLS_KEPT = 4


class PoolReads:
    """Reads for the judging panel; pools, case details and texts read ahead are cached."""

    def __init__(self, store_of: Callable[[], GoldSetStore | None]) -> None:
        self._store_of = store_of
        self._pools: OrderedDict[int, list[Row]] = OrderedDict()
        self._details: OrderedDict[int, Row] = OrderedDict()
        self._texts: OrderedDict[int, str] = OrderedDict()
        # kind, layout, passage span and kept file: what the page view needs of each text
        self._structures: OrderedDict[int, DocumentStructure | None] = OrderedDict()
        # The first pair's text of each case read ahead, kept while its pool is: the
        # assessor may take a hundred keys to reach that case.
        self._first_texts: dict[int, tuple[int, str]] = {}

    @property
    def store(self) -> GoldSetStore | None:
        """The section's open file (the caller forgets everything when it changes)."""
        return self._store_of()

    # -- reads ---------------------------------------------------------------------------------
    def pool(self, case_id: int) -> list[Row]:
        """The case's pool rows (:meth:`GoldSetStore.pool_of_case` for this assessor)."""
        rows = self._pools.pop(case_id, None)
        first = self._first_texts.pop(case_id, None)
        if first is not None:
            _keep(self._texts, first[0], first[1], TEXTS_KEPT)
        if rows is None and self.store is not None:
            rows = self.store.pool_of_case(case_id, self.store.assessor)
        return list(rows or [])

    def detail(self, case_id: int) -> Row:
        """The case with its reference answer ({} when it no longer exists)."""
        found = self._details.get(case_id)
        if found is None:
            found = self._read_detail(case_id)
            _keep(self._details, case_id, found, POOLS_KEPT)
        return found

    def text(self, document_id: int) -> str:
        """A document's text ('' when it no longer exists)."""
        found = self._texts.get(document_id)
        if found is None and self.store is not None:
            found = self.store.document_text(document_id)
            _keep(self._texts, document_id, found, TEXTS_KEPT)
        return found or ""

    def structure(self, document_id: int) -> DocumentStructure | None:
        """A document's structure (None when it no longer exists): its page view's input."""
        if document_id in self._structures:
            return self._structures[document_id]
        found = self.store.document_structure(document_id) if self.store is not None else None
        _keep(self._structures, document_id, found, STRUCTURES_KEPT)
        return found

    def fresh_pairs(self, case_id: int, shown: list[Row], changes: Changes
                    ) -> list[tuple[int, Row]] | None:
        """The rows of ``shown`` (the case's pool as listed) whose labels ``changes`` set,
        read again, with their places; None when the pool must be read again instead (its
        membership, the documents or the assessors may have changed).

        A judging key is one judgment: re-reading and resetting the whole pool after it (and
        re-selecting, re-showing the document) cost more than the commit itself.
        """
        store = self.store
        if store is None or changes.touches("cases", "retrieved", "expected_sources",
                                            "documents"):
            return None
        if set(changes.rows.get("assessors", {})) - {"insert"}:
            return None  # a renamed or removed assessor: "your label" may change meaning
        pairs = changes.pairs_touched()
        if pairs is None:
            return None  # a ranged bulk change: its pairs are not named
        documents = {d for c, d in pairs if c == case_id}
        if not documents:
            return []  # another case's labels: this pool is unchanged
        positions = {int(r["document_id"]): i for i, r in enumerate(shown)}
        if not documents <= positions.keys():
            return None  # a pair joined the pool
        fresh = store.pool_pairs(case_id, store.assessor, documents)
        if len(fresh) != len(documents):
            return None  # a pair left the pool
        return [(positions[int(r["document_id"])], r) for r in fresh]

    # -- reading ahead -------------------------------------------------------------------------
    def read_ahead(self, next_document: int | None, next_case: int | None) -> None:
        """Read what the next key will show: ``next_document``'s text, ``next_case``'s pool
        and case detail, and the text of that case's first pair to judge."""
        if self.store is None:
            return
        if next_document is not None:
            self.text(next_document)
            self.structure(next_document)
        if next_case is None:
            return
        if next_case not in self._pools:
            rows = self.store.pool_of_case(next_case, self.store.assessor)
            _keep(self._pools, next_case, rows, POOLS_KEPT)
            first = next((r for r in rows if r["my_grade"] is None
                          and r["effective_grade"] is None), rows[0] if rows else None)
            if first is not None:
                document_id = int(first["document_id"])
                self._first_texts[next_case] = (document_id, self.text(document_id))
                self.structure(document_id)
                for stale in set(self._first_texts) - set(self._pools):
                    del self._first_texts[stale]
        self.detail(next_case)

    def first_document(self, case_id: int) -> int | None:
        """The document of ``case_id``'s first pair to judge, when it was read ahead."""
        first = self._first_texts.get(case_id)
        return None if first is None else first[0]

    def first_text(self, case_id: int) -> str | None:
        """The text of ``case_id``'s first pair to judge, when it was read ahead."""
        first = self._first_texts.get(case_id)
        return None if first is None else first[1]

    def forget(self, changes: Changes | None) -> None:
        """Drop what ``changes`` may have made stale (None: everything)."""
        if changes is None or "*" in changes.rows or changes.touches(*MEMBERSHIP_TABLES) \
                or set(changes.rows.get("assessors", {})) - {"insert"}:
            self._pools.clear()
            self._details.clear()
            self._texts.clear()
            self._structures.clear()
            self._first_texts.clear()
            return
        cases = changes.cases_touched()
        if cases is None:
            self._pools.clear()
            return
        for case_id in cases:
            self._pools.pop(int(case_id), None)
            self._first_texts.pop(int(case_id), None)

    def _read_detail(self, case_id: int) -> Row:
        if self.store is None:
            return {}
        try:
            return self.store.case_detail(case_id)
        except KnownError:
            return {}


def _keep(cache: OrderedDict[int, Any], key: int, value: Any, size: int) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)
