"""Choosing the language and installing translators, before any widget exists.

Our strings come from ``resources/translations/rag_annotator_<lang>.qm`` (English is the
source language, so English needs none); Qt's own strings (the file dialog, dialog buttons,
shortcut names) from ``qtbase_<lang>.qm`` shipped with Qt — in a pip install, the PySide6
wheel's ``Qt/translations``; in the bundle, the copy PyInstaller makes — and the few Qt's
catalogue lacks from ours.  Order of precedence: an explicit request (command
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

#: Qt's own texts that Qt's French catalogue (``qtbase_fr.qm`` as PySide6 ships it) lacks:
#: Qt 6 gave the file dialog's labels an accelerator ("&Look in:") and the catalogue still
#: has the texts without it, so the French file dialog was half English.  Marked here, they
#: are in our catalogue, which is asked when Qt's has no answer.
QT_TEXTS_QT_LACKS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)


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
        if any(qt.load(f"qtbase_{language}", str(folder))
               for folder in qt_translation_folders()):
            app.installTranslator(qt)  # installed last: asked first, then ours
            installed.append(qt)
    return installed


def qt_translation_folders() -> list[Path]:
    """Where Qt's own catalogues may be, most likely first: where Qt says (a pip wheel's
    ``PySide6/Qt/translations``, a bundle's copy, a system Qt's folder), then the PySide6
    package's own folder (a ``qt.conf`` or a system Qt may point Qt elsewhere)."""
    folders = [Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))]
    import PySide6

    folders.append(Path(PySide6.__file__).parent / "Qt" / "translations")
    return [f for i, f in enumerate(folders) if f.is_dir() and f not in folders[:i]]


def remove_translations(translators: list[QTranslator]) -> None:
    """Undo :func:`install_translations` (tests switch languages within one process)."""
    set_language(None)
    app = QCoreApplication.instance()
    for translator in translators:
        if app is not None:
            app.removeTranslator(translator)
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
