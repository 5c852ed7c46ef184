"""Files for the RAG-evaluation ecosystem: BEIR, Ragas, RAGChecker, DeepEval.

Exports (research/ecosystem.md §3–§4 and §7 give the shapes and the traps):

* ``beir`` — a folder: ``corpus.jsonl`` (``{"_id", "title", "text", "metadata"}``),
  ``queries.jsonl`` (``{"_id", "text", "metadata"}``) and ``qrels/test.tsv`` with the header
  ``query-id\\tcorpus-id\\tscore`` (BEIR skips the first row unconditionally) holding the
  effective labels of judged pairs; UTF-8 without BOM; ids as strings.
* ``ragas`` — JSONL, one object per case of a run (``--run``), v0.2+ names: ``user_input``,
  ``retrieved_contexts``, ``retrieved_context_ids``, ``response``, ``reference``,
  ``reference_contexts``, ``reference_context_ids``; ASCII-escaped (Ragas opens files in the
  platform's encoding).  The ``ragas`` import reads it back as a run.
* ``ragchecker`` — ``{"results": [{"query_id", "query", "gt_answer", "response",
  "retrieved_context": [{"doc_id", "text"}]}]}`` for one run; when every claim of an answer
  has a verdict, ``response_claims`` (``[[claim]]``) and ``retrieved2response`` (per claim,
  per retrieved chunk: ``Entailment`` where the chunk's document is the claim's evidence and
  the claim is supported, ``Contradiction`` where it is contradicted, else ``Neutral``) so
  RAGChecker uses the experts' verdicts instead of asking an LLM.  No ``metrics`` key.
* ``deepeval`` — a JSON array of goldens: ``input``, ``expected_output``, ``context`` (the
  expected sources' passages), ``name`` and ``additional_metadata`` (case key, family, tags,
  expected behaviour, source ids); with ``--run`` also ``actual_output`` and
  ``retrieval_context``.

Imports: ``beir`` (a folder → documents, cases and one assessor's judgments, default assessor
``beir``; existing documents and cases are kept as they are and reused) and ``deepeval``
(goldens → new draft cases; context passages become documents of origin
``unmatched_context``, named as expected sources).  Both are one undoable operation.
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes, made
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.judging_ops import MAX_GRADE
from rag_annotator.domain.operations import ensure_assessor
from rag_annotator.errors import InvalidValue, KnownError
from rag_annotator.import_export.csv_export import scope_of, write_folder
from rag_annotator.import_export.extra_fields import (
    KEPT_IN_EXTRA,
    carry_out,
    extra_of,
    extra_text,
)
from rag_annotator.import_export.extra_fields import kept as kept_fields
from rag_annotator.import_export.files import (
    ImportRejected,
    atomic_text_writer,
    check_cancel,
    polled,
    read_json_lines,
    read_text_lines,
)
from rag_annotator.import_export.folders import named_file
from rag_annotator.import_export.native_json import IMPORT_ACTION
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.text_sources import list_cell, read_records
from rag_annotator.messages import Message
from rag_annotator.storage.store import GoldSetStore

BEIR_QRELS_HEADER = ("query-id", "corpus-id", "score")
RAGCHECKER_LABELS = {"supported": "Entailment", "not_supported": "Neutral",
                     "contradicted": "Contradiction"}


@dataclass
class Written:
    """What an ecosystem export wrote."""

    path: Path
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return Message("written to {file}: {counts}.", file=self.path.name,
                       counts=", ".join(f"{n} {name}" for name, n in self.counts.items()))


@dataclass
class Imported:
    """What an ecosystem import stored."""

    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    #: What the import's one operation changed (None: nothing).
    changes: Changes | None = None

    def summary(self) -> str:
        return Message("imported: {counts}.",
                       counts=", ".join(f"{n} {name}" for name, n in self.counts.items()))


def _line(obj: dict[str, Any], *, ascii_only: bool = False) -> str:
    return json.dumps(obj, ensure_ascii=ascii_only, allow_nan=False) + "\n"


def _few(items: list[str], n: int = 5) -> str:
    return ", ".join(items[:n]) + (", …" if len(items) > n else "")


def _judged_pairs(store: GoldSetStore, cases: set[str] | None,
                  warnings: list[str]) -> list[tuple[str, str, int]]:
    disputed: list[str] = []
    out = []
    for case, doc, grade, is_disputed in store.effective_labels():
        if cases is not None and case not in cases:
            continue
        if is_disputed:
            disputed.append(f"{case}/{doc}")
        elif grade is not None:
            out.append((case, doc, grade))
    if disputed:
        warnings.append(Message("{n_disputed} disputed pairs left out (adjudicate them): "
                                "{few}", n_disputed=len(disputed), few=_few(disputed)))
    return out


def _cases_in_scope(store: GoldSetStore, options: Options) -> list[dict[str, Any]]:
    """The RAG cases of the export's scope (agent cases are no RAG questions: left out)."""
    columns, rows = store.entity_rows("cases", scope_of(store, options))
    cases = (dict(zip(columns, row)) for row in rows)
    return [case for case in cases if case["kind"] != "agent"]


def _passages(store: GoldSetStore, keys: set[str]) -> dict[str, list[tuple[str, str]]]:
    """Case key → [(document key, expected passage or whole text)], in stored order."""
    out: dict[str, list[tuple[str, str]]] = {}
    texts: dict[str, str] = {}
    columns, rows = store.entity_rows("expected_sources")
    for case, doc, start, end, _note in rows:
        if case not in keys:
            continue
        if doc not in texts:
            texts[doc] = store.document_text(int(store.by_key("documents", doc)["id"]))
        text = texts[doc]
        out.setdefault(case, []).append(
            (doc, text[start:end] if start is not None and end is not None else text))
    del columns
    return out


# -- BEIR ------------------------------------------------------------------------------------
def _tsv_safe(value: str, dest: Path) -> str:
    if any(ch in value for ch in "\t\r\n"):
        raise KnownError("the id '{value!r}' holds a tab or a line break, which a BEIR qrels "
                         "file cannot hold; rename it before exporting.", value=value, path=dest)
    return value


def export_beir(store: GoldSetStore, dest: Path, options: Options) -> Written:
    """The BEIR folder (corpus, queries, qrels/test.tsv)."""
    report = Written(dest)
    cases = _cases_in_scope(store, options)
    keys = {c["key"] for c in cases}
    pairs = _judged_pairs(store, keys, report.warnings)
    doc_columns, docs = store.entity_rows("documents")
    clash = sorted(keys & {k for k, *_ in store.entity_rows("documents")[1]})
    if clash:
        report.warnings.append(Message("{n_clash} case ids equal a document id; BEIR's evaluation "
                                       "drops such documents (ignore_identical_ids): {few}",
                                       n_clash=len(clash), few=_few(clash)))
    unlabelled = sorted(keys - {c for c, _d, _g in pairs})
    if unlabelled:
        report.warnings.append(Message("{n_unlabelled} cases have no judged document; BEIR drops "
                                       "queries without qrels: {few}",
                                       n_unlabelled=len(unlabelled), few=_few(unlabelled)))

    def write(folder: Path) -> None:
        index = {c: i for i, c in enumerate(doc_columns)}
        n = 0
        with open(folder / "corpus.jsonl", "w", encoding="utf-8", newline="\n") as out:
            for row in docs:  # a corpus line's own metadata and other fields go back out
                extra = extra_of({"extra": row[index["extra"]]})
                out.write(_line(carry_out({"_id": row[index["key"]], "title": row[index["title"]],
                                           "text": row[index["text"]],
                                           "metadata": extra.pop("metadata", None) or {}},
                                          extra)))
                n += 1
        report.counts["documents"] = n
        with open(folder / "queries.jsonl", "w", encoding="utf-8", newline="\n") as out:
            for case in cases:
                extra = extra_of(case)
                meta = carry_out({"family": case["family"]}, extra.pop("metadata", None) or {})
                out.write(_line(carry_out({"_id": case["key"], "text": case["question"],
                                           "metadata": meta}, extra)))
        report.counts["queries"] = len(cases)
        (folder / "qrels").mkdir()
        with open(folder / "qrels" / "test.tsv", "w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out, delimiter="\t", lineterminator="\n")
            writer.writerow(BEIR_QRELS_HEADER)
            for qid, doc, grade in pairs:
                writer.writerow((_tsv_safe(qid, dest), _tsv_safe(doc, dest), grade))
        report.counts["qrels"] = len(pairs)

    write_folder(dest, write)
    return report


def import_beir(store: GoldSetStore, source: Path, options: Options) -> Imported:
    """A BEIR folder: documents, queries as cases, qrels as one assessor's judgments."""
    assessor = v.check_key("assessor", options.assessor or "beir")
    if not source.is_dir():
        raise ImportRejected(source, None, "a BEIR dataset is a folder (corpus.jsonl, "
                             "queries.jsonl, qrels/test.tsv); choose the folder, not a file.")
    notes: list[str] = []
    corpus = list(_jsonl(named_file(source, "corpus.jsonl", notes)))
    queries = list(_jsonl(named_file(source, "queries.jsonl", notes)))
    qrels_path = _qrels_file(source)
    qrels = _beir_qrels(named_file(source, str(qrels_path.relative_to(source)), notes))
    report = Imported(warnings=notes)
    _beir_not_kept(report, "corpus.jsonl", corpus, {"_id", "title", "text"})
    _beir_not_kept(report, "queries.jsonl", queries, {"_id", "text"})
    docs_seen = _first_lines(source / "corpus.jsonl", corpus, "document")
    documents = [(_id(source / "corpus.jsonl", line, obj),
                  _str(source / "corpus.jsonl", line, obj, "title"),
                  _str(source / "corpus.jsonl", line, obj, "text"),
                  _beir_extra(obj, {"_id", "title", "text"})) for line, obj in corpus]
    cases_seen = _first_lines(source / "queries.jsonl", queries, "query")
    cases = [(_id(source / "queries.jsonl", line, obj),
              _str(source / "queries.jsonl", line, obj, "text"),
              _beir_extra(obj, {"_id", "text"})) for line, obj in queries]
    now = utc_now()
    check_cancel(options.cancel)
    with store.operation(IMPORT_ACTION, f"BEIR ← {source.name}") as op:
        known_docs, known_cases = op.ids_by_key("documents"), op.ids_by_key("cases")
        for line, (qid, doc, _grade) in qrels:
            if qid not in cases_seen and qid not in known_cases:
                raise ImportRejected(qrels_path, line, "query {qid} is not in queries.jsonl.",
                                                       qid=qid)
            if doc not in docs_seen and doc not in known_docs:
                raise ImportRejected(qrels_path, line, "document {doc} is not in "
                                                       "corpus.jsonl.", doc=doc)
        new_docs = [d for d in documents if d[0] not in known_docs]
        report.counts["documents"] = op.insert_many("documents", polled((
            {**v.document_columns({"key": k, "title": t, "text": x}), "extra": extra_text(e),
             "created_at": now, "updated_at": now} for k, t, x, e in new_docs), options.cancel))
        new_cases = [c for c in cases if c[0] not in known_cases]
        report.counts["cases"] = op.insert_many("cases", polled((
            {**v.case_columns({"key": k, "question": q}), "extra": extra_text(x),
             "created_at": now, "updated_at": now} for k, q, x in new_cases), options.cancel))
        kept = (len(documents) - len(new_docs)) + (len(cases) - len(new_cases))
        if kept:
            report.warnings.append(Message(
                                   "{kept} documents or queries already in the gold set were "
                                   "kept as they are", kept=kept))
        doc_ids, case_ids = op.ids_by_key("documents"), op.ids_by_key("cases")
        top = max((g for _l, (_q, _d, g) in qrels if g is not None), default=0)
        meta = op.get("meta", {"key": "max_grade"})
        scale = int(meta["value"]) if meta and meta["value"] else 1
        if top > scale:  # the scale grows as the TREC qrels import's does (trec_files)
            if any(r["grade"] is not None for r in op.select("judgments")):
                raise ImportRejected(qrels_path, next(n for n, (_q, _d, g) in qrels if g == top),
                                     "score {top} is above this gold set's scale (0–{scale}), "
                                     "which is locked because judgments exist; import into a "
                                     "new gold set.", top=top, scale=scale)
            op.update("meta", {"key": "max_grade"}, {"value": str(top)})
            report.warnings.append(
                Message("grading scale raised to 0–{top} (above {max_grade}, the top of the "
                        "Judge keys; metrics --relevance-level N decides which grades count "
                        "as relevant)", top=top, max_grade=MAX_GRADE) if top > MAX_GRADE
                else Message("grading scale raised to 0–{top}", top=top))
        assessor_id = ensure_assessor(op, assessor)
        existing = {(r["case_id"], r["document_id"]): r
                    for r in op.select("judgments", assessor_id=assessor_id)}
        fresh = []
        for _line_no, (qid, doc, grade) in qrels:
            pair = (case_ids[qid], doc_ids[doc])
            row = existing.get(pair)
            if row is None:
                fresh.append({"case_id": pair[0], "document_id": pair[1],
                              "assessor_id": assessor_id, "grade": grade, "note": "",
                              "updated_at": now})
            elif row["grade"] != grade:
                op.update("judgments", {"id": row["id"]}, {"grade": grade, "updated_at": now})
        check_cancel(options.cancel)
        report.counts["judgments"] = op.insert_many("judgments", polled(fresh, options.cancel))
    report.changes = made(op.changes())
    return report


def _beir_extra(obj: dict[str, Any], mapped: set[str]) -> dict[str, Any]:
    """A BEIR line's fields the import does not map (an empty ``metadata`` is no field)."""
    return kept_fields(obj, set(obj) - mapped - ({"metadata"} if not obj.get("metadata")
                                                 else set()))


def _beir_not_kept(report: Imported, name: str, items: list[tuple[int, Any]],
                   kept: set[str]) -> None:
    """Name the fields of a BEIR file the import does not map (``metadata`` by its keys):
    kept in the document's or case's ``extra``, written back by the BEIR export."""
    lost: set[str] = set()
    for _line, obj in items:
        for key, value in obj.items():
            if key == "metadata" and isinstance(value, dict):
                lost |= {f"metadata.{k}" for k, val in value.items() if val not in ("", None)}
            elif key not in kept and value not in ("", None, {}, []):
                lost.add(key)
    if lost:
        report.warnings.append(Message("{name}: fields kept in extra: {few}",
                                       name=name, few=_few(sorted(lost), 10)))


def _first_lines(path: Path, items: list[tuple[int, Any]], what: str) -> dict[str, int]:
    """Each id of a BEIR file → its line; an id given twice is refused with both lines."""
    seen: dict[str, int] = {}
    for line, obj in items:
        key = _id(path, line, obj)
        if key in seen:
            raise ImportRejected(path, line, "{what} {key} appears twice (first at line "
                                             "{seen}).", what=what, key=key, seen=seen[key])
        seen[key] = line
    return seen


def _qrels_file(source: Path) -> Path:
    test = source / "qrels" / "test.tsv"
    if test.exists():
        return test
    found = sorted((source / "qrels").glob("*.tsv")) if (source / "qrels").is_dir() else []
    if len(found) != 1:
        raise ImportRejected(source, None, "no qrels/test.tsv in this folder (a BEIR folder "
                                           "holds corpus.jsonl, queries.jsonl and "
                                           "qrels/test.tsv).")
    return found[0]


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    yield from read_json_lines(path)


def _id(path: Path, line: int, obj: dict[str, Any]) -> str:
    value = obj.get("_id")
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    try:
        return v.check_key("_id", value)
    except InvalidValue as error:
        raise ImportRejected(path, line, "{error}", error=error) from None


def _str(path: Path, line: int, obj: dict[str, Any], name: str) -> str:
    value = obj.get(name, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ImportRejected(path, line, "'{name}' must be text.", name=name)
    return value


def _beir_qrels(path: Path) -> list[tuple[int, tuple[str, str, int | None]]]:
    out: list[tuple[int, tuple[str, str, int | None]]] = []
    seen: dict[tuple[str, str], int] = {}
    for line, text in read_text_lines(path):
        if not text.strip():
            continue
        # As BEIR reads it: csv.reader with tabs and QUOTE_MINIMAL (an id holding a quote
        # is written quoted).
        try:
            cells = next(csv.reader([text], delimiter="\t", strict=True))
        except csv.Error as error:
            raise ImportRejected(path, line, "not valid TSV ({error}).", error=error) from None
        if line == 1:
            if tuple(c.strip() for c in cells) != BEIR_QRELS_HEADER:
                raise ImportRejected(path, 1, "the first line must be the header "
                                              "query-id<TAB>corpus-id<TAB>score (BEIR skips "
                                              "it: without it the first label is lost).")
            continue
        if len(cells) != 3:
            raise ImportRejected(path, line, "expected 3 tab-separated fields, got "
                                             "{n_cells}.", n_cells=len(cells))
        qid, doc, score = (c.strip() for c in cells)
        try:
            grade = int(score)
        except ValueError:
            raise ImportRejected(path, line, "the score '{score}' is not an integer.", score=score
                                 ) from None
        if (qid, doc) in seen:
            raise ImportRejected(path, line, "query {qid}, document {doc} is labelled twice "
                                             "(first at line {seen}).",
                                             qid=qid, doc=doc, seen=seen[(qid, doc)])
        seen[(qid, doc)] = line
        out.append((line, (qid, doc, grade if grade >= 0 else None)))
    return out


# -- run-based exports (Ragas, RAGChecker) ---------------------------------------------------
@dataclass
class _RunCase:
    case: dict[str, Any]
    retrieved: list[tuple[str, str]]  # (document key, text) in rank order
    answer: str | None
    claims: list[dict[str, Any]]
    cited: set[str] = field(default_factory=set)  # documents the answer cites
    extra: dict[str, Any] = field(default_factory=dict)  # the case's and answer's kept fields


def _run_cases(store: GoldSetStore, options: Options, fmt: str) -> list[_RunCase]:
    if not options.run:
        raise KnownError("{fmt} export needs --run NAME (see 'info' for the runs).", fmt=fmt)
    run = store.by_key("runs", options.run)
    cases = {c["key"]: c for c in _cases_in_scope(store, options)}
    rankings = store.run_rankings(int(run["id"]))
    answers = {a["case"]: a for a in store.export_answers() if a["run"] == options.run}
    if not rankings and not answers and store.trajectory_counts().get(int(run["id"])):
        raise KnownError("run '{run}' holds agent trajectories and no retrieved "
                         "lists or answers: there is nothing to write for {fmt} (its "
                         "trajectories go out with the json, csv and xlsx exports).",
                         run=options.run, fmt=fmt)
    texts: dict[str, str] = {}

    def text_of(doc: str) -> str:
        if doc not in texts:
            texts[doc] = store.document_text(int(store.by_key("documents", doc)["id"]))
        return texts[doc]

    claims: dict[int, list[dict[str, Any]]] = {}
    evidence: dict[int, set[str]] = {}
    for claim_id, doc, _start, _end in store.export_evidence():
        evidence.setdefault(claim_id, set()).add(doc)
    for (claim_id, answer_id, _pos, text, _s, _e, verdict, _r, _a, _at) in store.export_claims():
        claims.setdefault(answer_id, []).append({"text": text, "verdict": verdict,
                                                 "evidence": evidence.get(claim_id, set())})
    cited: dict[int, set[str]] = {}
    for answer_id, doc, *_rest in store.export_citations():
        cited.setdefault(answer_id, set()).add(doc)
    out = []
    for key in sorted(set(rankings) | set(answers)):
        if key not in cases:
            continue
        answer = answers.get(key)
        answer_id = None if answer is None else int(answer["id"])
        out.append(_RunCase(cases[key], [(d, text_of(d)) for d, _s in rankings.get(key, [])],
                            None if answer is None else answer["text"],
                            [] if answer_id is None else claims.get(answer_id, []),
                            set() if answer_id is None else cited.get(answer_id, set()),
                            {**extra_of(cases[key]), **extra_of(answer or {})}))
    return out


def export_ragas(store: GoldSetStore, dest: Path, options: Options) -> Written:
    """Ragas v0.2+ JSONL, one line per case of the run (ASCII-escaped)."""
    report = Written(dest)
    items = _run_cases(store, options, "ragas")
    passages = _passages(store, {i.case["key"] for i in items})
    with atomic_text_writer(dest) as out:
        for item in items:
            line: dict[str, Any] = {
                "user_input": item.case["question"],
                "retrieved_contexts": [t for _d, t in item.retrieved],
                "retrieved_context_ids": [d for d, _t in item.retrieved],
            }
            if item.answer is not None:
                line["response"] = item.answer
            if item.case["reference_answer"] is not None:
                line["reference"] = item.case["reference_answer"]
            sources = passages.get(item.case["key"], [])
            if sources:
                line["reference_contexts"] = [t for _d, t in sources]
                line["reference_context_ids"] = [d for d, _t in sources]
            out.write(_line(carry_out(line, item.extra), ascii_only=True))
    report.counts["cases"] = len(items)
    no_answer = [i.case["key"] for i in items if i.answer is None]
    if no_answer:
        report.warnings.append(Message("{n_no_answer} cases have no answer in this run (no "
                                       "'response'): {few}",
                                       n_no_answer=len(no_answer), few=_few(no_answer)))
    return report


def export_ragchecker(store: GoldSetStore, dest: Path, options: Options) -> Written:
    """RAGChecker's input JSON for one run, with the experts' claim verdicts when complete."""
    report = Written(dest)
    results = []
    partial: list[str] = []
    for item in _run_cases(store, options, "ragchecker"):
        entry: dict[str, Any] = {
            "query_id": item.case["key"], "query": item.case["question"],
            "gt_answer": item.case["reference_answer"] or "",
            "response": item.answer or "",
            "retrieved_context": [{"doc_id": d, "text": t} for d, t in item.retrieved],
        }
        carry_out(entry, item.extra)
        complete = bool(item.claims) and all(
            c["verdict"] and (c["verdict"] == "not_supported" or c["evidence"] or item.cited)
            for c in item.claims)
        if complete:
            # A claim's evidence documents say which chunks entail (or contradict) it; a
            # verdict given without evidence spans rests on the documents the answer cites.
            entry["response_claims"] = [[c["text"]] for c in item.claims]
            entry["retrieved2response"] = [
                [RAGCHECKER_LABELS[c["verdict"]] if d in (c["evidence"] or item.cited)
                 else "Neutral" for d, _t in item.retrieved]
                for c in item.claims]
        elif item.claims:
            partial.append(item.case["key"])
        results.append(entry)
    with atomic_text_writer(dest) as out:
        out.write(json.dumps({"results": results}, ensure_ascii=True, indent=1) + "\n")
    report.counts["results"] = len(results)
    if partial:
        report.warnings.append(Message(
                               "{n_partial} answers have unverified claims (or verdicts "
                               "with neither evidence nor citation); their claims were left "
                               "for RAGChecker to extract: {few}",
                               n_partial=len(partial), few=_few(partial)))
    return report


# -- DeepEval --------------------------------------------------------------------------------
def export_deepeval(store: GoldSetStore, dest: Path, options: Options) -> Written:
    """DeepEval goldens (a JSON array); with --run, the run's answers and contexts too."""
    report = Written(dest)
    cases = _cases_in_scope(store, options)
    passages = _passages(store, {c["key"] for c in cases})
    run_items = {i.case["key"]: i for i in _run_cases(store, options, "deepeval")} \
        if options.run else {}
    goldens = []
    for case in cases:
        sources = passages.get(case["key"], [])
        golden: dict[str, Any] = {
            "input": case["question"], "expected_output": case["reference_answer"],
            "context": [t for _d, t in sources], "name": case["key"],
            "additional_metadata": {
                "case": case["key"], "family": case["family"],
                "tags": json.loads(case["tags"]),
                "expected_behaviour": case["expected_behaviour"],
                "context_ids": [d for d, _t in sources]},
        }
        item = run_items.get(case["key"])
        if item is not None:
            golden["actual_output"] = item.answer
            golden["retrieval_context"] = [t for _d, t in item.retrieved]
            golden["additional_metadata"]["run"] = options.run
            golden["additional_metadata"]["retrieval_context_ids"] = [
                d for d, _t in item.retrieved]
        extra = extra_of(case)  # DeepEval's own fields at the top, others in its metadata
        carry_out(golden, {k: x for k, x in extra.items() if k in GOLDEN_FIELDS})
        carry_out(golden["additional_metadata"],
                  {k: x for k, x in extra.items() if k not in GOLDEN_FIELDS})
        goldens.append(golden)
    with atomic_text_writer(dest) as out:
        out.write(json.dumps(goldens, ensure_ascii=False, indent=1) + "\n")
    report.counts["goldens"] = len(goldens)
    return report


def import_deepeval(store: GoldSetStore, source: Path, options: Options) -> Imported:
    """DeepEval goldens (a JSON array, JSON Lines, or the CSV ``save_as`` writes) as new
    draft cases; other fields (``source_file``, ``actual_output``…, and metadata keys the case
    has no column for) are kept in the case's ``extra`` and named in the report."""
    data = _goldens(source)
    report = Imported()
    now = utc_now()
    rows: list[tuple[dict[str, Any], list[str]]] = []
    keys: dict[str, int] = {}
    for i, golden in enumerate(data):
        rows.append(_golden(source, i, golden, keys))
    not_kept = sorted({k for g in data if isinstance(g, dict) for k in g} - GOLDEN_KEPT)
    if not_kept:
        report.warnings.append(Message("{kept_in_extra}: {few}",
                                       kept_in_extra=KEPT_IN_EXTRA, few=_few(not_kept, 10)))
    with store.operation(IMPORT_ACTION, f"DeepEval ← {source.name}") as op:
        existing = op.ids_by_key("cases")
        taken = [k for k in keys if k in existing]
        if taken:
            raise ImportRejected(source, None, "golden {keys}: case '{taken}' "
                                               "already exists; rename it (name) or import "
                                               "into another file.",
                                               keys=keys[taken[0]], taken=taken[0])
        report.counts["cases"] = op.insert_many("cases", polled((
            {**columns, "created_at": now, "updated_at": now} for columns, _ctx in rows),
            options.cancel))
        case_ids = op.ids_by_key("cases")
        docs = op.ids_by_key("documents")
        added = 0
        for n, (columns, contexts) in enumerate(rows):
            if n % 1000 == 0:
                check_cancel(options.cancel)
            for text in contexts:
                key = "ctx-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
                if key not in docs:
                    docs[key] = int(op.insert("documents", {
                        **v.document_columns({"key": key, "title": text[:60], "text": text,
                                              "origin": "unmatched_context"}),
                        "created_at": now, "updated_at": now})["id"])
                    added += 1
                op.insert("expected_sources", {"case_id": case_ids[columns["key"]],
                                               "document_id": docs[key], "note": "DeepEval "
                                               "context"})
        report.counts["context documents"] = added
    report.changes = made(op.changes())
    return report


#: Golden fields the import keeps (as the case, its reference answer and expected sources).
GOLDEN_KEPT = {"input", "expected_output", "expectedOutput", "context", "name",
               "additional_metadata", "additionalMetadata"}
#: A golden's own fields the case has no column for: kept in ``extra``, written back at the
#: golden's top level (any other kept field goes into its ``additional_metadata``).
GOLDEN_FIELDS = {"actual_output", "retrieval_context", "source_file", "comments",
                 "tools_called", "expected_tools", "custom_column_key_values"}
#: ``additional_metadata`` keys the export writes from the gold set (not kept on re-import).
GOLDEN_META_OWN = {"case", "family", "tags", "expected_behaviour", "context_ids", "run",
                   "retrieval_context_ids"}


def _goldens(source: Path) -> list[Any]:
    """The goldens of a DeepEval file: JSON (array, lines, or ``{"goldens": [...]}``) or CSV
    (``EvaluationDataset.save_as(file_type="csv")``: a list cell written as a list literal,
    or its items joined by ``|``)."""
    if source.name.lower().removesuffix(".gz").endswith((".csv", ".tsv")):
        from rag_annotator.import_export.tabular import read_table

        table = read_table(source)
        return [_golden_row(source, number, dict(zip(table.headers, cells)))
                for number, cells in table.rows]
    found = read_records(source, objects=False)
    if not found.items:
        raise ImportRejected(source, None, "expected a JSON array of goldens (DeepEval's "
                                           "add_goldens_from_json_file format).")
    return [value for _line, value in found.items]


def _golden_row(source: Path, number: int, row: dict[str, str]) -> dict[str, Any]:
    golden: dict[str, Any] = {k: val for k, val in row.items() if k and val.strip()}
    for name in ("context", "retrieval_context"):
        cell = golden.get(name)
        if cell is None:
            continue
        items = list_cell(cell) if cell.lstrip().startswith("[") else None
        if items is not None:
            golden[name] = [str(x) for x in items]
        else:
            golden[name] = [part.strip() for part in cell.split("|") if part.strip()]
    meta = golden.get("additional_metadata")
    if meta is not None:
        try:
            golden["additional_metadata"] = json.loads(meta)
        except ValueError:
            raise ImportRejected(source, None, "row {number}: 'additional_metadata' is not "
                                               "a JSON object.", number=number) from None
    return golden


def _golden(source: Path, i: int, golden: Any, keys: dict[str, int]
            ) -> tuple[dict[str, Any], list[str]]:
    where = Message("golden {n}", n=i + 1)
    if not isinstance(golden, dict):
        raise ImportRejected(source, None, "{where}: expected an object.", where=where)
    question = golden.get("input")
    if not isinstance(question, str) or not question.strip():
        raise ImportRejected(source, None, "{where}: 'input' (the question) is missing.",
                                           where=where)
    meta = golden.get("additional_metadata") or golden.get("additionalMetadata") or {}
    if not isinstance(meta, dict):
        meta = {}
    key = meta.get("case") or golden.get("name") or (
        "deepeval-" + hashlib.sha256(question.encode("utf-8")).hexdigest()[:10])
    fields: dict[str, Any] = {"key": key, "question": question,
                              "reference_answer": golden.get("expected_output")
                              or golden.get("expectedOutput")}
    for name in ("family", "tags", "expected_behaviour"):
        if name in meta:
            fields[name] = meta[name]
    contexts = golden.get("context") or []
    extra = {**kept_fields(meta, set(meta) - GOLDEN_META_OWN),
             **kept_fields(golden, set(golden) - GOLDEN_KEPT)}
    try:
        columns = {**v.case_columns(fields), "extra": extra_text(extra)}
        if not isinstance(contexts, list) or not all(isinstance(c, str) for c in contexts):
            raise InvalidValue("context: expected a list of texts.")
    except InvalidValue as error:
        one_line = str(error).replace("\r", "\\r").replace("\n", "\\n")
        raise ImportRejected(source, None, "{where}: {one_line}",
                                           where=where, one_line=one_line) from None
    if key in keys:
        raise ImportRejected(source, None, "{where}: case '{key}' is also golden "
                                           "{keys}; names must be unique.",
                                           where=where, key=key, keys=keys[key])
    keys[key] = i + 1
    return columns, [c for c in contexts if c]
