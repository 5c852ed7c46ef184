"""The row checks of the native JSON import, compiled once per entity (issue 19).

``native_json.check_value`` walks a chain of kind tests for every field of every row: on a
1,000,000-judgment file that was two thirds of the import (47 s of 70 s under the
profiler).  A :class:`RowChecker` keeps that function as the *reference* and in front of it
puts, per field, the one cheap test that accepts the value the export writes (a text is a
``str``, a grade an ``int`` or null...); any value that fails the cheap test goes through
``check_value``, which returns it converted or raises the usual error naming the row and
field.  So every value is checked exactly as before and every message is the same; only
the well-formed majority goes faster.

Texts: ``check_value`` also refuses a lone UTF-16 surrogate (JSON can spell one, ``"\\ud800"``,
SQLite cannot store it).  Such a text can only come from a ``\\u`` escape in the file, so the
cheap test is used for texts only when the caller says the file holds no escape of a
surrogate (``plain_text``); otherwise texts take the reference path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

#: A cheap test: the value unchanged when it passes, else :data:`_FAIL`.
_FAIL = object()
Fast = Callable[[Any], Any]


def _key(value: Any) -> Any:
    return value if type(value) is str and value and value == value.strip() else _FAIL


def _text(value: Any) -> Any:
    return value if type(value) is str else _FAIL


def _optional_text(value: Any) -> Any:
    return value if value is None or type(value) is str else _FAIL


def _integer(value: Any) -> Any:
    return value if type(value) is int else _FAIL


def _optional_integer(value: Any) -> Any:
    return value if value is None or type(value) is int else _FAIL


def _optional_bit(value: Any) -> Any:
    return value if value is None or (type(value) is int and value in (0, 1)) else _FAIL


def _optional_number(value: Any) -> Any:
    if value is None:
        return None
    if type(value) is float:
        return value if math.isfinite(value) else _FAIL
    return float(value) if type(value) is int else _FAIL


def _choice(allowed: tuple[str, ...], optional: bool) -> Fast:
    choices = frozenset(allowed)

    def fast(value: Any) -> Any:
        if value is None:
            return None if optional else _FAIL
        return value if type(value) is str and value in choices else _FAIL
    return fast


class RowChecker:
    """One entity's flat fields, checked fast where the value is well-formed (see the
    module docstring); :meth:`__call__` returns the same dict ``_obj`` returned."""

    def __init__(self, spec: Mapping[str, Any], defaults: Mapping[str, Any],
                 reference: Callable[..., Any], kinds: Mapping[str, Any],
                 plain_text: bool) -> None:
        self.spec = dict(spec)
        self.names = frozenset(spec)
        self.required = frozenset(n for n in spec if n not in defaults)
        self.defaults = defaults
        self.reference = reference
        self.fields = [(name, kind, self._fast(kind, kinds, plain_text))
                       for name, kind in spec.items()]

    @staticmethod
    def _fast(kind: Any, kinds: Mapping[str, Any], plain_text: bool) -> Fast | None:
        if isinstance(kind, tuple):  # an enum: (optional, allowed)
            optional, allowed = kind
            return _choice(allowed, optional)
        texts = {kinds["key"]: _key, kinds["text"]: _text, kinds["text?"]: _optional_text}
        if isinstance(kind, str) and kind in texts:
            return texts[kind] if plain_text else None
        others = {kinds["int"]: _integer, kinds["int?"]: _optional_integer,
                  kinds["0/1?"]: _optional_bit, kinds["number?"]: _optional_number}
        return others.get(kind) if isinstance(kind, str) else None

    def well_formed(self, item: Any) -> bool:
        """A dict whose fields are all known and none required is missing."""
        if type(item) is not dict:
            return False
        keys = item.keys()
        return keys <= self.names and self.required <= keys

    def __call__(self, path: Path, item: dict[str, Any], where: str) -> dict[str, Any]:
        """The checked row of a :meth:`well_formed` item."""
        out: dict[str, Any] = {}
        defaults, reference = self.defaults, self.reference
        for name, kind, fast in self.fields:
            value = item[name] if name in item else defaults.get(name)
            if fast is not None:
                checked = fast(value)
                if checked is not _FAIL:
                    out[name] = checked
                    continue
            out[name] = reference(path, f"{where}.{name}", value, kind)
        return out
