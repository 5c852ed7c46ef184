"""Store reads for inputs of the answer metrics, diagnosis, latency, comparison."""

from __future__ import annotations

from rag_annotator.storage.reads import ReadBase


class MetricsReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""
