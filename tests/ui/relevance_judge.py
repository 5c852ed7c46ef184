"""A relevance judge imported as qrels and a sample of its labels (issue 22 UI tests)."""

from __future__ import annotations

from pathlib import Path


def relevance_judge(path: Path, tmp: Path) -> tuple[int, int]:
    """A relevance judge ('LLM-rel') imported as qrels over every retrieved pair, and a
    sample of its labels drawn headless; return one sampled pair nobody else labelled."""
    from rag_annotator.storage.store import GoldSetStore
    from tests.helpers import run_cli

    with GoldSetStore.open(path, read_only=True) as store:
        pairs = store.query("SELECT DISTINCT c.key AS c, d.key AS d FROM retrieved r "
                            "JOIN cases c ON c.id = r.case_id "
                            "JOIN documents d ON d.id = r.document_id ORDER BY 1, 2")
    qrels = tmp / "llm.qrels"
    qrels.write_text("".join(f"{p['c']} 0 {p['d']} {i % 3 != 0:d}\n"
                             for i, p in enumerate(pairs)), encoding="utf-8")
    for args in (("import", str(path), "qrels", str(qrels), "--assessor", "LLM-rel"),
                 ("sample", str(path), "--judge", "LLM-rel", "--level", "relevance",
                  "--size", "40", "--seed", "3")):
        result = run_cli(*args)
        assert result.returncode == 0, result.stderr
    metrics = run_cli("metrics", str(path), "--run", "bm25-gpt4o-v1", "--json")
    import json

    relevance = json.loads(metrics.stdout)["judges"]["LLM-rel"]["relevance"]
    assert relevance["relevant_share"]["n_judge"] == len(pairs)
    with GoldSetStore.open(path, read_only=True) as store:
        sample = store.review_sample("LLM-rel", "relevance")
        assert sample is not None and len(sample["items"]) == 40
        human = {(r["case_id"], r["document_id"]) for r in store.query(
            "SELECT case_id, document_id FROM judgments j JOIN assessors a "
            "ON a.id = j.assessor_id WHERE a.kind = 'human'")}
    item = next(i for i in sample["items"] if (i["unit_id"], i["document_id"]) not in human)
    return int(item["unit_id"]), int(item["document_id"])
