"""Team operations: a campaign that hands the pool out, and judging inside an assignment.

Every function validates its input, runs as one undoable operation of the store and returns
the :class:`~rag_annotator.domain.changes.Changes` it made (``Changes.pairs`` names the
pairs, so the Judge panel refreshes only them).

* :func:`create_campaign` stores who judges which pair in what order (planned by
  :mod:`~rag_annotator.domain.team_plan`) and gives the file its identity
  (``meta.file_uuid``) on first use: assignment files and collects are matched against it.
* :func:`judge_assigned` labels one slot of an assessor's queue with the seconds the pair
  was on screen; a control slot (the blind repeat) writes ``control_judgments``, never a
  second row of ``judgments``.
* :func:`cannot_judge` / :func:`cannot_judge_assigned` record "can't judge" with its reason:
  the pair stays unjudged (a grade the assessor gave before is cleared), the reason travels
  with the file.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from rag_annotator.domain import team_plan
from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.enums import Label
from rag_annotator.domain.operations import ensure_assessor, require_row
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.errors import InvalidValue, NotFound
from rag_annotator.messages import Plural

Pair = tuple[int, int]
#: The ``meta`` key holding the file's identity (32 hex digits).
FILE_UUID = "file_uuid"
#: The ``meta`` key that makes a file an assignment file (JSON: campaign, master, assessor).
ASSIGNMENT = "assignment"
#: Longest active time recorded for one judgment (a day): beyond, the clock was wrong.
MAX_SECONDS = 86_400.0
#: What a campaign hands out: judgment pairs, claims to verify or trajectories to review.
ITEMS = ("pairs", "claims", "trajectories")


class TeamStore(Store, Protocol):
    """The store reads a campaign needs besides the writes of :class:`Store`."""

    def campaign_pool(self, runs: Sequence[str] | None, depth: int | None) -> list[Pair]: ...

    def campaign_pool_packed(self, runs: Sequence[str] | None, depth: int | None
                             ) -> np.ndarray: ...

    def campaign_items(self, items: str, runs: Sequence[str] | None) -> list[Pair]: ...

    def queue_slot(self, slot_id: int) -> dict[str, Any] | None: ...


def new_uuid() -> str:
    """A fresh identity: 32 lower-case hex digits."""
    return uuid.uuid4().hex


def ensure_file_uuid(op: Writer) -> str:
    """The file's identity, written on first use (inside the caller's operation)."""
    row = op.get("meta", {"key": FILE_UUID})
    if row is not None and row["value"]:
        return str(row["value"])
    value = new_uuid()
    if row is None:
        op.insert("meta", {"key": FILE_UUID, "value": value})
    else:
        op.update("meta", {"key": FILE_UUID}, {"value": value})
    return value


def check_seconds(seconds: float | None) -> float | None:
    """Active seconds: None (not measured) or a finite number from 0 to a day."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
            math.isfinite(seconds) and 0 <= seconds <= MAX_SECONDS):
        raise InvalidValue("seconds: {seconds!r} is not a time from 0 to {max_seconds:.0f} "
                           "seconds.", seconds=seconds, max_seconds=MAX_SECONDS)
    return float(seconds)


# -- campaigns ---------------------------------------------------------------------------
def create_campaign(store: TeamStore, assessors: Sequence[str], per_pair: int = 2, *,
                    control: float = 0.0, seed: int | None = None,
                    runs: Sequence[str] | None = None, depth: int | None = None,
                    name: str = "", tick: Callable[[], None] | None = None,
                    items: str = "pairs") -> Changes:
    """Hand the pool out: ``per_pair`` distinct assessors per pair, balanced, each in a
    seeded order of their own, with a ``control`` share repeated blind later.

    The pool is the top ``depth`` documents of ``runs`` plus the expected sources (both
    None: the file's pool setting), agent cases left out.  ``seed`` None draws one (it is
    stored: the plan can be rebuilt).  ``tick`` is called while planning and storing (a
    cancel check may raise from it: the operation then rolls back).

    ``items`` "claims" / "trajectories": the claims of ``runs``' answers (None: every
    run) or their trajectories are dealt the same way (no depth, no control repeats).
    """
    if items not in ITEMS:
        raise InvalidValue("--items: {items!r} is not one of {items2}.",
                           items=items, items2=', '.join(ITEMS))
    if items != "pairs" and control:
        raise InvalidValue("--control: control repeats are for pairs only; leave it out "
                           "with --items claims or trajectories.")
    names = [v.check_key("assessor", a) for a in assessors]
    team_plan.check_plan(names, per_pair, control)
    if seed is None:
        seed = int.from_bytes(uuid.uuid4().bytes[:4], "big")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise InvalidValue("--seed: {seed!r} is not a whole number from 0 to 2^63.", seed=seed)
    with store.operation("create_campaign", "") as op:
        pairs: Any = (team_plan.unpack_pool(store.campaign_pool_packed(runs, depth))
                      if items == "pairs" else store.campaign_items(items, runs))
        if not len(pairs) and items != "pairs":
            raise InvalidValue("no {items} to hand out in the chosen runs: import runs with "
                               "{items} (or name other --runs) first.", items=items)
        if not len(pairs):
            raise InvalidValue("the pool is empty: import a run (or choose runs and a depth "
                               "that retrieve documents) before handing out assignments.")
        queues = team_plan.plan(pairs, names, per_pair, control, seed, tick)
        master = ensure_file_uuid(op)
        campaign_uuid = new_uuid()
        # the default name in the session's language, as the window's dialog offers it
        label = name.strip() or Plural("{n} assessor × {per_pair}", "{n} assessors × {per_pair}",
                                       len(names), per_pair=per_pair).render()
        op.label = f"{label} · {len(pairs)} {items}"
        campaign = op.insert("campaigns", {
            "uuid": campaign_uuid, "name": v.check_text("name", label), "per_pair": per_pair,
            "seed": seed, "control_share": float(control),
            "pool_runs": None if runs is None else json.dumps(sorted(set(runs))),
            "pool_depth": depth, "master": master, "created_at": utc_now(), "items": items})
        packed: list[tuple[int, int, str]] = []
        for assessor in names:
            assessor_id = ensure_assessor(op, assessor)
            op.insert("campaign_assessors", {"campaign_id": campaign["id"],
                                             "assessor_id": assessor_id, "file_name": ""})
            if tick is not None:
                tick()
            # the whole queue as one row (``queues``): see ``storage.schema_sql``
            packed.append((campaign["id"], assessor_id, team_plan.pack(queues[assessor], items)))
        # logged as one id range, not a history image per row: a queue of 210,000 slots is
        # ~2.5 MB of text, which an image would read back, encode and store a second time
        op.insert_rows("queues", ("campaign_id", "assessor_id", "slots"), packed)
    return op.changes()


# -- judging an assignment ---------------------------------------------------------------
def _assignment(store: TeamStore, op: Writer, assignment_id: int
                ) -> tuple[dict[str, Any], str]:
    row = store.queue_slot(assignment_id)
    if row is None:
        raise NotFound("no assignment slot with id {assignment_id}; the campaign may have "
                       "been removed.", assignment_id=assignment_id)
    who = require_row(op, "assessors", row["assessor_id"])
    return row, str(who["name"])


def judge_assigned(store: TeamStore, assignment_id: int, grade: int | None,
                   seconds: float | None = None) -> Changes:
    """Label one slot of an assessor's queue (the slot's assessor, whoever the session is).

    ``grade`` None: back to unjudged.  ``seconds``: the active time the pair was on screen
    (None: not measured).  A control slot writes the repeat to ``control_judgments``.
    Judging a pair (not its control repeat) clears that assessor's "can't judge" on it.
    """
    seconds = check_seconds(seconds)
    with store.operation("judge_assigned", "") as op:
        slot, who = _assignment(store, op, assignment_id)
        case = require_row(op, "cases", slot["case_id"])
        doc = require_row(op, "documents", slot["document_id"])
        grade = v.check_grade(grade, _max_grade(op))
        op.label = (f"{who} #{slot['position']} · {case['key']} · {doc['key']} → "
                    f"{Label.of_grade(grade).value}")
        key = {"case_id": slot["case_id"], "document_id": slot["document_id"],
               "assessor_id": slot["assessor_id"]}
        if slot["is_control"]:
            _upsert(op, "control_judgments", {**key, "campaign_id": slot["campaign_id"]},
                    grade, seconds)
        else:
            _upsert(op, "judgments", key, grade, seconds, note=True)
        if grade is not None and not slot["is_control"]:
            op.delete_where("cannot_judge", **key)
    return op.changes()


def _upsert(op: Writer, table: str, key: dict[str, Any], grade: int | None,
            seconds: float | None, *, note: bool = False) -> None:
    existing = op.select(table, **key)
    values: dict[str, Any] = {"grade": grade}
    if seconds is not None:
        values["seconds"] = seconds
    if existing:
        if any(existing[0][k] != val for k, val in values.items()):
            op.update(table, {"id": existing[0]["id"]}, {**values, "updated_at": utc_now()})
    elif grade is not None:
        op.insert(table, {**key, **values, **({"note": ""} if note else {}),
                          "updated_at": utc_now()})


def set_judgment_seconds(op: Writer, judgment_id: int, seconds: float | None) -> None:
    """Inside an operation: record the active seconds of a judgment row (None leaves it)."""
    if seconds is not None:
        op.update("judgments", {"id": judgment_id}, {"seconds": check_seconds(seconds)})


def cannot_judge(store: Store, case_id: int, document_id: int, reason: str | None) -> Changes:
    """This session's assessor cannot judge the pair, for ``reason`` (None or blank: take
    it back).  The pair stays unjudged: a grade this assessor gave it is cleared."""
    with store.operation("cannot_judge", "") as op:
        require_row(op, "cases", case_id)
        require_row(op, "documents", document_id)
        assessor_id = ensure_assessor(op, store.assessor)
        _cannot(op, case_id, document_id, assessor_id, store.assessor, reason)
    return op.changes()


def cannot_judge_assigned(store: TeamStore, assignment_id: int, reason: str | None) -> Changes:
    """:func:`cannot_judge` for one slot of a queue (the slot's assessor)."""
    with store.operation("cannot_judge", "") as op:
        slot, who = _assignment(store, op, assignment_id)
        _cannot(op, slot["case_id"], slot["document_id"], slot["assessor_id"], who, reason)
    return op.changes()


def _cannot(op: Writer, case_id: int, document_id: int, assessor_id: int, who: str,
            reason: str | None) -> None:
    case = require_row(op, "cases", case_id)
    doc = require_row(op, "documents", document_id)
    text = (v.check_text("reason", reason) or "").strip() if reason is not None else ""
    key: dict[str, Any] = {"case_id": case_id, "document_id": document_id,
                           "assessor_id": assessor_id}
    op.label = f"{who} · {case['key']} · {doc['key']}" + (f": {text}" if text else "")
    existing = op.select("cannot_judge", **key)
    if not text:
        op.delete_where("cannot_judge", **key)
        return
    if existing:
        if existing[0]["reason"] != text:
            op.update("cannot_judge", {"id": existing[0]["id"]},
                      {"reason": text, "updated_at": utc_now()})
    else:
        op.insert("cannot_judge", {**key, "reason": text, "updated_at": utc_now()})
    for table in ("judgments", "control_judgments"):
        for row in op.select(table, **key):
            if row["grade"] is not None:
                op.update(table, {"id": row["id"]}, {"grade": None, "updated_at": utc_now()})


def _max_grade(op: Writer) -> int:
    row = op.get("meta", {"key": "max_grade"})
    return int(row["value"]) if row and row["value"] else 1
