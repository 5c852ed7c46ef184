"""``GoldSetStore``: the one class that owns the gold-set file and every SQL string.

This module keeps the file's life cycle, the writes and the history.  Opening follows the
file-safety rules of DESIGN section 3: identify and check the file read-only first (its whole
schema included), refuse what is not ours, back up before migrating, then hold one read-write
connection with the durability contract of ``connection.py``.  Writes happen only through
:meth:`GoldSetStore.operation`, which wraps one ``BEGIN IMMEDIATE`` transaction and records
the history.  The reads are typed methods of one mixin per workflow (``reads_goldset``,
``reads_judging``, ``reads_verify``, ``reads_runs``, ``reads_metrics``, ``reads_exchange``,
``reads_agents``) and the checks of ``check`` are in ``checks.py``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.errors import (
    Conflict,
    DamagedFile,
    KnownError,
    MigrationFailed,
    NotFound,
    ReadOnlyLocation,
)
from rag_annotator.storage import connection as conn_mod
from rag_annotator.storage import tempfiles
from rag_annotator.storage.checks import FileChecks
from rag_annotator.storage.lock import WriterLock
from rag_annotator.storage.reads import ReadBase, Row
from rag_annotator.storage.reads_agents import AgentReads
from rag_annotator.storage.reads_documents import DocumentReads
from rag_annotator.storage.reads_exchange import ExchangeReads
from rag_annotator.storage.reads_goldset import GoldsetReads
from rag_annotator.storage.reads_judging import JudgingReads
from rag_annotator.storage.reads_metrics import MetricsReads
from rag_annotator.storage.reads_rights import RightsReads
from rag_annotator.storage.reads_runs import RunsReads
from rag_annotator.storage.reads_samples import SampleReads
from rag_annotator.storage.reads_structured import StructuredReads
from rag_annotator.storage.reads_team import TeamReads
from rag_annotator.storage.reads_verify import VerifyReads
from rag_annotator.storage.schema import (
    SCHEMA_VERSION,
    apply_migrations,
    known_migration_names,
    pending_migration_names,
)
from rag_annotator.storage.snapshot import backup_file, pre_migration_backup_path
from rag_annotator.storage.transaction import (
    Operation,
    SchemaInfo,
    immediate_transaction,
    revert_rows,
    savepoint,
)

#: Files larger than this are quick-checked in the background when the app opens them.
BACKGROUND_CHECK_BYTES = 32 * 1024 * 1024
#: Page cache limit (KiB) of a :meth:`GoldSetStore.batch`: its transaction keeps every page
#: it changed until the commit, and a page that falls out of the cache is written (and
#: journaled) early, then again.  Only the pages actually touched take memory.
BATCH_CACHE_KIB = 1024 * 1024


class GoldSetStore(GoldsetReads, JudgingReads, VerifyReads, RunsReads, MetricsReads,
                   ExchangeReads, AgentReads, RightsReads, StructuredReads, TeamReads, SampleReads,
                   DocumentReads, FileChecks, ReadBase):
    """An open gold-set file.

    Attributes:
        path: the file (resolved).
        assessor: who is working in this session; recorded with every operation.
        read_only: True when opened for viewing only; writes raise.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection, *, assessor: str,
                 read_only: bool) -> None:
        self.path = path
        self.assessor = assessor
        self.read_only = read_only
        self._conn = conn
        self._schema = SchemaInfo(conn)
        # The page-level check of a large file runs on its own thread (see ``open``); writes
        # wait for its verdict, so nothing is ever written to a file found damaged.
        self._verified = threading.Event()
        self._verified.set()
        self._damage: DamagedFile | None = None
        self._checker: threading.Thread | None = None
        self._checker_lock = threading.Lock()
        #: The writer lock (see ``storage.lock``) when opened with ``lock=True``.
        self.lock: WriterLock | None = None
        #: ``verify="remembered"``: "skipped" (unchanged since a clean full check), "full"
        #: (checked, and remembered when sound) or "" (another mode).
        self.check_done = ""
        #: Inside :meth:`batch`: operations are savepoints of its one transaction.
        self._batched = False

    # -- lifecycle -------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path, *, assessor: str = "", read_only: bool = False,
             backup_dir: Path | None = None, verify: str = "now",
             lock: bool = False, schema: str = "refuse") -> GoldSetStore:
        """Open an existing file, migrating it (after a backup) if it is older.

        Raises a KnownError (and writes nothing) for a file that is missing, empty, not ours,
        damaged or from a newer schema.  ``verify``: "now" runs SQLite's quick check before
        returning; "auto" (the desktop app) runs it on a background thread for files over
        :data:`BACKGROUND_CHECK_BYTES` — it takes ~0.35 s per 200 MB, which would otherwise
        delay the window — from the first call of :meth:`damage` (the app's once its window
        is painted: the thread would share the CPU with the first paint), and every write
        waits for its verdict (its own call of :meth:`damage`); "skip" is
        for a second reader of a file another store of this process has already checked.
        ``lock`` (the app, the CLI's writing commands) takes the file's writer lock first:
        :class:`~rag_annotator.storage.lock.FileInUse` names who has it open, and
        :class:`~rag_annotator.errors.ReadOnlyLocation` says the folder cannot be written.
        ``schema``: "refuse" raises UnexpectedSchema for a file whose schema is not exactly
        this build's for its version (extra trigger, view, table, changed CHECK...); "report"
        (read-only only: ``check``, which lists the differences) lets it through.
        """
        file = Path(path).expanduser().resolve()
        # What exports, backups and migrations killed mid-way left beside it (ours only).
        tempfiles.clean_leftovers(file.parent)
        if backup_dir is not None:
            tempfiles.clean_leftovers(backup_dir)
        try:
            large = file.stat().st_size > BACKGROUND_CHECK_BYTES
        except OSError:
            large = False  # inspect_read_only reports what is wrong with the path
        if verify not in ("now", "auto", "skip", "remembered") or (
                verify == "remembered" and not read_only):
            raise ValueError(f"verify must be now, auto, skip or (read-only) remembered, "
                             f"not {verify!r}")
        remembered = _remembered_check(file) if verify == "remembered" else None
        if schema not in ("refuse", "report") or (schema == "report" and not read_only):
            raise ValueError(f"schema must be refuse, or report when read-only, not {schema!r}")
        background = verify == "auto" and large and not read_only
        version = conn_mod.inspect_read_only(
            file, known_migration_names(), SCHEMA_VERSION,
            quick_check=verify == "now" or (verify == "auto" and not background) or (
                remembered is not None and not remembered[1]),
            schema=schema)
        if read_only:
            store = cls(file, _connect_read_only(file, version), assessor=assessor,
                        read_only=True)
            if remembered is not None:
                store.check_done = _remember(file, *remembered)
            return store
        if not (os.access(file, os.W_OK) and os.access(file.parent, os.W_OK)):
            raise ReadOnlyLocation(
                "the file or its folder cannot be written (permissions); open it read-only, "
                "or copy it somewhere you can write.", path=file)
        writer_lock = _take_lock(file, assessor) if lock else None
        try:
            conn = conn_mod.connect_existing(file)
        except BaseException:
            if writer_lock is not None:
                writer_lock.release()
            raise
        try:
            if _upgrade(conn, file, version, backup_dir, checked=not background):
                background = False  # upgrading checked it first
        except sqlite3.Error as error:
            conn.close()
            if writer_lock is not None:
                writer_lock.release()
            raise (conn_mod.classify_error(error, file) or error) from error
        except BaseException:
            conn.close()
            if writer_lock is not None:
                writer_lock.release()
            raise
        store = cls(file, conn, assessor=assessor, read_only=False)
        store.lock = writer_lock
        if background:
            store._verified.clear()  # checked from the first damage() call (a write's too)
        return store

    def in_transaction(self) -> bool:
        """Whether a write transaction is open (progress hooks; tests of Ctrl+C)."""
        return self._conn.in_transaction

    def _start_background_check(self) -> None:
        """Start the pending quick check on its thread (once)."""
        with self._checker_lock:
            if self._checker is not None or self._verified.is_set():
                return

            def check() -> None:
                try:
                    self._damage = conn_mod.quick_check_file(self.path)
                finally:
                    self._verified.set()

            self._checker = threading.Thread(target=check, name="quick-check", daemon=True)
            self._checker.start()

    def damage(self, timeout: float | None = None) -> DamagedFile | None:
        """The background quick check's verdict: the DamagedFile error, or None if sound.

        Starts the check if it has not started yet (``verify="auto"``); waits up to
        ``timeout`` seconds (forever with None); raises TimeoutError if the check is still
        running then.
        """
        if not self._verified.is_set():
            self._start_background_check()
        if not self._verified.wait(timeout):
            raise TimeoutError("the file's quick check is still running")
        return self._damage

    @classmethod
    def create(cls, path: str | Path, *, name: str = "", assessor: str = "",
               lock: bool = False) -> GoldSetStore:
        """Create a new, empty gold-set file at ``path`` (refused if something is there)."""
        file = Path(path).expanduser().absolute()
        conn = conn_mod.create_file(file)
        try:
            apply_migrations(conn)
            now = utc_now()
            with immediate_transaction(conn):
                conn.executemany(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    [("name", name or file.stem), ("guidelines", ""), ("max_grade", "1"),
                     ("created_at", now)],
                )
        except BaseException:
            conn_mod.discard_new_file(conn)
            raise
        conn_mod.publish_new_file(conn, file)
        return cls.open(file, assessor=assessor, lock=lock)

    def close(self) -> None:
        """Close the connection (every edit is already committed), then give the lock back."""
        self._conn.close()
        if self._checker is not None:
            self._checker.join()
        if self.lock is not None:
            self.lock.release()

    def __enter__(self) -> GoldSetStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pragmas(self) -> dict[str, object]:
        """The pragma values in force (to assert the durability contract)."""
        return conn_mod.effective_pragmas(self._conn)

    # -- writes ----------------------------------------------------------------------------
    @contextmanager
    def operation(self, action: str, label: str, *, log: bool = True,
                  undoable: bool = True) -> Iterator[Operation]:
        """One named, committed operation: ``with store.operation(...) as op: op.insert(...)``.

        The operation row and every history row are in the same transaction as the change.
        """
        self._writable()
        if self._batched and not self._conn.in_transaction:
            # SQLite rolled the batch back itself (disk full, I/O error): a savepoint now
            # would open and commit a transaction of its own
            raise RuntimeError("the batch's transaction was rolled back")
        try:
            with (savepoint(self._conn) if self._batched
                  else immediate_transaction(self._conn)):
                cur = self._conn.execute(
                    "INSERT INTO operations (at, assessor, action, label, undoable) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (utc_now(), self.assessor, action, label, int(undoable and log)),
                )
                assert cur.lastrowid is not None
                op = Operation(self._conn, self._schema, cur.lastrowid, action, label, log=log)
                yield op
                self._conn.execute("UPDATE operations SET label = ? WHERE id = ?",
                                   (op.label, op.operation_id))
                if op.changes().empty:
                    # Nothing changed: do not leave an empty entry in the history.
                    self._conn.execute("DELETE FROM operations WHERE id = ?", (op.operation_id,))
                    op.operation_id = 0
        except sqlite3.Error as error:
            known = conn_mod.classify_error(error, self.path)
            if known is not None:
                raise known from error
            raise

    @contextmanager
    def batch(self, *, foreign_keys: bool = True) -> Iterator[None]:
        """Several operations committed as ONE transaction: ``with store.batch(): …``.

        Each :meth:`operation` inside stays an operation of its own (its row, its history:
        undone on its own) but runs as a savepoint: one that fails is rolled back alone and
        the others stay; an exception out of the block (Ctrl+C, a cancel) rolls back them
        all, so the file is then byte for byte as before.  The pages the operations share
        (a big table's indexes) are journaled and written once, not once per operation:
        ``collect`` brings ten files this way.

        ``foreign_keys=False``: SQLite does not check the references of the rows written
        (for 2,000,000 judgments, ~40 % of the inserts' time): only for a caller that writes
        nothing but references it has checked itself, and deletes nothing (``collect``: its
        verdicts check every case, document and assessor in SQL).  Back on after.
        """
        self._writable()
        if self._batched or self._conn.in_transaction:
            raise RuntimeError("a batch is already open")
        previous = int(self._conn.execute("PRAGMA main.cache_size").fetchone()[0])
        self._conn.execute(f"PRAGMA main.cache_size = {-BATCH_CACHE_KIB}")
        if not foreign_keys:
            self._conn.execute("PRAGMA foreign_keys = OFF")  # a no-op inside a transaction
        try:
            with immediate_transaction(self._conn):
                self._batched = True
                try:
                    yield
                finally:
                    self._batched = False
        except sqlite3.Error as error:
            known = conn_mod.classify_error(error, self.path)
            if known is not None:
                raise known from error
            raise
        finally:
            self._conn.execute(f"PRAGMA main.cache_size = {previous}")
            self._conn.execute("PRAGMA foreign_keys = ON")

    def _writable(self) -> None:
        """Refuse a write to a read-only or damaged file."""
        if self.read_only:
            raise KnownError("this file is open read-only; nothing can be changed.",
                             path=self.path)
        damage = self.damage()
        if damage is not None:
            raise damage

    def revert(self, operation_id: int, *, action: str = "undo") -> Changes:
        """Apply the before-images of an operation, as a new operation that reverts it.

        Refused with a Conflict (nothing changed) when a later operation changed the same rows.
        """
        original = self.operation_row(operation_id)
        if not original["undoable"]:
            # Bulk loads keep no row history: reverting would record an undo that did nothing.
            raise Conflict("'{original}' cannot be undone: it kept no history of "
                           "its rows.", original=original['label'])
        rows = self._conn.execute(
            "SELECT id, table_name, row_key, kind, old, new FROM history "
            "WHERE operation_id = ? ORDER BY id DESC",
            (operation_id,),
        ).fetchall()
        with self.operation(action, original["label"]) as op:
            self._conn.execute(
                "UPDATE operations SET reverts = ? WHERE id = ?", (operation_id, op.operation_id)
            )
            revert_rows(op, rows)
        return op.changes()

    # -- operations and history --------------------------------------------------------------
    def operation_row(self, operation_id: int) -> Row:
        """One row of ``operations`` (raises NotFound)."""
        row = self._one("SELECT * FROM operations WHERE id = ?", (operation_id,))
        if row is None:
            raise NotFound("no operation {operation_id} in the history.", operation_id=operation_id)
        return row

    def operation_ids(self) -> list[int]:
        """Every operation, newest first (the history view's id list)."""
        return [r[0] for r in self._conn.execute("SELECT id FROM operations ORDER BY id DESC")]

    def newest_operation_id(self) -> int:
        """The id of the last operation (0 for none): has the file changed since then?"""
        row = self._conn.execute("SELECT max(id) FROM operations").fetchone()
        return int(row[0] or 0)

    def operations_rows(self, ids: Sequence[int]) -> dict[int, Row]:
        """Operations by id, with the number of rows each changed."""
        return {
            r["id"]: r
            for r in self._many(
                "SELECT o.*, (SELECT coalesce(sum(CASE WHEN h.kind IN "
                "('insert_range', 'delete_range') THEN json_extract(h.row_key, '$.last') "
                "- json_extract(h.row_key, '$.first') + 1 ELSE 1 END), 0) FROM history h "
                "WHERE h.operation_id = o.id) AS row_count FROM operations o WHERE o.id IN "
                "(SELECT value FROM json_each(?))",
                (json.dumps(list(ids)),),
            )
        }

    def history_of(self, operation_id: int) -> list[Row]:
        """The row changes of one operation (old → new), in the order they were made.

        A range row (``insert_range``/``delete_range``: a batch of a bulk insert, or its undo)
        has ``row_key`` ``{"first", "last"}`` and ``count``; its ``old``/``new`` are None
        here (the stored rows of a ``delete_range`` are for revert, not for display).
        """
        rows = self._many(
            "SELECT table_name, row_key, kind, "
            "CASE WHEN kind IN ('insert_range', 'delete_range') THEN NULL ELSE old END AS old, "
            "CASE WHEN kind IN ('insert_range', 'delete_range') THEN NULL ELSE new END AS new "
            "FROM history WHERE operation_id = ? ORDER BY id",
            (operation_id,),
        )
        for row in rows:
            for col in ("row_key", "old", "new"):
                row[col] = None if row[col] is None else json.loads(row[col])
            if row["kind"] in ("insert_range", "delete_range"):
                row["count"] = int(row["row_key"]["last"]) - int(row["row_key"]["first"]) + 1
        return rows

    # -- backup --------------------------------------------------------------------------
    def save_copy(self, destination: str | Path) -> Path:
        """Write a consistent copy through SQLite's backup API (never a file copy)."""
        dest = Path(destination).expanduser().absolute()
        if dest.resolve() == self.path:
            raise KnownError("choose another file than the one that is open.", path=dest)
        backup_file(self._conn, dest)
        return dest


def _migrate(conn: sqlite3.Connection, file: Path, version: int, backup: Path) -> None:
    """Apply the pending migrations (one transaction); a failure the file causes (SQLite
    refuses a step: a dangling reference, a constraint) is a MigrationFailed line saying
    the file was rolled back unchanged and where the copy from before is."""
    try:
        apply_migrations(conn)
    except sqlite3.Error as error:
        known = conn_mod.classify_error(error, file)
        if known is not None and not isinstance(known, DamagedFile):
            raise known from error  # busy, disk full: say that, not "migration failed"
        raise MigrationFailed(
            "could not be upgraded from schema {version} to {schema_version} (SQLite: "
            "{error}); it was rolled back and is unchanged, byte for byte (the copy taken "
            "before, {backup}, is the proof). Keep using it with the rag-annotator version "
            "that wrote it, whose 'check' lists what is wrong, or report this with the file.",
            version=version, schema_version=SCHEMA_VERSION, error=error, backup=backup,
            path=file) from error


def _connect_read_only(file: Path, version: int) -> sqlite3.Connection:
    """A read-only connection to a file at this build's schema (an older one is refused:
    reading it would need the migration a read-only open must not make)."""
    conn = conn_mod.connect_existing(file, read_only=True)
    if version < SCHEMA_VERSION:
        conn.close()
        raise KnownError(
            "this file uses an older schema ({version}); open it read-write once "
            "to upgrade it (a backup is taken first).", version=version,
            path=file,
        )
    return conn


def _upgrade(conn: sqlite3.Connection, file: Path, version: int, backup_dir: Path | None,
             *, checked: bool) -> bool:
    """Migrate an older file after backing it up; True if it was migrated.

    A file not yet ``checked`` (its quick check was left to the background) is checked
    first: a damaged file is never migrated nor backed up.
    """
    pending = pending_migration_names(conn)
    if not pending:
        return False
    if not checked:
        damage = conn_mod.quick_check_file(file)
        if damage is not None:
            raise damage
    # Never migrate without a copy of the file as it was (DESIGN section 3).
    backup = pre_migration_backup_path(file, pending[0], backup_dir)
    backup_file(conn, backup)
    _migrate(conn, file, version, backup)
    return True

def _take_lock(file: Path, assessor: str) -> WriterLock:
    """The writer lock of ``file``; an unwritable folder means the file is read-only."""
    try:
        return WriterLock.acquire(file, assessor)
    except OSError as error:
        raise ReadOnlyLocation(
            "the file or its folder cannot be written ({value}); open it "
            "read-only, or copy it somewhere you can write.",
            value=error.strerror or error, path=file) from error


def _remembered_check(file: Path) -> tuple[str | None, bool]:
    """``(fingerprint taken now, whether a clean check of that very state is on record)``."""
    from rag_annotator.storage import clean_checks

    print_ = clean_checks.fingerprint(file)
    return print_, print_ is not None and clean_checks.was_clean(_checks_folder(), file,
                                                                  print_)


def _remember(file: Path, print_: str | None, skipped: bool) -> str:
    """Record a clean full check (the file opened, so it passed); "skipped" or "full"."""
    from rag_annotator.storage import clean_checks

    if not skipped and print_ is not None:
        clean_checks.remember_clean(_checks_folder(), file, print_)
    return "skipped" if skipped else "full"


def _checks_folder() -> Path:
    from rag_annotator.paths import app_paths  # a leaf module, as for the locks

    return app_paths().data / "checks"
