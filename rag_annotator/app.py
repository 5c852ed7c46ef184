"""Desktop bootstrap: QApplication, translations, exception hooks, settings, first file.

Order matters: translators are installed before any widget exists (widgets translate their
texts when built), and the exception hooks before the first file is opened, so a bug while
opening shows the crash dialog instead of killing the app.  Which file opens: the one given,
else the most recent one that still exists, else the built-in sample (created on first
start).  A file that cannot be opened leaves an empty window with New / Open available.
The first start asks nothing: it welcomes (``ui/guide/welcome.py``) and the name is asked
when a first change records it.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

import rag_annotator.ui  # noqa: F401 - first: PySide6's scan of each import made cheap
from rag_annotator import __version__
from rag_annotator.errors import KnownError
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.file_life import show_known_error
from rag_annotator.ui.i18n import install_translations, remove_translations, resolve_language
from rag_annotator.ui.main_window import MainWindow

if TYPE_CHECKING:
    from rag_annotator.paths import AppPaths

log = logging.getLogger("rag_annotator")


def create_main_window(store: GoldSetStore | None, settings: Settings, *,
                       paths: AppPaths | None = None) -> MainWindow:
    """The main window showing an already-open store, without any dialog (tests, benchmarks).

    The window takes the store over: it closes it when another file is opened or on close.
    """
    window = MainWindow(settings, paths,
                        assessor=store.assessor if store is not None else settings.assessor)
    if store is not None:
        window.set_store(store)
    return window


def _setup_logging(paths: AppPaths) -> None:
    if log.handlers:  # run_gui called again in the same process (tests)
        return
    try:
        handler: logging.Handler = logging.FileHandler(paths.logs / "rag-annotator.log",
                                                       encoding="utf-8")
    except OSError:
        handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)


def choose_file(file: str | None, settings: Settings, paths: AppPaths) -> Path:
    """The file to open: the given one, else the last one still there, else the sample."""
    if file:
        return Path(file).expanduser()
    for recent in settings.recent_files[:1]:
        if Path(recent).exists():
            return Path(recent)
    return paths.sample_file


def assignment_assessor(path: Path) -> str:
    """The expert an assignment file (``assign``) was handed out to; '' for any other file,
    a missing one or one that cannot be read (the name is then asked for as usual)."""
    if not path.is_file():
        return ""
    try:
        with GoldSetStore.open(path, read_only=True, verify="skip") as store:
            info = store.assignment_info()
    except (KnownError, OSError, sqlite3.Error):
        return ""
    return (info or {}).get("assessor", "").strip()


def _open_first_file(window: MainWindow, path: Path, paths: AppPaths) -> None:
    """Open (or, for the sample, create) the first file; failures leave an empty window."""
    if path == paths.sample_file and not path.exists():
        # Imported here: it pulls the domain operations, which showing a file never needs.
        from rag_annotator.import_export.sample import create_sample

        try:
            paths.ensure()
            store = create_sample(path, assessor=window.assessor, lock=True)
        except KnownError as error:
            show_known_error(window, error)
            return
        window.set_store(store, remember=True)
        return
    window.open_file(path)


def run_gui(file: str | None, assessor: str | None, language: str | None = None) -> int:
    """Run the desktop app (``rag-annotator [FILE] [--assessor NAME]``); return the exit code.

    ``assessor`` names this session's assessor without asking and without saving it;
    ``language`` ("fr" or "en") overrides ``RAG_ANNOTATOR_LANG`` and the setting.
    """
    from rag_annotator.paths import app_paths
    from rag_annotator.ui.errors import install_exception_hooks

    paths = app_paths()
    try:
        paths.ensure()
    except OSError:
        pass  # reported when something needs the folders (settings, sample)
    from rag_annotator.storage.tempfiles import clean_leftovers

    clean_leftovers(paths.temp)  # what a killed copy of the app left (an export's sheets)
    _setup_logging(paths)
    settings = Settings.load(paths.settings_file)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("rag-annotator")
    app.setApplicationDisplayName("rag-annotator")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("rag-annotator")
    app.setWindowIcon(QIcon(str(Path(__file__).parent / "resources" / "icons"
                                / "rag-annotator.png")))
    translators = install_translations(resolve_language(language, settings.language))
    window: MainWindow | None = None
    reporter = install_exception_hooks(lambda: window)

    first = choose_file(file, settings, paths)
    # Nothing is asked before the window is up: the name is asked by the first change that
    # records it (a judgment, a verdict, an edit: ``MainWindow.name_for_first_change``).  An
    # expert opening the assignment file handed to them is never asked: its judgments are
    # the file's assessor's whoever the session is.
    session_assessor = ((assessor or "").strip() or settings.assessor
                        or assignment_assessor(first))
    window = MainWindow(settings, paths, assessor=session_assessor)
    if not settings.welcomed:
        window.welcome.show_welcome()
    # macOS sends a double-clicked .goldset as an event, not on the command line.
    from rag_annotator.ui.file_open import install_file_open_handler

    file_open = install_file_open_handler(app, window.open_file)
    window.show()
    # Open once the event loop runs: the window is on screen at once, and a bug while
    # opening reaches the crash dialog through the exception hook like any other.
    QTimer.singleShot(0, lambda: _open_first_file(window, first, paths))
    code = app.exec()
    if window.isVisible():  # quit without closing (session end): still save and close
        window.close()
    app.removeEventFilter(file_open)
    remove_translations(translators)
    del reporter
    return int(code)
