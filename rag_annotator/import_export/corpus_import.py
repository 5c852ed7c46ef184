"""Import the corpus registry: BEIR ``corpus.jsonl``, a CSV/XLSX table, or a folder of
``.txt``/``.md`` files — first import or re-import of a changed corpus.

* BEIR: one object per line with ``_id`` (or ``id``/``doc_id``), ``title``, ``text`` and an
  optional ``metadata`` object (owner, rights, valid_from, valid_until, status, version).
* Table: a header row with ``id``/``key``/``Identifiant``, ``title``/``Titre``,
  ``text``/``Texte``/``Contenu`` and the same optional metadata columns (French or English).
* Folder: every ``.txt`` and ``.md`` file below it (a link out of the folder refuses the
  import, a link inside is skipped with a warning: ``folders``); the key is the path relative to the
  folder without its extension (``rh/conges``), the title the first ``# heading`` or the
  file name.  UTF-8 (BOM accepted), else Windows-1252 with a warning.

Re-importing compares by key: a document whose text hash differs is *changed* (its text is
replaced), a new key is *added*, a key of the registry absent from the import has
*disappeared* (reported, never deleted: its judgments stay).  The report names the cases
(expected sources) and counts the judgments that changed or disappeared documents touch.
One operation (``import_corpus``), all or nothing, undoable.
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
from rag_annotator.import_export.extra_fields import KEPT_IN_EXTRA, extra_text, plain
from rag_annotator.import_export.files import Cancelled, ImportRejected, read_json_lines
from rag_annotator.import_export.folders import folder_files
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.tabular import (
    MAX_TABLE_BYTES,
    decode_text,
    few_names,
    read_table,
)


class CorpusStore(Store, Protocol):
    """The reads a corpus import needs besides writing."""

    def document_hashes(self) -> dict[str, tuple[int, str]]: ...
    def usage_of_documents(self, document_ids: Sequence[int]) -> dict[int, dict[str, Any]]: ...
    def document_keys_not_from_corpus(self) -> set[str]: ...


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
    #: What the import's one operation changed (None: nothing).
    changes: Changes | None = None

    def summary(self) -> str:
        """One paragraph in English (the UI builds its own translated text)."""
        parts = [f"{len(self.added)} documents added, {len(self.changed)} changed, "
                 f"{self.unchanged} unchanged, {len(self.disappeared)} disappeared"]
        if self.metadata_updated:
            parts.append(f"metadata updated on {len(self.metadata_updated)}")
        if self.touched_cases or self.touched_judgments:
            parts.append(f"changed or disappeared documents touch {len(self.touched_cases)} "
                         f"cases ({_few(self.touched_cases)}) and {self.touched_judgments} "
                         "judgments")
        return "; ".join(parts) + "."


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
            raise InvalidValue(f"--map: '{name}' is not a document field; use one of "
                               f"{', '.join(DOC_HEADERS)}.")
        matches = [i for i, h in enumerate(table.headers) if norm(h) == norm(header)]
        if not matches:
            raise InvalidValue(f"--map: there is no column '{header}'.")
        columns[name] = matches[0]
    for i, header in enumerate(table.headers):
        alias = _DOC_ALIASES.get(norm(header))
        if alias and alias not in columns and i not in columns.values():
            columns[alias] = i
    for needed in ("key", "text"):
        if needed not in columns:
            raise ImportRejected(path, 1, f"no column is recognised as the document "
                                          f"{'id' if needed == 'key' else 'text'} (columns: "
                                          f"{', '.join(table.headers)}); name it with --map "
                                          f"{needed}=Header.")
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


def _folder(path: Path, options: Options) -> tuple[list[tuple[int, dict[str, Any]]],
                                                     list[str]]:
    warnings: list[str] = []
    files = folder_files(path, (".txt", ".md", ".markdown"), warnings)
    if not files:
        raise ImportRejected(path, None, "the folder holds no .txt or .md file.")
    total = sum(f.stat().st_size for f in files)
    if total > 16 * MAX_TABLE_BYTES:
        raise ImportRejected(path, None, f"the folder's text files are too large together "
                                         f"({total / 1e6:,.0f} MB); import it in parts.")
    rows: list[tuple[int, dict[str, Any]]] = []
    keys: dict[str, Path] = {}
    not_utf8: list[str] = []
    for i, file in enumerate(files, start=1):
        if options.cancel is not None and i % 200 == 0 and options.cancel():
            raise Cancelled()
        if file.stat().st_size > MAX_TABLE_BYTES:
            raise ImportRejected(file, None, "the file is too large for one document; split "
                                             "it.")
        text, encoding = decode_text(file, file.read_bytes())
        if encoding == "cp1252":
            not_utf8.append(file.relative_to(path).as_posix())
        key = file.relative_to(path).with_suffix("").as_posix()
        if key in keys:
            raise ImportRejected(file, None, f"same document id '{key}' as {keys[key].name}; "
                                             "rename one of them.")
        keys[key] = file
        heading = re.search(r"^#\s+(.+)$", text, re.MULTILINE)
        title = heading.group(1).strip() if heading else file.stem.replace("_", " ")
        rows.append((i, {"key": key, "title": title, "text": text.replace("\r\n", "\n")}))
    if not_utf8:  # one line, however many files
        warnings.append(f"{few_names(not_utf8, 5)}: not UTF-8; read as Windows-1252.")
    return rows, warnings


# -- import --------------------------------------------------------------------------------
def _columns(path: Path, number: int, record: Mapping[str, Any], by_line: bool
             ) -> dict[str, Any]:
    where = number if by_line else None
    prefix = "" if by_line else f"row {number}: "
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
                raise ImportRejected(path, where, f"{prefix}status '{value}' is not current, "
                                                  "outdated or withdrawn.")
            fields[name] = status
        else:
            fields[name] = str(value) if not isinstance(value, str) else value
    key = str(fields.get("key", "")).strip()
    if not key:
        raise ImportRejected(path, where, f"{prefix}the document has no id.")
    fields["key"] = key
    if "text" not in fields:
        raise ImportRejected(path, where, f"{prefix}document {key} has no text field.")
    try:
        columns = v.document_columns(fields)
    except InvalidValue as error:
        raise ImportRejected(path, where, f"{prefix}{error}") from None
    return {**columns, _EXTRA: extra_text(extra)} if extra else columns


def import_corpus(store: CorpusStore, source: Path, options: Options) -> CorpusImportReport:
    """Import or re-import documents (registry entry ``corpus``); all or nothing."""
    report = CorpusImportReport()
    by_line = False
    if source.is_dir():
        records, warnings = _folder(source, options)
    elif source.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        records, warnings, by_line = list(_beir(source)), [], True
    else:
        records, warnings = _table(source, options)
    report.warnings.extend(warnings)
    if not records:
        raise ImportRejected(source, None, "no document in the file.")
    kept = sorted({name for _n, r in records for k, x in (r.get(_EXTRA) or {}).items()
                   for name in ([f"metadata.{m}" for m in x] if k == "metadata"
                                and isinstance(x, dict) else [k])})
    if kept:
        report.warnings.append(f"{source.name}: {KEPT_IN_EXTRA}: {few_names(kept)}")
    existing = store.document_hashes()
    placeholders = store.document_keys_not_from_corpus()
    seen: dict[str, int] = {}
    new_rows: list[dict[str, Any]] = []
    updates: list[tuple[int, dict[str, Any]]] = []
    for i, (number, record) in enumerate(records, start=1):
        if options.cancel is not None and i % 1000 == 0 and options.cancel():
            raise Cancelled()
        columns = _columns(source, number, record, by_line)
        key = columns["key"]
        if key in seen:
            raise ImportRejected(source, number if by_line else None,
                                 f"{'' if by_line else f'row {number}: '}the id '{key}' "
                                 f"appears twice (first at {seen[key]}); ids must be unique.")
        seen[key] = number
        if key not in existing:
            new_rows.append(columns)
            report.added.append(key)
            continue
        doc_id, old_hash = existing[key]
        values = {k: val for k, val in columns.items() if k != "key"}
        if key in placeholders:
            values["origin"] = "corpus"
        if "content_hash" in values and values["content_hash"] != old_hash:
            report.changed.append(key)
        else:
            report.unchanged += 1
        updates.append((doc_id, values))
    disappeared = sorted(set(existing) - set(seen) - placeholders)
    report.disappeared = disappeared
    touched_ids = [existing[k][0] for k in [*report.changed, *disappeared]]
    usage = store.usage_of_documents(touched_ids) if touched_ids else {}
    report.touched_cases = sorted({c for u in usage.values() for c in u["cases"]})
    report.touched_judgments = sum(int(u["judgments"]) for u in usage.values())
    now = utc_now()
    with store.operation("import_corpus", source.name) as op:
        if new_rows:
            names = sorted({c for row in new_rows for c in row})
            defaults = {"title": "", "text": "", "owner": "", "rights": "[]",
                        "status": "current", "version": ""}
            op.insert_rows("documents", [*names, "created_at", "updated_at"], (
                [row.get(c, defaults.get(c)) for c in names] + [now, now] for row in new_rows))
        for doc_id, values in updates:
            before = op.get("documents", {"id": doc_id})
            changed = op.update("documents", {"id": doc_id}, values)
            if changed is not None:
                op.update("documents", {"id": doc_id}, {"updated_at": now})
                if before is not None and before["content_hash"] == changed["content_hash"]:
                    report.metadata_updated.append(str(changed["key"]))
            if options.cancel is not None and options.cancel():
                raise Cancelled()
    report.changes = made(op.changes())
    if options.progress is not None:
        options.progress(len(records), len(records))
    return report
