"""File → Import for whole gold sets: a native JSON export fills an empty file, undoably."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_annotator.import_export import registry
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.exchange.file_import import GOLDSET_FORMATS, import_file
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui


def test_json_export_of_the_sample_fills_an_empty_file(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                       english: None, modals) -> None:
    sample = tmp_path / "sample.goldset"
    create_sample(sample, assessor="Claire Dubois").close()
    exported = tmp_path / "sample.json"
    with GoldSetStore.open(sample, read_only=True) as store:
        registry.exporter("json")(store, exported, registry.Options())
        cases = store.count("cases")
    empty = tmp_path / "empty.goldset"
    GoldSetStore.create(empty, assessor="Marc").close()
    window = open_window(qtbot, empty, assessor="Marc")
    assert window.store is not None and window.store.count("cases") == 0
    modals.expect()  # the report
    job = import_file(window.ctx, window, "json", exported)
    assert job is not None and job.wait_done()
    assert job.changes is not None and job.changes.operation_id
    qtbot.waitUntil(lambda: not modals.pending, timeout=3000)
    assert "imported" in modals.texts.pop()
    assert window.store.count("cases") == cases
    window.undo.undo()
    assert window.store.count("cases") == 0
    # Into a file that holds data: refused with a message, nothing changed.
    modals.expect()
    window.undo.redo()
    job = import_file(window.ctx, window, "json", exported)
    assert job is not None and job.wait_done() and job.changes is None
    qtbot.waitUntil(lambda: not modals.pending, timeout=3000)
    assert "empty" in modals.texts[0].lower()
    assert window.store.count("cases") == cases


def test_every_whole_gold_set_format_is_a_registered_import() -> None:
    assert set(GOLDSET_FORMATS) <= set(registry.IMPORTS)
