"""A Ragas evaluation dataset or result as a run (registry entry ``ragas``).

Read as users save them: ``result.to_pandas().to_csv()`` (an index column, lists written as
Python lists: ``"['a', 'b']"``, read with :func:`ast.literal_eval`, which evaluates no code),
``to_jsonl()``, or ``json.dump(to_list())`` (an array); gzipped or not.

Both generations of names:

* v0.1: ``question``, ``answer`` (the system's answer: the run's answer), ``contexts``
  (retrieved), ``ground_truths`` (a list) or ``ground_truth`` (the reference answer);
* v0.2+: ``user_input``, ``response``, ``retrieved_contexts``, ``retrieved_context_ids``,
  ``reference``, ``reference_contexts``, ``reference_context_ids``.

The singular ``context`` is read as the retrieved contexts.  Metric columns
(``faithfulness``…) and any other field are kept in the answer's ``extra`` and named in the
report (a sample without a response has no answer to hold them).

Questions are matched to cases by text (a placeholder case otherwise, its reference answer
and — for reference contexts that match a document — its expected sources taken from the
file: the document, with the context's span when it is the one context found in it).
Contexts are matched to documents by ``retrieved_context_ids`` when they name known
documents, else by :mod:`context_match`: a context located at one place of a corpus
document is ranked as its *passage* (:mod:`passages`), so several chunks of one document
are several passages, each at its own rank; a context that is a whole document, or matches
one only as a whole, ranks that document (once, at its best rank).  A context matching no
document is left out of the ranking and listed, unless ``--add-unmatched`` keeps it as a
document of origin ``unmatched_context`` (always so when the gold set has no documents yet).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.errors import InvalidValue
from rag_annotator.import_export.context_match import ContextMatcher, Match, plain
from rag_annotator.import_export.extra_fields import KEPT_IN_EXTRA, kept
from rag_annotator.import_export.files import ImportRejected, polled
from rag_annotator.import_export.passages import Passages, expected_spans, searched_keys
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.runs_jsonl import RunRecord, _import
from rag_annotator.import_export.tabular import few_names, read_table
from rag_annotator.import_export.text_sources import list_cell, read_records
from rag_annotator.import_export.trec_files import ImportReport
from rag_annotator.messages import N_, Joined, Message, Rendered, render_any

#: Ragas field → what it is, for both generations (first name found wins).
QUESTION = ("user_input", "question")
RESPONSE = ("response", "answer")
RETRIEVED = ("retrieved_contexts", "contexts", "context")
RETRIEVED_IDS = ("retrieved_context_ids",)
REFERENCE = ("reference", "ground_truth", "ground_truths")
REFERENCE_CONTEXTS = ("reference_contexts",)
REFERENCE_IDS = ("reference_context_ids",)
KEPT = {*QUESTION, *RESPONSE, *RETRIEVED, *RETRIEVED_IDS, *REFERENCE, *REFERENCE_CONTEXTS,
        *REFERENCE_IDS}
#: How a context matched its document, as the report counts it.
HOW_WORDS = {"exact": N_("{n} exact"), "normalised": N_("{n} normalised"),
             "fuzzy": N_("{n} fuzzy"), "contained": N_("{n} contained"),
             "mostly": N_("{n} mostly"), "by id": N_("{n} by id"), "added": N_("{n} added")}
#: Columns pandas adds: the index ``to_csv()`` writes without a header, or names so on reading.
INDEX_COLUMNS = {"", "Unnamed: 0", "index"}
TABLE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".csv.gz", ".tsv.gz")


@dataclass
class RagasReport(ImportReport):
    """A run import's report with how the contexts were matched."""

    version: str = ""
    contexts: int = 0
    matched: dict[str, int] = field(default_factory=dict)  # how → count
    unmatched: list[str] = field(default_factory=list)     # the first words of each
    merged: int = 0                                        # further chunks of a ranked doc
    not_kept: list[str] = field(default_factory=list)
    expected_sources: int = 0

    @property
    def match_rate(self) -> float:
        """Share of the retrieved contexts matched to a document (1.0 when there were none)."""
        return sum(self.matched.values()) / self.contexts if self.contexts else 1.0

    def core_summary(self) -> str:
        base = super().core_summary()
        if not self.contexts:
            return base
        how = [Message(HOW_WORDS[k], n=n) if k in HOW_WORDS else Message("{n} {how}", n=n,
                                                                            how=k)
               for k, n in self.matched.items() if n]
        return Message("{base}; {matched} of {contexts} contexts matched a document "
                       "({rate:.0%}{how}).", contexts=self.contexts,
                       base=Rendered(lambda lang: render_any(base, lang).removesuffix(".")),
                       matched=sum(self.matched.values()), rate=self.match_rate,
                       how=Joined([": ", Joined(how, ", ")], "") if how else "")


def import_ragas(store: Store, source: Path, options: Options) -> RagasReport:
    """A Ragas dataset (CSV, JSON Lines or JSON array) as a new run; all or nothing."""
    report = RagasReport()
    raw = _raw_records(source)
    if not raw:
        raise ImportRejected(source, None, "the file holds no sample.")
    names = {k for _n, r in raw for k in r} - INDEX_COLUMNS
    if not any(n in names for n in QUESTION):
        raise ImportRejected(source, None, "no Ragas question field (user_input or question) "
                                           "among: {few_names}.",
                                           few_names=few_names(sorted(names)))
    report.version = "Ragas v0.2+" if "user_input" in names else "Ragas v0.1"
    report.not_kept = sorted(names - KEPT)
    if report.not_kept:
        report.warnings.append(Message(
                               "{kept_in_extra}: {few_names}",
                               kept_in_extra=KEPT_IN_EXTRA, few_names=few_names(report.not_kept)))
    table = source.name.lower().endswith(TABLE_SUFFIXES)
    records, references = [], []
    for number, raw_record in raw:
        record, ref_texts, ref_ids = _record(source, number, raw_record, table)
        record.extra = kept(raw_record, report.not_kept)
        records.append(record)
        references.append((ref_texts, ref_ids))
    matcher_box: list[ContextMatcher] = []

    def match_contexts(op: Writer, path: Path, recs: list[RunRecord], rep: ImportReport
                       ) -> None:
        matcher_box.append(_match_all(op, path, recs, report, options))

    def add_sources(op: Writer, cases: dict[str, int], docs: dict[str, int]) -> None:
        if matcher_box:
            _expected_sources(op, records, references, report, matcher_box[0], cases, docs)

    _import(store, source, records, name=options.run, strict=False, ragas=True,
            report=report, cancel=options.cancel, match_contexts=match_contexts,
            after=add_sources)
    return report


def _raw_records(source: Path) -> list[tuple[int, dict[str, Any]]]:
    if source.name.lower().endswith(TABLE_SUFFIXES):
        table = read_table(source)
        return [(n, dict(zip(table.headers, cells))) for n, cells in table.rows]
    found = read_records(source).items
    out = []
    for number, obj in found:
        sample = obj.get("eval_sample")
        if isinstance(sample, dict):  # a Testset's samples: {"eval_sample": {...}, ...}
            obj = {**sample, **{k: val for k, val in obj.items() if k != "eval_sample"}}
        out.append((number, obj))
    return out


def _first(record: dict[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        value = record.get(name)
        if value is not None and value != "":
            return value
    return None


def _record(source: Path, number: int, raw: dict[str, Any], table: bool
            ) -> tuple[RunRecord, list[str], list[str]]:
    where: str | Message = Message("row {number}: ", number=number) if table else ""
    line = None if table else number

    def refuse(message: str, **params: Any) -> ImportRejected:
        return ImportRejected(source, line, "{where}{message_}", where=where,
                              message_=Message(message, **params))

    question = _first(raw, QUESTION)
    if not isinstance(question, str) or not question.strip():
        raise refuse("the sample has no question (user_input or question); nothing was "
                     "imported.")
    try:
        record = RunRecord(number,
                           question=str(v.check_text("question", question)),
                           reference=_reference(_first(raw, REFERENCE), refuse),
                           answer=_text(_first(raw, RESPONSE), "response", refuse),
                           contexts=_texts(_first(raw, RETRIEVED), "retrieved contexts",
                                           refuse),
                           context_ids=_texts(_first(raw, RETRIEVED_IDS),
                                              "retrieved_context_ids", refuse) or None)
    except InvalidValue as error:
        raise refuse("{error}", error=error) from None
    if record.context_ids is not None and len(record.context_ids) != len(record.contexts or []):
        raise refuse("{n_context_ids} retrieved_context_ids for "
                     "{n_value} retrieved contexts; give one id per "
                     "context.",
                     n_context_ids=len(record.context_ids), n_value=len(record.contexts or []))
    ref_texts = _texts(_first(raw, REFERENCE_CONTEXTS), "reference_contexts", refuse)
    ref_ids = _texts(_first(raw, REFERENCE_IDS), "reference_context_ids", refuse)
    return record, ref_texts, ref_ids


def _text(value: Any, name: str, refuse: Callable[..., ImportRejected]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise refuse("'{name}' must be text.", name=name)
    return v.check_text(name, value)


def _reference(value: Any, refuse: Callable[..., ImportRejected]) -> str | None:
    """``reference``/``ground_truth`` (text) or v0.1's ``ground_truths`` (a list of texts)."""
    if isinstance(value, str) and value.lstrip().startswith("["):
        value = _list_cell(value, "ground_truths", refuse)
    if isinstance(value, list):
        texts = [str(t) for t in value if str(t).strip()]
        return "\n\n".join(texts) if texts else None
    return _text(value, "reference", refuse)


def _texts(value: Any, name: str, refuse: Callable[..., ImportRejected]) -> list[str]:
    """A list of texts: a JSON list, or a cell holding one as Python or JSON writes it."""
    if value is None:
        return []
    if isinstance(value, str):
        value = _list_cell(value, name, refuse) if value.lstrip().startswith("[") else [value]
    if not isinstance(value, list) or not all(isinstance(t, (str, int)) for t in value):
        raise refuse("'{name}' must be a list of texts.", name=name)
    return [str(v.check_text(name, str(t))) for t in value if str(t).strip()]


def _list_cell(text: str, name: str, refuse: Callable[..., ImportRejected]) -> list[Any]:
    """A list cell (``text_sources.list_cell``), or a refusal naming the field."""
    parsed = list_cell(text)
    if parsed is not None:
        return parsed
    raise refuse("'{name}' looks like a list but is not one Python or JSON can read "
                 "(starts {text!r}); save the file again from Ragas.", name=name, text=text[:40])


def _match_all(op: Writer, path: Path, records: list[RunRecord], report: RagasReport,
               options: Options) -> ContextMatcher:
    """Each record's contexts → documents or passages (ids first, then text)."""
    rows = op.select("documents")
    known = {str(r["key"]) for r in rows}
    matcher = ContextMatcher([(str(r["key"]), str(r["text"])) for r in rows],
                             searched=searched_keys(rows))
    passages = Passages(op, rows)
    report.chunks.searched = matcher.located_in()
    add_unmatched = options.add_unmatched or not rows
    now = utc_now()
    several = 0
    for r in polled(records, options.cancel, every=50):  # ~2 ms a chunk to locate
        ids = r.context_ids or []
        for position, text in enumerate(r.contexts or []):
            report.contexts += 1
            given = ids[position] if position < len(ids) else None
            found: Match | None = Match(given, "by id") if given in known else None
            found = found or matcher.match(text)
            if given not in known:
                report.chunks.count(found, text)
            if found is None and add_unmatched:
                key = "ctx-" + hashlib.sha256(plain(text).encode()).hexdigest()[:12]
                if key not in known:
                    op.insert("documents", {**v.document_columns(
                        {"key": key, "title": text[:60], "text": text,
                         "origin": "unmatched_context"}), "created_at": now, "updated_at": now})
                    known.add(key)
                    matcher.add(key, text)
                    report.new_documents.append(key)
                found = Match(key, "added")
            if found is None:
                report.unmatched.append(" ".join(text.split())[:60])
                continue
            report.matched[found.how] = report.matched.get(found.how, 0) + 1
            several += found.several
            key = passages.key_for(found, text)
            if key in r.documents:
                report.merged += 1
                continue
            r.documents.append(key)
            r.scores.append(None)
        r.contexts = None  # matched: _check_lists now speaks of documents
    report.chunks.new_passages = passages.added
    _warn(report, several)
    return matcher


def _warn(report: RagasReport, several: int) -> None:
    if report.contexts:
        report.warnings.append(
            Message(
            "{sum} of {contexts} retrieved contexts matched a "
            "document ({match_rate:.0%})",
            sum=sum(report.matched.values()), contexts=report.contexts,
            match_rate=report.match_rate))
    if report.unmatched:
        report.warnings.append(
            Message(
            "{n_unmatched} contexts matched no document and were left out of the "
            "ranking (the contexts after them move up; --add-unmatched keeps them as "
            "documents): {few_names}",
            n_unmatched=len(report.unmatched), few_names=few_names(report.unmatched, 5)))
    if report.matched.get("added"):
        report.warnings.append(Message("{matched} contexts matched no document and "
                                       "were added as documents of origin unmatched_context",
                                       matched=report.matched['added']))
    if report.merged:
        report.warnings.append(Message(
                               "{merged} contexts were further chunks of a document "
                               "ranked higher for the same question; the document keeps its "
                               "best rank", merged=report.merged))
    if several:
        report.warnings.append(Message("{several} contexts matched several documents equally; the "
                                       "first by key was used", several=several))
    report.warnings.extend(report.chunks.warnings())


def _expected_sources(op: Writer, records: list[RunRecord],
                      references: list[tuple[list[str], list[str]]], report: RagasReport,
                      matcher: ContextMatcher, cases: dict[str, int], docs: dict[str, int]
                      ) -> None:
    """Reference contexts of the cases this import created → their expected sources."""
    new = set(report.new_cases)
    for r, (texts, ids) in zip(records, references):
        if r.case not in new:
            continue
        found: list[Match] = []
        for position, text in enumerate(texts):
            given = ids[position] if position < len(ids) else None
            match = Match(given, "by id") if given in docs else matcher.match(text)
            if match is not None and match.key in docs:
                found.append(match)
        for key, span in expected_spans(found):
            op.insert("expected_sources", {"case_id": cases[r.case], "document_id": docs[key],
                                           "span_start": span[0] if span else None,
                                           "span_end": span[1] if span else None,
                                           "note": "Ragas reference context"})
            report.expected_sources += 1
