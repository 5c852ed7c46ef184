"""The SQL half of ``collect``: an assignment file attached read-only to the master, its
judgments checked and brought in without passing through Python row by row.

A collect brings ~200,000 judgments per file for a 1,000,000-pair campaign; checking each
in Python cost more than ten times the copy of the master.  Here the file (already opened
and checked by ``GoldSetStore.open``: our schema, not damaged) is attached as ``incoming``;
one statement gives every incoming judgment a ``verdict`` (``assessor``: not the file's
assessor; ``slot``: not one of their non-control slots; ``grade``/``seconds``/``timestamp``/
``note``: a value that cannot be trusted; ``new``, ``same``, ``update`` (theirs is newer and
differs), ``older`` or ``nothing`` (an unjudged row with no label to bring)) into a TEMP
table (never the master's bytes), and the ``new`` ones are inserted by one
``INSERT … SELECT`` logged as ranges (:meth:`Operation.insert_select`), so one undo takes
them back.  Keys, never ids, tie the two files together.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rag_annotator.storage import connection as conn_mod
from rag_annotator.storage.transaction import Operation

#: The columns of a case an expert must not change in an assignment file.
CASE_CONTENT = ("kind", "question", "variants", "reference_answer", "must_contain",
                "forbidden", "expected_behaviour", "family", "tags", "difficulty", "role",
                "notes", "status")

#: Verdicts of rows that are not brought in and are listed as skipped, with the reason.
SKIPPED = {"assessor": "not this file's assessor", "slot": "not one of the assessor's pairs",
           "grade": "its grade is outside this file's scale",
           "seconds": "its seconds are not a time from 0 to a day",
           "timestamp": "its timestamp is not a believable date and time",
           "note": "its note is not text"}

_CLASSIFY = """
CREATE TEMP TABLE team_in AS
SELECT mc.id AS case_id, md.id AS document_id, fc.key AS case_key, fd.key AS doc_key,
       fs.name AS assessor, j.grade, j.seconds, j.note, j.updated_at, m.id AS mine_id,
       CASE
         WHEN fs.name IS NOT :assessor THEN 'assessor'
         WHEN mc.id IS NULL OR md.id IS NULL OR NOT EXISTS (
              SELECT 1 FROM main.assignments a WHERE a.case_id = mc.id
              AND a.document_id = md.id AND a.campaign_id = :campaign
              AND a.assessor_id = :assessor_id AND NOT a.is_control) THEN 'slot'
         WHEN j.grade IS NOT NULL AND (typeof(j.grade) != 'integer' OR j.grade < 0
              OR j.grade > :max_grade) THEN 'grade'
         WHEN j.seconds IS NOT NULL AND (typeof(j.seconds) NOT IN ('integer', 'real')
              OR j.seconds < 0 OR j.seconds > :max_seconds) THEN 'seconds'
         WHEN typeof(j.updated_at) != 'text' OR julianday(j.updated_at) IS NULL
              OR julianday(j.updated_at) > julianday(:latest) THEN 'timestamp'
         WHEN typeof(j.note) != 'text' THEN 'note'
         WHEN m.id IS NULL THEN CASE WHEN j.grade IS NULL THEN 'nothing' ELSE 'new' END
         WHEN m.grade IS j.grade AND m.seconds IS j.seconds AND m.note IS j.note THEN 'same'
         WHEN julianday(m.updated_at) IS NULL
              OR julianday(j.updated_at) > julianday(m.updated_at) THEN 'update'
         ELSE 'older'
       END AS verdict
FROM incoming.judgments j
JOIN incoming.cases fc ON fc.id = j.case_id
JOIN incoming.documents fd ON fd.id = j.document_id
JOIN incoming.assessors fs ON fs.id = j.assessor_id
LEFT JOIN main.cases mc ON mc.key = fc.key
LEFT JOIN main.documents md ON md.key = fd.key
LEFT JOIN main.judgments m ON m.case_id = mc.id AND m.document_id = md.id
     AND m.assessor_id = :assessor_id
"""

_CONFLICTS = (
    "SELECT 'case', fc.key, mc.id IS NULL FROM incoming.cases fc "
    "LEFT JOIN main.cases mc ON mc.key = fc.key WHERE mc.id IS NULL OR "
    + " OR ".join(f"fc.{c} IS NOT mc.{c}" for c in CASE_CONTENT)
    + " UNION ALL SELECT 'document', fd.key, md.id IS NULL FROM incoming.documents fd "
    "LEFT JOIN main.documents md ON md.key = fd.key WHERE md.id IS NULL "
    "OR fd.title IS NOT md.title OR fd.content_hash IS NOT md.content_hash ORDER BY 1, 2")


@contextmanager
def attached(conn: sqlite3.Connection, path: Path) -> Iterator[None]:
    """``path`` attached read-only as ``incoming`` (outside any transaction: SQLite refuses
    ATTACH inside one), with the ``team_in`` TEMP table dropped and the file detached after."""
    conn.execute("ATTACH DATABASE ? AS incoming", (conn_mod._uri(path, "ro"),))
    try:
        yield
    finally:
        conn.execute("DROP TABLE IF EXISTS temp.team_in")
        conn.execute("DETACH DATABASE incoming")


def conflicts(conn: sqlite3.Connection) -> list[tuple[str, str, bool]]:
    """(``case``/``document``, key, missing from the master) of the shared content the
    incoming file changed or added."""
    return [(str(kind), str(key), bool(missing))
            for kind, key, missing in conn.execute(_CONFLICTS)]


def classify(conn: sqlite3.Connection, params: dict[str, Any]) -> dict[str, int]:
    """Fill ``team_in`` (see the module) and count its verdicts.  ``params``: ``assessor``,
    ``assessor_id``, ``campaign``, ``max_grade``, ``max_seconds``, ``latest``."""
    conn.execute(_CLASSIFY, params)
    return {str(v): int(n) for v, n in conn.execute(
        "SELECT verdict, count(*) FROM temp.team_in GROUP BY verdict")}


def skipped(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(verdict, case key, document key, assessor) of the rows not brought in."""
    marks = ", ".join("?" for _ in SKIPPED)
    return [(str(v), str(c), str(d), str(a)) for v, c, d, a in conn.execute(
        f"SELECT verdict, case_key, doc_key, assessor FROM temp.team_in WHERE verdict IN "
        f"({marks}) ORDER BY case_key, doc_key", tuple(SKIPPED))]


def updates(conn: sqlite3.Connection) -> list[tuple[int, dict[str, Any]]]:
    """(judgment id, new values) of the rows whose incoming label is newer and differs."""
    return [(int(i), {"grade": g, "seconds": s, "note": n, "updated_at": at})
            for i, g, s, n, at in conn.execute(
                "SELECT mine_id, grade, seconds, note, updated_at FROM temp.team_in "
                "WHERE verdict = 'update' ORDER BY mine_id")]


def insert_new(op: Operation, assessor_id: int) -> int:
    """Insert the ``new`` rows as judgments of ``assessor_id``, in pair order (the unique
    index grows at its end), logged as ranges."""
    return op.insert_select(
        "judgments", ("case_id", "document_id", "assessor_id", "grade", "seconds", "note",
                      "updated_at"),
        "SELECT case_id, document_id, ?, grade, seconds, note, updated_at FROM temp.team_in "
        "WHERE verdict = 'new' ORDER BY case_id, document_id", (assessor_id,))
