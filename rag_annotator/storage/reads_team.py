"""Store reads for judging as a team: campaigns, an assessor's queue and its progress, the
identity of the file, and what ``collect`` and the team figures read.

An *assignment file* is a gold-set file whose ``meta`` has the key ``assignment`` (JSON:
``campaign`` uuid, ``master`` uuid, ``assessor`` name, ``name`` of the campaign);
:meth:`TeamReads.assignment_info` returns it, or None for any other file.  Its queue is
:meth:`TeamReads.assignment_queue` (in order) and :meth:`TeamReads.assignment_progress`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag_annotator.storage.reads import ReadBase, Row, json_list
from rag_annotator.storage.transaction import BULK_CACHE_KIB

if TYPE_CHECKING:
    import numpy as np

# numpy, ``team_plan`` and ``team_merge`` (numpy too) are imported by the reads that use
# them: every ``GoldSetStore`` has these reads, and numpy costs ~0.1 s at start-up, which
# opening a file in the app or the CLI never needs (issue 19).

#: The universe of a campaign: the top ?2 documents (NULL: all) of the runs named in the
#: JSON list ?1 (NULL: every run) plus expected sources, of RAG cases only, each pair packed
#: as ``(case_id << 32) + document_id`` (duplicates left in: numpy drops them, sorted, in a
#: fraction of what SQL's DISTINCT over a million rows costs).
_POOL_SQL = """
SELECT (r.case_id << 32) + r.document_id AS v FROM retrieved r
WHERE (?2 IS NULL OR r.rank <= ?2)
  AND (?1 IS NULL OR r.run_id IN (SELECT id FROM runs WHERE name IN (SELECT value FROM
                                                                     json_each(?1))))
  AND r.case_id IN (SELECT id FROM cases WHERE kind = 'rag')
UNION ALL SELECT (e.case_id << 32) + e.document_id FROM expected_sources e
WHERE e.case_id IN (SELECT id FROM cases WHERE kind = 'rag')
"""


#: One row per slot of an assessor's queue, with what the assessor did there (unordered):
#: the packed ``queues`` row expanded (see ``storage.schema_sql``); a slot whose case or
#: document was deleted drops out.
_QUEUE_SQL = """
SELECT a.id, a.position, a.case_id, a.document_id, a.is_control, c.key AS "case",
       d.key AS document,
       CASE WHEN a.is_control THEN k.grade ELSE j.grade END AS grade,
       CASE WHEN a.is_control THEN k.seconds ELSE j.seconds END AS seconds,
       n.reason AS cannot_judge
FROM (SELECT (q.id << 32) + e.key + 1 AS id, e.key + 1 AS position, q.campaign_id,
             q.assessor_id, abs(e.value) >> 32 AS case_id,
             abs(e.value) & 4294967295 AS document_id, e.value < 0 AS is_control
      FROM queues q, json_each(q.slots) e WHERE q.campaign_id = ?1 AND q.assessor_id = ?2) a
JOIN cases c ON c.id = a.case_id JOIN documents d ON d.id = a.document_id
LEFT JOIN judgments j ON j.case_id = a.case_id AND j.document_id = a.document_id
     AND j.assessor_id = a.assessor_id
LEFT JOIN control_judgments k ON k.campaign_id = a.campaign_id AND k.case_id = a.case_id
     AND k.document_id = a.document_id AND k.assessor_id = a.assessor_id
LEFT JOIN cannot_judge n ON n.case_id = a.case_id AND n.document_id = a.document_id
     AND n.assessor_id = a.assessor_id
"""


#: Every answer an assessor gave on a claim or a trajectory (``metrics.team_items``): their
#: own verdicts of a campaign (``*_assessments``), and the one stored on the item itself by
#: its assessor when that assessor has no own row for it (an assignment file keeps its
#: expert's verdicts there; a master, the verdict its lead gave).  ``unit`` names the item the
#: same way in every file of a campaign (run, case key, position or trial), not by id.
_ITEM_VERDICTS_SQL = """
WITH claim_units AS (
    SELECT cl.id AS id, r.name || char(31) || c.key || char(31) || cl.position AS unit
    FROM claims cl JOIN answers a ON a.id = cl.answer_id JOIN runs r ON r.id = a.run_id
    JOIN cases c ON c.id = a.case_id),
traj_units AS (
    SELECT t.id AS id, r.name || char(31) || c.key || char(31) || t.trial AS unit
    FROM trajectories t JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id),
traj_answers AS (
    SELECT v.trajectory_id, v.assessor_id, v.task_success, v.path_acceptable
    FROM trajectory_assessments v
    UNION ALL
    SELECT r.trajectory_id, r.assessor_id, r.task_success, r.path_acceptable
    FROM trajectory_reviews r WHERE NOT EXISTS (
        SELECT 1 FROM trajectory_assessments v
        WHERE v.trajectory_id = r.trajectory_id AND v.assessor_id = r.assessor_id))
SELECT 'claims' AS items, 'verdict' AS question, u.unit AS unit, s.name AS assessor,
       v.verdict AS label
FROM claim_assessments v JOIN claim_units u ON u.id = v.claim_id
JOIN assessors s ON s.id = v.assessor_id WHERE v.verdict IS NOT NULL
UNION ALL
SELECT 'claims', 'verdict', u.unit, s.name, cl.verdict
FROM claims cl JOIN claim_units u ON u.id = cl.id JOIN assessors s ON s.id = cl.assessor_id
WHERE cl.verdict IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM claim_assessments v WHERE v.claim_id = cl.id
    AND v.assessor_id = cl.assessor_id AND v.verdict IS NOT NULL)
UNION ALL
SELECT 'trajectories', 'task_success', u.unit, s.name, CAST(x.task_success AS TEXT)
FROM traj_answers x JOIN traj_units u ON u.id = x.trajectory_id
JOIN assessors s ON s.id = x.assessor_id WHERE x.task_success IS NOT NULL
UNION ALL
SELECT 'trajectories', 'path_acceptable', u.unit, s.name, CAST(x.path_acceptable AS TEXT)
FROM traj_answers x JOIN traj_units u ON u.id = x.trajectory_id
JOIN assessors s ON s.id = x.assessor_id WHERE x.path_acceptable IS NOT NULL
"""

#: The team sections of the native JSON export by natural keys: section → (columns, SQL).
#: A slot names a pair (``case``, ``document``), a claim (``run``, ``case``,
#: ``claim_position``) or a trajectory (``run``, ``case``, ``trajectory_trial``); the other
#: item columns are NULL.  Orders are fixed (the export gives the same bytes every time).
_EXPORT_SQL: dict[str, tuple[tuple[str, ...], str]] = {
    "campaigns": (
        ("uuid", "name", "per_pair", "seed", "control_share", "pool_runs", "pool_depth",
         "master", "created_at", "assessors", "items"),
        "SELECT g.uuid, g.name, g.per_pair, g.seed, g.control_share, g.pool_runs, "
        "g.pool_depth, g.master, g.created_at, (SELECT json_group_array(name) FROM ("
        "SELECT s.name FROM campaign_assessors ca JOIN assessors s ON s.id = ca.assessor_id "
        "WHERE ca.campaign_id = g.id ORDER BY ca.id)), g.items FROM campaigns g ORDER BY g.id"),
    "assignments": (
        ("campaign", "assessor", "position", "case", "document", "is_control", "run",
         "claim_position", "trajectory_trial"),
        "SELECT g.uuid, s.name, a.position, coalesce(c.key, xc.key, tc.key), d.key, "
        "a.is_control, coalesce(xr.name, tr.name), x.position, t.trial FROM assignments a "
        "JOIN campaigns g ON g.id = a.campaign_id JOIN assessors s ON s.id = a.assessor_id "
        "LEFT JOIN cases c ON c.id = a.case_id LEFT JOIN documents d ON d.id = a.document_id "
        "LEFT JOIN claims x ON x.id = a.claim_id LEFT JOIN answers xa ON xa.id = x.answer_id "
        "LEFT JOIN runs xr ON xr.id = xa.run_id LEFT JOIN cases xc ON xc.id = xa.case_id "
        "LEFT JOIN trajectories t ON t.id = a.trajectory_id "
        "LEFT JOIN runs tr ON tr.id = t.run_id LEFT JOIN cases tc ON tc.id = t.case_id "
        "ORDER BY g.id, s.name, a.position"),
    "control_judgments": (
        ("campaign", "case", "document", "assessor", "grade", "seconds", "updated_at"),
        "SELECT g.uuid, c.key, d.key, s.name, k.grade, k.seconds, k.updated_at "
        "FROM control_judgments k JOIN campaigns g ON g.id = k.campaign_id "
        "JOIN assessors s ON s.id = k.assessor_id JOIN cases c ON c.id = k.case_id "
        "JOIN documents d ON d.id = k.document_id ORDER BY g.id, c.key, d.key, s.name"),
    "cannot_judge": (
        ("case", "document", "assessor", "reason", "updated_at"),
        "SELECT c.key, d.key, s.name, n.reason, n.updated_at FROM cannot_judge n "
        "JOIN assessors s ON s.id = n.assessor_id JOIN cases c ON c.id = n.case_id "
        "JOIN documents d ON d.id = n.document_id ORDER BY c.key, d.key, s.name"),
    "claim_assessments": (
        ("campaign", "run", "case", "position", "assessor", "verdict", "rationale",
         "updated_at"),
        "SELECT g.uuid, r.name, c.key, x.position, s.name, v.verdict, v.rationale, "
        "v.updated_at FROM claim_assessments v JOIN campaigns g ON g.id = v.campaign_id "
        "JOIN claims x ON x.id = v.claim_id JOIN answers a ON a.id = x.answer_id "
        "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
        "JOIN assessors s ON s.id = v.assessor_id "
        "ORDER BY g.id, r.name, c.key, x.position, x.id, s.name"),
    "trajectory_assessments": (
        ("campaign", "run", "case", "trial", "assessor", "task_success", "success_reason",
         "path_acceptable", "path_reason", "note", "updated_at"),
        "SELECT g.uuid, r.name, c.key, t.trial, s.name, v.task_success, v.success_reason, "
        "v.path_acceptable, v.path_reason, v.note, v.updated_at "
        "FROM trajectory_assessments v JOIN campaigns g ON g.id = v.campaign_id "
        "JOIN trajectories t ON t.id = v.trajectory_id JOIN runs r ON r.id = t.run_id "
        "JOIN cases c ON c.id = t.case_id JOIN assessors s ON s.id = v.assessor_id "
        "ORDER BY g.id, r.name, c.key, t.trial, s.name"),
}

#: Per assessor and kind of item (claims, trajectories), their latest such campaign's slots
#: and how many are done: a verdict of theirs collected into the master (``claim_assessments``
#: / ``trajectory_assessments``) or given in their own assignment file (the claim's verdict
#: by them, their review of the trajectory).
_ITEM_PROGRESS_SQL = """
WITH latest AS (
    SELECT ca.assessor_id, c.items, max(ca.campaign_id) AS campaign_id
    FROM campaign_assessors ca JOIN campaigns c ON c.id = ca.campaign_id
    WHERE c.items != 'pairs' GROUP BY ca.assessor_id, c.items)
SELECT s.name AS name, l.items AS items, count(a.id) AS assigned, coalesce(sum(
    CASE WHEN l.items = 'claims' THEN
        EXISTS (SELECT 1 FROM claim_assessments v WHERE v.claim_id = a.claim_id
                AND v.assessor_id = a.assessor_id AND v.verdict IS NOT NULL)
        OR EXISTS (SELECT 1 FROM claims x WHERE x.id = a.claim_id
                   AND x.assessor_id = a.assessor_id AND x.verdict IS NOT NULL)
    ELSE
        EXISTS (SELECT 1 FROM trajectory_assessments v WHERE v.trajectory_id = a.trajectory_id
                AND v.assessor_id = a.assessor_id)
        OR EXISTS (SELECT 1 FROM trajectory_reviews r WHERE r.trajectory_id = a.trajectory_id
                   AND r.assessor_id = a.assessor_id)
    END), 0) AS done
FROM latest l JOIN assessors s ON s.id = l.assessor_id
JOIN assignments a ON a.campaign_id = l.campaign_id AND a.assessor_id = l.assessor_id
GROUP BY s.name, l.items ORDER BY s.name, l.items
"""

#: The team sections of the native JSON, in the order they are written and read.
TEAM_SECTIONS = tuple(_EXPORT_SQL)


class TeamReads(ReadBase):
    """Read queries of team judging, mixed into the store."""

    # -- identity ----------------------------------------------------------------------
    def file_uuid(self) -> str:
        """The file's identity (``meta.file_uuid``); '' until its first campaign."""
        return self.meta("file_uuid")

    def assignment_info(self) -> dict[str, str] | None:
        """What makes this an assignment file: ``campaign``, ``master``, ``assessor`` and
        ``name``; None for a master or an ordinary file (or an unreadable entry)."""
        text = self.meta("assignment")
        if not text:
            return None
        try:
            value = json.loads(text)
        except ValueError:
            return None
        keys = ("campaign", "master", "assessor", "name")
        if not isinstance(value, dict) or not all(isinstance(value.get(k), str)
                                                  for k in keys):
            return None
        return {k: value[k] for k in keys}

    # -- campaigns ---------------------------------------------------------------------
    def campaign_pool(self, runs: Sequence[str] | None, depth: int | None
                      ) -> list[tuple[int, int]]:
        """The (case id, document id) pairs a campaign hands out, in id order: the top
        ``depth`` documents of ``runs`` plus the expected sources (both None: the file's
        pool setting), RAG cases only."""
        packed = self.campaign_pool_packed(runs, depth)
        return list(zip((packed >> 32).tolist(), (packed & 0xFFFFFFFF).tolist()))

    def campaign_pool_packed(self, runs: Sequence[str] | None, depth: int | None
                             ) -> np.ndarray:
        """:meth:`campaign_pool` as one sorted array of ``(case_id << 32) + document_id``
        (what the planner takes: no Python tuple per pair)."""
        if runs is None and depth is None:
            runs, depth = self._pool_setting()
        runs_json = None if runs is None else json.dumps(sorted(set(runs)))
        (text,) = self._conn.execute(f"SELECT json_group_array(v) FROM ({_POOL_SQL})",
                                     (runs_json, depth)).fetchone()
        from rag_annotator.domain import team_plan

        # one JSON text, not a Python row per pair (~10x faster for a million pairs)
        return team_plan.unique_sorted(team_plan.unpack(text))

    def campaign_items(self, items: str, runs: Sequence[str] | None) -> list[tuple[int, int]]:
        """The claims (``items="claims"``) or trajectories a campaign hands out, as
        ``(id, 0)`` in id order: those of ``runs``' answers / trajectories (None: every
        run).  Unknown run names give nothing (the caller refuses an empty pool)."""
        source = {"claims": "claims x JOIN answers a ON a.id = x.answer_id",
                  "trajectories": "trajectories x JOIN trajectories a ON a.id = x.id"}[items]
        names = None if runs is None else json.dumps(sorted(set(runs)))
        sql = (f"SELECT x.id FROM {source} JOIN runs r ON r.id = a.run_id "
               "WHERE ? IS NULL OR r.name IN (SELECT value FROM json_each(?)) ORDER BY x.id")
        return [(int(i), 0) for (i,) in self._conn.execute(sql, (names, names))]

    def _pool_setting(self) -> tuple[list[str] | None, int | None]:
        found = dict(self._conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('pool_runs', 'pool_depth')"))
        runs_text, depth_text = found.get("pool_runs") or "", found.get("pool_depth") or ""
        runs = [str(r) for r in json_list(runs_text)] if runs_text else None
        depth = int(depth_text) if depth_text.isdigit() and int(depth_text) > 0 else None
        return runs, depth

    def campaigns(self) -> list[Row]:
        """Every campaign, oldest first, with ``assessors`` (names, in the order given) and
        ``slots`` (slots handed out, control repeats included)."""
        rows = self._many(
            "SELECT c.*, (SELECT json_group_array(s.name) FROM (SELECT s.name FROM "
            "campaign_assessors ca JOIN assessors s ON s.id = ca.assessor_id "
            "WHERE ca.campaign_id = c.id ORDER BY ca.id) s) AS assessors, "
            "(SELECT coalesce(sum(json_array_length(q.slots)), 0) FROM queues q "
            "WHERE q.campaign_id = c.id) AS slots "
            "FROM campaigns c ORDER BY c.id")
        for row in rows:
            row["assessors"] = [str(n) for n in json_list(row["assessors"])]
        return rows

    def campaign_by_uuid(self, campaign_uuid: str) -> Row | None:
        """One campaign row by its uuid, or None."""
        return self._one("SELECT * FROM campaigns WHERE uuid = ?", (campaign_uuid,))

    def _campaign_of(self, assessor: str | None) -> tuple[int, int] | None:
        """(campaign id, assessor id) of ``assessor``'s latest campaign of pairs; None when
        they have none.  ``assessor`` None: the assessor of this assignment file.  (Claims
        and trajectories campaigns have no queue here: the UI's assignment mode is pairs.)"""
        if assessor is None:
            info = self.assignment_info()
            if info is None:
                return None
            assessor = info["assessor"]
        row = self._conn.execute(
            "SELECT ca.campaign_id, ca.assessor_id FROM campaign_assessors ca "
            "JOIN assessors s ON s.id = ca.assessor_id "
            "JOIN campaigns c ON c.id = ca.campaign_id AND c.items = 'pairs' WHERE s.name = ? "
            "ORDER BY ca.campaign_id DESC LIMIT 1", (assessor,)).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    # -- an assessor's queue -------------------------------------------------------------
    def assignment_queue(self, assessor: str | None = None) -> list[Row]:
        """``assessor``'s queue in their latest campaign, in order (None: this assignment
        file's assessor; [] when there is none).

        Each row: ``id`` (the slot, for ``team_ops.judge_assigned``), ``position`` (1..),
        ``case_id``, ``document_id``, ``case``, ``document`` (keys), ``is_control``,
        ``grade`` and ``seconds`` (their label there, None if unjudged), ``cannot_judge`` (the
        reason, or None) and ``done`` (graded, or marked can't judge).  Never a rank.
        """
        found = self._campaign_of(assessor)
        if found is None:
            return []
        rows = self._many(_QUEUE_SQL + " ORDER BY a.position", found)
        for row in rows:
            row["is_control"] = bool(row["is_control"])
            row["done"] = row["grade"] is not None or row["cannot_judge"] is not None
        return rows

    def assignment_progress(self, assessor: str | None = None) -> dict[str, int | None]:
        """``done`` / ``total`` slots of :meth:`assignment_queue` and the ``next`` position
        not done (None when finished): "your assignment: 37 / 400".  Counted in SQL (cheap
        after every key, even on a 200,000-slot queue)."""
        found = self._campaign_of(assessor)
        if found is None:
            return {"done": 0, "total": 0, "next": None}
        total, done, next_slot = self._conn.execute(
            "SELECT count(*), coalesce(sum(done), 0), min(CASE WHEN NOT done THEN position END) "
            "FROM (SELECT position, grade IS NOT NULL OR cannot_judge IS NOT NULL AS done "
            "FROM (" + _QUEUE_SQL + "))", found).fetchone()
        return {"done": int(done), "total": int(total),
                "next": None if next_slot is None else int(next_slot)}

    def assessor_progress(self) -> dict[str, dict[str, int]]:
        """Per assessor (every one of the file, by name): ``judged`` (graded judgments) and
        ``remaining`` (slots of their latest campaign of pairs neither graded nor marked
        can't judge; 0 outside campaigns).  What ``info --json`` prints under ``assessors``."""
        out = {str(name): {"judged": int(n), "remaining": 0} for name, n in self._conn.execute(
            "SELECT s.name, (SELECT count(*) FROM judgments j WHERE j.assessor_id = s.id "
            "AND j.grade IS NOT NULL) FROM assessors s ORDER BY s.name")}
        for name, remaining in self._conn.execute(
                "WITH latest AS (SELECT assessor_id, max(campaign_id) AS campaign_id "
                "FROM campaign_assessors WHERE campaign_id IN (SELECT id FROM campaigns "
                "WHERE items = 'pairs') GROUP BY assessor_id) "
                "SELECT s.name, count(*) FROM latest l JOIN assessors s ON s.id = l.assessor_id "
                "JOIN queues q ON q.campaign_id = l.campaign_id AND q.assessor_id = l.assessor_id "
                "JOIN json_each(q.slots) e "
                "LEFT JOIN judgments j ON e.value > 0 AND j.case_id = e.value >> 32 "
                "AND j.document_id = e.value & 4294967295 AND j.assessor_id = q.assessor_id "
                "LEFT JOIN control_judgments k ON e.value < 0 "
                "AND k.campaign_id = q.campaign_id AND k.case_id = abs(e.value) >> 32 "
                "AND k.document_id = abs(e.value) & 4294967295 "
                "AND k.assessor_id = q.assessor_id "
                "LEFT JOIN cannot_judge n ON n.case_id = abs(e.value) >> 32 "
                "AND n.document_id = abs(e.value) & 4294967295 "
                "AND n.assessor_id = q.assessor_id "
                "WHERE coalesce(j.grade, k.grade) IS NULL AND n.id IS NULL GROUP BY s.name"):
            out.setdefault(str(name), {"judged": 0, "remaining": 0})["remaining"] = int(remaining)
        return out

    def item_progress(self) -> list[Row]:
        """Per assessor with a campaign of claims or trajectories: ``name``, ``items``
        (``claims`` / ``trajectories``), ``assigned`` (slots of their latest such campaign)
        and ``done`` (verified / reviewed by them: collected into the master, or given in
        their own assignment file).  By name, then kind."""
        return self._many(_ITEM_PROGRESS_SQL)

    def item_verdicts(self) -> list[tuple[str, str, str, str, str]]:
        """Every answer given on a claim or trajectory, as ``(items, question, unit,
        assessor, label)`` (see ``_ITEM_VERDICTS_SQL``) — what the team's agreement on
        items is computed from."""
        return [(str(a), str(b), str(c), str(d), str(e))
                for a, b, c, d, e in self._conn.execute(_ITEM_VERDICTS_SQL)]

    def pending_pairs(self) -> list[tuple[str, str]]:
        """The pairs this file still has to judge, as (case key, document key): in an
        assignment file, its assessor's slots not done, in queue order (control repeats
        left out: a qrels file holds one label per pair, and the repeat is for the
        keyboard); elsewhere the pool's pairs with no effective label and no dispute, by
        key (agent cases left out)."""
        if self.assignment_info() is not None:
            return [(row["case"], row["document"]) for row in self.assignment_queue()
                    if not row["done"] and not row["is_control"]]
        from rag_annotator.storage import queries

        return [(str(c), str(d)) for c, d in self._conn.execute(
            "SELECT c.key, d.key FROM (" + queries.EFFECTIVE_PAIRS_SQL + ") e "
            "JOIN cases c ON c.id = e.case_id JOIN documents d ON d.id = e.document_id "
            "WHERE e.grade IS NULL AND NOT e.disputed AND c.kind = 'rag' "
            "ORDER BY c.key, d.key")]

    def dispute_count(self) -> int:
        """How many pairs wait in the adjudication queue (``disputed_pairs``' length), in
        one ordered pass over the judgments' unique index: after a collect of 2,000,000
        judgments the whole effective-label query would sort every pair of the file."""
        # each index entry reads its row's grade: with SQLite's 2 MB cache, a read from the
        # OS per row; with a cache that holds the table, each page once (given back after)
        previous = int(self._conn.execute("PRAGMA main.cache_size").fetchone()[0])
        self._conn.execute(f"PRAGMA main.cache_size = {min(previous, -BULK_CACHE_KIB)}")
        try:
            return int(self._conn.execute(
                "SELECT count(*) FROM (SELECT case_id, document_id FROM judgments "
                "WHERE grade IS NOT NULL GROUP BY case_id, document_id "
                "HAVING min(grade) = 0 AND max(grade) >= 1) d WHERE NOT EXISTS (SELECT 1 "
                "FROM adjudications a WHERE a.case_id = d.case_id AND "
                "a.document_id = d.document_id)").fetchone()[0])
        finally:
            self._conn.execute(f"PRAGMA main.cache_size = {previous}")

    # -- team figures ------------------------------------------------------------------
    def judgment_seconds(self) -> list[tuple[str, float]]:
        """(assessor, active seconds) of every graded judgment whose time was measured,
        control repeats included: the input of the median time per assessor."""
        return [(str(a), float(s)) for a, s in self._conn.execute(
            "SELECT s.name, j.seconds FROM judgments j JOIN assessors s ON s.id = j.assessor_id "
            "WHERE j.grade IS NOT NULL AND j.seconds IS NOT NULL UNION ALL "
            "SELECT s.name, k.seconds FROM control_judgments k "
            "JOIN assessors s ON s.id = k.assessor_id "
            "WHERE k.grade IS NOT NULL AND k.seconds IS NOT NULL")]

    def control_rows(self) -> list[Row]:
        """Every control repeat judged: ``assessor``, ``case``, ``document``, ``first`` (the
        grade of the first showing, None if not graded) and ``repeat`` (the blind repeat's):
        self-consistency is how often they agree."""
        return self._many(
            "SELECT s.name AS assessor, c.key AS \"case\", d.key AS document, "
            "j.grade AS first, k.grade AS repeat FROM control_judgments k "
            "JOIN assessors s ON s.id = k.assessor_id JOIN cases c ON c.id = k.case_id "
            "JOIN documents d ON d.id = k.document_id LEFT JOIN judgments j "
            "ON j.case_id = k.case_id AND j.document_id = k.document_id "
            "AND j.assessor_id = k.assessor_id WHERE k.grade IS NOT NULL "
            "ORDER BY s.name, c.key, d.key")

    def cannot_judge_rows(self) -> list[Row]:
        """Every "can't judge": ``assessor``, ``case``, ``document``, ``reason``,
        ``updated_at``, by case and document key."""
        return self._many(
            "SELECT s.name AS assessor, c.key AS \"case\", d.key AS document, n.reason, "
            "n.updated_at FROM cannot_judge n JOIN assessors s ON s.id = n.assessor_id "
            "JOIN cases c ON c.id = n.case_id JOIN documents d ON d.id = n.document_id "
            "ORDER BY c.key, d.key, s.name")

    # -- the native JSON's team sections -----------------------------------------------
    def team_export_rows(self, section: str
                         ) -> tuple[tuple[str, ...], Iterator[tuple[Any, ...]]]:
        """Columns and a row stream of one team section of the native JSON export
        (:data:`TEAM_SECTIONS`: campaigns with their items and assessors, every queue slot
        whatever it names, control repeats, can't-judge, and each assessor's verdict on an
        assigned claim or trajectory), by natural keys, in a fixed order."""
        columns, sql = _EXPORT_SQL[section]
        return columns, iter(self._conn.execute(sql))

    # -- what collect compares and brings ------------------------------------------------
    def team_rows(self) -> dict[str, list[tuple[object, ...]]]:
        """The small team tables of the file by natural keys, as tuples:
        ``control_judgments`` (case, document, assessor, grade, seconds, updated_at) and
        ``cannot_judge`` (case, document, assessor, reason, updated_at).  (Judgments, the big
        one, are compared in SQL: ``attach_incoming``.)"""
        return {
            "control_judgments": self._conn.execute(
                "SELECT c.key, d.key, s.name, k.grade, k.seconds, k.updated_at "
                "FROM control_judgments k JOIN cases c ON c.id = k.case_id "
                "JOIN documents d ON d.id = k.document_id "
                "JOIN assessors s ON s.id = k.assessor_id ORDER BY k.id").fetchall(),
            "cannot_judge": self._conn.execute(
                "SELECT c.key, d.key, s.name, n.reason, n.updated_at "
                "FROM cannot_judge n JOIN cases c ON c.id = n.case_id "
                "JOIN documents d ON d.id = n.document_id "
                "JOIN assessors s ON s.id = n.assessor_id ORDER BY n.id").fetchall(),
        }

    # -- collect: the incoming files staged, then classified (see ``team_merge``) -------
    def collect_session(self) -> AbstractContextManager[None]:
        """The settings a whole collect runs under (its TEMP tables in memory); the
        staged tables are gone after it."""
        from rag_annotator.storage import team_merge

        return team_merge.session(self._conn)

    def attach_incoming(self, path: Path) -> AbstractContextManager[None]:
        """Attach an (already opened and checked) assignment file read-only for
        :meth:`incoming_conflicts` and :meth:`stage_incoming`; outside transactions."""
        from rag_annotator.storage import team_merge

        return team_merge.attached(self._conn, path)

    def incoming_conflicts(self) -> list[tuple[str, str, bool]]:
        """Cases and documents the attached file changed or added: (kind, key, added)."""
        from rag_annotator.storage import team_merge

        return team_merge.conflicts(self._conn)

    def stage_incoming(self, number: int) -> bool:
        """Copy the attached file's judgments aside as staged file ``number``; True when
        staged by the master's ids (see ``team_merge.stage``)."""
        from rag_annotator.storage import team_merge

        return team_merge.stage(self._conn, number)

    def unstage_incoming(self, number: int) -> None:
        """Drop staged file ``number`` and its verdicts."""
        from rag_annotator.storage import team_merge

        team_merge.unstage(self._conn, number)

    def classify_incoming(self, number: int, same_ids: bool, params: dict[str, Any]
                          ) -> dict[str, int]:
        """Give every judgment of staged file ``number`` its verdict; counts by verdict."""
        from rag_annotator.storage import team_merge

        return team_merge.classify(self._conn, number, same_ids, params)

    def incoming_skipped(self) -> list[tuple[str, str, str, str]]:
        """(verdict, case, document, assessor) of the attached judgments left out."""
        from rag_annotator.storage import team_merge

        return team_merge.skipped(self._conn)

    def incoming_updates(self) -> list[tuple[int, dict[str, Any]]]:
        """(judgment id, values) the attached file's newer labels replace."""
        from rag_annotator.storage import team_merge

        return team_merge.updates(self._conn)

    def campaign_slots(self, campaign_id: int, assessor: str, *, control: bool
                       ) -> set[tuple[int, int]]:
        """An assessor's control slots (``control``) or other slots in a campaign, as
        (case id, document id)."""
        return {(int(c), int(d)) for c, d in self._conn.execute(
            "SELECT abs(e.value) >> 32, abs(e.value) & 4294967295 FROM queues q "
            "JOIN assessors s ON s.id = q.assessor_id JOIN json_each(q.slots) e "
            "WHERE q.campaign_id = ? AND s.name = ? AND (e.value < 0) = ?",
            (campaign_id, assessor, int(control)))}

    def has_slot(self, campaign_id: int, assessor: str) -> bool:
        """Whether an assessor has a queue in a campaign."""
        return self._conn.execute(
            "SELECT 1 FROM queues q JOIN assessors s ON s.id = q.assessor_id "
            "WHERE q.campaign_id = ? AND s.name = ? AND json_array_length(q.slots) > 0",
            (campaign_id, assessor)).fetchone() is not None

    def queue_slot(self, slot_id: int) -> dict[str, Any] | None:
        """One slot of a queue by its id (``(queue id << 32) + position``, as
        :meth:`assignment_queue` gives it): ``id``, ``campaign_id``, ``assessor_id``,
        ``position``, ``case_id``, ``document_id``, ``is_control`` (pairs; for claims and
        trajectories ``case_id`` is the item's id), or None."""
        if isinstance(slot_id, bool) or not isinstance(slot_id, int) or slot_id < 1:
            return None
        position = slot_id & 0xFFFFFFFF
        row = self._conn.execute(
            "SELECT q.campaign_id, q.assessor_id, g.items, json_extract(q.slots, ?2) "
            "FROM queues q JOIN campaigns g ON g.id = q.campaign_id WHERE q.id = ?1",
            (slot_id >> 32, f"$[{position - 1}]")).fetchone()
        if row is None or position < 1 or not isinstance(row[3], int):
            return None
        from rag_annotator.domain import team_plan

        first, second, control = team_plan.unpack_slot(int(row[3]), str(row[2]))
        return {"id": slot_id, "campaign_id": int(row[0]), "assessor_id": int(row[1]),
                "position": position, "case_id": first, "document_id": second,
                "is_control": control}

    def assessor_controls(self, campaign_id: int, assessor: str
                          ) -> dict[tuple[int, int], tuple[Any, ...]]:
        """(case id, document id) → (id, grade, seconds, updated_at) of one assessor's
        control repeats in a campaign."""
        return {(int(r[0]), int(r[1])): tuple(r[2:]) for r in self._conn.execute(
            "SELECT k.case_id, k.document_id, k.id, k.grade, k.seconds, k.updated_at "
            "FROM control_judgments k JOIN assessors s ON s.id = k.assessor_id "
            "WHERE k.campaign_id = ? AND s.name = ?", (campaign_id, assessor))}

    def assessor_cannot(self, assessor: str) -> dict[tuple[int, int], tuple[Any, ...]]:
        """(case id, document id) → (id, reason, updated_at) of one assessor's can't-judge."""
        return {(int(r[0]), int(r[1])): tuple(r[2:]) for r in self._conn.execute(
            "SELECT n.case_id, n.document_id, n.id, n.reason, n.updated_at FROM cannot_judge n "
            "JOIN assessors s ON s.id = n.assessor_id WHERE s.name = ?", (assessor,))}
