"""Operations on output contracts and structured answers: set a case's contract, check the
answers (on run import and on demand), confirm or overrule a field outcome.

Each is one transaction recorded in the history (undoable) and returns its :class:`Changes`.
What the checks mean is in :mod:`rag_annotator.domain.structured`.

A check run again keeps a field's review when its outcome did not change, and drops it when
the outcome did (the reviewer confirmed or overruled something else).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rag_annotator.domain import operations
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Row, Store, Writer
from rag_annotator.domain.releases import check_editable
from rag_annotator.domain.structured import (
    AnswerResult,
    CompiledContract,
    Contract,
    DecisiveField,
    Retrieved,
    check_contract,
)
from rag_annotator.errors import InvalidValue, NotFound
from rag_annotator.gc_pause import bulk_objects
from rag_annotator.messages import Message

_FIELD_COLUMNS = ("position", "pointer", "reference", "comparison", "tolerance",
                  "document_id", "passage", "span_start", "span_end")


# -- reading contracts inside an operation ----------------------------------------------------
def contract_from_rows(contract: Mapping[str, Any], fields: Sequence[Mapping[str, Any]],
                       document_keys: Mapping[int, str]) -> Contract:
    """A stored contract (its row and its field rows, ordered) as a domain value."""
    return Contract(json.loads(contract["json_schema"]), tuple(
        DecisiveField(
            pointer=f["pointer"], reference=json.loads(f["reference"]),
            comparison=f["comparison"], tolerance=f["tolerance"],
            document=None if f["document_id"] is None else document_keys[f["document_id"]],
            passage=f["passage"],
            span=None if f["span_start"] is None else (int(f["span_start"]),
                                                       int(f["span_end"])))
        for f in fields), contract["note"])


def _loaded(op: Writer, case_id: int) -> tuple[CompiledContract, list[int]] | None:
    """The case's contract ready to check, and its field ids in order (None: no contract)."""
    found = op.select("output_contracts", case_id=case_id)
    if not found:
        return None
    fields = op.select("decisive_fields", order_by="position", contract_id=found[0]["id"])
    keys = {}
    for f in fields:
        if f["document_id"] is not None:
            doc = op.get("documents", {"id": f["document_id"]})
            keys[f["document_id"]] = doc["key"] if doc else "?"
    return (CompiledContract(contract_from_rows(found[0], fields, keys)),
            [int(f["id"]) for f in fields])


def _retrieved(op: Writer, run_id: int, case_id: int, texts: dict[int, tuple[str, str]]
               ) -> Retrieved:
    """What the run retrieved for the case (``texts`` caches documents by id)."""
    items = []
    for row in op.select("retrieved", order_by="rank", run_id=run_id, case_id=case_id):
        doc_id = int(row["document_id"])
        if doc_id not in texts:
            doc = op.get("documents", {"id": doc_id})
            texts[doc_id] = (doc["key"], doc["text"]) if doc else ("?", "")
        items.append(texts[doc_id])
    return Retrieved(items)


# -- checking ------------------------------------------------------------------------------
def check_answers_in(op: Writer, answers: Iterable[Row], *, fresh: bool = False,
                     checkpoint: Callable[[], None] | None = None) -> int:
    """Inside an operation: check every answer (rows of ``answers``) whose case has a
    contract; write its check and field outcomes.  ``fresh``: the answers were just
    inserted (no earlier check), so rows go in by batch.  Returns how many were checked."""
    with bulk_objects():  # 20 outcome rows per answer stay alive until the batch insert
        return _check_answers(op, answers, fresh, checkpoint)


def _check_answers(op: Writer, answers: Iterable[Row], fresh: bool,
                   checkpoint: Callable[[], None] | None) -> int:
    contracts: dict[int, tuple[CompiledContract, list[int]] | None] = {}
    texts: dict[int, tuple[str, str]] = {}
    checks: list[tuple[Any, ...]] = []
    outcomes: list[tuple[Any, ...]] = []
    done = 0
    for n, answer in enumerate(answers):
        if checkpoint is not None and n % 1000 == 0:
            checkpoint()
        case_id = int(answer["case_id"])
        if case_id not in contracts:
            contracts[case_id] = _loaded(op, case_id)
        loaded = contracts[case_id]
        if loaded is None:
            continue
        compiled, field_ids = loaded
        result = compiled.check(answer["text"],
                                _retrieved(op, int(answer["run_id"]), case_id, texts))
        done += 1
        if fresh:
            checks.append((answer["id"], int(result.parsed), _flag(result.schema_valid),
                           result.reason))
            outcomes.extend((answer["id"], field_id, r.outcome, r.found, r.detail)
                            for field_id, r in zip(field_ids, result.fields))
        else:
            _write_check(op, int(answer["id"]), result, field_ids)
    if checks:
        op.insert_rows("structured_checks", ("answer_id", "parsed", "schema_valid", "reason"),
                       checks)
        op.insert_rows("field_outcomes", ("answer_id", "field_id", "outcome", "found",
                                          "detail"), outcomes)
    return done


def _flag(value: bool | None) -> int | None:
    return None if value is None else int(value)


def _write_check(op: Writer, answer_id: int, result: AnswerResult,
                 field_ids: list[int]) -> None:
    """Write one answer's check over an earlier one (reviews kept where the outcome is)."""
    values = {"parsed": int(result.parsed), "schema_valid": _flag(result.schema_valid),
              "reason": result.reason}
    existing = op.get("structured_checks", {"answer_id": answer_id})
    if existing is None:
        op.insert("structured_checks", {"answer_id": answer_id, **values})
    else:
        op.update("structured_checks", {"id": existing["id"]}, values)
    before = {int(r["field_id"]): r for r in op.select("field_outcomes", answer_id=answer_id)}
    for field_id, r in zip(field_ids, result.fields):
        row = {"outcome": r.outcome, "found": r.found, "detail": r.detail}
        old = before.pop(field_id, None)
        if old is None:
            op.insert("field_outcomes", {"answer_id": answer_id, "field_id": field_id, **row})
            continue
        if old["outcome"] != r.outcome and old["review"] is not None:
            row.update(review=None, review_reason="", assessor_id=None, reviewed_at=None)
        op.update("field_outcomes", {"id": old["id"]}, row)
    for old in before.values():  # a field no longer in the contract
        op.delete("field_outcomes", {"id": old["id"]})


def _clear_checks(op: Writer, case_id: int) -> None:
    for answer in op.select("answers", case_id=case_id):
        op.delete_where("field_outcomes", answer_id=answer["id"])
        op.delete_where("structured_checks", answer_id=answer["id"])


def check_structured(store: Store, *, run_id: int | None = None,
                     case_id: int | None = None) -> Changes:
    """Check again the structured answers (of one run, one case, or all) — on demand."""
    with store.operation("check_structured", "") as op:
        where: dict[str, Any] = {}
        if run_id is not None:
            run = operations.require_row(op, "runs", run_id)
            where["run_id"] = run_id
            op.label = run["name"]
        if case_id is not None:
            case = operations.require_row(op, "cases", case_id)
            where["case_id"] = case_id
            op.label = (op.label + " · " if op.label else "") + case["key"]
        check_answers_in(op, op.select("answers", order_by="id", **where))
    return op.changes()


# -- contracts ---------------------------------------------------------------------------------
def set_output_contract(store: Store, case_id: int, contract: Contract | None) -> Changes:
    """Give a RAG case its output contract (None removes it), then check its answers again.

    Decisive fields are matched by pointer: a kept pointer keeps its outcomes' reviews
    (while their outcomes stay the same); a removed one takes its outcomes with it.
    """
    with store.operation("set_output_contract", "") as op:
        case = operations.require_row(op, "cases", case_id)
        op.label = case["key"]
        check_editable(op, case)  # approved in a frozen release: read-only
        write_contract_in(op, case, contract)
        if contract is not None:
            check_answers_in(op, op.select("answers", order_by="id", case_id=case_id))
    return op.changes()


def write_contract_in(op: Writer, case: Mapping[str, Any], contract: Contract | None) -> None:
    """Inside an operation: write (or remove) a case's contract and decisive fields, without
    checking its answers (the caller does, once everything is written)."""
    case_id = int(case["id"])
    found = op.select("output_contracts", case_id=case_id)
    if contract is None:
        if found:
            _clear_checks(op, case_id)
            op.delete_where("decisive_fields", contract_id=found[0]["id"])
            op.delete("output_contracts", {"id": found[0]["id"]})
        return
    if case["kind"] != "rag":
        raise InvalidValue("case {case} is an agent case; output contracts are for "
                           "RAG cases.", case=case['key'])
    check_contract(contract)
    rows = [_field_row(op, n, f) for n, f in enumerate(contract.fields, start=1)]
    values = {"json_schema": json.dumps(contract.schema, ensure_ascii=False),
              "note": contract.note.strip()}
    if found:
        contract_id = int(found[0]["id"])
        op.update("output_contracts", {"id": contract_id}, values)
    else:
        contract_id = int(op.insert("output_contracts", {"case_id": case_id, **values})["id"])
    _write_fields(op, contract_id, rows)


def _field_row(op: Writer, position: int, f: DecisiveField) -> dict[str, Any]:
    """A decisive field as its row; the document must exist and hold the passage's span."""
    where = Message("decisive field {n} ({pointer})", n=position, pointer=f.pointer)
    document_id = span = None
    passage = f.passage.strip()
    if f.document is not None:
        doc = op.select("documents", key=f.document)
        if not doc:
            raise NotFound("{where}: no document '{document}' in the corpus; add it or "
                           "fix the key.", where=where, document=f.document)
        document_id, text = int(doc[0]["id"]), str(doc[0]["text"])
        span = f.span
        if span is not None and span[1] > len(text):
            raise InvalidValue("{where}: the passage {span}–{span2} lies beyond the end "
                               "of document {document} ({n_text} characters).",
                               where=where, span=span[0], span2=span[1], document=f.document,
                               n_text=len(text))
        if span is None and passage and passage in text:
            start = text.index(passage)
            span = (start, start + len(passage))
        if span is not None and not passage:
            passage = text[span[0]:span[1]]
    elif f.span is not None:
        raise InvalidValue("{where}: offsets need the document they point into.", where=where)
    return {"position": position, "pointer": f.pointer,
            "reference": json.dumps(f.reference, ensure_ascii=False),
            "comparison": f.comparison, "tolerance": f.tolerance, "document_id": document_id,
            "passage": passage, "span_start": None if span is None else span[0],
            "span_end": None if span is None else span[1]}


def _write_fields(op: Writer, contract_id: int, rows: list[dict[str, Any]]) -> None:
    before = {r["pointer"]: r for r in op.select("decisive_fields", contract_id=contract_id)}
    for row in rows:
        old = before.pop(row["pointer"], None)
        if old is None:
            op.insert("decisive_fields", {"contract_id": contract_id, **row})
        else:
            op.update("decisive_fields", {"id": old["id"]}, row)
    for old in before.values():
        op.delete_where("field_outcomes", field_id=old["id"])
        op.delete("decisive_fields", {"id": old["id"]})


# -- reviewing ---------------------------------------------------------------------------------
def review_field_outcome(store: Store, outcome_id: int, review: str | None,
                         reason: str = "") -> Changes:
    """Confirm (``"confirmed"``) or overrule (``"overruled"``, a reason required) one field
    outcome; None clears the review.  A check that did not run cannot be overruled."""
    with store.operation("review_field_outcome", "") as op:
        row = op.get("field_outcomes", {"id": outcome_id})
        if row is None:
            raise NotFound("no field outcome with id {outcome_id}; the answer may have been "
                           "checked again or deleted.", outcome_id=outcome_id)
        field = op.get("decisive_fields", {"id": row["field_id"]})
        answer = op.get("answers", {"id": row["answer_id"]})
        case = op.get("cases", {"id": answer["case_id"]}) if answer else None
        run = op.get("runs", {"id": answer["run_id"]}) if answer else None
        op.label = (f"{case['key'] if case else '?'} · {run['name'] if run else '?'} · "
                    f"{field['pointer'] if field else '?'}")
        why = reason.strip()
        if review == "overruled":
            if row["outcome"] == "not_executed":
                raise InvalidValue("this field was not checked (the answer did not parse or "
                                   "broke the schema): there is no outcome to overrule.")
            if not why:
                raise InvalidValue("overruling a field outcome needs a reason; give it.")
        elif review not in (None, "confirmed"):
            raise InvalidValue("'{review}' is not a review; use confirmed or overruled.",
                               review=review)
        else:
            why = ""
        values: dict[str, Any] = {"review": review, "review_reason": why}
        if review is None:
            values.update(assessor_id=None, reviewed_at=None)
        if op.update("field_outcomes", {"id": outcome_id}, values) is not None \
                and review is not None:
            op.update("field_outcomes", {"id": outcome_id}, {
                "assessor_id": operations.ensure_assessor(op, store.assessor),
                "reviewed_at": utc_now()})
    return op.changes()
