"""The SQL half of ``collect``: each assignment file attached read-only to the master, its
judgments checked and brought in without passing through Python row by row.

A collect brings ~200,000 judgments per file for a 1,000,000-pair campaign; checking each
in Python cost more than ten times the copy of the master.  Here, in two steps:

* **staged** (:func:`stage`, before the collect's transaction: SQLite detaches a file only
  outside one): the file (already opened and checked by ``GoldSetStore.open``: our schema,
  not damaged) is attached as ``incoming``, its judgments are copied, in pair order, into
  a TEMP table of their own (``team_raw_<n>``: never the master's bytes) and it is
  detached again;
* **classified and brought in**, inside the collect's one transaction (one savepoint per
  file, ``GoldSetStore.batch``): one statement gives every staged judgment a ``verdict``
  (``assessor``: not the file's assessor; ``slot``: not one of their non-control slots;
  ``grade``/``seconds``/``timestamp``/``note``: a value that cannot be trusted; ``new``,
  ``same``, ``update`` (theirs is newer and differs), ``older`` or ``nothing`` (an
  unjudged row with no label to bring)) against the master as the files before it left it,
  and the ``new`` ones are inserted by one ``INSERT … SELECT`` logged as ranges
  (:meth:`Operation.insert_select`), so one undo takes them back.

Keys, never ids, tie the two files together.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from rag_annotator.domain.team_plan import unique_sorted, unpack
from rag_annotator.messages import N_
from rag_annotator.storage import connection as conn_mod
from rag_annotator.storage.transaction import BULK_CACHE_KIB, Operation

#: The columns of a case an expert must not change in an assignment file.
CASE_CONTENT = ("kind", "question", "variants", "reference_answer", "must_contain",
                "forbidden", "expected_behaviour", "family", "tags", "difficulty", "role",
                "notes", "status")

#: Verdicts of rows that are not brought in and are listed as skipped, with the reason.
SKIPPED = {"assessor": N_("not this file's assessor"),
           "slot": N_("not one of the assessor's pairs"),
           "grade": N_("its grade is outside this file's scale"),
           "seconds": N_("its seconds are not a time from 0 to a day"),
           "timestamp": N_("its timestamp is not a believable date and time"),
           "note": N_("its note is not text")}

#: An incoming judgment's verdict (``j``: the incoming row; ``m``: the master's judgment of
#: the assessor on that pair; ``team_slots``: the assessor's own, not control, slots).
_VERDICT = """       CASE
         WHEN j.assessor IS NOT :assessor THEN 'assessor'
         WHEN mc.id IS NULL OR md.id IS NULL OR NOT EXISTS (
              SELECT 1 FROM temp.team_slots a WHERE a.case_id = mc.id
              AND a.document_id = md.id) THEN 'slot'
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
"""

#: The incoming rows, staged in key order (the master's ids follow its keys more or less,
#: so its indexes are then walked in order rather than at random — on a 450 MB master, the
#: difference between cached pages and a disk read per row).
_STAGE = """
CREATE TEMP TABLE {table} AS
SELECT fc.key AS case_key, fd.key AS doc_key, fs.name AS assessor, j.grade, j.seconds,
       j.note, j.updated_at
FROM incoming.judgments j
JOIN incoming.cases fc ON fc.id = j.case_id
JOIN incoming.documents fd ON fd.id = j.document_id
JOIN incoming.assessors fs ON fs.id = j.assessor_id
ORDER BY fc.key, fd.key
"""

#: The same when the file's case and document ids name the master's very cases and
#: documents (an assignment file is a copy: they do unless someone edited it; checked by
#: :data:`_SAME_IDS`): no key is looked up, and the rows are staged in pair order.  The
#: file's cases and documents are not read per row (a look-up by id reads the page holding
#: the document's text: the whole 80 MB of them per file): a row counts only if its pair is
#: one of the assessor's slots, which are the master's own ids.  (Staging in the file's own
#: order and sorting later was tried: SQLite's sorter took longer than this walk.)
_STAGE_IDS = """
CREATE TEMP TABLE {table} AS
SELECT j.case_id, j.document_id, fs.name AS assessor, j.grade, j.seconds, j.note,
       j.updated_at
FROM incoming.judgments j
JOIN incoming.assessors fs ON fs.id = j.assessor_id
ORDER BY j.case_id, j.document_id
"""

#: The staged rows' verdicts (the staged table is the left side: walked in its order),
#: stored in the master's pair order, which :func:`insert_new` inserts in (the staged
#: table of :data:`_CLASSIFY_IDS` is already in that order: it keeps it).
_CLASSIFY = f"""
CREATE TEMP TABLE team_in AS
SELECT mc.id AS case_id, md.id AS document_id, j.case_key, j.doc_key,
       j.assessor, j.grade, j.seconds, j.note, j.updated_at, m.id AS mine_id,
{_VERDICT}FROM temp.{{table}} j
LEFT JOIN main.cases mc ON mc.key = j.case_key
LEFT JOIN main.documents md ON md.key = j.doc_key
LEFT JOIN main.judgments m ON m.case_id = mc.id AND m.document_id = md.id
     AND m.assessor_id = :assessor_id
ORDER BY mc.id, md.id
"""

_CLASSIFY_IDS = """
CREATE TEMP TABLE team_in AS
SELECT j.case_id AS case_id, j.document_id AS document_id, NULL AS case_key,
       NULL AS doc_key, j.assessor, j.grade, j.seconds, j.note, j.updated_at,
       m.id AS mine_id,
{verdict}FROM temp.{{table}} j
LEFT JOIN main.judgments m ON m.case_id = j.case_id AND m.document_id = j.document_id
     AND m.assessor_id = :assessor_id
""".format(verdict=_VERDICT.replace("mc.id IS NULL OR md.id IS NULL OR ", (
    # a slot may name a case or document deleted since the hand-out: checked here, as the
    # collect writes with SQLite's foreign-key checks off (``GoldSetStore.batch``).  Each
    # ``+id`` list is read once per statement from a small covering index; a look-up per
    # row by id read the page holding the row's text (0.4 s a file for the documents)
    "j.case_id NOT IN (SELECT +id FROM main.cases) OR j.document_id NOT IN (SELECT +id "
    "FROM main.documents) OR ")).replace(
    "a.case_id = mc.id", "a.case_id = j.case_id").replace(
    "a.document_id = md.id", "a.document_id = j.document_id"))

#: Whether every case and document of the attached file has the master's id for its key.
#: Both sides are read through the unique key indexes (key → id), never the rows.
_SAME_IDS = (
    "SELECT NOT EXISTS (SELECT 1 FROM incoming.cases f WHERE NOT EXISTS (SELECT 1 FROM "
    "main.cases m WHERE m.key = f.key AND +m.id = f.id)) AND NOT EXISTS (SELECT 1 FROM "
    "incoming.documents f WHERE NOT EXISTS (SELECT 1 FROM main.documents m "
    "WHERE m.key = f.key AND +m.id = f.id))")

_CONFLICTS = (
    "SELECT 'case', fc.key, mc.id IS NULL FROM incoming.cases fc "
    "LEFT JOIN main.cases mc ON mc.key = fc.key WHERE mc.id IS NULL OR "
    + " OR ".join(f"fc.{c} IS NOT mc.{c}" for c in CASE_CONTENT)
    + " UNION ALL SELECT 'document', fd.key, md.id IS NULL FROM incoming.documents fd "
    "LEFT JOIN main.documents md ON md.key = fd.key WHERE md.id IS NULL "
    "OR fd.title IS NOT md.title OR fd.content_hash IS NOT md.content_hash ORDER BY 1, 2")


@contextmanager
def session(conn: sqlite3.Connection) -> Iterator[None]:
    """The settings of one whole collect (both steps): its TEMP tables (~200,000 rows per
    file) in memory, not in a temporary file, with the bulk inserts' page cache; set once,
    because changing ``temp_store`` drops every TEMP table.  Restored after (which drops
    what the collect staged)."""
    store = int(conn.execute("PRAGMA temp_store").fetchone()[0])
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute(f"PRAGMA temp.cache_size = {-BULK_CACHE_KIB}")
    try:
        yield
    finally:
        if conn.in_transaction:  # an error out of a batch rolls it back before this
            conn.execute("ROLLBACK")
        conn.execute(f"PRAGMA temp_store = {store}")


@contextmanager
def attached(conn: sqlite3.Connection, path: Path) -> Iterator[None]:
    """``path`` attached read-only as ``incoming`` (detached after; outside any
    transaction: SQLite detaches a file a transaction has read only once it ends)."""
    conn.execute("ATTACH DATABASE ? AS incoming", (conn_mod._uri(path, "ro"),))
    # joins over ~200,000 rows of each file: the bulk inserts' page cache, not 2 MB
    previous = int(conn.execute("PRAGMA main.cache_size").fetchone()[0])
    for schema in ("main", "incoming"):
        conn.execute(f"PRAGMA {schema}.cache_size = {-BULK_CACHE_KIB}")
    try:
        yield
    finally:
        conn.execute("DETACH DATABASE incoming")
        conn.execute(f"PRAGMA main.cache_size = {previous}")


def conflicts(conn: sqlite3.Connection) -> list[tuple[str, str, bool]]:
    """(``case``/``document``, key, missing from the master) of the shared content the
    incoming file changed or added."""
    return [(str(kind), str(key), bool(missing))
            for kind, key, missing in conn.execute(_CONFLICTS)]


def stage(conn: sqlite3.Connection, number: int) -> bool:
    """Copy the attached file's judgments into ``temp.team_raw_<number>`` (see the module);
    True when they are staged by the master's ids (the file's ids are the master's)."""
    same_ids = bool(conn.execute(_SAME_IDS).fetchone()[0])
    conn.execute((_STAGE_IDS if same_ids else _STAGE).format(table=_raw(number)))
    return same_ids


def _raw(number: int) -> str:
    return f"team_raw_{int(number)}"


def unstage(conn: sqlite3.Connection, number: int) -> None:
    """Drop what :func:`stage` and :func:`classify` left for file ``number``."""
    for table in (_raw(number), "team_in", "team_slots"):
        conn.execute(f"DROP TABLE IF EXISTS temp.{table}")


#: Stands for ``main.judgments`` when the assessor holds none there: one row of NULLs,
#: joined on a term that is always false (``m.id`` is NULL), so every ``m`` column is NULL.
_NONE_HELD = ("LEFT JOIN (SELECT NULL AS id, NULL AS case_id, NULL AS document_id, "
              "NULL AS assessor_id, NULL AS grade, NULL AS seconds, NULL AS note, "
              "NULL AS updated_at) m ON m.id IS NOT NULL AND ")


def classify(conn: sqlite3.Connection, number: int, same_ids: bool,
             params: dict[str, Any]) -> dict[str, int]:
    """Fill ``team_in`` from the staged file ``number`` (see the module) and count its
    verdicts.  ``params``: ``assessor``, ``assessor_id``, ``campaign``, ``max_grade``,
    ``max_seconds``, ``latest``."""
    for table in ("team_in", "team_slots"):
        conn.execute(f"DROP TABLE IF EXISTS temp.{table}")
    conn.execute("CREATE TEMP TABLE team_slots (case_id INTEGER, document_id INTEGER, "
                 "PRIMARY KEY (case_id, document_id)) WITHOUT ROWID")
    # the assessor's own (not control) slots, unpacked from their queue row, sorted
    row = conn.execute("SELECT slots FROM main.queues WHERE campaign_id = ? AND "
                       "assessor_id = ?", (params["campaign"], params["assessor_id"])).fetchone()
    slots = unpack(row[0]) if row else np.zeros(0, dtype=np.int64)
    slots = unique_sorted(slots[slots > 0])
    conn.execute("INSERT INTO temp.team_slots SELECT value >> 32, value & 4294967295 "
                 "FROM json_each(?)", (json.dumps(slots.tolist()),))
    sql = (_CLASSIFY_IDS if same_ids else _CLASSIFY).format(table=_raw(number))
    if not conn.execute("SELECT EXISTS (SELECT 1 FROM main.judgments WHERE assessor_id = ?)",
                        (params["assessor_id"],)).fetchone()[0]:
        # the assessor's first collect (the common case): nothing of theirs to look up
        # 200,000 times in the judgments' unique index (a constant-false ON term would
        # not do: SQLite then scans the whole table for each row)
        sql = sql.replace("LEFT JOIN main.judgments m ON ", _NONE_HELD)
    conn.execute(sql, params)
    return {str(v): int(n) for v, n in conn.execute(
        "SELECT verdict, count(*) FROM temp.team_in GROUP BY verdict")}


def skipped(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(verdict, case key, document key, assessor) of the rows not brought in."""
    marks = ", ".join("?" for _ in SKIPPED)
    return [(str(v), str(c), str(d), str(a)) for v, c, d, a in conn.execute(
        f"SELECT verdict, c, d, assessor FROM (SELECT verdict, assessor, coalesce(case_key, "
        f"(SELECT key FROM main.cases WHERE id = case_id)) AS c, coalesce(doc_key, (SELECT "
        f"key FROM main.documents WHERE id = document_id)) AS d FROM temp.team_in "
        f"WHERE verdict IN ({marks})) ORDER BY c, d", tuple(SKIPPED))]


def updates(conn: sqlite3.Connection) -> list[tuple[int, dict[str, Any]]]:
    """(judgment id, new values) of the rows whose incoming label is newer and differs."""
    return [(int(i), {"grade": g, "seconds": s, "note": n, "updated_at": at})
            for i, g, s, n, at in conn.execute(
                "SELECT mine_id, grade, seconds, note, updated_at FROM temp.team_in "
                "WHERE verdict = 'update' ORDER BY mine_id")]


def insert_new(op: Operation, assessor_id: int) -> int:
    """Insert the ``new`` rows as judgments of ``assessor_id``, in pair order (the order
    :func:`classify` stored them in: the unique index is then walked from its start to
    its end once, not at random), logged as ranges."""
    return op.insert_select(
        "judgments", ("case_id", "document_id", "assessor_id", "grade", "seconds", "note",
                      "updated_at"),
        "SELECT case_id, document_id, ?, grade, seconds, note, updated_at FROM temp.team_in "
        "WHERE verdict = 'new' ORDER BY rowid", (assessor_id,))
