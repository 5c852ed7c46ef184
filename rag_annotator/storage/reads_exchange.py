"""Store reads for what the exports and format imports read.

Every export reads entities by their natural keys (case key, document key, run name, assessor
name), never by row id, so that a file written from one gold set can be read into another.
Rows stream from a cursor: a 1,000,000-judgment export never holds its rows in a list.
Orders are fixed (keys, then id where an entity has no key of its own), which makes exports
deterministic: the same gold set gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rag_annotator.domain.validation import CASE_AGENT_FIELDS
from rag_annotator.storage.reads import ReadBase, Row


@dataclass(frozen=True)
class Scope:
    """What an export is limited to (empty tuples: everything)."""

    runs: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    assessors: tuple[str, ...] = ()
    cases: tuple[str, ...] | None = None  # case keys (a release's), None: every case

    def conditions(self) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
        """Per SQL placeholder: (column, allowed values) filters."""
        case = [("c.family", self.families)] if self.families else []
        if self.cases is not None:
            case.append(("c.key", self.cases))
        return {"case": case, "run": [("r.name", self.runs)] if self.runs else [],
                "assessor": [("s.name", self.assessors)] if self.assessors else []}


#: The agent case's columns of ``cases`` (expectations and budgets; see ``domain.agents``).
AGENT_COLUMNS = CASE_AGENT_FIELDS

#: The flat entities of the CSV and XLSX exports: name → (columns, SQL).  The SQL has the
#: placeholders ``{case}``, ``{run}`` and ``{assessor}`` for the scope filters (see
#: :meth:`ExchangeReads.entity_rows`; :meth:`Scope.conditions` says which columns).
ENTITY_SQL: dict[str, tuple[tuple[str, ...], str]] = {
    "cases": (
        ("key", "kind", "question", "variants", "reference_answer", "must_contain",
         "forbidden", "expected_behaviour", "family", "tags", "difficulty", "role", "notes",
         "status", "author", "created_at", "updated_at", *AGENT_COLUMNS, "extra"),
        "SELECT c.key, c.kind, c.question, c.variants, c.reference_answer, c.must_contain, "
        "c.forbidden, c.expected_behaviour, c.family, c.tags, c.difficulty, c.role, c.notes, "
        "c.status, c.author, c.created_at, c.updated_at, "
        + ", ".join(f"c.{name}" for name in AGENT_COLUMNS)
        + ", c.extra FROM cases c WHERE {case} ORDER BY c.key"),
    "documents": (
        ("key", "title", "text", "content_hash", "owner", "rights", "valid_from",
         "valid_until", "status", "version", "supersedes", "parent", "origin", "created_at",
         "updated_at", "extra", "kind", "pages", "headings", "file", "span_start", "span_end",
         "located", "match_score", "page_count"),
        "SELECT d.key, d.title, d.text, d.content_hash, d.owner, d.rights, d.valid_from, "
        "d.valid_until, d.status, d.version, s.key, p.key, d.origin, d.created_at, "
        "d.updated_at, d.extra, d.kind, d.pages, d.headings, f.sha256, d.span_start, "
        "d.span_end, d.located, d.match_score, coalesce(json_array_length(d.pages), 0) "
        "FROM documents d LEFT JOIN documents s ON s.id = d.supersedes_id "
        "LEFT JOIN documents p ON p.id = d.parent_id "
        "LEFT JOIN document_files f ON f.id = d.file_id ORDER BY d.key"),
    "expected_sources": (
        ("case", "document", "span_start", "span_end", "note"),
        "SELECT c.key, d.key, e.span_start, e.span_end, e.note FROM expected_sources e "
        "JOIN cases c ON c.id = e.case_id JOIN documents d ON d.id = e.document_id "
        "WHERE {case} ORDER BY c.key, e.id"),
    "runs": (
        ("name", "model", "corpus_version", "prompt_version", "index_version", "notes",
         "created_at"),
        "SELECT r.name, r.model, r.corpus_version, r.prompt_version, r.index_version, "
        "r.notes, r.created_at FROM runs r WHERE {run} ORDER BY r.name"),
    "retrieved": (
        ("run", "case", "document", "rank", "score"),
        "SELECT r.name, c.key, d.key, t.rank, t.score FROM retrieved t "
        "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
        "JOIN documents d ON d.id = t.document_id WHERE {run} AND {case} "
        "ORDER BY r.name, c.key, t.rank"),
    "answers": (
        ("run", "case", "text", "latency_ms", "cost", "tokens", "extra"),
        "SELECT r.name, c.key, a.text, a.latency_ms, a.cost, a.tokens, a.extra FROM answers a "
        "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
        "WHERE {run} AND {case} ORDER BY r.name, c.key"),
    "judgments": (
        ("case", "document", "assessor", "grade", "note", "updated_at", "seconds"),
        "SELECT c.key, d.key, s.name, j.grade, j.note, j.updated_at, j.seconds FROM judgments j "
        "JOIN cases c ON c.id = j.case_id JOIN documents d ON d.id = j.document_id "
        "JOIN assessors s ON s.id = j.assessor_id WHERE {case} AND {assessor} "
        "ORDER BY c.key, d.key, s.name"),
    "adjudications": (
        ("case", "document", "assessor", "grade", "note", "updated_at"),
        "SELECT c.key, d.key, s.name, j.grade, j.note, j.updated_at FROM adjudications j "
        "JOIN cases c ON c.id = j.case_id JOIN documents d ON d.id = j.document_id "
        "JOIN assessors s ON s.id = j.assessor_id WHERE {case} ORDER BY c.key, d.key"),
    "claims": (
        ("run", "case", "position", "text", "span_start", "span_end", "verdict",
         "rationale", "assessor", "updated_at"),
        "SELECT r.name, c.key, cl.position, cl.text, cl.span_start, cl.span_end, "
        "cl.verdict, cl.rationale, s.name, cl.updated_at FROM claims cl "
        "JOIN answers a ON a.id = cl.answer_id JOIN runs r ON r.id = a.run_id "
        "JOIN cases c ON c.id = a.case_id LEFT JOIN assessors s ON s.id = cl.assessor_id "
        "WHERE {run} AND {case} ORDER BY r.name, c.key, cl.position, cl.id"),
    "answer_reviews": (
        ("run", "case", "assessor", "outcome", "validated", "failure_categories",
         "must_contain_found", "forbidden_present", "note", "updated_at"),
        "SELECT r.name, c.key, s.name, v.outcome, v.validated, v.failure_categories, "
        "v.must_contain_found, v.forbidden_present, v.note, v.updated_at "
        "FROM answer_reviews v JOIN runs r ON r.id = v.run_id "
        "JOIN cases c ON c.id = v.case_id JOIN assessors s ON s.id = v.assessor_id "
        "WHERE {run} AND {case} AND {assessor} ORDER BY r.name, c.key"),
    "trajectories": (
        ("run", "case", "trial", "final_state", "final_answer", "tokens", "seconds", "cost",
         "reward", "extra"),
        "SELECT r.name, c.key, t.trial, t.final_state, t.final_answer, t.tokens, t.seconds, "
        "t.cost, t.reward, t.extra "
        "FROM trajectories t JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
        "WHERE {run} AND {case} ORDER BY r.name, c.key, t.trial"),
    "trajectory_steps": (
        ("run", "case", "trial", "position", "tool", "arguments", "result"),
        "SELECT r.name, c.key, t.trial, s.position, s.tool, s.arguments, s.result "
        "FROM trajectory_steps s JOIN trajectories t ON t.id = s.trajectory_id "
        "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
        "WHERE {run} AND {case} ORDER BY r.name, c.key, t.trial, s.position"),
    "trajectory_reviews": (
        ("run", "case", "trial", "assessor", "task_success", "success_reason",
         "path_acceptable", "path_reason", "note", "updated_at"),
        "SELECT r.name, c.key, t.trial, s.name, v.task_success, v.success_reason, "
        "v.path_acceptable, v.path_reason, v.note, v.updated_at FROM trajectory_reviews v "
        "JOIN trajectories t ON t.id = v.trajectory_id JOIN runs r ON r.id = t.run_id "
        "JOIN cases c ON c.id = t.case_id JOIN assessors s ON s.id = v.assessor_id "
        "WHERE {run} AND {case} AND {assessor} ORDER BY r.name, c.key, t.trial"),
}

#: Columns holding a JSON list of texts (decoded by the exports that nest them).
LIST_COLUMNS = frozenset({"variants", "must_contain", "forbidden", "tags", "rights",
                          "failure_categories", "must_contain_found",
                          "assessors"})  # a campaign's assessors (reads_team's export)

#: Every column holding a JSON value (the lists, an agent case's expectations, the final
#: state of a trajectory): the native JSON nests them decoded, the flat tables write them in
#: one canonical spelling.
JSON_COLUMNS = LIST_COLUMNS | {"expected_state", "forbidden_tools", "required_tools",
                               "tool_order", "final_state",
                               "extra",  # kept import fields (cases, answers, documents…)
                               "pages", "headings"}  # a document's layout

#: Columns the flat exports add for the reader and no import reads back: they follow from
#: the others (a document's page count is the length of its ``pages``).
DERIVED_COLUMNS = frozenset({"page_count"})


class ExchangeReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    def entity_rows(self, entity: str, scope: Scope | None = None
                    ) -> tuple[tuple[str, ...], Iterator[tuple[Any, ...]]]:
        """Columns and a row stream of one flat entity (see :data:`ENTITY_SQL`)."""
        columns, sql = ENTITY_SQL[entity]
        conditions = (scope or Scope()).conditions()
        parts: dict[str, str] = {}
        bound: list[str] = []
        # Bind in the order the placeholders appear in the SQL.
        for pos, name in sorted((sql.find("{" + n + "}"), n) for n in conditions):
            if pos < 0 or not conditions[name]:
                parts[name] = "1"
                continue
            parts[name] = " AND ".join(f"{column} IN (SELECT value FROM json_each(?))"
                                       for column, _values in conditions[name])
            bound += [json.dumps(list(values)) for _column, values in conditions[name]]
        return columns, iter(self._conn.execute(sql.format(**parts), bound))

    def entity_count(self, entity: str, scope: Scope | None = None) -> int:
        """How many rows :meth:`entity_rows` would give (for previews and progress)."""
        columns, rows = self.entity_rows(entity, scope)
        del columns
        return sum(1 for _ in rows)

    def export_document_files(self) -> Iterator[tuple[str, str, str, int, str, bytes]]:
        """(sha256, kind, name, size, created_at, data) of every kept file a document uses,
        by sha256 (a file only an undo could bring back is not exported)."""
        return iter(self._conn.execute(
            "SELECT sha256, kind, name, size, created_at, data FROM document_files "
            "WHERE id IN (SELECT file_id FROM documents) ORDER BY sha256"))

    def export_meta(self) -> dict[str, str | None]:
        """Every gold-set setting, by key."""
        return {str(k): (None if v is None else str(v)) for k, v in self._conn.execute(
            "SELECT key, value FROM meta ORDER BY key")}

    def export_assessors(self) -> list[Row]:
        """Every assessor (name, kind, created_at) by name."""
        return self._many("SELECT name, kind, created_at FROM assessors ORDER BY name")

    def export_case_reviews(self) -> list[Row]:
        """The review queue's decisions by case key."""
        return self._many(
            "SELECT c.key AS \"case\", v.origin, v.decision, n.key AS near_duplicate_of, "
            "v.decided_by, v.decided_at FROM case_reviews v JOIN cases c ON c.id = v.case_id "
            "LEFT JOIN cases n ON n.id = v.near_duplicate_of ORDER BY c.key")

    def export_answers(self) -> list[Row]:
        """Answers with their id (to attach citations and claims), by run name, case key."""
        return self._many(
            "SELECT a.id, r.name AS run, c.key AS \"case\", a.text, a.latency_ms, a.cost, "
            "a.tokens, a.extra FROM answers a JOIN runs r ON r.id = a.run_id "
            "JOIN cases c ON c.id = a.case_id ORDER BY r.name, c.key")

    def export_citations(self) -> Iterator[tuple[Any, ...]]:
        """(answer id, document key, marker, span_start, span_end, support, note) by id."""
        return iter(self._conn.execute(
            "SELECT t.answer_id, d.key, t.marker, t.span_start, t.span_end, t.support, t.note "
            "FROM citations t JOIN documents d ON d.id = t.document_id ORDER BY t.id"))

    def export_claims(self) -> Iterator[tuple[Any, ...]]:
        """(id, answer id, position, text, span_start, span_end, verdict, rationale,
        assessor, updated_at) by position, id."""
        return iter(self._conn.execute(
            "SELECT cl.id, cl.answer_id, cl.position, cl.text, cl.span_start, cl.span_end, "
            "cl.verdict, cl.rationale, s.name, cl.updated_at FROM claims cl "
            "LEFT JOIN assessors s ON s.id = cl.assessor_id ORDER BY cl.position, cl.id"))

    def export_evidence(self) -> Iterator[tuple[Any, ...]]:
        """(claim id, document key, span_start, span_end) by id."""
        return iter(self._conn.execute(
            "SELECT e.claim_id, d.key, e.span_start, e.span_end FROM evidence e "
            "JOIN documents d ON d.id = e.document_id ORDER BY e.id"))

    def export_judge_verdicts(self) -> Iterator[tuple[Any, ...]]:
        """(claim id, assessor, verdict, raw_label, rationale, updated_at) by assessor."""
        return iter(self._conn.execute(
            "SELECT v.claim_id, s.name, v.verdict, v.raw_label, v.rationale, v.updated_at "
            "FROM judge_verdicts v JOIN assessors s ON s.id = v.assessor_id "
            "ORDER BY s.name, v.id"))

    def export_trajectories(self) -> list[Row]:
        """Trajectories (with their id, to attach steps) by run name, case key."""
        return self._many(
            "SELECT t.id, r.name AS run, c.key AS \"case\", t.trial, t.final_state, "
            "t.final_answer, t.tokens, t.seconds, t.cost, t.reward, t.extra FROM trajectories t "
            "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
            "ORDER BY r.name, c.key, t.trial")

    def export_trajectory_steps(self) -> Iterator[tuple[Any, ...]]:
        """(trajectory id, position, tool, arguments, result) by trajectory, position."""
        return iter(self._conn.execute(
            "SELECT trajectory_id, position, tool, arguments, result FROM trajectory_steps "
            "ORDER BY trajectory_id, position"))

    def export_releases(self) -> list[Row]:
        """Every release, in the order they were made."""
        return self._many("SELECT name, created_at, created_by, changelog, snapshot "
                          "FROM releases ORDER BY id")

    def export_history(self) -> list[Row]:
        """Every operation with its row changes (ids as stored: for audit, not for import)."""
        operations = self._many("SELECT id, at, assessor, action, label, reverts, undoable "
                                "FROM operations ORDER BY id")
        changes: dict[int, list[Row]] = {}
        for row in self._many("SELECT operation_id, table_name, row_key, kind, old, new "
                              "FROM history ORDER BY id"):
            changes.setdefault(int(row.pop("operation_id")), []).append(row)
        for operation in operations:
            operation["changes"] = changes.get(int(operation["id"]), [])
        return operations

    def is_empty_goldset(self) -> bool:
        """True when the file holds no entity row (what imports of a whole gold set need)."""
        return not self._conn.execute(
            "SELECT EXISTS (SELECT 1 FROM assessors) OR EXISTS (SELECT 1 FROM documents) "
            "OR EXISTS (SELECT 1 FROM cases) OR EXISTS (SELECT 1 FROM runs) "
            "OR EXISTS (SELECT 1 FROM releases)").fetchone()[0]

    def long_texts(self, limit: int) -> dict[str, int]:
        """Rows per entity holding a text longer than ``limit`` characters (the export
        preview warns that a workbook cell would be cut)."""
        checks = {
            "documents": "SELECT count(*) FROM documents WHERE length(text) > ?1 "
                         "OR length(title) > ?1",
            "cases": "SELECT count(*) FROM cases WHERE length(question) > ?1 "
                     "OR length(reference_answer) > ?1 OR length(notes) > ?1",
            "answers": "SELECT count(*) FROM answers WHERE length(text) > ?1",
            "claims": "SELECT count(*) FROM claims WHERE length(text) > ?1 "
                      "OR length(rationale) > ?1",
            "trajectory_steps": "SELECT count(*) FROM trajectory_steps "
                                "WHERE length(arguments) > ?1 OR length(result) > ?1",
        }
        out = {}
        for entity, sql in checks.items():
            n = int(self._conn.execute(sql, (limit,)).fetchone()[0])
            if n:
                out[entity] = n
        return out

    def names_of(self, table: str) -> list[str]:
        """Run or assessor names, or case families in use (for the export dialog's scope)."""
        sql = {"runs": "SELECT name FROM runs ORDER BY name",
               "assessors": "SELECT name FROM assessors ORDER BY name",
               "families": "SELECT DISTINCT family FROM cases ORDER BY family"}[table]
        return [str(r[0]) for r in self._conn.execute(sql)]

