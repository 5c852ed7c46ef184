"""The ``check`` problems of team judging: queues numbered 1..n, control slots that repeat a
pair shown earlier to the same assessor, queue holders who are the campaign's assessors, the
assignment file's tag, control labels within the scale."""

from __future__ import annotations

import json
import sqlite3

from rag_annotator.messages import Message


def team_problems(conn: sqlite3.Connection, max_grade: int) -> list[str]:
    """One line per problem (empty when all is well)."""
    problems: list[str] = []
    for campaign, assessor, n, top in conn.execute(
            "SELECT g.uuid, s.name, count(*), max(a.position) FROM assignments a "
            "JOIN campaigns g ON g.id = a.campaign_id JOIN assessors s ON s.id = a.assessor_id "
            "GROUP BY a.campaign_id, a.assessor_id HAVING count(*) != max(a.position)"):
        problems.append(Message(
                        "campaign {campaign}, assessor {assessor}: queue positions are not "
                        "1..{n} (max {top})", campaign=campaign, assessor=assessor, n=n, top=top))
    for campaign, assessor, position in conn.execute(
            "SELECT g.uuid, s.name, a.position FROM assignments a "
            "JOIN campaigns g ON g.id = a.campaign_id JOIN assessors s ON s.id = a.assessor_id "
            "WHERE a.is_control AND NOT EXISTS (SELECT 1 FROM assignments b "
            "WHERE b.campaign_id = a.campaign_id AND b.assessor_id = a.assessor_id "
            "AND b.case_id = a.case_id AND b.document_id = a.document_id "
            "AND NOT b.is_control AND b.position < a.position)"):
        problems.append(Message("campaign {campaign}, assessor {assessor}: control slot {position} "
                                "repeats no pair shown earlier in the queue",
                                campaign=campaign, assessor=assessor, position=position))
    for campaign, assessor in conn.execute(
            "SELECT DISTINCT g.uuid, s.name FROM assignments a "
            "JOIN campaigns g ON g.id = a.campaign_id JOIN assessors s ON s.id = a.assessor_id "
            "WHERE NOT EXISTS (SELECT 1 FROM campaign_assessors ca WHERE "
            "ca.campaign_id = a.campaign_id AND ca.assessor_id = a.assessor_id)"):
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
