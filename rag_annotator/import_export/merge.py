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

OTHER is untrusted (DESIGN section 9).  Its schema must be exactly this build's, or opening it
refuses it (no trigger, no view standing in for a table: only base tables are read).  Each of
its rows is then checked before it can change FILE, and a row that fails is skipped and listed
with its reason in the one report — not the whole merge refused, since one hand-edited or
clock-skewed row should not cost the colleague's other work, and the report shows exactly what
was left out (``merge`` prints each as a warning line).  A row is skipped when:

* its grade is not a whole number within FILE's scale, its verdict or marks are not among the
  values this build writes, its texts are not text;
* a timestamp does not parse as ISO 8601 with a time zone as the app writes it
  (``2026-11-29T18:41:37.123Z``), or lies more than :data:`FUTURE_SKEW` (one day, for clocks
  set wrong) after now: ``updated_at = '9999-12-31…'`` would otherwise win every "newer wins"
  comparison and flip FILE's labels;
* one of its references does not resolve in OTHER (SQLite's foreign-key check) or its case,
  document or assessor is not in FILE / was itself skipped.

"Newer" compares instants, not strings, so time zones written differently compare right.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.enums import Label
from rag_annotator.domain.ports import Writer
from rag_annotator.errors import KnownError
from rag_annotator.messages import N_, Joined, Message, Plural
from rag_annotator.storage.store import GoldSetStore

#: the entities' names in a merge summary ("judgments: 3 added, …")
_ENTITY_NAMES = {"assessors": N_("assessors"), "judgments": N_("judgments"),
                 "claims": N_("claims"), "adjudications": N_("adjudications"),
                 "trajectory_reviews": N_("trajectory reviews")}
ENTITIES = ("assessors", "judgments", "claims", "adjudications", "trajectory_reviews")
Row = dict[str, Any]
#: How far in the future an incoming timestamp may be (a colleague's clock set wrong).
FUTURE_SKEW = timedelta(days=1)
#: ISO 8601 as ``domain.clock.utc_now`` writes it (any fraction, ``Z`` or an offset).
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})")
_VERDICTS = frozenset({"supported", "not_supported", "contradicted"})
#: Tables whose rows a merge reads, for SQLite's foreign-key check of OTHER.
_READ_TABLES = ("judgments", "adjudications", "claims", "answers", "trajectory_reviews",
                "trajectories")


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

    def describe(self, lang: str | None = None) -> str:
        """One line in ``lang`` (default: the session's language; the UI builds its own)."""
        return self.message().render(lang)

    def message(self) -> Message:
        """:meth:`describe` as a message id and its parameters."""
        return Message("{kind}: {case} · {document}: this file says {file_label}, the other "
                       "says {other_label} ({who}); {kept}", kind=self.kind, case=self.case,
                       document=self.document, file_label=self.file_label,
                       other_label=self.other_label, who=", ".join(self.assessors),
                       kept=Message(self.kept))


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

    def summary(self, lang: str | None = None) -> str:
        """One paragraph in ``lang`` (default: the session's language)."""
        return self.message().render(lang)

    def message(self) -> Message:
        """:meth:`summary` as a message id and its parameters."""
        parts: list[Any] = [Joined([
            Message("{entity}: {added} added, {updated} updated, {unchanged} unchanged",
                    entity=Message(_ENTITY_NAMES.get(e, e)), **c)
            for e, c in self.counts.items()], ", ")]
        if self.skipped:
            parts.append(Plural("{n} skipped", "{n} skipped", len(self.skipped)))
        parts.append(Plural("{n} conflict", "{n} conflicts", len(self.conflicts)))
        return Message("merged {file}: {parts}.", file=self.source.name, parts=Joined(parts))


def _label(grade: int | None) -> str:
    return Label.of_grade(grade).value


def merge_file(store: GoldSetStore, other_path: str | Path,
               tick: Callable[[], None] | None = None) -> MergeReport:
    """Merge OTHER into ``store``'s file in one undoable operation; see the module's policy.
    ``tick`` is called every few thousand judgments inside the operation (the CLI's
    progress; a KeyboardInterrupt raised there rolls the whole merge back).

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
        dangling = [Message("{table} row {rowid} of the other file refers to a missing "
                            "{parent} row", table=row["table"], rowid=row["rowid"],
                            parent=row["parent"]) for table in _READ_TABLES
                    for row in other.query(
                        "SELECT \"table\", rowid, parent FROM pragma_foreign_key_check(?)",
                        (table,))]
        other_name = other.path.name
    report = MergeReport(Path(other_file))
    report.skipped.extend(dangling)  # the reads join on their references: never brought in
    now = datetime.now(timezone.utc)
    with store.operation("merge", f"← {other_name}") as op:
        max_grade = _max_grade(op)
        assessors = _merge_assessors(op, source["assessors"], now, report)
        cases, docs = op.ids_by_key("cases"), op.ids_by_key("documents")
        judgments = _valid(source["judgments"], "judgment", now, report)
        adjudications = _valid(source["adjudications"], "adjudication", now, report)
        _merge_judgments(op, judgments, cases, docs, assessors, max_grade, report, tick)
        _merge_adjudications(op, adjudications, cases, docs, assessors, max_grade, report)
        _merge_claims(op, _valid_claims(source["claims"], now, report), assessors, report)
        _merge_trajectory_reviews(op, _valid_reviews(reviews, now, report), assessors, report)
    report.operation_id = op.operation_id
    report.changes = op.changes()
    return report


def _max_grade(op: Writer) -> int:
    """FILE's scale (1 when its setting is unreadable: the strictest)."""
    try:
        return int((op.get("meta", {"key": "max_grade"}) or {}).get("value") or 1)
    except (TypeError, ValueError):
        return 1


def _instant(value: Any) -> datetime | None:
    """The moment an ISO 8601 timestamp written as the app writes it names, else None."""
    if not isinstance(value, str) or not _TIMESTAMP.fullmatch(value):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _bad_timestamp(value: Any, now: datetime, *, optional: bool = False) -> str | None:
    """Why an incoming timestamp cannot be trusted, or None."""
    if value is None and optional:
        return None
    instant = _instant(value)
    if instant is None:
        return Message("its timestamp {value!r} is not an ISO 8601 date and time",
                       value=str(value)[:40])
    if instant > now + FUTURE_SKEW:
        return Plural("its timestamp {value} is in the future (more than {n} day ahead)",
                      "its timestamp {value} is in the future (more than {n} days ahead)",
                      FUTURE_SKEW.days, value=value)
    return None


def _is_text(*values: Any) -> bool:
    return all(isinstance(value, str) for value in values)


_PAIR_WHERE = {"judgment": N_("judgment of {assessor} on {case} · {document}"),
               "adjudication": N_("adjudication of {assessor} on {case} · {document}")}


def _pair_where(row: Row, what: str) -> Message:
    """Which judgment or adjudication a skipped line is about."""
    return Message(_PAIR_WHERE[what], assessor=row["assessor"], case=row["case"],
                   document=row["document"])


def _claim_where(row: Row) -> Message:
    return Message("claim #{position} of {run} · {case}", position=row["position"],
                   run=row["run"], case=row["case"])


def _review_where(row: Row) -> Message:
    return Message("trajectory review of {run} · {case}", run=row["run"], case=row["case"])


def _assessor_skipped(where: Message, row: Row) -> Message:
    return Message("{where}: assessor {assessor} was skipped", where=where,
                   assessor=row["assessor"])


def _kept(rows: list[Row], problem: Callable[[Row], str | None],
          name: Callable[[Row], str], report: MergeReport) -> list[Row]:
    """The rows whose values can be trusted; each other one is listed in the report with
    ``name(row)`` and its ``problem`` (one check per entity below, one loop for all)."""
    kept = []
    for row in rows:
        why = problem(row)
        if why is None:
            kept.append(row)
        else:
            report.skipped.append(Message("{where}: {why}", where=name(row), why=why))
    return kept


def _valid(rows: list[Row], what: str, now: datetime, report: MergeReport) -> list[Row]:
    """Judgments or adjudications whose values can be trusted; the others listed."""

    def problem(row: Row) -> str | None:
        grade = row["grade"]
        if not _is_text(row["case"], row["document"], row["assessor"], row["note"]):
            return Message("a key or its note is not text")
        if (grade is None and what == "adjudication") or (grade is not None and (
                not isinstance(grade, int) or isinstance(grade, bool) or grade < 0)):
            return Message("its grade {grade!r} is not a whole number of the scale",
                           grade=grade)
        seconds = row.get("seconds")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(
                seconds, (int, float)) or not 0 <= seconds <= 86_400):
            return Message("its active time {seconds!r} is not a number of seconds from 0 "
                           "to a day", seconds=seconds)
        return _bad_timestamp(row["updated_at"], now)

    return _kept(rows, problem, lambda row: _pair_where(row, what), report)


def _valid_claims(rows: list[Row], now: datetime, report: MergeReport) -> list[Row]:
    def problem(row: Row) -> str | None:
        if not (_is_text(row["run"], row["case"], row["text"], row["rationale"])
                and isinstance(row["position"], int)
                and (row["assessor"] is None or isinstance(row["assessor"], str))):
            return Message("a key, its text or its position is not of the right kind")
        if row["verdict"] not in _VERDICTS:
            return Message("its verdict {verdict!r} is not one this build writes",
                           verdict=str(row["verdict"])[:40])
        return _bad_timestamp(row["updated_at"], now, optional=True)

    return _kept(rows, problem,
                 lambda row: _claim_where(row), report)


def _valid_reviews(rows: list[Row], now: datetime, report: MergeReport) -> list[Row]:
    def problem(row: Row) -> str | None:
        if not _is_text(row["run"], row["case"], row["assessor"], row["success_reason"],
                        row["path_reason"], row["note"]):
            return Message("a key or a text is not text")
        if row["task_success"] not in (None, 0, 1) or row["path_acceptable"] not in (
                None, 0, 1):
            return Message("its marks are not yes, no or unmarked")
        return _bad_timestamp(row["updated_at"], now)

    return _kept(rows, problem,
                 lambda row: _review_where(row), report)


def _merge_assessors(op: Writer, rows: list[Row], now: datetime,
                     report: MergeReport) -> dict[str, int]:
    """FILE's assessor ids by name, the other file's new assessors added; an assessor whose
    name or date cannot be trusted is skipped (and so are their rows, listed by
    :func:`_resolve` and the claims and reviews merges)."""
    known = op.ids_by_key("assessors")
    for row in rows:
        name = row["name"]
        try:
            v.check_key("assessor", name)
        except KnownError:
            report.skipped.append(Message("assessor {name!r}: not a valid name",
                                          name=str(name)[:40]))
            continue
        why = None if name in known else _bad_timestamp(row["created_at"], now)
        if why is not None:
            report.skipped.append(Message("assessor {name}: {why}", name=name, why=why))
            continue
        if name in known:
            report.count("assessors", "unchanged")
        else:
            known[name] = int(op.insert("assessors", {"name": name,
                                                      "created_at": row["created_at"]})["id"])
            report.count("assessors", "added")
    return known


def _resolve(row: Row, cases: dict[str, int], docs: dict[str, int], assessors: dict[str, int],
             max_grade: int, what: str, report: MergeReport) -> tuple[int, int] | None:
    """FILE's ids of the row's pair, or None (and a line in ``skipped``)."""
    where = _pair_where(row, what)
    if row["assessor"] not in assessors:
        report.skipped.append(_assessor_skipped(where, row))
    elif row["case"] not in cases:
        report.skipped.append(Message("{where}: case {case} is not in this file",
                                      where=where, case=row["case"]))
    elif row["document"] not in docs:
        report.skipped.append(Message("{where}: document {document} is not in this file",
                                      where=where, document=row["document"]))
    elif row["grade"] is not None and row["grade"] > max_grade:
        report.skipped.append(Message("{where}: grade {grade} is above this file's scale "
                                      "(0–{max_grade})", where=where, grade=row["grade"],
                                      max_grade=max_grade))
    else:
        return cases[row["case"]], docs[row["document"]]
    return None


def _merge_judgments(op: Writer, rows: list[Row], cases: dict[str, int], docs: dict[str, int],
                     assessors: dict[str, int], max_grade: int, report: MergeReport,
                     tick: Callable[[], None] | None = None) -> None:
    names = {i: n for n, i in assessors.items()}
    before: dict[tuple[int, int], dict[str, Row]] = defaultdict(dict)
    for row in op.select("judgments"):
        before[(row["case_id"], row["document_id"])][names[row["assessor_id"]]] = row
    incoming: dict[tuple[int, int], dict[str, int | None]] = defaultdict(dict)
    keys: dict[tuple[int, int], tuple[str, str]] = {}
    for number, row in enumerate(rows):
        if tick is not None and number % 5_000 == 0:
            tick()
        pair = _resolve(row, cases, docs, assessors, max_grade, "judgment", report)
        if pair is None:
            continue
        keys[pair] = (row["case"], row["document"])
        mine = before[pair].get(row["assessor"])
        values = {"grade": row["grade"], "note": row["note"], "updated_at": row["updated_at"],
                  "seconds": row.get("seconds")}  # active time, schema 4
        if mine is None:
            op.insert("judgments", {"case_id": pair[0], "document_id": pair[1],
                                    "assessor_id": assessors[row["assessor"]], **values})
            report.count("judgments", "added")
            incoming[pair][row["assessor"]] = row["grade"]
        elif mine["grade"] == row["grade"] and mine["note"] == row["note"]:
            report.count("judgments", "unchanged")
        else:
            newer = _later(row["updated_at"], mine["updated_at"])
            if newer:
                op.update("judgments", {"id": mine["id"]}, values)
                incoming[pair][row["assessor"]] = row["grade"]
            report.count("judgments", "updated" if newer else "unchanged")
            if mine["grade"] != row["grade"]:
                report.conflicts.append(MergeConflict(
                    "same_assessor", row["case"], row["document"], _label(mine["grade"]),
                    _label(row["grade"]), (row["assessor"],),
                    N_("the other file's, newer, kept") if newer
                    else N_("this file's, newer, kept")))
    for pair, grades in incoming.items():
        _report_dispute(op, report, pair, keys[pair], before.get(pair, {}), grades, names)


def _later(theirs: str, mine: Any) -> bool:
    """Is the (checked) incoming timestamp after FILE's?  Instants, not strings; a FILE
    timestamp that does not parse counts as older."""
    mine_at = _instant(mine)
    theirs_at = _instant(theirs)
    assert theirs_at is not None  # checked by _valid
    return mine_at is None or theirs_at > mine_at


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
        pair = _resolve(row, cases, docs, assessors, max_grade, "adjudication",
                        report)
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
                (str(mine["name"]), row["assessor"]), N_("this file's kept")))


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
        where = _claim_where(row)
        if row["assessor"] is not None and row["assessor"] not in assessors:
            report.skipped.append(_assessor_skipped(where, row))
        elif mine is None:
            report.skipped.append(Message("{where}: no claim with the same run, case, "
                                          "position and text in this file", where=where))
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
                    N_("this file's kept")))


def _marks(row: Row) -> tuple[Any, Any]:
    return row["task_success"], row["path_acceptable"]


def _merge_trajectory_reviews(op: Writer, rows: list[Row], assessors: dict[str, int],
                              report: MergeReport) -> None:
    if not rows:
        return
    runs = {i: n for n, i in op.ids_by_key("runs").items()}
    cases = {i: k for k, i in op.ids_by_key("cases").items()}
    trajectories = {(runs[t["run_id"]], cases[t["case_id"]], t["trial"]): t["id"]
                    for t in op.select("trajectories")}
    for row in rows:
        where = _review_where(row)
        trajectory_id = trajectories.get((row["run"], row["case"], row.get("trial") or 0))
        if row["assessor"] not in assessors:
            report.skipped.append(_assessor_skipped(where, row))
            continue
        if trajectory_id is None:
            report.skipped.append(Message("{where}: no trajectory for that run and case in "
                                          "this file", where=where))
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
                N_("this file's kept")))


def _describe(row: Row) -> str:
    def word(value: Any) -> str:
        return "unmarked" if value is None else ("yes" if value else "no")
    return f"success {word(row['task_success'])}, path {word(row['path_acceptable'])}"
