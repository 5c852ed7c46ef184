"""A 1,000,000-line TREC run imported from the Runs section: the window keeps painting
(the import runs on a worker thread), and Cancel leaves the file exactly as it was."""

from __future__ import annotations

import hashlib
import itertools
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QPushButton

from rag_annotator.domain.clock import utc_now
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.sections.runs import RunsSection
from tests.helpers import full_dump
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui

CASES, DOCUMENTS, DEPTH = 1_000, 20_000, 1_000  # 1,000,000 lines


def _gold_set(path: Path) -> None:
    now = utc_now()
    with GoldSetStore.create(path, assessor="alice") as store, \
            store.operation("load_sample", "corpus", log=False, undoable=False) as op:
        op.insert_rows("documents", ("key", "text", "content_hash", "created_at", "updated_at"),
                       ((f"d{i}", "", "", now, now) for i in range(DOCUMENTS)))
        op.insert_rows("cases", ("key", "created_at", "updated_at"),
                       ((f"q{i}", now, now) for i in range(CASES)))


def _run_file(path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for q in range(CASES):
            out.writelines(f"q{q} Q0 d{(q * 7 + r * 13) % DOCUMENTS} {r + 1} {DEPTH - r} big\n"
                           for r in range(DEPTH))


def _digest(path: Path) -> str:
    return hashlib.sha256(repr(full_dump(path)).encode()).hexdigest()


def test_the_window_keeps_turning_and_cancel_changes_nothing(
        qtbot, goldset_path: Path, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    _gold_set(goldset_path)
    run = tmp_path / "big.run"
    _run_file(run)
    before = _digest(goldset_path)
    window = open_window(qtbot, goldset_path)
    window.show_section(2)
    section = window.sections[2]
    assert isinstance(section, RunsSection)
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    started = time.perf_counter()
    timer.start()
    job = section.import_run("trec-run", run)
    assert job is not None
    # Let it run: parsing, then rows stored (progress reported), then press Cancel.
    deadline = started + 40
    while (job.dialog.value() < 100_000 and not job.done
           and time.perf_counter() < deadline):
        QApplication.processEvents()
        time.sleep(0.002)
    assert not job.done, "the import ended before it could be cancelled"
    assert job.dialog.isVisible()  # a long import shows its progress and Cancel
    (cancel,) = job.dialog.findChildren(QPushButton)
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    assert job.wait_done(60)
    timer.stop()
    running = [t for t in ticks if started <= t]
    gaps = [b - a for a, b in itertools.pairwise(running)]
    assert len(running) > 20
    worst = max(range(len(gaps)), key=gaps.__getitem__)
    assert max(gaps) < 0.100, (f"the event loop stalled {max(gaps) * 1000:.0f} ms, "
                               f"{(running[worst] - started) * 1000:.0f} ms after the start")
    assert job.cancelled and job.changes is None and job.error
    assert window.undo.stack.count() == 0
    window.close()
    assert _digest(goldset_path) == before


def test_the_progress_dialog_shows_soon_even_before_any_progress(
        qtbot, goldset_path: Path, tmp_path: Path, english: None,  # type: ignore[no-untyped-def]
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An import still reading its file (no progress reported yet) shows its dialog and
    Cancel after SHOW_AFTER_MS, not after QProgressDialog's default four seconds."""
    from rag_annotator.import_export import registry
    from rag_annotator.ui.exchange import file_import

    _gold_set(goldset_path)
    run = tmp_path / "small.run"
    run.write_text("Q0001 Q0 D00001 1 2.0 r\n", encoding="utf-8")
    real = registry.importer

    def slow(name: str):  # type: ignore[no-untyped-def]
        def read_slowly(store, source, options):  # type: ignore[no-untyped-def]
            time.sleep(2.5)  # a long parse: nothing to report yet
            return real(name)(store, source, options)
        return read_slowly

    monkeypatch.setattr(registry, "importer", slow)
    window = open_window(qtbot, goldset_path)
    window.show_section(2)
    section = window.sections[2]
    assert isinstance(section, RunsSection)
    started = time.perf_counter()
    job = section.import_run("trec-run", run)
    assert job is not None
    qtbot.waitUntil(job.dialog.isVisible, timeout=2000)
    shown_after = time.perf_counter() - started
    assert shown_after >= file_import.SHOW_AFTER_MS / 1000 * 0.9
    assert job.wait_done(30) and job.changes is not None
