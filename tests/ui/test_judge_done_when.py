"""Issue 4's acceptance scenario, keyboard only, on the sample: Ctrl+4, 1, 0, 1, Ctrl+Z,
Ctrl+Q leave exactly one more relevant and one more not-relevant judgment, read back with
``info --json`` in another process, and still there when the file is opened again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from rag_annotator.storage.store import GoldSetStore
from tests.helpers import run_cli
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui


def _judgments(path: Path) -> dict[str, int]:
    result = run_cli("info", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout)["judgments"])


def test_keyboard_only_judging_on_the_sample(qtbot, tmp_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "exemple.goldset"
    assert run_cli("new", str(path), "--sample").returncode == 0
    before = _judgments(path)

    window = open_window(qtbot, path, assessor="Marc")
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    judge = window.sections[3]
    # Opens on the first pair nobody has labelled yet, in the first case that has one.
    first = judge.pool.rows[judge.pairs.currentIndex().row()]
    assert first["effective_grade"] is None and first["my_grade"] is None
    for key in (Qt.Key.Key_1, Qt.Key.Key_0, Qt.Key.Key_1):
        qtbot.keyClick(QApplication.focusWidget(), key)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Q,
                   Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)
    assert window.store is None  # closed: nothing pending in this process

    after = _judgments(path)
    assert after["relevant"] == before["relevant"] + 1
    assert after["not_relevant"] == before["not_relevant"] + 1
    assert after["unjudged"] == before["unjudged"] - 2
    with GoldSetStore.open(path, read_only=True) as store:  # "after a restart"
        assert store.judgment_counts() == after
        marc = [r for r in store.judgment_rows() if r[2] == "Marc"]
        assert sorted(r[3] for r in marc) == [0, 1]
