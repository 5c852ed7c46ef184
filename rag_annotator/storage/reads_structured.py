"""Store reads for output contracts and structured answers.

:meth:`StructuredReads.output_contract` gives a case's contract as a domain value (the case
editor, the exports); :meth:`StructuredReads.structured_answer` what the Verify section shows
for one answer; :meth:`StructuredReads.structured_inputs` what the metrics need for one run,
in two queries whatever the number of answers.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from rag_annotator.messages import Message
from rag_annotator.storage.reads import ReadBase, Row

if TYPE_CHECKING:
    from rag_annotator.domain.structured import Contract

_FIELDS_SQL = ("SELECT f.*, d.key AS document_key FROM decisive_fields f "
               "LEFT JOIN documents d ON d.id = f.document_id WHERE f.contract_id = ? "
               "ORDER BY f.position")


class StructuredReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    def output_contract(self, case_id: int) -> Contract | None:
        """The case's output contract (None when it has none)."""
        row = self._one("SELECT * FROM output_contracts WHERE case_id = ?", (case_id,))
        if row is None:
            return None
        # imported here: every store has these reads, and the domain's contract modules
        # cost ~10 ms at start-up, which opening a file never needs (issue 19)
        from rag_annotator.domain.structured_ops import contract_from_rows

        fields = self._many(_FIELDS_SQL, (row["id"],))
        return contract_from_rows(row, fields, {f["document_id"]: f["document_key"]
                                                for f in fields if f["document_id"]})

    def contract_case_ids(self) -> set[int]:
        """The cases that have an output contract."""
        return {int(r["case_id"]) for r in self._many("SELECT case_id FROM output_contracts")}

    def structured_answer(self, answer_id: int) -> Row | None:
        """What the Verify section shows of one answer of a case with a contract (None when
        the case has none): ``text``, ``check`` (parsed, schema_valid, reason; None before
        any check), ``schema``, ``retrieved`` (document keys), and ``fields``: each decisive
        field (pointer, reference, comparison, tolerance, document_key, passage, spans) with
        its outcome row (``outcome_id``, outcome, found, detail, review, review_reason,
        ``reviewer``; None outcome when not checked yet)."""
        answer = self._one("SELECT a.id, a.text, a.run_id, a.case_id, o.id AS contract_id, "
                           "o.json_schema FROM answers a JOIN output_contracts o "
                           "ON o.case_id = a.case_id WHERE a.id = ?", (answer_id,))
        if answer is None:
            return None
        check = self._one("SELECT parsed, schema_valid, reason FROM structured_checks "
                          "WHERE answer_id = ?", (answer_id,))
        fields = self._many(
            "SELECT f.*, d.key AS document_key, o.id AS outcome_id, o.outcome, o.found, "
            "o.detail, o.review, o.review_reason, s.name AS reviewer FROM decisive_fields f "
            "LEFT JOIN documents d ON d.id = f.document_id "
            "LEFT JOIN field_outcomes o ON o.field_id = f.id AND o.answer_id = ? "
            "LEFT JOIN assessors s ON s.id = o.assessor_id "
            "WHERE f.contract_id = ? ORDER BY f.position", (answer_id, answer["contract_id"]))
        for f in fields:
            f["reference"] = json.loads(f["reference"])
        retrieved = [r["key"] for r in self._many(
            "SELECT d.key FROM retrieved r JOIN documents d ON d.id = r.document_id "
            "WHERE r.run_id = ? AND r.case_id = ? ORDER BY r.rank",
            (answer["run_id"], answer["case_id"]))]
        return {"id": answer_id, "text": answer["text"], "check": check,
                "schema": json.loads(answer["json_schema"]), "fields": fields,
                "retrieved": retrieved}

    def structured_inputs(self, run: str) -> list[Row]:
        """For every answer of ``run`` whose case (not retired) has a contract: ``case_key``,
        ``family``, ``parsed``, ``schema_valid`` (None: never checked), and ``fields``: a
        list of (pointer, outcome, review) in the contract's order — outcome None when the
        answer was never checked."""
        answers = self._many(
            "SELECT a.id, c.key AS case_key, c.family, s.parsed, s.schema_valid, "
            "o.id AS contract_id FROM answers a JOIN runs r ON r.id = a.run_id "
            "JOIN cases c ON c.id = a.case_id JOIN output_contracts o ON o.case_id = c.id "
            "LEFT JOIN structured_checks s ON s.answer_id = a.id "
            "WHERE r.name = ? AND c.status != 'retired' ORDER BY c.key", (run,))
        if not answers:
            return []
        outcomes: dict[int, dict[int, tuple[str, str | None]]] = {}
        for row in self._conn.execute(
                "SELECT o.answer_id, o.field_id, o.outcome, o.review FROM field_outcomes o "
                "JOIN answers a ON a.id = o.answer_id JOIN runs r ON r.id = a.run_id "
                "WHERE r.name = ?", (run,)):
            outcomes.setdefault(row[0], {})[row[1]] = (row[2], row[3])
        by_contract: dict[int, list[tuple[int, str]]] = {}
        for row in self._conn.execute(
                "SELECT f.contract_id, f.id, f.pointer FROM decisive_fields f "
                "ORDER BY f.contract_id, f.position"):
            by_contract.setdefault(row[0], []).append((row[1], row[2]))
        result: list[Row] = []
        for a in answers:
            mine = outcomes.get(a["id"], {})
            fields: list[tuple[str, Any, Any]] = []
            for field_id, pointer in by_contract.get(a["contract_id"], []):
                outcome, review = mine.get(field_id, (None, None))
                fields.append((pointer, outcome, review))
            result.append({**a, "fields": fields})
        return result

    # -- exports (native JSON) --------------------------------------------------------------
    def export_output_contracts(self) -> list[Row]:
        """Every contract as ``{"case", "schema", "note", "fields"}`` (case key order)."""
        from rag_annotator.domain.structured import contract_to_json

        out = []
        for row in self._many("SELECT o.case_id, c.key FROM output_contracts o "
                              "JOIN cases c ON c.id = o.case_id ORDER BY c.key"):
            contract = self.output_contract(int(row["case_id"]))
            if contract is not None:
                out.append({"case": row["key"], **contract_to_json(contract)})
        return out

    def export_structured_checks(self) -> list[Row]:
        """Every answer's check (run name, case key order)."""
        return self._many(
            "SELECT r.name AS run, c.key AS \"case\", s.parsed, s.schema_valid, s.reason "
            "FROM structured_checks s JOIN answers a ON a.id = s.answer_id "
            "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
            "ORDER BY r.name, c.key")

    def export_field_outcomes(self) -> list[Row]:
        """Every field outcome with its review (run name, case key, field position)."""
        rows = self._many(
            "SELECT r.name AS run, c.key AS \"case\", f.pointer, o.outcome, o.found, o.detail, "
            "o.review, o.review_reason, s.name AS reviewer, o.reviewed_at "
            "FROM field_outcomes o JOIN answers a ON a.id = o.answer_id "
            "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
            "JOIN decisive_fields f ON f.id = o.field_id "
            "LEFT JOIN assessors s ON s.id = o.assessor_id ORDER BY r.name, c.key, f.position")
        return rows


def structured_problems(conn: sqlite3.Connection) -> list[str]:
    """What ``check`` reports about contracts and field outcomes that SQLite cannot express:
    a schema or reference that is not JSON (or not a usable JSON Schema 2020-12), a pointer
    that is not RFC 6901, a passage beyond its document, an outcome of a field that belongs
    to another case's contract."""
    from rag_annotator.domain.structured import pointer_tokens, schema_problem
    from rag_annotator.errors import InvalidValue

    problems: list[str] = []
    for key, schema in conn.execute("SELECT c.key, o.json_schema FROM output_contracts o "
                                    "JOIN cases c ON c.id = o.case_id"):
        try:
            problem = schema_problem(json.loads(schema))
        except ValueError:
            problem = Message("the output schema is not JSON")
        if problem is not None:
            problems.append(Message("case {key}: {problem}", key=key, problem=problem))
    for key, pointer, reference, end, length, doc in conn.execute(
            "SELECT c.key, f.pointer, f.reference, f.span_end, length(d.text), d.key "
            "FROM decisive_fields f JOIN output_contracts o ON o.id = f.contract_id "
            "JOIN cases c ON c.id = o.case_id LEFT JOIN documents d ON d.id = f.document_id"):
        try:
            pointer_tokens(pointer)
        except InvalidValue as error:
            problems.append(Message("case {key}: decisive field {pointer}: {error}",
                                    key=key, pointer=pointer, error=error))
        if not json_valid(reference):
            problems.append(Message(
                            "case {key}: decisive field {pointer}: the reference is not JSON",
                            key=key, pointer=pointer))
        if end is not None and length is not None and end > length:
            problems.append(Message("case {key}: decisive field {pointer}: passage ends at {end}, "
                                    "beyond document {doc} ({length} characters)",
                                    key=key, pointer=pointer, end=end, doc=doc, length=length))
    for (outcome_id,) in conn.execute(
            "SELECT o.id FROM field_outcomes o JOIN answers a ON a.id = o.answer_id "
            "JOIN decisive_fields f ON f.id = o.field_id JOIN output_contracts c "
            "ON c.id = f.contract_id WHERE c.case_id != a.case_id"):
        problems.append(Message("field outcome {outcome_id}: its field belongs to another case's "
                                "contract", outcome_id=outcome_id))
    return problems


def json_valid(text: str) -> bool:
    """Is ``text`` one JSON value?"""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
