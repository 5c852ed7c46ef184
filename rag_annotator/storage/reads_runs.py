"""Store reads for the runs: what the Runs section lists, which cases a run covers, and a
run's ranked lists (the metrics, the TREC exports)."""

from __future__ import annotations

from rag_annotator.storage.reads import ReadBase, Row


class RunsReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    def runs_summary(self) -> list[Row]:
        """Every run with its depth, cases covered, answers and judging coverage."""
        return self._many(
            "SELECT r.*, "
            "(SELECT count(DISTINCT case_id) FROM retrieved t WHERE t.run_id = r.id) AS cases, "
            "(SELECT max(rank) FROM retrieved t WHERE t.run_id = r.id) AS depth, "
            "(SELECT count(*) FROM retrieved t WHERE t.run_id = r.id) AS retrieved, "
            "(SELECT count(*) FROM answers a WHERE a.run_id = r.id) AS answers, "
            "(SELECT count(*) FROM retrieved t WHERE t.run_id = r.id AND EXISTS ("
            "   SELECT 1 FROM judgments j WHERE j.case_id = t.case_id "
            "   AND j.document_id = t.document_id AND j.grade IS NOT NULL)) AS judged "
            "FROM runs r ORDER BY r.name"
        )

    def run_case_counts(self) -> dict[str, int]:
        """Run name → cases it covers (retrieved a list, answered, or has a trajectory)."""
        return dict(self._conn.execute(
            "SELECT r.name, (SELECT count(*) FROM (SELECT case_id FROM retrieved t "
            "WHERE t.run_id = r.id UNION SELECT case_id FROM answers a WHERE a.run_id = r.id "
            "UNION SELECT case_id FROM trajectories j WHERE j.run_id = r.id)) "
            "FROM runs r ORDER BY r.name"))

    def run_rankings(self, run_id: int) -> dict[str, list[tuple[str, float | None]]]:
        """A run's retrieved lists: case key → [(document key, score)] in rank order."""
        out: dict[str, list[tuple[str, float | None]]] = {}
        for case, doc, score in self._conn.execute(
                "SELECT c.key, d.key, t.score FROM retrieved t "
                "JOIN cases c ON c.id = t.case_id JOIN documents d ON d.id = t.document_id "
                "WHERE t.run_id = ? ORDER BY c.key, t.rank", (run_id,)):
            out.setdefault(case, []).append((doc, score))
        return out
