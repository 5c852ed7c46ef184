"""Out-of-scope exposure: what a run showed an identity it may not read (seed 003, "droits").

For every (run, case) whose case is asked by an identity (``domain.rights``), three stages
are checked against that identity, each document once per stage:

``retrieved``
    a document of the run's ranking the identity may not read;
``context``
    a forbidden document among the top ``depth`` retrieved of a case the run *answered*:
    the passages the generator was given (the file records the ranking the system returned
    and its answer, not a separate context list; the top k, by default the diagnosis'
    depth 10, is what a RAG pipeline passes on);
``cited``
    a forbidden document the answer cites.

An exposure is a critical error counted apart: per identity and stage (events and the cases
behind them) and per run; it is never averaged into a quality figure (answer validation,
faithfulness, retrieval measures read none of it).  :func:`three_outcomes` keeps seed 003's
three verdicts apart: *wrong answer*, *missing evidence*, *out-of-scope exposure*.
Pure: no store, no Qt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rag_annotator.domain.rights import Identities, is_open, listed

#: The stages checked, in pipeline order.
STAGES = ("retrieved", "context", "cited")
#: The default depth of the context the generator is taken to have read.
DEFAULT_CONTEXT_DEPTH = 10
#: Review failure categories that say the answer itself is wrong (not its evidence).
WRONG_CATEGORIES = frozenset({"factual_error", "outdated_source", "unwarranted_abstention",
                              "missing_abstention", "forbidden_content"})
#: Review failure categories that say the evidence is missing or does not justify.
EVIDENCE_CATEGORIES = frozenset({"unsupported_claim", "non_justifying_citation"})


@dataclass(frozen=True, slots=True)
class ExposureInput:
    """One (run, case): the identity asking it and what the run retrieved and cited (the
    store lists only the restricted documents: an open one exposes nobody)."""

    run: str
    case: str
    role: str
    answered: bool = False
    retrieved: tuple[tuple[str, int], ...] = ()
    cited: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ExposureInput:
        """From a row of ``store.exposure_rows``."""
        return cls(str(row["run"]), str(row["case"]), str(row["role"]),
                   bool(row["answered"]),
                   tuple((str(d), int(r)) for d, r in row["retrieved"]),
                   tuple(map(str, row["cited"])))


@dataclass(frozen=True, slots=True, order=True)
class Exposed:
    """One exposure: a forbidden document at one stage of one (run, case)."""

    run: str
    case: str
    identity: str
    stage: str
    document: str


def identity_name(identities: Identities, role: str) -> str:
    """The name an exposure is counted under: the declared identity's, else the role."""
    declared = identities.get(role)
    return declared.name if declared is not None else role.strip()


def find_exposures(items: Iterable[ExposureInput], identities: Identities,
                   rights: Mapping[str, Sequence[str]],
                   depth: int = DEFAULT_CONTEXT_DEPTH) -> list[Exposed]:
    """Every exposure of ``items``, in (run, case, stage, rank/citation) order.  A document
    missing from ``rights`` is open (it lists no group)."""
    out: list[Exposed] = []
    names: dict[str, frozenset[str] | None] = {}  # doc -> its groups, None when open
    resolved: dict[str, tuple[frozenset[str] | None, str]] = {}  # role -> groups, name
    for item in items:
        if item.role not in resolved:
            resolved[item.role] = (identities.groups_of(item.role),
                                   identity_name(identities, item.role))
        groups, who = resolved[item.role]
        if groups is None:
            continue

        def forbidden(doc: str, groups: frozenset[str] = groups) -> bool:
            if doc not in names:
                given = rights.get(doc, ())
                names[doc] = None if is_open(given) else listed(given)
            closed = names[doc]
            return closed is not None and not closed & groups

        denied = [(doc, rank) for doc, rank in item.retrieved if forbidden(doc)]
        out += [Exposed(item.run, item.case, who, "retrieved", doc) for doc, _r in denied]
        if item.answered:
            out += [Exposed(item.run, item.case, who, "context", doc)
                    for doc, rank in denied if rank <= depth]
        out += [Exposed(item.run, item.case, who, "cited", doc)
                for doc in dict.fromkeys(item.cited) if forbidden(doc)]
    return out


@dataclass(frozen=True)
class ExposureSummary:
    """Exposures of one or several runs, with what was checked (the denominators)."""

    events: tuple[Exposed, ...]
    checked: Mapping[str, int]          # identity -> (run, case) pairs checked
    groups: Mapping[str, tuple[str, ...]]  # identity -> its groups (as resolved)
    runs: tuple[str, ...] = ()
    depth: int = DEFAULT_CONTEXT_DEPTH

    @property
    def total(self) -> int:
        return len(self.events)

    @cached_property
    def _tally(self) -> dict[tuple[str | None, str | None, str | None], list[Any]]:
        """(identity, stage, run) with None for "any" -> [count, set of cases], built once:
        the renderings ask for dozens of these counts over 100,000 exposures."""
        tally: dict[tuple[str | None, str | None, str | None], list[Any]] = {}
        for e in self.events:
            for who in (e.identity, None):
                for stage in (e.stage, None):
                    for run in (e.run, None):
                        slot = tally.setdefault((who, stage, run), [0, set()])
                        slot[0] += 1
                        slot[1].add(e.case)
        return tally

    def cases(self, identity: str | None = None, stage: str | None = None,
              run: str | None = None) -> tuple[str, ...]:
        """Distinct cases with an exposure (of ``identity``, at ``stage``, in ``run``)."""
        slot = self._tally.get((identity, stage, run))
        return tuple(sorted(slot[1])) if slot else ()

    def count(self, identity: str | None = None, stage: str | None = None,
              run: str | None = None) -> int:
        """Exposures (of ``identity``, at ``stage``, in ``run``)."""
        slot = self._tally.get((identity, stage, run))
        return int(slot[0]) if slot else 0

    def per_identity(self) -> dict[str, dict[str, Any]]:
        """Identity -> groups, pairs checked, per stage the count and the cases, and the
        distinct cases exposed at any stage."""
        out: dict[str, dict[str, Any]] = {}
        for who in sorted(set(self.checked) | {e.identity for e in self.events}):
            out[who] = {
                "groups": list(self.groups.get(who, ())),
                "checked": self.checked.get(who, 0),
                **{stage: {"count": self.count(who, stage), "cases": list(self.cases(who, stage))}
                   for stage in STAGES},
                "exposures": self.count(who), "cases": list(self.cases(who)),
            }
        return out

    def per_run(self) -> dict[str, dict[str, Any]]:
        """Run -> per stage the count, the total and the distinct cases exposed."""
        return {run: {**{stage: self.count(stage=stage, run=run) for stage in STAGES},
                      "total": self.count(run=run), "cases": list(self.cases(run=run))}
                for run in self.runs}

    def to_json(self) -> dict[str, Any]:
        """The ``exposure`` block of ``metrics --json``."""
        return {"depth": self.depth, "critical": True, "total": self.total,
                "per_identity": self.per_identity(), "per_run": self.per_run(),
                "events": [{"run": e.run, "case": e.case, "identity": e.identity,
                            "stage": e.stage, "document": e.document} for e in self.events]}


def summarize(items: Sequence[ExposureInput], identities: Identities,
              rights: Mapping[str, Sequence[str]], depth: int = DEFAULT_CONTEXT_DEPTH,
              runs: Iterable[str] = ()) -> ExposureSummary:
    """Pure: find and count the exposures of ``items`` (``runs``: the runs to list even
    without an exposure, in order; the items' runs are added)."""
    checked: dict[str, int] = {}
    groups: dict[str, tuple[str, ...]] = {}
    roles: dict[str, int] = {}
    for item in items:
        roles[item.role] = roles.get(item.role, 0) + 1
    for role, n in roles.items():
        resolved = identities.groups_of(role)
        if resolved is None:
            continue
        who = identity_name(identities, role)
        checked[who] = checked.get(who, 0) + n
        declared = identities.get(role)
        groups[who] = declared.groups if declared is not None else tuple(sorted(resolved))
    for identity in identities.items:
        groups.setdefault(identity.name, identity.groups)
        checked.setdefault(identity.name, 0)
    names = tuple(dict.fromkeys([*runs, *(i.run for i in items)]))
    return ExposureSummary(tuple(find_exposures(items, identities, rights, depth)), checked,
                           groups, names, depth)


@dataclass(frozen=True)
class Outcomes:
    """Seed 003's three verdicts of one run, kept apart: the cases of each."""

    wrong_answer: tuple[str, ...] = ()
    missing_evidence: tuple[str, ...] = ()
    exposure: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {name: {"count": len(cases), "cases": list(cases)}
                for name, cases in (("wrong_answer", self.wrong_answer),
                                    ("missing_evidence", self.missing_evidence),
                                    ("exposure", self.exposure))}


def three_outcomes(answers: Iterable[Any], missing_sources: Iterable[str],
                   exposed: Iterable[str]) -> Outcomes:
    """The three outcomes of a run from its answer inputs (``metrics.answers.AnswerInput``),
    the cases whose expected source is missing from the top k (the diagnosis) and the cases
    with an exposure.  *Wrong answer*: a contradicted claim, or a review not validated for a
    reason about the answer itself (or for no stated reason).  *Missing evidence*: an
    expected source not retrieved, a claim not supported, or a review citing an unsupported
    claim or a non-justifying citation.  The exposure is neither: a right answer built on a
    forbidden document is exposed, not wrong."""
    wrong, missing = [], set(missing_sources)
    for item in answers:
        categories = set(item.failure_categories)
        if item.contradicted or (item.validated is False and (
                categories & WRONG_CATEGORIES or not categories)):
            wrong.append(item.case_key)
        if item.not_supported or categories & EVIDENCE_CATEGORIES:
            missing.add(item.case_key)
    return Outcomes(tuple(sorted(set(wrong))), tuple(sorted(missing)),
                    tuple(sorted(set(exposed))))

