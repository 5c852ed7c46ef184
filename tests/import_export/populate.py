"""Every table of the schema filled with hostile texts (formula-looking, control characters,
right-to-left, emoji, empty): :func:`populate`, for the native JSON, CSV, XLSX and ecosystem
round-trip tests.
"""

from __future__ import annotations

import json
import re

from rag_annotator.storage.store import GoldSetStore

HOSTILE = [
    "=cmd|' /C calc'!A0", "'=1+1", "''=", "\tleading tab", "+33 6 12", "-2", "@SUM(A1)",
    "line one\nline two", "\r\nCRLF", "nul\x00byte", "emoji 🧪👩🏽‍🔬", "עברית מימין לשמאל",
    "مرحبا\u200fبالعالم", '"quoted", semi; colon', "", " spaced ", "é" * 50,
]


def _key(prefix: str, i: int, text: str) -> str:
    tail = _SPACES.sub(" ", text[:20]).strip()
    return f"{prefix}{i}_{tail}".strip()


_SPACES = re.compile(r"\s+")


def populate(store: GoldSetStore, texts: list[str], *, long_passage: bool = False,
             n: int = 3) -> None:
    """Every entity of the schema, texts drawn from ``texts`` in turn (keys derived)."""
    pick = iter(texts * 400)

    def t() -> str:
        return next(pick)

    stamp = "2026-01-02T03:04:05.678Z"
    with store.operation("test_load", "populate") as op:
        op.update("meta", {"key": "guidelines"}, {"value": t()})
        op.insert("meta", {"key": "custom", "value": t()})
        assessors = [op.insert("assessors", {"name": _key("a", i, t()), "created_at": stamp,
                                             "kind": "judge" if i == 2 else "human"})["id"]
                     for i in range(3)]
        docs = []
        for i in range(n + 1):
            text = ("x" * 40_000 + t()) if long_passage and i == 0 else t() + " body " + t()
            docs.append(op.insert("documents", {
                "key": _key("d", i, t()), "title": t(), "text": text, "content_hash": "h",
                "owner": t(), "rights": json.dumps([t(), t()], ensure_ascii=False),
                "valid_from": "2024-01-01" if i % 2 else None, "status": "current",
                "version": t(), "origin": "corpus", "created_at": stamp,
                "updated_at": stamp})["id"])
        op.update("documents", {"id": docs[1]}, {"supersedes_id": docs[0],
                                                 "parent_id": docs[0]})
        cases = []
        for i in range(n):
            cases.append(op.insert("cases", {
                "key": _key("c", i, t()), "question": t(), "variants": json.dumps([t()]),
                "reference_answer": None if i == 1 else t(),
                "must_contain": json.dumps([t(), t()], ensure_ascii=False),
                "forbidden": json.dumps([t()], ensure_ascii=False),
                "family": ("ordinary", "sensitive", "no_answer")[i % 3],
                "tags": json.dumps([t()], ensure_ascii=False), "difficulty": None,
                "role": t(), "notes": t(), "author": t(), "created_at": stamp,
                "updated_at": stamp})["id"])
            op.insert("expected_sources", {"case_id": cases[i], "document_id": docs[i],
                                           "span_start": 0, "span_end": 1, "note": t()})
        op.insert("case_reviews", {"case_id": cases[0], "origin": t(), "decision": "edited",
                                   "near_duplicate_of": cases[1], "decided_by": t(),
                                   "decided_at": stamp})
        runs = [op.insert("runs", {"name": _key("r", i, t()), "model": t(), "notes": t(),
                                   "created_at": stamp})["id"] for i in range(2)]
        for r, run in enumerate(runs):
            for c, case in enumerate(cases):
                for rank, doc in enumerate(docs[c:c + 3], start=1):
                    op.insert("retrieved", {"run_id": run, "case_id": case,
                                            "document_id": doc, "rank": rank,
                                            "score": 1.5 / rank + r * 1e-17 + 0.1})
                answer = op.insert("answers", {"run_id": run, "case_id": case,
                                               "text": t(), "latency_ms": 12 * c,
                                               "cost": 0.001 * c if c else None,
                                               "tokens": c or None})["id"]
                op.insert("citations", {"answer_id": answer, "document_id": docs[c],
                                        "marker": t(), "span_start": 0, "span_end": 0,
                                        "support": ("yes", None, "no")[c % 3], "note": t()})
                for position in (2, 1):
                    claim = op.insert("claims", {
                        "answer_id": answer, "position": position, "text": t(),
                        "verdict": ("supported", None)[position % 2],
                        "rationale": t(), "assessor_id": assessors[0] if position == 2 else None,
                        "updated_at": stamp if position == 2 else None})["id"]
                    op.insert("evidence", {"claim_id": claim, "document_id": docs[c],
                                           "span_start": 0, "span_end": 1})
                    op.insert("judge_verdicts", {"claim_id": claim, "assessor_id": assessors[2],
                                                 "verdict": "contradicted", "raw_label": t(),
                                                 "rationale": t(), "updated_at": stamp})
                op.insert("answer_reviews", {
                    "run_id": run, "case_id": case, "assessor_id": assessors[c % 2],
                    "outcome": ("answered", "abstained", None)[c % 3],
                    "validated": (1, 0, None)[c % 3],
                    "failure_categories": json.dumps(["factual_error"] if c else []),
                    "must_contain_found": json.dumps([t()], ensure_ascii=False),
                    "forbidden_present": (None, 1, 0)[c % 3], "note": t(),
                    "updated_at": stamp})
        for c, case in enumerate(cases):
            for d, doc in enumerate(docs):
                for a in (0, 1):
                    grade = (0, 1, None)[(c + d + a) % 3]
                    op.insert("judgments", {"case_id": case, "document_id": doc,
                                            "assessor_id": assessors[a], "grade": grade,
                                            "note": t(), "updated_at": stamp})
        # An agent case (seed 000) with a trajectory per run, steps and a review.
        agent = op.insert("cases", {
            "key": _key("g", 0, t()), "kind": "agent", "question": t(),
            "expected_state": json.dumps({"ticket.category": t(), "ticket.n": 2,
                                          "ok": True}, ensure_ascii=False),
            "forbidden_tools": json.dumps(["supprimer_compte"]),
            "required_tools": json.dumps(["creer_ticket"]),
            "tool_order": json.dumps([["verifier_identite", "modifier_offre"]]),
            "max_steps": 6, "max_tokens": 1000, "max_seconds": 2.5, "max_cost": None,
            "notes": t(), "author": t(), "created_at": stamp, "updated_at": stamp})["id"]
        for r, run in enumerate(runs):
            trajectory = op.insert("trajectories", {
                "run_id": run, "case_id": agent, "final_answer": t(),
                "final_state": None if r else json.dumps(
                    {"ticket": {"category": t(), "n": 2}, "note": t()}, ensure_ascii=False),
                "tokens": 900 if r else None, "seconds": 1.25, "cost": 0.003 * r or None})["id"]
            for position, tool in enumerate(("verifier_identite", "supprimer_compte",
                                             "modifier_offre")[r:], start=1):
                op.insert("trajectory_steps", {
                    "trajectory_id": trajectory, "position": position, "tool": tool,
                    "arguments": json.dumps({"q": t()}, ensure_ascii=False),
                    "result": t()})
            if r == 0:
                op.insert("trajectory_reviews", {
                    "trajectory_id": trajectory, "assessor_id": assessors[1],
                    "task_success": 1, "success_reason": t(), "path_acceptable": None,
                    "path_reason": "", "note": t(), "updated_at": stamp})
        op.insert("adjudications", {"case_id": cases[0], "document_id": docs[0], "grade": 1,
                                    "assessor_id": assessors[1], "note": t(),
                                    "updated_at": stamp})
        op.insert("releases", {"name": _key("v", 1, t()), "created_at": stamp,
                               "created_by": t(), "changelog": t(),
                               "snapshot": json.dumps({
                                   "format": "rag-annotator-release", "version": 1,
                                   "content_hash": "sha256:0", "cases": {},
                                   "judgments": {}, "note": t()}, ensure_ascii=False)})
