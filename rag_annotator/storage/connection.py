"""Opening and creating gold-set files safely.

The connection contract comes from ``research/reliability.md`` (measured there): rollback
journal with ``synchronous=EXTRA`` (0 corruptions and 0 lost acknowledged commits in 300
simulated power cuts, and the file stays self-contained between transactions, so users can
copy, sync or e-mail it), ``foreign_keys=ON``, ``trusted_schema=OFF``, ``cell_size_check=ON``,
``mmap_size=0`` and a 5 s busy timeout.  Every write runs under ``BEGIN IMMEDIATE``.

Before a single byte is written, the file is identified from its 100-byte header (magic,
``application_id``, ``user_version``) and checked read-only (``quick_check``, known
migrations).  A file that is not ours, damaged, empty or too new is refused with a
:class:`~rag_annotator.errors.KnownError` and left byte-identical, with no journal beside it.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import struct
import urllib.parse
from pathlib import Path

from rag_annotator.errors import (
    DamagedFile,
    EmptyFile,
    FileBusy,
    FileNotFound,
    FileTooNew,
    KnownError,
    NotAGoldSetFile,
    ReadOnlyLocation,
    UnexpectedSchema,
    WriteFailed,
)
from rag_annotator.storage.schema import WIDE_GRADES_VERSION

#: ``PRAGMA application_id`` of every gold-set file: the ASCII bytes "RAGA".
APPLICATION_ID = 0x52414741
SQLITE_MAGIC = b"SQLite format 3\x00"
#: Oldest SQLite we accept: 3.35.0–3.37.1 have a SAVEPOINT corruption bug (reliability.md C8).
MIN_SQLITE = (3, 37, 2)

EXPECTED_PRAGMAS = {
    "journal_mode": "delete",
    "synchronous": 3,
    "foreign_keys": 1,
    "trusted_schema": 0,
    "cell_size_check": 1,
    "busy_timeout": 5000,
}

# SQLite primary result codes we classify (never by message text where the code is known).
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26
_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_IOERR = 10
_SQLITE_FULL = 13
#: Extended code: a hot journal that a read-only connection cannot roll back.
_SQLITE_READONLY_ROLLBACK = 776


def check_sqlite_version() -> None:
    """Refuse to run on an SQLite library with known corruption bugs."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise KnownError(
            "SQLite {sqlite_version} is too old (need {map} "
            "or newer); update Python or its SQLite library.",
            sqlite_version=sqlite3.sqlite_version, map='.'.join(map(str, MIN_SQLITE))
        )


def read_header(path: Path) -> tuple[int, int]:
    """Identify a closed file from its header; return ``(application_id, user_version)``.

    Raises the KnownError that fits: missing, empty, not an SQLite file, or another
    application's SQLite file.  Reads 100 bytes and never writes.  A FIFO, device or socket
    is refused from its ``stat`` alone: opening a FIFO would wait forever for a writer.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FileNotFound("no such file; check the path.", path=path) from None
    except PermissionError:
        raise KnownError("permission denied; check the file's permissions.", path=path) from None
    except OSError as error:
        raise KnownError("cannot read the file ({value}); check the path.",
                         value=error.strerror or error,
                         path=path) from None
    if stat.S_ISDIR(mode):
        raise NotAGoldSetFile("this is a folder, not a gold-set file.", path=path)
    if not stat.S_ISREG(mode):
        raise NotAGoldSetFile(
            "this is a {special_kind}, not a gold-set file; open a regular .goldset "
            "file.", special_kind=_special_kind(mode), path=path)
    try:
        with open(path, "rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        raise FileNotFound("no such file; check the path.", path=path) from None
    except IsADirectoryError:
        raise NotAGoldSetFile("this is a folder, not a gold-set file.", path=path) from None
    except PermissionError:
        raise KnownError("permission denied; check the file's permissions.", path=path) from None
    if not header:
        raise EmptyFile(
            "the file is empty (0 bytes), not a gold-set file; create one with "
            "'rag-annotator new'.",
            path=path,
        )
    if not header.startswith(SQLITE_MAGIC):
        raise NotAGoldSetFile(
            "not a gold-set file (it is not an SQLite database); open a .goldset file "
            "made by rag-annotator.",
            path=path,
        )
    if len(header) < 100:
        raise DamagedFile(
            "the file is damaged (truncated inside its header); restore it from a backup.",
            path=path,
        )
    user_version, = struct.unpack(">i", header[60:64])
    application_id, = struct.unpack(">I", header[68:72])
    if application_id != APPLICATION_ID:
        raise NotAGoldSetFile(
            "this SQLite file belongs to another application (application_id "
            "{application_id:#x}), not rag-annotator; open a .goldset file instead.",
            application_id=application_id,
            path=path,
        )
    return application_id, user_version


def _special_kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISFIFO(mode):
        return "named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def _uri(path: Path, mode: str) -> str:
    return f"file:{urllib.parse.quote(str(path.resolve()))}?mode={mode}"


def classify_error(error: sqlite3.Error, path: Path) -> KnownError | None:
    """Turn an SQLite error about the file into the KnownError it means, by result code."""
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(error).lower()
    if primary == _SQLITE_CORRUPT or (primary is None and "malformed" in text):
        return DamagedFile(
            "the file is damaged (SQLite: database disk image is malformed); "
            "restore it from a backup.",
            path=path,
        )
    if primary == _SQLITE_NOTADB or (primary is None and "not a database" in text):
        return DamagedFile(
            "the file is damaged or not a database (SQLite: file is not a database); "
            "restore it from a backup.",
            path=path,
        )
    if primary in (_SQLITE_BUSY, _SQLITE_LOCKED) or (primary is None and "locked" in text):
        return FileBusy(
            "another program is writing to this file; close it there and try again.", path=path
        )
    if primary == _SQLITE_FULL or (primary is None and "disk is full" in text):
        return WriteFailed(
            "the disk is full: this change was not saved (the file keeps everything saved "
            "before); free some space and try again.", path=path)
    if primary == _SQLITE_IOERR or (primary is None and "disk i/o error" in text):
        return WriteFailed(
            "the file could not be written (disk or network error, or the disk is full): this "
            "change was not saved (the file keeps everything saved before); check the disk "
            "and its free space, then try again.", path=path)
    return None


def _raw_connect(path: Path, mode: str) -> sqlite3.Connection:
    conn = sqlite3.connect(_uri(path, mode), uri=True, isolation_level=None, timeout=5.0)
    return conn


def apply_pragmas(conn: sqlite3.Connection, *, read_only: bool = False) -> None:
    """Apply the connection contract.  Writes nothing to a file already in DELETE mode."""
    conn.execute("PRAGMA trusted_schema=OFF")
    conn.execute("PRAGMA cell_size_check=ON")
    conn.execute("PRAGMA mmap_size=0")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=5000")
    if not read_only:
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        if mode.lower() != "delete":
            conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("PRAGMA synchronous=EXTRA")


def effective_pragmas(conn: sqlite3.Connection) -> dict[str, object]:
    """The pragma values in force, to assert the contract (tests, ``check``)."""
    return {
        name: conn.execute(f"PRAGMA {name}").fetchone()[0]
        for name in EXPECTED_PRAGMAS
    }


def inspect_read_only(path: Path, known_migrations: list[str], schema_version: int, *,
                      quick_check: bool = True, schema: str = "refuse") -> int:
    """Check a closed file without writing to it; return its user_version.

    With ``quick_check=False`` the page-level check is left to :func:`quick_check_file`
    (run in the background on large files); everything else is still checked here.
    The whole schema is compared with this build's for the file's version
    (:mod:`~rag_annotator.storage.shape`) before anything else reads the file's tables:
    ``schema="refuse"`` raises UnexpectedSchema on the first difference, ``"report"``
    (``check``, which lists them) lets the file through.
    Raises NotAGoldSetFile / EmptyFile / DamagedFile / FileTooNew / FileNotFound /
    UnexpectedSchema.
    """
    check_sqlite_version()
    _app_id, user_version = read_header(path)
    if user_version > schema_version:
        raise FileTooNew(
            "written by a newer version of rag-annotator (schema {user_version}; this "
            "version reads up to {schema_version}); update rag-annotator to open it.",
            user_version=user_version, schema_version=schema_version,
            path=path,
        )
    try:
        conn = _raw_connect(path, "ro")
    except sqlite3.Error as error:
        raise classify_error(error, path) or KnownError(
            "cannot open the file ({error}); check that it is readable.", error=error, path=path
        ) from error
    try:
        apply_pragmas(conn, read_only=True)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as error:
            if getattr(error, "sqlite_errorcode", None) != _SQLITE_READONLY_ROLLBACK:
                raise
            # A crash mid-commit left a hot journal beside our file.  Playing it back (which
            # only a read-write connection can do) restores the last committed state: that is
            # SQLite's durability promise, not damage (reliability.md C12).
            roll_back_hot_journal(path)
        if schema == "refuse":
            _refuse_unexpected_schema(conn, path, user_version)
            _refuse_bad_settings(conn, path, user_version)
        if quick_check:
            _raise_if_damaged(conn, path)
        has_migrations = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='_sqlite_migrations'"
        ).fetchone()
        if user_version > 0 and not has_migrations:
            raise DamagedFile(
                "the file is damaged (its migration record is missing); restore it from "
                "a backup.",
                path=path,
            )
        if has_migrations:
            names = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations")]
            unknown = [n for n in names if n not in known_migrations]
            if unknown:
                raise FileTooNew(
                    "written by a newer version of rag-annotator (unknown migration "
                    "'{unknown}'); update rag-annotator to open it.", unknown=unknown[0],
                    path=path,
                )
    except sqlite3.Error as error:
        raise classify_error(error, path) or DamagedFile(
            "the file cannot be read ({error}); restore it from a backup.", error=error, path=path
        ) from error
    finally:
        conn.close()
    return user_version


def _refuse_unexpected_schema(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """UnexpectedSchema naming the first difference from this build's schema at ``version``
    (only ``sqlite_master``'s text is read: no trigger, view or CHECK of the file runs)."""
    from rag_annotator.storage.shape import schema_differences

    differences = schema_differences(conn, version)
    if differences:
        more = f" (and {len(differences) - 1} more)" if len(differences) > 1 else ""
        raise UnexpectedSchema(
            "not opened: its schema is not the one rag-annotator writes (schema {version}): "
            "{differences}{more}; it was changed outside rag-annotator, so nothing in it "
            "was run or written. Ask for a copy saved by rag-annotator; 'rag-annotator "
            "check' lists every difference.",
            version=version, differences=differences[0], more=more, path=path)


def settings_problem(conn: sqlite3.Connection) -> str | None:
    """What is wrong with the settings every reader relies on (``meta``), or None.

    ``max_grade`` is read as the scale of every grade: it must be a whole number from 1 to
    4 (the grades' CHECK) before the wide-grades migration, any whole number from 1 after it
    (written in plain decimal, as this build writes it); ``meta`` has no CHECK to say so.
    """
    row = conn.execute("SELECT value FROM meta WHERE key = 'max_grade'").fetchone()
    if row is None or (isinstance(row[0], str) and row[0] in ("1", "2", "3", "4")):
        return None
    wide = conn.execute("PRAGMA user_version").fetchone()[0] >= WIDE_GRADES_VERSION
    if wide and isinstance(row[0], str) and row[0].isascii() and row[0].isdecimal() \
            and not row[0].startswith("0") and len(row[0]) <= 9:
        return None
    return (f"its grade scale (meta max_grade = {str(row[0])[:40]!r}) is not a whole number "
            f"from 1 to {'999999999' if wide else 4}")


def _refuse_bad_settings(conn: sqlite3.Connection, path: Path, version: int) -> None:
    problem = settings_problem(conn) if version >= 1 else None
    if problem is not None:
        raise DamagedFile(
            "not opened: {problem}; it was changed outside rag-annotator, so nothing in it "
            "was written. Ask for a copy saved by rag-annotator, or restore it from a backup.",
            problem=problem,
            path=path)


def roll_back_hot_journal(path: Path) -> None:
    """Let SQLite play back the hot journal of ``path`` (it does so on the first read).

    Playing back writes the file and deletes the journal: where that cannot be done (a
    read-only folder or file), every later attempt meets the same journal, so the refusal
    says what it is and what to do — not "damaged", not "disk full".
    """
    try:
        conn = _raw_connect(path, "rw")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise ReadOnlyLocation(
            "a crash left an unfinished change in {name}-journal beside the file; it "
            "must be rolled back (this writes the file and deletes the journal) before the "
            "file can be read, and that failed here (SQLite: {error}): make the folder and "
            "the file writable, or copy both files together to a folder you can write to "
            "and open the copy.", name=path.name, error=error, path=path) from error


def _raise_if_damaged(conn: sqlite3.Connection, path: Path) -> None:
    checker = _constraint_checker(path)
    try:
        result = (checker or conn).execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError:
        # SQLite 3.40's check stops with "malformed" instead of naming the page when the
        # schema holds a view (``assignments``): find the damaged b-tree by reading each
        result = [(_damaged_tree(conn) or "database disk image is malformed",)]
    finally:
        if checker is not None:
            checker.close()
    if checker is None and [tuple(row) for row in result] == [("ok",)]:
        from rag_annotator.storage.shape import check_violation

        violation = check_violation(conn)  # what a read-only quick check cannot see
        if violation is not None:
            result = [(violation,)]
    if [tuple(row) for row in result] != [("ok",)]:
        # quick_check's rows can hold many lines ("*** in database main ***\nPage 9: …");
        # the message must stay one line, so keep the first line that says something.
        lines = [line.strip() for row in result for line in str(row[0]).splitlines()
                 if line.strip() and not line.lstrip().startswith("***")]
        raise DamagedFile(
            "the file is damaged (quick check: {lines}); "
            "restore it from a backup.", lines=lines[0] if lines else 'failed',
            path=path,
        )


def _damaged_tree(conn: sqlite3.Connection) -> str | None:
    """"Page N (table or index X)" of the first table or index that cannot be read whole."""
    trees = conn.execute("SELECT type, name, tbl_name, rootpage FROM sqlite_master WHERE "
                         "type IN ('table', 'index') AND rootpage > 0 ORDER BY rootpage"
                         ).fetchall()
    for kind, name, table, root in trees:
        sql = (f'SELECT count(*) FROM "{table}" NOT INDEXED' if kind == "table" else
               f'SELECT count(*) FROM "{table}" INDEXED BY "{name}"')
        try:
            conn.execute(sql).fetchone()
        except sqlite3.DatabaseError:
            return f"Page {root} ({kind} {name}) cannot be read"
    return None


def _constraint_checker(path: Path) -> sqlite3.Connection | None:
    """A ``query_only`` read-write connection for ``quick_check``, or None.

    SQLite does not even parse the CHECK constraints of a database opened read-only, so its
    quick check cannot see a grade of 'abc' slipped in while a CHECK was edited away through
    ``writable_schema`` and then put back.  A read-write connection sees them; with
    ``query_only`` and nothing but a pragma run, it writes nothing (rollback journal: a
    read never touches the file).  A WAL file (reading it rw would create its ``-wal`` and
    ``-shm``) or one we cannot write gets the read-only check only.
    """
    try:
        with open(path, "rb") as handle:
            header = handle.read(20)
    except OSError:
        return None
    if header[18:20] != b"\x01\x01" or not os.access(path, os.W_OK):
        return None
    try:
        conn = _raw_connect(path, "rw")
        conn.execute("PRAGMA query_only=ON")
        apply_pragmas(conn, read_only=True)
    except sqlite3.Error:
        return None
    return conn


def quick_check_file(path: Path) -> DamagedFile | None:
    """Run SQLite's quick check on its own read-only connection (safe on another thread).

    Returns the DamagedFile error to report, or None when the file is sound.
    """
    try:
        conn = _raw_connect(path, "ro")
    except sqlite3.Error as error:
        known = classify_error(error, path)
        return known if isinstance(known, DamagedFile) else None
    try:
        apply_pragmas(conn, read_only=True)
        _raise_if_damaged(conn, path)
    except DamagedFile as damaged:
        return damaged
    except sqlite3.Error as error:
        known = classify_error(error, path)
        return known if isinstance(known, DamagedFile) else None
    finally:
        conn.close()
    return None


def connect_existing(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """Open an already-inspected gold-set file with the connection contract applied."""
    try:
        conn = _raw_connect(path, "ro" if read_only else "rw")
        apply_pragmas(conn, read_only=read_only)
    except sqlite3.Error as error:
        raise classify_error(error, path) or KnownError(
            "cannot open the file ({error}).", error=error, path=path
        ) from error
    return conn


def create_file(path: Path) -> sqlite3.Connection:
    """Create a new empty SQLite file at a temporary name beside ``path``.

    The caller initialises the schema, closes the connection and calls
    :func:`publish_new_file`, so that ``path`` never holds a half-initialised file.
    """
    check_sqlite_version()
    if path.exists():
        raise KnownError("a file already exists at this path; choose another name.", path=path)
    if not path.parent.is_dir():
        raise FileNotFound("the folder does not exist; create it first.", path=path.parent)
    # Not mkstemp: its files are 0600, and a gold set is shared; let the umask decide.
    import secrets  # only when creating a file (its hmac/hashlib imports cost at start-up)

    tmp_path = path.parent / f".{path.name}.{secrets.token_hex(6)}.creating"
    os.close(os.open(tmp_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    conn = sqlite3.connect(_uri(tmp_path, "rw"), uri=True, isolation_level=None, timeout=5.0)
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    apply_pragmas(conn)
    return conn


def publish_new_file(conn: sqlite3.Connection, path: Path) -> None:
    """Move the file created by :func:`create_file` to its final name, durably."""
    tmp_name = conn.execute("PRAGMA database_list").fetchone()[2]
    conn.close()
    tmp_path = Path(tmp_name)
    if path.exists():
        tmp_path.unlink(missing_ok=True)
        raise KnownError("a file already exists at this path; choose another name.", path=path)
    os.replace(tmp_path, path)
    fsync_directory(path.parent)


def discard_new_file(conn: sqlite3.Connection) -> None:
    """Remove the temporary file of a creation that failed."""
    tmp_name = conn.execute("PRAGMA database_list").fetchone()[2]
    conn.close()
    Path(tmp_name).unlink(missing_ok=True)


def fsync_directory(directory: Path) -> None:
    """Make a rename durable (a no-op where directories cannot be opened, e.g. Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
