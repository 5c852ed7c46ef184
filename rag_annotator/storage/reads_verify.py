"""Store reads for answers, claims, evidence, citations, reviews, judge verdicts.

The Verify section walks every claim of every answer in one fixed order (run name, case key,
claim position); :meth:`VerifyReads.claim_queue` gives that order with each claim's verdict,
so the section can find "the next unverified claim" without a query per key press.
:meth:`VerifyReads.answer_context` gathers what the expert reads for one (run, case).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rag_annotator.domain.layout import Layout
from rag_annotator.errors import NotFound
from rag_annotator.storage.reads import ReadBase, Row, json_list

if TYPE_CHECKING:  # imported where read: opening a file (every store) needs no rights code
    from rag_annotator.domain.rights import Identities

#: Rights entries that open a document to every role (the same words as
#: ``metrics.diagnosis.OPEN_RIGHTS``).
OPEN_RIGHTS = frozenset({"*", "all", "tous", "everyone", "public"})


def restricted(role: str, rights: list[str], identities: Identities | None = None) -> bool:
    """Whether a case asked in ``role`` may not read a document with these rights: only when
    both are given and the rights neither name the role nor open it to all.  With the gold
    set's declared ``identities``, a role naming one is checked against its groups."""
    if identities is not None and identities.get(role) is not None:
        return not identities.may_read(rights, role)
    role = role.strip()
    names = {r.strip().casefold() for r in rights}
    return bool(role and names and not names & OPEN_RIGHTS and role.casefold() not in names)


class VerifyReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    def claim_queue(self) -> list[Row]:
        """Every claim in verification order: ``id``, ``answer_id``, ``verdict``.

        Ordered by run name, case key, then claim position (and id), the order in which the
        Verify section walks them.
        """
        return self._many(
            "SELECT cl.id, cl.answer_id, cl.verdict FROM claims cl "
            "JOIN answers a ON a.id = cl.answer_id JOIN runs r ON r.id = a.run_id "
            "JOIN cases c ON c.id = a.case_id "
            "ORDER BY r.name, c.key, cl.position, cl.id")

    def first_unverified_claim(self) -> Row | None:
        """The first claim without a verdict in :meth:`claim_queue`'s order (``id``,
        ``answer_id``), else None — without reading the queue: the joins walk the run-name,
        case-key and (answer, position) indexes in that order and stop at the first match,
        so opening the Verify section need not wait for 100,000 claims to be sorted."""
        return self._one(
            "SELECT cl.id, cl.answer_id FROM runs r CROSS JOIN cases c "
            "CROSS JOIN answers a CROSS JOIN claims cl "
            "WHERE a.run_id = r.id AND a.case_id = c.id AND cl.answer_id = a.id "
            "AND cl.verdict IS NULL ORDER BY r.name, c.key, cl.position, cl.id LIMIT 1")

    def first_answer_id(self) -> int | None:
        """The first answer in :meth:`answers_overview`'s order, else None (no sort either)."""
        row = self._one(
            "SELECT a.id FROM runs r CROSS JOIN cases c CROSS JOIN answers a "
            "WHERE a.run_id = r.id AND a.case_id = c.id ORDER BY r.name, c.key LIMIT 1")
        return None if row is None else int(row["id"])

    def answer_context(self, answer_id: int) -> Row:
        """What an expert reads to verify one answer (raises NotFound if it is gone).

        Keys: the answer (``id``, ``text``, ``run_id``, ``run``, ``case_id``), the case
        (``case_key``, ``question``, ``reference_answer``, ``must_contain``, ``forbidden``
        lists, ``role``, ``expected_behaviour``), ``claims`` (in order, with ``span_start``,
        ``span_end``, ``verdict``, ``rationale``, ``assessor``, ``evidence`` rows
        {``id``, ``document_id``, ``key``, ``span_start``, ``span_end``, ``page``: the page
        the span starts on, None for a document without pages} and ``judges``:
        [judge name, verdict, raw label] triples), ``contexts`` (the run's retrieved
        documents in rank order: ``document_id``, ``key``, ``title``, ``text``, ``rank``,
        ``rights``, ``restricted``; then the cited documents it did not retrieve, ``rank``
        None), ``citations`` (``id``, ``marker``, ``document_id``, ``key``,
        ``span_start``, ``span_end``, ``support``, ``rights``, ``restricted``: True when the
        document's rights list roles, none of them opens it to all (``tous``, ``all``, ``*``…)
        and the case's role is not among them) and ``review``
        (the answer review row with lists decoded, or None).
        """
        row = self._one(
            "SELECT a.id, a.text, a.run_id, r.name AS run, a.case_id, c.key AS case_key, "
            "c.question, c.reference_answer, c.must_contain, c.forbidden, c.role, "
            "c.expected_behaviour "
            "FROM answers a JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
            "WHERE a.id = ?", (answer_id,))
        if row is None:
            raise NotFound("no answer with id {answer_id}; it may have been deleted.",
                           answer_id=answer_id)
        row["must_contain"] = [str(x) for x in json_list(row["must_contain"])]
        row["forbidden"] = [str(x) for x in json_list(row["forbidden"])]
        row["claims"] = self.claims_detail(answer_id)
        row["contexts"] = self._many(
            "SELECT t.document_id, d.key, d.title, d.text, t.rank, d.rights "
            "FROM retrieved t JOIN documents d ON d.id = t.document_id "
            "WHERE t.run_id = ? AND t.case_id = ? ORDER BY t.rank",
            (row["run_id"], row["case_id"]))
        retrieved = {c["document_id"] for c in row["contexts"]}
        citations = self._many(
            "SELECT ci.id, ci.marker, ci.document_id, d.key, d.title, ci.span_start, "
            "ci.span_end, ci.support, d.rights FROM citations ci "
            "JOIN documents d ON d.id = ci.document_id WHERE ci.answer_id = ? ORDER BY ci.id",
            (answer_id,))
        # a cited document the run did not retrieve is shown too (after the retrieved ones)
        for cite in citations:
            if cite["document_id"] not in retrieved:
                retrieved.add(cite["document_id"])
                doc = self._one("SELECT id AS document_id, key, title, text, NULL AS rank, "
                                "rights FROM documents WHERE id = ?", (cite["document_id"],))
                if doc is not None:
                    row["contexts"].append(doc)
        from rag_annotator.domain.rights import Identities

        role = str(row["role"] or "").strip()
        identities = Identities.from_rows(self._many(
            "SELECT name, group_names FROM identities WHERE lower(trim(name)) = lower(?)",
            (role,))) if role else None
        for item in [*row["contexts"], *citations]:
            item["rights"] = [str(x) for x in json_list(item["rights"])]
            item["restricted"] = restricted(role, item["rights"], identities)
        row["citations"] = citations
        review = self._one(
            "SELECT v.*, s.name AS assessor FROM answer_reviews v "
            "LEFT JOIN assessors s ON s.id = v.assessor_id "
            "WHERE v.run_id = ? AND v.case_id = ?", (row["run_id"], row["case_id"]))
        if review is not None:
            review["failure_categories"] = json_list(review["failure_categories"])
            review["must_contain_found"] = json_list(review["must_contain_found"])
        row["review"] = review
        return row

    def claims_detail(self, answer_id: int, only: Sequence[int] | None = None,
                      links: bool = True) -> list[Row]:
        """The claims of one answer with spans, evidence rows and judges' verdicts; with
        ``only``, just those of its claims (what a verdict key changed: one row to read
        again, not the whole answer); without ``links``, the claims' own columns only (no
        ``evidence``, no ``judges``: a verdict changes neither)."""
        where, args = "cl.answer_id = ?", list[object]([answer_id])
        if only is not None:
            where += " AND cl.id IN (SELECT value FROM json_each(?))"
            args.append(json.dumps(list(only)))
        claims = self._many(
            "SELECT cl.id, cl.position, cl.text, cl.span_start, cl.span_end, cl.verdict, "
            "cl.rationale, s.name AS assessor FROM claims cl "
            "LEFT JOIN assessors s ON s.id = cl.assessor_id "
            f"WHERE {where} ORDER BY cl.position, cl.id", args)
        if not links:
            return claims
        ids = [c["id"] for c in claims]
        evidence = self._by_claim(
            "SELECT e.claim_id, e.id, e.document_id, d.key, e.span_start, e.span_end, "
            "d.pages FROM evidence e JOIN documents d ON d.id = e.document_id "
            "WHERE e.claim_id IN (SELECT value FROM json_each(?)) ORDER BY e.id", ids)
        for rows in evidence.values():
            for row in rows:  # the page an evidence span starts on (None: not paged)
                pages = row.pop("pages")
                row["page"] = (Layout.from_columns(pages, None).page_of(int(row["span_start"]))
                               if pages else None)
        judges = self._by_claim(
            "SELECT j.claim_id, s.name, j.verdict, j.raw_label FROM judge_verdicts j "
            "JOIN assessors s ON s.id = j.assessor_id "
            "WHERE j.claim_id IN (SELECT value FROM json_each(?)) ORDER BY s.name", ids)
        for claim in claims:
            claim["evidence"] = evidence.get(claim["id"], [])
            claim["judges"] = [(j["name"], j["verdict"], j["raw_label"])
                               for j in judges.get(claim["id"], [])]
        return claims

    def _by_claim(self, sql: str, ids: Sequence[int]) -> dict[int, list[Row]]:
        out: dict[int, list[Row]] = {}
        if not ids:
            return out
        for row in self._many(sql, (json.dumps(list(ids)),)):
            out.setdefault(int(row.pop("claim_id")), []).append(row)
        return out

    def judge_names(self) -> list[str]:
        """Names of the assessors of kind 'judge' (automatic graders)."""
        return [str(r["name"]) for r in self._many(
            "SELECT name FROM assessors WHERE kind = 'judge' ORDER BY name")]

    def calibration_pairs(self, judge: str) -> list[Row]:
        """Claims with both a human verdict and ``judge``'s verdict: ``claim_id``, ``run``,
        ``case_key``, ``position``, ``text``, ``human``, ``judge`` (verdict codes),
        ``raw_label``; in verification order."""
        return self._many(
            "SELECT cl.id AS claim_id, r.name AS run, c.key AS case_key, cl.position, "
            "cl.text, cl.verdict AS human, j.verdict AS judge, j.raw_label "
            "FROM judge_verdicts j JOIN assessors s ON s.id = j.assessor_id "
            "JOIN claims cl ON cl.id = j.claim_id JOIN answers a ON a.id = cl.answer_id "
            "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
            "WHERE s.name = ? AND s.kind = 'judge' AND cl.verdict IS NOT NULL "
            "AND j.verdict IS NOT NULL "
            "ORDER BY r.name, c.key, cl.position, cl.id", (judge,))

    def answer_faithfulness(self, judge: str) -> list[Row]:
        """Per answer the judge graded: ``run``, ``case_key``, ``judge_supported`` /
        ``judge_graded`` (its verdicts on the answer's claims) and ``human_supported`` /
        ``human_verified``: the human verdicts on the claims of the same answer, or — when
        none of those is verified — of the answers to the same case with the same text in
        other runs (a RAGChecker run beside the run the experts verified, its triplets
        beside their sentences); in run, case order."""
        per_answer = self._many(
            "SELECT a.id, r.name AS run, c.key AS case_key, a.case_id, a.text, "
            "sum(j.verdict = 'supported') AS judge_supported, "
            "count(j.verdict) AS judge_graded, "
            "sum(cl.verdict = 'supported') AS human_supported, "
            "count(cl.verdict) AS human_verified "
            "FROM answers a JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
            "JOIN claims cl ON cl.answer_id = a.id LEFT JOIN judge_verdicts j "
            "ON j.claim_id = cl.id AND j.assessor_id IN "
            "(SELECT id FROM assessors WHERE name = ? AND kind = 'judge') "
            "GROUP BY a.id ORDER BY r.name, c.key", (judge,))
        by_text: dict[tuple[int, str], list[Row]] = {}
        for row in per_answer:
            if row["human_verified"]:
                by_text.setdefault((row["case_id"], " ".join(row["text"].split())),
                                   []).append(row)
        out = []
        for row in per_answer:
            if not row["judge_graded"]:
                continue
            if not row["human_verified"]:
                same = by_text.get((row["case_id"], " ".join(row["text"].split())), [])
                row["human_supported"] = sum(int(o["human_supported"] or 0) for o in same)
                row["human_verified"] = sum(int(o["human_verified"]) for o in same)
            out.append({k: row[k] for k in ("run", "case_key", "judge_supported",
                                            "judge_graded", "human_supported",
                                            "human_verified")})
        return out

    def judge_verdict_counts(self, judge: str) -> dict[str, int]:
        """How many claims ``judge`` graded, by our verdict code ('unmapped' for none)."""
        counts: dict[str, int] = {}
        for row in self._many(
                "SELECT coalesce(j.verdict, 'unmapped') AS v, count(*) AS n "
                "FROM judge_verdicts j JOIN assessors s ON s.id = j.assessor_id "
                "WHERE s.name = ? GROUP BY 1", (judge,)):
            counts[str(row["v"])] = int(row["n"])
        return counts

    def claims_for_matching(self, run: str) -> list[Row]:
        """Every claim of a run's answers with its case key, for importing judges' verdicts:
        ``id``, ``case_key``, ``position``, ``text``."""
        return self._many(
            "SELECT cl.id, c.key AS case_key, cl.position, cl.text FROM claims cl "
            "JOIN answers a ON a.id = cl.answer_id JOIN runs r ON r.id = a.run_id "
            "JOIN cases c ON c.id = a.case_id WHERE r.name = ? "
            "ORDER BY c.key, cl.position, cl.id", (run,))

    def answers_overview(self) -> list[Row]:
        """Per answer: run, case, claims by verdict (what the Verify section lists)."""
        return self._many(
            "SELECT a.id, r.name AS run, c.key AS case_key, c.question, "
            "count(cl.id) AS claims, count(cl.verdict) AS verified, "
            "sum(cl.verdict = 'supported') AS supported, "
            "sum(cl.verdict = 'not_supported') AS not_supported, "
            "sum(cl.verdict = 'contradicted') AS contradicted "
            "FROM answers a JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
            "LEFT JOIN claims cl ON cl.answer_id = a.id "
            "GROUP BY a.id ORDER BY r.name, c.key"
        )

    def answer_detail(self, answer_id: int) -> Row:
        """One generated answer with its run name, case key and question (raises NotFound)."""
        row = self._one(
            "SELECT a.id, a.text, a.latency_ms, r.name AS run, c.key AS case_key, c.question "
            "FROM answers a JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
            "WHERE a.id = ?",
            (answer_id,),
        )
        if row is None:
            raise NotFound("no answer with id {answer_id}; it may have been deleted.",
                           answer_id=answer_id)
        return row

    def claims_of(self, answer_id: int) -> list[Row]:
        """The claims of an answer in order, with verdict, rationale, assessor and the keys of
        their evidence documents (``evidence``: a list)."""
        rows = self._many(
            "SELECT cl.id, cl.position, cl.text, cl.verdict, cl.rationale, s.name AS assessor, "
            "(SELECT json_group_array(d.key) FROM evidence e JOIN documents d "
            " ON d.id = e.document_id WHERE e.claim_id = cl.id) AS evidence "
            "FROM claims cl LEFT JOIN assessors s ON s.id = cl.assessor_id "
            "WHERE cl.answer_id = ? ORDER BY cl.position, cl.id",
            (answer_id,),
        )
        for row in rows:
            row["evidence"] = json_list(row["evidence"])
        return rows

    def claim_counts(self) -> dict[str, int]:
        """Claims by verdict; no verdict is 'unverified'."""
        counts = {"supported": 0, "not_supported": 0, "contradicted": 0, "unverified": 0}
        for verdict, n in self._conn.execute(
                "SELECT coalesce(verdict, 'unverified'), count(*) FROM claims GROUP BY 1"):
            counts[verdict] = n
        return counts

    def unverified_claims(self) -> int:
        """Claims without a verdict (the status bar's count; an index lookup, not a scan)."""
        return int(self._conn.execute(
            "SELECT count(*) FROM claims WHERE verdict IS NULL").fetchone()[0])

    def unverified_delta(self, operation_id: int, claims: int) -> int | None:
        """How many more claims lack a verdict after operation ``operation_id`` than before,
        from its history rows (one per claim row it wrote, before and after images) — a
        verdict key's change to the status bar's count without counting 100,000 claims
        again.  None when the history does not hold exactly ``claims`` claim rows (a write
        it did not log row by row): then count again."""
        row = self._conn.execute(
            "SELECT count(*), "
            "coalesce(sum(new IS NOT NULL AND json_extract(new, '$.verdict') IS NULL), 0) - "
            "coalesce(sum(old IS NOT NULL AND json_extract(old, '$.verdict') IS NULL), 0) "
            "FROM history WHERE operation_id = ? AND table_name = 'claims'",
            (operation_id,)).fetchone()
        return int(row[1]) if int(row[0]) == claims else None
