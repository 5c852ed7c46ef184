"""The closed vocabularies of DESIGN section 4, stored in the file as their string values."""

from __future__ import annotations

from enum import Enum


class StrEnum(str, Enum):
    """A str-valued enum (``enum.StrEnum`` exists only from Python 3.11)."""

    def __str__(self) -> str:
        return str(self.value)


class Family(StrEnum):
    """The kind of difficulty a case tests (seed 003's case taxonomy)."""

    ORDINARY = "ordinary"
    AMBIGUOUS = "ambiguous"
    SENSITIVE = "sensitive"
    OUT_OF_SCOPE = "out_of_scope"
    NO_ANSWER = "no_answer"
    CONFLICTING_SOURCES = "conflicting_sources"
    OUTDATED_DOCUMENT = "outdated_document"
    PROMPT_INJECTION = "prompt_injection"
    ACCESS_RESTRICTED = "access_restricted"


class CaseKind(StrEnum):
    """What a case evaluates: a RAG answer, or a tool-using agent's result and path."""

    RAG = "rag"
    AGENT = "agent"


class Behaviour(StrEnum):
    """What a good system does with the question."""

    ANSWER = "answer"
    ABSTAIN = "abstain"
    ESCALATE = "escalate"


class CaseStatus(StrEnum):
    """The review workflow of a case: draft → reviewed → approved → retired."""

    DRAFT = "draft"
    REVIEWED = "reviewed"
    APPROVED = "approved"
    RETIRED = "retired"


class Difficulty(StrEnum):
    """The author's estimate of how hard the case is."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class DocStatus(StrEnum):
    """Whether a document may still be used as a source."""

    CURRENT = "current"
    OUTDATED = "outdated"
    WITHDRAWN = "withdrawn"


class Verdict(StrEnum):
    """A claim's verdict against the retrieved context (no row value = unverified)."""

    SUPPORTED = "supported"
    NOT_SUPPORTED = "not_supported"
    CONTRADICTED = "contradicted"


class Outcome(StrEnum):
    """What the system did with the question, as recorded in an answer review."""

    ANSWERED = "answered"
    ABSTAINED = "abstained"
    ESCALATED = "escalated"


class CitationSupport(StrEnum):
    """Whether a cited passage supports what it is attached to."""

    YES = "yes"
    PARTLY = "partly"
    NO = "no"


class FailureCategory(StrEnum):
    """Why an answer was not validated (DESIGN section 4)."""

    FACTUAL_ERROR = "factual_error"
    UNSUPPORTED_CLAIM = "unsupported_claim"
    NON_JUSTIFYING_CITATION = "non_justifying_citation"
    OUTDATED_SOURCE = "outdated_source"
    UNAUTHORISED_SOURCE = "unauthorised_source"
    UNWARRANTED_ABSTENTION = "unwarranted_abstention"
    MISSING_ABSTENTION = "missing_abstention"
    FORBIDDEN_CONTENT = "forbidden_content"


class Label(StrEnum):
    """The three states of a relevance judgment; unjudged is never 'not relevant'."""

    RELEVANT = "relevant"
    NOT_RELEVANT = "not_relevant"
    UNJUDGED = "unjudged"

    @classmethod
    def of_grade(cls, grade: int | None) -> Label:
        """Grade ≥ 1 is relevant, 0 is not relevant, None (or a negative qrels grade) unjudged."""
        if grade is None or grade < 0:
            return cls.UNJUDGED
        return cls.RELEVANT if grade >= 1 else cls.NOT_RELEVANT


def values(enum: type[StrEnum]) -> tuple[str, ...]:
    """The stored string values of an enum, in declaration order."""
    return tuple(member.value for member in enum)
