"""Every focusable widget a user can reach has a name a screen reader can say (issue 21).

The name is read the way assistive technology reads it: through Qt's accessibility interface
(``QAccessible.queryAccessibleInterface(w).text(QAccessible.Name)``), so a label's buddy or a
button's text counts only when Qt itself reports it.  Each of the eight sections is walked
with every tab page shown in turn, then the main dialogs.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt, QTranslator
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QLabel, QTabWidget, QWidget

from rag_annotator.ui.look import names
from rag_annotator.ui.main_window import MainWindow


def accessible_name(widget: QWidget) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(QAccessible.Text.Name).strip() if interface is not None else ""


def silent_label(widget: QWidget) -> bool:
    """An empty label made selectable by mouse: Tab never reaches it (click focus only) and
    it has nothing to say; once it shows text, that text is its name."""
    return (isinstance(widget, QLabel) and not widget.text()
            and widget.focusPolicy() == Qt.FocusPolicy.ClickFocus)


def reachable(root: QWidget) -> Iterator[QWidget]:
    """Focusable widgets visible under ``root`` (the tab pages of each QTabWidget in turn)."""
    tabs = [t for t in root.findChildren(QTabWidget) if t.isVisible()]
    seen: set[int] = set()
    for tab in tabs or [None]:
        for index in range(tab.count() if tab is not None else 1):
            if tab is not None:
                tab.setCurrentIndex(index)
                QApplication.processEvents()
            for widget in root.findChildren(QWidget):
                if (id(widget) not in seen and widget.focusPolicy() != Qt.FocusPolicy.NoFocus
                        and widget.isVisible() and widget.isEnabled()
                        and not names.internal(widget) and not silent_label(widget)):
                    seen.add(id(widget))
                    yield widget


def describe(widget: QWidget) -> str:
    parent = widget.parentWidget()
    return (f"{type(widget).__name__}({widget.objectName()!r}) in "
            f"{type(parent).__name__ if parent else None}")


def named(widget: QWidget) -> bool:
    """A real name.  A combo box is special: on Linux (AT-SPI) Qt reports its current choice
    as its Name (a value: "All families", not what is chosen), elsewhere its accessible name.
    So its current text alone never counts: a combo box is named when its accessible name is
    set and Qt reports either that name or (Linux) the current choice."""
    name = accessible_name(widget)
    if isinstance(widget, QComboBox):
        return bool(widget.accessibleName().strip()) and (
            name == widget.accessibleName().strip()
            or name == widget.currentText().strip())
    return bool(name)


def nameless(root: QWidget) -> list[str]:
    return [describe(w) for w in reachable(root) if not named(w)]


@pytest.mark.parametrize("index", range(8))
def test_every_section_names_its_widgets(window: MainWindow, index: int) -> None:
    window.show_section(index)
    QApplication.processEvents()
    section = window.sections[index]
    found = list(reachable(section))
    assert found, "nothing focusable found: the walk is broken"
    assert nameless(section) == []
    assert nameless(window.nav.parentWidget() or window) == []


def test_every_declared_name_reaches_a_widget(window: MainWindow) -> None:
    """No stale entry: each declared attribute exists on its (built) class."""
    for section in window.sections:
        assert names.missing(section) == []


def _owners_in_the_widget_tree(root: QWidget) -> set[int]:
    """The owners the names table declares under ``root`` in its own window (a dialog is
    named when the focus first enters it), found the slow, sure way."""
    return {id(root), *(id(w) for w in root.findChildren(QWidget)
                        if names._declared(w) and w.window() is root.window())}


def test_the_attribute_walk_finds_every_declared_owner(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Names are applied to the owners found through our widgets' attributes (cheap at
    start-up); an owner held only by its Qt parent would be missed: the walk must find
    exactly the owners the whole widget tree holds, in every section and the main dialogs."""
    from rag_annotator.ui.dialogs import CheatSheetDialog
    from rag_annotator.ui.exchange.export_dialog import ExportDialog
    from rag_annotator.ui.goldset.coverage import CoverageDialog

    roots: list[QWidget] = [window, *window.sections]
    store = window.store
    assert store is not None
    for dialog in (CheatSheetDialog(window), CoverageDialog(store, window),
                   ExportDialog(store.path, window)):
        qtbot.addWidget(dialog)
        roots.append(dialog)
    for root in roots:
        walked = {id(o) for o in names._owners(root)}
        expected = _owners_in_the_widget_tree(root)
        if root is window:  # the sections are named when built, each its own root
            expected -= {id(s) for s in window.sections.built()}
            expected -= {id(w) for s in window.sections.built()
                         for w in s.findChildren(QWidget)}
        assert walked == expected, (type(root).__name__, sorted(
            type(w).__name__ for w in root.findChildren(QWidget) if id(w) in expected - walked))
    assert len(roots) == 12 and any(len(names._owners(s)) > 1 for s in window.sections)


def test_main_dialogs_name_their_widgets(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from rag_annotator.ui.dialogs import CheatSheetDialog
    from rag_annotator.ui.exchange.export_dialog import ExportDialog
    from rag_annotator.ui.goldset.coverage import CoverageDialog

    store = window.store
    assert store is not None
    dialogs: list[QDialog] = [CheatSheetDialog(window), CoverageDialog(store, window),
                              ExportDialog(store.path, window)]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.activateWindow()  # names are given when the focus first enters a window
        qtbot.waitUntil(lambda d=dialog: QApplication.activeWindow() is d)
        assert nameless(dialog) == [], type(dialog).__name__
        dialog.close()


class MarkingTranslator(QTranslator):
    """Wraps every ``AccessibleNames`` text in «» (the French catalogue is filled by the lead
    after the merge, so this proves the names go through translation, whatever the language)."""

    def translate(self, context: str, source: str, disambiguation: str | None = None,
                  n: int = -1) -> str | None:
        return f"«{source}»" if context == "AccessibleNames" else None


def test_names_go_through_the_translator(qtbot, rich, goldset_path, english) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.driving import open_window

    marker = MarkingTranslator()
    QApplication.installTranslator(marker)
    try:
        window = open_window(qtbot, goldset_path)
        window.show_section(0)
        section = window.sections[0]
        spoken = {accessible_name(w) for w in reachable(section)}
        assert "«Case list»" in spoken
        assert accessible_name(window.nav) == "«Sections»"
    finally:
        QApplication.removeTranslator(marker)


def test_no_stylesheet_hides_the_focus() -> None:
    """Focus stays visible: no style sheet in the UI removes the focus frame (``outline:
    none``, a ``:focus`` rule without border) — the banners only set background, colour and
    padding (``look.colours.paint_banner``, through the palette)."""
    import re
    from pathlib import Path

    import rag_annotator.ui as ui_package

    hiding = re.compile(r"outline\s*:\s*(none|0)|:focus\s*\{[^}]*border\s*:\s*(none|0)", re.I)
    root = Path(ui_package.__file__).parent
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if hiding.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
