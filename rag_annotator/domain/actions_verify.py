"""History action codes of answer verification, with their English titles.

Covers: claims, evidence, citations, reviews, judge verdicts.

Kept apart from ``operations.py`` so each area declares its own actions; they are gathered in
:data:`rag_annotator.domain.action_names.ACTION_NAMES`.
"""

from __future__ import annotations

ACTION_NAMES: dict[str, str] = {
    "set_claim_rationale": "Claim rationale",
    "split_claim": "Split claim",
    "merge_claims": "Merge claims",
    "split_answer": "Split answer into claims",
    "add_evidence": "Add evidence",
    "remove_evidence": "Remove evidence",
    "import_judge_verdicts": "Import a judge's verdicts",
}
