"""The streaming reader of the native JSON (issue 19) against the standard library's
``json.loads``: the same values, and a syntax error at the same line and column, whatever
the block boundaries (blocks of a few bytes here, so numbers, strings and escapes are cut)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.import_export import native_stream
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.native_json import read_document
from rag_annotator.import_export.native_stream import JsonStream

DOCUMENT = {
    "format": "rag_annotator", "version": 1, "meta": {"name": "é\"x\\", "n": None},
    "judgments": [{"case": f"Q{i}", "grade": i % 3 or None, "seconds": 12345.678 * i,
                   "note": "ligne\nsuivante \u00e9\u20ac \U0001F600", "big": 10**20 + i}
                  for i in range(40)],
    "empty": [], "nested": [[1, [2, {"a": [3.5e-7]}]], {"b": True}, False, None, "s"],
    "last": 123456789,
}


def _read(text: str, monkeypatch: pytest.MonkeyPatch, block: int) -> dict[str, Any]:
    monkeypatch.setattr(native_stream, "_BLOCK", block)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.json"
        path.write_text(text, encoding="utf-8")
        with open(path, encoding="utf-8-sig") as handle:
            stream = JsonStream(path, handle)
            out: dict[str, Any] = {}
            for key in stream.members():
                if stream.is_array():
                    out[key] = [value for value, _suspicious in stream.items()]
                else:
                    out[key] = stream.value()[0]
    return out


@pytest.mark.parametrize("block", [1, 3, 7, 64, 1 << 20])
@pytest.mark.parametrize("indent", [None, 1])
def test_same_values_as_json_loads(monkeypatch: pytest.MonkeyPatch, block: int,
                                   indent: int | None) -> None:
    text = json.dumps(DOCUMENT, indent=indent, ensure_ascii=indent is None)
    assert _read(text, monkeypatch, block) == json.loads(text)


@pytest.mark.parametrize("broken", [
    lambda t: t.replace('"Q17"', '"Q17'),           # a string never closed
    lambda t: t.replace('"grade": 2', '"grade": 2,'),  # a trailing comma
    lambda t: t.replace('"case": "Q30"', '"case" "Q30"'),  # no colon
    lambda t: t.replace('"empty": []', '"empty": [1 2]'),
    lambda t: t + " x",                              # text after the object
    lambda t: t.replace("12345.678", "12345.6.78"),
])
@pytest.mark.parametrize("block", [5, 1 << 20])
def test_syntax_errors_name_the_line_json_names(monkeypatch: pytest.MonkeyPatch, broken: Any,
                                                 block: int) -> None:
    text = broken(json.dumps(DOCUMENT, indent=1))
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(ImportRejected) as found:
        _read(text, monkeypatch, block)
    assert found.value.line == expected.value.lineno
    assert f"column {expected.value.colno})" in str(found.value)


def test_a_lone_surrogate_is_still_refused_with_its_row(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({
        "format": "rag_annotator", "version": 1,
        "assessors": [{"name": "ana", "kind": "human", "created_at": "2024-01-01T00:00:00Z"},
                      {"name": "bo\ud800b", "kind": "human",
                       "created_at": "2024-01-01T00:00:00Z"}]}), encoding="utf-8")
    with pytest.raises(ImportRejected, match=r"assessors\[1\]\.name: expected valid Unicode"):
        read_document(path)


def test_rows_before_the_format_are_checked_after_it(tmp_path: Path) -> None:
    path = tmp_path / "late.json"
    path.write_text(json.dumps({
        "assessors": [{"name": "ana", "kind": "human", "created_at": "2024-01-01T00:00:00Z"}],
        "format": "rag_annotator", "version": 1}), encoding="utf-8")
    assert [a["name"] for a in read_document(path)["assessors"]] == ["ana"]
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"assessors": [{"x": 1}], "format": "other"}), encoding="utf-8")
    with pytest.raises(ImportRejected, match="not a rag_annotator JSON export"):
        read_document(other)
