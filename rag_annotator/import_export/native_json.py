"""The native JSON format: the whole gold set in one versioned, lossless file.

Shape (``resources/schema/goldset.schema.json`` is its JSON Schema)::

    {"format": "rag_annotator", "version": 1, "schema_version": 2,
     "meta": {...}, "assessors": [...], "identities": [...], "documents": [...], "cases": [... with
     "expected_sources"], "case_reviews": [...], "runs": [...], "retrieved": [...],
     "answers": [... with "citations" and "claims" (with "evidence", "judge_verdicts")],
     "answer_reviews": [...], "trajectories": [... with "steps"], "trajectory_reviews": [...],
     "agent_metrics": {run: {...}}  (when there are trajectories; derived, not imported),
     "assessor_metrics": {...}  (per assessor judged, remaining, median seconds, kappa,
     self-consistency, outliers; derived, not imported),
     "judgments": [... with "seconds"], "adjudications": [...], "releases": [...],
     "campaigns": [... with "assessors", "items"], "assignments": [...],
     "control_judgments": [...], "cannot_judge": [...], "claim_assessments": [...],
     "trajectory_assessments": [...]  (see ``native_team``),
     "history": [...]  (only with --history)}

Rows refer to each other by natural keys (case key, document key, run name, assessor name),
never by row ids.  Labels keep their three states: ``grade`` 0…max_grade, or null for "in the pool,
unjudged".  List fields (tags, rights…) are JSON arrays; timestamps are kept as stored.
A case, an answer, a document or a trajectory may carry ``extra``: an object of the fields
an import kept that have no column (left out when empty; anything but an object is refused,
naming the record).
An agent case (``kind`` agent) carries its expectations: ``expected_state`` (an object of
dotted keys), ``forbidden_tools`` / ``required_tools`` (arrays of tool names),
``tool_order`` (an array of ``[before, after]`` pairs) and the budgets ``max_steps``,
``max_tokens``, ``max_seconds``, ``max_cost`` (number or null); a RAG case has them empty.
A trajectory's ``final_state`` is an object (or null), a step's ``arguments`` the JSON text
as logged.  Files written before agent cases (no such fields or sections) still import.
``identities`` (the rights matrix's test identities: ``name``, ``groups``, ``note``, in the
matrix's order) may be absent: a file written before them imports with none.

Export → import into a new file → export gives the same bytes: every list has a fixed order
(keys; the stored order where an entity has no key: expected sources, citations, claims,
evidence, releases) and the import inserts rows in that order.

Import: only into an EMPTY gold set (a new file): a gold set is not merged from JSON (the
``merge`` command brings a colleague's judgments and verdicts into a file).  Into a file that
holds anything the import is refused with a message saying so.  The history section, when
present, is not imported (its row ids belong to the other file): the new file's history starts
with the import, which one undo removes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rag_annotator.domain.agents import agent_column
from rag_annotator.domain.changes import Changes, made
from rag_annotator.domain.enums import (
    Behaviour,
    CaseStatus,
    CitationSupport,
    Difficulty,
    DocStatus,
    Family,
    Outcome,
    Verdict,
    values,
)
from rag_annotator.errors import InvalidValue, KnownError
from rag_annotator.import_export import native_samples, native_team
from rag_annotator.import_export.entity_counts import counts_text
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.native_documents import (
    DOCUMENT_DEFAULTS,
    LayoutField,
    check_document,
    layout_value,
    read_files,
)
from rag_annotator.import_export.native_json_export import (  # the writer, re-exported
    FORMAT,
    VERSION,
    ExportReport,
    _Writer,
    agent_metrics,
    cancelled,
    export_json,
)
from rag_annotator.import_export.native_rows import RowChecker
from rag_annotator.import_export.native_stream import JsonStream, NotAnObject
from rag_annotator.import_export.native_structured import SECTIONS as STRUCTURED_SECTIONS
from rag_annotator.import_export.native_structured import read_sections
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.row_errors import without_name
from rag_annotator.messages import Message
from rag_annotator.storage.store import GoldSetStore

__all__ = ["FORMAT", "VERSION", "ExportReport", "ImportReport", "_Writer", "agent_metrics",
           "cancelled", "check_value", "export_json", "import_json",
           "read_document", "require_empty"]

#: Largest JSON file an import reads.
MAX_JSON_BYTES = 2 * 1024**3

#: The action code of every whole-file import of this area (label: format and file name).
IMPORT_ACTION = "import_file"


@dataclass
class ImportReport:
    """What an import stored."""

    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    #: What the import's one operation changed (None: nothing).
    changes: Changes | None = None
    #: Tells the progress how many rows are stored so far (set while loading).
    tell: Callable[[int], None] | None = field(default=None, repr=False, compare=False)

    def summary(self) -> str:
        parts = counts_text(self.counts)
        if not parts.parts:
            return Message("imported: nothing.")
        return Message("imported: {counts}.", counts=parts)


# -- import: field checks ----------------------------------------------------------------------
class _Fields(Protocol):
    def __call__(self, item: Any, where: str) -> dict[str, Any]: ...


_KEY, _TEXT, _OTEXT, _INT, _OINT, _ONUM, _LIST, _OBIT, _OSTATE = (
    "key", "text", "text?", "int", "int?", "number?", "list", "0/1?", "object?")
#: A case's or answer's ``extra``: the fields an import kept that have no column (issue 18).
_EXTRA = "extra"


@dataclass(frozen=True)
class AgentField:
    """The kind of an agent case's expectation column: any form ``domain.agents`` reads
    (the JSON value, or the text a cell holds), stored in its canonical JSON spelling."""

    name: str


def _enum(*allowed: str, optional: bool = False) -> tuple[bool, tuple[str, ...]]:
    return optional, allowed


def check_value(path: Path, label: str, value: Any, kind: Any, line: int | None = None) -> Any:
    """A value of one field, checked against its kind (ImportRejected naming ``label``)."""
    def bad(expected: str) -> ImportRejected:
        return ImportRejected(path, line, "{label}: expected {expected}, got "
                                          "{show}; fix the file or export it again.",
                                          label=label, expected=expected, show=_show(value))
    if isinstance(kind, AgentField):
        try:
            return agent_column(kind.name, "" if value is None else value)
        except InvalidValue as error:
            raise ImportRejected(path, line, "{label}: {message_}", label=label,
                                 message_=without_name(error, kind.name)) from None
    if kind == _EXTRA:
        return extra_value(value, bad)
    if isinstance(kind, LayoutField):
        try:
            return layout_value(kind, value)
        except InvalidValue as error:
            raise ImportRejected(path, line, "{label}: {message_}", label=label,
                                 message_=error) from None
    if kind == _OSTATE:
        if isinstance(value, str):  # a flat table's cell holds the JSON text
            try:
                value = json.loads(value)
            except ValueError:
                raise bad("a JSON object or null") from None
        if value is None:
            return None
        if not isinstance(value, dict):
            raise bad("a JSON object or null")
        try:
            return json.dumps(value, ensure_ascii=False, allow_nan=False)
        except ValueError:
            raise bad("a JSON object without NaN or infinity") from None
    if isinstance(kind, tuple):
        optional, allowed = kind
        if value is None and optional:
            return None
        if value not in allowed:
            raise bad("one of " + ", ".join(allowed) + (" or null" if optional else ""))
        return value
    if kind in (_TEXT, _OTEXT, _KEY):
        if value is None and kind == _OTEXT:
            return None
        if not isinstance(value, str) or (kind == _KEY and (not value or value != value.strip())):
            raise bad("a non-empty key without surrounding spaces" if kind == _KEY else "text")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise bad("valid Unicode text") from None
        return value
    if kind in (_INT, _OINT, _OBIT):
        if value is None and kind != _INT:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or (
                kind == _OBIT and value not in (0, 1)):
            raise bad("0, 1 or null" if kind == _OBIT else "an integer")
        return value
    if kind == _ONUM:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
                value):
            raise bad("a number")
        return float(value)
    if kind == _LIST:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad("a list of texts")
        return json.dumps(value, ensure_ascii=False)
    raise AssertionError(kind)


def extra_value(value: Any, bad: Callable[[str], KnownError]) -> str:
    """An ``extra`` value (a JSON object, or its text in a flat table's cell; empty or
    missing is ``{}``) in its stored JSON spelling; anything else raises ``bad(...)``."""
    if value is None or value == "":
        return "{}"
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise bad("a JSON object") from None
    if not isinstance(value, dict):
        raise bad("a JSON object")
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except ValueError:
        raise bad("a JSON object without NaN or infinity") from None


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"


_ALL_DEFAULTS: dict[str, Any] = {}  # filled below, once the defaults are defined
_CHECKERS: dict[tuple[str, bool], RowChecker] = {}


def _obj(path: Path, item: Any, where: str, spec: Mapping[str, Any], entity: str = "",
         plain_text: bool = False, own: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Check one row against its field kinds; unknown fields are refused (no silent loss).
    Rows of a known ``entity`` go through its compiled :class:`~.native_rows.RowChecker`
    (the same checks, faster); ``plain_text``: the row's text holds no surrogate escape;
    ``own``: the defaults of this entity's fields that older files lack."""
    defaults = {**_ALL_DEFAULTS, **own} if own else _ALL_DEFAULTS
    if entity:
        checker = _CHECKERS.get((entity, plain_text))
        if checker is None:
            checker = _CHECKERS[(entity, plain_text)] = RowChecker(
                spec, defaults, check_value, _KINDS, plain_text)
        if checker.well_formed(item):
            return checker(path, item, where)
    if not isinstance(item, dict):
        raise ImportRejected(path, None, "{where}: expected an object.", where=where)
    unknown = sorted(set(item) - set(spec))
    if unknown:
        raise ImportRejected(path, None, "{where}: unknown field '{unknown}'; this file "
                                         "was not written by this version of the app.",
                                         where=where, unknown=unknown[0])
    missing = [name for name in spec if name not in item and name not in defaults]
    if missing:
        raise ImportRejected(path, None, "{where}: field '{missing}' is missing.",
                                         where=where, missing=missing[0])
    return {name: check_value(path, f"{where}.{name}", item.get(name, defaults.get(name)),
                              kind)
            for name, kind in spec.items()}


_NESTED = "nested"  # a nested list, checked by its own spec

SPECS: dict[str, dict[str, Any]] = {
    "assessors": {"name": _KEY, "kind": _enum("human", "judge"), "created_at": _TEXT},
    "identities": {"name": _KEY, "groups": _LIST, "note": _TEXT},
    "documents": {
        "key": _KEY, "title": _TEXT, "text": _TEXT, "content_hash": _TEXT, "owner": _TEXT,
        "rights": _LIST, "valid_from": _OTEXT, "valid_until": _OTEXT,
        "status": _enum(*values(DocStatus)), "version": _TEXT, "supersedes": _OTEXT,
        "parent": _OTEXT, "origin": _enum("corpus", "placeholder", "unmatched_context"),
        "created_at": _TEXT, "updated_at": _TEXT, "extra": _EXTRA,
        # its structure (native_documents): the reader, pages, headings, kept file, and a
        # passage's place in its parent
        "kind": _TEXT, "pages": LayoutField("pages"), "headings": LayoutField("headings"),
        "file": _OTEXT, "span_start": _OINT, "span_end": _OINT,
        "located": _enum("exact", "normalised", "fuzzy", optional=True),
        "match_score": _ONUM},
    "cases": {
        "key": _KEY, "kind": _enum("rag", "agent"), "question": _TEXT, "variants": _LIST,
        "reference_answer": _OTEXT, "must_contain": _LIST, "forbidden": _LIST,
        "expected_behaviour": _enum(*values(Behaviour)), "family": _enum(*values(Family)),
        "tags": _LIST, "difficulty": _enum(*values(Difficulty), optional=True),
        "role": _TEXT, "notes": _TEXT, "status": _enum(*values(CaseStatus)),
        "author": _TEXT, "created_at": _TEXT, "updated_at": _TEXT,
        "expected_state": AgentField("expected_state"),
        "forbidden_tools": AgentField("forbidden_tools"),
        "required_tools": AgentField("required_tools"),
        "tool_order": AgentField("tool_order"), "max_steps": _OINT, "max_tokens": _OINT,
        "max_seconds": _ONUM, "max_cost": _ONUM, "extra": _EXTRA,
        "expected_sources": _NESTED},
    "expected_sources": {"document": _KEY, "span_start": _OINT, "span_end": _OINT,
                         "note": _TEXT},
    "case_reviews": {
        "case": _KEY, "origin": _TEXT,
        "decision": _enum("pending", "accepted", "edited", "rejected"),
        "near_duplicate_of": _OTEXT, "decided_by": _TEXT, "decided_at": _OTEXT},
    "runs": {"name": _KEY, "model": _TEXT, "corpus_version": _TEXT, "prompt_version": _TEXT,
             "index_version": _TEXT, "notes": _TEXT, "created_at": _TEXT},
    "retrieved": {"run": _KEY, "case": _KEY, "document": _KEY, "rank": _INT,
                  "score": _ONUM},
    "answers": {"run": _KEY, "case": _KEY, "text": _TEXT, "latency_ms": _OINT,
                "cost": _ONUM, "tokens": _OINT, "extra": _EXTRA, "citations": _NESTED,
                "claims": _NESTED},
    "citations": {"document": _KEY, "marker": _TEXT, "span_start": _OINT, "span_end": _OINT,
                  "support": _enum(*values(CitationSupport), optional=True), "note": _TEXT},
    "claims": {"position": _INT, "text": _TEXT, "span_start": _OINT, "span_end": _OINT,
               "verdict": _enum(*values(Verdict), optional=True), "rationale": _TEXT,
               "assessor": _OTEXT, "updated_at": _OTEXT, "evidence": _NESTED,
               "judge_verdicts": _NESTED},
    "evidence": {"document": _KEY, "span_start": _INT, "span_end": _INT},
    "judge_verdicts": {"assessor": _KEY, "verdict": _enum(*values(Verdict), optional=True),
                       "raw_label": _TEXT, "rationale": _TEXT, "updated_at": _TEXT},
    "answer_reviews": {
        "run": _KEY, "case": _KEY, "assessor": _KEY,
        "outcome": _enum(*values(Outcome), optional=True), "validated": _OBIT,
        "failure_categories": _LIST, "must_contain_found": _LIST, "forbidden_present": _OBIT,
        "note": _TEXT, "updated_at": _TEXT},
    "trajectories": {"run": _KEY, "case": _KEY, "trial": _INT, "final_state": _OSTATE,
                     "final_answer": _TEXT, "tokens": _OINT, "seconds": _ONUM, "cost": _ONUM,
                     "reward": _ONUM, "extra": _EXTRA, "steps": _NESTED},
    "steps": {"position": _INT, "tool": _TEXT, "arguments": _TEXT, "result": _TEXT},
    "trajectory_reviews": {
        "run": _KEY, "case": _KEY, "trial": _INT, "assessor": _KEY, "task_success": _OBIT,
        "success_reason": _TEXT, "path_acceptable": _OBIT, "path_reason": _TEXT,
        "note": _TEXT, "updated_at": _TEXT},
    "judgments": {"case": _KEY, "document": _KEY, "assessor": _KEY, "grade": _OINT,
                  "note": _TEXT, "updated_at": _TEXT, "seconds": _ONUM},
    "adjudications": {"case": _KEY, "document": _KEY, "assessor": _KEY, "grade": _INT,
                      "note": _TEXT, "updated_at": _TEXT},
    "releases": {"name": _KEY, "created_at": _TEXT, "created_by": _TEXT, "changelog": _TEXT,
                 "snapshot": _TEXT},
}

SPECS.update(native_team.specs(_KEY, _TEXT, _OTEXT, _INT, _OINT, _ONUM, _OBIT, _LIST,
                               _enum))  # issue 15: campaigns, queues, per-assessor verdicts
SPECS.update(native_samples.specs(_KEY, _TEXT, _OTEXT, _INT, _OINT, _ONUM, _NESTED,
                                  _enum))  # issue 22: review samples of judges

#: Fields a file written before agent cases lacks, with the value they stand for.
DEFAULTS: dict[str, Any] = {"kind": "rag", "expected_state": {}, "forbidden_tools": [],
                            "required_tools": [], "tool_order": [], "max_steps": None,
                            "max_tokens": None, "max_seconds": None, "max_cost": None}
#: Fields a file written before team judging lacks (a judgment's active time, schema 4).
TEAM_DEFAULTS: dict[str, Any] = {"seconds": None}
#: Trajectory fields files written before trials (schema 3) lack: one trial, no reward.
TRIAL_DEFAULTS: dict[str, Any] = {"trial": 0, "reward": None}
#: An empty ``extra`` is left out of the file (files before schema 10 have none, and none on
#: documents and trajectories before schema 12).
EXTRA_DEFAULTS: dict[str, Any] = {"extra": {}}
_ALL_DEFAULTS.update({**DEFAULTS, **TEAM_DEFAULTS, **TRIAL_DEFAULTS, **EXTRA_DEFAULTS})
#: An entity's own defaults for fields older files lack (a document's ``kind`` is not a
#: case's).
_OWN_DEFAULTS: dict[str, dict[str, Any]] = {**native_team.DEFAULTS,
                                            "documents": DOCUMENT_DEFAULTS}
_KINDS = {kind: kind for kind in (_KEY, _TEXT, _OTEXT, _INT, _OINT, _ONUM, _OBIT)}
#: Nested lists: checked inside their parent's row, never a section of their own.
_NESTED_ONLY = ("expected_sources", "citations", "claims", "evidence", "judge_verdicts",
                "steps", "sample_items")

_TOP = ("format", "version", "schema_version", "meta", "assessors", "identities", "documents",
        "document_files", "cases",
        "case_reviews", "runs", "retrieved", "answers", "answer_reviews", "trajectories",
        "trajectory_reviews", "agent_metrics", "assessor_metrics", "judgments",
        "adjudications", "releases",
        *native_team.TEAM_SECTIONS, "review_samples", "history",
        *STRUCTURED_SECTIONS)


_SPLIT: dict[str, tuple[list[str], dict[str, Any]]] = {}


def _spec(path: Path, item: Any, where: str, entity: str, plain_text: bool = False
          ) -> dict[str, Any]:
    """One row of ``entity`` checked against :data:`SPECS`, nested lists included."""
    if entity not in _SPLIT:
        _SPLIT[entity] = ([k for k, kind in SPECS[entity].items() if kind == _NESTED],
                          {k: kind for k, kind in SPECS[entity].items() if kind != _NESTED})
    nested, flat = _SPLIT[entity]
    checked = _obj(path, ({k: v for k, v in item.items() if k not in nested} if nested
                          else item) if isinstance(item, dict) else item, where, flat,
                   entity, plain_text, _OWN_DEFAULTS.get(entity))
    if entity == "documents":
        check_document(path, checked, where)
    for name in nested:
        if name not in item:
            raise ImportRejected(path, None, "{where}: field '{name}' is missing.",
                                             where=where, name=name)
        value = item[name]
        if not isinstance(value, list):
            raise ImportRejected(path, None, "{where}.{name}: expected a list.",
                                 where=where, name=name)
        checked[name] = [_spec(path, sub, f"{where}.{name}[{i}]", name, plain_text)
                         for i, sub in enumerate(value)]
    return checked


def read_document(path: Path, progress: Callable[[int, int], None] | None = None
                  ) -> dict[str, Any]:
    """Parse and check a native JSON file (format, version, every row's fields), streaming
    it (:mod:`~.native_stream`): each row is checked as it is read and the raw one dropped,
    so the whole document never sits in memory."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ImportRejected(path, None, "no such file; check the path.") from None
    if size > MAX_JSON_BYTES:
        raise ImportRejected(path, None, "the file is too large ({size:,} bytes).", size=size)
    try:
        with open(path, encoding="utf-8-sig") as handle:
            data, out = _read_members(JsonStream(path, handle, progress))
    except UnicodeDecodeError:
        raise ImportRejected(path, None, "not UTF-8; this is not a native JSON export.") from None
    except NotAnObject:
        data, out = {}, {}
    _check_header(path, data)
    meta = data.get("meta", {})
    if not isinstance(meta, dict) or not all(
            isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in meta.items()):
        raise ImportRejected(path, None, "meta: expected an object of texts.")
    out["meta"] = meta
    for section in SPECS:
        if section in _NESTED_ONLY or section in out:
            continue
        items = data.get(section, [])
        if not isinstance(items, list):
            raise ImportRejected(path, None, "{section}: expected a list.", section=section)
        out[section] = [_spec(path, item, f"{section}[{i}]", section)
                        for i, item in enumerate(items)]
    if not isinstance(data.get("agent_metrics", {}), dict):
        raise ImportRejected(path, None, "agent_metrics: expected an object (run → figures).")
    if not isinstance(data.get("assessor_metrics", {}), dict):
        raise ImportRejected(path, None, "assessor_metrics: expected an object (derived "
                                         "figures; it is not imported).")
    out["document_files"] = read_files(path, data.get("document_files"))
    out["has_history"] = bool(data.get("history"))
    out.update(read_sections(path, data))  # output contracts, checks, field outcomes
    return {"meta": out.pop("meta"), **out}


def _read_members(stream: JsonStream) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the small members as decoded, the row sections already checked).  A row section
    is checked while it is read once the header said this is our format; before that (a
    hand-made file with ``format`` last) it is kept whole and checked afterwards."""
    data: dict[str, Any] = {}
    out: dict[str, Any] = {}
    path = stream.path
    for key in stream.members():
        if key == "history" and stream.is_array():  # never imported: only whether present
            data[key] = sum(1 for _item in stream.items()) > 0
        elif key in SPECS and key not in _NESTED_ONLY and stream.is_array() and \
                _header_ok(data):
            out[key] = [_spec(path, item, f"{key}[{i}]", key, not suspicious)
                        for i, (item, suspicious) in enumerate(stream.items())]
            data.pop(key, None)
        else:
            data[key] = stream.value()[0]
            out.pop(key, None)
    return data, out


#: Format versions this build reads: 1 (before documents had a structure) and this one.
READ_VERSIONS = (1, VERSION)


def _header_ok(data: dict[str, Any]) -> bool:
    return data.get("format") == FORMAT and data.get("version") in READ_VERSIONS


def _check_header(path: Path, data: dict[str, Any]) -> None:
    if data.get("format") != FORMAT:
        raise ImportRejected(path, None, "not a {format} JSON export (no \"format\": "
                                         "\"{format}\"); for other tools' files choose "
                                         "their format (beir, deepeval, ragas…).", format=FORMAT)
    if data.get("version") not in READ_VERSIONS:
        raise ImportRejected(path, None, "format version {get!r} is not "
                                         "supported (this build reads version {version}); "
                                         "update the app.",
                                         get=data.get('version'), version=VERSION)
    unknown = sorted(set(data) - set(_TOP))
    if unknown:
        raise ImportRejected(path, None, "unknown section '{unknown}'.", unknown=unknown[0])


# -- import: writes ----------------------------------------------------------------------------
def require_empty(store: GoldSetStore, path: Path, what: str) -> None:
    """Refuse an import of a whole gold set into a file that already holds one."""
    if not store.is_empty_goldset():
        raise KnownError("{what} imports go into an EMPTY gold set; {name} already "
                         "holds data. Create a new file ('rag-annotator new FILE') and import "
                         "into it, then use 'merge' to bring judgments into this one.",
                         what=what, name=store.path.name,
                         path=path)


def import_json(store: GoldSetStore, source: Path, options: Options) -> ImportReport:
    """Read a native JSON export into an empty gold set, as one undoable operation."""
    require_empty(store, source, "JSON")
    data = read_document(source, options.progress)
    report = ImportReport()
    if data["has_history"]:
        report.warnings.append(Message("the file's history was not imported (its row ids belong to "
                                       "the file it came from); this file's history starts here."))
    from rag_annotator.import_export.native_load import load_goldset

    with store.operation(IMPORT_ACTION, f"JSON ← {source.name}") as op:
        load_goldset(op, source, data, report, options.cancel, options.progress)
    report.changes = made(op.changes())
    return report
