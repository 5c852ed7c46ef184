"""Reading untrusted text files and writing exports safely, shared by every format.

Reading: size limit, strict UTF-8 (a BOM is accepted and dropped), NUL bytes refused, with
errors that name the file and line.  Writing: a temporary file beside the destination, fsync,
then ``os.replace`` — the destination holds the old file or the whole new one, never a part.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from rag_annotator.errors import KnownError

#: Largest text file an import reads (a TREC run of several million lines fits).
MAX_TEXT_BYTES = 2 * 1024**3


class ImportRejected(KnownError):
    """An import file is malformed; the message names the file and line.  Nothing was stored."""

    def __init__(self, path: Path, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")
        self.line = line


def read_text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` of a UTF-8 text file, without line endings."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ImportRejected(path, None, "no such file; check the path.") from None
    if size > MAX_TEXT_BYTES:
        raise ImportRejected(path, None, f"the file is too large ({size:,} bytes; the limit is "
                                         f"{MAX_TEXT_BYTES:,}); split it.")
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            if b"\x00" in raw:
                raise ImportRejected(path, number, "the line holds a NUL byte; this is not a "
                                                   "text file.")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise ImportRejected(path, number, f"not UTF-8 (byte {error.start + 1} of the "
                                                   "line); save the file as UTF-8.") from None
            yield number, text.rstrip("\r\n")


@contextmanager
def atomic_text_writer(destination: Path) -> Iterator[TextIO]:
    """Write a text file (UTF-8, ``\\n`` endings, no BOM) that appears whole or not at all."""
    destination = destination.expanduser()
    if destination.is_dir():
        raise KnownError("this is a folder; give a file name.", path=destination)
    if not destination.parent.is_dir():
        raise KnownError("the folder does not exist; create it first.", path=destination.parent)
    tmp = destination.with_name(f".{destination.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, destination)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise KnownError(f"could not write the file ({error.strerror}); nothing was written.",
                         path=destination) from error
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
