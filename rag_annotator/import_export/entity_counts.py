"""Counts of stored rows in the reader's language: "3 cases", "1 affirmation".

A report says how many rows of each table an import, export or merge touched.  Gluing the
count to the table's English name (``f"{n} {name}"``) cannot be translated and has no
plural, so every table has its counted message pair here (gettext ``ngettext``: French
says "0 cas", "1 affirmation", "2 affirmations"; English "1 claim", "0 claims").  A table
without a pair (a new one) still reads, as its name, until it gets one; the test of the
catalogue lists the tables of a new gold set and fails on one missing here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rag_annotator.messages import P_, Joined, Plural

COUNTED: dict[str, tuple[str, str]] = {
    "assessors": P_("{n} assessor", "{n} assessors"),
    "identities": P_("{n} identity", "{n} identities"),
    "documents": P_("{n} document", "{n} documents"),
    "document_files": P_("{n} document file", "{n} document files"),
    "expected_sources": P_("{n} expected source", "{n} expected sources"),
    "runs": P_("{n} run", "{n} runs"),
    "retrieved": P_("{n} retrieved item", "{n} retrieved items"),
    "answers": P_("{n} answer", "{n} answers"),
    "citations": P_("{n} citation", "{n} citations"),
    "claims": P_("{n} claim", "{n} claims"),
    "evidence": P_("{n} evidence passage", "{n} evidence passages"),
    "answer_reviews": P_("{n} answer review", "{n} answer reviews"),
    "releases": P_("{n} release", "{n} releases"),
    "operations": P_("{n} operation", "{n} operations"),
    "history": P_("{n} history entry", "{n} history entries"),
    "judge_verdicts": P_("{n} judge verdict", "{n} judge verdicts"),
    "case_reviews": P_("{n} case review", "{n} case reviews"),
    "cases": P_("{n} case", "{n} cases"),
    "trajectory_steps": P_("{n} trajectory step", "{n} trajectory steps"),
    "trajectory_reviews": P_("{n} trajectory review", "{n} trajectory reviews"),
    "output_contracts": P_("{n} output contract", "{n} output contracts"),
    "decisive_fields": P_("{n} decisive field", "{n} decisive fields"),
    "structured_checks": P_("{n} structured check", "{n} structured checks"),
    "field_outcomes": P_("{n} field outcome", "{n} field outcomes"),
    "campaigns": P_("{n} campaign", "{n} campaigns"),
    "campaign_assessors": P_("{n} campaign assessor", "{n} campaign assessors"),
    "control_judgments": P_("{n} control judgment", "{n} control judgments"),
    "cannot_judge": P_("{n} can't judge", "{n} can't judge"),
    "review_samples": P_("{n} review sample", "{n} review samples"),
    "review_sample_items": P_("{n} review sample item", "{n} review sample items"),
    "judgments": P_("{n} judgment", "{n} judgments"),
    "adjudications": P_("{n} adjudication", "{n} adjudications"),
    "trajectories": P_("{n} trajectory", "{n} trajectories"),
    "queues": P_("{n} queue", "{n} queues"),
    "claim_assessments": P_("{n} claim assessment", "{n} claim assessments"),
    "trajectory_assessments": P_("{n} trajectory assessment", "{n} trajectory assessments"),
}


def counted(entity: str, n: int) -> Plural:
    """``n`` rows of ``entity`` (a table name) in the reader's language."""
    singular, plural = COUNTED.get(entity, ("{n} {entity}", "{n} {entity}"))
    return Plural(singular, plural, n, entity=entity.replace("_", " "))


def counts_text(counts: Mapping[str, int], *, zeros: bool = False) -> Joined:
    """``3 cases, 1 run`` from a report's counts (zero counts left out unless asked)."""
    parts: list[Any] = [counted(e, n) for e, n in counts.items() if n or zeros]
    return Joined(parts, ", ")
