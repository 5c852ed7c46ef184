"""In a French window, the core's refusals are French (issue 21, point 1): ten importer
families through File → Import, a damaged file opened, a busy file's refusal reaching the
error box, and a merge conflict in the merge report, each the French catalogue's text with
its parameters (checked with the standard library's gettext as the peer)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.exchange.file_import import import_file
from tests.bad_imports import BAD_IMPORTS, assert_french, write_bad
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui


def _informative(modal_text: str) -> str:
    """The box's informative text (ModalCatcher records "text\\ninformative")."""
    return modal_text.split("\n", 1)[1]


def test_ten_bad_imports_are_refused_in_french(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                french: None, modals) -> None:
    goldset = tmp_path / "g.goldset"
    GoldSetStore.create(goldset, assessor="alice").close()
    spare = tmp_path / "spare.goldset"
    shutil.copy(goldset, spare)
    window = open_window(qtbot, goldset)
    families = set()
    for fmt, name, content, options in BAD_IMPORTS:
        folder = tmp_path / fmt
        folder.mkdir()
        source = write_bad(folder, name, content)
        with GoldSetStore.open(spare, assessor="alice") as store, \
                pytest.raises(KnownError) as caught:
            registry.importer(fmt)(store, source, registry.Options(**options))
        modals.expect()
        job = import_file(window.ctx, window, fmt, source, registry.Options(**options))
        assert job is not None and job.wait_done() and job.changes is None
        qtbot.waitUntil(lambda: not modals.pending, timeout=5000)
        shown = _informative(modals.texts.pop())
        assert shown == caught.value.render("fr")
        assert_french(shown, caught.value)
        families.add(fmt)
    assert len(families) >= 10
    assert window.store is not None and window.store.count("cases") == 0


def test_a_damaged_file_and_a_busy_file_are_refused_in_french(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, french: None, modals) -> None:
    from rag_annotator.ui.errors import ErrorReporter

    goldset = tmp_path / "g.goldset"
    GoldSetStore.create(goldset, assessor="alice").close()
    damaged = tmp_path / "damaged.goldset"
    damaged.write_bytes(goldset.read_bytes()[:60])
    with pytest.raises(KnownError) as caught:
        GoldSetStore.open(damaged)
    window = open_window(qtbot, goldset)
    modals.expect()
    assert window.files.open_file(damaged) is False
    qtbot.waitUntil(lambda: not modals.pending, timeout=5000)
    shown = _informative(modals.texts.pop())
    assert shown == caught.value.render("fr")
    assert_french(shown, caught.value)
    # A busy file's refusal escaping an action reaches the error box through the hook.
    other = tmp_path / "other.goldset"
    GoldSetStore.create(other, assessor="Claire").close()
    with GoldSetStore.open(other, assessor="Claire", lock=True), \
            pytest.raises(KnownError) as busy:
        GoldSetStore.open(other, assessor="bob", lock=True)
    reporter = ErrorReporter(lambda: window)
    modals.expect()
    reporter.excepthook(type(busy.value), busy.value, None)
    qtbot.waitUntil(lambda: not modals.pending, timeout=5000)
    shown = _informative(modals.texts.pop())
    assert_french(shown, busy.value)
    assert "Claire (machine " in shown


def test_a_merge_conflict_is_listed_in_french(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                              french: None, modals) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from rag_annotator.domain import judging_ops
    from rag_annotator.domain import operations as ops

    mine, theirs = tmp_path / "mine.goldset", tmp_path / "theirs.goldset"
    with GoldSetStore.create(mine, assessor="Alice") as store:
        ops.create_case(store, key="Q1", question="Combien de jours de congé ?")
        ops.create_document(store, key="D1", text="Vingt-cinq jours ouvrés.")
        pair = store.by_key("cases", "Q1")["id"], store.by_key("documents", "D1")["id"]
        judging_ops.set_judgment(store, *pair, 1)
    shutil.copy(mine, theirs)
    with GoldSetStore.open(theirs, assessor="Alice") as store:
        judging_ops.set_judgment(store, *pair, 0)
        ops.create_case(store, key="Q2", question="Et les RTT ?")  # not in mine: skipped
        judging_ops.set_judgment(store, store.by_key("cases", "Q2")["id"], pair[1], 1)
    window = open_window(qtbot, mine, assessor="Alice")
    details: list[str] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, read_and_close)
            return
        details.append(box.detailedText())
        box.accept()

    QTimer.singleShot(0, read_and_close)
    report = window.files.merge_file(theirs)
    assert report is not None
    (conflict,) = report.conflicts
    # The details pane gives its text back with plain spaces for the no-break ones.
    assert details and conflict.describe("fr").replace("\u00a0", " ") in details[0]
    assert_french(conflict.describe("fr"), conflict.message())
    assert "celui de l'autre fichier, plus récent, est gardé" in details[0]
    (skipped,) = report.skipped  # and the skipped row, in the box's details, in French
    assert str(skipped) == "judgment of Alice on Q2 · D1: case Q2 is not in this file"
    assert ("ignoré : jugement de Alice sur Q2 · D1 : le cas Q2 n'est pas dans ce fichier"
            in details[0].splitlines())
