"""Replay a rights change on what the runs already produced ("what if", seed 003).

"Remove group G from identity I" (or any change of the matrix) is checked against every
stored ranking, context and citation of every run, without running any system again: the
exposures before and after, the ones the change would add or remove, per (run, case)
answer, and every figure that would change (before -> after).  Applying the change for real
is ``domain.rights_ops.apply_rights_change`` (one undoable operation).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rag_annotator.domain.rights import RightsChange
from rag_annotator.metrics.exposure import (
    DEFAULT_CONTEXT_DEPTH,
    STAGES,
    Exposed,
    ExposureSummary,
    summarize,
)
from rag_annotator.reports.rights_figures import RightsState, load_state
from rag_annotator.storage.store import GoldSetStore


@dataclass(frozen=True)
class FigureChange:
    """One figure the change moves: what it counts, before and after."""

    scope: str   # "identity" or "run"
    name: str    # the identity or the run
    measure: str  # a stage, "total" or "cases"
    before: int
    after: int


@dataclass(frozen=True)
class Replay:
    """The exposures before and after a change, and what differs."""

    change: RightsChange
    before: ExposureSummary
    after: ExposureSummary

    @property
    def new(self) -> tuple[Exposed, ...]:
        """Exposures the change would add (sorted by run, case, identity, stage)."""
        old = set(self.before.events)
        return tuple(sorted((e for e in self.after.events if e not in old), key=_order))

    @property
    def gone(self) -> tuple[Exposed, ...]:
        """Exposures the change would remove."""
        now = set(self.after.events)
        return tuple(sorted((e for e in self.before.events if e not in now), key=_order))

    def answers(self) -> dict[tuple[str, str], list[Exposed]]:
        """(run, case) -> its new exposures: the stored answers the change would expose."""
        out: dict[tuple[str, str], list[Exposed]] = {}
        for event in self.new:
            out.setdefault((event.run, event.case), []).append(event)
        return out

    def figures(self) -> list[FigureChange]:
        """Every count that changes: per identity and stage, per identity the cases, per
        run and stage and its total."""
        return [f for f in self._all_figures() if f.before != f.after]

    def _all_figures(self) -> Iterator[FigureChange]:
        b, a = self.before, self.after
        for who in sorted(set(b.checked) | set(a.checked)):
            for stage in STAGES:
                yield FigureChange("identity", who, stage, b.count(who, stage),
                                   a.count(who, stage))
            yield FigureChange("identity", who, "cases", len(b.cases(who)), len(a.cases(who)))
        for run in a.runs:
            for stage in STAGES:
                yield FigureChange("run", run, stage, b.count(stage=stage, run=run),
                                   a.count(stage=stage, run=run))
            yield FigureChange("run", run, "total", b.count(run=run), a.count(run=run))

    def to_json(self) -> dict[str, Any]:
        """The object ``rights --json`` prints."""
        def event(e: Exposed) -> dict[str, str]:
            return {"run": e.run, "case": e.case, "identity": e.identity, "stage": e.stage,
                    "document": e.document}
        return {
            "change": {"identity_groups": {k: list(v) for k, v in
                                           self.change.identity_groups.items()},
                       "document_rights": {k: list(v) for k, v in
                                           self.change.document_rights.items()}},
            "answers": [{"run": run, "case": case, "stages": sorted({e.stage for e in evs}),
                         "documents": sorted({e.document for e in evs})}
                        for (run, case), evs in self.answers().items()],
            "new": [event(e) for e in self.new], "gone": [event(e) for e in self.gone],
            "figures": [{"scope": f.scope, "name": f.name, "measure": f.measure,
                         "before": f.before, "after": f.after} for f in self.figures()],
            "before": {"total": self.before.total}, "after": {"total": self.after.total},
        }


def _order(event: Exposed) -> tuple[str, str, str, int, str]:
    """Run, case, identity, then the stages in pipeline order."""
    return (event.run, event.case, event.identity, STAGES.index(event.stage), event.document)


def replay_state(state: RightsState, change: RightsChange,
                 depth: int = DEFAULT_CONTEXT_DEPTH) -> Replay:
    """Pure: replay ``change`` on a loaded state."""
    before = summarize(state.items, state.identities, state.rights, depth, state.runs)
    identities, rights = change.applied_to(state.identities, state.rights)
    after = summarize(state.items, identities, rights, depth, state.runs)
    return Replay(change, before, after)


def replay(store: GoldSetStore, change: RightsChange,
           depth: int = DEFAULT_CONTEXT_DEPTH) -> Replay:
    """Replay ``change`` on every run of the file (reads only)."""
    return replay_state(load_state(store, documents=list(change.document_rights)), change,
                        depth)
