"""A trajectory of the Agents section read and rendered ahead, ready to be swapped in.

A review key (Enter, J) must show the next trajectory within a frame (issue 19).  Its durable
commit takes most of that frame, so the key itself reads and renders nothing it can avoid:
once the current trajectory is painted, while the reviewer reads it, the section reads the
trajectories the next keys will show (the next to review, the next in the list), evaluates
their checks and renders every pane's text and rows (:func:`prepare`).  The key then only
swaps these into the panes: rows changed in place (no model reset), texts set where they
differ (:class:`Prepared`).

A prepared trajectory is dropped when a change touches what it shows (the section keeps them
only until any change other than its own review key's).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt

from rag_annotator.domain.agent_checks import Evaluation, evaluate_row
from rag_annotator.errors import NotFound
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.agents.widgets import (
    bold,
    budgets_html,
    pretty_json,
    review_html,
    step_rows,
    translate,
)
from rag_annotator.ui.look import colours
from rag_annotator.ui.sections.base import esc

Row = dict[str, Any]
#: Trajectories kept ready (the next to review, the next and previous in the list).
KEPT = 4


@dataclass
class Prepared:
    """What the panes show for one trajectory, rendered (the header lacks its position in
    the list, which the section adds when it shows it)."""

    id: int
    detail: Row
    evaluation: Evaluation
    title: str
    request: str
    steps: list[Row]
    first_broken: int | None
    step_html: str  # the detail of the first broken step, or the H / L hint
    checks: list[Row]
    state: list[Row]
    state_tip: str
    budgets: str
    answer: str
    review: str


def prepare(detail: Row) -> Prepared:
    """Render ``detail`` (:meth:`GoldSetStore.trajectory_detail`) for the panes."""
    evaluation = evaluate_row(detail)
    steps = step_rows(detail["steps"], evaluation)
    first_broken = next((i for i, r in enumerate(steps) if r["broken"]), None)
    return Prepared(
        id=int(detail["id"]), detail=detail, evaluation=evaluation,
        title=(f"<b>{esc(detail['case_key'])} · {esc(detail['run'])}</b> — "
               f"{esc(labels.family(detail['family']))}"),
        request=bold(translate("AgentsSection", "Request:")) + " " + esc(detail["question"]),
        steps=steps, first_broken=first_broken,
        step_html=step_html(steps[first_broken] if first_broken is not None else None),
        checks=[{"check": c} for c in evaluation.checks],
        state=[{"key": k} for k in evaluation.state],
        state_tip="" if detail["final_state"] is not None else translate(
            "AgentsSection", "The trajectory gives no final state."),
        budgets=budgets_html(detail, evaluation),
        answer=str(detail.get("final_answer") or ""),
        review=review_html(detail, evaluation))


def step_html(step: Row | None) -> str:
    """A step's arguments and result in full, with the checks it broke (None: the hint)."""
    if step is None:
        hint = translate("AgentsSection", "H / L: previous / next step, with its arguments "
                         "and result in full.")
        return f"<i>{esc(hint)}</i>"
    broken = "".join("<br>" + colours.coloured("text_bad", f"⚠ {esc(text)}", bold=True)
                     for text in step["broken"])
    title = translate("AgentsSection", "Step %1").replace("%1", str(step["position"]))
    return (bold(f"{title} · {step['tool']}") + broken + "<br>"
            + bold(translate("AgentsSection", "Arguments:"))
            + f" <code>{esc(pretty_json(step['arguments']))}</code><br>"
            + bold(translate("AgentsSection", "Result:")) + f" {esc(step['result'])}")


class ReadAhead:
    """Trajectories prepared ahead, by id (the last :data:`KEPT`)."""

    def __init__(self) -> None:
        self._ready: OrderedDict[int, Prepared] = OrderedDict()

    def take(self, store: GoldSetStore | None, trajectory_id: int) -> Prepared | None:
        """``trajectory_id`` prepared: the one read ahead, else read now (None: gone)."""
        ready = self._ready.pop(trajectory_id, None)
        if ready is not None or store is None:
            return ready
        return self._read(store, trajectory_id)

    def read(self, store: GoldSetStore, ids: list[int]) -> None:
        """Prepare ``ids`` unless they are ready."""
        for trajectory_id in ids:
            if trajectory_id in self._ready:
                self._ready.move_to_end(trajectory_id)
                continue
            prepared = self._read(store, trajectory_id)
            if prepared is not None:
                self._ready[trajectory_id] = prepared
            while len(self._ready) > KEPT:
                self._ready.popitem(last=False)

    def forget(self, trajectory_id: int | None = None) -> None:
        """Drop ``trajectory_id`` (None: everything)."""
        if trajectory_id is None:
            self._ready.clear()
        else:
            self._ready.pop(trajectory_id, None)

    @property
    def ids(self) -> list[int]:
        """The ids ready (oldest first)."""
        return list(self._ready)

    @staticmethod
    def _read(store: GoldSetStore, trajectory_id: int) -> Prepared | None:
        try:
            return prepare(store.trajectory_detail(trajectory_id))
        except NotFound:
            return None


_AFTER_PAINT = QEvent.Type(QEvent.registerEventType())


class AfterPaint(QObject):
    """Runs ``callback`` once the window has painted what the current key changed.

    A key's repaint is one update request Qt posts at low priority; an event posted after it
    at the same priority is handled after it (a zero-delay timer would run before the paint,
    inside the key's frame).  Requests made while one is pending are merged.
    """

    def __init__(self, callback: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._callback = callback
        self._pending = False

    def schedule(self) -> None:
        if not self._pending:
            self._pending = True
            QCoreApplication.postEvent(self, QEvent(_AFTER_PAINT),
                                       Qt.EventPriority.LowEventPriority.value)

    def customEvent(self, event: QEvent) -> None:  # Qt override
        if event.type() == _AFTER_PAINT:
            self._pending = False
            self._callback()
