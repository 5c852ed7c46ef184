"""The two kinds of error the app knows (DESIGN section 9).

A :class:`KnownError` is about the user's input or environment: the file is not ours, damaged,
too new, a row is malformed.  It carries a short message that says what is wrong and what to
do, and the edges (CLI, dialogs) show it as it is.  Every other exception is a bug, shown with
its traceback so it can be reported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rag_annotator.messages import render


class KnownError(Exception):
    """An expected failure with a message meant for the user (one line, says what to do).

    ``message`` is a message id (the English text with named placeholders, see
    :mod:`rag_annotator.messages`) and ``params`` fill it: ``str(error)`` is the English
    text, :meth:`render` the text in the reader's language.
    """

    def __init__(self, message: str, *, path: Path | str | None = None,
                 **params: Any) -> None:
        self.path = Path(path) if path is not None else None
        self.message_id = message
        self.params = params
        self.prefix = f"{self.path}: " if self.path is not None else ""
        super().__init__(self.render("en"))

    def render(self, lang: str | None = None) -> str:
        """The message in ``lang`` (default: ``--language``, ``RAG_ANNOTATOR_LANG``, the
        system's), one line, after the file it is about."""
        return _one_line(self.prefix + render(self.message_id, self.params, lang))


def _one_line(text: str) -> str:
    """Line breaks and tabs quoted from the user's data (a cell, a header) written as
    ``\\n``, ``\\r``, ``\\t``: a message is always one line (the CLI prints
    ``error: …`` lines that scripts read one by one)."""
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")


class NotAGoldSetFile(KnownError):
    """The file is not a gold-set file (another format, or another application's SQLite)."""


class EmptyFile(KnownError):
    """The file exists but is empty (0 bytes): never initialised silently."""


class DamagedFile(KnownError):
    """SQLite reports the file as malformed or it fails its quick check."""


class UnexpectedSchema(KnownError):
    """The file is ours (application id) but its schema is not the one this build writes for
    its version: an extra trigger, view, table or index, a changed CHECK, a missing table."""


class FileTooNew(KnownError):
    """The file was written by a newer version of the app (schema or migration unknown here)."""


class MigrationFailed(KnownError):
    """Upgrading an older file failed; it was rolled back to the bytes it had."""


class FileNotFound(KnownError):
    """The path does not exist; nothing is created there."""


class FileBusy(KnownError):
    """Another program holds a lock on the file for longer than we wait."""


class WriteFailed(KnownError):
    """The disk refused a write (full, I/O error): the change was rolled back."""


class ReadOnlyLocation(KnownError):
    """The file or its folder cannot be written: it can only be opened read-only."""


class InvalidValue(KnownError):
    """A value given to a domain operation is not acceptable (unknown family, bad grade...)."""


class NotFound(KnownError):
    """An entity named by the user (case key, document key, run name) does not exist."""


class Conflict(KnownError):
    """An operation cannot be applied because the data changed since (e.g. reverting history)."""
