"""A run's rights figures: its out-of-scope exposures and seed 003's three outcomes.

Read through the store here, computed by the pure ``metrics.exposure``; held by
:class:`~rag_annotator.reports.run_figures.RunFigures` so ``metrics --json`` (``exposure``),
the dashboard's exposure panel and the workbook's rights sheet render one value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.domain.rights import Identities
from rag_annotator.metrics.answers import AnswerInput
from rag_annotator.metrics.diagnosis import Diagnosis
from rag_annotator.metrics.exposure import (
    DEFAULT_CONTEXT_DEPTH,
    ExposureInput,
    ExposureSummary,
    Outcomes,
    summarize,
    three_outcomes,
)
from rag_annotator.storage.store import GoldSetStore


@dataclass(frozen=True)
class RightsFigures:
    """One run's exposures (per identity and stage) and its three outcomes."""

    exposure: ExposureSummary = field(
        default_factory=lambda: ExposureSummary((), {}, {}))
    outcomes: Outcomes = field(default_factory=Outcomes)

    def to_json(self) -> dict[str, Any]:
        """The ``exposure`` block of ``metrics --json`` (with ``outcomes``)."""
        return {**self.exposure.to_json(), "outcomes": self.outcomes.to_json()}


@dataclass(frozen=True)
class RightsState:
    """What the exposure checks read: the identities, the (run, case) inputs and the rights
    of the documents they list (the restricted ones retrieved or cited, and those a change
    names: an open document exposes nobody)."""

    identities: Identities
    rights: Mapping[str, Sequence[str]]
    items: tuple[ExposureInput, ...]
    runs: tuple[str, ...]


def load_state(store: GoldSetStore, run: str | None = None, documents: Sequence[str] = ()
               ) -> RightsState:
    """Read the rights state of one run (by name; NotFound if unknown) or of every run;
    ``documents``: keys whose rights a replayed change sets (read even when open)."""
    if run is not None:
        store.run_id_of(run)
        runs: tuple[str, ...] = (run,)
    else:
        runs = tuple(store.run_names())
    rows, rights = store.exposure_rows(run, documents)
    return RightsState(
        identities=Identities.from_rows(store.identity_rows()),
        rights={k: tuple(v) for k, v in rights.items()},
        items=tuple(ExposureInput.from_row(r) for r in rows), runs=runs)


def exposure_of(state: RightsState, depth: int = DEFAULT_CONTEXT_DEPTH) -> ExposureSummary:
    """The exposures of a loaded state."""
    return summarize(state.items, state.identities, state.rights, depth, state.runs)


def build(store: GoldSetStore, run: str, depth: int, answers: Iterable[AnswerInput],
          diagnosis: Diagnosis) -> RightsFigures:
    """One run's rights figures (``depth``: the context depth, the diagnosis' depth)."""
    exposure = exposure_of(load_state(store, run), depth)
    missing = [case for case, failures in diagnosis.per_case.items()
               if any(f.kind == "retrieval" and f.detail == "missing" for f in failures)]
    return RightsFigures(exposure, three_outcomes(answers, missing, exposure.cases()))
