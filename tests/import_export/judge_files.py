"""An automatic judge's verdicts for the sample's claims, written as a RAGChecker results
file, and human verdicts drawn at random: for the judge-import and calibration tests (import,
Verify section).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rag_annotator.domain import operations as ops
from rag_annotator.metrics.calibration import CLASSES
from rag_annotator.storage.store import GoldSetStore

RUN = "bm25-gpt4o-v1"
LABELS = ("Entailment", "Neutral", "Contradiction")


def run_claims(store: GoldSetStore, run: str = RUN) -> dict[str, list[dict[str, Any]]]:
    """Case key → the run's claims of that case, in order."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in store.claims_for_matching(run):
        out.setdefault(row["case_key"], []).append(row)
    return out


def expected_verdict(labels: list[str]) -> str:
    """RAGChecker's faithfulness reading, written independently of the importer."""
    if any(x == "Entailment" for x in labels):
        return "supported"
    return "contradicted" if "Contradiction" in labels else "not_supported"


def write_ragchecker(store: GoldSetStore, path: Path, seed: int = 7) -> dict[int, str]:
    """A RAGChecker results file grading every claim of the run (random labels over two
    chunks; some claims as triplets); returns claim id → expected verdict."""
    rng = random.Random(seed)
    expected: dict[int, str] = {}
    results = []
    for case, claims in sorted(run_claims(store).items()):
        response_claims, labels = [], []
        for claim in claims:
            words = claim["text"].split()
            if len(words) >= 3 and rng.random() < 0.5:
                response_claims.append([" ".join(words[:-2]), words[-2], words[-1]])
            else:
                response_claims.append([claim["text"]])
            per_chunk = [rng.choice(LABELS) for _ in range(2)]
            labels.append(per_chunk)
            expected[claim["id"]] = expected_verdict(per_chunk)
        results.append({"query_id": case, "query": "…", "gt_answer": "…", "response": "…",
                        "retrieved_context": [{"doc_id": "a", "text": "…"}],
                        "response_claims": response_claims,
                        "retrieved2response": labels})
    path.write_text(json.dumps({"results": results}, ensure_ascii=True), encoding="utf-8")
    return expected


def verify_at_random(store: GoldSetStore, seed: int = 3) -> None:
    """Human verdicts on about 80 % of the run's claims."""
    rng = random.Random(seed)
    for claims in run_claims(store).values():
        for claim in claims:
            if rng.random() < 0.8:
                ops.set_claim_verdict(store, claim["id"], rng.choice(CLASSES))
