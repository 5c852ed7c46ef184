"""Store reads for judging: the pools an assessor labels, their progress, the effective
labels and disputes, and what a merge brings in.

The Judge section reads a case's pool (:meth:`JudgingReads.pool_of_case`) once, then after
each key only the pairs the operation's ``Changes`` names (:meth:`JudgingReads.pool_pairs`);
the progress counts (:meth:`JudgingReads.judging_progress`) are indexed by case for the same
reason.  The SQL they share (the universe of pairs, the effective label rule) is in
``queries``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from rag_annotator.storage import queries
from rag_annotator.storage.reads import ReadBase, Row, json_list


class JudgingReads(ReadBase):
    """Read queries of judging, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    # -- the judging panel -------------------------------------------------------------------
    def judging_progress(self, case_ids: Sequence[int], assessor: str) -> dict[int, Row]:
        """Per case: pairs in its universe and their effective labels, and those ``assessor``
        has judged.

        Same definitions as :meth:`judgment_counts` (so summing every case gives its totals);
        keys: ``pairs``, ``mine``, ``relevant``, ``not_relevant``, ``unjudged``, ``disputed``.
        Cases with an empty universe get zeros.  Indexed by case, so it can be computed in
        chunks (a big file is counted in the background) or for the few cases an edit touched.
        """
        ids = [int(i) for i in case_ids]
        out = {i: {"pairs": 0, "mine": 0, "relevant": 0, "not_relevant": 0, "unjudged": 0,
                   "disputed": 0} for i in ids}
        if not ids:
            return out
        runs, depth = self.pool_settings()
        runs_json = None if runs is None else json.dumps(runs)
        for row in self._many(queries.PROGRESS_SQL, (json.dumps(ids), assessor, runs_json,
                                                     depth)):
            case_id = row.pop("case_id")
            out[case_id] = {k: int(v or 0) for k, v in row.items()}
        return out

    def pool_of_case(self, case_id: int, assessor: str) -> list[Row]:
        """The documents of a case's judging pool (see :meth:`pool_settings`: the chosen runs'
        top documents, the expected sources, every judged pair), in key order, with
        ``assessor``'s grade
        (``my_grade``), the other assessors' labels (``others``: [name, grade] pairs), the
        effective grade and whether the pair is disputed.

        Deliberately without ranks or scores: judges label what they read, not what a run
        ranked first.
        """
        return _with_others(self._many(queries.POOL_SQL,
                                       (case_id, assessor, None, *self._pool_params())))

    def pool_pairs(self, case_id: int, assessor: str, document_ids: Iterable[int]
                   ) -> list[Row]:
        """The rows of :meth:`pool_of_case` for these documents only (those still in the
        case's universe): after a label, the judging panel refreshes the one pair that changed
        instead of reading the whole pool again."""
        ids = json.dumps(sorted(int(i) for i in document_ids))
        return _with_others(self._many(queries.POOL_SQL,
                                       (case_id, assessor, ids, *self._pool_params())))

    def pool_settings(self) -> tuple[list[str] | None, int | None]:
        """Which runs (None: every run) and how deep (None: whole lists) make the judging pool.

        Set with :func:`~rag_annotator.domain.judging_ops.set_pool`; a run named there that was
        deleted since simply contributes nothing.
        """
        found = dict(self._conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('pool_runs', 'pool_depth')"))
        runs_text, depth_text = found.get("pool_runs") or "", found.get("pool_depth") or ""
        runs = json_list(runs_text) if runs_text else None
        depth = int(depth_text) if depth_text.isdigit() and int(depth_text) > 0 else None
        return ([str(r) for r in runs] if runs is not None else None), depth

    def _pool_params(self) -> tuple[str | None, int | None]:
        runs, depth = self.pool_settings()
        return (None if runs is None else json.dumps(runs)), depth

    # -- effective labels and several assessors ----------------------------------------
    def effective_labels(self) -> list[tuple[str, str, int | None, bool]]:
        """Every pair of the universe: (case key, document key, effective grade, disputed).

        The grade is None when the pair has no effective label (unjudged or disputed).
        Ordered by case key, then document key.
        """
        rows = self._conn.execute(
            "SELECT c.key, d.key, e.grade, e.disputed FROM (" + queries.EFFECTIVE_PAIRS_SQL + ") e "
            "JOIN cases c ON c.id = e.case_id JOIN documents d ON d.id = e.document_id "
            "ORDER BY c.key, d.key").fetchall()
        return [(case, doc, grade, bool(disputed)) for case, doc, grade, disputed in rows]

    def universe_labels(self) -> dict[str, dict[str, int | None]]:
        """Case key → {document key: effective grade or None} over each case's universe."""
        out: dict[str, dict[str, int | None]] = {}
        for case, doc, grade, _disputed in self.effective_labels():
            out.setdefault(case, {})[doc] = grade
        return out

    def judgment_rows(self) -> list[tuple[str, str, str, int, str]]:
        """Every graded judgment: (case key, document key, assessor, grade, case family).

        The input of the agreement figures (``metrics.agreement``); unjudged rows (no grade)
        are left out, adjudications too (they settle a dispute, they are not a rating).
        """
        return [(c, d, a, int(g), f) for c, d, a, g, f in self._conn.execute(
            "SELECT c.key, d.key, s.name, j.grade, c.family FROM judgments j "
            "JOIN cases c ON c.id = j.case_id JOIN documents d ON d.id = j.document_id "
            "JOIN assessors s ON s.id = j.assessor_id WHERE j.grade IS NOT NULL "
            "ORDER BY c.key, d.key, s.name")]

    def disputed_pairs(self) -> list[Row]:
        """The adjudication queue: pairs whose assessors disagree and that no one adjudicated.

        Each row: ``case_id``, ``document_id``, ``case``, ``document`` (keys) and ``grades``
        {assessor: grade}; ordered by case key, then document key.
        """
        rows = self._many(
            "SELECT e.case_id, e.document_id, c.key AS \"case\", d.key AS document, "
            "(SELECT json_group_object(s.name, j.grade) FROM judgments j "
            " JOIN assessors s ON s.id = j.assessor_id WHERE j.case_id = e.case_id "
            " AND j.document_id = e.document_id AND j.grade IS NOT NULL) AS grades "
            "FROM (" + queries.EFFECTIVE_PAIRS_SQL + ") e "
            "JOIN cases c ON c.id = e.case_id JOIN documents d ON d.id = e.document_id "
            "WHERE e.disputed ORDER BY c.key, d.key")
        for row in rows:
            row["grades"] = dict(sorted(json.loads(row["grades"] or "{}").items()))
        return rows

    def assessment_rows(self) -> dict[str, list[Row]]:
        """What a merge brings in from this file, by natural keys (never ids).

        ``assessors`` (name, created_at); ``judgments`` (case, document, assessor, grade,
        note, updated_at, seconds); ``adjudications`` (same with a grade always set);
        ``claims`` with a verdict (run, case, position, text, verdict, rationale, assessor,
        updated_at).
        """
        return {
            "assessors": self._many("SELECT name, created_at FROM assessors ORDER BY name"),
            "judgments": self._many(
                "SELECT c.key AS \"case\", d.key AS document, s.name AS assessor, j.grade, "
                "j.note, j.updated_at, j.seconds FROM judgments j "
                "JOIN cases c ON c.id = j.case_id "
                "JOIN documents d ON d.id = j.document_id "
                "JOIN assessors s ON s.id = j.assessor_id ORDER BY c.key, d.key, s.name"),
            "adjudications": self._many(
                "SELECT c.key AS \"case\", d.key AS document, s.name AS assessor, a.grade, "
                "a.note, a.updated_at FROM adjudications a JOIN cases c ON c.id = a.case_id "
                "JOIN documents d ON d.id = a.document_id "
                "JOIN assessors s ON s.id = a.assessor_id ORDER BY c.key, d.key"),
            "claims": self._many(
                "SELECT r.name AS run, c.key AS \"case\", cl.position, cl.text, cl.verdict, "
                "cl.rationale, s.name AS assessor, cl.updated_at FROM claims cl "
                "JOIN answers a ON a.id = cl.answer_id JOIN runs r ON r.id = a.run_id "
                "JOIN cases c ON c.id = a.case_id LEFT JOIN assessors s ON s.id = cl.assessor_id "
                "WHERE cl.verdict IS NOT NULL ORDER BY r.name, c.key, cl.position"),
        }

    def judgment_counts(self) -> dict[str, int]:
        """Effective labels over every pair, and unjudged pairs of the pool.

        The effective label of a (case, document) pair is its adjudication if any, else the
        grade all its assessors agree on; assessors who disagree make a dispute, which has no
        effective label (DESIGN section 4).  ``unjudged`` counts pairs of the universe
        (retrieved by a run, expected source, or with a judgment row) with no effective label;
        ``disputed`` is how many of those are disputes.
        """
        row = self._conn.execute(queries.EFFECTIVE_COUNTS_SQL).fetchone()
        relevant, not_relevant, unjudged, disputed = (int(v or 0) for v in row)
        return {"relevant": relevant, "not_relevant": not_relevant, "unjudged": unjudged,
                "disputed": disputed}


def _with_others(rows: list[Row]) -> list[Row]:
    """Decode the pool rows' ``others`` (JSON from SQLite) into [name, grade] pairs."""
    for row in rows:
        row["others"] = sorted((str(name), grade) for name, grade in json_list(row["others"]))
    return rows
