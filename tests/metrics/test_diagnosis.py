"""Diagnosis per case: access, retrieval (missing / outdated), abstention, generation."""

from __future__ import annotations

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.metrics.diagnosis import (
    OPEN_RIGHTS,
    DiagnosisInput,
    RankedDocument,
    diagnose,
    diagnose_case,
    may_read,
)
from rag_annotator.reports.inputs import diagnose_run
from rag_annotator.storage import reads_metrics
from rag_annotator.storage.store import GoldSetStore
from tests.builders import last_id


def _kinds(item: DiagnosisInput) -> list[tuple[str, str]]:
    return [(f.kind, f.detail) for f in diagnose_case(item)]


def test_may_read() -> None:
    assert may_read([], "salarie")
    assert may_read(["tous"], "salarie") and may_read(["*"], "x") and may_read(["All"], "x")
    assert may_read(["manager", "Salarie"], "salarie")
    assert not may_read(["rh"], "salarie")


def test_a_clean_case_has_no_failure() -> None:
    item = DiagnosisInput("q", "ordinary", "salarie", "answer", "answered", True, 0, 0,
                          (RankedDocument("A", 1, "current", ("tous",)),), ("A",))
    assert diagnose_case(item) == []


def test_retrieval_missing_takes_precedence_over_generation() -> None:
    item = DiagnosisInput("q", "ordinary", "", "answer", "answered", True, 1, 1,
                          (RankedDocument("B", 1),), ("A",))
    assert _kinds(item) == [("retrieval", "missing")]
    found = DiagnosisInput("q", "ordinary", "", "answer", "answered", True, 1, 0,
                           (RankedDocument("A", 1),), ("A",))
    assert _kinds(found) == [("generation", "unsupported")]
    # No verdict against it: no generation failure.
    assert _kinds(DiagnosisInput("q", "ordinary", has_answer=True, outcome="answered")) == []


def test_outdated_version_retrieved_instead_or_cited() -> None:
    instead = DiagnosisInput("q", "outdated_document", top=(
        RankedDocument("OLD", 1, "outdated", (), newer_is_expected=True),
        RankedDocument("NEW", 2)), expected=("NEW",))
    assert _kinds(instead) == [("retrieval", "outdated")]
    cited = DiagnosisInput("q", "ordinary", top=(RankedDocument("W", 1, "withdrawn"),),
                           cited=(("W", "withdrawn", ()),))
    assert _kinds(cited) == [("retrieval", "outdated")]
    # An outdated document merely retrieved, neither replacing an expected one nor cited.
    harmless = DiagnosisInput("q", "ordinary", top=(RankedDocument("W", 1, "withdrawn"),))
    assert _kinds(harmless) == []


@pytest.mark.parametrize(("expected", "outcome", "detail"), [
    ("abstain", "answered", "answered"), ("escalate", "answered", "answered"),
    ("answer", "abstained", "refused"), ("answer", "escalated", "refused"),
    ("escalate", "abstained", "not_escalated"),
    ("abstain", "abstained", None), ("abstain", "escalated", None), ("answer", None, None),
])
def test_abstention(expected: str, outcome: str | None, detail: str | None) -> None:
    item = DiagnosisInput("q", "no_answer", "", expected, outcome, True)
    assert _kinds(item) == ([] if detail is None else [("abstention", detail)])


def test_access_by_role_retrieved_and_cited() -> None:
    item = DiagnosisInput("q", "access_restricted", "salarie", top=(
        RankedDocument("SAL", 1, "current", ("rh",)), RankedDocument("OK", 2, "current",
                                                                     ("tous",))),
        cited=(("SAL", "current", ("rh",)),))
    failures = diagnose_case(item)
    assert [(f.kind, f.detail, f.documents) for f in failures] == [
        ("access", "retrieved", ("SAL",)), ("access", "cited", ("SAL",))]
    assert "rights" in failures[0].action
    # No role on the case: nothing to check.
    assert _kinds(DiagnosisInput("q", "ordinary", "", top=item.top)) == []


def test_counts_per_family_and_first_action() -> None:
    items = [
        DiagnosisInput("a", "ordinary", top=(RankedDocument("X", 1),), expected=("A",)),
        DiagnosisInput("b", "ordinary", top=(RankedDocument("X", 1),), expected=("B",)),
        DiagnosisInput("c", "ordinary", top=(RankedDocument("W", 1, "withdrawn", (), True),),
                       expected=("C",)),
        DiagnosisInput("d", "sensitive", "", "escalate", "answered", True),
        DiagnosisInput("e", "sensitive", "", "escalate", "escalated", True),
    ]
    result = diagnose("run", items)
    counts = result.counts()
    assert counts["ordinary"]["retrieval"] == 3 and counts["ordinary"]["abstention"] == 0
    assert counts["sensitive"]["abstention"] == 1
    assert result.cases("retrieval") == ("a", "b", "c")
    assert result.cases("abstention", "sensitive") == ("d",)
    # c fails twice at retrieval (missing and outdated) but counts once.
    assert len(result.per_case["c"]) == 2
    assert result.first_action("retrieval") == "Fix the corpus, chunking or query before the model."
    assert result.first_action("generation") is None
    data = result.to_json()
    assert data["cases"] == 5 and data["failing"] == 4
    assert data["per_family"]["sensitive"]["abstention"]["cases"] == 1


def test_diagnose_run_reads_the_store(store: GoldSetStore) -> None:
    _two_cases(store)
    result = diagnose_run(store, "r", depth=2)
    kinds = {case: sorted({(f.kind, f.detail) for f in fs}) for case, fs in
             result.per_case.items()}
    assert kinds["Q1"] == [("access", "retrieved"), ("retrieval", "missing"),
                           ("retrieval", "outdated")]
    assert kinds["Q2"] == [("abstention", "answered"), ("access", "cited"),
                           ("access", "retrieved")]
    # At depth 3 the expected source is in the top k: no longer missing.
    deeper = diagnose_run(store, "r", depth=3)
    assert ("retrieval", "missing") not in {(f.kind, f.detail) for f in deeper.per_case["Q1"]}
    with pytest.raises(ValueError):
        diagnose_run(store, "r", depth=0)


def test_both_reads_of_the_top_documents_agree(store: GoldSetStore,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Flagged documents reached through the indexes (few of them) or in one pass over the
    run's top k (many): the same rows (issue 19)."""
    _two_cases(store)
    few = [store.diagnosis_documents("r", depth, OPEN_RIGHTS) for depth in (1, 2, 3)]
    monkeypatch.setattr(reads_metrics, "_FEW_FLAGGED", -1)
    assert few == [store.diagnosis_documents("r", depth, OPEN_RIGHTS) for depth in (1, 2, 3)]
    assert few[2]["Q1"]["top"]  # something was read


def _two_cases(store: GoldSetStore) -> None:
    """Q1 (an outdated document retrieved, a restricted one, the expected source at rank
    3) and Q2 (a restricted document retrieved and cited) of run ``r``."""
    ops.create_case(store, key="Q1", family="outdated_document", role="salarie",
                    question="Combien de jours ?")
    q1 = last_id(store, "cases")
    ops.create_case(store, key="Q2", family="no_answer", expected_behaviour="abstain",
                    role="salarie", question="?")
    q2 = last_id(store, "cases")
    docs = {}
    for key, rights, status in (("OLD", ["tous"], "outdated"), ("NEW", ["tous"], "current"),
                                ("SAL", ["rh"], "current")):
        ops.create_document(store, key=key, text=key, rights=rights, status=status)
        docs[key] = last_id(store, "documents")
    ops.edit_document(store, docs["NEW"], supersedes_id=docs["OLD"])
    ops.add_expected_source(store, q1, docs["NEW"])
    ops.create_run(store, name="r")
    run = last_id(store, "runs")
    with store.operation("test_load", "run") as op:
        for case, ranked in ((q1, ["OLD", "SAL", "NEW"]), (q2, ["SAL"])):
            for rank, doc in enumerate(ranked, start=1):
                op.insert("retrieved", {"run_id": run, "case_id": case,
                                        "document_id": docs[doc], "rank": rank})
        answer = op.insert("answers", {"run_id": run, "case_id": q2, "text": "Voici."})
        op.insert("citations", {"answer_id": answer["id"], "document_id": docs["SAL"]})
    ops.set_answer_review(store, run, q2, outcome="answered")
