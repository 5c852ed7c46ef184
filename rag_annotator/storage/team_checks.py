"""The ``check`` problems of team judging: packed queues that hold only packed ids, control
slots that repeat a pair shown earlier to the same assessor, queue holders who are the
campaign's assessors, the assignment file's tag, control labels within the scale."""

from __future__ import annotations

import json
import sqlite3

from rag_annotator.messages import Message

#: Control slots (negative) whose pair is not shown earlier (positive) in the same queue:
#: one pass over the unpacked slots, grouped, not a search per control slot.
_LONE_CONTROLS = """
WITH s AS MATERIALIZED (
    SELECT q.id AS queue, e.key AS key, e.value AS value FROM queues q
    JOIN campaigns g ON g.id = q.campaign_id AND g.items = 'pairs', json_each(q.slots) e
    WHERE e.type = 'integer'),
f AS (SELECT queue, value, min(key) AS first FROM s WHERE value > 0 GROUP BY queue, value)
SELECT g.uuid, a.name, s.key + 1 FROM s JOIN queues q ON q.id = s.queue
JOIN campaigns g ON g.id = q.campaign_id JOIN assessors a ON a.id = q.assessor_id
LEFT JOIN f ON f.queue = s.queue AND f.value = -s.value
WHERE s.value < 0 AND (f.first IS NULL OR f.first > s.key) ORDER BY q.id, s.key
"""


def team_problems(conn: sqlite3.Connection, max_grade: int) -> list[str]:
    """One line per problem (empty when all is well)."""
    problems: list[str] = []
    for campaign, assessor in conn.execute(
            "SELECT g.uuid, s.name FROM queues q JOIN campaigns g ON g.id = q.campaign_id "
            "JOIN assessors s ON s.id = q.assessor_id WHERE EXISTS (SELECT 1 FROM "
            "json_each(q.slots) e WHERE e.type != 'integer' OR (g.items != 'pairs' AND "
            "e.value < 1) OR (g.items = 'pairs' AND (abs(e.value) >> 32 < 1 OR "
            "(abs(e.value) & 4294967295) < 1)))"):
        problems.append(Message("campaign {campaign}, assessor {assessor}: the queue holds a "
                                "slot that names no pair or item (not a packed id)",
                                campaign=campaign, assessor=assessor))
    for campaign, assessor, position in conn.execute(_LONE_CONTROLS):
        problems.append(Message("campaign {campaign}, assessor {assessor}: control slot {position} "
                                "repeats no pair shown earlier in the queue",
                                campaign=campaign, assessor=assessor, position=position))
    for campaign, assessor in conn.execute(
            "SELECT g.uuid, s.name FROM queues q "
            "JOIN campaigns g ON g.id = q.campaign_id JOIN assessors s ON s.id = q.assessor_id "
            "WHERE NOT EXISTS (SELECT 1 FROM campaign_assessors ca WHERE "
            "ca.campaign_id = q.campaign_id AND ca.assessor_id = q.assessor_id)"):
        problems.append(Message("campaign {campaign}: {assessor} has a queue but is not one of its "
                                "assessors", campaign=campaign, assessor=assessor))
    (n,) = conn.execute("SELECT count(*) FROM control_judgments WHERE grade > ?",
                        (max_grade,)).fetchone()
    if n:
        problems.append(Message("{n} control repeats have a grade above the gold set's scale "
                                "(max {max_grade})", n=n, max_grade=max_grade))
    row = conn.execute("SELECT value FROM meta WHERE key = 'assignment'").fetchone()
    if row is not None and not _assignment_tag_ok(row[0]):
        problems.append(Message("meta assignment is not the JSON object an assignment file carries "
                                "(campaign, master, assessor, name)"))
    return problems


def _assignment_tag_ok(text: object) -> bool:
    try:
        value = json.loads(str(text))
    except ValueError:
        return False
    return isinstance(value, dict) and all(
        isinstance(value.get(k), str) for k in ("campaign", "master", "assessor", "name"))
