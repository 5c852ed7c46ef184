"""The built-in French sample gold set (``resources/sample/sample_fr.json``).

The sample is what a new user opens first: an HR-policy corpus of a fictional company with
cases in every family, two runs with ranked lists and answers already split into claims, and
a few judgments and verdicts by one assessor, so judging and verifying can start at once.
It also holds seed 000's support agent: three agent cases (expected final state,
invariants, budgets) and two agent runs whose trajectories show a clean path, a forbidden
tool, a reversed order, a wrong final state and a blown budget.
Passages and claims are written in the resource as quotes; their character spans are found
here, so the resource stays readable and cannot drift out of sync with offsets.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.agent_ops import TrajectoryInput, add_trajectories
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.operations import ensure_assessor
from rag_annotator.domain.ports import Writer
from rag_annotator.domain.structured import contract_from_json
from rag_annotator.domain.structured_ops import check_answers_in, write_contract_in
from rag_annotator.import_export.sample_judge import load_sample_judge
from rag_annotator.storage.store import GoldSetStore

SAMPLE_RESOURCE = ("rag_annotator.resources", "sample", "sample_fr.json")


def sample_data() -> dict[str, Any]:
    """The sample as parsed JSON."""
    package, folder, name = SAMPLE_RESOURCE
    text = resources.files(package).joinpath(folder).joinpath(name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def create_sample(path: str | Path, *, assessor: str = "", lock: bool = False,
                  with_judge: bool = True) -> GoldSetStore:
    """Create a new gold-set file at ``path`` holding the sample; return it open (locked for
    this writer when ``lock``, as the app does).  ``with_judge=False`` leaves out the
    automatic judge and its reviewed sample (``sample_judge.py``)."""
    data = sample_data()
    store = GoldSetStore.create(path, name=data["name"], assessor=assessor, lock=lock)
    try:
        load_sample(store, data, with_judge=with_judge)
    except BaseException:
        store.close()
        Path(path).unlink(missing_ok=True)
        raise
    return store


def load_sample(store: GoldSetStore, data: dict[str, Any], with_judge: bool = True) -> None:
    """Insert the sample into an empty gold set, in one operation (not undoable)."""
    with store.operation("load_sample", data["name"], log=False, undoable=False) as op:
        op.update("meta", {"key": "guidelines"}, {"value": data["guidelines"]})
        assessors = {name: ensure_assessor(op, name) for name in data["assessors"]}
        _load_identities(op, data.get("identities", []))
        docs = _load_documents(op, data["documents"])
        cases = _load_cases(op, data["cases"], docs)
        behaviours = {c["key"]: c["expected_behaviour"] for c in data["cases"]}
        for run in data["runs"]:
            _load_run(op, run, cases, docs, assessors, behaviours)
            _load_trajectories(op, run, cases, assessors)
        for item in data["cases"]:  # output contracts, then their answers checked
            if "output_contract" in item:
                write_contract_in(op, op.get("cases", {"id": cases[item["key"]]}) or {},
                                  contract_from_json(item["output_contract"]))
        check_answers_in(op, op.select("answers", order_by="id"), fresh=True)
        now = utc_now()
        op.insert_many("judgments", (
            {"case_id": cases[j["case"]], "document_id": docs[j["document"]]["id"],
             "assessor_id": assessors[j["assessor"]], "grade": j["grade"],
             "note": j.get("note") or "", "updated_at": now}
            for j in data["judgments"]
        ))
        if with_judge:  # issue 22
            load_sample_judge(store, op, next(iter(assessors.values())))


def _load_identities(op: Writer, items: list[dict[str, Any]]) -> None:
    """The test identities of the rights matrix (name, groups, note)."""
    op.insert_many("identities", (
        {"name": item["name"], "group_names": json.dumps(item["groups"], ensure_ascii=False),
         "note": item.get("note", "")} for item in items))


def _load_documents(op: Writer, items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    now = utc_now()
    docs: dict[str, dict[str, Any]] = {}
    for item in items:
        columns = v.document_columns({
            k: item[k] for k in ("key", "title", "text", "owner", "rights", "valid_from",
                                 "valid_until", "status", "version")
        })
        docs[item["key"]] = op.insert("documents", {**columns, "created_at": now,
                                                    "updated_at": now})
    for item in items:
        if item.get("supersedes"):
            op.update("documents", {"id": docs[item["key"]]["id"]},
                      {"supersedes_id": docs[item["supersedes"]]["id"]})
    return docs


def _span(text: str, quote: str | None, where: str) -> tuple[int | None, int | None]:
    if not quote:
        return None, None
    start = text.find(quote)
    if start < 0:
        raise ValueError(f"sample: {where}: quote not found: {quote[:60]!r}")
    return start, start + len(quote)


def _load_cases(op: Writer, items: list[dict[str, Any]],
                docs: dict[str, dict[str, Any]]) -> dict[str, int]:
    now = utc_now()
    cases: dict[str, int] = {}
    for item in items:
        columns = v.case_columns({
            k: item[k] for k in ("key", "question", "variants", "reference_answer",
                                 "must_contain", "forbidden", "expected_behaviour", "family",
                                 "tags", "difficulty", "role", "notes", "status", "author",
                                 "kind", *v.CASE_AGENT_FIELDS)
            if k in item  # agent cases have no RAG fields, RAG cases no agent ones
        })
        case_id = int(op.insert("cases", {**columns, "created_at": now, "updated_at": now})["id"])
        cases[item["key"]] = case_id
        for source in item.get("expected_sources", []):
            doc = docs[source["document"]]
            start, end = _span(doc["text"], source.get("quote"), f"case {item['key']}")
            op.insert("expected_sources", {"case_id": case_id, "document_id": doc["id"],
                                           "span_start": start, "span_end": end, "note": ""})
    return cases


def _load_run(op: Writer, run: dict[str, Any], cases: dict[str, int],
              docs: dict[str, dict[str, Any]], assessors: dict[str, int],
              behaviours: dict[str, str]) -> None:
    columns = v.run_columns({k: run[k] for k in ("name", "model", "corpus_version",
                                                 "prompt_version", "index_version", "notes")})
    run_id = int(op.insert("runs", {**columns, "created_at": utc_now()})["id"])
    for result in run["results"]:
        case_id = cases[result["case"]]
        op.insert_many("retrieved", (
            {"run_id": run_id, "case_id": case_id, "document_id": docs[r["document"]]["id"],
             "rank": rank, "score": float(r["score"])}
            for rank, r in enumerate(result["retrieved"], start=1)
        ))
        answer = result.get("answer")
        if not answer:
            continue
        text = answer["text"]
        answer_id = int(op.insert("answers", {"run_id": run_id, "case_id": case_id,
                                              "text": text,
                                              "latency_ms": answer.get("latency_ms")})["id"])
        for citation in answer.get("citations", []):
            start, end = _span(text, citation["marker"], f"{run['name']} {result['case']}")
            op.insert("citations", {"answer_id": answer_id,
                                    "document_id": docs[citation["document"]]["id"],
                                    "marker": citation["marker"], "span_start": start,
                                    "span_end": end})
        for position, claim in enumerate(answer.get("claims", []), start=1):
            start, end = _span(text, claim["text"], f"{run['name']} {result['case']} claim")
            verdict = v.check_verdict(claim.get("verdict"))
            op.insert("claims", {
                "answer_id": answer_id, "position": position, "text": claim["text"],
                "span_start": start, "span_end": end, "verdict": verdict,
                "rationale": claim.get("rationale") or "",
                "assessor_id": next(iter(assessors.values())) if verdict else None,
                "updated_at": utc_now() if verdict else None,
            })
        if answer.get("outcome"):
            verdicts = [v.check_verdict(c.get("verdict")) for c in answer.get("claims", [])]
            op.insert("answer_reviews", {
                "run_id": run_id, "case_id": case_id,
                "assessor_id": next(iter(assessors.values())),
                "outcome": answer["outcome"],
                "validated": _validated(answer["outcome"], behaviours[result["case"]],
                                        verdicts),
                "updated_at": utc_now()})


def _load_trajectories(op: Writer, run: dict[str, Any], cases: dict[str, int],
                       assessors: dict[str, int]) -> None:
    """An agent run's trajectories (the ``trajectories`` import shape), and the sample
    expert's notes on some of them."""
    items = [TrajectoryInput(case=t["case"], steps=[(s["tool"], s.get("arguments", {}),
                                                     s.get("result", "")) for s in t["steps"]],
                             final_state=t.get("final_state"), final_answer=t.get("answer", ""),
                             tokens=t.get("tokens"), seconds=t.get("seconds"),
                             cost=t.get("cost"))
             for t in run.get("trajectories", [])]
    if not items:
        return
    run_id = int(op.select("runs", name=run["name"])[0]["id"])
    add_trajectories(op, run_id, {item.case: cases[item.case] for item in items}, items)
    ids = {row["case_id"]: row["id"] for row in op.select("trajectories", run_id=run_id)}
    for t in run["trajectories"]:
        review = t.get("review")
        if review:
            op.insert("trajectory_reviews", {
                "trajectory_id": ids[cases[t["case"]]],
                "assessor_id": next(iter(assessors.values())),
                "task_success": review.get("task_success"),
                "success_reason": review.get("success_reason", ""),
                "path_acceptable": review.get("path_acceptable"),
                "path_reason": review.get("path_reason", ""),
                "note": review.get("note", ""), "updated_at": utc_now()})


def _validated(outcome: str, expected: str, verdicts: list[str | None]) -> int | None:
    """The sample expert's decision so far: an abstention or escalation is right exactly
    when the case expects it; an answer is rejected once a verified claim is unsupported or
    contradicted (or when it should not have been given), accepted once every claim is
    verified supported, and not yet decided otherwise."""
    if outcome != "answered":
        return int({"abstained": "abstain", "escalated": "escalate"}.get(outcome) == expected)
    if expected != "answer":
        return 0
    if any(verdict in ("not_supported", "contradicted") for verdict in verdicts):
        return 0
    if verdicts and all(verdict == "supported" for verdict in verdicts):
        return 1
    return None
