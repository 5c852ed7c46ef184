"""Pure functions over domain values: retrieval measures, agreement between assessors
(``agreement``); answers and claims later.

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
from rag_annotator.metrics.model import Policy, QueryInput, Reading
from rag_annotator.metrics.retrieval import DEFAULT_MEASURES, Report, evaluate, evaluate_query

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
