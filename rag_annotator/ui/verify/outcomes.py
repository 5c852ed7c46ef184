"""Seed 003's three outcomes of one answer, kept apart in the Verify section's case pane.

*Wrong answer* (a contradicted claim, or a review not validated for a reason about the answer
itself), *missing evidence* (a claim not supported, or a review naming an unsupported claim
or a non-justifying citation) and *out-of-scope exposure* (a document the case's identity may
not read, retrieved or cited) are shown side by side, each with its own word: an exposed
answer can be right, and a wrong answer need not expose anything.  The rules are those of
``metrics.exposure`` (the Dashboard and ``metrics --json`` count the same way).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from rag_annotator.metrics.exposure import EVIDENCE_CATEGORIES, WRONG_CATEGORIES
from rag_annotator.ui.sections.base import esc

translate = QCoreApplication.translate


def outcomes_html(context: dict[str, Any]) -> str:
    """One paragraph: the three outcomes of the answer in ``context`` (``answer_context``)."""
    review = context.get("review") or {}
    categories = set(review.get("failure_categories") or [])
    verdicts = [c.get("verdict") for c in context.get("claims", [])]
    wrong = "contradicted" in verdicts or (review.get("validated") == 0 and (
        bool(categories & WRONG_CATEGORIES) or not categories))
    missing = "not_supported" in verdicts or bool(categories & EVIDENCE_CATEGORIES)
    retrieved = [d["key"] for d in context.get("contexts", [])
                 if d.get("restricted") and d.get("rank") is not None]
    cited = list(dict.fromkeys(c["key"] for c in context.get("citations", [])
                               if c.get("restricted")))
    yes, no = translate("VerifySection", "yes"), translate("VerifySection", "no")
    exposure = no
    if retrieved or cited:
        parts = []
        if retrieved:
            parts.append(translate("VerifySection", "retrieved: %1").replace(
                "%1", ", ".join(retrieved)))
        if cited:
            parts.append(translate("VerifySection", "cited: %1").replace("%1", ", ".join(cited)))
        exposure = "⚠ " + "; ".join(parts)
    title = translate("VerifySection", "Three outcomes, kept apart")
    rows = ((translate("VerifySection", "wrong answer"), yes if wrong else no),
            (translate("VerifySection", "missing evidence"), yes if missing else no),
            (translate("VerifySection", "out-of-scope exposure"), exposure))
    body = " · ".join(f"<b>{esc(name)}:</b> {esc(value)}" for name, value in rows)
    return f"<p><b>{esc(title)}</b><br>{body}</p>"
