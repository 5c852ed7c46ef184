"""Writing a checked native document into an empty gold set: the rows of the JSON, CSV-folder
and Excel-workbook imports, in one operation (``native_json`` reads and checks them).

Rows are inserted in bulk, table by table, in the file's order (so that an export of the
result gives the same rows in the same order), natural keys turned into the new file's ids;
``cancel`` is polled every few thousand rows.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rag_annotator.domain.ports import Writer
from rag_annotator.errors import KnownError
from rag_annotator.import_export import native_samples, native_team
from rag_annotator.import_export.files import ImportRejected, polled
from rag_annotator.import_export.native_json import ImportReport
from rag_annotator.import_export.native_structured import load_sections
from rag_annotator.messages import Message


class _Ids:
    """Natural key → row id maps, with errors naming the row that refers to a missing key."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.maps: dict[str, dict[str, int]] = {"cases": {}, "documents": {}, "runs": {},
                                                "assessors": {}}

    def __call__(self, table: str, key: str, where: str) -> int:
        try:
            return self.maps[table][key]
        except KeyError:
            raise ImportRejected(self.path, None, "{where}: no {table} '{key}' in the "
                                                  "file.",
                                                  where=where, table=table[:-1], key=key) from None


def load_goldset(op: Writer, path: Path, data: dict[str, Any], report: ImportReport,
                 cancel: Callable[[], bool] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> None:
    """Insert checked rows (``read_document``'s shape) into an empty gold set, keeping the
    order of every list, so that an export of the result gives the same rows in the same
    order.  Shared by the JSON, CSV and XLSX imports; ``cancel`` is polled every few
    thousand rows (:class:`~.files.Cancelled`: the operation rolls back)."""
    ids = _Ids(path)
    if progress is not None:  # rows stored so far, of every list's rows (nested aside)
        total = sum(len(v) for v in data.values() if isinstance(v, list))
        progress(0, total)
        report.tell = lambda extra: progress(sum(report.counts.values()) + extra, total)
    for key, value in sorted(data.get("meta", {}).items()):
        if op.get("meta", {"key": key}) is None:
            op.insert("meta", {"key": key, "value": value})
        else:
            op.update("meta", {"key": key}, {"value": value})
    _insert(op, cancel, "assessors", data.get("assessors", []), report)
    ids.maps["assessors"] = op.ids_by_key("assessors")
    _insert(op, cancel, "identities", ({"name": r["name"], "group_names": r["groups"],
                                        "note": r["note"]}
                                       for r in data.get("identities", [])), report)
    documents = data.get("documents", [])
    files = _load_files(op, path, data, documents, report)
    _insert(op, cancel, "documents", ({**{k: v for k, v in d.items()
                                  if k not in ("supersedes", "parent", "file")},
                               "supersedes_id": None, "parent_id": None,
                               "file_id": files.get(d["file"])} for d in documents),
            report)
    ids.maps["documents"] = op.ids_by_key("documents")
    for i, doc in enumerate(documents):
        links = {f"{name}_id": ids("documents", doc[name], f"documents[{i}].{name}")
                 for name in ("supersedes", "parent") if doc[name] is not None}
        if links:
            op.update("documents", {"id": ids.maps["documents"][doc["key"]]}, links)
    cases = data.get("cases", [])
    _insert(op, cancel, "cases", ({k: v for k, v in c.items() if k != "expected_sources"}
                          for c in cases), report)
    ids.maps["cases"] = op.ids_by_key("cases")
    _insert(op, cancel, "expected_sources", (
        {"case_id": ids.maps["cases"][c["key"]],
         "document_id": ids("documents", s["document"],
                            f"cases[{i}].expected_sources[{j}].document"),
         "span_start": s["span_start"], "span_end": s["span_end"], "note": s["note"]}
        for i, c in enumerate(cases) for j, s in enumerate(c.get("expected_sources", []))),
        report)
    _insert(op, cancel, "case_reviews", (
        {"case_id": ids("cases", r["case"], f"case_reviews[{i}].case"),
         "origin": r["origin"], "decision": r["decision"],
         "near_duplicate_of": None if r["near_duplicate_of"] is None else ids(
             "cases", r["near_duplicate_of"], f"case_reviews[{i}].near_duplicate_of"),
         "decided_by": r["decided_by"], "decided_at": r["decided_at"]}
        for i, r in enumerate(data.get("case_reviews", []))), report)
    _insert(op, cancel, "runs", data.get("runs", []), report)
    ids.maps["runs"] = op.ids_by_key("runs")
    _insert(op, cancel, "retrieved", (
        {"run_id": ids("runs", r["run"], f"retrieved[{i}].run"),
         "case_id": ids("cases", r["case"], f"retrieved[{i}].case"),
         "document_id": ids("documents", r["document"], f"retrieved[{i}].document"),
         "rank": r["rank"], "score": r["score"]}
        for i, r in enumerate(data.get("retrieved", []))), report)
    _load_answers(op, cancel, data.get("answers", []), ids, report)
    _insert(op, cancel, "answer_reviews", (
        {"run_id": ids("runs", r["run"], f"answer_reviews[{i}].run"),
         "case_id": ids("cases", r["case"], f"answer_reviews[{i}].case"),
         "assessor_id": ids("assessors", r["assessor"], f"answer_reviews[{i}].assessor"),
         **{k: r[k] for k in ("outcome", "validated", "failure_categories",
                              "must_contain_found", "forbidden_present", "note",
                              "updated_at")}}
        for i, r in enumerate(data.get("answer_reviews", []))), report)
    _load_trajectories(op, cancel, data.get("trajectories", []), data.get("trajectory_reviews", []),
                       ids, report)
    for table in ("judgments", "adjudications"):
        _insert_labels(op, cancel, table, data.get(table, []), ids, report)
    _insert(op, cancel, "releases", data.get("releases", []), report)
    _load_team(op, cancel, data, ids, report)
    load_sections(op, path, data)  # output contracts, then the checks and field outcomes
    native_samples.load(op, path, data.get("review_samples", []), ids)  # issue 22


def _load_files(op: Writer, path: Path, data: dict[str, Any], documents: list[dict[str, Any]],
                report: ImportReport) -> dict[str | None, int]:
    """Insert the kept files documents name (SHA-256 → new id).  A native JSON file must
    carry every file its documents name; a CSV folder or workbook names them without the
    bytes, so their documents come in without a kept file, and a warning says how many."""
    from rag_annotator.domain.clock import utc_now

    given = data.get("document_files")
    named = sorted({str(d["file"]) for d in documents if d.get("file") is not None})
    if given is None:
        if named:
            report.warnings.append(Message(
                "{n} documents name a kept file (a PDF) that a flat table cannot carry: they "
                "are imported without it (export and import the native JSON to keep it).",
                n=sum(1 for d in documents if d.get("file") is not None)))
        return {}
    ids: dict[str | None, int] = {}
    for i, doc in enumerate(documents):
        if doc.get("file") is not None and doc["file"] not in given:
            raise ImportRejected(path, None, "documents[{i}].file: no entry of document_files "
                                             "has this SHA-256; export the file again.", i=i)
    for sha in sorted(given):
        row = given[sha]
        stored = op.insert("document_files", {**row, "created_at": row.get("created_at")
                                              or utc_now()})
        ids[sha] = int(stored["id"])
    report.counts["document_files"] = len(ids)
    return ids


def _load_team(op: Writer, cancel: Callable[[], bool] | None, data: dict[str, Any], ids: _Ids,
               report: ImportReport) -> None:
    """Campaigns (with their assessors), queues (of pairs, claims or trajectories), control
    repeats, "can't judge" and each assessor's verdict on an assigned claim or trajectory."""
    import json

    campaigns = data.get("campaigns", [])
    _insert(op, cancel, "campaigns", ({k: v for k, v in c.items() if k != "assessors"}
                                      for c in campaigns), report)
    by_uuid = {str(r["uuid"]): int(r["id"]) for r in op.select("campaigns")}

    def campaign(value: str, where: str) -> int:
        if value not in by_uuid:
            raise ImportRejected(ids.path, None, "{where}: no campaign '{value}' in the file.",
                                                 where=where, value=value)
        return by_uuid[value]

    _insert(op, cancel, "campaign_assessors", (
        {"campaign_id": by_uuid[c["uuid"]],
         "assessor_id": ids("assessors", name, f"campaigns[{i}].assessors"), "file_name": ""}
        for i, c in enumerate(campaigns) for name in json.loads(c["assessors"])), report)
    items = {str(c["uuid"]): str(c["items"]) for c in campaigns}
    slots = native_team.ItemSlots(op, ids.path)

    def slot(i: int, r: dict[str, Any]) -> dict[str, Any]:
        where = f"assignments[{i}]"
        campaign_id = campaign(r["campaign"], f"{where}.campaign")
        claim_id, trajectory_id = slots.slot(items[r["campaign"]], r, where)
        pair = items[r["campaign"]] == "pairs"
        return {"campaign_id": campaign_id,
                "assessor_id": ids("assessors", r["assessor"], f"{where}.assessor"),
                "position": r["position"],
                "case_id": ids("cases", r["case"], f"{where}.case") if pair else None,
                "document_id": ids("documents", r["document"], f"{where}.document")
                if pair else None,
                "is_control": r["is_control"] or 0, "claim_id": claim_id,
                "trajectory_id": trajectory_id}

    _insert(op, cancel, "queues", _queues(
        slot(i, r) for i, r in enumerate(data.get("assignments", []))), report)
    _insert(op, cancel, "control_judgments", (
        {"campaign_id": campaign(r["campaign"], f"control_judgments[{i}].campaign"),
         "assessor_id": ids("assessors", r["assessor"], f"control_judgments[{i}].assessor"),
         "case_id": ids("cases", r["case"], f"control_judgments[{i}].case"),
         "document_id": ids("documents", r["document"], f"control_judgments[{i}].document"),
         **{k: r[k] for k in ("grade", "seconds", "updated_at")}}
        for i, r in enumerate(data.get("control_judgments", []))), report)
    _insert(op, cancel, "cannot_judge", (
        {"case_id": ids("cases", r["case"], f"cannot_judge[{i}].case"),
         "document_id": ids("documents", r["document"], f"cannot_judge[{i}].document"),
         "assessor_id": ids("assessors", r["assessor"], f"cannot_judge[{i}].assessor"),
         "reason": r["reason"], "updated_at": r["updated_at"]}
        for i, r in enumerate(data.get("cannot_judge", []))), report)
    _insert(op, cancel, "claim_assessments", (
        {"campaign_id": campaign(r["campaign"], f"claim_assessments[{i}].campaign"),
         "claim_id": slots.claim(r["run"], r["case"], r["position"], f"claim_assessments[{i}]"),
         "assessor_id": ids("assessors", r["assessor"], f"claim_assessments[{i}].assessor"),
         **{k: r[k] for k in ("verdict", "rationale", "updated_at")}}
        for i, r in enumerate(data.get("claim_assessments", []))), report)
    _insert(op, cancel, "trajectory_assessments", (
        {"campaign_id": campaign(r["campaign"], f"trajectory_assessments[{i}].campaign"),
         "trajectory_id": slots.trajectory(r["run"], r["case"], r["trial"],
                                           f"trajectory_assessments[{i}]"),
         "assessor_id": ids("assessors", r["assessor"],
                            f"trajectory_assessments[{i}].assessor"),
         **{k: r[k] for k in ("task_success", "success_reason", "path_acceptable",
                              "path_reason", "note", "updated_at")}}
        for i, r in enumerate(data.get("trajectory_assessments", []))), report)


def _load_answers(op: Writer, cancel: Callable[[], bool] | None,
                  answers: list[dict[str, Any]], ids: _Ids, report: ImportReport) -> None:
    _insert(op, cancel, "answers", (
        {"run_id": ids("runs", a["run"], f"answers[{i}].run"),
         "case_id": ids("cases", a["case"], f"answers[{i}].case"),
         **{k: a[k] for k in ("text", "latency_ms", "cost", "tokens", "extra")}}
        for i, a in enumerate(answers)), report)
    # The file was empty and the operation holds the write lock: rows by id are in the
    # order they were inserted, which is the file's order.
    answer_ids = [int(r["id"]) for r in op.select("answers", order_by="id")]
    _insert(op, cancel, "citations", (
        {"answer_id": answer_ids[i],
         "document_id": ids("documents", c["document"], f"answers[{i}].citations[{j}]"),
         **{k: c[k] for k in ("marker", "span_start", "span_end", "support", "note")}}
        for i, a in enumerate(answers) for j, c in enumerate(a["citations"])), report)
    claims = [(i, j, c) for i, a in enumerate(answers) for j, c in enumerate(a["claims"])]
    _insert(op, cancel, "claims", (
        {"answer_id": answer_ids[i], "position": c["position"], "text": c["text"],
         "span_start": c["span_start"], "span_end": c["span_end"], "verdict": c["verdict"],
         "rationale": c["rationale"],
         "assessor_id": None if c["assessor"] is None else ids(
             "assessors", c["assessor"], f"answers[{i}].claims[{j}].assessor"),
         "updated_at": c["updated_at"]}
        for i, j, c in claims), report)
    claim_ids = [int(r["id"]) for r in op.select("claims", order_by="id")]
    _insert(op, cancel, "evidence", (
        {"claim_id": claim_ids[n],
         "document_id": ids("documents", e["document"],
                            f"answers[{i}].claims[{j}].evidence[{k}].document"),
         "span_start": e["span_start"], "span_end": e["span_end"]}
        for n, (i, j, c) in enumerate(claims) for k, e in enumerate(c["evidence"])), report)
    _insert(op, cancel, "judge_verdicts", (
        {"claim_id": claim_ids[n],
         "assessor_id": ids("assessors", v["assessor"],
                            f"answers[{i}].claims[{j}].judge_verdicts[{k}].assessor"),
         **{x: v[x] for x in ("verdict", "raw_label", "rationale", "updated_at")}}
        for n, (i, j, c) in enumerate(claims) for k, v in enumerate(c["judge_verdicts"])),
        report)


def _load_trajectories(op: Writer, cancel: Callable[[], bool] | None,
                       trajectories: list[dict[str, Any]], reviews: list[dict[str, Any]],
                       ids: _Ids, report: ImportReport) -> None:
    """Trajectories with their steps, then their reviews (by run and case)."""
    agent_cases = {int(row["id"]) for row in op.select("cases", kind="agent")}
    for i, t in enumerate(trajectories):
        if ids("cases", t["case"], f"trajectories[{i}].case") not in agent_cases:
            raise ImportRejected(ids.path, None, "trajectories[{i}].case: '{t}' is "
                                                 "not an agent case (kind agent).",
                                                 i=i, t=t['case'])
    _insert(op, cancel, "trajectories", (
        {"run_id": ids("runs", t["run"], f"trajectories[{i}].run"),
         "case_id": ids("cases", t["case"], f"trajectories[{i}].case"),
         **{k: t[k] for k in ("final_state", "final_answer", "tokens", "seconds", "cost",
                              "extra")},
         "trial": t.get("trial", 0), "reward": t.get("reward")}
        for i, t in enumerate(trajectories)), report)
    # Empty file, write lock held: ids follow the file's order (as for answers).
    trajectory_ids = [int(r["id"]) for r in op.select("trajectories", order_by="id")]
    _insert(op, cancel, "trajectory_steps", (
        {"trajectory_id": trajectory_ids[i],
         **{k: step[k] for k in ("position", "tool", "arguments", "result")}}
        for i, t in enumerate(trajectories) for step in t["steps"]), report)
    by_pair = {(t["run"], t["case"], t.get("trial", 0)): trajectory_ids[i]
               for i, t in enumerate(trajectories)}

    def trajectory_of(i: int, review: dict[str, Any]) -> int:
        found = by_pair.get((review["run"], review["case"], review.get("trial", 0)))
        if found is None:
            raise ImportRejected(ids.path, None, "trajectory_reviews[{i}]: no trajectory of "
                                                 "run '{review}' for case "
                                                 "'{review2}' in the file.",
                                                 i=i, review=review['run'], review2=review['case'])
        return found

    _insert(op, cancel, "trajectory_reviews", (
        {"trajectory_id": trajectory_of(i, r),
         "assessor_id": ids("assessors", r["assessor"], f"trajectory_reviews[{i}].assessor"),
         **{k: r[k] for k in ("task_success", "success_reason", "path_acceptable",
                              "path_reason", "note", "updated_at")}}
        for i, r in enumerate(reviews)), report)


def _queues(slots: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The native JSON's one row per slot packed into one ``queues`` row per assessor
    (slots in position order; a pair as ``(case_id << 32) + document_id``, negated for a
    control repeat, a claim or a trajectory as its id: see ``storage.schema_sql``)."""
    queues: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r in slots:
        if r["case_id"] is not None:
            value = (r["case_id"] << 32) + r["document_id"]
            value = -value if r["is_control"] else value
        else:
            value = r["claim_id"] if r["claim_id"] is not None else r["trajectory_id"]
        queues.setdefault((r["campaign_id"], r["assessor_id"]), []).append(
            (int(r["position"]), int(value)))
    for (campaign_id, assessor_id), packed in queues.items():
        yield {"campaign_id": campaign_id, "assessor_id": assessor_id,
               "slots": "[" + ",".join(str(v) for _p, v in sorted(packed)) + "]"}


def _ticking(cancel: Callable[[], bool] | None, report: ImportReport
             ) -> Callable[[], bool] | None:
    """``cancel``, also telling the progress (rows stored) each time it is polled."""
    tell = report.tell
    if tell is None:
        return cancel
    polls = itertools.count()

    def poll() -> bool:  # polled every 5,000 rows of this table
        tell(next(polls) * 5_000)
        return cancel is not None and cancel()
    return poll


def _insert_labels(op: Writer, cancel: Callable[[], bool] | None, table: str,
                   rows: list[dict[str, Any]], ids: _Ids, report: ImportReport) -> None:
    """Judgments or adjudications as tuples (``insert_rows``): a million dicts built only
    to be unpacked again cost more than SQLite's inserts (issue 19)."""
    import sqlite3

    cases, docs, people = (ids.maps["cases"], ids.maps["documents"], ids.maps["assessors"])
    judgments = table == "judgments"
    columns = ("case_id", "document_id", "assessor_id", "grade", "note", "updated_at",
               *(("seconds",) if judgments else ()))

    def tuples() -> Iterator[tuple[Any, ...]]:
        for i, r in enumerate(rows):
            case, doc, who = cases.get(r["case"]), docs.get(r["document"]), people.get(
                r["assessor"])
            if case is None or doc is None or who is None:  # the error names the key
                case = ids("cases", r["case"], f"{table}[{i}].case")
                doc = ids("documents", r["document"], f"{table}[{i}].document")
                who = ids("assessors", r["assessor"], f"{table}[{i}].assessor")
            yield ((case, doc, who, r["grade"], r["note"], r["updated_at"], r.get("seconds"))
                   if judgments else (case, doc, who, r["grade"], r["note"], r["updated_at"]))

    try:
        n = op.insert_rows(table, columns, polled(tuples(), _ticking(cancel, report), 5_000))
    except sqlite3.IntegrityError as error:
        raise KnownError("{table}: {error} — two rows share a key, or a value is out of "
                         "range; fix the file. Nothing was imported.", table=table,
                         error=error) from None
    report.counts[table] = report.counts.get(table, 0) + n


def _insert(op: Writer, cancel: Callable[[], bool] | None, table: str,
            rows: Iterable[Mapping[str, Any]], report: ImportReport) -> None:
    """Bulk insert (one history row per batch), turning a broken constraint into an error
    that names the table (a duplicate key, a rank used twice…)."""
    import sqlite3

    try:
        n = op.insert_many(table, polled(rows, _ticking(cancel, report), 5_000))
    except sqlite3.IntegrityError as error:
        raise KnownError("{table}: {error} — two rows share a key, or a value is out of "
                         "range; fix the file. Nothing was imported.",
                         table=table, error=error) from None
    report.counts[table] = report.counts.get(table, 0) + n
