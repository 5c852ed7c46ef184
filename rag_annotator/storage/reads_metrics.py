"""Store reads for inputs of the answer metrics, diagnosis, latency, comparison.

Each method hands plain rows to the pure functions of ``rag_annotator.metrics``; a run is
named, and "the cases a run covers" means what ``metric_inputs`` means: the RAG cases that are
not retired and for which the run retrieved something or produced an answer (agent cases
have their own metrics, ``metrics.agents``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple

from rag_annotator.errors import NotFound
from rag_annotator.storage.reads import ReadBase, Row, json_list

#: The cases a run covers (``?1`` = run id): RAG cases, not retired, retrieved for or
#: answered.  Agent cases have their own metrics (``metrics.agents``), never these.
_COVERED = (
    "SELECT c.id, c.key, c.family, c.expected_behaviour, c.role, c.must_contain "
    "FROM cases c WHERE c.status != 'retired' AND c.kind != 'agent' AND (EXISTS ("
    "SELECT 1 FROM retrieved t WHERE t.run_id = ?1 AND t.case_id = c.id) OR EXISTS ("
    "SELECT 1 FROM answers a WHERE a.run_id = ?1 AND a.case_id = c.id))"
)


class RankedGrades(NamedTuple):
    """:meth:`MetricsReads.ranked_grades`: numpy arrays, described there."""

    keys: list[str]
    starts: Any
    lengths: Any
    grades: Any
    histogram: Any


def _int_columns(cursor: sqlite3.Cursor) -> list[Any]:
    """The one row of ``group_concat`` columns of whole numbers, as int64 arrays."""
    import numpy as np

    return [np.fromstring(text, dtype=np.int64, sep=",") if text else
            np.zeros(0, dtype=np.int64) for text in cursor.fetchone()]


def _effective_labels(np: Any, case: Any, document: Any, grade: Any, adj_case: Any,
                      adj_document: Any, adj_grade: Any) -> tuple[Any, Any]:
    """The effective label of every judged or adjudicated pair, as (sorted pair keys
    ``case << 32 | document``, grade or -1): ``metric_inputs``'s rule (the lowest grade
    when the assessors agree, relevant or not; -1 when they disagree or gave none; an
    adjudication overrides them)."""
    keys = (case << 32) + document
    order = np.argsort(keys, kind="stable")
    keys, grade = keys[order], grade[order]
    if len(keys):
        first = np.flatnonzero(np.append(True, keys[1:] != keys[:-1]))
        given = grade >= 0
        count = np.add.reduceat(given.astype(np.int64), first)
        low = np.minimum.reduceat(np.where(given, grade, np.iinfo(np.int64).max), first)
        high = np.maximum.reduceat(grade, first)
        agreed = (count > 0) & ((high == 0) | (low >= 1))
        keys, grade = keys[first], np.where(agreed, low, -1)
    adjudicated = (adj_case << 32) + adj_document
    both = np.concatenate([keys, adjudicated])
    order = np.lexsort((np.repeat([0, 1], [len(keys), len(adjudicated)]), both))
    both, label = both[order], np.concatenate([grade, adj_grade])[order]
    last = np.ones(len(both), dtype=bool)  # the last row of each pair (none: no label)
    last[:-1] = both[1:] != both[:-1]
    return both[last], label[last]


#: The flagged documents (not current, or restricted: ``?3``) above which
#: :func:`_top_documents_sql` reads the run's top k in one pass rather than document by
#: document.
_FEW_FLAGGED = 2_000


def _top_documents_sql(conn: sqlite3.Connection, restricted: list[str]) -> str:
    """The (case, document, rank) rows of run ``?1``'s top ``?2`` that a diagnosis looks at:
    documents not current or restricted (rights in the JSON list ``?3``) and expected
    sources of the case or passages of one, by case and rank.  With few such documents they
    are reached through the indexes (issue 19: the one-pass form read every ranked row's
    document, a third of a second on 10,000 cases x 100 when nothing was flagged)."""
    flagged = ("SELECT id FROM documents WHERE status != 'current' "
               "OR rights IN (SELECT value FROM json_each(?3))")
    few = conn.execute(f"SELECT count(*) FROM ({flagged} LIMIT {_FEW_FLAGGED + 1})",
                       (None, None, json.dumps(restricted))).fetchone()[0] <= _FEW_FLAGGED
    if few:
        return (f"SELECT t.case_id, t.document_id, t.rank FROM ({flagged}) f "
                "CROSS JOIN retrieved t ON t.document_id = f.id "
                "WHERE t.run_id = ?1 AND t.rank <= ?2 "
                "UNION SELECT t.case_id, t.document_id, t.rank FROM expected_sources e "
                "CROSS JOIN retrieved t ON t.run_id = ?1 AND t.case_id = e.case_id "
                "AND t.document_id = e.document_id WHERE t.rank <= ?2 "
                "UNION SELECT t.case_id, t.document_id, t.rank FROM expected_sources e "
                "JOIN documents p ON p.parent_id = e.document_id "
                "CROSS JOIN retrieved t ON t.run_id = ?1 AND t.case_id = e.case_id "
                "AND t.document_id = p.id WHERE t.rank <= ?2 ORDER BY 1, 3")
    return ("SELECT t.case_id, t.document_id, t.rank FROM retrieved t "
            "JOIN documents d ON d.id = t.document_id "
            "WHERE t.run_id = ?1 AND t.rank <= ?2 AND (d.status != 'current' "
            "OR d.rights IN (SELECT value FROM json_each(?3)) OR EXISTS ("
            "SELECT 1 FROM expected_sources e WHERE e.case_id = t.case_id "
            "AND e.document_id IN (t.document_id, d.parent_id))) "
            "ORDER BY t.case_id, t.rank")


def _padded(args: tuple[str, ...]) -> tuple[Any, ...]:
    """Parameters for a query whose run is ``?1`` and whose case list, if any, is ``?9``."""
    return (None,) * 7 + args if args else ()


class MetricsReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    path: Path

    def run_id_of(self, run_name: str) -> int:
        """The id of the run called ``run_name`` (raises NotFound naming the file)."""
        row = self._conn.execute("SELECT id FROM runs WHERE name = ?", (run_name,)).fetchone()
        if row is None:
            names = [n for (n,) in self._conn.execute("SELECT name FROM runs ORDER BY name")]
            known = ", ".join(names) if names else "none: import one first"
            raise NotFound("no run named '{run_name}' in {name} (runs: {known}).",
                           run_name=run_name, name=self.path.name, known=known)
        return int(row[0])

    def run_names(self) -> list[str]:
        """Every run name, sorted."""
        return [n for (n,) in self._conn.execute("SELECT name FROM runs ORDER BY name")]

    def metric_inputs(self, run_name: str, case_ids: Collection[int] | None = None
                      ) -> dict[str, tuple[list[str], dict[str, int | None]]]:
        """Per case the run covers (retired cases excepted): its ranking and its universe
        with the effective labels (None: unjudged).  A case the run answered without
        retrieving anything has an empty ranking.  ``case_ids``: only these cases (what a
        judgment changed: the Dashboard reads them again, not the run).

        Ids stay integers until the end and only the *judged* pairs are grouped in SQL (along
        the judgments' unique index, no sort); the unjudged rest of each universe (retrieved by
        some run, expected) is added in Python.  About 4x faster than grouping every pair of
        the universe on 10,000 cases x 100 documents.  The effective-label rule is the one of
        ``queries.EFFECTIVE_PAIRS_SQL`` (tests/metrics/test_compare.py holds them to the same
        answers).
        """
        run_id = self.run_id_of(run_name)
        conn = self._conn
        args: tuple[str, ...] = ()
        only = ""
        if case_ids is not None:  # the same queries, each limited to the cases asked for
            only = " AND case_id IN (SELECT value FROM json_each(?9))"
            args = (json.dumps(sorted(int(c) for c in case_ids)),)
        case_keys = {cid: key for cid, key in conn.execute(
            "SELECT id, key FROM (" + _COVERED + ") WHERE 1" + only.replace("case_id", "id"),
            (run_id, *_padded(args)))}
        rankings: dict[int, list[int]] = {cid: [] for cid in case_keys}
        second = itemgetter(1)
        for cid, group in groupby(conn.execute(
                "SELECT case_id, document_id FROM retrieved WHERE run_id = ?1" + only
                + " ORDER BY case_id, rank", (run_id, *_padded(args))), itemgetter(0)):
            if cid in rankings:  # a retired case is not covered
                rankings[cid] = list(map(second, group))
        universe: dict[int, dict[int, int | None]] = {
            cid: dict.fromkeys(ranking) for cid, ranking in rankings.items()}
        for cid, did in conn.execute(
                "SELECT case_id, document_id FROM retrieved WHERE run_id != ?1" + only
                + " UNION ALL SELECT case_id, document_id FROM expected_sources WHERE 1"
                + only, (run_id, *_padded(args))):
            labels = universe.get(cid)
            if labels is not None and did not in labels:
                labels[did] = None
        for cid, did, lo, hi, n in conn.execute(
                "SELECT case_id, document_id, min(grade), max(grade), count(grade) "
                "FROM judgments WHERE 1" + only.replace("?9", "?1")
                + " GROUP BY case_id, document_id", args):
            labels = universe.get(cid)
            if labels is None:
                continue
            # assessors agree when they give the same label; the lowest grade is kept
            labels[did] = lo if n and (hi == 0 or lo >= 1) else None
        for cid, did, grade in conn.execute(
                "SELECT case_id, document_id, grade FROM adjudications WHERE 1"
                + only.replace("?9", "?1"), args):
            labels = universe.get(cid)
            if labels is not None:
                labels[did] = grade
        wanted: set[int] = set()
        for labels in universe.values():
            wanted.update(labels)
        doc_keys: dict[int, str] = {}
        if len(wanted) > 50_000:
            doc_keys = {i: k for i, k in conn.execute("SELECT id, key FROM documents")}
        else:
            doc_keys = {i: k for i, k in conn.execute(
                "SELECT id, key FROM documents WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps(sorted(wanted)),))}
        out: dict[str, tuple[list[str], dict[str, int | None]]] = {}
        key_of = doc_keys.__getitem__
        for cid, key in sorted(case_keys.items(), key=itemgetter(1)):
            labels = universe[cid]
            out[key] = (list(map(key_of, rankings[cid])),
                        dict(zip(map(key_of, labels), labels.values())))
        return out

    def ranked_grades(self, run_name: str) -> RankedGrades:
        """What the ``trec`` measures read of a run, as arrays (the cases ``metric_inputs``
        covers, in the same key order; issue 19: no per-document Python object).

        ``starts``/``lengths``: where each case's ranking lies in ``grades``, the effective
        grade of every ranked document in rank order (-1: no label, unjudged or outside the
        universe); ``histogram[i, g]``: the pairs of case ``i`` (ranked or not) whose
        effective grade is ``g``.  The effective-label rule is ``metric_inputs``'s (the
        tests hold the two to the same measures).  One pass over the run's rows, one over
        the judgments and one over the adjudications, joined in numpy on (case id, document
        id).
        """
        import numpy as np  # here: the CLI's other commands never load it

        run_id = self.run_id_of(run_name)
        conn = self._conn
        cases = sorted(conn.execute("SELECT id, key FROM (" + _COVERED + ")", (run_id,)),
                       key=itemgetter(1))
        ids = np.fromiter(map(itemgetter(0), cases), dtype=np.int64, count=len(cases))
        # Each read is one row of comma-joined columns (parsed by numpy): a Python tuple per
        # row cost more than the SQL itself.  Sorted here, whatever order SQLite reads in.
        case, rank, document = _int_columns(conn.execute(
            "SELECT group_concat(case_id), group_concat(rank), group_concat(document_id) "
            "FROM retrieved WHERE run_id = ?", (run_id,)))
        order = np.lexsort((rank, case))
        ranked = np.stack([case[order], document[order]], axis=1)
        pair_keys, label = _effective_labels(np, *_int_columns(conn.execute(
            "SELECT group_concat(case_id), group_concat(document_id), "
            "group_concat(coalesce(grade, -1)) FROM judgments")), *_int_columns(conn.execute(
                "SELECT group_concat(case_id), group_concat(document_id), group_concat(grade) "
                "FROM adjudications")))
        ranked_keys = (ranked[:, 0] << 32) + ranked[:, 1]
        at = np.minimum(np.searchsorted(pair_keys, ranked_keys), max(len(pair_keys) - 1, 0))
        grades = (np.where(pair_keys[at] == ranked_keys, label[at], -1) if len(pair_keys)
                  else np.full(len(ranked_keys), -1, dtype=np.int64))
        starts = np.searchsorted(ranked[:, 0], ids)
        lengths = np.searchsorted(ranked[:, 0], ids, side="right") - starts
        histogram = np.zeros((len(ids), max(int(label.max(initial=0)), 0) + 1), dtype=np.int64)
        # The case (position in ``ids``) of every labelled pair; -1: a case not covered.
        case_of = np.full(len(pair_keys), -1, dtype=np.int64)
        if len(ids):
            sorter = np.argsort(ids)
            at = sorter[np.minimum(np.searchsorted(ids, pair_keys >> 32, sorter=sorter),
                                   len(ids) - 1)]
            case_of = np.where(ids[at] == pair_keys >> 32, at, -1)
        counted = (case_of >= 0) & (label >= 0)
        np.add.at(histogram, (case_of[counted], label[counted]), 1)
        return RankedGrades([key for _id, key in cases], starts, lengths, grades, histogram)

    def answer_inputs(self, run_name: str) -> list[Row]:
        """Per case the run covers, in key order: the case's family, expected behaviour, role
        and must-contain points (JSON text), the run's answer (``answer_id`` None if there is
        none; ``latency_ms``, ``cost``, ``tokens``), its review (``outcome``, ``validated``,
        ``failure_categories``, ``must_contain_found``, ``forbidden_present``; None when not
        reviewed) and its claims counted by verdict (``claims``, ``verified``, ``supported``,
        ``not_supported``, ``contradicted``)."""
        run_id = self.run_id_of(run_name)
        rows = self._many(
            "WITH covered AS (" + _COVERED + "), "
            "counts AS (SELECT cl.answer_id, count(*) AS claims, count(cl.verdict) AS verified, "
            "  sum(cl.verdict = 'supported') AS supported, "
            "  sum(cl.verdict = 'not_supported') AS not_supported, "
            "  sum(cl.verdict = 'contradicted') AS contradicted "
            "  FROM claims cl JOIN answers a ON a.id = cl.answer_id AND a.run_id = ?1 "
            "  GROUP BY cl.answer_id) "
            "SELECT v.key AS case_key, v.family, v.expected_behaviour, v.role, v.must_contain, "
            "a.id AS answer_id, a.latency_ms, a.cost, a.tokens, "
            "r.outcome, r.validated, r.failure_categories, r.must_contain_found, "
            "r.forbidden_present, "
            "coalesce(k.claims, 0) AS claims, coalesce(k.verified, 0) AS verified, "
            "coalesce(k.supported, 0) AS supported, "
            "coalesce(k.not_supported, 0) AS not_supported, "
            "coalesce(k.contradicted, 0) AS contradicted "
            "FROM covered v "
            "LEFT JOIN answers a ON a.run_id = ?1 AND a.case_id = v.id "
            "LEFT JOIN answer_reviews r ON r.run_id = ?1 AND r.case_id = v.id "
            "LEFT JOIN counts k ON k.answer_id = a.id "
            "ORDER BY v.key", (run_id,))
        for row in rows:
            row["must_contain"] = json_list(row["must_contain"])
            row["failure_categories"] = json_list(row["failure_categories"])
            row["must_contain_found"] = json_list(row["must_contain_found"])
        return rows

    def diagnosis_documents(self, run_name: str, depth: int,
                            open_rights: Collection[str] = ()) -> dict[str, dict[str, Any]]:
        """Per case the run covers: the documents that matter to a diagnosis at depth k.

        ``top``: the documents of the run's top ``depth`` that can show a failure, as
        ``(document key, rank, status, rights list, newer_is_expected)``: those that are not
        current, whose rights are restricted (a non-empty list without any entry of
        ``open_rights``, compared in lower case), or that are expected sources of the case;
        ``newer_is_expected`` says a document superseding this one is an expected source of
        the case.  The other documents of the top k cannot fail a check, and leaving them
        in SQL keeps this cheap on 10,000 cases.  ``expected``: ``(document key, status)`` of
        the expected sources; ``cited``: ``(document key, status, rights list)`` of the
        documents the run's answer cites.
        """
        run_id = self.run_id_of(run_name)
        conn = self._conn
        opened = {r.lower() for r in open_rights}
        restricted = [text for (text,) in conn.execute("SELECT DISTINCT rights FROM documents")
                      if (entries := {str(x).strip().lower() for x in json_list(text)
                                      if str(x).strip()}) and not entries & opened]
        case_keys = {cid: key for cid, key in conn.execute(
            "SELECT id, key FROM (" + _COVERED + ") ORDER BY key", (run_id,))}
        top = [(cid, did, rank) for cid, did, rank in conn.execute(
            _top_documents_sql(conn, restricted), (run_id, depth, json.dumps(restricted)))
            if cid in case_keys]
        expected = [(cid, did) for cid, did in conn.execute(
            "SELECT case_id, document_id FROM expected_sources ORDER BY case_id, document_id")
            if cid in case_keys]
        cited = [(cid, did) for cid, did in conn.execute(
            "SELECT a.case_id, ci.document_id FROM citations ci "
            "JOIN answers a ON a.id = ci.answer_id WHERE a.run_id = ? ORDER BY a.case_id, ci.id",
            (run_id,)) if cid in case_keys]
        # (case, document) pairs where a newer version of the document is expected
        superseded = set(conn.execute(
            "SELECT e.case_id, n.supersedes_id FROM expected_sources e "
            "JOIN documents n ON n.id = e.document_id WHERE n.supersedes_id IS NOT NULL"))
        wanted = {d for _c, d, _r in top} | {d for _c, d in expected} | {d for _c, d in cited}
        # a passage in the top k stands for its document: expected sources are documents
        parents = dict(conn.execute(
            "SELECT d.id, p.key FROM documents d JOIN documents p ON p.id = d.parent_id "
            "WHERE d.span_start IS NOT NULL AND d.id IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted({d for _c, d, _r in top})),)))
        parent_ids = dict(conn.execute(
            "SELECT id, parent_id FROM documents WHERE span_start IS NOT NULL "
            "AND id IN (SELECT value FROM json_each(?))", (json.dumps(sorted(parents)),)))
        if len(wanted) > 20_000:  # a scan beats 20,000 lookups
            rows = conn.execute("SELECT id, key, status, rights FROM documents")
        else:
            rows = conn.execute("SELECT id, key, status, rights FROM documents "
                                "WHERE id IN (SELECT value FROM json_each(?))",
                                (json.dumps(sorted(wanted)),))
        parsed: dict[str, list[Any]] = {}  # most documents share a few rights lists
        docs = {}
        for i, k, st, r in rows:
            if i in wanted:
                rights = parsed.get(r)
                if rights is None:
                    rights = parsed[r] = json_list(r)
                docs[i] = (k, st, rights)
        by_id: dict[int, dict[str, Any]] = {
            cid: {"top": [], "expected": [], "cited": []} for cid in case_keys}
        for cid, did, rank in top:
            key, status, rights = docs[did]
            newer = (cid, parent_ids.get(did, did)) in superseded
            by_id[cid]["top"].append((parents.get(did, key), rank, status, rights, newer))
        for cid, did in expected:
            key, status, _rights = docs[did]
            by_id[cid]["expected"].append((key, status))
        for cid, did in cited:
            key, status, rights = docs[did]
            by_id[cid]["cited"].append((key, status, rights))
        return {case_keys[cid]: value for cid, value in by_id.items()}

    def case_families(self) -> dict[str, str]:
        """Case key → family, for every RAG case that is not retired."""
        return {k: f for k, f in self._conn.execute(
            "SELECT key, family FROM cases WHERE status != 'retired' AND kind != 'agent' "
            "ORDER BY key")}

    def case_id_of(self, case_key: str) -> int | None:
        """The id of a case by key, or None."""
        row = self._conn.execute("SELECT id FROM cases WHERE key = ?", (case_key,)).fetchone()
        return None if row is None else int(row[0])
