"""Pure functions over domain values: retrieval measures (``retrieval``, ``strict``), agreement
between assessors (``agreement``), answer metrics (``answers``), what to judge next
(``settle``), diagnosis per case (``diagnosis``), latency and cost (``latency``) and run
comparison (``compare``).  Each module's store-level helper (``summarize``, ``suggestions``,
``diagnose_run``, ``compare``) only reads through the store's ``MetricsReads`` mixin.

No Qt and no SQL here (DESIGN section 2): the store hands over plain values, these functions
hand back plain values, and the CLI and the UI show them.
"""

from rag_annotator.metrics.measures import (
    VALID_FORMS,
    Measure,
    MeasureKind,
    parse_measure,
    parse_measures,
)
from rag_annotator.metrics.retrieval import DEFAULT_MEASURES, Report, evaluate, evaluate_query
from rag_annotator.metrics.values import Policy, QueryInput, Reading

__all__ = [
    "DEFAULT_MEASURES",
    "VALID_FORMS",
    "Measure",
    "MeasureKind",
    "Policy",
    "QueryInput",
    "Reading",
    "Report",
    "evaluate",
    "evaluate_query",
    "parse_measure",
    "parse_measures",
]
