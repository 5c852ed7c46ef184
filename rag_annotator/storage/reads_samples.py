"""Store reads for the review samples of an automatic judge (issue 22).

:meth:`SampleReads.judged_units` is a judge's population at one level — every unit it
labelled, with the family of its case and the human's label where a human gave one —
and :meth:`SampleReads.review_sample` the sample drawn from it with each item's stratum and
inclusion weight.  The labels are words (``domain.review_sample.LEVEL_CLASSES``):

* claims: the judge's verdict (``judge_verdicts``) and the human's (``claims.verdict``);
* answers: validated when every claim of the answer has the judge's ``supported`` verdict,
  else not validated (the judge's faithfulness is its share of supported claims); the
  human's is the answer review's ``validated`` (faithfulness: the human-supported share,
  known only once every claim is verified);
* relevance: a (case, document) pair the judge assessor labelled (grade >= 1: relevant) —
  an automatic relevance judge imported as qrels is a plain assessor until its first sample
  is drawn, which makes it of kind judge; the human's label is the adjudicated grade, else
  the human assessors' grades when they agree.
"""

from __future__ import annotations

from rag_annotator.storage.reads import ReadBase, Row

_CLAIMS = (
    "SELECT cl.id AS unit_id, NULL AS document_id, c.family, j.verdict AS judge, "
    "cl.verdict AS human, cl.rationale, r.name AS run, c.key AS case_key, "
    "cl.position, cl.text, cl.answer_id "
    "FROM judge_verdicts j JOIN assessors s ON s.id = j.assessor_id "
    "JOIN claims cl ON cl.id = j.claim_id JOIN answers a ON a.id = cl.answer_id "
    "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
    "WHERE s.name = ? AND s.kind = 'judge' AND j.verdict IS NOT NULL "
    "ORDER BY cl.id")

_ANSWERS = (
    "SELECT a.id AS unit_id, NULL AS document_id, c.family, r.name AS run, "
    "c.key AS case_key, a.id AS answer_id, "
    "count(cl.id) AS claims, sum(j.verdict = 'supported') AS judge_supported, "
    "count(j.id) AS judge_graded, count(cl.verdict) AS human_verified, "
    "sum(cl.verdict = 'supported') AS human_supported, "
    "rv.validated AS human_validated, coalesce(rv.note, '') AS rationale "
    "FROM answers a JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
    "JOIN claims cl ON cl.answer_id = a.id "
    "LEFT JOIN judge_verdicts j ON j.claim_id = cl.id AND j.verdict IS NOT NULL "
    "AND j.assessor_id = (SELECT id FROM assessors WHERE name = ? AND kind = 'judge') "
    "LEFT JOIN answer_reviews rv ON rv.run_id = a.run_id AND rv.case_id = a.case_id "
    "GROUP BY a.id HAVING count(j.id) > 0 ORDER BY a.id")

_RELEVANCE = (
    "SELECT g.case_id AS unit_id, g.document_id, c.family, c.key AS case_key, "
    "d.key AS document_key, g.grade AS judge_grade, ad.grade AS adjudicated, "
    "(SELECT min(h.grade) FROM judgments h JOIN assessors ha ON ha.id = h.assessor_id "
    " WHERE h.case_id = g.case_id AND h.document_id = g.document_id AND ha.kind = 'human' "
    " AND h.assessor_id != g.assessor_id "
    " AND h.grade IS NOT NULL) AS human_min, "
    "(SELECT max(h.grade) FROM judgments h JOIN assessors ha ON ha.id = h.assessor_id "
    " WHERE h.case_id = g.case_id AND h.document_id = g.document_id AND ha.kind = 'human' "
    " AND h.assessor_id != g.assessor_id "
    " AND h.grade IS NOT NULL) AS human_max, "
    "coalesce(ad.note, (SELECT group_concat(h.note, ' / ') FROM judgments h "
    " JOIN assessors ha ON ha.id = h.assessor_id WHERE h.case_id = g.case_id "
    " AND h.document_id = g.document_id AND ha.kind = 'human' "
    " AND h.assessor_id != g.assessor_id AND h.note != '')) "
    " AS rationale "
    "FROM judgments g JOIN assessors s ON s.id = g.assessor_id "
    "JOIN cases c ON c.id = g.case_id JOIN documents d ON d.id = g.document_id "
    "LEFT JOIN adjudications ad ON ad.case_id = g.case_id AND ad.document_id = g.document_id "
    "WHERE s.name = ? AND g.grade IS NOT NULL "
    "ORDER BY g.case_id, g.document_id")


def _relevance_label(grade: int | None) -> str | None:
    return None if grade is None else ("relevant" if grade >= 1 else "not_relevant")


def _answer_row(row: Row) -> Row:
    claims = int(row["claims"])
    judge_faith = (row["judge_supported"] or 0) / claims
    human_known = int(row["human_verified"]) == claims
    validated = row["human_validated"]
    return {**row,
            "judge": "validated" if (row["judge_supported"] or 0) == claims
            else "not_validated",
            "human": None if validated is None
            else ("validated" if validated else "not_validated"),
            "judge_faithfulness": judge_faith,
            "human_faithfulness": (row["human_supported"] or 0) / claims if human_known
            else None}


def _relevance_row(row: Row) -> Row:
    human_grade = row["adjudicated"]
    if human_grade is None and row["human_min"] is not None:
        low, high = _relevance_label(row["human_min"]), _relevance_label(row["human_max"])
        human = low if low == high else None  # humans disagree: adjudicate first
    else:
        human = _relevance_label(human_grade)
    return {**row, "judge": _relevance_label(row["judge_grade"]), "human": human,
            "rationale": row["rationale"] or ""}


class SampleReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    def judged_units(self, judge: str, level: str) -> list[Row]:
        """Every unit ``judge`` labelled at ``level``: ``unit_id``, ``document_id`` (relevance
        only), ``family``, ``judge`` and ``human`` (label words; human None: no human label),
        ``rationale`` (the human's), and where it is (``run``, ``case_key``...)."""
        if level == "claims":
            return self._many(_CLAIMS, (judge,))
        if level == "answers":
            return [_answer_row(r) for r in self._many(_ANSWERS, (judge,))]
        if level == "relevance":
            return [_relevance_row(r) for r in self._many(_RELEVANCE, (judge,))]
        raise ValueError(f"unknown level {level!r}; use claims, answers or relevance")

    def review_sample(self, judge: str, level: str) -> Row | None:
        """The sample of ``judge`` at ``level`` (None: none drawn): its row (``id``, ``seed``,
        ``size``, ``population``, ``half_width``, ``created_at``, ``created_by``) and
        ``items`` in review order (``unit_id``, ``document_id``, ``stratum``, ``judge_label``,
        ``family``, ``stratum_size``, ``stratum_drawn``, ``weight``)."""
        sample = self._one(
            "SELECT rs.*, s.name AS judge FROM review_samples rs "
            "JOIN assessors s ON s.id = rs.judge_id WHERE s.name = ? AND rs.level = ?",
            (judge, level))
        if sample is None:
            return None
        sample["items"] = self._many(
            "SELECT unit_id, document_id, stratum, judge_label, family, stratum_size, "
            "stratum_drawn, weight FROM review_sample_items WHERE sample_id = ? "
            "ORDER BY position", (sample["id"],))
        return sample

    def review_samples(self) -> list[Row]:
        """Every sample drawn: ``judge``, ``level``, ``size``, ``seed``, ``created_at``."""
        return self._many(
            "SELECT s.name AS judge, rs.level, rs.size, rs.seed, rs.population, "
            "rs.created_at FROM review_samples rs JOIN assessors s ON s.id = rs.judge_id "
            "ORDER BY s.name, rs.level")

    def sample_claim_queue(self, judge: str) -> list[Row]:
        """The claims of ``judge``'s claims sample in review order, as
        :meth:`VerifyReads.claim_queue` gives claims: ``id``, ``answer_id``, ``verdict`` (the
        human's); a sampled claim since deleted is left out."""
        return self._many(
            "SELECT cl.id, cl.answer_id, cl.verdict FROM review_sample_items i "
            "JOIN review_samples rs ON rs.id = i.sample_id "
            "JOIN assessors s ON s.id = rs.judge_id "
            "JOIN claims cl ON cl.id = i.unit_id "
            "WHERE s.name = ? AND rs.level = 'claims' ORDER BY i.position", (judge,))

    def sampled_pairs(self) -> tuple[set[tuple[int, int]], set[str]]:
        """The (case id, document id) pairs of every relevance review sample, and the names
        of the judges that drew them: the Judge section keeps those judges' labels off the
        screen on those pairs until the human has labelled them."""
        rows = self._many(
            "SELECT i.unit_id, i.document_id, s.name FROM review_sample_items i "
            "JOIN review_samples rs ON rs.id = i.sample_id "
            "JOIN assessors s ON s.id = rs.judge_id WHERE rs.level = 'relevance'")
        return ({(int(r["unit_id"]), int(r["document_id"])) for r in rows},
                {str(r["name"]) for r in rows})

    def sample_answer_queue(self, judge: str) -> list[Row]:
        """The claims of the answers of ``judge``'s answers sample, answer by answer in
        review order: ``id``, ``answer_id``, ``verdict`` (as :meth:`sample_claim_queue`)."""
        return self._many(
            "SELECT cl.id, cl.answer_id, cl.verdict FROM review_sample_items i "
            "JOIN review_samples rs ON rs.id = i.sample_id "
            "JOIN assessors s ON s.id = rs.judge_id "
            "JOIN claims cl ON cl.answer_id = i.unit_id "
            "WHERE s.name = ? AND rs.level = 'answers' "
            "ORDER BY i.position, cl.position, cl.id", (judge,))

    def sample_answers_reviewed(self, judge: str) -> tuple[int, int]:
        """(answers of the sample whose review says validated or not, answers sampled)."""
        row = self._one(
            "SELECT count(rv.validated) AS reviewed, count(*) AS total "
            "FROM review_sample_items i JOIN review_samples rs ON rs.id = i.sample_id "
            "JOIN assessors s ON s.id = rs.judge_id JOIN answers a ON a.id = i.unit_id "
            "LEFT JOIN answer_reviews rv ON rv.run_id = a.run_id AND rv.case_id = a.case_id "
            "WHERE s.name = ? AND rs.level = 'answers'", (judge,))
        return (0, 0) if row is None else (int(row["reviewed"]), int(row["total"]))

    def sample_pair_queue(self, judge: str, assessor: str) -> list[Row]:
        """The pairs of ``judge``'s relevance sample in review order: ``case_id``,
        ``document_id``, ``my_grade`` (``assessor``'s label, None: not labelled) and
        ``judge_grade`` — the Judge section's sample queue walks them."""
        return self._many(
            "SELECT i.unit_id AS case_id, i.document_id, mine.grade AS my_grade, "
            "jg.grade AS judge_grade FROM review_sample_items i "
            "JOIN review_samples rs ON rs.id = i.sample_id "
            "JOIN assessors s ON s.id = rs.judge_id "
            "LEFT JOIN judgments jg ON jg.case_id = i.unit_id "
            " AND jg.document_id = i.document_id AND jg.assessor_id = s.id "
            "LEFT JOIN judgments mine ON mine.case_id = i.unit_id "
            " AND mine.document_id = i.document_id AND mine.assessor_id = "
            " (SELECT id FROM assessors WHERE name = ?) "
            "WHERE s.name = ? AND rs.level = 'relevance' ORDER BY i.position",
            (assessor, judge))
