"""The longer read queries of :class:`~rag_annotator.storage.store.GoldSetStore`.

They define the effective label (DESIGN section 4) and are shared by several store methods;
kept here so ``store.py`` stays readable.  Only the store imports this module.
"""

EFFECTIVE_PAIRS_SQL = """
    SELECT case_id, document_id,
           -- assessors agree when they give the same label (relevant or not); on a graded
           -- scale the lowest of their grades is kept, the conservative gain
           CASE WHEN max(adjudicated) IS NOT NULL THEN max(adjudicated)
                WHEN count(judged) > 0 AND (max(judged) = 0 OR min(judged) >= 1)
                THEN min(judged)
           END AS grade,
           (max(adjudicated) IS NULL AND count(judged) > 0
            AND min(judged) = 0 AND max(judged) >= 1) AS disputed
    FROM (
        SELECT case_id, document_id, NULL AS adjudicated, grade AS judged FROM judgments
        UNION ALL SELECT case_id, document_id, NULL, NULL FROM retrieved
        UNION ALL SELECT case_id, document_id, NULL, NULL FROM expected_sources
        UNION ALL SELECT case_id, document_id, grade, NULL FROM adjudications
    )
    GROUP BY case_id, document_id
"""

# One pass over every row naming a pair (a sort-based GROUP BY; ~2x faster than a UNION of
# the universe joined to per-pair aggregates at 1,000,000 judgments).
EFFECTIVE_COUNTS_SQL = (
    "SELECT sum(grade >= 1), sum(grade = 0), sum(grade IS NULL), sum(disputed) FROM ("
    + EFFECTIVE_PAIRS_SQL + ")"
)

#: Per-case effective labels over the judging pool (see ``judging_progress``); the case filter
#: is pushed into each branch so the indexes on ``case_id`` are used and a chunk of cases costs
#: only its rows.  The pool: the top ?4 documents (NULL: all) of the runs named in the JSON
#: list ?3 (NULL: every run), plus expected sources and every judged or adjudicated pair.
# The agreement rule (same label, lowest grade kept; a dispute is relevant vs not relevant)
# is the one of EFFECTIVE_PAIRS_SQL; PROGRESS_SQL and POOL_SQL restate it per case so the
# case filter reaches the indexes.  tests/test_effective_label_rule.py holds them together.
PROGRESS_SQL = """
WITH sel(case_id) AS (SELECT value FROM json_each(?1)),
me(id) AS (SELECT id FROM assessors WHERE name = ?2),
universe AS (
    SELECT r.case_id, r.document_id FROM retrieved r
    WHERE r.case_id IN sel AND (?4 IS NULL OR r.rank <= ?4)
      AND (?3 IS NULL OR r.run_id IN (SELECT id FROM runs
                                      WHERE name IN (SELECT value FROM json_each(?3))))
    UNION SELECT case_id, document_id FROM expected_sources WHERE case_id IN sel
    UNION SELECT case_id, document_id FROM judgments WHERE case_id IN sel
    UNION SELECT case_id, document_id FROM adjudications WHERE case_id IN sel
),
agreed AS (
    SELECT case_id, document_id, min(grade) AS lo, max(grade) AS hi, count(grade) AS n,
           max(assessor_id IN me AND grade IS NOT NULL) AS mine
    FROM judgments WHERE case_id IN sel GROUP BY case_id, document_id
),
effective AS (
    SELECT u.case_id,
           CASE WHEN a.grade IS NOT NULL THEN a.grade
                WHEN g.n > 0 AND (g.hi = 0 OR g.lo >= 1) THEN g.lo END AS grade,
           (a.grade IS NULL AND g.n > 0 AND g.lo = 0 AND g.hi >= 1) AS disputed,
           coalesce(g.mine, 0) AS mine
    FROM universe u
    LEFT JOIN adjudications a ON a.case_id = u.case_id AND a.document_id = u.document_id
    LEFT JOIN agreed g ON g.case_id = u.case_id AND g.document_id = u.document_id
)
SELECT case_id, count(*) AS pairs, sum(mine) AS mine, sum(grade >= 1) AS relevant,
       sum(grade = 0) AS not_relevant, sum(grade IS NULL) AS unjudged,
       sum(disputed) AS disputed
FROM effective GROUP BY case_id
"""

POOL_SQL = """
WITH universe(document_id) AS (
    SELECT r.document_id FROM retrieved r
    WHERE r.case_id = ?1 AND (?5 IS NULL OR r.rank <= ?5)
      AND (?4 IS NULL OR r.run_id IN (SELECT id FROM runs
                                      WHERE name IN (SELECT value FROM json_each(?4))))
    UNION SELECT document_id FROM expected_sources WHERE case_id = ?1
    UNION SELECT document_id FROM judgments WHERE case_id = ?1
    UNION SELECT document_id FROM adjudications WHERE case_id = ?1
),
labels AS (
    SELECT d.id AS document_id, d.key, d.title, d.status,
           EXISTS (SELECT 1 FROM expected_sources e
                   WHERE e.case_id = ?1 AND e.document_id = d.id) AS expected,
           (SELECT j.grade FROM judgments j JOIN assessors s ON s.id = j.assessor_id
            WHERE j.case_id = ?1 AND j.document_id = d.id AND s.name = ?2)
               AS my_grade,
           (SELECT j.note FROM judgments j JOIN assessors s ON s.id = j.assessor_id
            WHERE j.case_id = ?1 AND j.document_id = d.id AND s.name = ?2)
               AS my_note,
           (SELECT json_group_array(json_array(s.name, j.grade))
            FROM judgments j JOIN assessors s ON s.id = j.assessor_id
            WHERE j.case_id = ?1 AND j.document_id = d.id AND s.name <> ?2
              AND j.grade IS NOT NULL) AS others,
           (SELECT a.grade FROM adjudications a
            WHERE a.case_id = ?1 AND a.document_id = d.id) AS adjudicated,
           (SELECT min(grade) FROM judgments j
            WHERE j.case_id = ?1 AND j.document_id = d.id) AS lo,
           (SELECT max(grade) FROM judgments j
            WHERE j.case_id = ?1 AND j.document_id = d.id) AS hi
    FROM universe u JOIN documents d ON d.id = u.document_id
)
SELECT document_id, key, title, status, expected, my_grade, coalesce(my_note, '') AS my_note,
       others, adjudicated,
       CASE WHEN adjudicated IS NOT NULL THEN adjudicated
            WHEN hi = 0 OR lo >= 1 THEN lo END
           AS effective_grade,
       (adjudicated IS NULL AND lo = 0 AND hi >= 1) AS disputed
FROM labels
WHERE ?3 IS NULL OR document_id IN (SELECT value FROM json_each(?3))
ORDER BY key
"""
