"""Passages rolled up to their documents, for the measures that are about documents.

A run that logs chunks ranks *passages* (several of one document for one case, as a rule),
and experts judge passages.  Retrieval measures are computed on what was ranked and judged
— passages — unless asked at the document level (``metrics --by-document``): did the run
bring the right *documents*, whichever chunk of them it returned?  Then, per case:

* the **ranking** has each document once, at the rank of its best-ranked passage (or of
  itself, when it was ranked whole);
* a document's **label** comes from the judgments on itself and its passages in the case's
  universe: the highest grade when any of them is judged relevant; not relevant when some
  are judged and none relevant; unjudged when none is judged.  (A document with a passage
  judged not relevant and another nobody judged is "not relevant" at this level, as in
  qrels made from judged passages: otherwise a case judged passage by passage would drop
  out of the document-level means, and the figures would no longer be trec_eval's.)
* a document or passage with no parent is its own document.

This is the "MaxP" rule of passage-to-document evaluation (a document scores as its best
passage), so trec_eval on run lines scored by the best passage and on qrels holding each
document's best judged grade gives the same values under the ``trec`` policy (the tests
hold the two to the same answers).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rag_annotator.metrics.values import QueryInput


def document_grade(grades: Iterable[int | None]) -> int | None:
    """The grade of a document from its own and its passages' (see the module docstring)."""
    judged = [g for g in grades if g is not None]
    return max(judged) if judged else None


def roll_up_query(query: QueryInput, parent_of: Mapping[str, str]) -> QueryInput:
    """One case's inputs at the document level."""
    ranking: dict[str, None] = {}
    for key in query.ranking:
        ranking.setdefault(parent_of.get(key, key), None)
    members: dict[str, list[int | None]] = {}
    for key, grade in query.labels.items():
        members.setdefault(parent_of.get(key, key), []).append(grade)
    return QueryInput(list(ranking), {doc: document_grade(grades)
                                      for doc, grades in members.items()}, query.max_grade)


def roll_up(queries: Mapping[str, QueryInput], parent_of: Mapping[str, str]
            ) -> dict[str, QueryInput]:
    """Every case's inputs at the document level; ``parent_of``: passage key → the key of
    its document (keys not in it are documents)."""
    if not parent_of:
        return dict(queries)
    return {case: roll_up_query(query, parent_of) for case, query in queries.items()}
