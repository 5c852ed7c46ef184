"""Store reads for agent cases and trajectories.

The review walks trajectories in one fixed order (run name, case key);
:meth:`AgentReads.trajectory_queue` gives it with each trajectory's marks, so "the next
unreviewed trajectory" needs no query per key press.  :meth:`AgentReads.trajectory_detail`
gathers what the expert reads for one trajectory; :meth:`AgentReads.agent_inputs` what the
metrics need for one run, in two queries whatever the number of trajectories.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rag_annotator.domain.validation import CASE_AGENT_FIELDS
from rag_annotator.errors import NotFound
from rag_annotator.storage.reads import ReadBase, Row

#: The case columns an agent evaluation reads (``AgentSpec.from_row``).
_CASE_SELECT = ", ".join(f"c.{c}" for c in CASE_AGENT_FIELDS)


def _state(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class AgentReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    def trajectory_queue(self, run: str | None = None) -> list[Row]:
        """Every trajectory (of ``run``, or all) in review order: ``id``, ``run``,
        ``case_key``, ``family``, ``steps`` (count), ``task_success``, ``path_acceptable``
        (the reviewer's marks, None when unmarked)."""
        where, params = ("WHERE r.name = ?", (run,)) if run is not None else ("", ())
        return self._many(
            "SELECT t.id, r.name AS run, c.key AS case_key, c.family, t.trial, "
            "(SELECT count(*) FROM trajectory_steps s WHERE s.trajectory_id = t.id) AS steps, "
            "v.task_success, v.path_acceptable FROM trajectories t "
            "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
            f"LEFT JOIN trajectory_reviews v ON v.trajectory_id = t.id {where} "
            "ORDER BY r.name, c.key, t.trial", params)

    def trajectory_detail(self, trajectory_id: int) -> Row:
        """One trajectory with its run, case (request, expectations), steps and review.

        Raises NotFound if it is gone.  ``final_state`` is decoded (None when the log gave
        none); ``steps`` are dicts ``position``, ``tool``, ``arguments`` (JSON text),
        ``result``; ``review`` is the review row with its assessor's name, or None.
        """
        row = self._one(
            "SELECT t.*, r.name AS run, c.key AS case_key, c.question, c.family, c.status, "
            f"c.kind, c.notes AS case_notes, {_CASE_SELECT} FROM trajectories t "
            "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id WHERE t.id = ?",
            (trajectory_id,))
        if row is None:
            raise NotFound(f"no trajectory with id {trajectory_id}; it may have been deleted.")
        row["final_state"] = _state(row["final_state"])
        row["steps"] = self._many(
            "SELECT position, tool, arguments, result FROM trajectory_steps "
            "WHERE trajectory_id = ? ORDER BY position", (trajectory_id,))
        row["review"] = self.trajectory_review(trajectory_id)
        return row

    def trajectory_review(self, trajectory_id: int) -> Row | None:
        """The review row of one trajectory with its assessor's name, or None (what a
        review key changed: read again without the trajectory's steps)."""
        return self._one(
            "SELECT v.*, a.name AS assessor FROM trajectory_reviews v "
            "JOIN assessors a ON a.id = v.assessor_id WHERE v.trajectory_id = ?",
            (trajectory_id,))

    def agent_inputs(self, run: str) -> list[Row]:
        """What the agent metrics need for every trajectory of ``run``: the case's key,
        family and expectations, the tools called in order (``tools``), the decoded final
        state, tokens, seconds, cost and the review's two marks (and ``run``,
        ``reviewed_by``), by case key."""
        return self._trajectory_inputs("r.name = ?", (run,), " ORDER BY c.key, t.trial")

    def trajectory_run_names(self) -> list[str]:
        """Runs that hold at least one trajectory, by name."""
        return [r["name"] for r in self._many(
            "SELECT name FROM runs r WHERE EXISTS "
            "(SELECT 1 FROM trajectories t WHERE t.run_id = r.id) ORDER BY name")]

    def agent_case_ids(self) -> dict[str, int]:
        """Key → id of the agent cases (what a trajectory import may attach to)."""
        return {r["key"]: r["id"] for r in self._many(
            "SELECT key, id FROM cases WHERE kind = 'agent'")}

    def case_kinds(self) -> dict[str, str]:
        """Key → kind of every case (an import names the RAG cases it was given)."""
        return {r["key"]: r["kind"] for r in self._many("SELECT key, kind FROM cases")}

    def trajectory_rows(self, ids: Sequence[int]) -> dict[int, Row]:
        """One page of the review list: for each trajectory id, what :meth:`agent_inputs`
        gives, in two queries."""
        rows = self._trajectory_inputs("t.id IN (SELECT value FROM json_each(?))",
                                       (json.dumps(list(ids)),))
        return {row["id"]: row for row in rows}

    def _trajectory_inputs(self, where: str, params: Sequence[Any], order: str = ""
                           ) -> list[Row]:
        """Trajectories matching ``where`` (over ``t`` trajectories and ``r`` runs) with their
        case's expectations, review marks and ``tools`` in step order: two queries."""
        rows = self._many(
            "SELECT t.id, r.name AS run, c.key AS case_key, c.family, c.status, "
            "t.final_state, t.tokens, t.seconds, t.cost, t.trial, t.reward, v.task_success, "
            "v.path_acceptable, "
            f"a.name AS reviewed_by, {_CASE_SELECT} "
            "FROM trajectories t JOIN runs r ON r.id = t.run_id "
            "JOIN cases c ON c.id = t.case_id "
            "LEFT JOIN trajectory_reviews v ON v.trajectory_id = t.id "
            f"LEFT JOIN assessors a ON a.id = v.assessor_id WHERE {where}{order}", params)
        tools: dict[int, list[str]] = {row["id"]: [] for row in rows}
        for trajectory_id, tool in self._conn.execute(
                "SELECT s.trajectory_id, s.tool FROM trajectory_steps s "
                "JOIN trajectories t ON t.id = s.trajectory_id JOIN runs r ON r.id = t.run_id "
                f"WHERE {where} ORDER BY s.trajectory_id, s.position", params):
            tools[trajectory_id].append(tool)
        for row in rows:
            row["final_state"] = _state(row["final_state"])
            row["tools"] = tools[row["id"]]
        return rows

    def case_kinds_of(self, ids: Sequence[int]) -> dict[int, str]:
        """Id → kind of the cases ``ids`` (one page of the case list)."""
        return {r["id"]: r["kind"] for r in self._many(
            "SELECT id, kind FROM cases WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(ids)),))}

    def trajectory_review_rows(self) -> list[Row]:
        """Every trajectory review by natural keys (run name, case key, assessor name), for
        a merge into a colleague's copy."""
        return self._many(
            "SELECT r.name AS run, c.key AS \"case\", a.name AS assessor, v.task_success, "
            "v.success_reason, v.path_acceptable, v.path_reason, v.note, v.updated_at "
            "FROM trajectory_reviews v JOIN trajectories t ON t.id = v.trajectory_id "
            "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
            "JOIN assessors a ON a.id = v.assessor_id ORDER BY r.name, c.key")

    def trajectory_counts(self) -> dict[int, int]:
        """Run id → its number of trajectories (runs without any are left out)."""
        return dict(self._conn.execute(
            "SELECT run_id, count(*) FROM trajectories GROUP BY run_id"))

    def agent_case_count(self, families: tuple[str, ...] = (),
                         cases: tuple[str, ...] | None = None) -> int:
        """Agent cases among those an export scope keeps (``families``: empty = all;
        ``cases``: keys, None = all) — what a RAG-only format leaves out."""
        sql = "SELECT count(*) FROM cases WHERE kind = 'agent'"
        params: list[Any] = []
        if families:
            sql += " AND family IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(list(families)))
        if cases is not None:
            sql += " AND key IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(list(cases)))
        return int(self._conn.execute(sql, params).fetchone()[0])

    def agent_counts(self) -> dict[str, int]:
        """What ``info --json`` says of agent work: agent cases, trajectories, their steps,
        reviewed trajectories."""
        (cases, trajectories, steps, reviewed) = self._conn.execute(
            "SELECT (SELECT count(*) FROM cases WHERE kind = 'agent'), "
            "(SELECT count(*) FROM trajectories), (SELECT count(*) FROM trajectory_steps), "
            "(SELECT count(*) FROM trajectory_reviews)").fetchone()
        return {"cases": cases, "trajectories": trajectories, "steps": steps,
                "reviewed": reviewed}
