"""Migration 0004_wide_grades (issue 18, point 8): grades above 4 in a version-3 file.

ranx's and ir_measures' test qrels use labels 5, 6, up to 50; the grades' CHECK stopped at
4.  The migration rebuilds ``judgments`` and ``adjudications`` with rows and ids kept, and
still refuses a text grade (which ``BETWEEN 0 AND 4`` refused by itself).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rag_annotator.storage.schema import SCHEMA_VERSION, WIDE_GRADES_VERSION
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich
from tests.helpers import dump, header_ids, schema_up_to


def test_a_file_before_wide_grades_gains_them_and_keeps_every_label(
        goldset_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        schema_up_to(patch, WIDE_GRADES_VERSION - 1)
        with GoldSetStore.create(goldset_path, assessor="alice") as store:
            build_rich(store)
            with pytest.raises(sqlite3.IntegrityError), store.operation("t", "t") as op:
                op.update("judgments", {"id": 1}, {"grade": 6})
    assert header_ids(goldset_path)[1] == WIDE_GRADES_VERSION - 1
    before = dump(goldset_path, ("judgments", "adjudications"))
    assert before["adjudications"]

    with GoldSetStore.open(goldset_path, assessor="alice") as store:
        assert store.schema_version == SCHEMA_VERSION >= WIDE_GRADES_VERSION
        assert store.schema_problems() == [] and store.integrity_problems() == []
        after = dump(goldset_path, ("judgments", "adjudications"))
        assert after == before
        with store.operation("t", "t") as op:
            op.update("meta", {"key": "max_grade"}, {"value": "6"})
            op.update("judgments", {"id": 1}, {"grade": 6})
        for bad in ("abc", -1):
            with pytest.raises(sqlite3.IntegrityError), store.operation("t", "t") as op:
                op.update("judgments", {"id": 2}, {"grade": bad})
        assert store.integrity_problems() == []
    with GoldSetStore.open(goldset_path, read_only=True) as store:  # a scale of 6 opens
        assert store.meta("max_grade") == "6"
