"""No figure of the file shown before survives in the window once another file is open.

File A is the sample (runs, answers, an automatic judge measured on a review sample); the
window visits every section on A, then opens file B by File → New, by File → Open and by
File → Open Recent, visits every section again, and reads every text the sections show
(labels, group titles, buttons, table and list cells, headers).  A text is a leak when A's
window showed it and a fresh window on B does not: it can only have come from A.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractListModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.dashboard.section import DashboardSection
from rag_annotator.ui.main_window import MainWindow
from tests.builders import build_rich
from tests.ui.driving import open_window

#: Rows of a list read per view (the sections' lists are lazy; the first rows suffice).
ROWS_READ = 60


def _view_texts(view: QAbstractItemView) -> set[str]:
    model = view.model()
    if model is None:
        return set()
    out: set[str] = set()
    root = QModelIndex()
    # a list model hides columnCount: one column
    columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount(root)
    for column in range(columns):
        out.add(str(model.headerData(column, Qt.Orientation.Horizontal) or ""))
    for row in range(min(model.rowCount(root), ROWS_READ)):
        for column in range(columns):
            out.add(str(model.data(model.index(row, column, root)) or ""))
    return out


def shown_texts(window: MainWindow) -> set[str]:
    """Every text the sections' visible widgets show."""
    texts: set[str] = set()
    stack = window.section_stack
    for i in range(stack.count()):
        page = stack.widget(i)
        for widget in [page, *page.findChildren(QWidget)]:
            if not widget.isVisibleTo(page) and widget is not page:
                continue
            if isinstance(widget, QLabel):
                texts.add(widget.text())
            elif isinstance(widget, QGroupBox):
                texts.add(widget.title())
            elif isinstance(widget, QAbstractButton):
                texts.add(widget.text())
            elif isinstance(widget, QAbstractItemView):
                texts |= _view_texts(widget)
            elif isinstance(widget, QLineEdit):
                texts.add(widget.text())
            elif isinstance(widget, QPlainTextEdit | QTextEdit):
                texts.add(widget.toPlainText())
    return {t.strip() for t in texts if t and t.strip()}


def visit_every_section(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """Show each section in turn and let it fill itself (the Dashboard's figures included)."""
    for index in range(len(window.sections)):
        window.show_section(index)
        qtbot.wait(30)
        section = window.sections[index]
        if isinstance(section, DashboardSection) and window.store is not None \
                and window.store.run_names():
            qtbot.waitUntil(lambda s=section: s.figures is not None, timeout=5000)
    window.show_section(5)
    qtbot.wait(50)


@pytest.fixture
def file_a(tmp_path: Path) -> Path:
    path = tmp_path / "a" / "sample.goldset"
    path.parent.mkdir()
    create_sample(path, assessor="alice").close()
    return path


@pytest.fixture
def file_b(tmp_path: Path) -> Path:
    path = tmp_path / "b" / "other.goldset"
    path.parent.mkdir()
    with GoldSetStore.create(path, assessor="alice") as store:
        build_rich(store)
    return path


def _fresh_texts(qtbot, path: Path) -> set[str]:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, path)
    visit_every_section(qtbot, window)
    texts = shown_texts(window)
    window.close()
    return texts


def _open_by(how: str, window: MainWindow, b: Path) -> None:
    if how == "new":
        assert window.new_file(b)
    elif how == "open":
        assert window.open_file(b)
    else:  # File → Open Recent: B was opened once before, so it is in the list
        menu = QMenu()
        window.files.fill_recent_menu(menu)
        action = next(a for a in menu.actions() if a.text() == str(b))
        action.trigger()
        assert window.store is not None and window.store.path == b


@pytest.mark.parametrize("how", ["new", "open", "recent"])
def test_no_figure_of_file_a_in_file_b(qtbot, english: None, file_a: Path, file_b: Path,  # type: ignore[no-untyped-def]
                                       tmp_path: Path, how: str) -> None:
    b = tmp_path / "b" / "new.goldset" if how == "new" else file_b
    window = open_window(qtbot, file_a)
    if how == "recent":  # B in the recent files, then A again
        assert window.open_file(file_b)
        assert window.open_file(file_a)
    visit_every_section(qtbot, window)
    seen_in_a = shown_texts(window)
    judge_panel = window.sections[5].judge_sample_panel
    assert judge_panel.isVisibleTo(window.sections[5])  # A has an automatic judge's sample
    _open_by(how, window, b)
    qtbot.waitUntil(lambda: window.progress.complete, timeout=5000)
    visit_every_section(qtbot, window)
    after = shown_texts(window)
    window.close()
    fresh = _fresh_texts(qtbot, b)
    leaked = sorted(t for t in after - fresh if t in seen_in_a)
    assert not leaked, f"texts of file A still shown in file B's window: {leaked[:20]}"
