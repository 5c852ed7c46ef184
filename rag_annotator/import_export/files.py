"""Reading untrusted text files and writing exports safely, shared by every format.

Reading: size limit, strict UTF-8 (a BOM is accepted and dropped), NUL bytes refused, with
errors that name the file and line.  Writing: a temporary file beside the destination (a new,
unpredictable name that follows no link: ``storage.tempfiles``), fsync, then ``os.replace`` —
the destination holds the old file or the whole new one, never a part.
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, BinaryIO, TextIO, TypeVar, cast

from rag_annotator.domain.strict_json import TOO_DEEP as TOO_DEEP  # the run importers' names
from rag_annotator.domain.strict_json import refuse_constant as refuse_constant
from rag_annotator.domain.strict_json import refuse_duplicate_keys as refuse_duplicate_keys
from rag_annotator.errors import KnownError
from rag_annotator.messages import N_, Message
from rag_annotator.storage import tempfiles

T = TypeVar("T")

#: Largest text file an import reads (a TREC run of several million lines fits).
MAX_TEXT_BYTES = 2 * 1024**3


class Cancelled(KnownError):
    """The user cancelled an import; nothing was stored (its transaction rolled back)."""

    def __init__(self) -> None:
        super().__init__(N_("import cancelled; nothing was changed."))


def check_cancel(cancel: Callable[[], bool] | None) -> None:
    """Raise :class:`Cancelled` when the user asked to stop (``Options.cancel``)."""
    if cancel is not None and cancel():
        raise Cancelled()


def polled(rows: Iterable[T], cancel: Callable[[], bool] | None, every: int = 20_000, *,
           progress: Callable[[int, int], None] | None = None, total: int = 0
           ) -> Iterator[T]:
    """``rows``, checking ``cancel`` (and reporting ``progress(done, total)``) every
    ``every`` rows: a bulk insert's generator stays interruptible (the operation then rolls
    back)."""
    if cancel is None and progress is None:
        yield from rows
        return
    for i, row in enumerate(rows):
        if i % every == 0:
            if cancel is not None and cancel():
                raise Cancelled()
            if progress is not None:
                progress(i, total)
        yield row


class ImportRejected(KnownError):
    """An import file is malformed; the message names the file and line.  Nothing was stored."""

    def __init__(self, path: Path, line: int | None, message: str, **params: Any) -> None:
        where = f"{path}:{line}" if line is not None else str(path)
        self.line = line
        super().__init__(message, **params)
        self.prefix = f"{where}: "
        self.args = (self.render("en"),)


def read_text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` of a UTF-8 text file, without line endings."""
    for first, lines in read_text_blocks(path):
        yield from enumerate(lines, start=first)


def read_json_lines(path: Path, *, objects: bool = True) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, value)`` for each record of a JSON Lines file — or of a JSON
    array, or of one object holding the list (``text_sources.read_records``), gzipped or not.

    A record that is not JSON, or (``objects``) not a JSON object, is refused naming the line.
    """
    from rag_annotator.import_export.text_sources import json_records

    yield from json_records(path, objects=objects)


def read_text_blocks(path: Path) -> Iterator[tuple[int, list[str]]]:
    """:func:`read_text_lines` by blocks: ``(number of the first line, lines)``.

    For parsers of million-line files, which then pay no generator step per line.
    """
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ImportRejected(path, None, "no such file; check the path.") from None
    if size > MAX_TEXT_BYTES:
        raise ImportRejected(path, None, "the file is too large ({size:,} bytes; the limit is "
                                         "{max_text_bytes:,}); split it.",
                                         size=size, max_text_bytes=MAX_TEXT_BYTES)
    number = 0
    with open_source(path) as handle:
        rest = b""
        read = 0
        while True:
            block = _read_block(path, handle)
            read += len(block)
            if read > MAX_TEXT_BYTES:
                raise ImportRejected(path, None, "the file decompresses to more than "
                                                 "{max_text_bytes:,} bytes; split it.",
                                                 max_text_bytes=MAX_TEXT_BYTES)
            if not block:
                if rest:
                    yield number + 1, _block_lines(path, rest, number)
                return
            block = rest + block
            cut = block.rfind(b"\n") + 1
            if cut == 0:  # a line longer than a block: keep reading
                rest = block
                continue
            rest = block[cut:]
            lines = _block_lines(path, block[:cut], number)
            yield number + 1, lines
            number += len(lines)


#: The first bytes of a gzip stream: a ``.gz`` file (or one gzipped without the suffix).
GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: Path) -> bool:
    """Whether the file is gzip-compressed (by its content, not its name)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(2) == GZIP_MAGIC
    except OSError:
        return False


def open_source(path: Path) -> BinaryIO:
    """Open an import file for reading its bytes, decompressing gzip transparently.

    Tools publish runs, qrels and JSON Lines gzipped (``run.gz``, ``corpus.jsonl.gz``);
    read as they are, their bytes would be refused as "not a text file".
    """
    if is_gzip(path):
        return cast(BinaryIO, gzip.open(path, "rb"))
    return open(path, "rb")


def _read_block(path: Path, handle: BinaryIO) -> bytes:
    try:
        return handle.read(_BLOCK_BYTES)
    except (OSError, EOFError, zlib.error) as error:  # gzip.BadGzipFile is an OSError
        raise ImportRejected(path, None, "the gzip file is damaged ({error}); download or "
                                         "compress it again.", error=error) from None


def read_source_bytes(path: Path, limit: int = MAX_TEXT_BYTES) -> bytes:
    """All the bytes of an import file, gunzipped when it is gzip (``limit``: the most
    bytes read, after decompression)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ImportRejected(path, None, "no such file; check the path.") from None
    if path.is_dir():
        raise ImportRejected(path, None, "this is a folder; choose a file.")
    if size > limit:
        raise ImportRejected(path, None, "the file is too large ({size:,} bytes; the limit is "
                                         "{limit:,}); split it.", size=size, limit=limit)
    with open_source(path) as handle:
        try:
            data = handle.read(limit + 1)
        except (OSError, EOFError, zlib.error) as error:
            raise ImportRejected(path, None, "the gzip file is damaged ({error}); download "
                                             "or compress it again.", error=error) from None
    if len(data) > limit:
        raise ImportRejected(path, None, "the file decompresses to more than {limit:,} "
                                         "bytes; split it.", limit=limit)
    return data


#: Bytes read and decoded at once: decoding and splitting a block costs far less than
#: a Python step per line, and a block of whole lines never splits a UTF-8 sequence.
_BLOCK_BYTES = 4 * 1024 * 1024


def _block_lines(path: Path, block: bytes, before: int) -> list[str]:
    """The lines of a block of whole lines that follows line ``before``."""
    if before == 0:
        block = block.removeprefix(b"\xef\xbb\xbf")  # a BOM is accepted and dropped
    bad, text = -1, ""
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = error.start
    # The first faulty line wins; within one line a NUL byte is reported before bad UTF-8.
    end = block.find(b"\n", bad) if bad >= 0 else -1
    end = len(block) if end < 0 else end
    nul = block.find(b"\x00", 0, end)
    if nul >= 0:
        raise ImportRejected(path, before + block.count(b"\n", 0, nul) + 1,
                             "the line holds a NUL byte; this is not a text file.")
    if bad >= 0:
        start = block.rfind(b"\n", 0, bad) + 1
        raise ImportRejected(path, before + block.count(b"\n", 0, bad) + 1,
                             "not UTF-8 (byte {bad} of the line); save "
                             "the file as UTF-8.", bad=bad - start + 1)
    lines = text.split("\n")
    if block.endswith(b"\n"):
        lines.pop()  # the empty string after the last line ending
    return [line.rstrip("\r") for line in lines]


@contextmanager
def atomic_text_writer(destination: Path) -> Iterator[TextIO]:
    """Write a text file (UTF-8, ``\\n`` endings, no BOM) that appears whole or not at all."""
    destination = destination.expanduser()
    if destination.is_dir():
        raise KnownError("this is a folder; give a file name.", path=destination)
    if not destination.parent.is_dir():
        raise KnownError("the folder does not exist; create it first.", path=destination.parent)
    try:
        fd, tmp = tempfiles.open_temp_file(destination.parent)
    except OSError as error:
        raise KnownError("could not write in this folder ({value}); "
                         "choose a folder you can write to.",
                         value=error.strerror or error, path=destination) from error
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, destination)
    except OSError as error:
        tempfiles.remove(tmp)
        raise KnownError("could not write the file ({strerror}); nothing was written.",
                         strerror=error.strerror,
                         path=destination) from error
    except BaseException:
        tempfiles.remove(tmp)
        raise


def refuse_own_files(goldset: Path, destination: Path) -> None:
    """Refuse an export onto the open gold set or the files that keep it safe.

    ``destination`` may name them directly, through a link, through ``..`` or as another
    name of the same file (a hard link: same device and inode): the gold set, its journal
    (``-journal``, ``-wal``, ``-shm``), its lock files, its backups taken before a migration,
    or the app's backups and locks folders.  The exporters replace their destination, so any
    of these would be destroyed; the refusal names the destination and changes nothing.
    """
    from rag_annotator.paths import app_paths
    from rag_annotator.storage.lock import inode_lock_path, lock_path
    from rag_annotator.storage.snapshot import pre_migration_backup_path

    dest = Path(destination).expanduser()
    home = Path(os.path.realpath(goldset))
    own: list[tuple[Path, str]] = [(home, Message("the open gold set itself"))]
    own += [(home.with_name(home.name + end), Message("the open gold set's journal"))
            for end in ("-journal", "-wal", "-shm")]
    own.append((lock_path(home), Message("the open gold set's lock file")))
    with suppress(OSError):
        own.append((inode_lock_path(home), Message("the open gold set's lock file")))
    example = pre_migration_backup_path(home, "X", None).name
    before, after = example.split("X", 1)
    with suppress(OSError):
        own += [(path, Message("a backup of the open gold set"))
                for path in home.parent.glob(f"{before}*{after}")]
    folders: list[tuple[Path, str]] = [(app_paths().backups, Message("the backups folder")),
                                       (app_paths().locks, Message("the app's lock folder"))]

    real = Path(os.path.realpath(dest))
    what = next((w for path, w in own if _same_name(real, path)), None)
    if what is None and real.parent == home.parent and real.name.startswith(before) \
            and real.name.endswith(after):
        what = Message("a backup of the open gold set")
    for folder, name in folders:
        top = Path(os.path.realpath(folder))
        if what is None and (_same_name(real, top) or any(_same_name(p, top)
                                                          for p in real.parents)):
            raise KnownError("this is in {name} of rag-annotator, which only the app "
                             "writes to; choose another destination.", name=name, path=dest)
    if what is None:
        try:
            found = os.stat(dest)
        except (OSError, ValueError):
            return
        for path, name in own:
            with suppress(OSError):
                if os.path.samestat(found, os.stat(path)):
                    what = Message("{what} (another name of the same file)", what=name)
                    break
    if what is not None:
        raise KnownError("this is {what}; exporting there would destroy it: choose "
                         "another destination.", what=what, path=dest)


def _same_name(a: Path, b: Path) -> bool:
    return os.path.normcase(str(a)) == os.path.normcase(str(b))
