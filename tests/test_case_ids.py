"""The Gold set list's case ids, read as one JSON array (start-up, issue 19), come in the
order and with the filters of the plain row-by-row query (run here on its own connection)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.storage.store import GoldSetStore


@pytest.fixture
def shuffled(tmp_path: Path) -> Path:
    """60 cases created in an order unrelated to their keys, with families, statuses, tags
    and a searchable word on some."""
    path = tmp_path / "shuffled.goldset"
    keys = [f"K{n:03}" for n in range(60)]
    random.Random(7).shuffle(keys)
    with GoldSetStore.create(path, assessor="alice") as store:
        for i, key in enumerate(keys):
            ops.create_case(store, key=key, question=f"Question {i} {'lune' if i % 4 else ''} ?",
                            family="sensitive" if i % 3 == 0 else "ordinary",
                            status="approved" if i % 5 == 0 else "draft",
                            tags=["rare"] if i % 7 == 0 else [])
    return path


FILTERS = [
    ({}, ""),
    ({"family": "sensitive"}, "family = 'sensitive'"),
    ({"status": "approved"}, "status = 'approved'"),
    ({"search": "lune"}, "(key LIKE '%lune%' OR question LIKE '%lune%' "
                         "OR reference_answer LIKE '%lune%')"),
    ({"tag": "rare"}, "EXISTS (SELECT 1 FROM json_each(cases.tags) WHERE value = 'rare')"),
    ({"family": "sensitive", "status": "approved"},
     "family = 'sensitive' AND status = 'approved'"),
    ({"family": "no such family"}, "family = 'no such family'"),
]


@pytest.mark.parametrize(("filters", "where"), FILTERS)
def test_case_ids_match_the_row_by_row_query(shuffled: Path, filters: dict[str, str],
                                             where: str) -> None:
    conn = sqlite3.connect(f"file:{shuffled}?mode=ro", uri=True)
    try:
        expected = [row[0] for row in conn.execute(
            f"SELECT id FROM cases {'WHERE ' + where if where else ''} ORDER BY key")]
        by_id = [row[0] for row in conn.execute(
            f"SELECT id FROM cases {'WHERE ' + where if where else ''} ORDER BY id")]
    finally:
        conn.close()
    with GoldSetStore.open(shuffled, read_only=True) as store:
        assert store.case_ids(**filters) == expected
    if len(expected) > 2:
        assert expected != by_id  # the key order is not the creation order: the test bites
