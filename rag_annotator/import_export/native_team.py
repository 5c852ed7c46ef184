"""Judging as a team in the native JSON format (issue 15): the sections ``campaigns`` (with
their ``assessors`` and ``items``), ``assignments``, ``control_judgments``, ``cannot_judge``,
``claim_assessments`` and ``trajectory_assessments``.

A campaign hands out ``items``: ``pairs`` (a slot names ``case`` and ``document``),
``claims`` (``run``, ``case`` and the claim's ``claim_position`` in the answer) or
``trajectories`` (``run``, ``case`` and ``trajectory_trial``); a pair slot leaves the claim and
trajectory fields out, an item slot has ``document`` null.  ``claim_assessments`` and
``trajectory_assessments`` hold each assessor's own verdict on an assigned claim (by ``run``,
``case``, ``position``) or trajectory (by ``run``, ``case``, ``trial``).  Files written before
campaigns of claims and trajectories (no ``items``, no item fields, no assessment sections)
still import: their campaigns hand out pairs.

The rows come from the store's public team reads (``TeamReads.team_export_rows``), so a
change to the team tables' layout is made in one place.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rag_annotator.domain.enums import Verdict, values
from rag_annotator.domain.ports import Writer
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.storage.reads_team import TEAM_SECTIONS
from rag_annotator.storage.store import GoldSetStore

__all__ = ["DEFAULTS", "ITEM_FIELDS", "TEAM_SECTIONS", "export_rows", "specs"]

#: A slot's fields that name a claim or a trajectory (left out of a pair slot).
ITEM_FIELDS = ("run", "claim_position", "trajectory_trial")

#: Per section, the fields a file written before item campaigns lacks, and their value.
DEFAULTS: dict[str, dict[str, Any]] = {
    "campaigns": {"items": "pairs"},
    "assignments": dict.fromkeys(ITEM_FIELDS),
}


def specs(key: Any, text: Any, otext: Any, integer: Any, oint: Any, onum: Any, obit: Any,
          listed: Any, enum: Any) -> dict[str, dict[str, Any]]:
    """The team sections' SPECS entries, in native_json's field kinds."""
    return {
        "campaigns": {"uuid": key, "name": text, "per_pair": integer, "seed": integer,
                      "control_share": onum, "pool_runs": otext, "pool_depth": oint,
                      "master": key, "created_at": text, "assessors": listed,
                      "items": enum("pairs", "claims", "trajectories")},
        "assignments": {"campaign": key, "assessor": key, "position": integer, "case": key,
                        "document": otext, "is_control": obit, "run": otext,
                        "claim_position": oint, "trajectory_trial": oint},
        "control_judgments": {"campaign": key, "case": key, "document": key,
                              "assessor": key, "grade": oint, "seconds": onum,
                              "updated_at": text},
        "cannot_judge": {"case": key, "document": key, "assessor": key, "reason": text,
                         "updated_at": text},
        "claim_assessments": {"campaign": key, "run": key, "case": key, "position": integer,
                              "assessor": key,
                              "verdict": enum(*values(Verdict), optional=True),
                              "rationale": text, "updated_at": text},
        "trajectory_assessments": {"campaign": key, "run": key, "case": key, "trial": integer,
                                   "assessor": key, "task_success": obit,
                                   "success_reason": text, "path_acceptable": obit,
                                   "path_reason": text, "note": text, "updated_at": text},
    }


def export_rows(store: GoldSetStore, section: str) -> Iterator[dict[str, Any]]:
    """The rows of one team section as the native JSON writes them."""
    columns, rows = store.team_export_rows(section)
    for values_ in rows:
        row = dict(zip(columns, values_))
        if section == "campaigns":
            row["assessors"] = json.loads(row["assessors"])
        elif section == "assignments" and row["document"] is not None:
            for name in ITEM_FIELDS:  # a pair slot: as files before item campaigns
                del row[name]
        yield row


class ItemSlots:
    """Natural keys → row ids of the claims and trajectories just loaded, and the check
    that each queue slot names what its campaign hands out."""

    def __init__(self, op: Writer, path: Path) -> None:
        self.op, self.path = op, path
        self._claims: dict[tuple[str, str, int], int] | None = None
        self._trajectories: dict[tuple[str, str, int], int] | None = None

    def _names(self) -> tuple[dict[int, str], dict[int, str]]:
        return ({int(r["id"]): str(r["name"]) for r in self.op.select("runs")},
                {int(r["id"]): str(r["key"]) for r in self.op.select("cases")})

    def _claim_ids(self) -> dict[tuple[str, str, int], int]:
        """Read once, on first use (a file of pair campaigns never pays for it)."""
        if self._claims is None:
            runs, cases = self._names()
            answers = {int(a["id"]): (runs[int(a["run_id"])], cases[int(a["case_id"])])
                       for a in self.op.select("answers")}
            self._claims = {}
            for claim in self.op.select("claims", order_by="id"):  # first one wins
                run, case = answers[int(claim["answer_id"])]
                self._claims.setdefault((run, case, int(claim["position"])), int(claim["id"]))
        return self._claims

    def _trajectory_ids(self) -> dict[tuple[str, str, int], int]:
        if self._trajectories is None:
            runs, cases = self._names()
            self._trajectories = {
                (runs[int(t["run_id"])], cases[int(t["case_id"])], int(t["trial"])):
                int(t["id"]) for t in self.op.select("trajectories")}
        return self._trajectories

    def claim(self, run: str, case: str, position: int, where: str) -> int:
        """The id of a claim by run, case and position in the answer."""
        found = self._claim_ids().get((run, case, position))
        if found is None:
            raise ImportRejected(self.path, None, f"{where}: no claim at position {position} "
                                                  f"of run '{run}''s answer to case '{case}' "
                                                  "in the file.")
        return found

    def trajectory(self, run: str, case: str, trial: int, where: str) -> int:
        """The id of a trajectory by run, case and trial."""
        found = self._trajectory_ids().get((run, case, trial))
        if found is None:
            raise ImportRejected(self.path, None, f"{where}: no trajectory of run '{run}' "
                                                  f"for case '{case}' (trial {trial}) in the "
                                                  "file.")
        return found

    def slot(self, items: str, row: dict[str, Any], where: str) -> tuple[int | None, int | None]:
        """(claim id, trajectory id) of one checked ``assignments`` row in a campaign of
        ``items`` (both None for a pair slot), refusing a slot that names something else."""
        need = {"pairs": ("document",), "claims": ("run", "claim_position"),
                "trajectories": ("run", "trajectory_trial")}[items]
        for name in ("document", *ITEM_FIELDS):
            if (row.get(name) is not None) != (name in need):
                state = "is missing" if name in need else "must be null"
                raise ImportRejected(self.path, None, f"{where}.{name}: {state} in a slot of "
                                                      f"a campaign of {items}.")
        if items == "claims":
            return self.claim(row["run"], row["case"], row["claim_position"], where), None
        if items == "trajectories":
            return None, self.trajectory(row["run"], row["case"], row["trajectory_trial"],
                                         where)
        return None, None
