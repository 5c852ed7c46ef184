"""Store reads for cases, corpus registry, releases, coverage."""

from __future__ import annotations

from rag_annotator.storage.reads import ReadBase


class GoldsetReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""
