"""Where the guide's pages are and which page belongs to which section.

The pages are Markdown files, one set per language, under
``rag_annotator/resources/guide/<lang>/`` (shipped as package data), with the section
screenshots the test suite makes in ``<lang>/images/`` (``tests/ui/test_guide_images.py``).
Markdown rather than HTML: a domain expert who corrects a sentence edits prose, not tags, and
``QTextBrowser`` renders it (tables and images included) without a web engine.  The pages are
files per language, not ``.ts`` strings: a page is a text to translate whole, not a list of
sentences.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtCore import QLocale

#: The page of each section, in the main window's navigation order (``SECTION_CLASSES``).
SECTION_PAGES: tuple[str, ...] = ("goldset", "corpus", "runs", "judge", "verify",
                                  "dashboard", "history", "agents")
#: Pages that belong to no section: the overview, then the topics several sections share.
OVERVIEW_PAGES: tuple[str, ...] = ("index", "workflow", "numbers", "team", "glossary")
#: Every page, in the order of the guide's contents list.
ALL_PAGES: tuple[str, ...] = (OVERVIEW_PAGES[:2] + SECTION_PAGES[:5] + ("numbers",)
                              + SECTION_PAGES[5:] + OVERVIEW_PAGES[3:])
LANGUAGES: tuple[str, ...] = ("en", "fr")


def guide_folder(language: str) -> Path:
    """The folder of one language's pages (``language`` is "en" or "fr")."""
    root = resources.files("rag_annotator.resources").joinpath("guide")
    return Path(str(root)) / (language if language in LANGUAGES else "en")


def page_file(page: str, language: str) -> Path:
    """The Markdown file of ``page`` in ``language``."""
    return guide_folder(language) / f"{page}.md"


def images_folder(language: str) -> Path:
    """Where the screenshots of ``language``'s pages are."""
    return guide_folder(language) / "images"


def ui_language() -> str:
    """The language the window speaks ("fr" or "en"): ``install_translations`` sets the
    default locale with the translators, so the guide follows the catalogue in use."""
    return "fr" if QLocale().language() == QLocale.Language.French else "en"


def section_page(index: int) -> str:
    """The page of section ``index`` (the overview for anything else: no file open)."""
    return SECTION_PAGES[index] if 0 <= index < len(SECTION_PAGES) else "index"


def page_title(page: str, language: str) -> str:
    """The first heading of a page (its name in the contents list)."""
    for line in page_file(page, language).read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page
