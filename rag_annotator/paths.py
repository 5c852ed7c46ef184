"""Where the app keeps its own files (never the user's gold sets), and where it proposes theirs.

Folders come from platformdirs (XDG on Linux, AppData on Windows, Application Support on
macOS).  ``RAG_ANNOTATOR_HOME`` overrides all of them with one folder: tests, portable
installs and benchmarks use it so nothing touches the real profile.  Nothing happens at
import time; folders are created when first asked for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "rag-annotator"
HOME_ENV = "RAG_ANNOTATOR_HOME"


@dataclass(frozen=True)
class AppPaths:
    """The app's folders: config (settings), data (the sample, backups) and logs."""

    config: Path
    data: Path
    logs: Path

    @property
    def settings_file(self) -> Path:
        """The JSON settings file."""
        return self.config / "settings.json"

    @property
    def sample_file(self) -> Path:
        """Where the built-in sample is created on first start."""
        return self.data / "exemple.goldset"

    @property
    def backups(self) -> Path:
        """Where pre-migration and rolling backups go."""
        return self.data / "backups"

    @property
    def locks(self) -> Path:
        """Writer locks named by a gold set's device and inode (``storage.lock``)."""
        return self.data / "locks"

    @property
    def temp(self) -> Path:
        """This app's own temporary files (openpyxl's sheets while a workbook is written):
        one folder per process, removed on exit and, after a crash, on the next start."""
        return self.data / "tmp"

    def holds(self, path: Path) -> bool:
        """Whether ``path`` is in one of the app's own folders (config, data, logs)."""
        resolved = path.expanduser().resolve()
        return any(resolved.is_relative_to(folder.expanduser().resolve())
                   for folder in (self.config, self.data, self.logs))

    def ensure(self) -> AppPaths:
        """Create the folders if needed and return self."""
        for folder in (self.config, self.data, self.logs):
            folder.mkdir(parents=True, exist_ok=True)
        return self


def app_paths() -> AppPaths:
    """The folders for this user (or under ``$RAG_ANNOTATOR_HOME`` when set)."""
    home = os.environ.get(HOME_ENV)
    if home:
        base = Path(home).expanduser()
        return AppPaths(base / "config", base / "data", base / "logs")
    import platformdirs  # only here: its import (tempfile, shutil...) is ~10 ms

    return AppPaths(
        Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
    )


def documents_folder() -> Path:
    """The user's documents folder (platformdirs': ``~/Documents``, XDG's ``DOCUMENTS``
    directory, the Windows known folder), where new files and exports are proposed; the home
    folder when it does not exist.  Under ``RAG_ANNOTATOR_HOME`` (tests, portable installs) its
    ``documents`` folder, created on first use."""
    home = os.environ.get(HOME_ENV)
    if home:
        folder = Path(home).expanduser() / "documents"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    import platformdirs

    folder = Path(platformdirs.user_documents_dir())
    return folder if folder.is_dir() else Path.home()


def user_folder(near: Path | None = None) -> Path:
    """Where a file dialog starts and a new file or export is proposed: the folder of
    ``near`` (the open gold set), unless there is none or it is one of the app's own folders
    (the sample lives in the data folder, beside the backups, locks and temporary files the
    user must not wade through) — then the documents folder."""
    if near is not None:
        folder = near.expanduser().parent
        if folder.is_dir() and not app_paths().holds(folder):
            return folder
    return documents_folder()
