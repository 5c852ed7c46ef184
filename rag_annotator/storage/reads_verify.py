"""Store reads for answers, claims, evidence, citations, reviews, judge verdicts."""

from __future__ import annotations

from rag_annotator.storage.reads import ReadBase


class VerifyReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""
