"""Choosing the language and installing translators, before any widget exists.

Our strings come from ``resources/translations/rag_annotator_<lang>.qm`` (English is the
source language, so English needs none); Qt's own strings (dialog buttons, shortcut names)
from ``qtbase_<lang>.qm`` shipped with Qt.  Order of precedence: an explicit request (command
line), then ``RAG_ANNOTATOR_LANG`` (tests, screenshots), then the user's setting, then the
system locale.  A change of setting takes effect at the next start: re-translating every
live widget is not worth its bugs.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from rag_annotator.messages import set_language

LANG_ENV = "RAG_ANNOTATOR_LANG"


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation in ``context``; translated later, where it is shown.

    Qt's own marker has an untyped stub; this one returns ``str``.
    """
    return text



SUPPORTED = ("fr", "en")


def resolve_language(requested: str | None = None, setting: str = "system") -> str:
    """The language to use: "fr" or "en"."""
    for choice in (requested, os.environ.get(LANG_ENV, "").strip().lower(), setting):
        if choice in SUPPORTED:
            return choice
    return "fr" if QLocale.system().language() == QLocale.Language.French else "en"


def translation_file(language: str) -> Path:
    """Our compiled translation for ``language``."""
    from importlib import resources  # ~2 ms, only when translations are installed

    folder = resources.files("rag_annotator.resources").joinpath("translations")
    return Path(str(folder)) / f"rag_annotator_{language}.qm"


def install_translations(language: str) -> list[QTranslator]:
    """Install our and Qt's translators for ``language`` and make it the default locale.

    Returns the translators (keep them alive; pass them to :func:`remove_translations`).
    """
    app = QCoreApplication.instance()
    assert app is not None, "create the QApplication first"
    set_language(language)  # the core's messages (errors, reports) follow the window
    if language == "fr":
        QLocale.setDefault(QLocale(QLocale.Language.French, QLocale.Country.France))
    else:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    installed: list[QTranslator] = []
    # English has a file too: the plural forms of the source strings ("%Ln case(s)").
    ours = QTranslator(app)
    if ours.load(str(translation_file(language))):
        app.installTranslator(ours)
        installed.append(ours)
    if language != "en":
        qt = QTranslator(app)
        if qt.load(f"qtbase_{language}",
                   QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            app.installTranslator(qt)
            installed.append(qt)
    return installed


def remove_translations(translators: list[QTranslator]) -> None:
    """Undo :func:`install_translations` (tests switch languages within one process)."""
    set_language(None)
    app = QCoreApplication.instance()
    for translator in translators:
        if app is not None:
            app.removeTranslator(translator)
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
