"""Generate a gold-set file at DESIGN section 3's scale, through the store's own bulk path.

Default scale: 10,000 cases, 100,000 documents, 1,000,000 judgments (by 3 assessors), 2 runs
retrieving 10 documents per case with answers split into 100,000 claims.  Deterministic
(seeded).  Usage: ``python tests/bench/generate.py OUT.goldset [--scale 0.1]``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.enums import Behaviour, CaseStatus, Family, values
from rag_annotator.domain.validation import content_hash
from rag_annotator.storage.store import GoldSetStore

WORDS = (
    "congé", "ancienneté", "télétravail", "mutuelle", "frais", "formation", "arrêt", "salarié",
    "manager", "jours", "accord", "avenant", "prime", "remboursement", "plafond",
    "justificatif", "demande", "délai",
)


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def generate(path: Path, scale: float = 1.0, seed: int = 7) -> dict[str, int]:
    """Write the file; return the row counts."""
    rng = random.Random(seed)
    n_cases, n_docs = int(10_000 * scale), int(100_000 * scale)
    n_judgments, depth = int(1_000_000 * scale), 10
    now = utc_now()
    store = GoldSetStore.create(path, name="bench", assessor="bench")
    families, statuses = values(Family), values(CaseStatus)
    with store.operation("load_sample", "bench", log=False, undoable=False) as op:
        op.insert_many("assessors", ({"name": f"assessor{i}", "created_at": now}
                                     for i in range(1, 4)))
        op.insert_many("documents", (
            {"key": f"D{i:06d}", "title": f"Document {i}", "text": (t := _text(rng, 60)),
             "content_hash": content_hash(t), "owner": "bench", "rights": '["tous"]',
             "status": "current", "version": "1", "created_at": now, "updated_at": now}
            for i in range(1, n_docs + 1)))
        op.insert_many("cases", (
            {"key": f"Q{i:05d}", "question": _text(rng, 12) + " ?",
             "reference_answer": _text(rng, 30), "family": families[i % len(families)],
             "status": statuses[i % len(statuses)], "expected_behaviour": Behaviour.ANSWER.value,
             "tags": f'["{rng.choice(WORDS)}"]', "created_at": now, "updated_at": now}
            for i in range(1, n_cases + 1)))
        op.insert_many("runs", ({"name": f"run{r}", "created_at": now} for r in (1, 2)))
        # per case: 20 distinct documents retrieved (10 per run) and 40 more judged outside
        # the runs (e.g. from an earlier pool), all distinct
        picks = [rng.sample(range(1, n_docs + 1), 60) for _ in range(n_cases)]
        op.insert_many("retrieved", (
            {"run_id": run, "case_id": c + 1, "document_id": picks[c][(run - 1) * depth + rank],
             "rank": rank + 1, "score": float(depth - rank)}
            for run in (1, 2) for c in range(n_cases) for rank in range(depth)))
        op.insert_many("answers", (
            {"run_id": run, "case_id": c + 1, "text": _text(rng, 40)}
            for run in (1, 2) for c in range(n_cases)))
        op.insert_many("claims", (
            {"answer_id": a, "position": p, "text": _text(rng, 8),
             "verdict": rng.choice((None, None, "supported", "not_supported", "contradicted"))}
            for a in range(1, 2 * n_cases + 1) for p in range(1, 6)))

        def judgments():  # type: ignore[no-untyped-def]
            # the 20 pooled documents by 3 assessors, the 40 others by one: 100 per case
            for c in range(n_cases):
                for i, doc in enumerate(picks[c]):
                    for assessor in ((1, 2, 3) if i < 20 else (1 + c % 3,)):
                        yield {"case_id": c + 1, "document_id": doc, "assessor_id": assessor,
                               "grade": rng.choice((0, 0, 1)), "note": "", "updated_at": now}

        op.insert_many("judgments", itertools.islice(judgments(), n_judgments))
    counts = {t: store.count(t) for t in ("cases", "documents", "judgments", "retrieved",
                                          "claims")}
    store.close()
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    if args.out.exists():
        sys.exit(f"{args.out} exists; remove it first")
    start = time.perf_counter()
    counts = generate(args.out, args.scale)
    size = args.out.stat().st_size / 1e6
    print(f"generated {args.out} in {time.perf_counter() - start:.1f} s, {size:.0f} MB: "
          + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
