"""Passages judged as passages and rolled up to their documents where a figure is about
documents: ``metrics --by-document`` and the diagnosis's "expected source retrieved".

A real French PDF is the corpus document; a Ragas run retrieved three chunks of it (pypdf's
text) and one of another document for one case.  The expert judged the passages.  Per
passage, the run ranks four items; per document, two.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.domain.judging_ops import set_judgment
from rag_annotator.import_export import registry
from rag_annotator.import_export.registry import Options
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import run_cli
from tests.import_export.pdf_documents import add_pdf_document
from tests.import_export.pipelines import pypdf_pages, recursive_split

PDF = Path(__file__).resolve().parents[1] / "data" / "chunks" / "vitam-transfert.pdf"
OTHER = ("Le versement est l'opération par laquelle un service producteur confie ses archives "
         "définitives à un service d'archives, qui en devient responsable. Il est préparé "
         "avec le bordereau qui décrit les documents, leur volume et leurs dates extrêmes. "
         "Le service d'archives contrôle le bordereau, prend les archives en charge et "
         "renvoie au service producteur un exemplaire signé qui vaut décharge.")


@pytest.fixture
def judged(store: GoldSetStore, tmp_path: Path) -> GoldSetStore:
    doc_id = add_pdf_document(store, PDF, "vitam-transfert")
    ops.create_document(store, key="versement", title="Versement", text=OTHER)
    ops.create_case(store, key="Q1", question="Comment demander un transfert ?")
    case_id = int(store.by_key("cases", "Q1")["id"])
    ops.add_expected_source(store, case_id, doc_id)
    pages = pypdf_pages(PDF)
    chunks = [recursive_split(pages[p - 1], 1000, 200)[1] for p in (9, 5)]
    sample = {"user_input": "Comment demander un transfert ?", "response": "Par une demande.",
              "retrieved_contexts": [OTHER[:200], chunks[0], chunks[1],
                                     recursive_split(pages[11], 1000, 200)[0]]}
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(sample, ensure_ascii=False) + "\n", encoding="utf-8")
    registry.importer("ragas")(store, path, Options(run="rag"))
    ranking = [k for k, _s in store.run_rankings(int(store.by_key("runs", "rag")["id"]))["Q1"]]
    assert ranking[0].startswith("versement#") and all(
        k.startswith("vitam-transfert#") for k in ranking[1:])
    # the passage of the other document and the first PDF passage are not relevant, the
    # second PDF passage is; the third PDF passage stays unjudged
    for key, grade in zip(ranking[:3], (0, 0, 1)):
        set_judgment(store, case_id, int(store.by_key("documents", key)["id"]), grade)
    return store


def _metrics(path: Path, *options: str) -> dict[str, object]:
    out = run_cli("metrics", str(path), "--run", "rag", "--json", "--measures",
                  "P@1,P@2,P@4,RR,Judged@4", *options)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_measures_per_passage_and_per_document(judged: GoldSetStore,
                                               goldset_path: Path) -> None:
    judged.close()
    passages = _metrics(goldset_path)
    assert passages["by_document"] is False
    assert passages["per_query"]["Q1"] == {  # type: ignore[index]
        "P@1": 0.0, "P@2": 0.0, "P@4": 0.25, "RR": pytest.approx(1 / 3), "Judged@4": 0.75}
    documents = _metrics(goldset_path, "--by-document")
    assert documents["by_document"] is True
    # versement (not relevant) at rank 1, vitam-transfert (relevant: one passage is) at 2
    assert documents["per_query"]["Q1"] == {  # type: ignore[index]
        "P@1": 0.0, "P@2": 0.5, "P@4": 0.25, "RR": 0.5, "Judged@4": 1.0}
    text = run_cli("metrics", str(goldset_path), "--run", "rag", "--by-document")
    assert text.returncode == 0 and "by document: each document at the rank of its best " \
        "passage" in text.stdout


def test_an_expected_source_retrieved_as_passages_is_not_missing(judged: GoldSetStore,
                                                                goldset_path: Path) -> None:
    judged.close()
    diagnosis = _metrics(goldset_path)["diagnosis"]
    failures = diagnosis["per_case"].get("Q1", [])  # type: ignore[index]
    assert not any(f["kind"] == "retrieval" for f in failures), failures
    deep = _metrics(goldset_path, "--depth", "1")["diagnosis"]  # only the other document
    assert {(f["kind"], f["detail"]) for f in deep["per_case"]["Q1"]} >= {  # type: ignore
        ("retrieval", "missing")}
