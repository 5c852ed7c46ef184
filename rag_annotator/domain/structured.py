"""Checking a structured (JSON) answer against its case's output contract — Qt-free, no store.

Seed 003: "a RAG can find the right document and produce a valid JSON that distorts one
field".  So the check keeps three steps apart — the contract (does the answer parse, does it
satisfy the JSON Schema), the retrieval (was the document that justifies a field retrieved)
and the field itself (is the value the reference, and is it in what was retrieved) — and
gives each decisive field ONE outcome, the first that applies in this order:

1. ``not_executed``: the answer did not parse (strict JSON: :mod:`strict_json`) or broke the
   schema; no field was checked, and such a check is never counted as passed;
2. ``source_not_provided``: the field's justifying document is not among the documents the
   run retrieved for the case (the retrieval step is the one to fix first);
3. ``missing``: the pointer names nothing in the answer, or names ``null`` (unless the
   reference is ``null``);
4. ``differs``: the value is not the reference under the field's comparison;
5. ``not_supported``: the value is the reference but is not found in any retrieved context
   (normalised): it did not come from the passages the model was given;
6. ``equal``.

Comparisons: ``exact`` (JSON equality; ``true`` is not ``1``), ``number`` (a JSON number
within ``tolerance``, 0 when unset), ``date`` (the same calendar day; ISO ``YYYY-MM-DD`` or
``DD/MM/YYYY``), ``text`` (equal after NFC, case folding and whitespace collapsing, outer
punctuation dropped), ``one_of`` (the reference is a list of accepted values, each compared
as ``text`` when both are strings, else exactly).

"Found in a retrieved context": a string as normalised text (a date also as any date written
in the context, ISO, numeric or French "1er mars 2026"); a number as any number written in
the context (French "1 500,50" and "1500.5" both read), within the tolerance; any other value
(a yes/no, a list) cannot be read in a text: the field's justifying passage must then be in a
retrieved context instead.

The schema is JSON Schema 2020-12 as ``jsonschema``'s ``Draft202012Validator`` reads it, with
its format checker on (so ``"format": "date"`` is asserted, not only annotated).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any, NamedTuple

from rag_annotator.domain.strict_json import parse_strict
from rag_annotator.errors import InvalidValue
from rag_annotator.messages import Message

OUTCOMES = ("equal", "differs", "missing", "not_supported", "source_not_provided",
            "not_executed")
COMPARISONS = ("exact", "number", "date", "text", "one_of")
REVIEWS = ("confirmed", "overruled")
_MISSING: Any = object()


# -- values ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DecisiveField:
    """One decisive field of a contract: where it is (RFC 6901 pointer), its reference value,
    how to compare it and the passage of the expected source that justifies it."""

    pointer: str
    reference: Any
    comparison: str = "exact"
    tolerance: float | None = None
    document: str | None = None          # key of the justifying document
    passage: str = ""
    span: tuple[int, int] | None = None  # the passage's offsets in that document


@dataclass(frozen=True)
class Contract:
    """A RAG case's output contract: the answer's JSON Schema and its decisive fields."""

    schema: dict[str, Any]
    fields: tuple[DecisiveField, ...] = ()
    note: str = ""


class FieldResult(NamedTuple):
    """The outcome of one decisive field in one answer (``found``: the value read, JSON).
    A named tuple: 2,000,000 of them are made for 100,000 answers of 20 fields."""

    outcome: str
    found: str | None = None
    detail: str = ""


@dataclass(frozen=True)
class AnswerResult:
    """One answer's check: did it parse, was it schema-valid (None: not parsed), why not,
    and one result per decisive field, in the contract's order."""

    parsed: bool
    schema_valid: bool | None
    reason: str
    fields: tuple[FieldResult, ...]


# -- JSON Pointer (RFC 6901) ---------------------------------------------------------------------
def pointer_tokens(pointer: str) -> tuple[str, ...]:
    """The reference tokens of a JSON Pointer; InvalidValue if it is not one."""
    if not isinstance(pointer, str):
        raise InvalidValue("the decisive field pointer {pointer!r} must be text.", pointer=pointer)
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        raise InvalidValue("'{pointer}' is not a JSON Pointer: it must start with '/' "
                           "(e.g. /employee/start_date).", pointer=pointer)
    if re.search(r"~(?![01])", pointer):
        raise InvalidValue("'{pointer}': '~' must be written ~0, and '/' inside a name ~1.",
                           pointer=pointer)
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/"))


def resolve(value: Any, tokens: Sequence[str]) -> Any:
    """The value a pointer names, or the ``_MISSING`` marker (RFC 6901 section 4)."""
    for token in tokens:
        if isinstance(value, dict):
            if token not in value:
                return _MISSING
            value = value[token]
        elif isinstance(value, list):
            if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(value):
                return _MISSING
            value = value[int(token)]
        else:
            return _MISSING
    return value


# -- normalising and reading values in text ----------------------------------------------------
def normalise_text(text: str) -> str:
    """NFC, case folded, whitespace runs collapsed (as the run importers match texts)."""
    if not unicodedata.is_normalized("NFC", text):  # most texts are: skip the copy
        text = unicodedata.normalize("NFC", text)
    return " ".join(text.casefold().split())


_EDGES = " .,;:!?\"'«»()[]"
_NUMBER = re.compile(r"(?<![\w.,])-?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?(?![\w])"
                     r"|(?<![\w])-?\d+(?:[.,]\d+)?")
_MONTHS = {m: i for i, m in enumerate(
    ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
     "octobre", "novembre", "décembre"), start=1)}
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})|(\d{1,2})/(\d{1,2})/(\d{4})|(\d{1,2})(?:er)?\s+("
                   + "|".join(_MONTHS) + r")\s+(\d{4})")


def numbers_in(text: str) -> set[float]:
    """Every number written in ``text`` (French and English decimals, grouped thousands)."""
    found: set[float] = set()
    for match in _NUMBER.finditer(text):
        found.update(_token_values(match.group()))
    return found


def _token_values(token: str) -> tuple[float, ...]:
    """The value(s) of one number as written: ``1 500,50`` → 1500.5; ``1,500`` is 1.5 in
    French and 1500 in English, so both."""
    raw = token.replace(" ", "").replace("\u00a0", "").replace("\u202f", "")
    first = float(raw.replace(",", "."))
    if "," in raw and len(raw) - raw.index(",") == 4 and raw.count(",") == 1 \
            and 1 <= len(raw.lstrip("-").split(",")[0]) <= 3:
        return first, float(raw.replace(",", ""))
    return (first,)


def dates_in(text: str) -> set[dt.date]:
    """Every date written in ``text`` (ISO, DD/MM/YYYY, French "1er mars 2026")."""
    found: set[dt.date] = set()
    for m in _DATE.finditer(text.casefold()):
        if m.group(1):
            parts = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        elif m.group(4):
            parts = (int(m.group(6)), int(m.group(5)), int(m.group(4)))
        else:
            parts = (int(m.group(9)), _MONTHS[m.group(8)], int(m.group(7)))
        try:
            found.add(dt.date(*parts))
        except ValueError:
            continue
    return found


def as_date(value: Any) -> dt.date | None:
    """A date written as ISO ``YYYY-MM-DD`` (a time part is ignored) or ``DD/MM/YYYY``."""
    if not isinstance(value, str):
        return None
    return _as_date(value)


@lru_cache(maxsize=4096)
def _as_date(value: str) -> dt.date | None:
    m = re.fullmatch(r"\s*(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?\s*|\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*",
                     value)
    if m is None:
        return None
    try:
        if m.group(1):
            return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return dt.date(int(m.group(6)), int(m.group(5)), int(m.group(4)))
    except ValueError:
        return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same_json(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


@lru_cache(maxsize=4096)
def _text_key(value: str) -> str:
    return normalise_text(value).strip(_EDGES)


def shown(value: Any) -> str:
    """A value as one line of JSON (what the field outcome stores as ``found``); the
    scalars without ``json.dumps``, which costs more than the rest of a field's check."""
    if isinstance(value, str):
        return str(encode_basestring(value))
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)  # what json.dumps writes for a finite float
    return json.dumps(value, ensure_ascii=False)


# -- retrieved contexts ----------------------------------------------------------------------
class Retrieved:
    """What the run retrieved for one case: document keys and texts, read lazily once."""

    def __init__(self, documents: Iterable[tuple[str, str]]) -> None:
        self.items = list(documents)
        self.texts = dict(self.items)  # the justifying document is searched first
        self.keys = self.texts.keys()
        self._raw: str | None = None
        self._text: str | None = None
        self._numbers: set[float] | None = None
        self._dates: dict[int, set[dt.date]] = {}

    @property
    def raw(self) -> str:
        """Every retrieved text as it is: a value written as such is found here without
        normalising the contexts (the costliest step of checking an answer)."""
        if self._raw is None:
            self._raw = "\n\x00\n".join(t for _k, t in self.items)
        return self._raw

    def has_text(self, key: str, raw: str = "", first: str | None = None) -> bool:
        """Is ``raw`` (as written) or ``key`` (normalised) in a retrieved context?  The
        document ``first`` names (the justifying one) is searched first: that is where the
        value usually is, so the other texts are seldom read."""
        if raw and first is not None and raw in self.texts.get(first, ""):
            return True
        return bool(raw and raw in self.raw) or bool(key and key in self.text)

    @property
    def text(self) -> str:
        """Every retrieved text, normalised, separated so no match spans two documents."""
        if self._text is None:
            self._text = "\n\x00\n".join(normalise_text(t) for _k, t in self.items)
        return self._text

    def has_number(self, value: float, tolerance: float, first: str | None = None) -> bool:
        """Is a number within ``tolerance`` of ``value`` written in a retrieved context?

        One scan per text: the last digits of the value's integer part are looked for, and
        the number written around each hit is read (``1 500,50``, ``1500.5``…); only a
        value with a tolerance that crosses its integer part reads every number."""
        core = str(int(abs(value)))[-3:]
        if first is not None and _number_near(self.texts.get(first, ""), core, value,
                                              tolerance):
            return True
        if _number_near(self.raw, core, value, tolerance) or _number_near(
                self.text, core, value, tolerance):  # the normalised text only when needed
            return True
        if tolerance <= 0 or int(abs(value - tolerance)) == int(abs(value + tolerance)):
            return False
        if self._numbers is None:
            self._numbers = numbers_in(self.text)
        return any(abs(n - value) <= tolerance for n in self._numbers)

    def has_date(self, value: dt.date) -> bool:
        """Is this date written (ISO, numeric day first, French words) in a context?  The
        dates around each occurrence of the year are read once per year."""
        found = self._dates.get(value.year)
        if found is None:
            found = set()
            _dates_near(self.raw, value.year, found)
            if value not in found:  # the normalised text only when the raw one lacks it
                _dates_near(self.text, value.year, found)
            self._dates[value.year] = found
        return value in found


def _dates_near(text: str, year: int, found: set[dt.date]) -> None:
    """Add to ``found`` the dates written around each occurrence of ``year``."""
    spelled = str(year)
    start = text.find(spelled)
    while start >= 0:
        found |= dates_in(text[max(0, start - 20):start + 10])
        start = text.find(spelled, start + 1)


_SPACES = " \u00a0\u202f"


def _number_near(text: str, core: str, value: float, tolerance: float) -> bool:
    """Is ``value`` (± ``tolerance``) the number written around an occurrence of ``core``?"""
    at = text.find(core)
    while at >= 0:
        begin = at
        while begin > 0 and (text[begin - 1].isdigit() or (
                text[begin - 1] in _SPACES and begin > 1 and text[begin - 2].isdigit())):
            begin -= 1
        if begin > 0 and text[begin - 1] == "-":
            begin -= 1
        fraction = begin > 1 and text[begin - 1] in ".," and text[begin - 2].isdigit()
        match = None if fraction else _NUMBER.match(text, begin)  # not "50" of "2,50"
        if match is not None and match.end() >= at + len(core):
            for number in _token_values(match.group()):
                if abs(number - value) <= tolerance:
                    return True
        at = text.find(core, at + 1)
    return False


# -- one field -----------------------------------------------------------------------------------
class _Field:
    """A decisive field made ready to check many answers fast."""

    __slots__ = (
        "_choice_keys",
        "_choices",
        "_match",
        "_ref_key",
        "_why",
        "comparison",
        "document",
        "field",
        "passage",
        "reference",
        "tokens",
        "tolerance",
    )

    def __init__(self, decisive: DecisiveField) -> None:
        self.field = decisive
        self.tokens = pointer_tokens(decisive.pointer)
        self.reference = decisive.reference
        self.comparison = decisive.comparison
        self.tolerance = float(decisive.tolerance or 0.0)
        self.document = decisive.document
        self.passage = normalise_text(decisive.passage)
        self._ref_key: Any = None
        self._choices: list[Any] = []
        self._choice_keys: set[str] = set()
        self._match: Callable[[Any], tuple[bool, str]] = getattr(
            self, f"_match_{self.comparison}")  # chosen once, not for every answer
        # why a value differs, written once (not for each of 100,000 answers)
        self._why = f"expected {shown(decisive.reference)}"
        if self.comparison == "number" and self.tolerance:
            self._why += f" ± {self.tolerance:g}"
        if self.comparison == "date":
            self._ref_key = as_date(decisive.reference)
            self._why = f"expected {self._ref_key}"
        elif self.comparison == "text" and isinstance(decisive.reference, str):
            self._ref_key = _text_key(decisive.reference)
        elif self.comparison == "one_of":
            self._choices = list(decisive.reference)
            self._choice_keys = {_text_key(c) for c in self._choices if isinstance(c, str)}
            self._why = "not one of " + shown(self._choices)

    def matches(self, value: Any) -> tuple[bool, str]:
        """Is ``value`` the reference under this field's comparison (and why not)?"""
        match: Callable[[Any], tuple[bool, str]] = getattr(self, f"_match_{self.comparison}")
        return match(value)

    def _match_number(self, value: Any) -> tuple[bool, str]:
        if not _is_number(value) or not _is_number(self.reference):
            return False, "not a number"
        return abs(value - self.reference) <= self.tolerance, self._why

    def _match_date(self, value: Any) -> tuple[bool, str]:
        day = as_date(value)
        if day is None:
            return False, "not a date (YYYY-MM-DD or DD/MM/YYYY)"
        return day == self._ref_key, self._why

    def _match_text(self, value: Any) -> tuple[bool, str]:
        if not isinstance(value, str):
            return False, "not a text"
        return _text_key(value) == self._ref_key, self._why

    def _match_one_of(self, value: Any) -> tuple[bool, str]:
        if isinstance(value, str) and _text_key(value) in self._choice_keys:
            return True, ""
        return any(_same_json(choice, value) for choice in self._choices), self._why

    def _match_exact(self, value: Any) -> tuple[bool, str]:
        return _same_json(value, self.reference), self._why

    def supported(self, value: Any, retrieved: Retrieved) -> bool:
        """Is the value (else the justifying passage) found in a retrieved context?"""
        if _is_number(value):
            return retrieved.has_number(float(value), self.tolerance, self.document)
        if isinstance(value, str):
            day = as_date(value) if self.comparison == "date" or value[:1].isdigit() else None
            if day is not None and retrieved.has_date(day):
                return True
            return retrieved.has_text(_text_key(value), value.strip(_EDGES), self.document)
        return retrieved.has_text(self.passage, self.field.passage.strip(), self.document)

    def check(self, answer: Any, retrieved: Retrieved) -> FieldResult:
        """The outcome of this field in a parsed, schema-valid answer (see the module)."""
        tokens = self.tokens
        if len(tokens) == 1 and type(answer) is dict:
            value = answer.get(tokens[0], _MISSING)
        else:
            value = resolve(answer, tokens)
        if self.document is not None and self.document not in retrieved.keys:
            return FieldResult("source_not_provided", None if value is _MISSING else shown(
                value), f"document {self.document} was not retrieved")
        if value is _MISSING or (value is None and self.reference is not None):
            return FieldResult("missing", None if value is _MISSING else "null",
                               "no value at " + (self.field.pointer or "the root"))
        equal, why = self._match(value)
        if not equal:
            return FieldResult("differs", shown(value), why)
        if not self.supported(value, retrieved):
            return FieldResult("not_supported", shown(value),
                               "not found in the retrieved passages")
        return FieldResult("equal", shown(value))


# -- a contract ----------------------------------------------------------------------------------
def schema_problem(schema: Any) -> str | None:
    """Why ``schema`` is not a usable JSON Schema 2020-12 (None when it is)."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    if not isinstance(schema, (dict, bool)):
        return Message("the output schema must be a JSON object")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        where = "/".join(str(p) for p in error.path)
        if where:  # jsonschema's own explanation stays as it wrote it: a parameter
            return Message("the output schema is not valid JSON Schema 2020-12 ({error} at "
                           "{where})", error=error.message, where=where)
        return Message("the output schema is not valid JSON Schema 2020-12 ({error})",
                       error=error.message)
    return None


def check_contract(contract: Contract) -> None:
    """InvalidValue (one line) unless the contract can check answers."""
    problem = schema_problem(contract.schema)
    if problem is not None:
        raise InvalidValue("{problem}.", problem=problem)
    seen: set[str] = set()
    for n, decisive in enumerate(contract.fields, start=1):
        where = Message("decisive field {n} ({pointer})", n=n, pointer=decisive.pointer)
        pointer_tokens(decisive.pointer)
        if decisive.pointer in seen:
            raise InvalidValue("{where}: the pointer comes twice; keep one.", where=where)
        seen.add(decisive.pointer)
        if decisive.comparison not in COMPARISONS:
            raise InvalidValue("{where}: comparison '{comparison}' is not one of "
                               "{comparisons}.",
                               where=where, comparison=decisive.comparison,
                               comparisons=', '.join(COMPARISONS))
        if decisive.tolerance is not None and (not _is_number(decisive.tolerance) or not
                                               math.isfinite(decisive.tolerance)
                                               or decisive.tolerance < 0):
            raise InvalidValue("{where}: the tolerance must be a number >= 0.", where=where)
        if decisive.comparison == "number" and not _is_number(decisive.reference):
            raise InvalidValue("{where}: a number comparison needs a number as reference.",
                               where=where)
        if decisive.comparison == "date" and as_date(decisive.reference) is None:
            raise InvalidValue("{where}: a date comparison needs a date (YYYY-MM-DD) as "
                               "reference.", where=where)
        if decisive.comparison == "text" and not isinstance(decisive.reference, str):
            raise InvalidValue("{where}: a text comparison needs a text as reference.", where=where)
        if decisive.comparison == "one_of" and not (
                isinstance(decisive.reference, list) and decisive.reference):
            raise InvalidValue("{where}: 'one of' needs a non-empty list of accepted values.",
                               where=where)
        if decisive.span is not None and not 0 <= decisive.span[0] <= decisive.span[1]:
            raise InvalidValue("{where}: the passage's offsets must be 0 <= start <= end.",
                               where=where)


@dataclass
class CompiledContract:
    """A contract ready to check many answers: one validator, fields prepared once."""

    contract: Contract
    validator: Any = field(init=False)
    fields: list[_Field] = field(init=False)

    def __post_init__(self) -> None:
        from jsonschema import Draft202012Validator

        self.validator = Draft202012Validator(
            self.contract.schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        self.fields = [_Field(f) for f in self.contract.fields]

    def schema_error(self, value: Any) -> str | None:
        """jsonschema's verdict: None when valid, else its best error on one line."""
        if self.validator.is_valid(value):
            return None
        from jsonschema.exceptions import best_match

        error = best_match(self.validator.iter_errors(value))
        where = "/" + "/".join(str(p) for p in error.absolute_path) if error.absolute_path \
            else "the root"
        return " ".join(f"schema: {error.message} (at {where})".split())[:300]

    def check(self, text: str, retrieved: Retrieved) -> AnswerResult:
        """Parse, validate, then give every decisive field its outcome."""
        parsed, value, reason = parse_strict(text)
        if not parsed:
            return self._not_executed(False, None, reason)
        error = self.schema_error(value)
        if error is not None:
            return self._not_executed(True, False, error)
        return AnswerResult(True, True, "", tuple(f.check(value, retrieved)
                                                 for f in self.fields))

    def _not_executed(self, parsed: bool, valid: bool | None, reason: str) -> AnswerResult:
        detail = "the answer did not parse" if not parsed else "the answer broke the schema"
        return AnswerResult(parsed, valid, reason, tuple(
            FieldResult("not_executed", None, detail) for _f in self.fields))


def passed(outcome: str, review: str | None) -> bool | None:
    """Is the field right, once reviewed?  None for a check that did not run (never a pass).

    ``equal`` passes unless overruled; every other executed outcome fails unless the
    reviewer overruled it (e.g. the value is right though the tool read it otherwise).
    """
    if outcome == "not_executed":
        return None
    return (outcome == "equal") != (review == "overruled")


# -- the contract as JSON (native JSON, the case imports, the sample) -----------------------------
def contract_to_json(contract: Contract) -> dict[str, Any]:
    """A contract as the JSON object the files carry (``output_contract`` of a case)."""
    fields = []
    for f in contract.fields:
        item: dict[str, Any] = {"pointer": f.pointer, "reference": f.reference,
                                "comparison": f.comparison}
        if f.tolerance is not None:
            item["tolerance"] = f.tolerance
        if f.document is not None:
            item["document"] = f.document
        if f.passage:
            item["passage"] = f.passage
        if f.span is not None:
            item["span"] = list(f.span)
        fields.append(item)
    data: dict[str, Any] = {"schema": contract.schema, "fields": fields}
    if contract.note:
        data["note"] = contract.note
    return data


def contract_from_json(data: Any) -> Contract:
    """The contract a file gives (see :func:`contract_to_json`); InvalidValue (one line) when
    its shape is wrong.  What the values mean is checked by :func:`check_contract`."""
    if not isinstance(data, dict) or not isinstance(data.get("schema"), (dict, bool)):
        raise InvalidValue("an output contract must be an object with a 'schema' (a JSON "
                           "Schema object) and 'fields' (a list).")
    unknown = set(data) - {"schema", "fields", "note"}
    if unknown:
        raise InvalidValue("output contract: unknown key(s) {unknown}.",
                           unknown=', '.join(sorted(unknown)))
    items = data.get("fields", [])
    if not isinstance(items, list):
        raise InvalidValue("output contract: 'fields' must be a list.")
    fields = []
    for n, item in enumerate(items, start=1):
        if not isinstance(item, dict) or "pointer" not in item or "reference" not in item:
            raise InvalidValue("output contract: field {n} needs a 'pointer' and a "
                               "'reference'.", n=n)
        extra = set(item) - {"pointer", "reference", "comparison", "tolerance", "document",
                             "passage", "span"}
        if extra:
            raise InvalidValue("output contract: field {n} has unknown key(s) "
                               "{extra}.", n=n, extra=', '.join(sorted(extra)))
        span = item.get("span")
        if span is not None and not (isinstance(span, list) and len(span) == 2
                                     and all(type(s) is int for s in span)):
            raise InvalidValue("output contract: field {n}: 'span' must be [start, end].", n=n)
        for key in ("document", "passage", "comparison"):
            if item.get(key) is not None and not isinstance(item[key], str):
                raise InvalidValue("output contract: field {n}: '{key}' must be text.",
                                   n=n, key=key)
        fields.append(DecisiveField(
            pointer=item["pointer"], reference=item["reference"],
            comparison=item.get("comparison") or "exact", tolerance=item.get("tolerance"),
            document=item.get("document"), passage=item.get("passage") or "",
            span=None if span is None else (span[0], span[1])))
    note = data.get("note", "")
    if not isinstance(note, str):
        raise InvalidValue("output contract: 'note' must be text.")
    contract = Contract(data["schema"], tuple(fields), note)
    check_contract(contract)
    return contract
