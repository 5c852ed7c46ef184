"""Gold-set files built for tests through the public store and domain operations.

Rows with no domain operation of their own (retrieved lists, answers, citations, evidence,
adjudications) are written through ``store.operation(...)``, the same path imports use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.validation import content_hash
from rag_annotator.storage.store import GoldSetStore


def last_id(store: GoldSetStore, table: str) -> int:
    return int(store.query(f"SELECT max(id) AS m FROM {table}")[0]["m"])


def build_big(path: Path, *, n_docs: int = 300, n_cases: int = 300) -> Path:
    """A file of a few hundred pages: documents, cases and judgments with history."""
    with GoldSetStore.create(path, assessor="bulk") as store:
        now = utc_now()
        with store.operation("bulk", "documents") as op:
            op.insert_many("documents", (
                {"key": f"DOC-{i:04d}", "title": f"Document {i}",
                 "text": (f"Paragraphe {i}. " * 60), "content_hash": content_hash(f"{i}"),
                 "created_at": now, "updated_at": now}
                for i in range(n_docs)))
        with store.operation("bulk", "cases") as op:
            op.insert_many("cases", (
                {"key": f"Q{i:04d}", "question": f"Question numéro {i} ?" * 5,
                 "created_at": now, "updated_at": now}
                for i in range(n_cases)))
        ops.create_case(store, key="EXTRA", question="Une question de plus", family="sensitive")
        for i in range(1, 21):
            judging_ops.set_judgment(store, i, i, i % 2)
    return path


@dataclass
class Rich:
    """Ids of the rows :func:`build_rich` made."""

    cases: dict[str, int] = field(default_factory=dict)
    docs: dict[str, int] = field(default_factory=dict)
    runs: dict[str, int] = field(default_factory=dict)
    answers: dict[str, int] = field(default_factory=dict)
    claims: list[int] = field(default_factory=list)
    citations: list[int] = field(default_factory=list)
    evidence: list[int] = field(default_factory=list)
    sources: list[int] = field(default_factory=list)


def build_rich(store: GoldSetStore) -> Rich:
    """Two runs over three cases, answers with claims, judgments by two assessors.

    The judgments include an agreement, a disagreement (a dispute), a disagreement settled by
    an adjudication, and a row reset to unjudged (grade NULL).
    """
    r = Rich()
    first_assessor = store.assessor
    for key, family in (("Q1", "ordinary"), ("Q2", "ambiguous"), ("Q3", "no_answer")):
        ops.create_case(store, key=key, question=f"Question {key} ?", family=family,
                        tags=["rh", key.lower()], must_contain=["point A"])
        r.cases[key] = last_id(store, "cases")
    for i in range(1, 7):
        ops.create_document(store, key=f"D{i}", title=f"Doc {i}",
                            text=f"Texte du document {i}. " * (i + 2), owner="RH")
        r.docs[f"D{i}"] = last_id(store, "documents")
    ops.edit_document(store, r.docs["D2"], supersedes_id=r.docs["D1"])
    ops.edit_document(store, r.docs["D3"], parent_id=r.docs["D1"])
    ops.add_expected_source(store, r.cases["Q1"], r.docs["D1"], span=(0, 5))
    r.sources.append(last_id(store, "expected_sources"))
    ops.add_expected_source(store, r.cases["Q2"], r.docs["D6"])
    r.sources.append(last_id(store, "expected_sources"))
    for name in ("bm25", "dense"):
        ops.create_run(store, name=name, model=f"model-{name}")
        r.runs[name] = last_id(store, "runs")
    with store.operation("test_load", "runs") as op:
        for run, lists in (("bm25", {"Q1": ["D1", "D2", "D3"], "Q2": ["D4", "D1"]}),
                           ("dense", {"Q1": ["D2", "D5"]})):
            for case, docs in lists.items():
                for rank, doc in enumerate(docs, start=1):
                    op.insert("retrieved", {"run_id": r.runs[run], "case_id": r.cases[case],
                                            "document_id": r.docs[doc], "rank": rank,
                                            "score": 1.0 / rank})
        for run, case in (("bm25", "Q1"), ("dense", "Q3")):
            answer = op.insert("answers", {"run_id": r.runs[run], "case_id": r.cases[case],
                                           "text": "La réponse est oui [1]. Elle vaut 42.",
                                           "latency_ms": 120})
            r.answers[f"{run}/{case}"] = answer["id"]
        cit = op.insert("citations", {"answer_id": r.answers["bm25/Q1"],
                                      "document_id": r.docs["D1"], "marker": "[1]",
                                      "span_start": 19, "span_end": 22})
        r.citations.append(cit["id"])
    for text, span in (("La réponse est oui", (0, 18)), ("Elle vaut 42", (24, 36))):
        ops.add_claim(store, r.answers["bm25/Q1"], text, span=span)
        r.claims.append(last_id(store, "claims"))
    ops.add_claim(store, r.answers["dense/Q3"], "Affirmation sans span")
    r.claims.append(last_id(store, "claims"))
    with store.operation("test_load", "evidence") as op:
        ev = op.insert("evidence", {"claim_id": r.claims[0], "document_id": r.docs["D1"],
                                    "span_start": 0, "span_end": 5})
        r.evidence.append(ev["id"])
    ops.set_claim_verdict(store, r.claims[0], "supported", rationale="dit dans D1")
    ops.set_claim_verdict(store, r.claims[1], "contradicted")
    ops.set_answer_review(store, r.runs["bm25"], r.cases["Q1"], outcome="answered",
                          validated=True, failure_categories=["factual_error"])
    # Judgments: alice and bob agree on (Q1, D1), disagree on (Q1, D2) and (Q1, D3); the
    # latter is adjudicated.  alice resets (Q2, D4) to unjudged.
    store.assessor = "alice"
    for doc, grade in (("D1", 1), ("D2", 1), ("D3", 1), ("D5", 0)):
        judging_ops.set_judgment(store, r.cases["Q1"], r.docs[doc], grade)
    judging_ops.set_judgment(store, r.cases["Q2"], r.docs["D4"], 1)
    judging_ops.set_judgment(store, r.cases["Q2"], r.docs["D4"], None)
    store.assessor = "bob"
    for doc, grade in (("D1", 1), ("D2", 0), ("D3", 0)):
        judging_ops.set_judgment(store, r.cases["Q1"], r.docs[doc], grade)
    with store.operation("test_load", "adjudication") as op:
        bob = op.select("assessors", name="bob")[0]["id"]
        op.insert("adjudications", {"case_id": r.cases["Q1"], "document_id": r.docs["D3"],
                                    "grade": 1, "assessor_id": bob, "note": "",
                                    "updated_at": utc_now()})
    store.assessor = first_assessor
    return r


def build_regressing(store: GoldSetStore, cases: int = 12) -> None:
    """Two runs over ``cases`` cases: v1 (model m1) finds each case's relevant document
    first, v2 (model m2, made after, same corpus) finds only a document judged not relevant
    — a drift with a significant regression of every retrieval measure (issue 16)."""
    for name, model in (("v1", "m1"), ("v2", "m2")):
        ops.create_run(store, name=name, model=model, corpus_version="c1")
    runs = {name: store.by_key("runs", name)["id"] for name in ("v1", "v2")}
    pairs = []
    for i in range(1, cases + 1):
        ops.create_case(store, key=f"Q{i:02}", question=f"Question {i} ?")
        case = last_id(store, "cases")
        docs = []
        for kind in ("good", "bad"):
            ops.create_document(store, key=f"{kind}{i}", title=kind, text=kind)
            docs.append(last_id(store, "documents"))
        judging_ops.set_judgment(store, case, docs[0], 1)
        judging_ops.set_judgment(store, case, docs[1], 0)
        pairs.append((case, docs))
    with store.operation("test_load", "runs") as op:
        for case, docs in pairs:
            for run, ranking in (("v1", docs), ("v2", docs[1:])):
                for rank, doc in enumerate(ranking, start=1):
                    op.insert("retrieved", {"run_id": runs[run], "case_id": case,
                                            "document_id": doc, "rank": rank,
                                            "score": 1.0 / rank})
