"""Minimal reproducers of what the long import fuzzing found (test_fuzz_imports.py with
RAG_ANNOTATOR_LONG=1), kept as regression tests.  Those still open are marked xfail(strict): a
fix makes it pass, and strict xfail then fails the run so the mark gets removed.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    path = tmp_path / "sample.goldset"
    create_sample(path, assessor="fuzz").close()
    return path


def refused(store: GoldSetStore, fmt: str, source: Path) -> str:
    """Import ``source``; it must be refused with a KnownError; return the message."""
    with pytest.raises(KnownError) as raised:
        registry.importer(fmt)(store, source, registry.Options())
    return str(raised.value)


def test_corpus_record_without_text(sample: Path, tmp_path: Path) -> None:
    source = tmp_path / "c.jsonl"
    source.write_text('{"_id": "N-1", "title": "Nouveau"}\n', encoding="utf-8")
    before = full_dump(sample)
    with GoldSetStore.open(sample, assessor="fuzz") as store:
        message = refused(store, "corpus", source)
    assert ":1:" in message
    assert full_dump(sample) == before


def test_csv_folder_with_a_broken_list_cell(sample: Path, tmp_path: Path) -> None:
    folder = tmp_path / "csv"
    with GoldSetStore.open(sample, read_only=True) as store:
        registry.exporter("csv")(store, folder, registry.Options())
    cases = folder / "cases.csv"
    with cases.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    rows[1][rows[0].index("tags")] = "[oops"
    with cases.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    empty = tmp_path / "empty.goldset"
    GoldSetStore.create(empty).close()
    with GoldSetStore.open(empty, assessor="fuzz") as store:
        message = refused(store, "csv", folder)
    assert "tags" in message


def test_case_cell_with_a_line_break_gives_a_one_line_message(sample: Path,
                                                              tmp_path: Path) -> None:
    source = tmp_path / "cases.csv"
    source.write_text('question,family\n"Une question ?","a\nb"\n', encoding="utf-8")
    with GoldSetStore.open(sample, assessor="fuzz") as store:
        message = refused(store, "cases", source)
    assert "family" in message
    assert "\n" not in message.strip()


def test_testset_header_with_a_line_break_gives_a_one_line_message(sample: Path,
                                                                   tmp_path: Path) -> None:
    from openpyxl import Workbook

    source = tmp_path / "testset.xlsx"
    book = Workbook()
    book.active.append(["a\nb", "autre"])
    book.active.append(["x", "y"])
    book.save(source)
    with GoldSetStore.open(sample, assessor="fuzz") as store:
        message = refused(store, "ragas-testset", source)
    assert "user_input" in message
    assert "\n" not in message.strip()
