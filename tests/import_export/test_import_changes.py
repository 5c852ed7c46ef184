"""Every importer returns the Changes of its one operation (issue 14, item 4), and a
cancelled import leaves the file as it was."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from pathlib import Path

import pytest

from rag_annotator.import_export import registry
from rag_annotator.import_export.files import Cancelled
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump


@pytest.mark.parametrize("name", sorted(registry.IMPORTS))
def test_every_importer_report_carries_changes(name: str) -> None:
    function = inspect.unwrap(registry.importer(name))
    report_type = typing.get_type_hints(function)["return"]
    fields = {f.name: f for f in dataclasses.fields(report_type)}
    assert "changes" in fields, f"{name}: {report_type.__name__} has no 'changes'"
    assert fields["changes"].default is None


def _run(tmp_path: Path, lines: int = 2) -> Path:
    path = tmp_path / "run.txt"
    path.write_text("".join(f"Q{i % 7} Q0 D{i} {i // 7 + 1} {1000 - i}.0 r\n"
                            for i in range(lines)), encoding="utf-8")
    return path


def test_a_run_import_returns_its_operation(store: GoldSetStore, tmp_path: Path) -> None:
    report = registry.importer("trec-run")(store, _run(tmp_path), registry.Options())
    assert report.changes is not None
    assert report.changes.operation_id == store.newest_operation_id()
    assert report.changes.reshapes("retrieved", "runs", "cases", "documents")


def test_qrels_name_their_pairs(store: GoldSetStore, tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("Q1 0 D1 1\nQ1 0 D2 0\n", encoding="utf-8")
    changes = registry.importer("qrels")(store, qrels, registry.Options()).changes
    assert changes is not None
    ids = {row["key"]: row["id"] for row in store.query("SELECT id, key FROM cases "
                                                        "UNION ALL SELECT id, key FROM documents")}
    assert changes.pairs_touched() == {(ids["Q1"], ids["D1"]), (ids["Q1"], ids["D2"])}


@pytest.mark.parametrize("after", [0, 1, 3])
def test_a_cancelled_run_import_changes_nothing(store: GoldSetStore, goldset_path: Path,
                                                tmp_path: Path, after: int) -> None:
    """Cancel while parsing (0) or while storing: the file is as it was."""
    run = _run(tmp_path, 100_000)
    before = full_dump(goldset_path)
    polls = iter(range(1_000))
    options = registry.Options(cancel=lambda: next(polls) >= after)
    with pytest.raises(Cancelled):
        registry.importer("trec-run")(store, run, options)
    assert full_dump(goldset_path) == before


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_cancelled_gold_set_import_changes_nothing(store: GoldSetStore, goldset_path: Path,
                                                     tmp_path: Path, fmt: str) -> None:
    from rag_annotator.import_export.sample import create_sample

    sample = tmp_path / "sample.goldset"
    create_sample(sample, assessor="Claire").close()
    exported = tmp_path / ("sample.json" if fmt == "json" else "folder")
    with GoldSetStore.open(sample, read_only=True) as source:
        registry.exporter(fmt)(source, exported, registry.Options())
    before = full_dump(goldset_path)
    polls = iter(range(1_000))
    options = registry.Options(cancel=lambda: next(polls) >= 3)  # a few tables in
    with pytest.raises(Cancelled):
        registry.importer(fmt)(store, exported, options)
    assert full_dump(goldset_path) == before
    report = registry.importer(fmt)(store, exported, registry.Options())
    assert report.changes is not None and report.changes.every_pair
