"""Strict JSON: what RFC 8259 allows and nothing Python's reader tolerates beyond it.

Python's ``json`` accepts ``NaN`` and ``Infinity`` and keeps the last of two equal keys of an
object without a word; a run importer and a structured answer's check must refuse both, with
one line saying why.  Trailing text after the value is refused by ``json.loads`` itself.
The run importers (``import_export``) use these hooks too, so both read JSON alike.
"""

from __future__ import annotations

import json
from typing import Any

from rag_annotator.messages import N_

TOO_DEEP = N_("the data is nested too deeply to read (lists or objects inside each other "
            "thousands of times); flatten it.")


def refuse_constant(name: str) -> Any:
    """``parse_constant`` hook of the strict JSON readers: NaN and Infinity are not JSON."""
    raise ValueError(f"{name} is not a number JSON allows; write a finite number or null")


def refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of the strict JSON readers: a key given twice in one object
    would silently lose one of its values."""
    out = dict(pairs)  # C speed; a repeated key makes the dict shorter than the pairs
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise ValueError(f"the key '{key}' appears twice in one object")
            seen.add(key)
    return out


def parse_strict(text: str) -> tuple[bool, Any, str]:
    """``(True, value, "")`` for one strict JSON value, else ``(False, None, reason)`` with a
    one-line reason (duplicate key, NaN/Infinity, trailing text, bad syntax, too deep)."""
    try:
        return True, json.loads(text, parse_constant=refuse_constant,
                                object_pairs_hook=refuse_duplicate_keys), ""
    except json.JSONDecodeError as error:
        if error.msg == "Extra data":
            return False, None, (f"text after the JSON value (line {error.lineno}, column "
                                 f"{error.colno}); the answer must be one JSON value")
        return False, None, f"not valid JSON: {error.msg} (line {error.lineno}, column " \
                            f"{error.colno})"
    except ValueError as error:  # the hooks' refusals
        return False, None, str(error)
    except RecursionError:
        return False, None, TOO_DEEP
