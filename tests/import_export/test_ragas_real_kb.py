"""Real Ragas test sets against the real Markdown knowledge base they were generated from
(issue 18, point 1; tests/data/ragas_moe_papers/README.md).

Ragas's loader stripped the Markdown and its splitter cut the papers into chunks, so no
context equals a document; each must still be found in the paper it came from.  The v0.1
file names that paper in each sample's ``metadata`` — read here with csv and
``ast.literal_eval``, a peer of the importer — so the matches are checked, not only counted.
"""

from __future__ import annotations

import ast
import csv
from pathlib import Path

from rag_annotator.import_export import registry
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import rows

DATA = Path(__file__).resolve().parents[1] / "data" / "ragas_moe_papers"


def _peer(name: str) -> list[dict[str, str]]:
    csv.field_size_limit(1 << 30)
    with open(DATA / name, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _kb(store: GoldSetStore) -> GoldSetStore:
    registry.importer("corpus")(store, DATA / "kb", Options())
    assert store.count("documents") == 4
    return store


def _sources(path: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for case, doc in rows(path, "SELECT c.key, d.key FROM expected_sources e JOIN cases c "
                                "ON c.id = e.case_id JOIN documents d ON d.id = e.document_id "
                                "ORDER BY c.key, d.key"):
        found.setdefault(str(case), []).append(str(doc))
    return found


def test_every_context_of_a_v01_test_set_is_found_in_the_paper_it_came_from(
        store: GoldSetStore, goldset_path: Path) -> None:
    peer = _peer("v01_generated_testset.csv")
    contexts = sum(len(ast.literal_eval(r["contexts"])) for r in peer)
    assert (len(peer), contexts) == (10, 15)
    report = registry.importer("ragas-testset")(
        _kb(store), DATA / "v01_generated_testset.csv", Options())
    assert report.unmatched_sources == []  # type: ignore[attr-defined]  # 15 of 15
    expected = {f"GEN{i + 1:03d}": sorted({Path(m["source"]).stem for m in ast.literal_eval(
        r["metadata"])}) for i, r in enumerate(peer)}
    assert _sources(goldset_path) == expected


def test_a_v02_test_set_matches_its_chunks_and_lists_the_llm_summaries(
        store: GoldSetStore, goldset_path: Path) -> None:
    """8 of 23 contexts are chunks of the papers, all found; the other 15 are summaries
    Ragas's LLM wrote (ComparativeAbstractQuerySynthesizer): in no document, so they are
    listed as unmatched and kept in the case's notes for the reviewer."""
    peer = _peer("v02_generated_testset.csv")
    summaries = [c for r in peer if r["synthesizer_name"].startswith("Comparative")
                 for c in ast.literal_eval(r["reference_contexts"])]
    chunks = [c for r in peer if not r["synthesizer_name"].startswith("Comparative")
              for c in ast.literal_eval(r["reference_contexts"])]
    assert (len(chunks), len(summaries)) == (8, 15)
    report = registry.importer("ragas-testset")(
        _kb(store), DATA / "v02_generated_testset.csv", Options())
    assert sorted(report.unmatched_sources) == sorted(  # type: ignore[attr-defined]
        s[:60] for s in summaries)
    found = _sources(goldset_path)
    chunk_cases = [f"GEN{i + 1:03d}" for i, r in enumerate(peer)
                   if not r["synthesizer_name"].startswith("Comparative")]
    assert all(len(found.get(key, [])) == 1 for key in chunk_cases)  # one paper each
    notes = dict(rows(goldset_path, "SELECT key, notes FROM cases"))
    assert all(s in notes["GEN004"] + notes["GEN005"] + notes["GEN006"]
               for s in summaries)
