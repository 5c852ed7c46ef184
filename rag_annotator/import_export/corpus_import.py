"""Import the corpus registry: BEIR ``corpus.jsonl``, a CSV/XLSX table, a folder of the
expert's own documents, or one document — first import or re-import of a changed corpus.

* BEIR: one object per line with ``_id`` (or ``id``/``doc_id``), ``title``, ``text`` and an
  optional ``metadata`` object (owner, rights, valid_from, valid_until, status, version).
* Table: a header row with ``id``/``key``/``Identifiant``, ``title``/``Titre``,
  ``text``/``Texte``/``Contenu`` and the same optional metadata columns (French or English).
* Folder: every file below it (a link out of the folder refuses the import, a link inside is
  skipped with a note: ``folders``), each read by the reader of its kind (PDF, Word,
  OpenDocument, HTML, PowerPoint, RTF, Markdown, text) with its pages, headings and
  properties; every file gets a line in the report (:mod:`~.corpus_files`).  The key is the
  path relative to the folder without its extension (``rh/conges``).
* One document file (``.pdf``, ``.docx``, ``.odt``, ``.html``, ``.pptx``, ``.rtf``,
  ``.md``): that one document, its key the file name without its extension.

Re-importing compares by key: a document whose text hash differs is *changed* (its text,
pages, headings and kept file are replaced), a new key is *added*, a key of the registry
absent from the import has *disappeared* (reported, never deleted: its judgments stay; a
single document file says nothing of the others).  The report names the cases (expected
sources) and counts the judgments that changed or disappeared documents touch.  One
operation (``import_corpus``), all or nothing, undoable; a kept file is stored once per
content (``document_files``) and stays when a new version replaces it, so an undo finds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes, made
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store
from rag_annotator.errors import InvalidValue
from rag_annotator.import_export.cases_import import norm
from rag_annotator.import_export.corpus_files import (
    FileOutcome,
    FileRecords,
    KeptFile,
    is_document_file,
    read_folder,
    read_single,
)
from rag_annotator.import_export.corpus_passages import Relocated, relocate_passages
from rag_annotator.import_export.extra_fields import extra_text, plain
from rag_annotator.import_export.files import Cancelled, ImportRejected, read_json_lines
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.tabular import few_names, read_table
from rag_annotator.messages import Joined, Message, Plural


class CorpusStore(Store, Protocol):
    """The reads a corpus import needs besides writing."""

    def document_hashes(self) -> dict[str, tuple[int, str]]: ...
    def usage_of_documents(self, document_ids: Sequence[int]) -> dict[int, dict[str, Any]]: ...
    def document_keys_not_from_corpus(self) -> set[str]: ...
    def document_file_ids(self) -> dict[str, int]: ...


DOC_HEADERS: dict[str, tuple[str, ...]] = {
    "key": ("_id", "id", "doc id", "docid", "document id", "key", "cle", "identifiant",
            "reference", "ref"),
    "title": ("title", "titre", "nom", "name", "intitule"),
    "text": ("text", "texte", "contenu", "content", "body", "corps", "passage"),
    "owner": ("owner", "proprietaire", "responsable", "auteur", "author"),
    "rights": ("rights", "droits", "roles", "acces", "access", "lecteurs"),
    "valid_from": ("valid from", "valide du", "valide a partir du", "date de debut",
                   "debut de validite", "en vigueur le"),
    "valid_until": ("valid until", "valide jusqu au", "date de fin", "fin de validite",
                    "expire le"),
    "status": ("status", "statut", "etat"),
    "version": ("version", "v"),
}
_DOC_ALIASES = {norm(a): name for name, aliases in DOC_HEADERS.items() for a in aliases}
_STATUS_NAMES = {"current": "current", "en vigueur": "current", "actuel": "current",
                 "courant": "current", "outdated": "outdated", "obsolete": "outdated",
                 "perime": "outdated", "withdrawn": "withdrawn", "retire": "withdrawn",
                 "abroge": "withdrawn"}


@dataclass
class CorpusImportReport:
    """What a corpus import did, and what it touches."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    metadata_updated: list[str] = field(default_factory=list)
    disappeared: list[str] = field(default_factory=list)
    touched_cases: list[str] = field(default_factory=list)
    touched_judgments: int = 0
    warnings: list[str] = field(default_factory=list)
    #: A folder's or a document file's import: what became of each file (else empty).
    files: list[FileOutcome] = field(default_factory=list)
    #: What the import's one operation changed (None: nothing).
    changes: Changes | None = None

    @property
    def not_imported(self) -> list[FileOutcome]:
        """The files that were not imported, each with its reason."""
        return [f for f in self.files if f.status == "not_imported"]

    def file_lines(self) -> list[Message]:
        """A line per file, the ones not imported first (then in the folder's order)."""
        return [f.line() for f in sorted(self.files, key=lambda f: f.status != "not_imported")]

    def summary(self) -> str:
        """One paragraph in English (the UI builds its own translated text)."""
        parts = [Message("{added} documents added, {changed} changed, {unchanged} unchanged, "
                         "{disappeared} disappeared", added=len(self.added),
                         changed=len(self.changed), unchanged=self.unchanged,
                         disappeared=len(self.disappeared))]
        if self.not_imported:
            parts.append(Plural("{n} file not imported", "{n} files not imported",
                                len(self.not_imported)))
        if self.metadata_updated:
            parts.append(Message("metadata updated on {n}", n=len(self.metadata_updated)))
        if self.touched_cases or self.touched_judgments:
            parts.append(Message("changed or disappeared documents touch {n} cases ({few}) and "
                                 "{judgments} judgments", n=len(self.touched_cases),
                                 few=_few(self.touched_cases),
                                 judgments=self.touched_judgments))
        return Message("{parts}.", parts=Joined(parts))


def _few(items: list[str], n: int = 8) -> str:
    return ", ".join(items[:n]) + (", …" if len(items) > n else "")


# -- reading the three shapes ----------------------------------------------------------------
#: A record's fields no document column takes: kept in the document's ``extra``.
_EXTRA = "extra"


def _beir(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """BEIR corpus lines; fields (and ``metadata`` entries) no column takes go to
    ``extra`` in the line's own shape, so ``export beir`` writes them back."""
    for number, obj in read_json_lines(path):
        meta = obj["metadata"] if isinstance(obj.get("metadata"), dict) else {}
        record: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for name, value in [*meta.items(), *obj.items()]:
            target = _DOC_ALIASES.get(norm(str(name)))
            if target is not None and value is not None:
                record[target] = value
        left = {k: plain(x) for k, x in meta.items()
                if _DOC_ALIASES.get(norm(str(k))) is None and x not in (None, "")}
        if left:
            extra["metadata"] = left
        extra.update({k: plain(x) for k, x in obj.items() if k != "metadata" and _DOC_ALIASES.get(
            norm(str(k))) is None and x not in (None, "", {}, [])})
        if extra:
            record[_EXTRA] = extra
        yield number, record


def _table(path: Path, options: Options) -> tuple[list[tuple[int, dict[str, Any]]], list[str]]:
    table = read_table(path, cancel=options.cancel)
    columns: dict[str, int] = {}
    for name, header in options.mapping.items():
        if name not in DOC_HEADERS:
            raise InvalidValue("--map: '{name}' is not a document field; use one of "
                               "{doc_headers}.", name=name, doc_headers=', '.join(DOC_HEADERS))
        matches = [i for i, h in enumerate(table.headers) if norm(h) == norm(header)]
        if not matches:
            raise InvalidValue("--map: there is no column '{header}'.", header=header)
        columns[name] = matches[0]
    for i, header in enumerate(table.headers):
        alias = _DOC_ALIASES.get(norm(header))
        if alias and alias not in columns and i not in columns.values():
            columns[alias] = i
    for needed in ("key", "text"):
        if needed not in columns:
            raise ImportRejected(path, 1, "no column is recognised as the document "
                                          "{value} (columns: "
                                          "{headers}); name it with --map "
                                          "{needed}=Header.",
                                          value='id' if needed == 'key' else 'text',
                                          headers=', '.join(table.headers), needed=needed)
    others = {h: i for i, h in enumerate(table.headers) if h and i not in columns.values()}
    rows: list[tuple[int, dict[str, Any]]] = []
    for n, cells in table.rows:
        record: dict[str, Any] = {name: cells[i] for name, i in columns.items()
                                  if cells[i] != "" or name == "text"}
        extra = {h: cells[i] for h, i in others.items() if cells[i] != ""}
        if extra:  # a column no field takes (a URL, an author…): kept on the document
            record[_EXTRA] = extra
        rows.append((n, record))
    return rows, table.warnings


# -- import --------------------------------------------------------------------------------
def _columns(path: Path, number: int, record: Mapping[str, Any], by_line: bool
             ) -> dict[str, Any]:
    where = number if by_line else None
    prefix: str | Message = "" if by_line else Message("row {number}: ", number=number)
    fields: dict[str, Any] = {}
    extra = record.get(_EXTRA)
    for name, value in record.items():
        if name == _EXTRA:
            continue
        if name == "rights":
            fields[name] = ([str(x) for x in value] if isinstance(value, list) else
                            [r.strip() for r in re.split(r"[,;\n]", str(value)) if r.strip()])
        elif name == "status":
            status = _STATUS_NAMES.get(norm(str(value)))
            if status is None:
                raise ImportRejected(path, where, "{prefix}status '{value}' is not current, "
                                                  "outdated or withdrawn.",
                                                  prefix=prefix, value=value)
            fields[name] = status
        else:
            fields[name] = str(value) if not isinstance(value, str) else value
    key = str(fields.get("key", "")).strip()
    if not key:
        raise ImportRejected(path, where, "{prefix}the document has no id.", prefix=prefix)
    fields["key"] = key
    if "text" not in fields:
        raise ImportRejected(path, where, "{prefix}document {key} has no text field.",
                                          prefix=prefix, key=key)
    try:
        columns = v.document_columns(fields)
    except InvalidValue as error:
        raise ImportRejected(path, where, "{prefix}{error}", prefix=prefix,
                             error=error) from None
    return {**columns, _EXTRA: extra_text(extra)} if extra else columns


#: A record's structure from a file (kind, pages, headings) and the file it keeps.
_STRUCTURE, _KEEP = "structure", "keep"
#: What a document that came as plain text has instead of a file's structure.
_NO_STRUCTURE = {"kind": "", "pages": None, "headings": None, "file_id": None}


@dataclass
class _Plan:
    """The rows an import writes, decided before its operation starts."""

    new_rows: list[dict[str, Any]] = field(default_factory=list)
    updates: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    #: The kept file of each new or updated row, by key.
    keeps: dict[str, KeptFile] = field(default_factory=dict)


def _read(source: Path, options: Options, report: CorpusImportReport
          ) -> tuple[list[tuple[int, dict[str, Any]]], FileRecords | None, bool]:
    """(records, the files' outcomes for a folder or a document file, whether records are
    numbered by line)."""
    if source.is_dir():
        files = read_folder(source, report.warnings, options.progress, options.cancel)
        return files.records, files, False
    if is_document_file(source):
        files = read_single(source, options.cancel)
        return files.records, files, False
    if source.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        return list(_beir(source)), None, True
    records, warnings = _table(source, options)
    report.warnings.extend(warnings)
    return records, None, False


def import_corpus(store: CorpusStore, source: Path, options: Options) -> CorpusImportReport:
    """Import or re-import documents (registry entry ``corpus``); all or nothing."""
    report = CorpusImportReport()
    records, files, by_line = _read(source, options, report)
    if not records and files is None:
        raise ImportRejected(source, None, "no document in the file.")
    if files is None:
        kept = sorted({name for _n, r in records for k, x in (r.get(_EXTRA) or {}).items()
                       for name in ([f"metadata.{m}" for m in x] if k == "metadata"
                                    and isinstance(x, dict) else [k])})
        if kept:
            report.warnings.append(Message("{name}: fields kept in extra: {few}",
                                           name=source.name, few=few_names(kept)))
    else:
        report.files = files.outcomes
    existing = store.document_hashes()
    placeholders = store.document_keys_not_from_corpus()
    plan, seen = _plan(source, records, files, by_line, options, report,
                       existing, placeholders)
    if source.is_dir() or files is None:  # a single document says nothing of the others
        report.disappeared = sorted(set(existing) - seen - placeholders)
    touched_ids = [existing[k][0] for k in [*report.changed, *report.disappeared]]
    usage = store.usage_of_documents(touched_ids) if touched_ids else {}
    report.touched_cases = sorted({c for u in usage.values() for c in u["cases"]})
    report.touched_judgments = sum(int(u["judgments"]) for u in usage.values())
    if plan.new_rows or plan.updates:
        _write(store, source, plan, options, report,
               {existing[k][0]: k for k in report.changed})
    _settle(report)
    if options.progress is not None:
        options.progress(len(records), len(records))
    return report


def _plan(source: Path, records: list[tuple[int, dict[str, Any]]],
          files: FileRecords | None, by_line: bool, options: Options,
          report: CorpusImportReport, existing: dict[str, tuple[int, str]],
          placeholders: set[str]) -> tuple[_Plan, set[str]]:
    """Validate every record and decide its row: new, or an update of an existing document
    (changed when its text differs).  Returns the plan and every key the import names."""
    outcomes = {o.key: o for o in (files.outcomes if files else []) if o.key is not None}
    seen: dict[str, int] = {}
    plan = _Plan()
    for i, (number, record) in enumerate(records, start=1):
        if options.cancel is not None and i % 1000 == 0 and options.cancel():
            raise Cancelled()
        structure, keep = record.get(_STRUCTURE), record.get(_KEEP)
        fields = {k: x for k, x in record.items() if k not in (_STRUCTURE, _KEEP)}
        try:
            columns = _columns(source, number, fields, by_line)
        except ImportRejected as error:
            if files is None:
                raise
            outcome = outcomes[str(record.get("key"))]  # a file: refused alone
            outcome.status, outcome.reason = "not_imported", Message(error.message_id,
                                                                     **error.params)
            files.refused_keys.add(str(record.get("key")))
            continue
        key = columns["key"]
        if key in seen:
            raise ImportRejected(source, number if by_line else None,
                                 "{value}the id '{key}' "
                                 "appears twice (first at {seen}); ids must be unique.",
                                 value='' if by_line else Message("row {number}: ",
                                                                  number=number),
                                 key=key, seen=seen[key])
        seen[key] = number
        if structure is not None:  # a file: its structure replaces what the document had
            columns.update({**_NO_STRUCTURE, **structure})
            columns[_EXTRA] = extra_text(fields.get(_EXTRA) or {})
            if keep is not None:
                plan.keeps[key] = keep
        if key not in existing:
            plan.new_rows.append(columns)
            report.added.append(key)
            continue
        doc_id, old_hash = existing[key]
        values = {k: val for k, val in columns.items() if k != "key"}
        if key in placeholders:
            values["origin"] = "corpus"
        if "content_hash" in values and values["content_hash"] != old_hash:
            report.changed.append(key)
            if structure is None:  # new text from a table: the old pages no longer fit it
                values.update(_NO_STRUCTURE)
        else:
            report.unchanged += 1
        plan.updates.append((doc_id, values))
    return plan, set(seen) | (files.refused_keys if files else set())


def _write(store: CorpusStore, source: Path, plan: _Plan, options: Options,
           report: CorpusImportReport, changed: dict[int, str]) -> None:
    """The import's one operation: kept files first (once per content), then the rows, then
    the passages of changed documents looked for in their new text."""
    now = utc_now()
    file_ids = store.document_file_ids()
    with store.operation("import_corpus", source.name) as op:
        for keep in plan.keeps.values():
            if keep.sha256 not in file_ids:
                if options.cancel is not None and options.cancel():
                    raise Cancelled()
                stored = op.insert("document_files", {
                    "sha256": keep.sha256, "kind": keep.kind, "name": keep.name,
                    "size": keep.size, "data": keep.read(), "created_at": now})
                file_ids[keep.sha256] = int(stored["id"])
        for row in plan.new_rows:
            kept = plan.keeps.get(row["key"])
            row["file_id"] = file_ids[kept.sha256] if kept is not None else None
        if plan.new_rows:
            names = sorted({c for row in plan.new_rows for c in row})
            defaults = {"title": "", "text": "", "owner": "", "rights": "[]",
                        "status": "current", "version": "", "kind": "", "extra": "{}"}
            op.insert_rows("documents", [*names, "created_at", "updated_at"], (
                [row.get(c, defaults.get(c)) for c in names] + [now, now]
                for row in plan.new_rows))
        for doc_id, values in plan.updates:
            before = op.get("documents", {"id": doc_id})
            assert before is not None
            kept = plan.keeps.get(str(before["key"]))
            if values.get("kind"):  # a file: it keeps its file or none
                values["file_id"] = file_ids[kept.sha256] if kept is not None else None
            after = op.update("documents", {"id": doc_id}, values)
            if after is not None:
                op.update("documents", {"id": doc_id}, {"updated_at": now})
                if before["content_hash"] == after["content_hash"]:
                    report.metadata_updated.append(str(after["key"]))
            if options.cancel is not None and options.cancel():
                raise Cancelled()
        _passages(relocate_passages(op, changed), report)
    report.changes = made(op.changes())


def _passages(relocated: Relocated, report: CorpusImportReport) -> None:
    """Say what became of the passages of the documents that changed."""
    outcomes = {o.key: o for o in report.files}
    for key, (found, lost) in relocated.by_document.items():
        note = Message("{found} of its {n} passages found again in the new version{rest}",
                       found=found, n=found + lost,
                       rest=Message("; {lost} not, their place is the old version's",
                                    lost=lost) if lost else "")
        if key in outcomes:
            outcomes[key].notes.append(note)
    if relocated.kept:
        report.warnings.append(Plural(
            "{n} passage was not found in its document's new version; its place (and page) "
            "is the old version's: {few}",
            "{n} passages were not found in their document's new version; their places "
            "(and pages) are the old version's: {few}", len(relocated.kept),
            few=few_names(relocated.kept, 5)))


def _settle(report: CorpusImportReport) -> None:
    """Each imported file's status from what its document became."""
    added, changed = set(report.added), set(report.changed)
    updated = set(report.metadata_updated)
    for outcome in report.files:
        if outcome.status == "not_imported" and outcome.reason is not None:
            continue
        key = outcome.key
        outcome.status = ("added" if key in added else "changed" if key in changed
                          else "updated" if key in updated else "unchanged")
