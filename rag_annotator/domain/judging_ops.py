"""Judging operations: an assessor's label on a (case, document) pair, an adjudication, the
judging pool and the grading scale.

Like every domain operation, each function validates its input, runs as one operation of the
store and returns the :class:`~rag_annotator.domain.changes.Changes` it made — which names
the pairs it wrote (``Changes.pairs``), so the Judge panel and the progress counts refresh
from it without reading the history back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.enums import Label
from rag_annotator.domain.operations import ensure_assessor, require_row
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.domain.team_ops import check_seconds
from rag_annotator.errors import Conflict, InvalidValue, NotFound

#: Highest grade a gold set can use (TREC graded tracks use 0–4).
MAX_GRADE = 4


def _max_grade(op: Writer) -> int:
    row = op.get("meta", {"key": "max_grade"})
    return int(row["value"]) if row and row["value"] else 1


# -- pool and scale ------------------------------------------------------------------------
def set_pool(store: Store, runs: Sequence[str] | None, depth: int | None) -> Changes:
    """Choose what is judged: the top ``depth`` documents (None: the whole lists) of ``runs``
    (None: every run, including runs imported later), plus the expected sources.

    Pairs already judged stay in the pool whatever the choice (their labels remain visible and
    editable); a document several runs retrieved is one pair.  The metrics' universe does not
    change: it is every document any run retrieved, whatever is being judged.
    """
    if depth is not None and (isinstance(depth, bool) or not 1 <= int(depth) <= 100_000):
        raise InvalidValue("the pool depth must be a whole number from 1 to 100000, "
                           "not {depth!r}.", depth=depth)
    names = None if runs is None else sorted({str(r) for r in runs})
    with store.operation("set_pool", "") as op:
        if names is not None:
            if not names:
                raise InvalidValue("choose at least one run for the pool (or every run).")
            for name in names:
                if not op.select("runs", name=name):
                    raise NotFound("no run named '{name}' in this gold set.", name=name)
        op.label = (f"{'all runs' if names is None else ', '.join(names)} · "
                    f"{'all depths' if depth is None else f'top {int(depth)}'}")
        for key, value in (("pool_runs", "" if names is None else json.dumps(names)),
                           ("pool_depth", "" if depth is None else str(int(depth)))):
            existing = op.get("meta", {"key": key})
            if existing is None:
                if value:
                    op.insert("meta", {"key": key, "value": value})
            elif existing["value"] != value:
                op.update("meta", {"key": key}, {"value": value})
    return op.changes()


def set_graded_scale(store: Store, max_grade: int) -> Changes:
    """Choose binary (1) or graded (2, 3) relevance; locked once a judgment has a grade."""
    if max_grade not in range(1, MAX_GRADE + 1):
        raise InvalidValue("the grading scale goes up to 1 (binary) or a grade from 2 to "
                           "{max_grade}.", max_grade=MAX_GRADE)
    with store.operation("set_graded_scale", f"0–{max_grade}") as op:
        if _max_grade(op) != max_grade and _has_graded(op):
            raise Conflict("the grading scale is locked: judgments already exist. Change it "
                           "before judging starts.")
        op.update("meta", {"key": "max_grade"}, {"value": str(max_grade)})
    return op.changes()


def _has_graded(op: Writer) -> bool:
    return any(r["grade"] is not None for r in op.select("judgments"))


# -- labels ----------------------------------------------------------------------------
def set_judgment(store: Store, case_id: int, document_id: int, grade: int | None,
                 note: str | None = None, seconds: float | None = None) -> Changes:
    """Record this session's assessor's label for a (case, document) pair.

    ``grade`` None means back to unjudged (the row stays, so the note and the fact that the
    pair is in the pool survive); 0 is not relevant; 1.. relevant, up to the gold set's scale.
    ``seconds``: the active time the pair was on screen before the key (None: not measured,
    a time recorded before is kept).
    """
    seconds = check_seconds(seconds)
    with store.operation("set_judgment", "") as op:
        case = require_row(op, "cases", case_id)
        doc = require_row(op, "documents", document_id)
        grade = v.check_grade(grade, _max_grade(op))
        op.label = f"{case['key']} · {doc['key']} → {Label.of_grade(grade).value}"
        # Look the assessor up without adding it: a no-op must leave no row and no history.
        found = op.select("assessors", name=v.check_key("assessor", store.assessor))
        existing = op.select("judgments", None, case_id=case_id, document_id=document_id,
                             assessor_id=found[0]["id"]) if found else []
        values: dict[str, Any] = {"grade": grade}
        if note is not None:
            values["note"] = v.check_text("note", note)
        if seconds is not None:
            values["seconds"] = seconds
        if existing:
            if any(existing[0][k] != val for k, val in values.items()):
                op.update("judgments", {"id": existing[0]["id"]},
                          {**values, "updated_at": utc_now()})
        elif grade is not None or values.get("note"):
            assessor_id = found[0]["id"] if found else ensure_assessor(op, store.assessor)
            key = {"case_id": case_id, "document_id": document_id, "assessor_id": assessor_id}
            op.insert("judgments", {**key, **values, "updated_at": utc_now()})
    return op.changes()


def set_adjudication(store: Store, case_id: int, document_id: int, grade: int | None,
                     note: str | None = None) -> Changes:
    """Settle a pair: the adjudicator's (this session's assessor's) grade becomes its
    effective label, whatever the assessors said.  ``grade`` None removes the adjudication,
    so the assessors' labels (or their dispute) count again.
    """
    with store.operation("set_adjudication", "") as op:
        case = require_row(op, "cases", case_id)
        doc = require_row(op, "documents", document_id)
        grade = v.check_grade(grade, _max_grade(op))
        label = "removed" if grade is None else Label.of_grade(grade).value
        op.label = f"{case['key']} · {doc['key']} → {label}"
        existing = op.select("adjudications", case_id=case_id, document_id=document_id)
        values: dict[str, Any] = {"grade": grade}
        if note is not None:
            values["note"] = v.check_text("note", note)
        if grade is None:
            if existing:
                op.delete("adjudications", {"id": existing[0]["id"]})
        elif existing:
            if any(existing[0][k] != val for k, val in values.items()):
                op.update("adjudications", {"id": existing[0]["id"]}, {
                    **values, "assessor_id": ensure_assessor(op, store.assessor),
                    "updated_at": utc_now()})
        else:
            op.insert("adjudications", {"case_id": case_id, "document_id": document_id,
                                        "note": "", **values,
                                        "assessor_id": ensure_assessor(op, store.assessor),
                                        "updated_at": utc_now()})
    return op.changes()
