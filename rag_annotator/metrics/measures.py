"""Retrieval measure names, parsed once into values the rest of the package can trust.

The names are ir_measures' (DESIGN section 5) because that is what the experts' scoring
scripts already use: ``P@5``, ``R@10``, ``RR``, ``RR@10``, ``nDCG@10``, ``nDCG``, ``AP``,
``AP@100``, ``Judged@10``, ``Success@10``.  Each maps to one trec_eval measure (``P_5``,
``recall_10``, ``recip_rank`` on the top k, ``ndcg_cut_10``, ``ndcg``, ``map``, ``map_cut_100``,
``success_10``); ``Judged@k`` is ir_measures' own.  Parsing is strict: a misspelt name is an
error that lists the valid forms, never a silently empty column.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


class MeasureKind(Enum):
    """The family of a measure; the value is its ir_measures spelling."""

    PRECISION = "P"
    RECALL = "R"
    RECIPROCAL_RANK = "RR"
    NDCG = "nDCG"
    AVERAGE_PRECISION = "AP"
    JUDGED = "Judged"
    SUCCESS = "Success"


#: Kinds that only make sense at a depth: a precision or a judged rate "of what?" needs a k.
_CUTOFF_REQUIRED = frozenset(
    {MeasureKind.PRECISION, MeasureKind.RECALL, MeasureKind.JUDGED, MeasureKind.SUCCESS}
)

#: The forms accepted, in the order error messages list them.
VALID_FORMS = ("P@k", "R@k", "RR", "RR@k", "nDCG", "nDCG@k", "AP", "AP@k", "Judged@k",
               "Success@k")

_PATTERN = re.compile(r"(P|R|RR|nDCG|AP|Judged|Success)(?:@([1-9][0-9]*))?")


@dataclass(frozen=True, slots=True)
class Measure:
    """One measure at one depth; ``cutoff`` None means the whole ranking."""

    kind: MeasureKind
    cutoff: int | None = None

    def __post_init__(self) -> None:
        if self.cutoff is not None and self.cutoff < 1:
            raise ValueError(f"{self.kind.value}@{self.cutoff}: the depth k must be at least 1")
        if self.cutoff is None and self.kind in _CUTOFF_REQUIRED:
            raise ValueError(f"{self.kind.value} needs a depth, e.g. {self.kind.value}@10")

    @property
    def name(self) -> str:
        """The canonical ir_measures spelling, used as the key of every result."""
        if self.cutoff is None:
            return self.kind.value
        return f"{self.kind.value}@{self.cutoff}"

    def __str__(self) -> str:
        return self.name


def parse_measure(text: str | Measure) -> Measure:
    """Read one measure name such as ``"nDCG@10"``; a :class:`Measure` passes through.

    Raises ``ValueError`` naming the valid forms, so a CLI can show the message as it is.
    """
    if isinstance(text, Measure):
        return text
    match = _PATTERN.fullmatch(text.strip())
    if match is None:
        raise ValueError(
            f"unknown measure {text!r}; valid forms are {', '.join(VALID_FORMS)} "
            "(k a positive whole number, names as spelt by ir_measures)"
        )
    kind = MeasureKind(match.group(1))
    cutoff = int(match.group(2)) if match.group(2) is not None else None
    if cutoff is None and kind in _CUTOFF_REQUIRED:
        raise ValueError(
            f"measure {text!r} needs a depth, e.g. {kind.value}@10; "
            f"valid forms are {', '.join(VALID_FORMS)}"
        )
    return Measure(kind, cutoff)


def parse_measures(measures: str | Iterable[str | Measure]) -> tuple[Measure, ...]:
    """Read a list of measures, or one string separated by commas and/or spaces.

    Duplicates are dropped (first one kept) so a report never has two columns with one name.
    """
    items: Iterable[str | Measure]
    items = [part for part in re.split(r"[,\s]+", measures) if part] if isinstance(
        measures, str) else measures
    out: dict[str, Measure] = {}
    for item in items:
        measure = parse_measure(item)
        out.setdefault(measure.name, measure)
    if not out:
        raise ValueError(f"no measure given; valid forms are {', '.join(VALID_FORMS)}")
    return tuple(out.values())
