"""Import a Ragas synthetic test set into the review queue (registry entry ``ragas-testset``).

Both generations of Ragas's field names are read, from JSONL, a JSON list (``to_list()``,
or ``{"samples": [{"eval_sample": {...}, "synthesizer_name": ...}]}``) or CSV (``to_pandas()
.to_csv()``, lists written as Python lists):

* v0.1: ``question``, ``ground_truth``, ``contexts``, ``evolution_type``, ``metadata``,
  ``episode_done``;
* v0.2+: ``user_input``, ``reference``, ``reference_contexts``, ``synthesizer_name``,
  ``persona_name``, ``query_style``, ``query_length``.

Each sample becomes a *draft* case (keys ``GEN001``…) with a pending review
(``case_reviews``): the question, the reference answer, and the reference contexts found
in the corpus by their text (``context_match``: exactly, located in a document even when
another parser read it, or by their words) as expected sources: one per document, with
the context's span when it is the one context located in that document; a context that
matches no document is kept in the case's notes so the reviewer still reads it.  A question close to
an existing case's or an earlier sample's (word overlap ≥ :data:`NEAR_DUPLICATE`) is flagged
as a near-duplicate of it.  Fields with no column (``persona_name``, ``query_style``,
``query_length``, unknown ones…) are kept in the case's ``extra`` and named in a warning.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rag_annotator.domain import validation as v
from rag_annotator.domain.goldset_ops import case_keys_after
from rag_annotator.domain.ports import Writer
from rag_annotator.import_export.cases_import import CaseImportReport, CaseStore, write_cases
from rag_annotator.import_export.context_match import ContextMatcher, Match
from rag_annotator.import_export.extra_fields import KEPT_IN_EXTRA, extra_text, kept
from rag_annotator.import_export.files import Cancelled, ImportRejected, read_json_lines
from rag_annotator.import_export.passages import expected_spans
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.runs_jsonl import normalise
from rag_annotator.import_export.tabular import MAX_TABLE_BYTES, few_names, read_table
from rag_annotator.messages import Joined, Message

#: Word-set overlap (Jaccard) from which two questions are flagged as near-duplicates.
NEAR_DUPLICATE = 0.8

V01 = {"question": "question", "ground_truth": "reference", "contexts": "contexts"}
V02 = {"user_input": "question", "reference": "reference", "reference_contexts": "contexts"}
ORIGIN_FIELDS = ("synthesizer_name", "evolution_type")
KNOWN = {*V01, *V02, *ORIGIN_FIELDS, "metadata", "episode_done", "persona_name",
         "query_style", "query_length", "retrieved_contexts", "response", "multi_responses",
         "reference_context_ids", "retrieved_context_ids", "rubrics"}


class TestsetStore(CaseStore, Protocol):
    """Reads the test-set import needs."""

    def case_questions(self) -> list[tuple[int, str, str]]: ...
    def corpus_texts(self) -> list[tuple[str, str]]: ...


@dataclass
class TestsetReport(CaseImportReport):
    """What a test-set import stored."""

    version: str = ""
    near_duplicates: list[str] = field(default_factory=list)
    unknown_fields: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [Message("{cases} generated cases ({version}) added to the review queue with "
                         "{sources} expected sources", cases=self.cases, version=self.version,
                         sources=self.sources)]
        if self.near_duplicates:
            parts.append(Message("{n} flagged as near-duplicates", n=len(self.near_duplicates)))
        if self.unmatched_sources:
            parts.append(Message("{n} contexts matched no document and were kept in the notes",
                                 n=len(self.unmatched_sources)))
        return Message("{parts}.", parts=Joined(parts))


def words(text: str) -> frozenset[str]:
    """The word set of a question, as near-duplicate detection compares them."""
    return frozenset(re.findall(r"\w+", normalise(text)))


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard overlap of two word sets (0 for two empty sets)."""
    return len(a & b) / len(a | b) if a or b else 0.0


def _records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv", ".xlsx"):
        table = read_table(path)
        return [(n, dict(zip(table.headers, cells))) for n, cells in table.rows]
    if suffix == ".json":
        if path.stat().st_size > MAX_TABLE_BYTES:
            raise ImportRejected(path, None, "the file is too large; split it.")
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except (ValueError, UnicodeDecodeError) as error:
            raise ImportRejected(path, None, "not valid JSON ({error}).", error=error) from None
        if isinstance(data, dict) and isinstance(data.get("samples"), list):
            data = data["samples"]
        if not isinstance(data, list):
            raise ImportRejected(path, None, "expected a list of samples.")
        return [(i, _flatten(item, path, i)) for i, item in enumerate(data, start=1)]
    out = []
    for number, obj in read_json_lines(path, objects=False):
        out.append((number, _flatten(obj, path, number)))
    return out


def _flatten(obj: Any, path: Path, number: int) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise ImportRejected(path, number, "expected a JSON object per sample.")
    sample = obj.get("eval_sample")
    if isinstance(sample, dict):  # Testset.samples: {"eval_sample": {...}, "synthesizer_name"}
        return {**sample, **{k: val for k, val in obj.items() if k != "eval_sample"}}
    return dict(obj)


def _contexts(value: Any) -> list[str]:
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return [str(x) for x in value if str(x).strip()]
    text = str(value).strip()
    if text.startswith("["):
        for parse in (json.loads, ast.literal_eval):
            try:
                parsed = parse(text)
            except (ValueError, SyntaxError):
                continue
            if isinstance(parsed, list):
                return [str(x) for x in parsed if str(x).strip()]
    return [text]


def import_testset(store: TestsetStore, source: Path, options: Options) -> TestsetReport:
    """Generated samples as draft cases with pending reviews; all or nothing."""
    report = TestsetReport()
    records = _records(source)
    if not records:
        raise ImportRejected(source, None, "the file holds no sample.")
    fields = {k for _n, r in records for k in r}
    names, report.version = _ragas_names(source, fields)
    report.unknown_fields = sorted(fields - KNOWN)
    if report.unknown_fields:
        report.warnings.append(Message("{name}: fields not known to Ragas test sets were kept in "
                                       "extra: {few_names}.", name=source.name,
                                       few_names=few_names(report.unknown_fields)))
    known_lost = sorted((fields & KNOWN) - set(names) - set(ORIGIN_FIELDS))
    if known_lost:  # persona_name, query_style…: read, the case has no column for them
        report.warnings.append(Message("{name}: {kept}: {few_names}.", name=source.name,
                                       kept=KEPT_IN_EXTRA, few_names=few_names(known_lost)))
    in_extra = [*known_lost, *report.unknown_fields]
    matcher = ContextMatcher(list(store.corpus_texts()))  # Markdown-, chunk-aware
    existing = [(case_id, key, words(q)) for case_id, key, q in store.case_questions()]
    fresh_keys = case_keys_after(store.case_keys(), "GEN", 3)  # one scan: linear
    cases: list[dict[str, Any]] = []
    sources: list[tuple[str, str]] = []
    spans: dict[tuple[str, str], tuple[int, int]] = {}
    duplicates: list[tuple[int, int | None, str | None]] = []  # (index, case id, new key)
    earlier: list[tuple[str, frozenset[str]]] = []
    for i, (number, record) in enumerate(records):
        if options.cancel is not None and i % 500 == 0 and options.cancel():
            raise Cancelled()
        mapped = {target: record.get(name) for name, target in names.items()}
        question = str(mapped.get("question") or "").strip()
        where = number if source.suffix.lower() in (".jsonl", ".json", ".ndjson") else None
        if not question:
            raise ImportRejected(source, where, "{value}the "
                                 "sample has no question; nothing was imported.",
                                 value='' if where else Message("row {number}: ", number=number))
        key = next(fresh_keys)
        notes, found_in = _located(matcher, mapped.get("contexts"), report)
        docs = []
        for doc, span in expected_spans(found_in):
            docs.append(doc)
            if span is not None:
                spans[(key, doc)] = span
        note = ("Reference contexts (not found in the corpus):\n" + "\n---\n".join(notes)
                if notes else "")
        reference = str(mapped.get("reference") or "").strip()
        case = v.case_columns({"question": question, "notes": note, "status": "draft",
                               **({"reference_answer": reference} if reference else {})})
        case["key"] = key
        extra = kept(record, in_extra)
        if extra:
            case["extra"] = extra_text(extra)
        cases.append(case)
        sources.extend((key, d) for d in docs)
        mine = words(question)
        best = _nearest(mine, existing, earlier)
        if best[0] >= NEAR_DUPLICATE:
            duplicates.append((i, best[1], best[2]))
            report.near_duplicates.append(key)
        earlier.append((key, mine))
    origins = [_origin(report.version, r) for _n, r in records]
    flagged = {i: (case_id, new_key) for i, case_id, new_key in duplicates}

    def add_reviews(op: Writer, ids: dict[str, int]) -> None:
        op.insert_rows("case_reviews", ["case_id", "origin", "near_duplicate_of"], (
            [ids[case["key"]], origins[i], _dup(flagged.get(i), ids)]
            for i, case in enumerate(cases)))

    write_cases(store, source, cases, sources, options, report, action="import_testset",
                after=add_reviews, spans=spans)
    return report


def _ragas_names(source: Path, fields: set[str]) -> tuple[dict[str, str], str]:
    """The field names of the Ragas version that wrote the file, and that version's name."""
    if any(k in fields for k in V02):
        return V02, "Ragas v0.2+"
    if any(k in fields for k in V01):
        return V01, "Ragas v0.1"
    raise ImportRejected(source, None, "no Ragas question field (user_input or question) "
                                       "among: {fields}.", fields=', '.join(sorted(fields)))


def _located(matcher: ContextMatcher, contexts: Any, report: TestsetReport
             ) -> tuple[list[str], list[Match]]:
    """A sample's reference contexts: those not found in the corpus (kept in the case's
    notes) and where the others were found."""
    notes: list[str] = []
    found_in: list[Match] = []
    for context in _contexts(contexts):
        found = matcher.match(context)
        if found is None:
            notes.append(context)
            report.unmatched_sources.append(context[:60])
        else:
            found_in.append(found)
    return notes, found_in


def _nearest(mine: frozenset[str], existing: list[tuple[int, str, frozenset[str]]],
             earlier: list[tuple[str, frozenset[str]]]
             ) -> tuple[float, int | None, str | None]:
    """The most similar question: (score, existing case id, or key of a sample of this
    file imported before it)."""
    best: tuple[float, int | None, str | None] = (0.0, None, None)
    for case_id, _key, other in existing:
        score = similarity(mine, other)
        if score > best[0]:
            best = (score, case_id, None)
    for other_key, other in earlier:
        score = similarity(mine, other)
        if score > best[0]:
            best = (score, None, other_key)
    return best


def _dup(found: tuple[int | None, str | None] | None, ids: dict[str, int]) -> int | None:
    if found is None:
        return None
    case_id, new_key = found
    return case_id if case_id is not None else ids.get(new_key or "")


def _origin(version: str, record: dict[str, Any]) -> str:
    kind = next((str(record[f]) for f in ORIGIN_FIELDS if record.get(f)), "")
    return f"{version}: {kind}" if kind else version


__all__: Sequence[str] = ("import_testset",)
