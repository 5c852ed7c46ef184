"""Translated names for the codes stored in the file (families, statuses, labels, actions).

The gold-set file stores stable English codes (``out_of_scope``, ``not_relevant``) so that
exports and scripts never depend on the user's language; people read these labels instead.
Every string lives here, in the ``labels`` translation context, so lupdate finds them all —
except the history action titles, whose one registry is ``domain/action_names.py`` (marked
there in the same context).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from rag_annotator.domain.action_names import ACTION_NAMES
from rag_annotator.domain.enums import Label
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

FAMILIES: dict[str, str] = {
    "ordinary": QT_TRANSLATE_NOOP("labels", "Ordinary"),
    "ambiguous": QT_TRANSLATE_NOOP("labels", "Ambiguous"),
    "sensitive": QT_TRANSLATE_NOOP("labels", "Sensitive"),
    "out_of_scope": QT_TRANSLATE_NOOP("labels", "Out of scope"),
    "no_answer": QT_TRANSLATE_NOOP("labels", "No answer in corpus"),
    "conflicting_sources": QT_TRANSLATE_NOOP("labels", "Conflicting sources"),
    "outdated_document": QT_TRANSLATE_NOOP("labels", "Outdated document"),
    "prompt_injection": QT_TRANSLATE_NOOP("labels", "Prompt injection / malicious source"),
    "access_restricted": QT_TRANSLATE_NOOP("labels", "Access restricted"),
}

CASE_STATUSES: dict[str, str] = {
    "draft": QT_TRANSLATE_NOOP("labels", "Draft"),
    "reviewed": QT_TRANSLATE_NOOP("labels", "Reviewed"),
    "approved": QT_TRANSLATE_NOOP("labels", "Approved"),
    "retired": QT_TRANSLATE_NOOP("labels", "Retired"),
}

BEHAVIOURS: dict[str, str] = {
    "answer": QT_TRANSLATE_NOOP("labels", "Answer"),
    "abstain": QT_TRANSLATE_NOOP("labels", "Abstain"),
    "escalate": QT_TRANSLATE_NOOP("labels", "Escalate"),
}

DIFFICULTIES: dict[str, str] = {
    "easy": QT_TRANSLATE_NOOP("labels", "Easy"),
    "medium": QT_TRANSLATE_NOOP("labels", "Medium"),
    "hard": QT_TRANSLATE_NOOP("labels", "Hard"),
}

DOC_STATUSES: dict[str, str] = {
    "current": QT_TRANSLATE_NOOP("labels", "Current"),
    "outdated": QT_TRANSLATE_NOOP("labels", "Outdated"),
    "withdrawn": QT_TRANSLATE_NOOP("labels", "Withdrawn"),
}

VERDICTS: dict[str, str] = {
    "supported": QT_TRANSLATE_NOOP("labels", "Supported"),
    "not_supported": QT_TRANSLATE_NOOP("labels", "Not supported"),
    "contradicted": QT_TRANSLATE_NOOP("labels", "Contradicted"),
    "unverified": QT_TRANSLATE_NOOP("labels", "Unverified"),
}

JUDGMENT_LABELS: dict[str, str] = {
    "relevant": QT_TRANSLATE_NOOP("labels", "Relevant"),
    "not_relevant": QT_TRANSLATE_NOOP("labels", "Not relevant"),
    "unjudged": QT_TRANSLATE_NOOP("labels", "Unjudged"),
    "disputed": QT_TRANSLATE_NOOP("labels", "Disputed"),
}

# The history action titles: the one registry is in the domain (marked there for lupdate in
# this same ``labels`` context); shown translated by :func:`action_title`.
ACTIONS: dict[str, str] = ACTION_NAMES

# Values a domain label may end with ("Q03 · DOC → not_relevant"), shown translated.
_ARROW_VALUE = re.compile(r"→ (\w+)$")


def tr(text: str) -> str:
    """Translate a source text of the ``labels`` context."""
    return QCoreApplication.translate("labels", text)


def _lookup(table: dict[str, str], code: str | None) -> str:
    if code is None or code == "":
        return ""
    return tr(table[code]) if code in table else code


def family(code: str | None) -> str:
    """The family of a case, translated."""
    return _lookup(FAMILIES, code)


def case_status(code: str | None) -> str:
    """A case's workflow status, translated."""
    return _lookup(CASE_STATUSES, code)


def behaviour(code: str | None) -> str:
    """A case's expected behaviour, translated."""
    return _lookup(BEHAVIOURS, code)


def difficulty(code: str | None) -> str:
    """A case's difficulty, translated."""
    return _lookup(DIFFICULTIES, code)


def doc_status(code: str | None) -> str:
    """A document's status, translated."""
    return _lookup(DOC_STATUSES, code)


def verdict(code: str | None) -> str:
    """A claim's verdict; no verdict reads "Unverified"."""
    return _lookup(VERDICTS, code or "unverified")


def judgment(code: str | None) -> str:
    """relevant / not relevant / unjudged / disputed, translated."""
    return _lookup(JUDGMENT_LABELS, code)


def grade(value: int | None, max_grade: int = 1) -> str:
    """A relevance grade as people read it: unjudged, not relevant, relevant (graded: 'Relevant
    (2)')."""
    text = judgment(Label.of_grade(value).value)
    if value is not None and value >= 1 and max_grade > 1:
        return f"{text} ({value})"
    return text


def action_title(code: str) -> str:
    """The title of a history action code, translated (the code itself if unknown)."""
    return _lookup(ACTIONS, code)


def operation_label(label: str) -> str:
    """An operation's label with a trailing stored value ("→ not_relevant") translated."""
    match = _ARROW_VALUE.search(label)
    if not match:
        return label
    code = match.group(1)
    for table in (JUDGMENT_LABELS, VERDICTS):
        if code in table:
            return label[: match.start()] + "→ " + tr(table[code])
    return label


def command_text(action: str, label: str) -> str:
    """What the Edit menu and the history show for an operation: title and label."""
    title = action_title(action)
    text = operation_label(label)
    return f"{title} {text}".strip()


TABLES: dict[str, str] = {
    "meta": QT_TRANSLATE_NOOP("labels", "Gold-set setting"),
    "assessors": QT_TRANSLATE_NOOP("labels", "Assessor"),
    "documents": QT_TRANSLATE_NOOP("labels", "Document"),
    "cases": QT_TRANSLATE_NOOP("labels", "Case"),
    "expected_sources": QT_TRANSLATE_NOOP("labels", "Expected source"),
    "runs": QT_TRANSLATE_NOOP("labels", "Run"),
    "retrieved": QT_TRANSLATE_NOOP("labels", "Retrieved document"),
    "answers": QT_TRANSLATE_NOOP("labels", "Answer"),
    "citations": QT_TRANSLATE_NOOP("labels", "Citation"),
    "judgments": QT_TRANSLATE_NOOP("labels", "Judgment"),
    "adjudications": QT_TRANSLATE_NOOP("labels", "Adjudication"),
    "claims": QT_TRANSLATE_NOOP("labels", "Claim"),
    "evidence": QT_TRANSLATE_NOOP("labels", "Evidence"),
    "answer_reviews": QT_TRANSLATE_NOOP("labels", "Answer review"),
    "releases": QT_TRANSLATE_NOOP("labels", "Release"),
    "judge_verdicts": QT_TRANSLATE_NOOP("labels", "Judge verdict"),
    "case_reviews": QT_TRANSLATE_NOOP("labels", "Case review"),
    "trajectories": QT_TRANSLATE_NOOP("labels", "Trajectory"),
    "trajectory_steps": QT_TRANSLATE_NOOP("labels", "Trajectory step"),
    "trajectory_reviews": QT_TRANSLATE_NOOP("labels", "Trajectory review"),
    "identities": QT_TRANSLATE_NOOP("labels", "Test identity"),
    "output_contracts": QT_TRANSLATE_NOOP("labels", "Output contract"),
    "decisive_fields": QT_TRANSLATE_NOOP("labels", "Decisive field"),
    "structured_checks": QT_TRANSLATE_NOOP("labels", "Structured answer check"),
    "field_outcomes": QT_TRANSLATE_NOOP("labels", "Decisive field outcome"),
    "campaigns": QT_TRANSLATE_NOOP("labels", "Campaign"),
    "campaign_assessors": QT_TRANSLATE_NOOP("labels", "Campaign assessor"),
    "queues": QT_TRANSLATE_NOOP("labels", "Assessor's queue"),
    "claim_assessments": QT_TRANSLATE_NOOP("labels", "Assessor's claim verdict"),
    "trajectory_assessments": QT_TRANSLATE_NOOP("labels", "Assessor's trajectory review"),
    "control_judgments": QT_TRANSLATE_NOOP("labels", "Control repeat"),
    "cannot_judge": QT_TRANSLATE_NOOP("labels", "Can't judge"),
    "review_samples": QT_TRANSLATE_NOOP("labels", "Review sample of a judge"),
    "review_sample_items": QT_TRANSLATE_NOOP("labels", "Sampled unit"),
    "document_files": QT_TRANSLATE_NOOP("labels", "Kept document file"),
}


def table_name(table: str) -> str:
    """What a row of ``table`` is called, translated (history detail)."""
    return _lookup(TABLES, table)
