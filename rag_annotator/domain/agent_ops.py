"""Operations on trajectories: bringing them in, and reviewing them.

Each is one transaction recorded in the history (undoable) and returns its
:class:`Changes`, like every operation (DESIGN section 9).

A review holds two marks — *task success* and *path acceptable* — each yes, no or not yet
marked (NULL: the automatic verdict counts).  A mark that differs from the automatic
verdict **overrules** it and needs a reason, stored with it; a mark that agrees confirms
it (no reason needed).  When the case has no automatic verdict (no expected state, no
invariant) any mark is the reviewer's own call and needs no reason either.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.domain import operations
from rag_annotator.domain import validation as v
from rag_annotator.domain.agent_checks import Evaluation, evaluate_row
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.errors import InvalidValue, NotFound
from rag_annotator.messages import N_, render

_UNSET: Any = object()
#: Review columns, and the reason column of each mark.
MARKS = {"task_success": "success_reason", "path_acceptable": "path_reason"}


@dataclass
class TrajectoryInput:
    """One parsed trajectory, before it is written (importers build these)."""

    case: str
    steps: list[tuple[str, Any, str]] = field(default_factory=list)  # tool, arguments, result
    final_state: dict[str, Any] | None = None
    final_answer: str = ""
    tokens: int | None = None
    seconds: float | None = None
    cost: float | None = None
    line: int = 0  # where the importer read it, for messages
    #: Which attempt of the case this is (benchmarks run each task several times; pass^k).
    trial: int = 0
    #: The benchmark's own automatic score (tau-bench's ``reward``: 1 is a success), kept
    #: apart from any reviewer's mark.
    reward: float | None = None
    #: Fields of the record with no column (tau-bench's ``info``…), kept as one JSON object.
    extra: dict[str, Any] = field(default_factory=dict)
    #: ``final_state`` as the JSON text stored, when the importer encoded it already (an
    #: importer checks it encodes): written as is instead of encoded twice.
    state_text: str | None = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        """The case, and its trial when it is not the first: for messages."""
        return f"{self.case}' trial {self.trial}" if self.trial else f"{self.case}'"


class TrajectoryRejected(InvalidValue):
    """A trajectory cannot be stored; ``line`` is where its importer read it."""

    def __init__(self, line: int, message: str, **params: Any) -> None:
        self.line = line
        self.reason = message
        super().__init__(message, **params)

    def render(self, lang: str | None = None) -> str:
        """The reason after ``line N: `` (translated too) when the line is known."""
        text = super().render(lang)
        return render(N_("line {line}: {reason}"), {"line": self.line, "reason": text}, lang
                      ) if self.line else text


def import_trajectories(store: Store, run: str, items: Sequence[TrajectoryInput], *,
                        notes: str = "",
                        checkpoint: Callable[[], None] | None = None,
                        new_cases: Mapping[str, str] | None = None) -> Changes:
    """Bring trajectories into run ``run`` (made if new) as ONE undoable operation.

    Refused, storing nothing (TrajectoryRejected naming the item's line), when a case key
    is unknown or names a RAG case, a case comes twice with the same trial, or the run
    already holds a trajectory for that case and trial (delete it, or import under another
    run name).
    ``checkpoint`` is called now and then inside the operation; what it raises (the user's
    Cancel) rolls the whole import back.  ``new_cases`` (key → question) are the agent
    cases a benchmark log describes itself (tau-bench's tasks): those the gold set lacks
    are made, as drafts, in the same operation.
    """
    check = checkpoint or (lambda: None)
    with store.operation("import_trajectories", run) as op:
        kinds = {key: (case_id, kind) for key, case_id, kind
                 in op.select_columns("cases", ("key", "id", "kind"))}
        now = utc_now()
        for key, question in (new_cases or {}).items():
            if key not in kinds:
                kinds[key] = (int(op.insert("cases", {
                    "key": v.check_key("case", key), "kind": "agent", "question": question,
                    "status": "draft", "author": store.assessor,
                    "notes": f"Made by importing run '{run}'. {notes}".strip(),
                    "created_at": now, "updated_at": now})["id"]), "agent")
        found = op.select("runs", name=run)
        run_id = int(found[0]["id"]) if found else None
        taken = set() if run_id is None else set(
            op.select_columns("trajectories", ("case_id", "trial"), run_id=run_id))
        seen: dict[tuple[str, int], int] = {}
        for n, item in enumerate(items):
            if n % 1000 == 0:
                check()
            if item.case not in kinds:
                raise TrajectoryRejected(item.line, "no case '{case}' in the gold set; "
                                         "add it as an agent case first, or fix the key.",
                                         case=item.case)
            case_id, kind = kinds[item.case]
            if kind != "agent":
                raise TrajectoryRejected(item.line, "case '{case}' is a RAG case; make "
                                         "it an agent case (kind = agent) to attach a "
                                         "trajectory.", case=item.case)
            if (item.case, item.trial) in seen:
                raise TrajectoryRejected(item.line, "case '{label} already has a "
                                         "trajectory on line {seen}; "
                                         "keep one.",
                                         label=item.label, seen=seen[item.case, item.trial])
            if (case_id, item.trial) in taken:
                raise TrajectoryRejected(item.line, "run '{run}' already has a trajectory "
                                         "for case '{label}; delete it first or "
                                         "import under another run name.",
                                         run=run, label=item.label)
            seen[item.case, item.trial] = item.line
        if run_id is None:
            run_id = int(op.insert("runs", {"name": v.check_key("run", run),
                                            "created_at": utc_now(), "notes": notes})["id"])
        check()
        add_trajectories(op, run_id, {key: kinds[key][0] for key, _trial in seen}, items,
                         check)
    return op.changes()


def add_trajectories(op: Writer, run_id: int, case_ids: Mapping[str, int],
                     items: Sequence[TrajectoryInput],
                     checkpoint: Callable[[], None] | None = None) -> int:
    """Inside an operation: write ``items`` for run ``run_id`` (case keys resolved through
    ``case_ids``).  Two history rows per batch, not one per step."""
    columns = ("run_id", "case_id", "trial", "final_state", "final_answer", "tokens",
               "seconds", "cost", "reward", "extra")
    op.insert_rows("trajectories", columns, [
        (run_id, case_ids[item.case], item.trial,
         None if item.final_state is None else item.state_text if item.state_text is not None
         else json.dumps(item.final_state, ensure_ascii=False),
         item.final_answer, item.tokens, item.seconds, item.cost, item.reward,
         json.dumps(item.extra, ensure_ascii=False, allow_nan=False) if item.extra else "{}")
        for item in items])
    if checkpoint is not None:
        checkpoint()
    ids = {(case_id, trial): trajectory_id for trajectory_id, case_id, trial
           in op.select_columns("trajectories", ("id", "case_id", "trial"), run_id=run_id)}
    # a generator: the rows go to SQLite in batches, never all at once in a list
    rows = ((trajectory_id, position, tool, arguments if type(arguments) is str
             else json.dumps(arguments, ensure_ascii=False), result)
            for item in items
            for trajectory_id in (ids[case_ids[item.case], item.trial],)
            for position, (tool, arguments, result) in enumerate(item.steps, start=1))
    op.insert_rows("trajectory_steps",
                   ("trajectory_id", "position", "tool", "arguments", "result"), rows)
    return len(items)


def evaluation_of(op: Writer, trajectory: Mapping[str, Any]) -> Evaluation:
    """The automatic checks of a stored trajectory, read inside an operation."""
    case = op.get("cases", {"id": trajectory["case_id"]})
    if case is None:
        raise NotFound("trajectory {trajectory} has no case.", trajectory=trajectory['id'])
    state = trajectory["final_state"]
    return evaluate_row({
        **case, **{k: trajectory[k] for k in ("tokens", "seconds", "cost", "reward")},
        "final_state": None if state is None else json.loads(state),
        "steps": op.select("trajectory_steps", order_by="position",
        trajectory_id=trajectory["id"])})


def _trajectory(op: Writer, trajectory_id: int) -> dict[str, Any]:
    row = op.get("trajectories", {"id": trajectory_id})
    if row is None:
        raise NotFound("no trajectory with id {trajectory_id}; it may have been deleted.",
                       trajectory_id=trajectory_id)
    return row


def _label(op: Writer, trajectory: Mapping[str, Any]) -> str:
    case = op.get("cases", {"id": trajectory["case_id"]})
    run = op.get("runs", {"id": trajectory["run_id"]})
    return f"{case['key'] if case else '?'} · {run['name'] if run else '?'}"


def review_trajectory(store: Store, trajectory_id: int, *,
                      task_success: bool | None = _UNSET, success_reason: str | None = None,
                      path_acceptable: bool | None = _UNSET, path_reason: str | None = None,
                      note: str | None = None) -> Changes:
    """Mark task success and/or path acceptability (``None`` clears a mark), or the note.

    A mark that overrules the automatic verdict needs a reason (InvalidValue otherwise);
    clearing a mark or confirming the automatic verdict clears its reason.
    """
    with store.operation("review_trajectory", "") as op:
        trajectory = _trajectory(op, trajectory_id)
        op.label = _label(op, trajectory)
        evaluation = evaluation_of(op, trajectory)
        automatic = {"task_success": evaluation.task_success,
                     "path_acceptable": evaluation.path_acceptable}
        existing = op.get("trajectory_reviews", {"trajectory_id": trajectory_id})
        values: dict[str, Any] = {}
        for mark, value, reason in (("task_success", task_success, success_reason),
                                    ("path_acceptable", path_acceptable, path_reason)):
            if value is _UNSET:
                if reason is not None and existing is not None:
                    values[MARKS[mark]] = reason.strip()
                continue
            why = (reason or "").strip()
            if value is not None and automatic[mark] is not None and value != automatic[mark]:
                if not why:
                    raise InvalidValue(
                        "{replace}: marking it "
                        "{value} overrules the automatic check "
                        "({value2}); give the reason.",
                        replace=mark.replace('_', ' '), value='yes' if value else 'no',
                        value2='yes' if automatic[mark] else 'no')
            else:
                why = ""  # a confirmation or a cleared mark keeps no reason
            values[mark] = None if value is None else int(bool(value))
            values[MARKS[mark]] = why
        if note is not None:
            values["note"] = note.strip()
        if values:
            _write_review(store, op, trajectory_id, existing, values)
    return op.changes()


def _write_review(store: Store, op: Writer, trajectory_id: int,
                  existing: Mapping[str, Any] | None, values: dict[str, Any]) -> None:
    """Insert or update the review; a no-op update leaves no history row."""
    assessor_id = operations.ensure_assessor(op, store.assessor)
    if existing is None:
        op.insert("trajectory_reviews", {"trajectory_id": trajectory_id, **values,
                                         "assessor_id": assessor_id,
                                         "updated_at": utc_now()})
    elif op.update("trajectory_reviews", {"id": existing["id"]}, values) is not None:
        op.update("trajectory_reviews", {"id": existing["id"]},
                  {"assessor_id": assessor_id, "updated_at": utc_now()})


def confirm_trajectory(store: Store, trajectory_id: int) -> Changes:
    """Confirm both automatic verdicts as they stand (one key in the review).

    A verdict the checks cannot give (no expected state, no invariant) is left unmarked:
    the reviewer marks it with its own key.
    """
    with store.operation("confirm_trajectory", "") as op:
        trajectory = _trajectory(op, trajectory_id)
        op.label = _label(op, trajectory)
        evaluation = evaluation_of(op, trajectory)
        values: dict[str, Any] = {}
        for mark, automatic in (("task_success", evaluation.task_success),
                                ("path_acceptable", evaluation.path_acceptable)):
            if automatic is not None:
                values[mark] = int(automatic)
                values[MARKS[mark]] = ""
        if not values:
            raise InvalidValue("nothing to confirm: the case expects no final state and "
                               "states no invariant; mark success and path yourself.")
        existing = op.get("trajectory_reviews", {"trajectory_id": trajectory_id})
        _write_review(store, op, trajectory_id, existing, values)
    return op.changes()


def clear_trajectory_review(store: Store, trajectory_id: int) -> Changes:
    """Remove the review: both automatic verdicts count again."""
    with store.operation("clear_trajectory_review", "") as op:
        trajectory = _trajectory(op, trajectory_id)
        op.label = _label(op, trajectory)
        op.delete_where("trajectory_reviews", trajectory_id=trajectory_id)
    return op.changes()
