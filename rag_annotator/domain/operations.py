"""Named domain operations: the only way the UI and the CLI change a gold set.

Each function validates its input, runs as one operation of the store (one transaction, with
its history rows) and returns the :class:`Changes` it made.  They take the store through the
:class:`~rag_annotator.domain.ports.Store` protocol, so this module knows no SQL and no Qt.
The ``action`` codes name operations in the history; their English titles are in the one
registry, :mod:`rag_annotator.domain.action_names`.

Judging (labels, adjudications, the pool, the grading scale) has its own module,
``judging_ops``; claims and reviews are partly in ``verify_ops``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.domain.releases import check_editable
from rag_annotator.errors import Conflict, InvalidValue, NotFound


# -- helpers -------------------------------------------------------------------------------
def require_row(op: Writer, table: str, row_id: int) -> dict[str, Any]:
    row = op.get(table, {"id": row_id})
    if row is None:
        raise NotFound("no {replace} with id {row_id}; it may have "
                       "been deleted.", replace=table[:-1].replace('_', ' '), row_id=row_id)
    return row


def ensure_assessor(op: Writer, name: str) -> int:
    """The id of the named assessor, added on first use."""
    name = v.check_key("assessor", name)
    found = op.select("assessors", name=name)
    if found:
        return int(found[0]["id"])
    return int(op.insert("assessors", {"name": name, "created_at": utc_now()})["id"])


# -- gold-set settings ----------------------------------------------------------------------
def set_meta(store: Store, key: str, value: str) -> Changes:
    """Set a gold-set setting: its ``name`` or its judging ``guidelines`` (markdown)."""
    if key not in ("name", "guidelines"):
        raise InvalidValue("'{key}' is not an editable gold-set setting (name, guidelines).",
                           key=key)
    text = v.check_text(key, value)
    with store.operation("set_meta", key) as op:
        if op.get("meta", {"key": key}) is None:
            op.insert("meta", {"key": key, "value": text})
        else:
            op.update("meta", {"key": key}, {"value": text})
    return op.changes()


# -- cases --------------------------------------------------------------------------------
def create_case(store: Store, **fields: Any) -> Changes:
    """Add a case; ``key`` is required and unique, other fields default sensibly."""
    if "key" not in fields:
        raise InvalidValue("a case needs a key (e.g. Q42).")
    columns = v.case_columns(fields)
    with store.operation("create_case", columns["key"]) as op:
        if op.select("cases", key=columns["key"]):
            raise Conflict("a case with key '{columns}' already exists; choose "
                           "another key.", columns=columns['key'])
        now = utc_now()
        columns.setdefault("author", store.assessor)
        op.insert("cases", {**columns, "created_at": now, "updated_at": now})
    return op.changes()


def edit_case(store: Store, case_id: int, **fields: Any) -> Changes:
    """Change fields of a case (any of DESIGN's case fields)."""
    columns = v.case_columns(fields)
    with store.operation("edit_case", "") as op:
        case = require_row(op, "cases", case_id)
        op.label = case["key"]
        check_editable(op, case)  # approved in a frozen release: read-only
        if "key" in columns and columns["key"] != case["key"] and op.select(
                "cases", key=columns["key"]):
            raise Conflict("a case with key '{columns}' already exists.", columns=columns['key'])
        if op.update("cases", {"id": case_id}, columns) is not None:
            op.update("cases", {"id": case_id}, {"updated_at": utc_now()})
    return op.changes()


def delete_case(store: Store, case_id: int) -> Changes:
    """Delete a case with everything attached to it (all recorded, so undo restores it)."""
    with store.operation("delete_case", "") as op:
        case = require_row(op, "cases", case_id)
        op.label = case["key"]
        check_editable(op, case)  # approved in a frozen release: read-only
        for answer in op.select("answers", case_id=case_id):
            _delete_answer(op, answer["id"])
        for table in ("answer_reviews", "retrieved", "judgments", "adjudications",
                      "expected_sources", "case_reviews", "control_judgments",
                      "cannot_judge"):
            op.delete_where(table, case_id=case_id)
        _delete_trajectories(op, case_id=case_id)
        for contract in op.select("output_contracts", case_id=case_id):
            op.delete_where("decisive_fields", contract_id=contract["id"])
            op.delete("output_contracts", {"id": contract["id"]})
        for review in op.select("case_reviews", near_duplicate_of=case_id):
            op.update("case_reviews", {"id": review["id"]}, {"near_duplicate_of": None})
        op.delete("cases", {"id": case_id})
    return op.changes()


def add_expected_source(store: Store, case_id: int, document_id: int,
                        span: tuple[int, int] | None = None, note: str = "") -> Changes:
    """Name a document (optionally a character span of it) as an expected source."""
    with store.operation("add_expected_source", "") as op:
        case = require_row(op, "cases", case_id)
        doc = require_row(op, "documents", document_id)
        op.label = f"{case['key']} · {doc['key']}"
        check_editable(op, case)  # approved in a frozen release: read-only
        start, end = (None, None) if span is None else span
        if span is not None and not 0 <= span[0] <= span[1] <= len(doc["text"]):
            raise InvalidValue("the passage {span}–{span2} is outside document "
                               "{doc} ({n_doc} characters).",
                               span=span[0], span2=span[1], doc=doc['key'], n_doc=len(doc['text']))
        op.insert("expected_sources", {"case_id": case_id, "document_id": document_id,
                                       "span_start": start, "span_end": end,
                                       "note": v.check_text("note", note)})
    return op.changes()


def remove_expected_source(store: Store, source_id: int) -> Changes:
    """Remove one expected source of a case."""
    with store.operation("remove_expected_source", str(source_id)) as op:
        source = require_row(op, "expected_sources", source_id)
        check_editable(op, require_row(op, "cases", source["case_id"]))  # frozen release: read-only
        op.delete("expected_sources", {"id": source_id})
    return op.changes()


def set_expected_source_note(store: Store, source_id: int, note: str) -> Changes:
    """Write the note of an expected source (why this document, the conflict it shows…)."""
    with store.operation("set_expected_source_note", "") as op:
        source = require_row(op, "expected_sources", source_id)
        case = require_row(op, "cases", source["case_id"])
        doc = require_row(op, "documents", source["document_id"])
        op.label = f"{case['key']} · {doc['key']}"
        check_editable(op, case)  # approved in a frozen release: read-only
        op.update("expected_sources", {"id": source_id},
                  {"note": v.check_text("note", note.strip())})
    return op.changes()


# -- documents ----------------------------------------------------------------------------
def create_document(store: Store, **fields: Any) -> Changes:
    """Add a document to the corpus registry; ``key`` is required and unique."""
    if "key" not in fields:
        raise InvalidValue("a document needs a key (its identifier in the corpus).")
    fields.setdefault("text", "")
    columns = v.document_columns(fields)
    with store.operation("create_document", columns["key"]) as op:
        if op.select("documents", key=columns["key"]):
            raise Conflict("a document with key '{columns}' already exists.",
                           columns=columns['key'])
        _check_document_links(op, columns, None)
        now = utc_now()
        op.insert("documents", {**columns, "created_at": now, "updated_at": now})
    return op.changes()


def edit_document(store: Store, document_id: int, **fields: Any) -> Changes:
    """Change a document's text or metadata (the content hash follows the text)."""
    columns = v.document_columns(fields)
    with store.operation("edit_document", "") as op:
        doc = require_row(op, "documents", document_id)
        op.label = doc["key"]
        if columns.get("supersedes_id") == document_id:
            raise InvalidValue("a document cannot supersede itself.")
        if "key" in columns and columns["key"] != doc["key"] and op.select(
                "documents", key=columns["key"]):
            raise Conflict("a document with key '{columns}' already exists.",
                           columns=columns['key'])
        _check_document_links(op, columns, document_id)
        if op.update("documents", {"id": document_id}, columns) is not None:
            op.update("documents", {"id": document_id}, {"updated_at": utc_now()})
    return op.changes()


def _check_document_links(op: Writer, columns: Mapping[str, Any],
                          document_id: int | None) -> None:
    """Linked documents must exist, and supersession must not loop (``check`` flags it)."""
    for column in ("supersedes_id", "parent_id"):
        if columns.get(column) is not None:
            require_row(op, "documents", columns[column])
    seen: set[int] = set()
    target = columns.get("supersedes_id")
    while document_id is not None and target is not None and target not in seen:
        if target == document_id:
            raise InvalidValue("this would make a cycle of versions (the document would "
                               "supersede itself through others).")
        seen.add(target)
        row = op.get("documents", {"id": target})
        target = row["supersedes_id"] if row else None


def delete_document(store: Store, document_id: int) -> Changes:
    """Delete a document and what refers to it (retrieved rows, judgments, evidence…)."""
    with store.operation("delete_document", "") as op:
        doc = require_row(op, "documents", document_id)
        op.label = doc["key"]
        for table in ("retrieved", "judgments", "adjudications", "expected_sources",
                      "evidence", "citations", "control_judgments",
                      "cannot_judge"):
            op.delete_where(table, document_id=document_id)
        for other in op.select("documents", supersedes_id=document_id):
            op.update("documents", {"id": other["id"]}, {"supersedes_id": None})
        for other in op.select("documents", parent_id=document_id):
            op.update("documents", {"id": other["id"]}, {"parent_id": None})
        for field in op.select("decisive_fields", document_id=document_id):
            op.update("decisive_fields", {"id": field["id"]}, {"document_id": None})
        op.delete("documents", {"id": document_id})
    return op.changes()


# -- runs ---------------------------------------------------------------------------------
def create_run(store: Store, **fields: Any) -> Changes:
    """Register a run (a RAG configuration) with its version notes."""
    if "name" not in fields:
        raise InvalidValue("a run needs a name.")
    columns = v.run_columns(fields)
    with store.operation("create_run", columns["name"]) as op:
        if op.select("runs", name=columns["name"]):
            raise Conflict("a run named '{columns}' already exists.", columns=columns['name'])
        op.insert("runs", {**columns, "created_at": utc_now()})
    return op.changes()


def edit_run(store: Store, run_id: int, **fields: Any) -> Changes:
    """Rename a run or change its version notes."""
    columns = v.run_columns(fields)
    with store.operation("edit_run", "") as op:
        run = require_row(op, "runs", run_id)
        op.label = run["name"]
        if "name" in columns and columns["name"] != run["name"] and op.select(
                "runs", name=columns["name"]):
            raise Conflict("a run named '{columns}' already exists.", columns=columns['name'])
        op.update("runs", {"id": run_id}, columns)
    return op.changes()


def delete_run(store: Store, run_id: int) -> Changes:
    """Delete a run with its retrieved lists, answers, claims, trajectories and reviews."""
    with store.operation("delete_run", "") as op:
        run = require_row(op, "runs", run_id)
        op.label = run["name"]
        for answer in op.select("answers", run_id=run_id):
            _delete_answer(op, answer["id"])
        op.delete_where("answer_reviews", run_id=run_id)
        op.delete_where("retrieved", run_id=run_id)
        _delete_trajectories(op, run_id=run_id)
        op.delete("runs", {"id": run_id})
    return op.changes()


def _delete_trajectories(op: Writer, **where: Any) -> None:
    """Inside an operation: delete the trajectories matching ``where`` (``run_id=`` or
    ``case_id=``) with their steps and reviews, every row recorded for undo."""
    for trajectory in op.select("trajectories", **where):
        op.delete_where("trajectory_steps", trajectory_id=trajectory["id"])
        op.delete_where("trajectory_reviews", trajectory_id=trajectory["id"])
        op.delete("trajectories", {"id": trajectory["id"]})


def _delete_answer(op: Writer, answer_id: int) -> None:
    for claim in op.select("claims", answer_id=answer_id):
        op.delete_where("evidence", claim_id=claim["id"])
        op.delete_where("judge_verdicts", claim_id=claim["id"])
        op.delete("claims", {"id": claim["id"]})
    op.delete_where("citations", answer_id=answer_id)
    op.delete_where("field_outcomes", answer_id=answer_id)
    op.delete_where("structured_checks", answer_id=answer_id)
    op.delete("answers", {"id": answer_id})


# -- claims, citations, reviews -------------------------------------------------------------
def set_claim_verdict(store: Store, claim_id: int, verdict: str | None,
                      rationale: str | None = None) -> Changes:
    """Set a claim's verdict (None = back to unverified) and, optionally, its rationale."""
    checked = v.check_verdict(verdict)
    with store.operation("set_claim_verdict", "") as op:
        claim = require_row(op, "claims", claim_id)
        op.label = f"#{claim_id} → {checked or 'unverified'}"
        values: dict[str, Any] = {"verdict": checked}
        if rationale is not None:
            values["rationale"] = v.check_text("rationale", rationale)
        if any(claim[k] != val for k, val in values.items()):
            values["assessor_id"] = ensure_assessor(op, store.assessor)
            values["updated_at"] = utc_now()
            op.update("claims", {"id": claim_id}, values)
    return op.changes()


def add_claim(store: Store, answer_id: int, text: str,
              span: tuple[int, int] | None = None, position: int | None = None) -> Changes:
    """Add a claim to an answer (at the end unless a position is given)."""
    text = v.check_text("claim", text) or ""
    if not text.strip():
        raise InvalidValue("a claim needs some text.")
    with store.operation("add_claim", "") as op:
        answer = require_row(op, "answers", answer_id)
        op.label = f"answer #{answer_id}"
        claims = op.select("claims", answer_id=answer_id, order_by="position")
        if position is None:
            position = (claims[-1]["position"] + 1) if claims else 1
        else:
            for claim in reversed(claims):
                if claim["position"] >= position:
                    op.update("claims", {"id": claim["id"]}, {"position": claim["position"] + 1})
        start, end = (None, None) if span is None else span
        if span is not None and not 0 <= span[0] <= span[1] <= len(answer["text"]):
            raise InvalidValue("the claim's span lies outside its answer.")
        op.insert("claims", {"answer_id": answer_id, "position": position, "text": text,
                             "span_start": start, "span_end": end})
    return op.changes()


def edit_claim(store: Store, claim_id: int, text: str) -> Changes:
    """Reword a claim (its verdict stays; re-verify if the meaning changed)."""
    text = v.check_text("claim", text) or ""
    if not text.strip():
        raise InvalidValue("a claim needs some text; delete it instead.")
    with store.operation("edit_claim", f"#{claim_id}") as op:
        require_row(op, "claims", claim_id)
        op.update("claims", {"id": claim_id}, {"text": text})
    return op.changes()


def delete_claim(store: Store, claim_id: int) -> Changes:
    """Delete a claim and its evidence."""
    with store.operation("delete_claim", f"#{claim_id}") as op:
        require_row(op, "claims", claim_id)
        op.delete_where("evidence", claim_id=claim_id)
        op.delete_where("judge_verdicts", claim_id=claim_id)
        op.delete("claims", {"id": claim_id})
    return op.changes()


def set_citation_support(store: Store, citation_id: int, support: str | None) -> Changes:
    """Record whether a cited passage supports what it is attached to (yes/partly/no)."""
    checked = v.check_support(support)
    with store.operation("set_citation_support", f"#{citation_id} → {checked}") as op:
        require_row(op, "citations", citation_id)
        op.update("citations", {"id": citation_id}, {"support": checked})
    return op.changes()


def set_answer_review(store: Store, run_id: int, case_id: int,
                      **fields: Any) -> Changes:
    """Record the review of a run's answer to a case (outcome, validated, failures…)."""
    columns = _review_columns(fields)
    with store.operation("set_answer_review", "") as op:
        run = require_row(op, "runs", run_id)
        case = require_row(op, "cases", case_id)
        op.label = f"{run['name']} · {case['key']}"
        assessor_id = ensure_assessor(op, store.assessor)
        existing = op.select("answer_reviews", run_id=run_id, case_id=case_id)
        if existing:
            if op.update("answer_reviews", {"id": existing[0]["id"]}, columns) is not None:
                op.update("answer_reviews", {"id": existing[0]["id"]},
                          {"updated_at": utc_now(), "assessor_id": assessor_id})
        else:
            op.insert("answer_reviews", {"run_id": run_id, "case_id": case_id,
                                         "assessor_id": assessor_id, **columns,
                                         "updated_at": utc_now()})
    return op.changes()


def _review_columns(fields: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "outcome":
            out[name] = v.check_outcome(value)
        elif name in ("validated", "forbidden_present"):
            if value not in (None, True, False, 0, 1):
                raise InvalidValue("{name}: expected yes, no or nothing.", name=name)
            out[name] = None if value is None else int(value)
        elif name == "failure_categories":
            out[name] = v.check_failures(list(value))
        elif name == "must_contain_found":
            if not all(x in (None, True, False) for x in value):
                raise InvalidValue("must_contain_found: expected yes, no or nothing per point.")
            out[name] = json.dumps(list(value))
        elif name == "note":
            out[name] = v.check_text(name, value)
        else:
            raise InvalidValue("answer reviews have no field '{name}'.", name=name)
    return out
