"""A document's structure and kept file in the native formats.

* On each document: ``kind`` (the reader that made its text, '' for plain text), ``pages``
  (page start offsets, or null), ``headings`` (``[offset, level, title]`` lists, or null),
  ``file`` (the SHA-256 of its kept file, or null), and for a passage of another document
  ``span_start`` / ``span_end`` (its place in the parent's text), ``located`` and
  ``match_score`` (how it was found).  A layout is checked as one read from a file: offsets
  within the document's text, pages ascending from 0, headings in order.
* A top-level ``document_files`` list holds each kept file once, by SHA-256:
  ``{"sha256", "kind", "name", "size", "created_at", "data"}`` with ``data`` the bytes in
  base64 (RFC 4648, no line breaks), which JSON can carry losslessly and any reader can
  decode; the import checks that the bytes have that hash and size.  The CSV and XLSX
  exports name a document's file by its hash but do not carry the bytes (a spreadsheet is no
  place for a PDF): importing them leaves such documents without a kept file, and says so.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag_annotator.domain.layout import DocumentKind, check_layout
from rag_annotator.errors import InvalidValue
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.messages import N_
from rag_annotator.storage.store import GoldSetStore

#: Fields a document written before documents had a structure lacks (format version 1).
DOCUMENT_DEFAULTS: dict[str, Any] = {
    "kind": "", "pages": None, "headings": None, "file": None, "span_start": None,
    "span_end": None, "located": None, "match_score": None}
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class LayoutField:
    """The kind of a document's ``pages`` or ``headings``: the JSON value (or its text in a
    flat table's cell), stored in the spelling the readers store (``Layout.columns``)."""

    name: str


def layout_value(field: LayoutField, value: Any) -> str | None:
    """The stored JSON text of a ``pages`` or ``headings`` value (InvalidValue if malformed;
    offsets are checked against the text once the whole row is read)."""
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else None
        except ValueError:
            raise InvalidValue("expected a JSON list or null.") from None
    if value is None:
        return None
    layout = (check_layout(value, None, None) if field.name == "pages"
              else check_layout(None, value, None))
    return layout.columns()[field.name]


def check_document(path: Path, row: dict[str, Any], where: str, line: int | None = None
                   ) -> None:
    """Cross-field checks of one document row: its kind, a file's hash, a layout within
    its text, a passage's span in order.  ``where`` names the row (``documents[3]``), ``line``
    its line in a flat file."""
    def bad(message: str, **params: Any) -> ImportRejected:
        return ImportRejected(path, line, "{where}: {problem}", where=where,
                              problem=InvalidValue(message, **params))
    if row["kind"] not in {k.value for k in DocumentKind}:
        raise bad(N_("kind '{kind}' is not one of {kinds}."), kind=row["kind"],
                  kinds=", ".join(k.value or "''" for k in DocumentKind))
    if row["file"] is not None and not _SHA256.match(row["file"]):
        raise bad(N_("file: expected the SHA-256 of a kept file (64 hex digits)."))
    try:
        check_layout(json.loads(row["pages"]) if row["pages"] else None,
                     json.loads(row["headings"]) if row["headings"] else None,
                     len(row["text"]))
    except InvalidValue as error:
        raise ImportRejected(path, line, "{where}: {problem}", where=where,
                             problem=error) from None
    start, end = row["span_start"], row["span_end"]
    if (start is None) != (end is None) or (start is not None and not 0 <= start <= end):
        raise bad(N_("span_start and span_end: give both, with 0 <= start <= end, or "
                     "neither."))


def read_files(path: Path, items: Any) -> dict[str, dict[str, Any]]:
    """The ``document_files`` section, checked: SHA-256 → the row to insert."""
    if items is None:
        return {}
    if not isinstance(items, list):
        raise ImportRejected(path, None, "document_files: expected a list.")
    out: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(items):
        where = f"document_files[{i}]"
        if not isinstance(item, dict) or set(item) != {"sha256", "kind", "name", "size",
                                                       "created_at", "data"}:
            raise ImportRejected(path, None, "{where}: expected an object with sha256, kind, "
                                             "name, size, created_at and data.", where=where)
        sha, size = item["sha256"], item["size"]
        if not isinstance(sha, str) or not _SHA256.match(sha) or sha in out:
            raise ImportRejected(path, None, "{where}.sha256: expected a SHA-256 (64 hex "
                                             "digits) not given before.", where=where)
        if not all(isinstance(item[k], str) for k in ("kind", "name", "created_at", "data")) \
                or isinstance(size, bool) or not isinstance(size, int):
            raise ImportRejected(path, None, "{where}: kind, name, created_at and data are "
                                             "texts, size an integer.", where=where)
        try:
            data = base64.b64decode(item["data"], validate=True)
        except (binascii.Error, ValueError):
            raise ImportRejected(path, None, "{where}.data: not base64.", where=where) from None
        if len(data) != size or hashlib.sha256(data).hexdigest() != sha:
            raise ImportRejected(path, None, "{where}: the data does not have the size and "
                                             "SHA-256 the entry gives (damaged?); export the "
                                             "file again.", where=where)
        out[sha] = {"sha256": sha, "kind": item["kind"], "name": item["name"], "size": size,
                    "data": data, "created_at": item["created_at"]}
    return out


def export_files(store: GoldSetStore) -> Iterator[dict[str, Any]]:
    """The ``document_files`` section's rows, the bytes in base64."""
    for sha, kind, name, size, created_at, data in store.export_document_files():
        yield {"sha256": sha, "kind": kind, "name": name, "size": size,
               "created_at": created_at, "data": base64.b64encode(data).decode("ascii")}
