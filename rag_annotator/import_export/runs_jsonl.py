"""Runs as JSON records: this app's own shape (and the storing of Ragas's).

Both are one JSON object per line, imported as a new run in one operation (all or nothing,
undoable); every refusal names ``file:line`` and what to do.

* ``jsonl-run``: ``case`` (case id), ``retrieved`` (document ids, or ``{"document", "score"}``
  objects, in rank order), optional ``answer`` (text), ``citations`` (``{"marker",
  "document"}``) and ``contexts`` (retrieved texts, located in the corpus like Ragas's and
  ranked as passages of its documents, for a system that logs texts rather than ids; give
  ``retrieved`` or ``contexts``, not both).
  Unknown ids become placeholders (listed), unless ``strict``.
* ``ragas``: read by :mod:`ragas_run` (CSV or JSON, both generations of Ragas names), which
  uses this module's matching of questions to cases (exactly, then normalised: an unmatched
  question becomes a placeholder case, listed) and its one-operation import.
"""

from __future__ import annotations

import hashlib
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import made
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.domain.structured_ops import check_answers_in
from rag_annotator.domain.verify_ops import add_candidate_claims
from rag_annotator.errors import Conflict, InvalidValue
from rag_annotator.import_export.context_match import ContextMatcher, Match
from rag_annotator.import_export.extra_fields import extra_text
from rag_annotator.import_export.files import (
    ImportRejected,
    check_cancel,
    polled,
)
from rag_annotator.import_export.passages import Passages, searched_keys
from rag_annotator.import_export.text_sources import read_records
from rag_annotator.import_export.trec_files import ImportReport, _resolve
from rag_annotator.messages import Message

#: Resolves each record's context texts to documents (appends to ``documents``/``scores``).
ContextsMatcher = Callable[[Writer, Path, "list[RunRecord]", ImportReport], None]

NATIVE_FIELDS = ("case", "retrieved", "answer", "citations", "contexts")


@dataclass
class RunRecord:
    """One line: a case's retrieved list (document ids or texts) and its answer."""

    line: int
    case: str = ""                     # case id (jsonl-run)
    question: str = ""                 # question text to match (ragas)
    reference: str | None = None
    documents: list[str] = field(default_factory=list)
    scores: list[float | None] = field(default_factory=list)
    contexts: list[str] | None = None  # texts to match instead of ids
    context_ids: list[str] | None = None  # the contexts' document ids, when the tool kept them
    answer: str | None = None
    citations: list[tuple[str, str]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # fields kept on the answer


def normalise(text: str) -> str:
    """What "the same text" means after exact matching failed: NFC, case folded, whitespace
    runs collapsed (copies through PDFs, editors and JSON differ in exactly these)."""
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


# -- parsing ---------------------------------------------------------------------------------
def _objects(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The records of the file: JSON Lines, a JSON array or one object holding the list."""
    found: list[tuple[int, dict[str, Any]]] = list(read_records(path).items)
    if not found:
        raise ImportRejected(path, None, "the file holds no JSON lines.")
    return found


def _text(path: Path, line: int, obj: dict[str, Any], name: str, *,
          required: bool = False) -> str | None:
    value = obj.get(name)
    if value is None:
        if required:
            raise ImportRejected(path, line, "the field '{name}' is missing; every line needs "
                                             "it.", name=name)
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise ImportRejected(path, line, "'{name}' must be non-empty text.", name=name)
    try:
        return v.check_text(name, value)
    except InvalidValue as error:
        raise ImportRejected(path, line, "{error}", error=error) from None


def _texts(path: Path, line: int, obj: dict[str, Any], name: str) -> list[str] | None:
    value = obj.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ImportRejected(path, line, "'{name}' must be a list of texts.", name=name)
    return [str(_text(path, line, {name: t}, name)) for t in value]


def parse_native(path: Path) -> list[RunRecord]:
    """Parse a jsonl-run file (see the module docstring)."""
    records: list[RunRecord] = []
    for line, obj in _objects(path):
        unknown = sorted(set(obj) - set(NATIVE_FIELDS))
        if unknown:
            raise ImportRejected(path, line, "unknown field '{unknown}'; the fields are "
                                             "{native_fields}.",
                                             unknown=unknown[0],
                                             native_fields=', '.join(NATIVE_FIELDS))
        record = RunRecord(line, case=str(_text(path, line, obj, "case", required=True)),
                           answer=_text(path, line, obj, "answer"),
                           contexts=_texts(path, line, obj, "contexts"))
        retrieved = obj.get("retrieved")
        if retrieved is not None and record.contexts is not None:
            raise ImportRejected(path, line, "give 'retrieved' (document ids) or 'contexts' "
                                             "(texts), not both.")
        if retrieved is not None and not isinstance(retrieved, list):
            raise ImportRejected(path, line, "'retrieved' must be a list.")
        for position, item in enumerate(retrieved or [], start=1):
            score: Any = None
            if isinstance(item, dict):
                extra = sorted(set(item) - {"document", "score"})
                if extra:
                    raise ImportRejected(path, line, "retrieved item {position}: unknown field "
                                                     "'{extra}' (document, score).",
                                                     position=position, extra=extra[0])
                score = item.get("score")
                item = item.get("document")
            if not isinstance(item, str) or not item:
                raise ImportRejected(path, line, "retrieved item {position}: expected a "
                                                 "document id or {{\"document\": id, \"score\": "
                                                 "number}}.", position=position)
            if score is not None and (isinstance(score, bool)
                                      or not isinstance(score, (int, float))
                                      or not math.isfinite(score)):
                raise ImportRejected(path, line, "retrieved item {position}: the score must "
                                                 "be a finite number.", position=position)
            record.documents.append(item)
            record.scores.append(None if score is None else float(score))
        citations = obj.get("citations") or []
        if not isinstance(citations, list):
            raise ImportRejected(path, line, "'citations' must be a list.")
        for position, cite in enumerate(citations, start=1):
            if (not isinstance(cite, dict) or set(cite) - {"marker", "document"}
                    or not isinstance(cite.get("document"), str)
                    or not isinstance(cite.get("marker", ""), str)):
                raise ImportRejected(path, line, "citation {position}: expected "
                                                 "{{\"marker\": text, \"document\": id}}.",
                                                 position=position)
            record.citations.append((cite.get("marker", ""), cite["document"]))
        if record.citations and record.answer is None:
            raise ImportRejected(path, line, "citations need an 'answer'.")
        records.append(record)
    return records


# -- import ----------------------------------------------------------------------------------
def import_jsonl_run(store: Store, path: Path, *, name: str | None = None,
                     strict: bool = False, cancel: Callable[[], bool] | None = None
                     ) -> ImportReport:
    """Import a jsonl-run file as a new run, in one operation (undoable; ``cancel`` polled
    while storing)."""
    records = parse_native(path)
    return _import(store, path, records, name=name, strict=strict, ragas=False,
                   report=ImportReport(), cancel=cancel)


def import_ragas(store: Store, path: Path, *, name: str | None = None,
                 cancel: Callable[[], bool] | None = None,
                 add_unmatched: bool = False) -> ImportReport:
    """Import a Ragas dataset as a new run (``ragas_run.import_ragas``), in one operation."""
    from rag_annotator.import_export.ragas_run import import_ragas as run_import
    from rag_annotator.import_export.registry import Options

    return run_import(store, path, Options(run=name, cancel=cancel,
                                           add_unmatched=add_unmatched))


def _import(store: Store, path: Path, records: list[RunRecord], *, name: str | None,
            strict: bool, ragas: bool, report: ImportReport,
            cancel: Callable[[], bool] | None = None,
            match_contexts: ContextsMatcher | None = None,
            after: Callable[[Writer, dict[str, int], dict[str, int]], None] | None = None
            ) -> ImportReport:
    """Store the records as a new run.  ``match_contexts`` resolves texts to documents (the
    default keeps an unmatched text as a document of its own); ``after(op, cases, docs)``
    runs in the same operation once the run is stored."""
    run_name = name or path.stem.removesuffix(".jsonl")
    try:
        v.check_key("run name", run_name)
    except InvalidValue as error:
        raise ImportRejected(path, None, "{error} Name the run with --run NAME.",
                                         error=error) from None
    report.name, report.rows = run_name, len(records)
    with store.operation("import_run", f"{run_name} ← {path.name}") as op:
        if op.select("runs", name=run_name):
            raise Conflict("a run named '{run_name}' already exists; choose another name "
                           "with --run NAME.", run_name=run_name)
        if ragas:
            _match_questions(op, path, records, report)
        if any(r.contexts for r in records):
            (match_contexts or partial(_match_contexts, cancel=cancel))(op, path, records,
                                                                         report)
        lines: dict[tuple[str, str], int] = {}
        for r in records:
            for key in [("case", r.case)] + [("document", d) for d in r.documents] + [
                    ("document", d) for _m, d in r.citations]:
                lines.setdefault(key, r.line)
        cases, docs = _resolve(
            op, path, dict.fromkeys(r.case for r in records),
            dict.fromkeys([d for r in records for d in r.documents]
                          + [d for r in records for _m, d in r.citations]),
            strict=strict, report=report,
            first_line=lambda kind, ident: lines.get((kind, ident)))
        _check_lists(path, records)
        report.cases = len(records)
        run_id = int(op.insert("runs", {"name": run_name, "created_at": utc_now(),
                                        "notes": f"Imported from {path.name}."})["id"])
        op.insert_rows("retrieved", ("run_id", "case_id", "document_id", "rank", "score"), (
            (run_id, cases[r.case], docs[d], rank, score)
            for r in records for rank, (d, score) in enumerate(zip(r.documents, r.scores),
                                                                 start=1)))
        for r in polled(records, cancel, every=1_000):
            if r.answer is None:
                continue
            answer_id = int(op.insert("answers", {"run_id": run_id, "case_id": cases[r.case],
                                                  "text": r.answer,
                                                  "extra": extra_text(r.extra)})["id"])
            add_candidate_claims(op, answer_id, r.answer)  # unverified, for the Verify section
            for marker, doc in r.citations:
                op.insert("citations", {"answer_id": answer_id, "document_id": docs[doc],
                                        "marker": marker})
        if after is not None:
            after(op, cases, docs)
        # structured answers of cases with an output contract: checked as they arrive
        check_answers_in(op, op.select("answers", order_by="id", run_id=run_id), fresh=True,
                         checkpoint=lambda: check_cancel(cancel))
    report.changes = made(op.changes())
    return report


def _check_lists(path: Path, records: list[RunRecord]) -> None:
    """One line per case, and a document at most once in a case's list."""
    seen_cases: dict[str, int] = {}
    for r in records:
        if r.case in seen_cases:
            raise ImportRejected(path, r.line, "case {case} already has a line (line "
                                               "{seen_cases}); merge the two.",
                                               case=r.case, seen_cases=seen_cases[r.case])
        seen_cases[r.case] = r.line
        seen: dict[str, int] = {}
        for position, doc in enumerate(r.documents, start=1):
            if doc in seen:
                what = "context" if r.contexts else "retrieved item"
                raise ImportRejected(path, r.line, "{what} {position} is document {doc} "
                                                   "again ({what} {seen}); remove the "
                                                   "duplicate.",
                                                   what=what, position=position, doc=doc,
                                                   seen=seen[doc])
            seen[doc] = position


def _index(rows: list[dict[str, Any]], column: str) -> tuple[dict[str, list[str]],
                                                             dict[str, list[str]]]:
    exact: dict[str, list[str]] = {}
    loose: dict[str, list[str]] = {}
    for row in sorted(rows, key=lambda r: str(r["key"])):
        exact.setdefault(row[column], []).append(row["key"])
        loose.setdefault(normalise(row[column]), []).append(row["key"])
    return exact, loose


def _match(text: str, exact: dict[str, list[str]], loose: dict[str, list[str]]) -> list[str]:
    return exact.get(text) or loose.get(normalise(text)) or []


def _match_questions(op: Writer, path: Path, records: list[RunRecord],
                     report: ImportReport) -> None:
    """Ragas names no case: find it by its question, else a placeholder case (reported)."""
    exact, loose = _index([r for r in op.select("cases", kind="rag") if r["question"]],
                          "question")  # an agent case's request is not a RAG question
    now = utc_now()
    for r in records:
        found = _match(r.question, exact, loose)
        if len(found) > 1:
            raise ImportRejected(path, r.line, "the question matches several cases "
                                               "({found}); make their "
                                               "questions distinct first.",
                                               found=', '.join(found[:5]))
        if found:
            r.case = found[0]
            continue
        key = "ragas-" + hashlib.sha256(normalise(r.question).encode()).hexdigest()[:10]
        if key not in loose.get(normalise(r.question), []):
            op.insert("cases", {"key": key, "question": r.question,
                                "reference_answer": r.reference, "status": "draft",
                                "notes": f"Placeholder created by importing {path.name}.",
                                "created_at": now, "updated_at": now})
            report.new_cases.append(key)
            exact.setdefault(r.question, []).append(key)
            loose.setdefault(normalise(r.question), []).append(key)
        r.case = key


def _match_contexts(op: Writer, path: Path, records: list[RunRecord],
                    report: ImportReport, cancel: Callable[[], bool] | None = None) -> None:
    """Each context → a document with that text, else its passage where it is located in
    a corpus document (:mod:`context_match`, :mod:`passages`), else a new document of
    origin ``unmatched_context`` (one per distinct normalised text, reported)."""
    rows = op.select("documents")
    matcher = ContextMatcher([(str(r["key"]), str(r["text"])) for r in rows],
                             searched=searched_keys(rows))
    passages = Passages(op, rows)
    report.chunks.searched = matcher.located_in()
    now = utc_now()
    several = 0
    unmatched: list[str] = []
    for r in polled(records, cancel, every=50):  # ~2 ms a chunk to locate
        for text in r.contexts or []:
            found = matcher.match(text)
            report.chunks.count(found, text)
            if found is None:
                key = "ctx-" + hashlib.sha256(normalise(text).encode()).hexdigest()[:12]
                op.insert("documents", {**v.document_columns(
                    {"key": key, "text": text, "origin": "unmatched_context"}),
                    "created_at": now, "updated_at": now})
                unmatched.append(key)
                matcher.add(key, text)
                found = Match(key, "added")
            several += found.several
            r.documents.append(passages.key_for(found, text))
            r.scores.append(None)
    report.chunks.new_passages = passages.added
    if unmatched:
        report.warnings.append(Message(
                               "{n_unmatched} contexts matched no document's text and were "
                               "added as documents of origin unmatched_context: "
                               "{unmatched}{value}",
                               n_unmatched=len(unmatched), unmatched=', '.join(unmatched[:5]),
                               value=', …' if len(unmatched) > 5 else ''))
    if several:
        report.warnings.append(Message("{several} contexts matched several documents with the same "
                                       "text; the first by key was used", several=several))
    report.warnings.extend(report.chunks.warnings())
