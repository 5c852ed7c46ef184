"""Write the sample's automatic judge (issue 22): RAGChecker-format results over every claim
of the sample's two RAG runs, and the manifest of its review samples with the humans'
verdicts on the sampled claims.  Run once by hand; the outputs are kept in
rag_annotator/resources/sample/.  The judge's labels are made to agree with the sample's
human verdicts most of the time and to err the way LLM graders do (lenient: 'supported' for
a claim the context does not state), so its corrected figures differ from its naive ones.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from rag_annotator.domain.review_sample import draw
from rag_annotator.import_export.sample import sample_data

OUT = Path(__file__).resolve().parents[1] / "rag_annotator" / "resources" / "sample"
RUNS = ("bm25-gpt4o-v1", "hybride-mistral-v2")
LABEL = {"supported": "Entailment", "not_supported": "Neutral", "contradicted": "Contradiction"}
WHY = {
    "supported": "Le passage récupéré dit exactement cela.",
    "not_supported": "Aucun passage récupéré ne le dit : ajout du modèle.",
    "contradicted": "Le passage récupéré dit le contraire.",
}


def main() -> None:
    data = sample_data()
    family = {c["key"]: c["family"] for c in data["cases"]}
    rng = random.Random(2022)
    truth: dict[tuple[str, str, int], str] = {}
    judge: dict[tuple[str, str, int], str] = {}
    for run in data["runs"]:
        if run["name"] not in RUNS:
            continue
        results = []
        for result in run["results"]:
            claims = (result.get("answer") or {}).get("claims", [])
            if not claims:
                continue
            labels = []
            for position, claim in enumerate(claims, start=1):
                key = (run["name"], result["case"], position)
                human = claim.get("verdict") or rng.choices(
                    ("supported", "not_supported", "contradicted"), (70, 20, 10))[0]
                truth[key] = human
                said = human
                if rng.random() < 0.22:  # the judge errs, leniently most of the time
                    said = "supported" if human != "supported" else rng.choice(
                        ("not_supported", "contradicted"))
                judge[key] = said
                labels.append([LABEL[said], "Neutral"])
            results.append({"query_id": result["case"],
                            "response_claims": [[c["text"]] for c in claims],
                            "retrieved2response": labels})
        (OUT / f"judge_ragchecker_{run['name']}.json").write_text(
            json.dumps({"results": results}, ensure_ascii=False, indent=1) + "\n",
            encoding="utf-8")
    units = [{"unit_id": i, "document_id": None, "family": family[k[1]], "judge": judge[k]}
             for i, k in enumerate(sorted(judge))]
    keys = sorted(judge)
    drawn = draw(units, 30, 22)
    verified = {k for run in data["runs"] for r in run["results"]
                for p, c in enumerate((r.get("answer") or {}).get("claims", []), start=1)
                if c.get("verdict") for k in [(run["name"], r["case"], p)]}
    items = [list(keys[d.unit_id]) for d in drawn]
    reviews = [{"run": k[0], "case": k[1], "position": k[2], "verdict": truth[k],
                "rationale": WHY[truth[k]]}
               for k in map(tuple, items[:24]) if k not in verified]
    manifest = {"judge": "RAGChecker",
                "files": {name: f"judge_ragchecker_{name}.json" for name in RUNS},
                "claims_sample": {"seed": 22, "items": items, "reviews": reviews}}
    (OUT / "sample_judge_fr.json").write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
