"""Checks on values before they reach the file, with messages that say what to do."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from rag_annotator.domain.enums import (
    Behaviour,
    CaseKind,
    CaseStatus,
    CitationSupport,
    Difficulty,
    DocStatus,
    FailureCategory,
    Family,
    Outcome,
    StrEnum,
    Verdict,
    values,
)
from rag_annotator.errors import InvalidValue

CASE_TEXT_FIELDS = ("key", "question", "reference_answer", "role", "notes", "author")
CASE_LIST_FIELDS = ("variants", "must_contain", "forbidden", "tags")
CASE_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "kind": CaseKind, "expected_behaviour": Behaviour, "family": Family, "status": CaseStatus,
    "difficulty": Difficulty,
}
CASE_AGENT_FIELDS = ("expected_state", "forbidden_tools", "required_tools", "tool_order",
                     "max_steps", "max_tokens", "max_seconds", "max_cost")
CASE_FIELDS = (*CASE_TEXT_FIELDS, *CASE_LIST_FIELDS, *CASE_ENUM_FIELDS, *CASE_AGENT_FIELDS)

DOCUMENT_TEXT_FIELDS = ("key", "title", "text", "owner", "version")
DOCUMENT_FIELDS = (*DOCUMENT_TEXT_FIELDS, "rights", "valid_from", "valid_until", "status",
                   "supersedes_id", "parent_id", "origin")
RUN_FIELDS = ("name", "model", "corpus_version", "prompt_version", "index_version", "notes")

_KEY_RE = re.compile(r"^\S(.*\S)?$")


def content_hash(text: str) -> str:
    """SHA-256 of a document's text (UTF-8), to notice changed documents on re-import."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_enum(field: str, value: Any, enum: type[StrEnum], *,
               optional: bool = False) -> str | None:
    """Return the enum's stored value, or raise InvalidValue listing the allowed ones."""
    if value is None and optional:
        return None
    allowed = values(enum)
    text = str(value)
    if text not in allowed:
        raise InvalidValue("{field}: '{value}' is not one of {allowed}.",
                           field=field, value=value, allowed=', '.join(allowed))
    return text


def check_key(field: str, value: Any) -> str:
    """An identifier: non-empty text without surrounding spaces."""
    if not isinstance(value, str) or not _KEY_RE.match(value):
        raise InvalidValue("{field}: give a non-empty identifier without leading or "
                           "trailing spaces (got {value!r}).", field=field, value=value)
    return value


def check_text(field: str, value: Any, *, optional: bool = False) -> str | None:
    """Free text; lone surrogates are refused here, before SQLite would choke on them."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InvalidValue("{field}: expected text, got {name}.",
                           field=field, name=type(value).__name__)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidValue("{field}: the text holds invalid Unicode (a lone surrogate); "
                           "fix its encoding.", field=field) from None
    return value


def check_list(field: str, value: Any) -> str:
    """A list of strings, stored as a JSON array."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise InvalidValue("{field}: expected a list of texts.", field=field)
    items = [check_text(f"{field}[{i}]", v) for i, v in enumerate(value)]
    return json.dumps(items, ensure_ascii=False)


def check_date(field: str, value: Any) -> str | None:
    """An ISO date (YYYY-MM-DD) or nothing."""
    if value in (None, ""):
        return None
    try:
        return date.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise InvalidValue("{field}: '{value}' is not a date; write it as YYYY-MM-DD.",
                           field=field, value=value) from None


def case_columns(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Validate case fields and convert them to column values."""
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "key":
            out[name] = check_key("key", value)
        elif name in CASE_TEXT_FIELDS:
            out[name] = check_text(name, value, optional=name == "reference_answer")
        elif name in CASE_LIST_FIELDS:
            out[name] = check_list(name, value)
        elif name in CASE_ENUM_FIELDS:
            out[name] = check_enum(name, value, CASE_ENUM_FIELDS[name],
                                   optional=name == "difficulty")
        elif name in CASE_AGENT_FIELDS:
            from rag_annotator.domain.agents import agent_column

            out[name] = agent_column(name, value)
        else:
            raise InvalidValue("cases have no field '{name}'.", name=name)
    return out


def document_columns(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Validate document fields and convert them to column values (hash follows the text)."""
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "key":
            out[name] = check_key("key", value)
        elif name in DOCUMENT_TEXT_FIELDS:
            out[name] = check_text(name, value)
        elif name == "rights":
            out[name] = check_list(name, value)
        elif name in ("valid_from", "valid_until"):
            out[name] = check_date(name, value)
        elif name == "status":
            out[name] = check_enum(name, value, DocStatus)
        elif name in ("supersedes_id", "parent_id"):
            if value is not None and not isinstance(value, int):
                raise InvalidValue("{name}: expected a document id.", name=name)
            out[name] = value
        elif name == "origin":
            if value not in ("corpus", "placeholder", "unmatched_context"):
                raise InvalidValue("origin: '{value}' is not corpus, placeholder or "
                                   "unmatched_context.", value=value)
            out[name] = value
        else:
            raise InvalidValue("documents have no field '{name}'.", name=name)
    if "text" in out:
        out["content_hash"] = content_hash(out["text"])
    if out.get("valid_from") and out.get("valid_until") and out["valid_until"] < out["valid_from"]:
        raise InvalidValue("valid_until is before valid_from; check the dates.")
    return out


def run_columns(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Validate run fields (name and version notes)."""
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if name not in RUN_FIELDS:
            raise InvalidValue("runs have no field '{name}'.", name=name)
        out[name] = check_key("name", value) if name == "name" else check_text(name, value)
    return out


def check_grade(grade: int | None, max_grade: int) -> int | None:
    """A judgment grade: None (unjudged), 0 (not relevant) or 1..max_grade (relevant)."""
    if grade is None:
        return None
    if isinstance(grade, bool) or not isinstance(grade, int) or not 0 <= grade <= max_grade:
        scale = "0 or 1" if max_grade == 1 else f"0 to {max_grade}"
        raise InvalidValue("grade {grade!r} is outside this gold set's scale ({scale}).",
                           grade=grade, scale=scale)
    return grade


def check_verdict(verdict: str | None) -> str | None:
    """A claim verdict or None (unverified)."""
    return check_enum("verdict", verdict, Verdict, optional=True)


def check_outcome(outcome: str | None) -> str | None:
    """An answer review outcome or None."""
    return check_enum("outcome", outcome, Outcome, optional=True)


def check_support(support: str | None) -> str | None:
    """A citation check or None (not checked)."""
    return check_enum("support", support, CitationSupport, optional=True)


def check_failures(categories: list[str]) -> str:
    """Failure categories of a review, as a JSON array of known values."""
    return json.dumps([check_enum("failure category", c, FailureCategory) for c in categories])
