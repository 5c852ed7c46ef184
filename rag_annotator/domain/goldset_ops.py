"""Operations of the Gold set section beyond the core ones: bulk edits, workflow, review queue.

Each is one undoable operation (one transaction, history rows) returning :class:`Changes`;
a bulk edit of 500 cases is one entry in the history and one undo.  Cases that a frozen
release approved are refused whole (see :mod:`rag_annotator.domain.releases`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.enums import CaseStatus, Family, values
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.domain.releases import check_editable, frozen_keys
from rag_annotator.errors import InvalidValue, NotFound

#: The review workflow, in order.
STATUS_ORDER: tuple[str, ...] = values(CaseStatus)

#: Review-queue decisions and the case status each one leaves.
REVIEW_DECISIONS: dict[str, str] = {"accepted": "reviewed", "edited": "reviewed",
                                    "rejected": "retired"}


def next_status(status: str) -> str:
    """The workflow step after ``status`` (draft → reviewed → approved → retired; stays)."""
    i = STATUS_ORDER.index(status)
    return STATUS_ORDER[min(i + 1, len(STATUS_ORDER) - 1)]


def previous_status(status: str) -> str:
    """The workflow step before ``status`` (stays at draft)."""
    i = STATUS_ORDER.index(status)
    return STATUS_ORDER[max(i - 1, 0)]


def next_case_key(existing: Iterable[str], prefix: str = "Q", width: int = 2) -> str:
    """A free key ``Q<n>`` after the largest ``Q<n>`` in use, zero-padded like the others
    (at least ``width`` digits)."""
    pattern = re.compile(rf"^{re.escape(prefix)}(\d+)$")
    numbers = [0]
    for key in existing:
        match = pattern.match(key)
        if match:
            numbers.append(int(match.group(1)))
            width = max(width, len(match.group(1)))
    return f"{prefix}{max(numbers) + 1:0{width}d}"


def case_keys_after(existing: Iterable[str], prefix: str = "Q", width: int = 2
                    ) -> Iterator[str]:
    """The keys :func:`next_case_key` would give one after the other, each added to
    ``existing`` before the next: ``existing`` is scanned once, so an import that numbers
    100,000 rows takes linear time, not one scan per row."""
    pattern = re.compile(rf"^{re.escape(prefix)}(\d+)$")
    largest = 0
    for key in existing:
        match = pattern.match(key)
        if match:
            largest = max(largest, int(match.group(1)))
            width = max(width, len(match.group(1)))
    while True:
        largest += 1
        yield f"{prefix}{largest:0{width}d}"


def _cases(op: Writer, case_ids: Sequence[int]) -> list[dict[str, Any]]:
    if not case_ids:
        raise InvalidValue("select at least one case.")
    frozen = frozen_keys(op)
    rows = []
    for case_id in dict.fromkeys(case_ids):
        row = op.get("cases", {"id": case_id})
        if row is None:
            raise NotFound("no case with id {case_id}; it may have been deleted.", case_id=case_id)
        check_editable(op, row, frozen)
        rows.append(row)
    return rows


def _label(rows: list[dict[str, Any]], value: str) -> str:
    keys = [r["key"] for r in rows]
    shown = ", ".join(keys[:3]) + (f" (+{len(keys) - 3})" if len(keys) > 3 else "")
    return f"{shown} → {value}"


def _bulk_update(store: Store, action: str, case_ids: Sequence[int], column: str,
                 value: str) -> Changes:
    with store.operation(action, "") as op:
        rows = _cases(op, case_ids)
        op.label = _label(rows, value)
        now = utc_now()
        for row in rows:
            if op.update("cases", {"id": row["id"]}, {column: value}) is not None:
                op.update("cases", {"id": row["id"]}, {"updated_at": now})
    return op.changes()


def bulk_set_family(store: Store, case_ids: Sequence[int], family: str) -> Changes:
    """Put every selected case in ``family`` (one undoable operation)."""
    checked = v.check_enum("family", family, Family)
    assert checked is not None
    return _bulk_update(store, "bulk_set_family", case_ids, "family", checked)


def bulk_set_status(store: Store, case_ids: Sequence[int], status: str) -> Changes:
    """Give every selected case the workflow ``status`` (one undoable operation)."""
    checked = v.check_enum("status", status, CaseStatus)
    assert checked is not None
    return _bulk_update(store, "bulk_set_status", case_ids, "status", checked)


def bulk_edit_tags(store: Store, case_ids: Sequence[int], add: Iterable[str] = (),
                   remove: Iterable[str] = ()) -> Changes:
    """Add and remove tags on every selected case, keeping each case's other tags and order."""
    adding = [_tag(t) for t in add]
    removing = {_tag(t) for t in remove}
    if not adding and not removing:
        raise InvalidValue("give at least one tag to add or remove.")
    parts = [f"+{t}" for t in adding] + [f"−{t}" for t in sorted(removing)]
    with store.operation("bulk_edit_tags", "") as op:
        rows = _cases(op, case_ids)
        op.label = _label(rows, " ".join(parts))
        now = utc_now()
        for row in rows:
            tags = _json_list(row["tags"])
            new = [t for t in tags if t not in removing]
            new += [t for t in adding if t not in new]
            if op.update("cases", {"id": row["id"]},
                         {"tags": v.check_list("tags", new)}) is not None:
                op.update("cases", {"id": row["id"]}, {"updated_at": now})
    return op.changes()


def _tag(text: str) -> str:
    tag = str(text).strip()
    if not tag:
        raise InvalidValue("a tag cannot be empty.")
    return v.check_key("tag", tag)


def _json_list(text: str | None) -> list[str]:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return [str(x) for x in value] if isinstance(value, list) else []


def review_case(store: Store, case_id: int, decision: str) -> Changes:
    """Record the review-queue decision on a generated case.

    ``accepted`` and ``edited`` make the case *reviewed*; ``rejected`` retires it (it stays
    in the file, so the decision is kept and can be undone).  ``pending`` puts it back in the
    queue as a draft.
    """
    if decision not in (*REVIEW_DECISIONS, "pending"):
        raise InvalidValue("decision: '{decision}' is not accepted, edited, rejected or "
                           "pending.", decision=decision)
    with store.operation("review_case", "") as op:
        case = op.get("cases", {"id": case_id})
        if case is None:
            raise NotFound("no case with id {case_id}; it may have been deleted.", case_id=case_id)
        check_editable(op, case)
        op.label = f"{case['key']} → {decision}"
        review = op.get("case_reviews", {"case_id": case_id})
        decided = {"decision": decision,
                   "decided_by": store.assessor if decision != "pending" else "",
                   "decided_at": utc_now() if decision != "pending" else None}
        if review is None:
            op.insert("case_reviews", {"case_id": case_id, **decided})
        elif review["decision"] != decision:
            op.update("case_reviews", {"id": review["id"]}, decided)
        status = REVIEW_DECISIONS.get(decision, "draft")
        if op.update("cases", {"id": case_id}, {"status": status}) is not None:
            op.update("cases", {"id": case_id}, {"updated_at": utc_now()})
    return op.changes()
