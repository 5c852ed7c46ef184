"""The sample's automatic judge (issue 22): RAGChecker's verdicts over every claim of the
sample's RAG runs, read from RAGChecker-format files kept beside the sample
(``judge_ragchecker_<run>.json``, made by ``scripts/make_sample_judge.py``) through the
RAGChecker importer's own parser and matcher, and a review sample of its claims (drawn
with seed 22, stratified by the judge's verdict and family) that a human already reviewed
in part — so the Dashboard shows the judge's corrected figures on first start, and a few
sampled claims are still waiting in Verify's review queue.

It runs inside the sample's one loading operation (not undoable, like the rest).  A claim
the manifest names that the sample no longer has (the sample was edited) is skipped.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from typing import Any

from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Writer
from rag_annotator.import_export.judge_verdicts import (
    JudgeImportReport,
    _match,
    _store_verdict,
    parse_ragchecker,
)
from rag_annotator.metrics.judge_sample import stratum_name
from rag_annotator.storage.store import GoldSetStore

MANIFEST = "sample_judge_fr.json"


def _resource(name: str) -> Any:
    return resources.files("rag_annotator.resources").joinpath("sample").joinpath(name)


def load_sample_judge(store: GoldSetStore, op: Writer, assessor_id: int) -> None:
    """Import the judge's verdicts, the humans' reviews and the claims sample (``assessor_id``:
    the sample's human assessor)."""
    manifest = json.loads(_resource(MANIFEST).read_text(encoding="utf-8"))
    judge = manifest["judge"]
    judge_id = int(op.insert("assessors", {"name": judge, "kind": "judge",
                                          "created_at": utc_now()})["id"])
    now = utc_now()
    claim_ids: dict[tuple[str, str, int], int] = {}
    for run_name, filename in manifest["files"].items():
        runs = op.select("runs", name=run_name)
        if not runs:
            continue
        with resources.as_file(_resource(filename)) as path:
            parsed = parse_ragchecker(path)
        cases = {c["key"]: c["id"] for c in op.select("cases")}
        for answer in parsed:
            found = op.select("answers", run_id=runs[0]["id"], case_id=cases.get(answer.case))
            if not found:
                continue
            ours = sorted(op.select("claims", answer_id=found[0]["id"]),
                          key=lambda c: (c["position"], c["id"]))
            for claim in ours:
                claim_ids[(run_name, str(answer.case), int(claim["position"]))] = claim["id"]
            for tool_claim, claim in _match(answer, ours, JudgeImportReport()):
                _store_verdict(op, judge_id, claim["id"], tool_claim, now)
    sample = manifest["claims_sample"]
    for review in sample["reviews"]:
        claim_id = claim_ids.get((review["run"], review["case"], review["position"]))
        if claim_id is not None:
            op.update("claims", {"id": claim_id}, {
                "verdict": review["verdict"], "rationale": review["rationale"],
                "assessor_id": assessor_id, "updated_at": now})
    _store_sample(store, op, judge, judge_id, sample, claim_ids, now)


def _store_sample(store: GoldSetStore, op: Writer, judge: str, judge_id: int,
                  sample: dict[str, Any], claim_ids: dict[tuple[str, str, int], int],
                  now: str) -> None:
    units = {int(u["unit_id"]): u for u in store.judged_units(judge, "claims")}
    picked = [units[i] for i in (claim_ids.get((r, c, p)) for r, c, p in sample["items"])
              if i is not None and i in units]
    sizes = Counter(stratum_name(u) for u in units.values())
    drawn = Counter(stratum_name(u) for u in picked)
    row = op.insert("review_samples", {
        "judge_id": judge_id, "level": "claims", "seed": sample["seed"], "size": len(picked),
        "population": len(units), "half_width": None, "created_at": now, "created_by": ""})
    op.insert_many("review_sample_items", (
        {"sample_id": row["id"], "position": i, "unit_id": u["unit_id"], "document_id": None,
         "stratum": stratum_name(u), "judge_label": u["judge"], "family": u["family"],
         "stratum_size": sizes[stratum_name(u)], "stratum_drawn": drawn[stratum_name(u)],
         "weight": drawn[stratum_name(u)] / sizes[stratum_name(u)]}
        for i, u in enumerate(picked)))
