"""Answer metrics of one run: seed 003's decomposition, faithfulness, abstention.

Seed 003 counts three numbers separately, per family and overall:

* **tested**: the cases where an answer was expected (``expected_behaviour = answer``) and
  whose review is complete: an outcome is recorded and, if the run answered, whether the
  answer is validated.  A case still unreviewed is *not* counted as "no answer" (that would
  make the run look worse for the assessor's backlog); it is counted apart, ``unreviewed``,
  and a case for which the run has neither an answer nor a review (a retrieval-only run) as
  ``not_generated``;
* **produced**: of those, the run answered (outcome ``answered``);
* **validated**: of those, the answer is validated;

and derives quality = validated / produced, coverage = produced / tested and success =
validated / tested; a zero denominator gives ``None``, "not computable", never 0.  So
tested = validated + not validated + no answer, as in the seed's 100 = 72 + 8 + 20.

The cases that expect an abstention or an escalation have their own result (seed 003: "les
abstentions attendues ... demandent des résultats distincts"): an expected abstention is
correct when the run abstained or escalated, an expected escalation only when it escalated.

Claims: the faithfulness of an answer is supported / verified claims (``None`` with no verified
claim); the run's mean is over the answers where it is defined, reviewed or not (verdicts are
recorded claim by claim, before the answer as a whole is reviewed).  Contradicted and unsupported
shares are over every verified claim of the run.  Must-contain recall of an answered case is
found points / points, computable once every point has been checked (yes or no).

Everything is pure over :class:`AnswerInput` values (``rag_annotator.reports.inputs`` reads
them from the store).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def ratio(numerator: int | float, denominator: int | float) -> float | None:
    """``numerator / denominator``, or None ("not computable") when the denominator is 0."""
    return numerator / denominator if denominator else None


@dataclass(frozen=True, slots=True)
class AnswerInput:
    """One case of one run, as the answer metrics see it (plain values from the store)."""

    case_key: str
    family: str
    expected_behaviour: str = "answer"
    has_answer: bool = False
    outcome: str | None = None
    validated: bool | None = None
    claims: int = 0
    verified: int = 0
    supported: int = 0
    not_supported: int = 0
    contradicted: int = 0
    must_contain: int = 0
    must_contain_found: tuple[bool | None, ...] = ()
    failure_categories: tuple[str, ...] = ()
    latency_ms: int | None = None
    cost: float | None = None
    tokens: int | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> AnswerInput:
        """Build from one row of ``store.answer_inputs``."""
        validated = row.get("validated")
        return cls(
            case_key=str(row["case_key"]), family=str(row["family"]),
            expected_behaviour=str(row.get("expected_behaviour") or "answer"),
            has_answer=row.get("answer_id") is not None, outcome=row.get("outcome"),
            validated=None if validated is None else bool(validated),
            claims=int(row.get("claims") or 0), verified=int(row.get("verified") or 0),
            supported=int(row.get("supported") or 0),
            not_supported=int(row.get("not_supported") or 0),
            contradicted=int(row.get("contradicted") or 0),
            must_contain=len(row.get("must_contain") or ()),
            must_contain_found=tuple(x if x is None else bool(x)
                                     for x in row.get("must_contain_found") or ()),
            failure_categories=tuple(str(x) for x in row.get("failure_categories") or ()),
            latency_ms=row.get("latency_ms"), cost=row.get("cost"), tokens=row.get("tokens"),
        )

    @property
    def review_complete(self) -> bool:
        """An outcome is recorded and, for an answer, whether it is validated."""
        if self.outcome is None:
            return False
        return self.outcome != "answered" or self.validated is not None

    @property
    def faithfulness(self) -> float | None:
        """Supported / verified claims; None with no verified claim."""
        return ratio(self.supported, self.verified)

    @property
    def must_contain_recall(self) -> float | None:
        """Found points / points, once every point is checked; None before, or with none."""
        if not self.must_contain or len(self.must_contain_found) != self.must_contain:
            return None
        if any(x is None for x in self.must_contain_found):
            return None
        return sum(1 for x in self.must_contain_found if x) / self.must_contain

    @property
    def abstention_correct(self) -> bool | None:
        """For a case expecting abstention/escalation with an outcome: was it right?"""
        if self.expected_behaviour == "answer" or self.outcome is None:
            return None
        if self.expected_behaviour == "abstain":
            return self.outcome in ("abstained", "escalated")
        return self.outcome == "escalated"


@dataclass(frozen=True)
class Denominators:
    """Seed 003's three counts for a group of cases, with the cases behind each."""

    tested_cases: tuple[str, ...] = ()
    produced_cases: tuple[str, ...] = ()
    validated_cases: tuple[str, ...] = ()
    unreviewed_cases: tuple[str, ...] = ()
    abstention_cases: tuple[str, ...] = ()
    abstention_correct_cases: tuple[str, ...] = ()
    abstention_unreviewed_cases: tuple[str, ...] = ()
    faithfulness: tuple[float, ...] = ()
    not_generated_cases: tuple[str, ...] = ()

    @property
    def tested(self) -> int:
        return len(self.tested_cases)

    @property
    def produced(self) -> int:
        return len(self.produced_cases)

    @property
    def validated(self) -> int:
        return len(self.validated_cases)

    @property
    def quality(self) -> float | None:
        """Validated / produced."""
        return ratio(self.validated, self.produced)

    @property
    def coverage(self) -> float | None:
        """Produced / tested."""
        return ratio(self.produced, self.tested)

    @property
    def success(self) -> float | None:
        """Validated / tested."""
        return ratio(self.validated, self.tested)

    @property
    def abstention_rate(self) -> float | None:
        """Correct abstentions / reviewed cases expecting one."""
        return ratio(len(self.abstention_correct_cases), len(self.abstention_cases))

    @property
    def faithfulness_mean(self) -> float | None:
        return ratio(sum(self.faithfulness), len(self.faithfulness))

    def cases(self, figure: str) -> tuple[str, ...]:
        """The cases behind ``figure``: tested, produced, validated, not_validated,
        no_answer, unreviewed, abstention, abstention_correct, abstention_wrong,
        abstention_unreviewed (quality → produced, coverage/success → tested)."""
        produced = set(self.produced_cases)
        validated = set(self.validated_cases)
        correct = set(self.abstention_correct_cases)
        table: dict[str, tuple[str, ...]] = {
            "tested": self.tested_cases, "coverage": self.tested_cases,
            "success": self.tested_cases, "produced": self.produced_cases,
            "quality": self.produced_cases, "validated": self.validated_cases,
            "not_validated": tuple(c for c in self.produced_cases if c not in validated),
            "no_answer": tuple(c for c in self.tested_cases if c not in produced),
            "unreviewed": self.unreviewed_cases, "abstention": self.abstention_cases,
            "abstention_rate": self.abstention_cases,
            "abstention_correct": self.abstention_correct_cases,
            "abstention_wrong": tuple(c for c in self.abstention_cases if c not in correct),
            "abstention_unreviewed": self.abstention_unreviewed_cases,
            "not_generated": self.not_generated_cases,
        }
        if figure not in table:
            raise ValueError(f"unknown figure {figure!r}; valid: {', '.join(table)}")
        return table[figure]

    def to_json(self) -> dict[str, object]:
        return {
            "tested": self.tested, "produced": self.produced, "validated": self.validated,
            "quality": self.quality, "coverage": self.coverage, "success": self.success,
            "not_validated": self.produced - self.validated,
            "no_answer": self.tested - self.produced,
            "unreviewed": len(self.unreviewed_cases),
            "not_generated": len(self.not_generated_cases),
            "faithfulness_mean": self.faithfulness_mean,
            "abstention_expected": len(self.abstention_cases)
            + len(self.abstention_unreviewed_cases),
            "abstention_reviewed": len(self.abstention_cases),
            "abstention_correct": len(self.abstention_correct_cases),
            "abstention_rate": self.abstention_rate,
        }


def _denominators(items: Iterable[AnswerInput]) -> Denominators:
    tested: list[str] = []
    produced: list[str] = []
    validated: list[str] = []
    unreviewed: list[str] = []
    abstention: list[str] = []
    correct: list[str] = []
    abstention_unreviewed: list[str] = []
    faithfulness: list[float] = []
    not_generated: list[str] = []
    for item in items:
        if item.has_answer and item.faithfulness is not None:
            faithfulness.append(item.faithfulness)
        if item.expected_behaviour != "answer":
            if item.outcome is None:
                abstention_unreviewed.append(item.case_key)
            else:
                abstention.append(item.case_key)
                if item.abstention_correct:
                    correct.append(item.case_key)
            continue
        if not item.review_complete:
            if item.has_answer or item.outcome is not None:
                unreviewed.append(item.case_key)
            else:
                not_generated.append(item.case_key)
            continue
        tested.append(item.case_key)
        if item.outcome == "answered":
            produced.append(item.case_key)
            if item.validated:
                validated.append(item.case_key)
    return Denominators(tuple(tested), tuple(produced), tuple(validated), tuple(unreviewed),
                        tuple(abstention), tuple(correct), tuple(abstention_unreviewed),
                        tuple(faithfulness), tuple(not_generated))


@dataclass(frozen=True)
class AnswerSummary:
    """The answer metrics of one run: per family, overall, per answer, claim shares."""

    run: str
    items: tuple[AnswerInput, ...]
    per_family: Mapping[str, Denominators]
    overall: Denominators
    verified_claims: int = 0
    unverified_claims: int = 0
    supported_claims: int = 0
    not_supported_claims: int = 0
    contradicted_claims: int = 0
    must_contain_points: int = 0
    must_contain_found: int = 0
    must_contain_answers: int = 0
    extra: Mapping[str, object] = field(default_factory=dict)

    @property
    def faithfulness_mean(self) -> float | None:
        """Mean faithfulness over the answers where it is defined."""
        return self.overall.faithfulness_mean

    @property
    def contradicted_share(self) -> float | None:
        return ratio(self.contradicted_claims, self.verified_claims)

    @property
    def unsupported_share(self) -> float | None:
        return ratio(self.not_supported_claims, self.verified_claims)

    @property
    def must_contain_recall(self) -> float | None:
        """Found / points over the answers whose every point is checked."""
        return ratio(self.must_contain_found, self.must_contain_points)

    def group(self, family: str | None) -> Denominators:
        """One family's counts, or the overall ones (``None``); empty for an unknown family."""
        if family is None:
            return self.overall
        return self.per_family.get(family, Denominators())

    def to_json(self) -> dict[str, object]:
        """The ``answers`` block of ``metrics --json``."""
        return {
            "run": self.run,
            "per_family": {f: d.to_json() for f, d in self.per_family.items()},
            "overall": self.overall.to_json(),
            "faithfulness_mean": self.faithfulness_mean,
            "faithfulness_answers": len(self.overall.faithfulness),
            "claims": {"verified": self.verified_claims, "unverified": self.unverified_claims,
                       "supported": self.supported_claims,
                       "not_supported": self.not_supported_claims,
                       "contradicted": self.contradicted_claims},
            "contradicted_share": self.contradicted_share,
            "unsupported_share": self.unsupported_share,
            "must_contain_recall": self.must_contain_recall,
            "must_contain_answers": self.must_contain_answers,
            "abstention": {
                "expected": self.overall.to_json()["abstention_expected"],
                "reviewed": len(self.overall.abstention_cases),
                "correct": len(self.overall.abstention_correct_cases),
                "rate": self.overall.abstention_rate,
            },
            "per_answer": [
                {"case": i.case_key, "family": i.family,
                 "expected_behaviour": i.expected_behaviour, "answered": i.has_answer,
                 "outcome": i.outcome, "validated": i.validated, "claims": i.claims,
                 "verified": i.verified, "supported": i.supported,
                 "not_supported": i.not_supported, "contradicted": i.contradicted,
                 "faithfulness": i.faithfulness, "must_contain_recall": i.must_contain_recall,
                 "failure_categories": list(i.failure_categories)}
                for i in self.items
            ],
        }


def summarize_inputs(run: str, items: Sequence[AnswerInput]) -> AnswerSummary:
    """Pure: the summary of ``items`` (one per case of the run)."""
    families: dict[str, list[AnswerInput]] = {}
    for item in items:
        families.setdefault(item.family, []).append(item)
    per_family = {f: _denominators(group) for f, group in sorted(families.items())}
    points = found = answers = 0
    for item in items:
        recall = item.must_contain_recall
        if item.has_answer and item.outcome in (None, "answered") and recall is not None:
            answers += 1
            points += item.must_contain
            found += sum(1 for x in item.must_contain_found if x)
    return AnswerSummary(
        run=run, items=tuple(items), per_family=per_family, overall=_denominators(items),
        verified_claims=sum(i.verified for i in items),
        unverified_claims=sum(i.claims - i.verified for i in items),
        supported_claims=sum(i.supported for i in items),
        not_supported_claims=sum(i.not_supported for i in items),
        contradicted_claims=sum(i.contradicted for i in items),
        must_contain_points=points, must_contain_found=found, must_contain_answers=answers,
    )

