"""Store reads for what the exports and format imports read."""

from __future__ import annotations

from rag_annotator.storage.reads import ReadBase


class ExchangeReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""
