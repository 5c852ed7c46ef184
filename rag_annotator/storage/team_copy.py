"""Write the assignment files of a campaign from the master, in SQL, and read one back.

An assignment file is a whole gold-set file (this build's schema, made by its migrations)
holding only what its expert needs: the gold set's name, grading scale and guidelines, the
cases and documents of the campaign, the campaign row and their queue (one packed row).  No
run, no rank, no score, no other assessor's label, no expected source (the expert judges
blind).  Rows keep the master's ids (copied by ``INSERT … SELECT`` from the master attached
read-only), yet ``collect`` matches everything by natural keys: the expert's file is
untrusted when it comes back.

**One body, copied.**  What every file of a campaign of pairs shares (the schema, the meta,
the campaign, its cases and documents) is written ONCE into a template, and each expert's
file is a byte copy of it plus their own few rows (their name, their queue).  Filtering the
documents per expert bought nothing: with a 1,000,000-pair pool dealt to 10 experts each
queue still touches ~90 % of the documents, and ten filtered copies (each rebuilding the
documents' indexes) cost several times one copy of the master, where a file copy costs
what the disk does.  So a file of a campaign of pairs holds the documents of the whole
campaign (the same text for everyone, nothing about anyone's labels).  Claims and
trajectories (small) are still copied per expert, only theirs.

A document's ``supersedes_id`` is left empty in the copy: the document it names is usually
not in it, and the expert reads the text, not the version chain.  A passage (a document with
a ``parent_id``) comes with the document it is part of, and each copied document with its kept
file (``document_files``: a PDF's bytes), so the expert sees the page the passage is on, as in
the master.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.team_plan import unpack
from rag_annotator.errors import KnownError
from rag_annotator.storage import connection as conn_mod
from rag_annotator.storage.schema import apply_migrations
from rag_annotator.storage.transaction import BULK_CACHE_KIB

#: meta keys copied from the master (the rest is the master's own business).
_META = ("name", "guidelines", "max_grade")
#: One assessor's packed slots in the campaign (see ``storage.schema_sql``).
_MINE = ("SELECT e.value FROM m.queues q, json_each(q.slots) e "
         "WHERE q.campaign_id = :campaign AND q.assessor_id = :assessor")
#: One job: (destination, assessor id, the ``meta.assignment`` JSON object).
Job = tuple[Path, int, dict[str, str]]


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")]


def write_assignments(master: Path, campaign_id: int, items: str, jobs: Sequence[Job], *,
                      each: Callable[[Path, int, int], None] | None = None) -> None:
    """Create each job's file (refused if it exists) as the assignment file of its
    assessor in ``campaign_id`` of the (closed or committed) master file.  ``each(dest,
    slots, pairs)`` is called after each file is published (a cancel check may raise from
    it; the files published so far are the caller's to remove).

    Each file appears whole or not at all.
    """
    if not jobs:
        return
    template = conn_mod.create_file(jobs[0][0].parent / f".campaign-{secrets.token_hex(6)}")
    try:
        # a scratch file, never published (each copy is synced when its own rows commit):
        # no journal and no fsync of its ~100 MB
        template.execute("PRAGMA journal_mode = OFF")
        template.execute("PRAGMA synchronous = OFF")
        apply_migrations(template)
        template.execute(f"PRAGMA cache_size = {-BULK_CACHE_KIB}")
        with _master_attached(template, master):
            _fill_shared(template, campaign_id, items)
        source = Path(template.execute("PRAGMA database_list").fetchone()[2])
        for dest, assessor_id, info in jobs:
            conn = _clone(source, dest)
            try:
                with _master_attached(conn, master):
                    counts = _fill_own(conn, campaign_id, assessor_id, items, info)
            except BaseException:
                conn_mod.discard_new_file(conn)
                raise
            conn_mod.publish_new_file(conn, dest)
            if each is not None:
                each(dest, *counts)
    finally:
        conn_mod.discard_new_file(template)


def _clone(source: Path, dest: Path) -> sqlite3.Connection:
    """A byte copy of the template at a temporary name beside ``dest``, opened as
    :func:`connection.create_file` opens a new file (published or discarded the same way)."""
    if dest.exists():
        raise KnownError("a file already exists at this path; choose another name.", path=dest)
    tmp_path = dest.parent / f".{dest.name}.{secrets.token_hex(6)}.creating"
    _copy_bytes(source, tmp_path)
    conn = sqlite3.connect(conn_mod._uri(tmp_path, "rw"), uri=True, isolation_level=None,
                           timeout=5.0)
    conn_mod.apply_pragmas(conn)
    return conn


def _copy_bytes(source: Path, dest: Path) -> None:
    """Copy ``source`` to a new file ``dest`` with ``copy_file_range``: in the kernel, and
    on file systems that share blocks (Btrfs, XFS…) a clone that writes no data; where
    the call is missing or refused, by ``shutil``."""
    with open(source, "rb") as src, open(dest, "xb") as out:
        size = os.fstat(src.fileno()).st_size
        copy_range = getattr(os, "copy_file_range", None)
        copied = 0
        try:
            while copy_range is not None and copied < size:
                done = copy_range(src.fileno(), out.fileno(), size - copied)
                if done <= 0:
                    break
                copied += done
        except OSError:
            pass
        if copied < size:  # start again the portable way
            src.seek(0)
            out.seek(0)
            out.truncate()
            shutil.copyfileobj(src, out, 4 * 1024 * 1024)


class _master_attached:  # noqa: N801 - used as a statement: ``with _master_attached(…)``
    """The master attached read-only as ``m`` for the copies (detached after)."""

    def __init__(self, conn: sqlite3.Connection, master: Path) -> None:
        self.conn, self.master = conn, master

    def __enter__(self) -> None:
        self.conn.execute("ATTACH DATABASE ? AS m", (conn_mod._uri(self.master, "ro"),))

    def __exit__(self, *_exc: object) -> None:
        self.conn.execute("DETACH DATABASE m")


def _fill_shared(conn: sqlite3.Connection, campaign_id: int, items: str) -> None:
    """The template: meta, the campaign and (pairs) every case and document it hands out."""
    params = {"campaign": campaign_id}
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("INSERT INTO meta (key, value) SELECT key, value FROM m.meta "
                         "WHERE key = ?", [(k,) for k in _META])
        _copy(conn, "campaigns", "id = :campaign", params)
        if items == "pairs":
            slots = np.abs(np.concatenate([
                unpack(text) for (text,) in conn.execute(
                    "SELECT slots FROM m.queues WHERE campaign_id = ?", (campaign_id,))]))
            for table, ids in (("cases", slots >> 32), ("documents", slots & 0xFFFFFFFF)):
                # the campaign's ids, unique and sorted (a count per id: 2,100,000 slots
                # in milliseconds, where a sort took half a second)
                conn.execute(f"CREATE TEMP TABLE team_{table} (id INTEGER PRIMARY KEY)")
                conn.executemany(f"INSERT INTO temp.team_{table} VALUES (?)",
                                 ((i,) for i in np.flatnonzero(np.bincount(ids)).tolist()))
                if table == "documents":
                    _copy_documents(conn, "temp.team_documents")
                else:
                    _copy(conn, table, f"id IN (SELECT id FROM temp.team_{table})", {})
                conn.execute(f"DROP TABLE temp.team_{table}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _fill_own(conn: sqlite3.Connection, campaign_id: int, assessor_id: int, items: str,
              info: dict[str, str]) -> tuple[int, int]:
    """One expert's rows in their copy of the template; (slots, pairs) of their queue."""
    mine = "campaign_id = :campaign AND assessor_id = :assessor"
    params = {"campaign": campaign_id, "assessor": assessor_id}
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
            ("created_at", utc_now()),
            ("assignment", json.dumps(info, ensure_ascii=False, sort_keys=True))])
        _copy(conn, "assessors", "id = :assessor", {"assessor": assessor_id})
        _copy(conn, "campaign_assessors", mine, params)
        if items != "pairs":
            _copy_items(conn, items, params)
        _copy(conn, "queues", mine, params)
        slots, pairs = _counts([text for (text,) in conn.execute("SELECT slots FROM queues")])
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return slots, pairs


def _counts(queues: list[str]) -> tuple[int, int]:
    """(slots, slots that are not a control repeat) of packed queues, counted in their
    text: a slot is one integer of the JSON array, a control repeat the only negative ones.
    Expanding each 210,000-slot queue with ``json_each`` to count it cost ~55 ms a file,
    a sixth of a hand-out of ten."""
    slots = controls = 0
    for text in queues:
        if text.strip("[] \n"):
            slots += text.count(",") + 1
            controls += text.count("-")
    return slots, slots - controls


def _copy_items(conn: sqlite3.Connection, items: str, params: dict[str, int]) -> None:
    """A claims campaign's answers (with their runs' contexts) and claims, verdicts left
    out; a trajectories campaign's trajectories and steps, reviews left out: the expert
    verifies blind, in their own file.  Only this expert's items, and their cases."""
    table = "claims" if items == "claims" else "trajectories"
    conn.execute(f"CREATE TEMP TABLE team_mine AS SELECT value AS id FROM ({_MINE})", params)
    mine = "id IN (SELECT id FROM temp.team_mine)"
    try:
        claims = mine if table == "claims" else "0"
        trajectories = mine if table == "trajectories" else "0"
        answers = f"id IN (SELECT answer_id FROM m.claims WHERE {claims})"
        _copy(conn, "cases", f"id IN (SELECT case_id FROM m.answers WHERE {answers}) "
              f"OR id IN (SELECT case_id FROM m.trajectories WHERE {trajectories})", {})
        _copy(conn, "runs", f"id IN (SELECT run_id FROM m.answers WHERE {answers}) OR id IN "
              f"(SELECT run_id FROM m.trajectories WHERE {trajectories})", {})
        _copy(conn, "answers", answers, {})
        _copy(conn, "claims", claims, {}, blank=("verdict", "assessor_id", "updated_at"),
              empty=("rationale",))
        _copy(conn, "trajectories", trajectories, {})
        _copy(conn, "trajectory_steps", f"trajectory_id IN (SELECT id FROM m.trajectories "
              f"WHERE {trajectories})", {})
        conn.execute("CREATE TEMP TABLE team_documents (id INTEGER PRIMARY KEY)")
        conn.execute("INSERT OR IGNORE INTO temp.team_documents SELECT r.document_id "
                     "FROM m.retrieved r JOIN answers a ON a.run_id = r.run_id "
                     "AND a.case_id = r.case_id")
        _copy_documents(conn, "temp.team_documents")
        conn.execute("DROP TABLE temp.team_documents")
        _copy(conn, "retrieved", "EXISTS (SELECT 1 FROM answers a WHERE a.run_id = "
              "m.retrieved.run_id AND a.case_id = m.retrieved.case_id)", {})
    finally:
        conn.execute("DROP TABLE temp.team_mine")


def _copy_documents(conn: sqlite3.Connection, ids: str) -> None:
    """The documents whose ids are in the table ``ids``, with the documents their passages
    are part of (added to ``ids``) and the kept files of all of them, which come first."""
    conn.execute(f"INSERT OR IGNORE INTO {ids} (id) SELECT parent_id FROM m.documents "
                 f"WHERE id IN (SELECT id FROM {ids}) AND parent_id IS NOT NULL")
    _copy(conn, "document_files", f"id IN (SELECT file_id FROM m.documents WHERE id IN "
          f"(SELECT id FROM {ids}))", {})
    _copy(conn, "documents", f"id IN (SELECT id FROM {ids})", {}, blank=("supersedes_id",))


def _copy(conn: sqlite3.Connection, table: str, where: str, params: dict[str, int], *,
          blank: tuple[str, ...] = (), empty: tuple[str, ...] = ()) -> None:
    """``INSERT INTO table SELECT … FROM m.table WHERE …`` by column name (the two files'
    column orders may differ when one was migrated), ``blank`` columns set to NULL and
    ``empty`` ones to ''."""
    columns = _columns(conn, table)
    chosen = ", ".join("NULL" if c in blank else "''" if c in empty else c for c in columns)
    conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {chosen} FROM m.{table} "
                 f"WHERE {where} ORDER BY id", params)


def refuse_existing(dest: Path) -> None:
    """An assignment file is never overwritten: it may hold an expert's work."""
    if dest.exists() or dest.is_symlink():
        raise KnownError("an assignment file is already there (it may hold an expert's "
                         "work); choose another --out folder or move it away first.", path=dest)
