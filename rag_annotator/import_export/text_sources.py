"""JSON records as tools publish them: JSON Lines, one JSON array, or one object holding the
list — gzipped or not — read by one function so every JSON importer takes all of them.

Ragas saves ``to_jsonl()`` but users save ``json.dump(dataset.to_list())``; DeepEval writes
an array; RAGChecker writes ``{"results": [...]}``; BEIR and tau-bench publish gzipped files.
A pretty-printed file given to a JSON-Lines reader used to fail on its first line ("not valid
JSON … each line must be one JSON object"); here the shape is read from the first character
that is not blank, and each record keeps the line on which it starts, so refusals still name
``file:line``.

The readers are strict like the rest of the import layer: NaN/Infinity and a key given twice
in one object are refused (``files.refuse_constant``, ``files.refuse_duplicate_keys``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag_annotator.import_export.files import (
    MAX_TEXT_BYTES,
    TOO_DEEP,
    ImportRejected,
    read_source_bytes,
    refuse_constant,
    refuse_duplicate_keys,
)

#: Keys under which tools put their list of records in a single JSON object, most usual
#: first (``{"results": [...]}`` RAGChecker, ``{"samples": [...]}`` a Ragas Testset, ...).
LIST_KEYS = ("results", "samples", "data", "goldens", "test_cases", "examples", "items",
             "records", "rows", "queries", "trajectories")

_DECODER = json.JSONDecoder(object_pairs_hook=refuse_duplicate_keys,
                            parse_constant=refuse_constant)


@dataclass(frozen=True)
class Records:
    """The records of a JSON file and the shape they came in.

    ``shape`` is ``"jsonl"``, ``"array"`` or ``"object:<key>"`` (the key holding the list);
    ``items`` are ``(line where the record starts, value)``; ``envelope`` is the holding
    object without its list (for ``object:`` shapes; else empty)."""

    shape: str
    items: list[tuple[int, Any]]
    envelope: dict[str, Any]


def source_text(path: Path, limit: int = MAX_TEXT_BYTES) -> str:
    """The whole text of an import file: gunzipped when gzip, BOM dropped, strict UTF-8
    (a NUL byte or bad UTF-8 refused naming the line)."""
    data = read_source_bytes(path, limit).removeprefix(b"\xef\xbb\xbf")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ImportRejected(path, data.count(b"\n", 0, nul) + 1,
                             "the line holds a NUL byte; this is not a text file (UTF-16? "
                             "save it as UTF-8).")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ImportRejected(path, data.count(b"\n", 0, error.start) + 1,
                             "not UTF-8; save the file as UTF-8.") from None


def read_records(path: Path, *, objects: bool = True,
                 list_keys: tuple[str, ...] = LIST_KEYS) -> Records:
    """Every record of a JSON Lines file, a JSON array, or one object holding the list.

    A file whose first non-blank character is ``[`` is an array; ``{`` followed by more JSON
    on the same first value's last line is JSON Lines; a single object is searched for the
    list (a key of ``list_keys``, else its only key whose value is a list of objects); a
    single object holding no list is one record.  ``objects``: every record must be an
    object (refused naming its line otherwise).
    """
    text = source_text(path)
    start = _skip_blank(text, 0)
    if start == len(text):
        return Records("jsonl", [], {})
    if text[start] == "[":
        items = list(_array_items(path, text, start))
        return _checked(path, Records("array", items, {}), objects)
    first, end = _decode(path, text, start)
    if _skip_blank(text, end) == len(text) and isinstance(first, dict):
        # A one-line object is a JSON Lines file of one record unless it names its list by
        # a usual key: a one-line trajectory's "messages" is no list of records.
        one_line = "\n" not in text[start:end]
        key = _list_key(first, list_keys, guess=not one_line)
        if key is None:
            return _checked(path, Records("jsonl", [(_line_of(text, start), first)], {}),
                            objects)
        items = list(_items_under(path, text, start, key))
        envelope = {k: val for k, val in first.items() if k != key}
        return _checked(path, Records(f"object:{key}", items, envelope), objects)
    return _checked(path, Records("jsonl", list(_lines(path, text)), {}), objects)


def json_records(path: Path, *, objects: bool = True) -> Iterator[tuple[int, Any]]:
    """``(line, record)`` of a JSON Lines file, a JSON array or an object holding the list:
    what :func:`files.read_json_lines` yields, for every shape."""
    yield from read_records(path, objects=objects).items


def list_cell(text: str) -> list[Any] | None:
    """A spreadsheet cell holding a list as pandas's ``to_csv`` writes one: ``"['a', 'b']"``
    (a Python list's repr), ``"['a' 'b']"`` (a numpy array's: what a Ragas v0.1 result
    built from a Hugging Face dataset holds, no commas, maybe a line break between items), or
    JSON; None when it is none of these.  Each item is read by :func:`ast.literal_eval`,
    which builds literals and never runs code — and the items are taken one by one, because
    ``literal_eval("['a' 'b']")`` would silently join them into ``['ab']``."""
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        parsed = None
    if isinstance(parsed, list):
        return parsed
    return _repr_items(text)


def _repr_items(text: str) -> list[Any] | None:
    import ast
    import io
    import tokenize

    body = text.strip()
    if not (body.startswith("[") and body.endswith("]")):
        return None
    items: list[Any] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(body[1:-1]).readline))
        for token in tokens:
            if token.type in (tokenize.STRING, tokenize.NUMBER):
                items.append(ast.literal_eval(token.string))
            elif token.type == tokenize.OP and token.string in (",", "-"):
                if token.string == "-":
                    return None  # a negative number: not a list of texts or ids
            elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER,
                                    tokenize.INDENT, tokenize.DEDENT):
                return None  # anything else is no list literal of texts
    except (tokenize.TokenError, SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return items


def _checked(path: Path, records: Records, objects: bool) -> Records:
    if objects:
        for line, value in records.items:
            if not isinstance(value, dict):
                raise ImportRejected(path, line, "expected one JSON object ({...}) per "
                                                 "record.")
    return records


def _list_key(obj: dict[str, Any], list_keys: tuple[str, ...], *, guess: bool
              ) -> str | None:
    for key in list_keys:
        if isinstance(obj.get(key), list):
            return key
    if not guess:
        return None
    lists = [k for k, val in obj.items()
             if isinstance(val, list) and val and all(isinstance(x, dict) for x in val)]
    return lists[0] if len(lists) == 1 else None


def _skip_blank(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _line_of(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _decode(path: Path, text: str, at: int) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, at)
    except json.JSONDecodeError as error:
        raise ImportRejected(path, error.lineno, "not valid JSON ({msg}).", msg=error.msg) from None
    except ValueError as error:  # a refused constant or duplicate key
        raise ImportRejected(path, _line_of(text, at), "not valid JSON ({error}).",
                                                       error=error) from None
    except RecursionError:
        raise ImportRejected(path, _line_of(text, at), TOO_DEEP) from None


def _array_items(path: Path, text: str, at: int) -> Iterator[tuple[int, Any]]:
    """The elements of the array starting at ``text[at] == "["``, each with its line."""
    at = _skip_blank(text, at + 1)
    if at < len(text) and text[at] == "]":
        return
    while True:
        value, end = _decode(path, text, at)
        yield _line_of(text, at), value
        at = _skip_blank(text, end)
        if at < len(text) and text[at] == ",":
            at = _skip_blank(text, at + 1)
            continue
        if at < len(text) and text[at] == "]":
            return
        raise ImportRejected(path, _line_of(text, at), "not valid JSON (expected ',' or ']' "
                                                       "after an array element).")


def _items_under(path: Path, text: str, at: int, key: str) -> Iterator[tuple[int, Any]]:
    """The elements of the list held by ``key`` in the object at ``text[at] == "{"``."""
    at = _skip_blank(text, at + 1)
    while at < len(text) and text[at] != "}":
        name, at = _decode(path, text, at)
        at = _skip_blank(text, at)
        at = _skip_blank(text, at + 1)  # the ':' (the whole object decoded already)
        if name == key:
            yield from _array_items(path, text, at)
            return
        _value, at = _decode(path, text, at)
        at = _skip_blank(text, at)
        if at < len(text) and text[at] == ",":
            at = _skip_blank(text, at + 1)


def _lines(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = _DECODER.decode(line)
        except json.JSONDecodeError as error:
            raise ImportRejected(path, number, "not valid JSON ({msg}); in JSON Lines "
                                               "each line is one JSON value.",
                                               msg=error.msg) from None
        except ValueError as error:
            raise ImportRejected(path, number, "not valid JSON ({error}).", error=error) from None
        except RecursionError:
            raise ImportRejected(path, number, TOO_DEEP) from None
        yield number, value
