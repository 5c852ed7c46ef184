"""Where a run failed on each case, counted per family, with the first action each suggests.

Seeds 000 and 002 read numbers this way: fix the stage that failed first, and never mix a
retrieval failure with a hallucination.  For one case of one run, at depth k (default 10):

``access``
    a document among the top k retrieved or cited by the answer whose rights exclude the
    case's identity (``domain.rights``: the identity its role names, or one group named like
    the role; a document with no rights listed, or listing ``*``, ``all``, ``tous``,
    ``everyone`` or ``public``, is readable by every identity; a case without a role is not
    checked).  Detail ``retrieved`` or ``cited``.
``retrieval``
    ``missing``: an expected source of the case is not in the top k; ``outdated``: a document
    that is not current (outdated or withdrawn) is in the top k and either a newer version of
    it is an expected source (it was retrieved *instead*) or the answer cites it.
``abstention``
    ``answered``: the case expects an abstention or escalation but the run answered;
    ``refused``: the case expects an answer but the run abstained or escalated;
    ``not_escalated``: the case expects an escalation and the run only abstained.  Read
    from the answer review's outcome, so only reviewed cases can fail here.
``generation``
    the answer has claims verified not supported or contradicted while retrieval did not fail
    (every expected source in the top k): the evidence was there.  When retrieval failed too,
    the case counts under retrieval only: the unsupported claims may come from the missing
    evidence, and the first thing to fix is the retrieval.

A case can fail at several stages (access and generation, say); each is counted once per kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.domain import rights as _rights
from rag_annotator.domain.rights import OPEN_RIGHTS as OPEN_RIGHTS  # re-exported

#: The default depth of the "is the expected source in the top k" check.
DEFAULT_DEPTH = 10


#: Failure kinds in pipeline order (the order of every listing).
KINDS = ("access", "retrieval", "abstention", "generation")

#: The first action each (kind, detail) suggests (seed 003's "première action").
ACTIONS: Mapping[tuple[str, str], str] = {
    ("access", "retrieved"): "Filter retrieval by the user's rights before generation.",
    ("access", "cited"): "Filter retrieval by the user's rights before generation.",
    ("retrieval", "missing"): "Fix the corpus, chunking or query before the model.",
    ("retrieval", "outdated"): "Withdraw or mark outdated versions so the current one is "
                               "retrieved.",
    ("abstention", "answered"): "Adjust the confidence thresholds: it must abstain here.",
    ("abstention", "refused"): "Adjust the confidence thresholds: it refused an answerable "
                               "question.",
    ("abstention", "not_escalated"): "Define the escalation path for sensitive cases.",
    ("generation", "unsupported"): "Block or rephrase answers that are not supported.",
}


@dataclass(frozen=True, slots=True)
class RankedDocument:
    """One document of the top k: key, rank, status, rights, newer version expected."""

    key: str
    rank: int
    status: str = "current"
    rights: tuple[str, ...] = ()
    newer_is_expected: bool = False


@dataclass(frozen=True, slots=True)
class DiagnosisInput:
    """One case of one run, as the diagnosis sees it."""

    case_key: str
    family: str
    role: str = ""
    expected_behaviour: str = "answer"
    outcome: str | None = None
    has_answer: bool = False
    not_supported: int = 0
    contradicted: int = 0
    top: tuple[RankedDocument, ...] = ()
    expected: tuple[str, ...] = ()
    cited: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    groups: tuple[str, ...] | None = None  # the identity's groups (None: the role alone)


@dataclass(frozen=True, slots=True)
class Failure:
    """One failure of one case: kind, detail and the documents that show it."""

    kind: str
    detail: str
    documents: tuple[str, ...] = ()

    @property
    def action(self) -> str:
        return ACTIONS[(self.kind, self.detail)]


def may_read(rights: Iterable[str], role: str) -> bool:
    """Whether ``role``, an identity of one group of that name, may read a document with
    these ``rights``."""
    return _rights.may_read(rights, (role,))


def diagnose_case(item: DiagnosisInput) -> list[Failure]:
    """Every failure of one case, in pipeline order."""
    failures: list[Failure] = []
    if item.role:
        readers = item.groups if item.groups is not None else (item.role,)
        denied = [d.key for d in item.top if not _rights.may_read(d.rights, readers)]
        if denied:
            failures.append(Failure("access", "retrieved", tuple(denied)))
        cited = [key for key, _status, rights in item.cited
                 if not _rights.may_read(rights, readers)]
        if cited:
            failures.append(Failure("access", "cited", tuple(dict.fromkeys(cited))))
    top_keys = {d.key for d in item.top}
    missing = [key for key in item.expected if key not in top_keys]
    if missing:
        failures.append(Failure("retrieval", "missing", tuple(missing)))
    cited_keys = {key for key, _status, _rights in item.cited}
    outdated = [d.key for d in item.top if d.status != "current"
                and (d.newer_is_expected or d.key in cited_keys)]
    if outdated:
        failures.append(Failure("retrieval", "outdated", tuple(outdated)))
    expected = item.expected_behaviour
    if item.outcome is not None:
        if expected != "answer" and item.outcome == "answered":
            failures.append(Failure("abstention", "answered"))
        elif expected == "answer" and item.outcome in ("abstained", "escalated"):
            failures.append(Failure("abstention", "refused"))
        elif expected == "escalate" and item.outcome == "abstained":
            failures.append(Failure("abstention", "not_escalated"))
    answered = item.outcome == "answered" or (item.outcome is None and item.has_answer)
    if answered and not missing and item.not_supported + item.contradicted > 0:
        failures.append(Failure("generation", "unsupported"))
    return failures


@dataclass(frozen=True)
class Diagnosis:
    """Every case's failures, and the counts per family and kind with the cases behind."""

    run: str
    depth: int
    per_case: Mapping[str, tuple[Failure, ...]]
    families: Mapping[str, str]
    checked: tuple[str, ...] = field(default=())

    def cases(self, kind: str | None = None, family: str | None = None) -> tuple[str, ...]:
        """Cases failing at ``kind`` (any kind if None), in ``family`` (any if None)."""
        return tuple(case for case, failures in self.per_case.items()
                     if (family is None or self.families.get(case) == family)
                     and any(kind is None or f.kind == kind for f in failures))

    def counts(self) -> dict[str, dict[str, int]]:
        """Family → kind → failing cases (every family of a checked case is listed)."""
        out: dict[str, dict[str, int]] = {}
        for case in self.checked:
            out.setdefault(self.families.get(case, ""), dict.fromkeys(KINDS, 0))
        for case, failures in self.per_case.items():
            row = out.setdefault(self.families.get(case, ""), dict.fromkeys(KINDS, 0))
            for kind in {f.kind for f in failures}:
                row[kind] += 1
        return dict(sorted(out.items()))

    def first_action(self, kind: str, family: str | None = None) -> str | None:
        """The action of the most frequent detail of ``kind`` (in ``family``), or None."""
        tally: dict[str, int] = {}
        for case in self.cases(kind, family):
            for failure in self.per_case[case]:
                if failure.kind == kind:
                    tally[failure.detail] = tally.get(failure.detail, 0) + 1
        if not tally:
            return None
        detail = max(tally, key=lambda d: (tally[d], -list(ACTIONS).index((kind, d))))
        return ACTIONS[(kind, detail)]

    def to_json(self) -> dict[str, object]:
        """The ``diagnosis`` block of ``metrics --json``."""
        counts = self.counts()
        return {
            "run": self.run, "depth": self.depth, "cases": len(self.checked),
            "failing": len(self.per_case),
            "per_family": {
                family: {kind: {"cases": n, "action": self.first_action(kind, family)}
                         for kind, n in row.items()}
                for family, row in counts.items()},
            "overall": {kind: {"cases": len(self.cases(kind)),
                               "action": self.first_action(kind)} for kind in KINDS},
            "per_case": {case: [{"kind": f.kind, "detail": f.detail,
                                 "documents": list(f.documents), "action": f.action}
                                for f in failures]
                         for case, failures in self.per_case.items()},
        }


def diagnose(run: str, items: Sequence[DiagnosisInput], depth: int = DEFAULT_DEPTH
             ) -> Diagnosis:
    """Pure: diagnose every case of ``items`` (the top k of each must already be cut)."""
    per_case = {}
    for item in items:
        failures = diagnose_case(item)
        if failures:
            per_case[item.case_key] = tuple(failures)
    return Diagnosis(run, depth, per_case, {i.case_key: i.family for i in items},
                     tuple(i.case_key for i in items))



def diagnosis_input(row: Mapping[str, Any], documents: Mapping[str, Any],
                    identities: _rights.Identities | None = None) -> DiagnosisInput:
    """One case's input from a row of ``store.answer_inputs`` and its entry of
    ``store.diagnosis_documents`` (``top``, ``expected``, ``cited``); ``identities``: the
    gold set's declared test identities (None: every role is one group of its name)."""
    role = row.get("role") or ""
    groups = identities.groups_of(role) if identities is not None else None
    return DiagnosisInput(
        case_key=row["case_key"], family=row["family"], role=role,
        groups=None if groups is None else tuple(sorted(groups)),
        expected_behaviour=row.get("expected_behaviour") or "answer",
        outcome=row.get("outcome"), has_answer=row.get("answer_id") is not None,
        not_supported=int(row.get("not_supported") or 0),
        contradicted=int(row.get("contradicted") or 0),
        top=tuple(RankedDocument(k, r, s, tuple(rights), bool(n))
                  for k, r, s, rights, n in documents["top"]),
        expected=tuple(k for k, _s in documents["expected"]),
        cited=tuple((k, s, tuple(rights)) for k, s, rights in documents["cited"]),
    )
