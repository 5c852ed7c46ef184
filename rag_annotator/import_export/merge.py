"""``merge FILE OTHER``: bring a colleague's judgments, verdicts and adjudications in.

Two experts judge copies of the same gold set; merging puts their work side by side in FILE
so that agreement can be measured and disputes adjudicated.  The merge is one operation
(action ``merge``, labelled with OTHER's file name for provenance), so it is all or nothing
and one undo takes it back.  OTHER is only read.

Policy (every choice is visible in the :class:`MergeReport`):

* rows are matched by natural keys, never ids: case key, document key, assessor name; a
  claim by run name + case key + position + identical text;
* a judgment or adjudication whose case or document does not exist in FILE is skipped and
  listed — no placeholder is created: the files have diverged (a case deleted or renamed)
  and resurrecting an empty case would hide that;
* the same assessor with a different label on the same pair in both files: the newer
  ``updated_at`` wins, and the clash is reported;
* different assessors who disagree are not a merge conflict to resolve — the pair becomes a
  dispute for adjudication — but the report lists them, as that is what the user wants to see;
* a verdict set in OTHER and unset in FILE is taken; both set and different: FILE's is kept
  and the clash reported; likewise for adjudications;
* a grade above FILE's scale is skipped and listed (FILE's scale is not changed silently);
* a trajectory review (matched by run name + case key) follows the verdicts' rule: taken when
  FILE has none, FILE's kept and the clash reported when both differ.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.enums import Label
from rag_annotator.domain.ports import Writer
from rag_annotator.errors import KnownError
from rag_annotator.storage.store import GoldSetStore

ENTITIES = ("assessors", "judgments", "claims", "adjudications", "trajectory_reviews")
Row = dict[str, Any]


@dataclass(frozen=True)
class MergeConflict:
    """One disagreement between the two files.

    ``kind``: ``dispute`` (different assessors disagree on a pair: to adjudicate),
    ``same_assessor`` (one assessor labelled a pair differently in each file: the newer
    kept), ``verdict`` (a claim's verdicts differ: FILE's kept), ``adjudication`` (FILE's kept).
    ``document`` names the claim (``#position: text``) for a verdict.
    """

    kind: str
    case: str
    document: str
    file_label: str
    other_label: str
    assessors: tuple[str, ...]
    kept: str

    def describe(self) -> str:
        """One line in English (the UI builds its own translated text)."""
        who = ", ".join(self.assessors)
        return (f"{self.kind}: {self.case} · {self.document}: this file says "
                f"{self.file_label}, the other says {self.other_label} ({who}); {self.kept}")


@dataclass
class MergeReport:
    """What a merge brought in, what it skipped and where the files disagree."""

    source: Path
    counts: dict[str, dict[str, int]] = field(default_factory=lambda: {
        e: {"added": 0, "updated": 0, "unchanged": 0} for e in ENTITIES})
    conflicts: list[MergeConflict] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    operation_id: int = 0
    changes: Changes | None = None

    def count(self, entity: str, outcome: str) -> None:
        self.counts[entity][outcome] += 1

    def summary(self) -> str:
        """One paragraph in English."""
        parts = [", ".join(f"{e}: {c['added']} added, {c['updated']} updated, "
                           f"{c['unchanged']} unchanged" for e, c in self.counts.items())]
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        parts.append(f"{len(self.conflicts)} conflicts")
        return f"merged {self.source.name}: " + "; ".join(parts) + "."


def _label(grade: int | None) -> str:
    return Label.of_grade(grade).value


def merge_file(store: GoldSetStore, other_path: str | Path) -> MergeReport:
    """Merge OTHER into ``store``'s file in one undoable operation; see the module's policy.

    Raises a KnownError (nothing changed) when OTHER is the same file, missing, not a
    gold-set file, damaged or of another schema version.
    """
    other_file = Path(other_path).expanduser()
    if other_file.exists() and (other_file.resolve() == store.path
                                or os.path.samefile(other_file, store.path)):
        raise KnownError("this is the file that is open; choose a colleague's copy to merge.",
                         path=other_file)
    with GoldSetStore.open(other_file, read_only=True) as other:
        source = other.assessment_rows()
        reviews = other.trajectory_review_rows()
        other_name = other.path.name
    report = MergeReport(Path(other_file))
    with store.operation("merge", f"← {other_name}") as op:
        max_grade = int((op.get("meta", {"key": "max_grade"}) or {}).get("value") or 1)
        assessors = _merge_assessors(op, source["assessors"], report)
        cases, docs = op.ids_by_key("cases"), op.ids_by_key("documents")
        _merge_judgments(op, source["judgments"], cases, docs, assessors, max_grade, report)
        _merge_adjudications(op, source["adjudications"], cases, docs, assessors, max_grade,
                             report)
        _merge_claims(op, source["claims"], assessors, report)
        _merge_trajectory_reviews(op, reviews, assessors, report)
    report.operation_id = op.operation_id
    report.changes = op.changes()
    return report


def _merge_assessors(op: Writer, rows: list[Row], report: MergeReport) -> dict[str, int]:
    known = op.ids_by_key("assessors")
    for row in rows:
        name = v.check_key("assessor", row["name"])
        if name in known:
            report.count("assessors", "unchanged")
        else:
            known[name] = int(op.insert("assessors", {"name": name,
                                                      "created_at": row["created_at"]})["id"])
            report.count("assessors", "added")
    return known


def _resolve(row: Row, cases: dict[str, int], docs: dict[str, int], max_grade: int,
             what: str, report: MergeReport) -> tuple[int, int] | None:
    """FILE's ids of the row's pair, or None (and a line in ``skipped``)."""
    where = f"{what} of {row['assessor']} on {row['case']} · {row['document']}"
    if row["case"] not in cases:
        report.skipped.append(f"{where}: case {row['case']} is not in this file")
    elif row["document"] not in docs:
        report.skipped.append(f"{where}: document {row['document']} is not in this file")
    elif row["grade"] is not None and row["grade"] > max_grade:
        report.skipped.append(f"{where}: grade {row['grade']} is above this file's scale "
                              f"(0–{max_grade})")
    else:
        return cases[row["case"]], docs[row["document"]]
    return None


def _merge_judgments(op: Writer, rows: list[Row], cases: dict[str, int], docs: dict[str, int],
                     assessors: dict[str, int], max_grade: int, report: MergeReport) -> None:
    names = {i: n for n, i in assessors.items()}
    before: dict[tuple[int, int], dict[str, Row]] = defaultdict(dict)
    for row in op.select("judgments"):
        before[(row["case_id"], row["document_id"])][names[row["assessor_id"]]] = row
    incoming: dict[tuple[int, int], dict[str, int | None]] = defaultdict(dict)
    keys: dict[tuple[int, int], tuple[str, str]] = {}
    for row in rows:
        pair = _resolve(row, cases, docs, max_grade, "judgment", report)
        if pair is None:
            continue
        keys[pair] = (row["case"], row["document"])
        mine = before[pair].get(row["assessor"])
        values = {"grade": row["grade"], "note": row["note"], "updated_at": row["updated_at"]}
        if mine is None:
            op.insert("judgments", {"case_id": pair[0], "document_id": pair[1],
                                    "assessor_id": assessors[row["assessor"]], **values})
            report.count("judgments", "added")
            incoming[pair][row["assessor"]] = row["grade"]
        elif mine["grade"] == row["grade"] and mine["note"] == row["note"]:
            report.count("judgments", "unchanged")
        else:
            newer = row["updated_at"] > mine["updated_at"]
            if newer:
                op.update("judgments", {"id": mine["id"]}, values)
                incoming[pair][row["assessor"]] = row["grade"]
            report.count("judgments", "updated" if newer else "unchanged")
            if mine["grade"] != row["grade"]:
                report.conflicts.append(MergeConflict(
                    "same_assessor", row["case"], row["document"], _label(mine["grade"]),
                    _label(row["grade"]), (row["assessor"],),
                    "the other file's, newer, kept" if newer else "this file's, newer, kept"))
    for pair, grades in incoming.items():
        _report_dispute(op, report, pair, keys[pair], before.get(pair, {}), grades, names)


def _report_dispute(op: Writer, report: MergeReport, pair: tuple[int, int],
                    keys: tuple[str, str], mine: dict[str, Row], theirs: dict[str, int | None],
                    names: dict[int, str]) -> None:
    """List a pair that, once merged, has both labels among its assessors, when the merge
    brought one of them in (a dispute FILE already had is not news)."""
    after = {names[r["assessor_id"]]: _label(r["grade"])
             for r in op.select("judgments", case_id=pair[0], document_id=pair[1])
             if r["grade"] is not None}
    if len(set(after.values())) < 2:
        return
    if not any(g is not None for g in theirs.values()):
        return
    file_labels = {_label(r["grade"]) for r in mine.values() if r["grade"] is not None}
    other_labels = {_label(g) for g in theirs.values() if g is not None}
    settled = op.select("adjudications", case_id=pair[0], document_id=pair[1])
    report.conflicts.append(MergeConflict(
        "dispute", keys[0], keys[1], "/".join(sorted(file_labels)) or "unjudged",
        "/".join(sorted(other_labels)) or "unjudged", tuple(sorted(after)),
        "both kept; the adjudication decides" if settled
        else "both kept: a dispute to adjudicate"))


def _merge_adjudications(op: Writer, rows: list[Row], cases: dict[str, int],
                         docs: dict[str, int], assessors: dict[str, int], max_grade: int,
                         report: MergeReport) -> None:
    for row in rows:
        pair = _resolve(row, cases, docs, max_grade, "adjudication", report)
        if pair is None:
            continue
        found = op.select("adjudications", case_id=pair[0], document_id=pair[1])
        if not found:
            op.insert("adjudications", {
                "case_id": pair[0], "document_id": pair[1], "grade": row["grade"],
                "assessor_id": assessors[row["assessor"]], "note": row["note"],
                "updated_at": row["updated_at"]})
            report.count("adjudications", "added")
            continue
        report.count("adjudications", "unchanged")
        if found[0]["grade"] != row["grade"]:
            mine = op.get("assessors", {"id": found[0]["assessor_id"]}) or {"name": "?"}
            report.conflicts.append(MergeConflict(
                "adjudication", row["case"], row["document"], _label(found[0]["grade"])
                + f" ({found[0]['grade']})", _label(row["grade"]) + f" ({row['grade']})",
                (str(mine["name"]), row["assessor"]), "this file's kept"))


def _merge_claims(op: Writer, rows: list[Row], assessors: dict[str, int],
                  report: MergeReport) -> None:
    if not rows:
        return
    runs = {i: n for n, i in op.ids_by_key("runs").items()}
    cases = {i: k for k, i in op.ids_by_key("cases").items()}
    answers = {a["id"]: (runs[a["run_id"]], cases[a["case_id"]]) for a in op.select("answers")}
    claims: dict[tuple[str, str, int, str], Row] = {}
    for claim in op.select("claims"):
        run, case = answers[claim["answer_id"]]
        claims.setdefault((run, case, claim["position"], claim["text"]), claim)
    for row in rows:
        mine = claims.get((row["run"], row["case"], row["position"], row["text"]))
        where = f"claim #{row['position']} of {row['run']} · {row['case']}"
        if mine is None:
            report.skipped.append(f"{where}: no claim with the same run, case, position "
                                  "and text in this file")
        elif mine["verdict"] is None:
            op.update("claims", {"id": mine["id"]}, {
                "verdict": row["verdict"], "rationale": row["rationale"],
                "assessor_id": assessors.get(row["assessor"] or ""),
                "updated_at": row["updated_at"]})
            report.count("claims", "updated")
        else:
            report.count("claims", "unchanged")
            if mine["verdict"] != row["verdict"]:
                who = op.get("assessors", {"id": mine["assessor_id"]}) if mine[
                    "assessor_id"] is not None else None
                report.conflicts.append(MergeConflict(
                    "verdict", row["case"], f"{row['run']} claim #{row['position']}",
                    mine["verdict"], row["verdict"],
                    tuple(str(x) for x in ((who or {}).get("name") or "?",
                                           row["assessor"] or "?")),
                    "this file's kept"))


def _marks(row: Row) -> tuple[Any, Any]:
    return row["task_success"], row["path_acceptable"]


def _merge_trajectory_reviews(op: Writer, rows: list[Row], assessors: dict[str, int],
                              report: MergeReport) -> None:
    if not rows:
        return
    runs = {i: n for n, i in op.ids_by_key("runs").items()}
    cases = {i: k for k, i in op.ids_by_key("cases").items()}
    trajectories = {(runs[t["run_id"]], cases[t["case_id"]]): t["id"]
                    for t in op.select("trajectories")}
    for row in rows:
        where = f"trajectory review of {row['run']} · {row['case']}"
        trajectory_id = trajectories.get((row["run"], row["case"]))
        if trajectory_id is None:
            report.skipped.append(f"{where}: no trajectory for that run and case in this file")
            continue
        mine = op.get("trajectory_reviews", {"trajectory_id": trajectory_id})
        values = {k: row[k] for k in ("task_success", "success_reason", "path_acceptable",
                                      "path_reason", "note", "updated_at")}
        if mine is None:
            op.insert("trajectory_reviews", {"trajectory_id": trajectory_id, **values,
                                             "assessor_id": assessors[row["assessor"]]})
            report.count("trajectory_reviews", "added")
            continue
        report.count("trajectory_reviews", "unchanged")
        if _marks(mine) != _marks(row):
            who = op.get("assessors", {"id": mine["assessor_id"]}) or {}
            report.conflicts.append(MergeConflict(
                "trajectory", row["case"], f"{row['run']} trajectory", _describe(mine),
                _describe(row), (str(who.get("name") or "?"), str(row["assessor"])),
                "this file's kept"))


def _describe(row: Row) -> str:
    def word(value: Any) -> str:
        return "unmarked" if value is None else ("yes" if value else "no")
    return f"success {word(row['task_success'])}, path {word(row['path_acceptable'])}"
