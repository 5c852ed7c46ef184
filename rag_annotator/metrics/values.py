"""The values the retrieval measures read and return.

One :class:`QueryInput` is one case of one run: the run's ranking for the case and the case's
*universe* with its effective labels.  Keeping "unjudged" (``None``) apart from "not relevant"
(``0``) all the way down to here is the point of the product (DESIGN sections 1 and 5): only
the chosen :class:`Policy` decides what an unjudged document is worth, and the strict policy
returns a :class:`Reading` that can say "between 0.33 and 0.67" instead of a made-up number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType


class Policy(str, Enum):
    """What a retrieved document without an effective label is worth (DESIGN section 5)."""

    #: Counted as not relevant, as trec_eval does.
    TREC = "trec"
    #: Dropped from the ranking before computing (trec_eval ``-J``, the "condensed list").
    JUDGED_ONLY = "judged-only"
    #: Published only if the same under every possible labelling of the unjudged documents.
    STRICT = "strict"

    @classmethod
    def parse(cls, value: str | Policy) -> Policy:
        """Accept the CLI spelling (``trec``, ``judged-only``, ``strict``) or a member."""
        if isinstance(value, Policy):
            return value
        try:
            return cls(value)
        except ValueError:
            valid = ", ".join(p.value for p in cls)
            raise ValueError(f"unknown unjudged policy {value!r}; valid: {valid}") from None


#: The types a grade may have (``bool`` is refused: True is not a grade).
_GRADE_TYPES = frozenset({int, type(None)})


@dataclass(frozen=True, slots=True)
class QueryInput:
    """One case of one run, as the measures see it.

    ``ranking``
        document ids in rank order, already ordered the way trec_eval orders a run (score
        descending, ties by docid descending; the import does that).  A document may appear
        only once: counting it twice would inflate every measure (seed 003, K05).
    ``labels``
        the case's universe: every document any run retrieved for it, its expected sources and
        every judged document, mapped to its effective grade (``0`` not relevant, ``>= 1``
        relevant, up to ``max_grade``) or to ``None`` when it is unjudged.  A ranked document
        that is not a key lies outside the universe and counts as not relevant (the pooling
        assumption) under every policy except ``judged-only``, which drops it.
    ``max_grade``
        the top of the grading scale: 1 for binary judgments, 2 or 3 for graded ones.  The
        strict policy needs it to know every grade an unjudged document could still receive.
    """

    ranking: Sequence[str]
    labels: Mapping[str, int | None]
    max_grade: int = 1

    def __post_init__(self) -> None:
        ranking = tuple(self.ranking)
        seen: dict[str, int] = {}
        # The loops below name the culprit; the set tests (C speed) spare them on the
        # well-formed majority (10,000 cases x 100 documents in every ``metrics``, issue 19).
        for rank, doc in enumerate(ranking if len(set(ranking)) != len(ranking) else (),
                                   start=1):
            if doc in seen:
                raise ValueError(
                    f"document {doc!r} is ranked twice (ranks {seen[doc]} and {rank}); a "
                    "document counts once - remove the duplicate from the ranking"
                )
            seen[doc] = rank
        if isinstance(self.max_grade, bool) or not isinstance(self.max_grade, int) \
                or self.max_grade < 1:
            raise ValueError(f"max_grade must be a whole number >= 1, not {self.max_grade!r}")
        labels = dict(self.labels)
        plain = set(map(type, labels.values())) <= _GRADE_TYPES and all(
            0 <= grade <= self.max_grade for grade in set(labels.values()) if grade is not None)
        for doc, grade in () if plain else labels.items():
            if grade is None:
                continue
            if isinstance(grade, bool) or not isinstance(grade, int):
                raise ValueError(f"grade of {doc!r} must be a whole number or None, not "
                                 f"{grade!r}")
            if not 0 <= grade <= self.max_grade:
                raise ValueError(
                    f"grade {grade} of {doc!r} is outside 0..{self.max_grade}; an unjudged "
                    "document is None (a negative TREC label means unjudged)"
                )
        # Frozen copies: a caller mutating its own dict later must not change a result.
        object.__setattr__(self, "ranking", ranking)
        object.__setattr__(self, "labels", MappingProxyType(labels))


@dataclass(frozen=True, slots=True)
class Reading:
    """The value of one measure on one case, with what is known when it is not published.

    ``value`` is the published number, or ``None``.  Under ``trec`` and ``judged-only``
    ``low == high == value`` and ``None`` only means "not defined" (a zero denominator: no
    relevant document, a zero ideal DCG).  Under ``strict`` a value is published only when it
    is defined and identical under every assignment of grades to the unjudged documents;
    otherwise ``low``/``high`` are the exact extremes over the assignments where it is defined
    (``None`` if it is defined under none) and ``undefined_for_some`` says whether some
    assignment leaves it undefined, so the UI can write "between 0.33 and 0.67" or "not
    defined if nothing else is relevant".
    """

    value: float | None
    low: float | None
    high: float | None
    undefined_for_some: bool

    @classmethod
    def exact(cls, value: float | None) -> Reading:
        """A reading with nothing left open: a number, or "not defined"."""
        return cls(value, value, value, value is None)

    @property
    def status(self) -> str:
        """``published``, ``undetermined`` (depends on missing judgments) or ``not_defined``."""
        if self.value is not None:
            return "published"
        if self.low is None:
            return "not_defined"
        return "undetermined"
