"""The guide inside the app (issue 21, point 2): F1 in each of the eight sections opens that
section's page, in English and in French; Help → Guide; the pages of both languages exist,
link to pages that exist and show pictures that exist; everything offline (no web link)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl

from rag_annotator.ui import actions
from rag_annotator.ui.dialogs import cheat_sheet_html
from rag_annotator.ui.guide.pages import (
    ALL_PAGES,
    LANGUAGES,
    OVERVIEW_PAGES,
    SECTION_PAGES,
    guide_folder,
    page_file,
    page_title,
)
from rag_annotator.ui.guide.window import GuideWindow, short_title
from rag_annotator.ui.i18n import install_translations, remove_translations
from rag_annotator.ui.main_window import SECTION_CLASSES, MainWindow
from tests.builders import Rich
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui

LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each UI language in turn, its translators installed before any widget is built."""
    translators = install_translations(request.param)
    yield request.param
    remove_translations(translators)


def guide_of(window: MainWindow) -> GuideWindow:
    guide = window.findChild(GuideWindow, "guideWindow")
    assert guide is not None
    return guide


def test_every_page_exists_in_both_languages_with_its_own_title() -> None:
    assert set(ALL_PAGES) == set(SECTION_PAGES) | set(OVERVIEW_PAGES)
    assert len(SECTION_PAGES) == len(SECTION_CLASSES) == 8
    for lang in LANGUAGES:
        files = {p.stem for p in guide_folder(lang).glob("*.md")}
        assert files == set(ALL_PAGES), lang
    for page in ALL_PAGES:
        english, french = page_title(page, "en"), page_title(page, "fr")
        assert english != page and french != page
        english_text = page_file(page, "en").read_text(encoding="utf-8")
        french_text = page_file(page, "fr").read_text(encoding="utf-8")
        assert english_text != french_text, page  # translated, not copied
        assert len(french_text) > 0.7 * len(english_text), page  # not a stub


def test_links_and_pictures_of_every_page_resolve_offline() -> None:
    for lang in LANGUAGES:
        for page in ALL_PAGES:
            text = page_file(page, lang).read_text(encoding="utf-8")
            for target in LINK.findall(text):
                assert "://" not in target, (lang, page, target)  # no web link
                assert (guide_folder(lang) / target).is_file(), (lang, page, target)
    for page in SECTION_PAGES:  # each section's page shows that section
        for lang in LANGUAGES:
            assert f"(images/{page}.png)" in page_file(page, lang).read_text(encoding="utf-8")


def test_f1_in_each_section_opens_its_page(qtbot, rich: Rich, goldset_path: Path,  # type: ignore[no-untyped-def]
                                          language: str) -> None:
    window = open_window(qtbot, goldset_path)
    window.activateWindow()
    for index, page in enumerate(SECTION_PAGES):
        qtbot.keyClick(window, Qt.Key.Key_1 + index, Qt.KeyboardModifier.ControlModifier)
        assert window.section_stack.currentIndex() == index
        window.current_section().setFocus()
        qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_F1)
        guide = guide_of(window)
        assert guide.isVisible() and guide.language == language
        assert guide.page() == page
        source = Path(guide.browser.source().toLocalFile())
        assert source == page_file(page, language)
        shown = guide.browser.toPlainText()
        assert shown.startswith(page_title(page, language))
        assert guide.contents.currentItem().text() == short_title(page_title(page, language))
        guide.hide()
        window.activateWindow()
    assert len(window.findChildren(GuideWindow)) == 1  # one window, reused


def test_the_guide_speaks_the_window_language(qtbot, rich: Rich, goldset_path: Path,  # type: ignore[no-untyped-def]
                                              language: str) -> None:
    window = open_window(qtbot, goldset_path)
    window.show_section(3)
    window.commands["help.guide"].trigger()  # Help → Guide
    guide = guide_of(window)
    expected = "Section Juger" if language == "fr" else "Judge section"
    assert guide.browser.toPlainText().startswith(expected)
    assert guide.browser.document().toPlainText().count("\ufffc") >= 1  # the picture


def test_links_between_pages_and_back(qtbot, window: MainWindow) -> None:
    window.show_section(0)
    window.commands["help.guide"].trigger()
    guide = guide_of(window)
    assert guide.page() == "goldset"
    guide.browser.setSource(QUrl("workflow.md"))  # what clicking the link does
    assert guide.page() == "workflow"
    assert guide.contents.currentItem().text() == short_title(page_title("workflow", "en"))
    assert guide.back.isEnabled()
    guide.back.click()
    assert guide.page() == "goldset"
    guide.home.click()
    assert guide.page() == "index"
    guide.contents.setCurrentRow(list(ALL_PAGES).index("numbers"))
    assert guide.page() == "numbers"
    assert guide.browser.openExternalLinks() is False


def test_without_a_file_f1_opens_the_overview(qtbot, window: MainWindow) -> None:
    window.close_file()
    window.commands["help.guide"].trigger()
    assert guide_of(window).page() == "index"


def test_f1_is_the_guide_and_listed_in_the_help_menu_and_cheat_sheet(window: MainWindow) -> None:
    guide = actions.spec("help.guide")
    assert guide.shortcuts == ("F1",)
    assert "F1" not in actions.spec("help.shortcuts").shortcuts
    assert "?" in actions.spec("help.shortcuts").shortcuts
    sheet = cheat_sheet_html()
    assert actions.tr(guide.label) in sheet.replace("&#x27;", "'").replace("’", "’")
    assert "<b>F1</b>" in sheet
    help_menu = next(a.menu() for a in window.menuBar().actions()
                     if a.menu() is not None and window.commands["help.about"]
                     in a.menu().actions())
    assert window.commands["help.guide"] in help_menu.actions()
