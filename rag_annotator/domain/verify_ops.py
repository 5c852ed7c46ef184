"""Operations of answer verification beyond the core ones of ``operations.py``.

Claim editing (split at a cursor, merge with the next claim, rationale alone, the answer
split into candidate claims), evidence spans, and the candidate claims an import adds.  As
every operation, each runs as one transaction recorded in the history (undoable) and returns
its :class:`Changes`.  The verdict itself, adding, rewording and deleting a claim, citations
and answer reviews are the core operations (``set_claim_verdict``, ``add_claim``,
``edit_claim``, ``delete_claim``, ``set_citation_support``, ``set_answer_review``).

What editing does to verdicts (a verdict is about a statement; a new statement needs a new
look):

* split: both parts are unverified; the first part keeps the claim's row, rationale and
  evidence, the second is a new claim right after it;
* merge: the merged claim keeps the verdict only if both had the same one, else it is
  unverified; rationales are joined, the evidence of both is kept;
* a claim's span in the answer follows the text when the claim was the exact words of the
  answer (the splitter's and the sample's claims are), and is dropped otherwise.
"""

from __future__ import annotations

from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.claim_split import split_claims
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.errors import Conflict, InvalidValue, NotFound


def _row(op: Writer, table: str, row_id: int, what: str) -> dict[str, Any]:
    row = op.get(table, {"id": row_id})
    if row is None:
        raise NotFound("no {what} with id {row_id}; it may have been deleted.",
                       what=what, row_id=row_id)
    return row


def _span_of(answer_text: str, claim: dict[str, Any]) -> tuple[int, int] | None:
    """The claim's span if it is the exact words of the answer there, else None."""
    start, end = claim["span_start"], claim["span_end"]
    if start is None or end is None or answer_text[start:end] != claim["text"]:
        return None
    return int(start), int(end)


# -- candidate claims ----------------------------------------------------------------------
def add_candidate_claims(op: Writer, answer_id: int, text: str) -> int:
    """Inside an operation: add the splitter's candidate claims of ``text`` (an answer's
    text) to answer ``answer_id``, unverified.  Returns how many were added."""
    spans = split_claims(text)
    # one history row for the batch (insert_range), not one per claim: a run import adds
    # thousands of answers
    return op.insert_rows("claims", ("answer_id", "position", "text", "span_start", "span_end"),
                          [(answer_id, position, text[start:end], start, end)
                           for position, (start, end) in enumerate(spans, start=1)])


def split_answer(store: Store, answer_id: int) -> Changes:
    """Split an answer without claims into candidate claims (refused if it has some)."""
    with store.operation("split_answer", f"answer #{answer_id}") as op:
        answer = _row(op, "answers", answer_id, "answer")
        if op.select("claims", answer_id=answer_id):
            raise Conflict("this answer already has claims; edit them (split, merge, add) "
                           "instead.")
        if not add_candidate_claims(op, answer_id, answer["text"]):
            raise InvalidValue("the answer has no text to split into claims.")
    return op.changes()


# -- claim editing ---------------------------------------------------------------------------
def set_claim_rationale(store: Store, claim_id: int, rationale: str) -> Changes:
    """Set a claim's rationale, leaving its verdict as it is."""
    text = v.check_text("rationale", rationale) or ""
    with store.operation("set_claim_rationale", f"#{claim_id}") as op:
        claim = _row(op, "claims", claim_id, "claim")
        if claim["rationale"] != text:
            op.update("claims", {"id": claim_id}, {"rationale": text,
                                                   "updated_at": utc_now()})
    return op.changes()


def split_claim(store: Store, claim_id: int, offset: int) -> Changes:
    """Split a claim in two at ``offset`` (a character position in its text).

    Both parts must hold some text.  See the module docstring for verdicts and spans.
    """
    with store.operation("split_claim", f"#{claim_id}") as op:
        claim = _row(op, "claims", claim_id, "claim")
        text = claim["text"]
        if not isinstance(offset, int) or isinstance(offset, bool) or not (
                0 < offset < len(text)):
            raise InvalidValue("put the cursor inside the claim's text, where it should be "
                               "split.")
        left_raw, right_raw = text[:offset], text[offset:]
        left, right = left_raw.strip(), right_raw.strip()
        if not left or not right:
            raise InvalidValue("both parts of a split claim need some text; move the cursor.")
        answer = _row(op, "answers", claim["answer_id"], "answer")
        span = _span_of(answer["text"], claim)
        left_span: tuple[int | None, int | None] = (None, None)
        right_span: tuple[int | None, int | None] = (None, None)
        if span is not None:
            start = span[0] + (len(left_raw) - len(left_raw.lstrip()))
            left_span = (start, start + len(left))
            rstart = span[0] + offset + (len(right_raw) - len(right_raw.lstrip()))
            right_span = (rstart, rstart + len(right))
        for later in reversed(op.select("claims", answer_id=claim["answer_id"],
                                        order_by="position")):
            if later["position"] > claim["position"]:
                op.update("claims", {"id": later["id"]}, {"position": later["position"] + 1})
        op.update("claims", {"id": claim_id}, {
            "text": left, "span_start": left_span[0], "span_end": left_span[1],
            "verdict": None, "updated_at": utc_now()})
        op.insert("claims", {"answer_id": claim["answer_id"],
                             "position": claim["position"] + 1, "text": right,
                             "span_start": right_span[0], "span_end": right_span[1]})
    return op.changes()


def merge_with_next(store: Store, claim_id: int) -> Changes:
    """Merge a claim with the one after it in its answer (the next one is removed)."""
    with store.operation("merge_claims", f"#{claim_id}") as op:
        claim = _row(op, "claims", claim_id, "claim")
        claims = sorted(op.select("claims", answer_id=claim["answer_id"]),
                        key=lambda c: (c["position"], c["id"]))
        index = next(i for i, c in enumerate(claims) if c["id"] == claim_id)
        if index + 1 >= len(claims):
            raise InvalidValue("this is the answer's last claim: there is no next claim to "
                               "merge it with.")
        nxt = claims[index + 1]
        op.label = f"#{claim_id} + #{nxt['id']}"
        answer = _row(op, "answers", claim["answer_id"], "answer")
        first, second = _span_of(answer["text"], claim), _span_of(answer["text"], nxt)
        values: dict[str, Any] = {"updated_at": utc_now()}
        if first is not None and second is not None and first[1] <= second[0]:
            values.update(text=answer["text"][first[0]:second[1]], span_start=first[0],
                          span_end=second[1])
        else:
            values.update(text=f"{claim['text'].rstrip()} {nxt['text'].lstrip()}",
                          span_start=None, span_end=None)
        if claim["verdict"] != nxt["verdict"]:
            values["verdict"] = None
        rationales = [r for r in (claim["rationale"], nxt["rationale"]) if r.strip()]
        values["rationale"] = " / ".join(dict.fromkeys(rationales))
        for evidence in op.select("evidence", claim_id=nxt["id"]):
            op.update("evidence", {"id": evidence["id"]}, {"claim_id": claim_id})
        for verdict in op.select("judge_verdicts", claim_id=nxt["id"]):
            op.delete("judge_verdicts", {"id": verdict["id"]})
        op.delete("claims", {"id": nxt["id"]})
        op.update("claims", {"id": claim_id}, values)
    return op.changes()


# -- evidence --------------------------------------------------------------------------------
def add_evidence(store: Store, claim_id: int, document_id: int,
                 span: tuple[int, int]) -> Changes:
    """Bind the words ``span`` = (start, end) of a document to a claim as evidence."""
    with store.operation("add_evidence", "") as op:
        claim = _row(op, "claims", claim_id, "claim")
        doc = _row(op, "documents", document_id, "document")
        start, end = span
        if not (isinstance(start, int) and isinstance(end, int)
                and 0 <= start < end <= len(doc["text"])):
            raise InvalidValue("select some words of document {doc} first (the span "
                               "{start}–{end} is empty or outside its "
                               "{n_doc} characters).",
                               doc=doc['key'], start=start, end=end, n_doc=len(doc['text']))
        op.label = f"#{claim['id']} ← {doc['key']} {start}–{end}"
        # the same words twice are one piece of evidence (an empty operation, not logged;
        # its Changes are taken after the block, once the store has dropped it)
        if not op.select("evidence", claim_id=claim_id, document_id=document_id,
                         span_start=start, span_end=end):
            op.insert("evidence", {"claim_id": claim_id, "document_id": document_id,
                                   "span_start": start, "span_end": end})
    return op.changes()


def remove_evidence(store: Store, evidence_id: int) -> Changes:
    """Remove one evidence span of a claim."""
    with store.operation("remove_evidence", f"#{evidence_id}") as op:
        evidence = _row(op, "evidence", evidence_id, "evidence span")
        doc = op.get("documents", {"id": evidence["document_id"]})
        op.label = (f"#{evidence['claim_id']} ← {doc['key'] if doc else '?'} "
                    f"{evidence['span_start']}–{evidence['span_end']}")
        op.delete("evidence", {"id": evidence_id})
    return op.changes()
