"""CSV import: a folder written by the ``csv`` export (either profile) into an EMPTY gold set.

The folder holds one file per entity (``cases.csv``, ``judgments.csv``… see
``csv_export.FLAT_ENTITIES``); a missing file is an empty table.  The profile is detected
(a BOM means ``excel``; ``--profile excel`` forces it for a file saved without one): under
``excel`` the separator (``;`` or ``,``) is read from the header line, a decimal comma is
accepted, and neutralised cells get their leading ``'`` removed, so the strings are exactly
those that were exported.

Like the native JSON import, this goes into an empty file only (merge a colleague's
judgments with ``merge``), as one undoable operation; assessors are created from the names
the rows use.  The flat tables carry what a spreadsheet user edits, agent cases and their
trajectories (steps, reviews) included; the native JSON export is the lossless one
(citations, evidence, judge verdicts, case reviews, releases, settings).  A folder written
before agent cases (no ``kind`` or agent columns in ``cases.csv``, no trajectory files)
still imports: its cases are RAG cases; an empty ``kind`` cell also means RAG.
:func:`build_document` is shared with the XLSX import.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.domain.changes import made
from rag_annotator.domain.clock import utc_now
from rag_annotator.errors import KnownError
from rag_annotator.import_export import native_json
from rag_annotator.import_export.csv_export import FLAT_ENTITIES
from rag_annotator.import_export.files import MAX_TEXT_BYTES, ImportRejected
from rag_annotator.import_export.folders import named_file
from rag_annotator.import_export.native_documents import DOCUMENT_DEFAULTS, check_document
from rag_annotator.import_export.native_load import load_goldset
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.safety import unneutralise
from rag_annotator.messages import N_, Message
from rag_annotator.storage.reads_exchange import DERIVED_COLUMNS, ENTITY_SQL
from rag_annotator.storage.store import GoldSetStore

#: Marker an XLSX export appends to a cell it had to cut (a cut cell is never imported).
CUT_MARKER = "…[cut by the export: "


@dataclass
class EntityRows:
    """One entity's rows as read from a CSV file or a workbook's sheets (the native flat
    formats), before typing — not :class:`~rag_annotator.import_export.tabular.Table`, which
    is one user spreadsheet read as text for the case and corpus imports.

    ``rows`` yields ``(number, cells)``; ``where(number)`` gives the file and line an error
    names (``line`` None when the message itself names a sheet and row); ``titles``: a
    column's header as the reader sees it, when it is not the column's name (a workbook's
    sheets are headed in words), for the errors to name the column the reader sees.
    """

    entity: str
    header: list[str]
    rows: Iterable[tuple[int, list[Any]]]
    where: Callable[[int], tuple[Path, int | None, str | Message]]
    titles: Mapping[str, str] = field(default_factory=dict)


#: Flat tables whose rows the native JSON nests under another name.
_NESTED_AS = {"trajectory_steps": "steps"}


def _kind(entity: str, column: str) -> Any:
    """The field kind of a flat column (the nested entities' own, plus their owner's keys)."""
    return native_json.SPECS[_NESTED_AS.get(entity, entity)].get(column, "key")


def _typed(table: EntityRows, number: int, column: str, value: Any, *, excel: bool,
           decimal_comma: bool) -> Any:
    """A cell converted to the field's type, with the error naming the file and line."""
    kind = _kind(table.entity, column)
    path, line, prefix = table.where(number)
    if isinstance(value, str):
        if excel:
            value = unneutralise(value)
        if value.startswith(CUT_MARKER) or CUT_MARKER in value[-80:]:
            raise ImportRejected(path, line, "{prefix}column '{column}': this cell was cut "
                                             "by an XLSX export (over 32,767 characters); "
                                             "import the native JSON export instead.",
                                             prefix=prefix,
                                             column=table.titles.get(column, column))
    optional = (isinstance(kind, tuple) and kind[0]) or (isinstance(kind, str)
                                                       and kind.endswith("?"))
    if value == "" or value is None:
        value = None if optional else ("" if kind == "text" else ([] if kind == "list"
                                                                  else value))
    elif kind in ("int", "int?", "0/1?", "number?"):
        value = _number(value, kind, decimal_comma)
    elif kind == "list" and isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            pass  # the text itself is reported below: "expected a list of texts, got …"
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and (
            kind in ("key", "text", "text?")):
        value = str(int(value)) if float(value).is_integer() else repr(value)
    return native_json.check_value(path, f"{prefix}column '{table.titles.get(column, column)}'",
                                   value, kind, line=line)


def _number(value: Any, kind: str, decimal_comma: bool) -> Any:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return value
    if isinstance(value, str):
        text = value.strip()
        if decimal_comma:
            text = text.replace(",", ".")
        try:
            number: float | int = int(text) if kind != "number?" else float(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                return value
        value = number
    if kind != "number?" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _rows(table: EntityRows, *, excel: bool, decimal_comma: bool, notes: list[str]
          ) -> Iterator[tuple[int, dict[str, Any]]]:
    columns, _sql = ENTITY_SQL[table.entity]
    # A table written before agent cases (or before ``extra``) lacks their columns: their
    # defaults stand in.
    defaults = {**(native_json.DEFAULTS if table.entity == "cases" else {}),
                **(DOCUMENT_DEFAULTS if table.entity == "documents" else {}),
                **native_json.EXTRA_DEFAULTS}
    columns = tuple(c for c in columns if c not in DERIVED_COLUMNS)  # page_count: derived
    missing = [c for c in columns if c not in table.header and c not in defaults]
    if missing:
        path, line, prefix = table.where(0)
        raise ImportRejected(path, line, "{prefix}the header has no column '{missing}' "
                                         "(expected: {columns}).",
                                         prefix=prefix, missing=missing[0],
                                         columns=', '.join(columns))
    index = {c: table.header.index(c) for c in columns if c in table.header}
    derived = {c for c in DERIVED_COLUMNS if c in table.header}
    # Columns someone added in a spreadsheet: kept in a case's extra, listed elsewhere.
    others = {h: i for i, h in enumerate(table.header)
              if h and h not in index and h not in derived}
    if others:
        path, _line, prefix = table.where(0)
        where = prefix or Message("{file}: ", file=path.name)
        names = ", ".join(others)
        notes.append(
            Message("{where}columns not read, kept in each case's extra: {names}",
                    where=where, names=names)
            if table.entity == "cases" and "extra" in columns else
            Message("{where}columns not read: {names}", where=where, names=names))
    for number, cells in table.rows:
        if not any(c not in (None, "") for c in cells):
            continue  # a blank line or row
        row = {}
        for column in columns:
            i = index.get(column, -1)
            value = (defaults[column] if i < 0
                     else cells[i] if i < len(cells) else None)
            if column == "kind" and value in ("", None) and table.entity == "cases":
                value = "rag"  # a row typed in a spreadsheet: a RAG case unless it says
            row[column] = _typed(table, number, column, value, excel=excel,
                                 decimal_comma=decimal_comma)
        added = {h: cells[i] for h, i in others.items() if i < len(cells) and cells[i] not in (
            None, "")} if table.entity == "cases" else {}
        if added:  # the row's own extra wins over a column of the same name
            row["extra"] = json.dumps({**added, **json.loads(row["extra"])}, ensure_ascii=False)
        if table.entity == "documents":
            path, line, prefix = table.where(number)
            check_document(path, row, f"{prefix}document {row['key']}", line)
        yield number, row


def build_document(tables: dict[str, EntityRows], *, excel: bool, decimal_comma: bool,
                   notes: list[str] | None = None) -> dict[str, Any]:
    """Flat tables → the checked shape ``native_load.load_goldset`` inserts (``notes``
    gains a line per table with columns it does not read)."""
    data: dict[str, Any] = {"meta": {}}
    read: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for entity in FLAT_ENTITIES:
        table = tables.get(entity)
        read[entity] = [] if table is None else list(
            _rows(table, excel=excel, decimal_comma=decimal_comma,
                  notes=[] if notes is None else notes))
    keys = {"cases": {r["key"] for _n, r in read["cases"]},
            "documents": {r["key"] for _n, r in read["documents"]},
            "runs": {r["name"] for _n, r in read["runs"]}}
    for entity, rows in read.items():
        for number, row in rows:
            for column, table_name in (("case", "cases"), ("document", "documents"),
                                       ("run", "runs"), ("supersedes", "documents"),
                                       ("parent", "documents")):
                value = row.get(column)
                if value is not None and value not in keys[table_name]:
                    path, line, prefix = tables[entity].where(number)
                    raise ImportRejected(path, line, "{prefix}no {table_name} "
                                                     "'{value}' in the {table_name2} table.",
                                                     prefix=prefix, table_name=table_name[:-1],
                                                     value=value, table_name2=table_name)
    sources: dict[str, list[dict[str, Any]]] = {}
    for _n, row in read["expected_sources"]:
        sources.setdefault(row.pop("case"), []).append(row)
    data["cases"] = [{**row, "expected_sources": sources.get(row["key"], [])}
                     for _n, row in read["cases"]]
    steps = _by_run_and_case(read, tables, "trajectories", "trajectory_steps",
                             N_("no trajectory of run '{run}' for case '{case}' in the "
                                "{table} table."))
    data["trajectories"] = [{**row, "steps": steps.get(
        (row["run"], row["case"], _trial(row.get("trial"))), [])}
                            for _n, row in read["trajectories"]]
    claims = _by_run_and_case(read, tables, "answers", "claims",
                              N_("no answer of run '{run}' to case '{case}' in the {table} table."))
    for group in claims.values():
        group[:] = [{**claim, "evidence": [], "judge_verdicts": []} for claim in group]
    data["answers"] = [{**row, "citations": [], "claims": claims.get(
        (row["run"], row["case"], 0), [])}
                       for _n, row in read["answers"]]
    for entity in ("documents", "runs", "retrieved", "judgments", "adjudications",
                   "answer_reviews", "trajectory_reviews"):
        data[entity] = [row for _n, row in read[entity]]
    names = sorted({row["assessor"] for entity in ("judgments", "adjudications", "claims",
                                                   "answer_reviews", "trajectory_reviews")
                    for _n, row in read[entity] if row.get("assessor")})
    now = utc_now()
    data["assessors"] = [{"name": n, "kind": "human", "created_at": now} for n in names]
    top = max((r["grade"] for e in ("judgments", "adjudications") for _n, r in read[e]
               if r["grade"] is not None), default=1)
    if top > 1:  # graded labels: the gold set's scale follows (a new file is binary)
        data["meta"]["max_grade"] = str(top)
    return data


def load_tables(store: GoldSetStore, source: Path, data: dict[str, Any], label: str,
                cancel: Callable[[], bool] | None = None) -> native_json.ImportReport:
    """Insert a built document into an empty gold set (one undoable operation)."""
    report = native_json.ImportReport()
    with store.operation(native_json.IMPORT_ACTION, f"{label} ← {source.name}") as op:
        load_goldset(op, source, data, report, cancel)
    report.changes = made(op.changes())
    return report


# -- CSV files -------------------------------------------------------------------------------
def _csv_table(path: Path, entity: str, profile: str) -> tuple[EntityRows, bool, str]:
    """Read one file: the table, whether the excel profile wrote it, and its separator."""
    size = path.stat().st_size
    if size > MAX_TEXT_BYTES:
        raise ImportRejected(path, None, "the file is too large ({size:,} bytes).", size=size)
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    excel = profile == "excel" or bom
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise ImportRejected(path, line, "not UTF-8; save the file as UTF-8.") from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if excel and first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    header: list[str] = []
    try:
        header = next(reader, [])
        start = reader.line_num + 1
        for cells in reader:
            rows.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as error:
        raise ImportRejected(path, reader.line_num, "not valid CSV ({error}).",
                                                    error=error) from None
    if not header:
        raise ImportRejected(path, 1, "the file is empty; it needs at least a header line.")
    return EntityRows(entity, header, rows, lambda n: (path, n or 1, "")), excel, delimiter


def import_csv(store: GoldSetStore, source: Path, options: Options
               ) -> native_json.ImportReport:
    """Read a folder of CSV files (see the module docstring) into an empty gold set."""
    native_json.require_empty(store, source, "CSV")
    if not source.is_dir():
        raise ImportRejected(source, None, "give the folder the csv export wrote (it holds "
                                           "cases.csv, judgments.csv…).")
    tables: dict[str, EntityRows] = {}
    flavours: set[tuple[bool, str]] = set()
    notes: list[str] = []
    for entity in FLAT_ENTITIES:
        path = source / f"{entity}.csv"
        if path.exists() or path.is_symlink():
            path = named_file(source, path.name, notes)
            tables[entity], excel, delimiter = _csv_table(path, entity, options.profile or "")
            flavours.add((excel, delimiter))
    if not tables:
        raise ImportRejected(source, None, "the folder holds none of the expected files "
                                           "({items}).",
                                           items=', '.join(e + '.csv' for e in FLAT_ENTITIES))
    if len(flavours) > 1:
        raise KnownError("the files were written with different profiles (BOM or separator "
                         "differ); export the folder again.", path=source)
    excel, delimiter = flavours.pop()
    data = build_document(tables, excel=excel, decimal_comma=excel and delimiter == ";",
                          notes=notes)
    report = load_tables(store, source, data, "CSV", options.cancel)
    report.warnings.extend(notes)  # links inside the folder read through
    return report


def _trial(value: Any) -> Any:
    """A trial number as the tables give it (a number, a text of one, or none: 0), for
    pairing steps with their trajectory; a value that is no number is left for the
    trajectory checks to refuse."""
    if value is None or value == "":
        return 0
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return value


def _by_run_and_case(read: Mapping[str, list[tuple[int, dict[str, Any]]]],
                     tables: Mapping[str, Any], parent: str, child: str,
                     missing: str) -> dict[tuple[str, str, int], list[dict[str, Any]]]:
    """The ``child`` rows (claims, trajectory steps) grouped under their ``parent`` row by
    (run, case, trial: 0 where there is none); a child whose parent the folder lacks is
    refused, naming its line."""
    owners = {(row["run"], row["case"], _trial(row.get("trial"))) for _n, row in read[parent]}
    out: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    for number, row in read[child]:
        owner = (row.pop("run"), row.pop("case"), _trial(row.pop("trial", None)))
        if owner not in owners:
            path, line, prefix = tables[child].where(number)
            raise ImportRejected(path, line, "{prefix}{message_}", prefix=prefix, message_=Message(
                missing, run=owner[0], case=owner[1], table=parent))
        out.setdefault(owner, []).append(row)
    return out
