"""A RAGChecker file as a run: its inputs, and its claims and verdicts when it has them
(issue 18, point 4).

RAGChecker (amazon-science/RAGChecker) reads ``checking_inputs.json`` and writes
``checking_outputs.json``, both ``{"results": [{"query_id", "query", "gt_answer",
"response", "retrieved_context": [{"doc_id", "text"}]}, ...]}``; the outputs add, per
result, ``response_claims`` / ``gt_answer_claims`` (claim *triplets*), the labels
``retrieved2response`` (per response claim, one per chunk), ``answer2response`` (per
response claim: does the ground truth entail it), ``response2answer`` and
``retrieved2answer`` (per ground-truth claim), and ``metrics`` (overall, retriever,
generator), also given for the whole file.

Imported in ONE undoable operation as a new run (``--run NAME``, else the file name):

* **cases**: ``query_id`` is the case key; a key the gold set lacks becomes a draft case
  with ``query`` as its question and ``gt_answer`` as its reference answer;
* **documents**: a chunk whose ``doc_id`` is a document of the gold set with the same text
  (after whitespace) is that document; else a chunk located in a corpus document
  (:mod:`context_match`) is ranked as its passage (:mod:`passages`), or as the document when
  it is the whole of it; else ``doc_id`` is the document key, ``text`` its text.
  RAGChecker numbers chunks per query ("000", "001"… again for the next query), so one
  ``doc_id`` can carry different texts.  The first text met under a ``doc_id`` (or the gold
  set's document of that key) keeps the plain key; a *different* text under the same
  ``doc_id`` is kept as document ``<doc_id>@<query_id>`` — both the id as RAGChecker wrote
  it and every text survive, and the report says how many were re-keyed;
* **retrieved lists**: the chunks in order (rank 1, 2…), no score;
* **answer**: ``response``.  Its claims are RAGChecker's own ``response_claims`` (a
  triplet's parts joined by spaces) when the file has them — the judge's claims *are* the
  answer's claims, so the judge's verdict on each is kept as RAGChecker states it: an
  assessor of kind judge (``--assessor``, default "RAGChecker") gets, per claim, the
  verdict mapped as the ``ragchecker`` verdict import does (any chunk entails →
  supported; else any contradicts → contradicted; else not supported) and the raw labels
  verbatim (``retrieved2response: …; answer2response: …``).  Humans verifying those
  claims then meet the judge in the claim-level judge agreement.  Without claims (an
  inputs file) the answer gets the app's usual candidate sentence claims;
* **RAGChecker's metrics** (the file's ``metrics``) are copied into the run's notes and
  the report, for comparison with the app's own figures.

Not kept, and listed in the report: the ground-truth claims and their labels
(``gt_answer_claims``, ``response2answer``, ``retrieved2answer``: claims of the reference,
not of the answer) and per-result ``metrics``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import made
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.domain.verify_ops import add_candidate_claims
from rag_annotator.errors import Conflict, InvalidValue
from rag_annotator.import_export.context_match import ContextMatcher
from rag_annotator.import_export.extra_fields import KEPT_IN_EXTRA, extra_text, kept
from rag_annotator.import_export.files import ImportRejected, polled
from rag_annotator.import_export.judge_verdicts import (
    ToolClaim,
    _judge_assessor,
    _load_json,
    parse_ragchecker,
)
from rag_annotator.import_export.passages import ChunkTally, Passages, searched_keys
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.runs_jsonl import normalise
from rag_annotator.import_export.tabular import few_names
from rag_annotator.messages import Joined, Message, Plural

_READ = frozenset(("query_id", "query", "gt_answer", "response", "retrieved_context",
                   "response_claims", "retrieved2response", "answer2response"))


@dataclass
class Result:
    """One RAGChecker result: a query, its chunks, the response and its claims."""

    where: str
    case: str
    query: str
    gt_answer: str | None
    response: str
    chunks: list[tuple[str, str]]  # (doc_id, text) in retrieval order
    claims: list[ToolClaim] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # other fields, kept on the answer


@dataclass
class RagCheckerReport:
    """What a RAGChecker run import stored."""

    name: str = ""
    results: int = 0
    new_cases: list[str] = field(default_factory=list)
    new_documents: list[str] = field(default_factory=list)
    rekeyed: list[str] = field(default_factory=list)
    claims: int = 0
    judge: str = ""
    metrics: dict[str, Any] = field(default_factory=dict)
    #: per answer: the share of its claims the stored verdicts call supported
    supported_shares: list[float] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: how the chunks were found in the corpus documents
    chunks: ChunkTally = field(default_factory=ChunkTally)

    @property
    def faithfulness(self) -> float | None:
        """RAGChecker's generator faithfulness recomputed from the stored verdicts (mean
        over answers of the supported share, in percent), to set beside its own."""
        shares = self.supported_shares
        return 100 * sum(shares) / len(shares) if shares else None
    changes: Any = None

    def summary(self) -> Message:
        """One paragraph in the reader's language; the counts pick their plural forms."""
        details: list[Any] = [
            Plural("{n} new case", "{n} new cases", len(self.new_cases)),
            Plural("{n} new document", "{n} new documents", len(self.new_documents))]
        if self.claims:
            details.append(Plural("{n} claim with the verdicts of judge '{judge}'",
                                  "{n} claims with the verdicts of judge '{judge}'",
                                  self.claims, judge=self.judge))
        parts: list[Any] = [Plural(
            "{n} RAGChecker result imported as run '{name}' ({details}).",
            "{n} RAGChecker results imported as run '{name}' ({details}).",
            self.results, name=self.name, details=Joined(details, ", "))]
        if self.metrics:  # RAGChecker's own names and values, as its file writes them
            parts.append(Message("RAGChecker's metrics: {metrics}.",
                                 metrics=metrics_text(self.metrics)))
        if self.faithfulness is not None:
            parts.append(Message(
                "Faithfulness from the stored verdicts: {faithfulness:.1f} (RAGChecker's "
                "own: {own}).", faithfulness=self.faithfulness,
                own=self.metrics.get("generator", {}).get("faithfulness", "-")))
        located = self.chunks.summary()
        if located is not None:
            parts.append(Message("{located}.", located=located))
        return Message("{text}", text=Joined(parts, " "))


def metrics_text(metrics: dict[str, Any]) -> str:
    """``overall precision 76.4, recall 62.5; retriever …`` from RAGChecker's block."""
    groups = []
    for group, values in metrics.items():
        if isinstance(values, dict):
            groups.append(f"{group} " + ", ".join(f"{k} {val}" for k, val in values.items()))
    return "; ".join(groups)


def _text(path: Path, where: str, obj: dict[str, Any], name: str, *,
          required: bool = True) -> str | None:
    value = obj.get(name)
    if value is None and not required:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and name.endswith("id"):
        value = str(value)
    if not isinstance(value, str):
        raise ImportRejected(path, None, "{where}: '{name}' must be text.", where=where, name=name)
    try:
        return str(v.check_text(name, value))
    except InvalidValue as error:
        raise ImportRejected(path, None, "{where}: {error}", where=where, error=error) from None


def parse(path: Path, ignored: set[str]) -> tuple[list[Result], dict[str, Any]]:
    """The results of a RAGChecker inputs or outputs file, and its ``metrics``."""
    data = _load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise ImportRejected(path, None, 'expected a RAGChecker file: {"results": [{"query_id",'
                                         ' "query", "gt_answer", "response", '
                                         '"retrieved_context"}, ...]}.')
    claims = None
    if any(isinstance(r, dict) and "response_claims" in r for r in data["results"]):
        claims = [answer.claims for answer in parse_ragchecker(path)]
    results = []
    for i, raw in enumerate(data["results"]):
        where = f"results[{i}]"
        if not isinstance(raw, dict):
            raise ImportRejected(path, None, "{where}: expected an object.", where=where)
        ignored |= {f"results[].{k}" for k in raw if k not in _READ}
        case = str(_text(path, where, raw, "query_id"))
        try:
            v.check_key("query_id", case)
        except InvalidValue as error:
            raise ImportRejected(path, None, "{where}: {error}", where=where, error=error) from None
        chunks = raw.get("retrieved_context") or []
        if not isinstance(chunks, list):
            raise ImportRejected(path, None, "{where}: 'retrieved_context' must be a list of "
                                             '{{"doc_id", "text"}}.', where=where)
        pairs = []
        for j, chunk in enumerate(chunks):
            cwhere = f"{where}.retrieved_context[{j}]"
            if not isinstance(chunk, dict):
                raise ImportRejected(path, None, '{cwhere}: expected {{"doc_id", "text"}}.',
                                                 cwhere=cwhere)
            pairs.append((str(_text(path, cwhere, chunk, "doc_id")),
                          str(_text(path, cwhere, chunk, "text"))))
        results.append(Result(where, case, str(_text(path, where, raw, "query")),
                              _text(path, where, raw, "gt_answer", required=False),
                              str(_text(path, where, raw, "response")), pairs,
                              None if claims is None else _as_stated(path, raw, claims[i]),
                              kept(raw, set(raw) - _READ)))
    metrics = data.get("metrics")
    ignored |= {k for k in data if k not in ("results", "metrics")}
    return results, metrics if isinstance(metrics, dict) else {}


def _as_stated(path: Path, raw: dict[str, Any], claims: list[ToolClaim]) -> list[ToolClaim]:
    """Each claim's labels as RAGChecker states them: ``retrieved2response`` (one per
    chunk) and ``answer2response`` when present; its triplet verbatim as the rationale."""
    triplets = raw.get("response_claims") or []
    precision = raw.get("answer2response")
    if precision is not None and (not isinstance(precision, list)
                                  or len(precision) != len(claims)):
        raise ImportRejected(path, None, "query_id {get!r}: "
                                         "'answer2response' must hold one label per response "
                                         "claim.", get=raw.get('query_id'))
    for j, claim in enumerate(claims):
        claim.raw_label = f"retrieved2response: {claim.raw_label}"
        if precision is not None:
            claim.raw_label += f"; answer2response: {precision[j]}"
        claim.rationale = json.dumps(triplets[j], ensure_ascii=False)
    return claims


class _Documents:
    """doc_id + text → a document key: the gold set's document of that id and text, else
    the chunk's place in a corpus document, else a document of its own (re-keying a doc_id
    met with another text)."""

    def __init__(self, op: Writer, path: Path, report: RagCheckerReport) -> None:
        self.op, self.path, self.report = op, path, report
        rows = op.select("documents")
        self.texts = {row["key"]: normalise(row["text"]) for row in rows}
        self.ids = {row["key"]: int(row["id"]) for row in rows}
        self.matcher = ContextMatcher([(str(r["key"]), str(r["text"])) for r in rows],
                                      searched=searched_keys(rows))
        self.passages = Passages(op, rows)
        report.chunks.searched = self.matcher.located_in()
        self.now = utc_now()

    def __call__(self, doc_id: str, text: str, query_id: str) -> int:
        wanted = normalise(text)
        if self.texts.get(doc_id) == wanted:
            return self.ids[doc_id]
        found = self.matcher.match(text) if self.report.chunks.searched else None
        self.report.chunks.count(found, text)
        if found is not None:
            key = self.passages.key_for(found, text)
            if key not in self.ids:
                self.ids[key] = int(self.passages.rows[key]["id"])
                self.texts[key] = normalise(text)
            return self.ids[key]
        for key in (doc_id, f"{doc_id}@{query_id}"):
            if key not in self.texts:
                return self._add(key, text, wanted, rekeyed=key != doc_id)
            if self.texts[key] == wanted:
                return self.ids[key]
        raise ImportRejected(self.path, None, "document '{doc_id}@{query_id}' exists with "
                                              "another text; rename it or import into a "
                                              "fresh gold set.", doc_id=doc_id, query_id=query_id)

    def _add(self, key: str, text: str, wanted: str, *, rekeyed: bool) -> int:
        try:
            columns = v.document_columns({"key": key, "text": text})
        except InvalidValue as error:
            raise ImportRejected(self.path, None, "document '{key}': {error}",
                                                  key=key, error=error) from None
        new_id = int(self.op.insert("documents", {**columns, "created_at": self.now,
                                                  "updated_at": self.now})["id"])
        self.texts[key], self.ids[key] = wanted, new_id
        self.report.new_documents.append(key)
        if rekeyed:
            self.report.rekeyed.append(key)
        return new_id


def import_ragchecker_run(store: Store, path: Path, *, run: str | None = None,
                          judge: str | None = None,
                          cancel: Callable[[], bool] | None = None) -> RagCheckerReport:
    """Import a RAGChecker inputs or outputs file as a new run (see the module docstring)."""
    ignored: set[str] = set()
    results, metrics = parse(path, ignored)
    report = RagCheckerReport(name=run or path.stem, results=len(results), metrics=metrics,
                              judge=judge or "RAGChecker")
    try:
        v.check_key("run name", report.name)
        v.check_key("judge name", report.judge)
    except InvalidValue as error:
        raise ImportRejected(path, None, "{error} Name it with --run / --assessor.",
                                         error=error) from None
    seen: dict[str, str] = {}
    for r in results:
        if r.case in seen:
            raise ImportRejected(path, None, "{where}: query_id '{case}' was already "
                                             "given by {seen}; one result per query.",
                                             where=r.where, case=r.case, seen=seen[r.case])
        seen[r.case] = r.where
    with store.operation("import_run", f"{report.name} ← {path.name}") as op:
        _write(op, path, results, report, cancel)
        if metrics:
            op.update("runs", {"name": report.name}, {
                "notes": f"Imported from {path.name}. RAGChecker's metrics: "
                         f"{metrics_text(metrics)}."})
    report.changes = made(op.changes())
    _warn(report, ignored)
    return report


def _write(op: Writer, path: Path, results: list[Result], report: RagCheckerReport,
           cancel: Callable[[], bool] | None) -> None:
    """Inside the operation: the run, its cases, documents, lists, answers and claims."""
    if op.select("runs", name=report.name):
        raise Conflict("a run named '{name}' already exists; choose another name "
                       "with --run NAME.", name=report.name)
    now = utc_now()
    run_id = int(op.insert("runs", {"name": report.name, "created_at": now,
                                    "notes": f"Imported from {path.name}."})["id"])
    cases = {row["key"]: int(row["id"]) for row in op.select("cases")}
    documents = _Documents(op, path, report)
    judge_id = None
    for r in polled(results, cancel, every=200):
        if r.case not in cases:
            cases[r.case] = int(op.insert("cases", {
                "key": r.case, "question": r.query, "reference_answer": r.gt_answer,
                "status": "draft", "notes": f"Made by importing {path.name}.",
                "created_at": now, "updated_at": now})["id"])
            report.new_cases.append(r.case)
        ranked: dict[int, int] = {}
        for rank, (doc_id, text) in enumerate(r.chunks, start=1):
            ranked.setdefault(documents(doc_id, text, r.case), rank)
        op.insert_rows("retrieved", ("run_id", "case_id", "document_id", "rank", "score"),
                       [(run_id, cases[r.case], doc, rank, None)
                        for rank, doc in enumerate(ranked, start=1)])
        answer_id = int(op.insert("answers", {"run_id": run_id, "case_id": cases[r.case],
                                              "text": r.response,
                                              "extra": extra_text(r.extra)})["id"])
        if r.claims is None:
            add_candidate_claims(op, answer_id, r.response)
            continue
        if judge_id is None:
            judge_id = _judge_assessor(op, path, report.judge)
        if r.claims:
            report.supported_shares.append(
                sum(c.verdict == "supported" for c in r.claims) / len(r.claims))
        for position, claim in enumerate(r.claims, start=1):
            claim_id = int(op.insert("claims", {"answer_id": answer_id, "position": position,
                                                "text": claim.text})["id"])
            op.insert("judge_verdicts", {"claim_id": claim_id, "assessor_id": judge_id,
                                         "verdict": claim.verdict,
                                         "raw_label": claim.raw_label,
                                         "rationale": claim.rationale,
                                         "updated_at": now})
            report.claims += 1
    report.chunks.new_passages = documents.passages.added


def _warn(report: RagCheckerReport, ignored: set[str]) -> None:
    report.warnings.extend(report.chunks.warnings())
    if report.rekeyed:
        report.warnings.append(
            Message(
            "{n_rekeyed} doc_ids came back with another text in a later query; "
            "each such text is kept as document <doc_id>@<query_id> "
            "({few_names})", n_rekeyed=len(report.rekeyed), few_names=few_names(report.rekeyed)))
    per_result = sorted(name for name in ignored if name.startswith("results[]."))
    if per_result:  # kept on each answer
        report.warnings.append(Message(
                               "{kept_in_extra}: {few_names}",
                               kept_in_extra=KEPT_IN_EXTRA, few_names=few_names(per_result)))
    lost = sorted(set(ignored) - set(per_result))
    if lost:
        report.warnings.append(Message("fields not kept: {few_names}", few_names=few_names(lost)))


def import_ragchecker_run_file(store: Store, source: Path,
                               options: Options) -> RagCheckerReport:
    """Registry entry for ``ragchecker-run``."""
    return import_ragchecker_run(store, source, run=options.run, judge=options.assessor,
                                 cancel=options.cancel)
