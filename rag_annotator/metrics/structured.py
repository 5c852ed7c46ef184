"""Structured-answer metrics of one run: the contract, the retrieval and the field (seed 003).

For every answer of the run whose case has an output contract (retired cases left out), per
family and overall:

* **parse rate** = answers that parse as strict JSON / answers checked;
* **schema-valid rate** = answers that parse *and* satisfy the schema / answers checked;
* per decisive field (by JSON Pointer, across the cases that declare it): **accuracy** =
  fields right once reviewed (:func:`~rag_annotator.domain.structured.passed`) / checks
  executed, with the count of checks **not executed** beside it — they are out of the
  denominator and never counted as passed; an accuracy over no executed check is None
  ("not computable"), never 0;
* the **diagnosis** of each answer, seed 003's three steps, the first that applies:
  *contract broken* (did not parse or broke the schema), *document missing* (a failing field
  whose justifying document was not retrieved), *right document, wrong field* (a failing
  field whose document was retrieved), else *all fields right*; an answer never checked is
  *not checked*.

Pure over :class:`StructuredItem` values (``reports.inputs`` reads them from the store).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.domain.structured import OUTCOMES, passed
from rag_annotator.metrics.answers import ratio

DIAGNOSES = ("contract_broken", "document_missing", "right_document_wrong_field",
             "all_fields_right", "not_checked")


@dataclass(frozen=True)
class StructuredItem:
    """One structured answer: its case, whether it parsed and was schema-valid (None: never
    checked) and its decisive fields as (pointer, outcome, review)."""

    case_key: str
    family: str
    parsed: bool | None
    schema_valid: bool | None
    fields: tuple[tuple[str, str | None, str | None], ...] = ()

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> StructuredItem:
        """From one row of ``store.structured_inputs``."""
        return cls(str(row["case_key"]), str(row["family"]),
                   None if row["parsed"] is None else bool(row["parsed"]),
                   None if row["schema_valid"] is None else bool(row["schema_valid"]),
                   tuple((str(p), o, r) for p, o, r in row["fields"]))

    @property
    def diagnosis(self) -> str:
        """Seed 003's step to fix for this answer (see the module docstring)."""
        if self.parsed is None:
            return "not_checked"
        if not self.parsed or not self.schema_valid:
            return "contract_broken"
        failing = [o for _p, o, r in self.fields if o is not None and passed(o, r) is False]
        if "source_not_provided" in failing:
            return "document_missing"
        return "right_document_wrong_field" if failing else "all_fields_right"


@dataclass(frozen=True)
class FieldFigure:
    """One decisive field's checks: right, executed, not executed, outcomes, overrules."""

    passed: int = 0
    executed: int = 0
    not_executed: int = 0
    overruled: int = 0
    outcomes: Mapping[str, int] = field(default_factory=dict)

    @property
    def accuracy(self) -> float | None:
        """Right / executed (None when no check ran)."""
        return ratio(self.passed, self.executed)

    def to_json(self) -> dict[str, Any]:
        return {"accuracy": self.accuracy, "passed": self.passed, "executed": self.executed,
                "not_executed": self.not_executed,
                "checks": self.executed + self.not_executed, "overruled": self.overruled,
                "outcomes": {o: self.outcomes.get(o, 0) for o in OUTCOMES}}


@dataclass(frozen=True)
class StructuredGroup:
    """The figures of a set of structured answers (a family, or all)."""

    items: tuple[StructuredItem, ...] = ()

    @property
    def answers(self) -> int:
        return len(self.items)

    @property
    def checked(self) -> int:
        return sum(1 for i in self.items if i.parsed is not None)

    @property
    def parsed(self) -> int:
        return sum(1 for i in self.items if i.parsed)

    @property
    def schema_valid(self) -> int:
        return sum(1 for i in self.items if i.parsed and i.schema_valid)

    @property
    def parse_rate(self) -> float | None:
        return ratio(self.parsed, self.checked)

    @property
    def schema_valid_rate(self) -> float | None:
        return ratio(self.schema_valid, self.checked)

    def fields(self) -> dict[str, FieldFigure]:
        """Per decisive field pointer, in the order first met."""
        tallies: dict[str, list[int]] = {}
        outcomes: dict[str, Counter[str]] = {}
        for item in self.items:
            for pointer, outcome, review in item.fields:
                if outcome is None:
                    continue
                tally = tallies.setdefault(pointer, [0, 0, 0, 0])
                outcomes.setdefault(pointer, Counter())[outcome] += 1
                verdict = passed(outcome, review)
                if verdict is None:
                    tally[2] += 1
                    continue
                tally[0] += verdict
                tally[1] += 1
                tally[3] += review == "overruled"
        return {p: FieldFigure(t[0], t[1], t[2], t[3], dict(outcomes[p]))
                for p, t in tallies.items()}

    def cases(self, diagnosis: str) -> list[str]:
        """The case keys of the answers with this diagnosis."""
        return [i.case_key for i in self.items if i.diagnosis == diagnosis]

    def diagnoses(self) -> dict[str, int]:
        counts = Counter(i.diagnosis for i in self.items)
        return {d: counts.get(d, 0) for d in DIAGNOSES}

    def to_json(self) -> dict[str, Any]:
        return {"answers": self.answers, "checked": self.checked, "parsed": self.parsed,
                "parse_rate": self.parse_rate, "schema_valid": self.schema_valid,
                "schema_valid_rate": self.schema_valid_rate,
                "fields": {p: f.to_json() for p, f in self.fields().items()},
                "diagnosis": self.diagnoses()}


@dataclass(frozen=True)
class StructuredSummary:
    """One run's structured-answer figures, overall and per family."""

    run: str
    overall: StructuredGroup = StructuredGroup()
    per_family: Mapping[str, StructuredGroup] = field(default_factory=dict)

    @property
    def has_data(self) -> bool:
        return bool(self.overall.items)

    def to_json(self) -> dict[str, Any]:
        """The ``structured`` block of ``metrics --json``."""
        return {"answers": self.overall.answers, "overall": self.overall.to_json(),
                "per_family": {f: g.to_json() for f, g in self.per_family.items()},
                "per_case": {i.case_key: {"family": i.family, "parsed": i.parsed,
                                          "schema_valid": i.schema_valid,
                                          "diagnosis": i.diagnosis,
                                          "fields": {p: o for p, o, _r in i.fields}}
                             for i in self.overall.items}}


def summarize_structured(run: str, items: Iterable[StructuredItem]) -> StructuredSummary:
    """The figures of ``items`` (one run's structured answers)."""
    every = tuple(items)
    families: dict[str, list[StructuredItem]] = {}
    for item in every:
        families.setdefault(item.family, []).append(item)
    return StructuredSummary(run, StructuredGroup(every), {
        f: StructuredGroup(tuple(g)) for f, g in sorted(families.items())})


def summarize_rows(run: str, rows: Sequence[Mapping[str, Any]]) -> StructuredSummary:
    """From ``store.structured_inputs`` rows."""
    return summarize_structured(run, (StructuredItem.from_row(r) for r in rows))
