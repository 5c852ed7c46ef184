"""What the window's first paint does without (issue 19): it builds the section on screen
only (named as it is built, through its attributes), no "no file" page when it shows a file,
names the window's own widgets just after it is painted, and opening a file imports neither
numpy nor the domain's write operations for contracts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication, QLabel

from rag_annotator.app import create_main_window
from rag_annotator.paths import app_paths
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.goldset.section import GoldSetSection
from tests.ui.driving import open_window


def test_a_window_showing_a_file_builds_only_what_is_on_screen(
        qtbot, rich, goldset_path: Path, english) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, goldset_path)
    built = window.sections.built()
    assert len(built) == 1 and isinstance(built[0], GoldSetSection)
    assert built[0].model.rowCount() == 3  # its real rows, read before the first paint
    assert window.pages.widget(0).layout() is None  # "No gold set is open" never built
    assert window.nav.accessibleName() == "Sections"  # named once painted
    assert built[0].table.accessibleName() == "Case list"
    window.show_section(3)  # Ctrl+4's section, built when first shown, and named
    judge = window.sections[3]
    assert len(window.sections.built()) == 2 and judge.isVisible()
    assert judge.cases.accessibleName()


def test_a_window_without_a_file_shows_its_no_file_page(qtbot, english, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = create_main_window(None, Settings(assessor="alice"), paths=app_paths())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.pages.currentIndex() == 0
    texts = [label.text() for label in window.pages.widget(0).findChildren(QLabel)]
    assert any("No gold set is open." in text for text in texts)
    store = GoldSetStore.create(tmp_path / "fresh.goldset", assessor="alice")
    window.set_store(store)
    assert window.pages.currentIndex() == 1
    window.close_file()
    assert window.pages.currentIndex() == 0
    QApplication.processEvents()


def test_opening_a_file_imports_no_numpy(rich, goldset_path: Path) -> None:  # type: ignore[no-untyped-def]
    """numpy (~0.1 s) and the contract operations are imported by the reads that use them."""
    code = ("import sys\n"
            "from rag_annotator.storage.store import GoldSetStore\n"
            f"GoldSetStore.open({str(goldset_path)!r}).close()\n"
            "print(sorted(m for m in ('numpy', 'rag_annotator.domain.structured_ops',\n"
            "                         'rag_annotator.storage.team_merge') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


def test_the_counts_start_after_the_other_jobs_of_the_first_paint(
        qtbot, rich, goldset_path: Path, english) -> None:  # type: ignore[no-untyped-def]
    """Their worker thread would take the GIL from the accessible names and the rest."""
    store = GoldSetStore.open(goldset_path, assessor="alice")
    window = create_main_window(store, Settings(assessor="alice"), paths=app_paths())
    qtbot.addWidget(window)
    held_during_jobs: list[bool] = []
    window.after_first_paint(lambda: held_during_jobs.append(window.progress._held))
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.progress.complete, timeout=5000)
    assert held_during_jobs == [True]
    assert window.nav.accessibleName() == "Sections"



def test_the_replaced_placeholder_is_gone_before_the_first_paint(
        qapp, rich, goldset_path: Path, english) -> None:  # type: ignore[no-untyped-def]
    """The placeholder the section replaces was deleted later (deleteLater): on a large file
    that came after the first paint, and Qt painted its area (the default 640 x 480: the top
    of the section and the first rows of its list) a second time, ~38 million instructions
    of the start-up.  It must be gone as soon as the section is in place."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QWidget

    store = GoldSetStore.open(goldset_path, assessor="alice")
    window = create_main_window(store, Settings(assessor="alice"), paths=app_paths())
    try:
        stack = window.section_stack  # no event loop has run: nothing deleted "later" yet
        children = stack.findChildren(QWidget, "", Qt.FindChildOption.FindDirectChildrenOnly)
        assert len(children) == stack.count() == 8
        assert isinstance(stack.widget(0), GoldSetSection)
    finally:
        window.close()
        window.deleteLater()
