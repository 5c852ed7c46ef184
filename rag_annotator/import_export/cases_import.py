"""Import cases from the spreadsheet an expert already has (CSV, XLSX) or from JSON Lines.

Columns are recognised by their header, in French or English, whatever the case, accents
and punctuation (``Question``, ``Réponse attendue``/``Expected answer``, ``Où se trouve la
réponse``/``Source``, ``Doit contenir``/``Must contain``, ``Famille``/``Family``, ``Tags``,
``#``/``Id``…); ``--map field=Header,...`` (``Options.mapping``) names the others.  Cell rules:

* list fields (must contain, must never say, variants) take one point per line (bullets
  ``-`` ``•`` ``*`` dropped) or a JSON list; tags are split on ``,`` ``;`` and lines;
* family, status, behaviour and difficulty accept the stored codes and the French or
  English names (``Hors périmètre``, ``S'abstenir``, ``Approuvé``…);
* a source cell names documents by key or title (one per line or ``;``-separated); a text
  that matches no document is kept in the case's notes (``Source: …``) and counted in the
  report; a source saying the answer is not in the documents (``Pas dans les documents``,
  ``Not in the documents``, ``Aucune``) makes the case *no answer in corpus* / *abstain*
  unless the row gives its own family or behaviour;
* no id column (or an empty id): keys ``Q01``, ``Q02``… after the gold set's last one;
* agent cases (seed 000): a ``Kind``/``Nature`` column (``agent`` or ``rag``), and the
  agent columns ``État final attendu``/``Expected final state`` (``key = value`` per line or
  ``;``, or a JSON object), ``Outils interdits``/``Forbidden tools`` and ``Outils
  requis``/``Required tools`` (names split on ``,`` ``;`` spaces), ``Ordre imposé``/``Tool
  order`` (``before < after`` per line or ``;``), ``Étapes max``/``Max steps``, ``Tokens
  max``, ``Secondes max``, ``Coût max`` (numbers; ``0,5`` is read as 0.5).  A row that
  fills an agent column and gives no kind is an agent case; a row marked ``rag`` that
  fills one is refused.  Cells are read by :func:`rag_annotator.domain.agents.agent_column`.
* structured outputs (issue 17): a ``Contrat de sortie``/``Output contract`` column holds
  the case's output contract as one JSON object (``{"schema": {...}, "fields": [{"pointer",
  "reference", "comparison", "tolerance", "document", "passage"}]}``), parsed strictly.

All or nothing: every row is checked before anything is written; errors name the row (as
the spreadsheet numbers it, header = row 1) and the column.  The cases are written in one
operation (``import_cases``), undoable as a whole.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rag_annotator.domain import validation as v
from rag_annotator.domain.agents import agent_column
from rag_annotator.domain.changes import Changes, made
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.goldset_ops import case_keys_after
from rag_annotator.domain.ports import Store
from rag_annotator.domain.strict_json import parse_strict
from rag_annotator.domain.structured import contract_from_json
from rag_annotator.domain.structured_ops import write_contract_in
from rag_annotator.errors import InvalidValue
from rag_annotator.import_export.extra_fields import extra_text, kept
from rag_annotator.import_export.files import Cancelled, ImportRejected, read_json_lines
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.row_errors import RowErrors as _Errors
from rag_annotator.import_export.row_errors import without_name as _without_name
from rag_annotator.import_export.tabular import Table, few_names, read_table
from rag_annotator.messages import N_, Joined, Message


class CaseStore(Store, Protocol):
    """The reads a case import needs besides writing."""

    def case_keys(self) -> list[str]: ...
    def document_keys(self) -> dict[str, int]: ...
    def document_titles(self) -> list[tuple[str, str]]: ...


@functools.lru_cache(maxsize=65536)
def norm(text: str) -> str:
    """A header or value as compared: no accents, lower case, words split on punctuation.

    Cached: the same families, statuses and source titles come back on every row."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.split(r"[^\w#]+", plain.replace("_", " "))).strip()


#: Importable fields → the headers recognised for them (compared through :func:`norm`).
HEADERS: dict[str, tuple[str, ...]] = {
    "key": ("#", "id", "ids", "identifiant", "cle", "key", "n", "no", "n°", "numero", "num",
            "ref", "case", "case id", "cas", "qid", "query id", "question id"),
    "question": ("question", "questions", "query", "user input", "requete", "intitule",
                 "question posee", "texte de la question"),
    "reference_answer": ("reponse attendue", "reponse de reference", "reponse",
                         "bonne reponse", "expected answer", "reference answer", "answer",
                         "ground truth", "reference", "reponse modele", "ideal answer"),
    "sources": ("ou se trouve la reponse", "source", "sources", "source attendue",
                "sources attendues", "expected source", "expected sources", "document",
                "documents", "document source", "where is the answer", "passage",
                "reference contexts"),
    "must_contain": ("doit contenir", "must contain", "points attendus", "elements attendus",
                     "points cles", "key points", "a inclure", "must include"),
    "forbidden": ("ne doit pas dire", "ne doit jamais dire", "ne doit pas contenir",
                  "must not say", "must never say", "must not contain", "forbidden",
                  "interdit", "interdits", "a ne pas dire", "forbidden statements"),
    "family": ("famille", "family", "type de cas", "categorie", "category", "case family"),
    "tags": ("tags", "tag", "themes", "theme", "topics", "topic", "sujet", "sujets",
             "etiquettes", "mots cles"),
    "variants": ("variantes", "variants", "paraphrases", "reformulations",
                 "autres formulations"),
    "expected_behaviour": ("comportement attendu", "expected behaviour", "expected behavior",
                           "behaviour", "behavior", "comportement"),
    "difficulty": ("difficulte", "difficulty", "niveau", "niveau de difficulte"),
    "role": ("role", "profil", "role utilisateur", "user role"),
    "notes": ("notes", "note", "commentaire", "commentaires", "comments", "comment",
              "remarques", "remarque"),
    "status": ("statut", "status", "etat"),
    "author": ("auteur", "author", "redacteur", "redige par"),
    # agent cases (issue 9); none of these collides with the aliases above
    "kind": ("kind", "case kind", "nature", "nature du cas", "type d evaluation",
             "evaluation type", "rag ou agent", "rag agent", "rag or agent"),
    "expected_state": ("etat final attendu", "etat final", "etat attendu",
                       "expected final state", "expected state", "final state",
                       "etat final de reference"),
    "forbidden_tools": ("outils interdits", "outil interdit", "forbidden tools",
                        "forbidden tool", "outils a ne pas appeler", "tools not allowed"),
    "required_tools": ("outils requis", "outil requis", "outils obligatoires",
                       "outil obligatoire", "required tools", "required tool",
                       "mandatory tools", "outils attendus"),
    "tool_order": ("ordre impose", "ordre des outils", "ordre obligatoire", "ordre",
                   "tool order", "tools order", "ordering", "order", "ordering pairs"),
    "max_steps": ("etapes max", "max etapes", "etapes maximum", "nombre max d etapes",
                  "budget d etapes", "budget etapes", "max steps", "maximum steps",
                  "step budget", "steps budget"),
    "max_tokens": ("tokens max", "max tokens", "budget de tokens", "budget tokens",
                   "token budget", "jetons max"),
    "max_seconds": ("secondes max", "max secondes", "duree max", "temps max",
                    "budget de temps", "max seconds", "seconds budget", "time budget",
                    "max time"),
    "max_cost": ("cout max", "max cout", "cout maximum", "budget de cout", "budget cout",
                 "max cost", "cost budget"),
    # structured outputs (issue 17): the case's output contract as one JSON object
    "output_contract": ("contrat de sortie", "contrat de sortie json", "contrat json",
                        "output contract", "json output contract", "structured output"),
}
FIELDS = tuple(HEADERS)
#: The agent expectation columns (a row filling one is an agent case).
AGENT_FIELDS = v.CASE_AGENT_FIELDS
_ALIASES = {norm(alias): name for name, aliases in HEADERS.items() for alias in aliases}

#: Words of each coded field, in French and English (through :func:`norm`).
#: "'Management' is not a known family": one message per field, so French names the field.
NOT_KNOWN = {
    "family": N_("'{text}' is not a known family (use one of {known})."),
    "status": N_("'{text}' is not a known status (use one of {known})."),
    "expected_behaviour": N_("'{text}' is not a known expected behaviour (use one of "
                             "{known})."),
    "difficulty": N_("'{text}' is not a known difficulty (use one of {known})."),
    "kind": N_("'{text}' is not a known kind (use one of {known})."),
}

VALUE_NAMES: dict[str, dict[str, str]] = {
    "family": {
        "ordinaire": "ordinary", "ordinary": "ordinary", "normal": "ordinary",
        "standard": "ordinary", "ambigu": "ambiguous", "ambigue": "ambiguous",
        "ambiguous": "ambiguous", "sensible": "sensitive", "sensitive": "sensitive",
        "hors perimetre": "out_of_scope", "hors sujet": "out_of_scope",
        "out of scope": "out_of_scope", "pas de reponse": "no_answer",
        "pas de reponse dans le corpus": "no_answer", "sans reponse": "no_answer",
        "no answer": "no_answer", "no answer in corpus": "no_answer",
        "sources contradictoires": "conflicting_sources",
        "conflicting sources": "conflicting_sources", "document obsolete": "outdated_document",
        "document perime": "outdated_document", "outdated document": "outdated_document",
        "injection de prompt": "prompt_injection", "injection": "prompt_injection",
        "source malveillante": "prompt_injection", "prompt injection": "prompt_injection",
        "prompt injection malicious source": "prompt_injection",
        "injection de prompt source malveillante": "prompt_injection",
        "acces restreint": "access_restricted", "access restricted": "access_restricted",
        "restricted": "access_restricted",
    },
    "status": {
        "brouillon": "draft", "draft": "draft", "relu": "reviewed", "revu": "reviewed",
        "reviewed": "reviewed", "approuve": "approved", "valide": "approved",
        "approved": "approved", "retire": "retired", "archive": "retired",
        "retired": "retired",
    },
    "expected_behaviour": {
        "repondre": "answer", "reponse": "answer", "answer": "answer",
        "s abstenir": "abstain", "abstention": "abstain", "abstenir": "abstain",
        "abstain": "abstain", "escalader": "escalate", "escalade": "escalate",
        "transmettre": "escalate", "escalate": "escalate",
    },
    "difficulty": {
        "facile": "easy", "easy": "easy", "moyen": "medium", "moyenne": "medium",
        "medium": "medium", "difficile": "hard", "hard": "hard",
    },
    "kind": {
        "rag": "rag", "question rag": "rag", "cas rag": "rag", "rag case": "rag",
        "agent": "agent", "cas agent": "agent", "agent case": "agent", "agent ia": "agent",
        "agent outils": "agent", "tool agent": "agent",
    },
}
for _field, _names in VALUE_NAMES.items():
    _names.update({norm(code): code for code in set(_names.values())})

#: What a source cell says when the documents do not hold the answer.
_NO_SOURCE = re.compile(r"^(pas (dans|de) (les |la )?(documents?|corpus|sources?)\b.*|"
                        r"not in the (documents?|corpus)\b.*|aucune?( source)?|none|"
                        r"no source|n a|na|absent.*|hors (des )?documents)$")

LIST_FIELDS = ("must_contain", "forbidden", "variants")


def recognise_headers(headers: Sequence[str],
                      mapping: Mapping[str, str] | None = None) -> dict[str, int]:
    """Field → column index: ``mapping`` (field → header) first, then known headers.

    Raises InvalidValue for a mapping naming an unknown field or a header not in the file.
    """
    found: dict[str, int] = {}
    by_header = {h.strip(): i for i, h in enumerate(headers)}
    by_norm = {norm(h): i for i, h in reversed(list(enumerate(headers)))}
    for name, header in (mapping or {}).items():
        if name not in HEADERS:
            raise InvalidValue("--map: '{name}' is not a case field; use one of "
                               "{fields}.", name=name, fields=', '.join(FIELDS))
        index = by_header.get(header.strip(), by_norm.get(norm(header)))
        if index is None:
            raise InvalidValue("--map: there is no column '{header}' (columns: "
                               "{few_names}).",
                               header=header, few_names=few_names(h for h in headers if h))
        found[name] = index
    taken = set(found.values())
    for i, header in enumerate(headers):
        alias = _ALIASES.get(norm(header))
        if alias is not None and alias not in found and i not in taken:
            found[alias] = i
            taken.add(i)
    return found


def has_question(headers: list[str], mapping: Mapping[str, str] | None = None) -> bool:
    """Whether a sheet's headers name the question (how a workbook's sheet is chosen)."""
    try:
        return "question" in recognise_headers(headers, mapping)
    except InvalidValue:
        return False


@dataclass
class CaseImportReport:
    """What a case import stored."""

    cases: int = 0
    sources: int = 0
    keys_generated: int = 0
    no_answer: int = 0
    unmatched_sources: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: What the import's one operation changed (None: nothing).
    changes: Changes | None = None

    def summary(self) -> str:
        """One paragraph in English (the UI builds its own translated text)."""
        parts = [Message("{cases} cases imported with {sources} expected sources",
                         cases=self.cases, sources=self.sources)]
        if self.keys_generated:
            parts.append(Message("{n} ids generated", n=self.keys_generated))
        if self.no_answer:
            parts.append(Message("{n} cases expect abstention (no answer in the documents)",
                                 n=self.no_answer))
        if self.unmatched_sources:
            parts.append(Message("{n} source texts matched no document and were kept in the "
                                 "notes", n=len(self.unmatched_sources)))
        return Message("{parts}.", parts=Joined(parts))


@dataclass
class _Row:
    number: int
    values: dict[str, Any]
    headers: dict[str, str]
    #: The cells of columns no field takes, by header: kept in the case's ``extra``.
    unknown: dict[str, Any] = field(default_factory=dict)


def _split_list(text: str, *, tags: bool = False) -> list[str]:
    text = text.strip()
    if not text:
        return []
    if text.startswith("["):
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if isinstance(value, list) and all(isinstance(x, str) for x in value):
            return [x.strip() for x in value if x.strip()]
    parts = (_TAG_SPLIT if tags else _LINE_SPLIT).split(text)
    out = []
    for part in parts:
        item = _BULLET.sub("", part).strip()
        if item:
            out.append(item)
    return out


_TAG_SPLIT = re.compile(r"[,;\n]")
_LINE_SPLIT = re.compile(r"\n")
_BULLET = re.compile(r"^\s*(?:[-•*–]|\d+[.)])\s+")


def _code(name: str, value: str) -> str | None:
    return VALUE_NAMES[name].get(norm(value))


class _Resolver:
    """Matches source cells to documents by key, then by title (normalised)."""

    def __init__(self, store: CaseStore) -> None:
        self.keys = store.document_keys()
        self.titles: dict[str, str] = {}
        for key, title in store.document_titles():
            self.titles.setdefault(norm(title), key)
        self.norm_keys = {norm(k): k for k in self.keys}

    def find(self, text: str) -> str | None:
        text = text.strip()
        if text in self.keys:
            return text
        n = norm(text)
        return self.norm_keys.get(n) or self.titles.get(n)


def _parse(path: Path, rows: Iterable[_Row], store: CaseStore, options: Options,
           report: CaseImportReport, total: int) -> tuple[list[dict[str, Any]],
                                                          list[tuple[str, str]]]:
    """Validated case columns and (case key, document key) sources; raises on any error."""
    errors = _Errors(path)
    existing = set(store.case_keys())
    resolver = _Resolver(store)
    seen: dict[str, int] = {}
    cases: list[dict[str, Any]] = []
    sources: list[tuple[int, str]] = []
    pending_keys: list[dict[str, Any]] = []
    for done, row in enumerate(rows, start=1):
        if done % 500 == 0:
            if options.cancel is not None and options.cancel():
                raise Cancelled()
            if options.progress is not None:
                options.progress(done, total)
        values, hdr = row.values, row.headers
        case = _row_cells(row, errors)
        _agent_kind(case, row, errors)
        for f in getattr(case.get("output_contract"), "fields", ()):
            if f.document is not None and f.document not in resolver.keys:
                errors.add(row.number, hdr.get("output_contract"), "field {pointer}: no "
                           "document '{document}' in the corpus; add it or fix the key.",
                           pointer=f.pointer, document=f.document)
        if not case.get("question"):
            errors.add(row.number, hdr.get("question", "question"),
                       "empty; every case needs a question (fill it in or delete the row).")
        if not case.get("reference_answer"):
            case.pop("reference_answer", None)
        raw_key = values.get("key")
        key = str(raw_key).strip() if raw_key is not None else ""
        if key:
            if key in seen:
                errors.add(row.number, hdr.get("key"), "the id '{key}' is also on row "
                           "{seen}; ids must be unique.", key=key, seen=seen[key])
            elif key in existing:
                errors.add(row.number, hdr.get("key"), "a case '{key}' already exists in "
                           "the gold set; change the id or remove the row.", key=key)
            seen[key] = row.number
            case["key"] = key
        else:
            pending_keys.append(case)
        docs = _sources(case, values.get("sources"), resolver, report)
        try:
            columns = _case_columns(case)
        except InvalidValue as error:
            errors.add(row.number, None, error)
            continue
        if "key" in case:
            try:
                columns["key"] = v.check_key("key", case["key"])
            except InvalidValue as error:
                errors.add(row.number, hdr.get("key"), error)
        extra = kept(row.unknown, [h for h, x in row.unknown.items() if x not in ("", None)])
        if extra:
            columns["extra"] = extra_text(extra)
        case.clear()
        case.update(columns)
        sources.extend((len(cases), doc) for doc in docs)
        cases.append(case)
    errors.raise_if_any()
    fresh_keys = case_keys_after(existing | set(seen))  # one scan: linear in the rows
    for case in pending_keys:
        key = next(fresh_keys)
        case["key"] = key
        report.keys_generated += 1
    return cases, [(str(cases[i]["key"]), doc) for i, doc in sources]


def _row_cells(row: _Row, errors: _Errors) -> dict[str, Any]:
    """One row's cells as case values (lists split, coded values checked; key and sources
    are left to the caller); errors are collected, not raised."""
    case: dict[str, Any] = {}
    for name, raw in row.values.items():
        if name in ("key", "sources"):
            continue
        if name in AGENT_FIELDS:
            _agent_cell(case, name, raw, row, errors)
            continue
        if name == "output_contract":
            _contract_cell(case, raw, row, errors)
            continue
        if isinstance(raw, list):
            items = [str(x).strip() for x in raw if str(x).strip()]
            text = "\n".join(items)
        else:
            text = str(raw if raw is not None else "").strip()
            items = None
        if name in LIST_FIELDS or name == "tags":
            case[name] = items if items is not None else _split_list(
                text, tags=name == "tags")
        elif name in VALUE_NAMES:
            if not text:
                continue
            code = _code(name, text)
            if code is None:
                known = ", ".join(sorted(set(VALUE_NAMES[name].values())))
                errors.add(row.number, row.headers.get(name), NOT_KNOWN[name], text=text,
                           known=known)
                continue
            case[name] = code
        else:
            case[name] = text
    return case


def _agent_cell(case: dict[str, Any], name: str, raw: Any, row: _Row,
                errors: _Errors) -> None:
    """An agent column's cell, read by ``agent_column`` (an empty cell sets nothing)."""
    if raw is None or (isinstance(raw, str) and not raw.strip()) or raw in ([], {}):
        return
    try:
        case[name] = agent_column(name, raw)
    except InvalidValue as error:
        errors.add(row.number, row.headers.get(name), _without_name(error, name))


def _contract_cell(case: dict[str, Any], raw: Any, row: _Row, errors: _Errors) -> None:
    """The output contract cell: one strict JSON object (``native_structured``'s shape)."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return
    where = row.headers.get("output_contract")
    ok, value, reason = (True, raw, "") if isinstance(raw, dict) else parse_strict(str(raw))
    if not ok:
        errors.add(row.number, where, "not one JSON object ({reason}); write the contract "
                                      "as {{\"schema\": {{...}}, \"fields\": [...]}}.",
                                      reason=reason)
        return
    try:
        contract = contract_from_json(value)
    except InvalidValue as error:
        errors.add(row.number, where, error)
        return
    if str(row.values.get("kind") or "").strip().lower() == "agent":
        errors.add(row.number, where, "an agent case has no output contract; clear the cell.")
        return
    case["output_contract"] = contract


def _agent_kind(case: dict[str, Any], row: _Row, errors: _Errors) -> None:
    """A row that fills an agent column is an agent case unless it says it is RAG."""
    filled = [name for name in AGENT_FIELDS if name in case]
    if not filled:
        return
    kind = case.setdefault("kind", "agent")
    if kind != "agent":
        errors.add(row.number, row.headers.get(filled[0]),
                   "filled on a case of kind '{get}'; agent columns "
                   "belong to agent cases (set the kind to agent or clear the cell).",
                   get=row.values.get('kind'))


def _case_columns(case: Mapping[str, Any]) -> dict[str, Any]:
    """Column values of a parsed row (coded fields are already checked codes).

    The per-row part of ``validation.case_columns`` without its enum lookups, which cost a
    tenth of a 10,000-row import; texts are still checked for invalid Unicode.
    """
    out: dict[str, Any] = {}
    for name, value in case.items():
        if name == "key":
            continue
        if name in _LIST_COLUMNS:
            out[name] = json.dumps([v.check_text(name, x) for x in value], ensure_ascii=False)
        elif name in VALUE_NAMES or name in AGENT_FIELDS or name == "output_contract":
            out[name] = value  # checked codes, and agent columns read by agent_column
        else:
            out[name] = v.check_text(name, value)
    return out


_LIST_COLUMNS = frozenset((*LIST_FIELDS, "tags"))


def _sources(case: dict[str, Any], raw: Any, resolver: _Resolver,
             report: CaseImportReport) -> list[str]:
    """Resolve a source cell: the documents found (the case may instead expect abstention,
    or keep the unmatched text in its notes)."""
    if raw is None:
        return []
    parts = [str(x) for x in raw] if isinstance(raw, list) else [str(raw)]
    text = "\n".join(p.strip() for p in parts if p.strip())
    if not text:
        return []
    if _NO_SOURCE.match(norm(text)):
        case.setdefault("family", "no_answer")
        case.setdefault("expected_behaviour", "abstain")
        report.no_answer += 1
        return []
    whole = resolver.find(text)
    items = [text] if whole else [p for p in re.split(r"[;\n]", text) if p.strip()]
    unmatched, found = [], []
    for item in items:
        doc = resolver.find(item)
        if doc is None:
            unmatched.append(item.strip())
        elif doc not in found:
            found.append(doc)
    if unmatched:
        report.unmatched_sources.extend(unmatched)
        note = "Source: " + "; ".join(unmatched)
        notes = str(case.get("notes") or "")
        case["notes"] = f"{notes}\n{note}".strip() if notes else note
    return found


def _rows_from_table(table: Table, columns: Mapping[str, int]) -> list[_Row]:
    headers = {name: table.headers[i] for name, i in columns.items()}
    others = [i for i, h in enumerate(table.headers) if h and i not in columns.values()]
    return [_Row(number, {name: cells[i] for name, i in columns.items()}, headers,
                 {table.headers[i]: cells[i] for i in others}) for number, cells in table.rows]


def _rows_from_jsonl(path: Path, mapping: Mapping[str, str],
                     report: CaseImportReport) -> list[_Row]:
    rows: list[_Row] = []
    unknown: set[str] = set()
    for number, obj in read_json_lines(path):
        names = recognise_headers(list(obj), mapping)
        headers = {name: list(obj)[i] for name, i in names.items()}
        unknown |= set(obj) - set(headers.values())
        values = {name: obj[header] for name, header in headers.items()}
        for name, value in values.items():
            if name == "expected_state" and isinstance(value, dict):
                continue  # a JSON object is the state itself
            if not isinstance(value, (str, list, int, float, type(None))):
                raise ImportRejected(path, number, "'{headers}' should be text or a "
                                                   "list of texts.", headers=headers[name])
        rows.append(_Row(number, values, headers,
                         {k: x for k, x in obj.items() if k not in headers.values()}))
    if unknown:
        report.ignored_columns = sorted(unknown)
        report.warnings.append(Message("{name}: fields not recognised, fields kept in extra: "
                                       "{few_names} (or name them with --map field=name).",
                                       name=path.name, few_names=few_names(sorted(unknown))))
    return rows


def load_rows(path: Path, options: Options,
              report: CaseImportReport) -> tuple[list[_Row], Table | None]:
    """Parse the file into rows of raw field values (nothing checked against the store)."""
    if path.name.lower().removesuffix(".gz").endswith((".jsonl", ".ndjson", ".json")):
        if not path.is_file():
            raise ImportRejected(path, None, "no such file; check the path.")
        rows = _rows_from_jsonl(path, options.mapping, report)
        _category_to_tags(path, rows, report)
        return rows, None
    table = read_table(path, cancel=options.cancel,
                       accept=lambda headers: has_question(headers, options.mapping))
    report.warnings.extend(table.warnings)
    columns = recognise_headers(table.headers, options.mapping)
    if "question" not in columns:
        raise ImportRejected(path, 1, "no column is recognised as the question (columns: "
                                      "{value}); "
                                      "name it with --map question=Header.",
                                      value=few_names(h for h in table.headers if h) or 'none')
    ignored = [h for i, h in enumerate(table.headers) if h and i not in columns.values()]
    if ignored:
        report.ignored_columns = ignored
        report.warnings.append(Message("{name}: columns not recognised, fields kept in extra "
                                       "of each case: {few_names} (or name them with --map "
                                       "field=Header).",
                                       name=path.name, few_names=few_names(ignored)))
    question = table.headers[columns["question"]]
    if table.rows and not any(cells[columns["question"]].strip() for _n, cells in table.rows):
        raise ImportRejected(path, None, "column '{question}' is empty in every row; every "
                                         "case needs a question.", question=question)
    rows = _rows_from_table(table, columns)
    _category_to_tags(path, rows, report)
    return rows, table


#: Headers that are the family column for sure; others (``category``, ``catégorie``) may
#: hold a sheet's own topics, not the nine families.
_FAMILY_HEADERS = frozenset(("famille", "family", "case family", "type de cas"))


def _category_to_tags(path: Path, rows: list[_Row], report: CaseImportReport) -> None:
    """A ``category`` column whose values are not families is read as tags, with a note
    (a French sheet's ``Catégorie`` of topics refused every row before)."""
    header = next((r.headers["family"] for r in rows if "family" in r.headers), None)
    if header is None or norm(header) in _FAMILY_HEADERS:
        return
    values = {str(r.values.get("family") or "").strip() for r in rows} - {""}
    odd = sorted(x for x in values if _code("family", x) is None)
    if not odd:
        return
    for r in rows:
        raw = r.values.pop("family", None)
        r.headers.pop("family", None)
        if "tags" in r.values:
            existing = r.values["tags"]
            tags = (list(existing) if isinstance(existing, list)
                    else _split_list(str(existing or ""), tags=True))
        else:
            tags = []
        text = str(raw or "").strip()
        if text and text not in tags:
            tags.append(text)
        r.values["tags"] = tags
        r.headers.setdefault("tags", header)
    report.warnings.append(Message("{name}: column '{header}' holds values that are not case "
                                   "families ({few_names}); they were added as tags (name "
                                   "the family column with --map family=Header).",
                                   name=path.name, header=header, few_names=few_names(odd, 5)))


def import_cases(store: CaseStore, source: Path, options: Options) -> CaseImportReport:
    """Import cases from CSV, XLSX or JSONL (registry entry ``cases``); all or nothing."""
    report = CaseImportReport()
    rows, _table = load_rows(source, options, report)
    if not rows:
        raise ImportRejected(source, None, "the file holds no case (only a header?).")
    cases, sources = _parse(source, rows, store, options, report, len(rows))
    return write_cases(store, source, cases, sources, options, report)


def write_cases(store: CaseStore, source: Path, cases: list[dict[str, Any]],
                sources: list[tuple[str, str]], options: Options,
                report: CaseImportReport, *, action: str = "import_cases",
                after: Callable[[Any, dict[str, int]], None] | None = None,
                spans: Mapping[tuple[str, str], tuple[int, int]] | None = None
                ) -> CaseImportReport:
    """Write validated cases and their sources in one operation (cancel rolls it back);
    ``spans``: (case key, document key) → the expected passage's span in the document."""
    now = utc_now()
    columns = sorted({c for case in cases for c in case} - {"author", "output_contract"})
    with store.operation(action, source.name) as op:
        op.insert_rows("cases", [*columns, "author", "created_at", "updated_at"], (
            [case.get(c, _DEFAULTS.get(c)) for c in columns]
            + [case.get("author") or store.assessor, now, now] for case in cases))
        if options.cancel is not None and options.cancel():
            raise Cancelled()
        ids = op.ids_by_key("cases")
        docs = op.ids_by_key("documents")
        places = spans or {}
        pairs = [(ids[case_key], docs[doc], *places.get((case_key, doc), (None, None)))
                 for case_key, doc in sources]
        if pairs:
            op.insert_rows("expected_sources",
                           ["case_id", "document_id", "span_start", "span_end", "note"],
                           ([c, d, a, b, ""] for c, d, a, b in pairs))
        for case in cases:  # output contracts (issue 17), written once their cases exist
            if case.get("output_contract") is not None:
                write_contract_in(op, op.get("cases", {"id": ids[case["key"]]}) or {},
                                  case["output_contract"])
        if after is not None:
            after(op, ids)
    report.cases = len(cases)
    report.sources = len(pairs)
    report.changes = made(op.changes())
    if options.progress is not None:
        options.progress(len(cases), len(cases))
    return report


_DEFAULTS: dict[str, Any] = {
    "question": "", "variants": "[]", "must_contain": "[]", "forbidden": "[]", "tags": "[]",
    "expected_behaviour": "answer", "family": "ordinary", "role": "", "notes": "",
    "status": "draft", "reference_answer": None, "difficulty": None,
    "kind": "rag", "expected_state": "{}", "forbidden_tools": "[]", "required_tools": "[]",
    "tool_order": "[]", "extra": "{}",
}
