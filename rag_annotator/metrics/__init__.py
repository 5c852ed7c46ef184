"""Pure functions over domain values: retrieval measures (``retrieval``, ``strict``), agreement
between assessors (``agreement``), answer metrics (``answers``), what to judge next
(``judge_next``), diagnosis per case (``diagnosis``), latency and cost (``latency``), agent
metrics (``agents``), a judge's calibration (``calibration``), run comparison
(``compare``), intervals and how many cases are enough (``intervals``, ``run_intervals``),
paired significance (``significance``) and the drift table (``drift``).

No Qt, no SQL and no store here (DESIGN section 2): nothing in this package imports
``rag_annotator.storage`` or ``rag_annotator.reports`` (tests/metrics/test_purity.py holds it
to that).  ``rag_annotator.reports`` reads the inputs through the store and hands plain values
to these functions, which hand back plain values for the CLI, the UI and the exports.
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
