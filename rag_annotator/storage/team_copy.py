"""Write one assessor's assignment file from the master, in SQL, and read one back.

An assignment file is a whole gold-set file (this build's schema, made by its migrations)
holding only what its expert needs: the gold set's name, grading scale and guidelines, the
cases and documents of their pairs, the campaign row and their queue.  No run, no rank, no
score, no other assessor's label, no expected source (the expert judges blind).  Rows keep
the master's ids (the copy is ``INSERT … SELECT`` from the master attached read-only, which is
what makes handing out a million pairs cost about one copy of the master), yet ``collect``
matches everything by natural keys: the expert's file is untrusted when it comes back.

A document's ``supersedes_id`` / ``parent_id`` are left empty in the copy: the documents they
name are usually not in it, and the expert reads the text, not the version chain.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from rag_annotator.domain.clock import utc_now
from rag_annotator.errors import KnownError
from rag_annotator.storage import connection as conn_mod
from rag_annotator.storage.schema import apply_migrations
from rag_annotator.storage.transaction import BULK_CACHE_KIB

#: meta keys copied from the master (the rest is the master's own business).
_META = ("name", "guidelines", "max_grade")


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")]


def write_assignment(master: Path, dest: Path, campaign_id: int, assessor_id: int,
                     info: dict[str, str]) -> tuple[int, int]:
    """Create ``dest`` (refused if it exists) as the assignment file of ``assessor_id`` in
    ``campaign_id`` of the (closed or committed) master file; return its number of slots
    and of pairs (slots that are not control repeats).

    ``info`` is written to ``meta.assignment`` (JSON).  The file appears whole or not at all.
    """
    conn = conn_mod.create_file(dest)
    try:
        apply_migrations(conn)
        # the copy builds its indexes in random order: with SQLite's 2 MB default cache a
        # 100 MB assignment file thrashed for 20 s; the bulk inserts' cache makes it ~1 s
        conn.execute(f"PRAGMA cache_size = {-BULK_CACHE_KIB}")
        conn.execute("ATTACH DATABASE ? AS m", (conn_mod._uri(master, "ro"),))
        try:
            counts = _fill(conn, campaign_id, assessor_id, info)
        finally:
            conn.execute("DETACH DATABASE m")
    except BaseException:
        conn_mod.discard_new_file(conn)
        raise
    conn_mod.publish_new_file(conn, dest)
    return counts


def _fill(conn: sqlite3.Connection, campaign_id: int, assessor_id: int,
          info: dict[str, str]) -> tuple[int, int]:
    mine = "campaign_id = :campaign AND assessor_id = :assessor"
    params = {"campaign": campaign_id, "assessor": assessor_id}
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("INSERT INTO meta (key, value) SELECT key, value FROM m.meta "
                         "WHERE key = ?", [(k,) for k in _META])
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
            ("created_at", utc_now()),
            ("assignment", json.dumps(info, ensure_ascii=False, sort_keys=True))])
        _copy(conn, "assessors", "id = :assessor", {"assessor": assessor_id})
        _copy(conn, "campaigns", "id = :campaign", {"campaign": campaign_id})
        _copy(conn, "campaign_assessors", mine, params)
        claims = f"SELECT claim_id FROM m.assignments WHERE {mine}"
        trajectories = f"SELECT trajectory_id FROM m.assignments WHERE {mine}"
        _copy(conn, "cases", f"id IN (SELECT case_id FROM m.assignments WHERE {mine}) "
              f"OR id IN (SELECT case_id FROM m.answers WHERE id IN (SELECT answer_id FROM "
              f"m.claims WHERE id IN ({claims}))) "
              f"OR id IN (SELECT case_id FROM m.trajectories WHERE id IN ({trajectories}))",
              params)
        _copy_items(conn, mine, params)
        _copy(conn, "documents", f"id IN (SELECT document_id FROM m.assignments WHERE {mine}) "
              "OR id IN (SELECT r.document_id FROM m.retrieved r JOIN answers a ON "
              "a.run_id = r.run_id AND a.case_id = r.case_id)",
              params, blank=("supersedes_id", "parent_id"))
        _copy(conn, "retrieved", "EXISTS (SELECT 1 FROM answers a WHERE a.run_id = "
              "m.retrieved.run_id AND a.case_id = m.retrieved.case_id)", {})
        _copy(conn, "assignments", mine, params)
        slots, pairs = (int(n or 0) for n in conn.execute(
            "SELECT count(*), sum(NOT is_control) FROM assignments").fetchone())
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return slots, pairs


def _copy_items(conn: sqlite3.Connection, mine: str, params: dict[str, int]) -> None:
    """A claims campaign's answers (with their runs' contexts, copied by the caller) and
    claims, verdicts left out; a trajectories campaign's trajectories and steps, reviews
    left out: the expert verifies blind, in their own file."""
    claims = f"id IN (SELECT claim_id FROM m.assignments WHERE {mine})"
    trajectories = f"id IN (SELECT trajectory_id FROM m.assignments WHERE {mine})"
    answers = f"id IN (SELECT answer_id FROM m.claims WHERE {claims})"
    _copy(conn, "runs", f"id IN (SELECT run_id FROM m.answers WHERE {answers}) OR id IN "
          f"(SELECT run_id FROM m.trajectories WHERE {trajectories})", params)
    _copy(conn, "answers", answers, params)
    _copy(conn, "claims", claims, params, blank=("verdict", "assessor_id", "updated_at"),
          empty=("rationale",))
    _copy(conn, "trajectories", trajectories, params)
    _copy(conn, "trajectory_steps", f"trajectory_id IN (SELECT trajectory_id FROM "
          f"m.assignments WHERE {mine})", params)


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
