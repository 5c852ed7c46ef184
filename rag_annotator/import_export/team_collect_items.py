"""``collect`` for campaigns of claims and of trajectories (``assign --items``).

The expert verified claims (``claims.verdict``) or reviewed trajectories
(``trajectory_reviews``) in their assignment file, as anywhere else.  Collecting matches each
one to the master by natural keys (run name, case key, and the claim's position or the
trajectory's trial), never by the file's ids, and takes only the file's assessor's verdicts
on their own slots into the master's per-assessor tables (``claim_assessments``,
``trajectory_assessments``): the master's ``claims.verdict`` / ``trajectory_reviews`` hold one
verdict per item and are left as they are.  A claim whose text changed in the file is a
conflict, not applied; a verdict replaces the one the master holds only when newer; nothing
new, no operation (a second collect leaves the master as it was).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from rag_annotator.messages import N_, Message
from rag_annotator.storage.store import GoldSetStore

Key = tuple[Any, ...]
#: How far in the future an incoming timestamp may be (an expert's clock set wrong).
FUTURE_SKEW = timedelta(days=1)
#: The incoming verdicts of each kind: key columns, then values, then assessor, updated_at.
_INCOMING = {
    "claims": "SELECT r.name AS run, c.key, x.position, x.text, x.verdict, x.rationale, "
              "s.name AS who, "
              "x.updated_at FROM claims x JOIN answers a ON a.id = x.answer_id "
              "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
              "LEFT JOIN assessors s ON s.id = x.assessor_id "
              "WHERE x.verdict IS NOT NULL ORDER BY x.id",
    "trajectories": "SELECT r.name AS run, c.key, t.trial, NULL AS text, v.task_success, "
                    "v.success_reason, v.path_acceptable, v.path_reason, v.note, "
                    "s.name AS who, v.updated_at "
                    "FROM trajectory_reviews v JOIN trajectories t ON t.id = v.trajectory_id "
                    "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
                    "JOIN assessors s ON s.id = v.assessor_id ORDER BY v.id",
}
#: The master's slots of one assessor in one campaign, by the same natural keys.
_SLOTS = {
    "claims": "SELECT r.name, c.key, x.position, x.text, x.id FROM assignments s "
              "JOIN claims x ON x.id = s.claim_id JOIN answers a ON a.id = x.answer_id "
              "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
              "WHERE s.campaign_id = ? AND s.assessor_id = ?",
    "trajectories": "SELECT r.name, c.key, t.trial, NULL AS text, t.id FROM assignments s "
                    "JOIN trajectories t ON t.id = s.trajectory_id "
                    "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
                    "WHERE s.campaign_id = ? AND s.assessor_id = ?",
}
#: what a skipped line names, per kind of item
_ITEM = {"claims": N_("claim {where}"), "trajectories": N_("trajectory {where}")}
_TABLE = {"claims": ("claim_assessments", "claim_id",
                     ("verdict", "rationale")),
          "trajectories": ("trajectory_assessments", "trajectory_id",
                           ("task_success", "success_reason", "path_acceptable",
                            "path_reason", "note"))}


def instant(value: Any) -> datetime | None:
    """An ISO instant with its zone, else None (a travelled value is not trusted)."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def newer(theirs: Any, mine: Any) -> bool:
    """Whether the incoming instant ``theirs`` is after ``mine`` (a missing one is older)."""
    theirs_at, mine_at = instant(theirs), instant(mine)
    return theirs_at is not None and (mine_at is None or theirs_at > mine_at)


def incoming_items(other: GoldSetStore, items: str) -> list[tuple[Any, ...]]:
    """The verdicts of an (open, read-only) assignment file, by natural keys."""
    return [tuple(r.values()) for r in other.query(_INCOMING[items])]


def collect_items(store: GoldSetStore, path: Path, campaign: dict[str, Any], assessor: str,
                  rows: list[tuple[Any, ...]], result: Any) -> None:
    """Bring one file's verdicts on its assessor's items into ``store`` (one operation,
    opened only when something is new); counts and lines go to ``result`` (a
    ``team_collect.FileCollect``)."""
    items = str(campaign["items"])
    table, item_column, values = _TABLE[items]
    assessor_id = int(store.by_key("assessors", assessor)["id"])
    slots = {tuple(r.values())[:3]: (tuple(r.values())[3], int(tuple(r.values())[4]))
             for r in store.query(_SLOTS[items], (campaign["id"], assessor_id))}
    held = {int(r[item_column]): r for r in store.query(
        f"SELECT * FROM {table} WHERE assessor_id = ?", (assessor_id,))}
    latest = datetime.now(timezone.utc) + FUTURE_SKEW
    inserts: list[tuple[Any, ...]] = []
    updates: list[tuple[int, dict[str, Any]]] = []
    for row in rows:
        key, text, given = row[:3], row[3], row[4:4 + len(values)]
        who, at = row[-2], row[-1]
        where = " · ".join(str(k) for k in key)
        item = Message(_ITEM[items], where=where)
        if who != assessor:
            result.skipped.append(Message("{item}: verdict of {who}, not this file's "
                                          "assessor ({assessor})", item=item, who=who,
                                          assessor=assessor))
            continue
        moment = instant(at)
        if moment is None or moment > latest:
            result.skipped.append(Message("{item}: time {at!r} is not a believable instant "
                                          "(missing, malformed or in the future)",
                                          item=item, at=at))
            continue
        if key not in slots:
            result.skipped.append(Message("{item}: not one of {assessor}'s items", item=item,
                                          assessor=assessor))
            continue
        master_text, item_id = slots[key]
        if text != master_text:
            result.conflicts.append(Message("claim {where} was reworded in the assignment "
                                            "file; its verdict was not applied", where=where))
            continue
        mine = held.get(item_id)
        if mine is None:
            inserts.append((campaign["id"], item_id, assessor_id, *given, at))
        elif tuple(mine[c] for c in values) == tuple(given):
            result.unchanged += 1
        elif newer(at, mine["updated_at"]):
            updates.append((int(mine["id"]), {**dict(zip(values, given)), "updated_at": at}))
        else:
            result.older += 1  # the master's verdict is newer: kept, and said
    result.added, result.updated = len(inserts), len(updates)
    if not (inserts or updates):
        return
    with store.operation("collect", f"← {path.name} ({assessor})") as op:
        op.insert_rows(table, ("campaign_id", item_column, "assessor_id", *values,
                               "updated_at"), inserts)
        for row_id, changed in updates:
            op.update(table, {"id": row_id}, changed)
    result.changes = op.changes()
