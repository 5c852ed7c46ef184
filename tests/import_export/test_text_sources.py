"""JSON records in every shape tools publish, and gzip read transparently (issue 18, point 5)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from rag_annotator.import_export.files import ImportRejected, read_json_lines, read_text_lines
from rag_annotator.import_export.tabular import read_csv
from rag_annotator.import_export.text_sources import read_records

RECORDS = [{"id": "a", "n": 1}, {"id": "b", "n": [1, 2]}]


@pytest.mark.parametrize(("text", "shape"), [
    ("\n".join(json.dumps(r) for r in RECORDS) + "\n", "jsonl"),
    (json.dumps(RECORDS, indent=2), "array"),
    (json.dumps({"results": RECORDS, "metrics": {"p": 1}}, indent=1), "object:results"),
    (json.dumps({"whatever": RECORDS}, indent=4), "object:whatever"),
])
def test_every_shape_gives_the_same_records(tmp_path: Path, text: str, shape: str) -> None:
    path = tmp_path / "f.json"
    path.write_text(text, encoding="utf-8")
    found = read_records(path)
    assert found.shape == shape
    assert [r for _n, r in found.items] == RECORDS
    assert [r for _n, r in read_json_lines(path)] == RECORDS
    lines = text.split("\n")
    for number, record in found.items:  # each record's line is where it starts
        assert lines[number - 1].lstrip().startswith(("{", '{"id"')) and record["id"] in \
            "\n".join(lines[number - 1:number + 2])


def test_a_one_line_object_is_one_record(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"case": "c1", "messages": [{"role": "user"}]}) + "\n")
    assert read_records(path).items == [(1, {"case": "c1", "messages": [{"role": "user"}]})]


def test_bad_element_of_an_array_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[\n {"a": 1},\n {"a": NaN}\n]\n')
    with pytest.raises(ImportRejected, match=r"bad\.json:3: not valid JSON"):
        read_records(path)


def test_gzip_is_read_transparently(tmp_path: Path) -> None:
    run = tmp_path / "run.gz"
    run.write_bytes(gzip.compress(b"1 Q0 d1 1 2.5 tag\n1 Q0 d2 2 1.5 tag\n"))
    assert [t for _n, t in read_text_lines(run)] == ["1 Q0 d1 1 2.5 tag", "1 Q0 d2 2 1.5 tag"]
    table = tmp_path / "t.csv.gz"
    table.write_bytes(gzip.compress(b"question,answer\nQ?,A\n"))
    assert read_csv(table).rows == [(2, ["Q?", "A"])]
    records = tmp_path / "r.jsonl.gz"
    records.write_bytes(gzip.compress(b'{"a": 1}\n{"a": 2}\n'))
    assert [r for _n, r in read_json_lines(records)] == [{"a": 1}, {"a": 2}]


def test_damaged_gzip_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "run.gz"
    path.write_bytes(gzip.compress(b"1 Q0 d1 1 2.5 tag\n" * 1000)[:60])
    with pytest.raises(ImportRejected, match=r"run\.gz: the gzip file is damaged"):
        list(read_text_lines(path))


@pytest.mark.parametrize("as_array", [False, True])
def test_list_cells_as_pandas_writes_them(tmp_path: Path, as_array: bool) -> None:
    """A list (``"['a', 'b']"``) or a numpy array (``"['a' 'b']"``, a Ragas v0.1 result
    built from a Hugging Face dataset) read back item by item; literal_eval alone would
    join the array's items into one."""
    pd = pytest.importorskip("pandas")
    np = pytest.importorskip("numpy")
    from rag_annotator.import_export.text_sources import list_cell

    items = ["## Titre\n\nx, y", "it's [1]", 'a "quoted" one']
    value = np.array(items, dtype=object) if as_array else items
    path = tmp_path / "r.csv"
    pd.DataFrame({"contexts": [value]}).to_csv(path)
    cell = read_csv(path).rows[0][1][1]
    assert list_cell(cell) == items
    assert list_cell("[__import__('os')]") is None  # no code runs, nothing is guessed
