"""The per-record fields an import has no column for, kept in ``extra`` (issue 18, point 7).

An importer that meets fields it cannot map (Ragas's ``persona_name``, DeepEval's
``source_file``, a BEIR query's ``metadata``, a Ragas result's metric columns…) keeps them on
the case or answer they belong to, as one JSON object (``cases.extra``, ``answers.extra``),
instead of dropping them; the native JSON, CSV and XLSX carry the object as it is, and the
ecosystem exports write its keys back where their format has room (:func:`carry_out`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from rag_annotator.messages import Message

#: The warning an import gives for the fields it kept this way (after the file's name).
KEPT_IN_EXTRA = Message("fields kept in extra")  # a parameter of warnings: translated


def plain(value: Any) -> Any:
    """``value`` as JSON can hold it (NaN and infinity, which a pandas CSV gives for an empty
    metric, become null; anything else unknown becomes its text)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Mapping):
        return {str(k): plain(x) for k, x in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(x) for x in value]
    return str(value)


def kept(record: Mapping[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """The fields ``names`` of ``record`` that it holds, as a JSON-ready object."""
    return {name: plain(record[name]) for name in sorted(names) if name in record}


def extra_text(extra: Mapping[str, Any]) -> str:
    """The stored spelling of an ``extra`` object (``{}`` when nothing was kept)."""
    return json.dumps(dict(extra), ensure_ascii=False, allow_nan=False)


def extra_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """The ``extra`` object of a case or answer row (its JSON text, or already decoded)."""
    value = row.get("extra")
    if isinstance(value, str):
        value = json.loads(value) if value else {}
    return dict(value) if isinstance(value, dict) else {}


def carry_out(target: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``target`` with the kept fields it does not already hold (the export's own fields
    win: a kept field never overwrites what the gold set now says)."""
    for name, value in extra.items():
        target.setdefault(name, value)
    return target
