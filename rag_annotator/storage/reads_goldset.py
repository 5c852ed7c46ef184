"""Store reads for cases, corpus registry, releases, coverage, review queue and imports; the
lazy lists of the Gold set and Corpus sections and the case editor's detail."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from rag_annotator.domain.enums import Family, values
from rag_annotator.domain.layout import Layout
from rag_annotator.storage import queries
from rag_annotator.storage.reads import ReadBase, Row, json_list

_LIST_COLUMNS = ("variants", "must_contain", "forbidden", "tags")


def _decode(row: Row, columns: Iterable[str] = _LIST_COLUMNS) -> Row:
    for column in columns:
        try:
            value = json.loads(row[column] or "[]")
        except ValueError:
            value = []
        row[column] = value if isinstance(value, list) else []
    return row


class GoldsetReads(ReadBase):
    """Read queries of this area, mixed into :class:`~rag_annotator.storage.store.GoldSetStore`."""

    # -- cases -------------------------------------------------------------------------------
    def case_keys(self) -> list[str]:
        """Every case key, sorted."""
        return [r[0] for r in self._conn.execute("SELECT key FROM cases ORDER BY key")]

    def case_tags(self) -> list[str]:
        """Every tag used by a case, sorted."""
        return [r[0] for r in self._conn.execute(
            "SELECT DISTINCT j.value FROM cases, json_each(cases.tags) j "
            "WHERE json_valid(cases.tags) ORDER BY j.value")]

    def case_questions(self) -> list[tuple[int, str, str]]:
        """(id, key, question) of every case, for near-duplicate detection."""
        return [(int(i), str(k), str(q)) for i, k, q in self._conn.execute(
            "SELECT id, key, question FROM cases ORDER BY key")]

    def coverage_counts(self, *, include_retired: bool = False) -> dict[tuple[str, str], int]:
        """Cases per (family, tag); a case without tags counts under tag ''."""
        where = "" if include_retired else "WHERE c.status != 'retired'"
        out: dict[tuple[str, str], int] = {}
        for family, tag, n in self._conn.execute(
                "SELECT c.family, coalesce(j.value, ''), count(*) FROM cases c "
                "LEFT JOIN json_each(CASE WHEN json_valid(c.tags) THEN c.tags ELSE '[]' END) j "
                f"{where} GROUP BY 1, 2"):
            out[(str(family), str(tag))] = int(n)
        return out

    def family_totals(self, *, include_retired: bool = False) -> dict[str, int]:
        """Cases per family."""
        where = "" if include_retired else "WHERE status != 'retired'"
        return {str(f): int(n) for f, n in self._conn.execute(
            f"SELECT family, count(*) FROM cases {where} GROUP BY family")}

    def case_ids_in_cell(self, family: str, tag: str, *,
                         include_retired: bool = False) -> list[int]:
        """Ids of the cases of one coverage cell (tag '' = cases without tags)."""
        clauses = ["c.family = ?"]
        if not include_retired:
            clauses.append("c.status != 'retired'")
        if tag:
            clauses.append("EXISTS (SELECT 1 FROM json_each(c.tags) WHERE value = ?)")
            params: tuple[Any, ...] = (family, tag)
        else:
            clauses.append("json_array_length(c.tags) = 0")
            params = (family,)
        return [r[0] for r in self._conn.execute(
            f"SELECT c.id FROM cases c WHERE {' AND '.join(clauses)} ORDER BY c.key", params)]

    def family_rule_inputs(self, case_ids: Sequence[int] | None = None) -> list[Row]:
        """Cases (list fields decoded) each with ``sources``: its expected sources with the
        document's key, status, origin, rights and whether a newer document supersedes it."""
        if case_ids is None:
            cases = self._many("SELECT * FROM cases ORDER BY key")
        else:
            cases = self._many("SELECT * FROM cases WHERE id IN (SELECT value FROM "
                               "json_each(?)) ORDER BY key", (json.dumps(list(case_ids)),))
        by_id = {c["id"]: _decode(c) | {"sources": []} for c in cases}
        if not by_id:
            return []
        for source in self._many(
                "SELECT e.id, e.case_id, e.document_id, e.span_start, e.span_end, e.note, "
                "d.key, d.status, d.origin, d.rights, d.supersedes_id, "
                "(SELECT n.key FROM documents n WHERE n.supersedes_id = d.id "
                " ORDER BY n.id LIMIT 1) AS superseded_by "
                "FROM expected_sources e JOIN documents d ON d.id = e.document_id "
                "WHERE e.case_id IN (SELECT value FROM json_each(?)) ORDER BY d.key, e.id",
                (json.dumps(list(by_id)),)):
            by_id[source["case_id"]]["sources"].append(_decode(source, ("rights",)))
        return list(by_id.values())

    # -- documents ---------------------------------------------------------------------------
    def document_keys(self) -> dict[str, int]:
        """Document key → id."""
        return {str(k): int(i) for k, i in self._conn.execute("SELECT key, id FROM documents")}

    def document_row(self, document_id: int) -> Row | None:
        """One document's metadata (no text), with the key of the one it supersedes."""
        row = self._one(
            "SELECT d.id, d.key, d.title, d.owner, d.rights, d.valid_from, d.valid_until, "
            "d.status, d.version, d.supersedes_id, d.origin, d.content_hash, "
            "length(d.text) AS length, s.key AS supersedes FROM documents d "
            "LEFT JOIN documents s ON s.id = d.supersedes_id WHERE d.id = ?", (document_id,))
        return None if row is None else _decode(row, ("rights",))

    def document_hashes(self) -> dict[str, tuple[int, str]]:
        """Document key → (id, content hash), for corpus re-imports."""
        return {str(k): (int(i), str(h)) for k, i, h in self._conn.execute(
            "SELECT key, id, content_hash FROM documents")}

    def cases_citing(self, document_id: int) -> list[Row]:
        """The cases naming a document as expected source (id, key, family, status)."""
        return self._many(
            "SELECT DISTINCT c.id, c.key, c.family, c.status FROM expected_sources e "
            "JOIN cases c ON c.id = e.case_id WHERE e.document_id = ? ORDER BY c.key",
            (document_id,))

    def usage_of_documents(self, document_ids: Sequence[int]) -> dict[int, Row]:
        """Per document: the keys of the cases citing it and its number of judgments."""
        ids = json.dumps([int(i) for i in document_ids])
        out: dict[int, Row] = {int(i): {"cases": [], "judgments": 0} for i in document_ids}
        for doc, key in self._conn.execute(
                "SELECT DISTINCT e.document_id, c.key FROM expected_sources e "
                "JOIN cases c ON c.id = e.case_id WHERE e.document_id IN "
                "(SELECT value FROM json_each(?)) ORDER BY c.key", (ids,)):
            out[int(doc)]["cases"].append(str(key))
        for doc, n in self._conn.execute(
                "SELECT document_id, count(*) FROM judgments WHERE document_id IN "
                "(SELECT value FROM json_each(?)) GROUP BY document_id", (ids,)):
            out[int(doc)]["judgments"] = int(n)
        return out

    def source_warnings(self) -> list[Row]:
        """Expected sources pointing at an outdated, withdrawn or placeholder document.

        Rows: case_id, case (key), family, document (key), status, origin.  Outdated
        documents cited by a case of the *outdated document* family are expected, not listed.
        """
        return self._many(
            "SELECT c.id AS case_id, c.key AS \"case\", c.family, d.key AS document, "
            "d.status, d.origin FROM expected_sources e JOIN cases c ON c.id = e.case_id "
            "JOIN documents d ON d.id = e.document_id "
            "WHERE c.status != 'retired' AND (d.status = 'withdrawn' OR d.origin != 'corpus' "
            "OR (d.status = 'outdated' AND c.family != 'outdated_document')) "
            "ORDER BY c.key, d.key")

    # -- review queue -----------------------------------------------------------------------
    def review_queue(self, *, pending_only: bool = False) -> list[Row]:
        """Generated cases with their review: case id, key, question, decision, origin,
        near-duplicate key, decided by/at; by key."""
        where = "WHERE r.decision = 'pending'" if pending_only else ""
        return self._many(
            "SELECT c.id, c.key, c.question, c.reference_answer, c.status, r.decision, "
            "r.origin, n.key AS near_duplicate, r.decided_by, r.decided_at "
            "FROM case_reviews r JOIN cases c ON c.id = r.case_id "
            f"LEFT JOIN cases n ON n.id = r.near_duplicate_of {where} "
            "ORDER BY c.key")

    # -- releases ----------------------------------------------------------------------------
    def release_content(self) -> dict[str, Any]:
        """The snapshot a release would freeze now (see ``domain.releases``)."""
        from rag_annotator.domain.releases import build_snapshot

        cases = [_decode(c) for c in self._many("SELECT * FROM cases ORDER BY key")]
        sources = self._many(
            "SELECT c.key AS \"case\", d.key AS document, e.span_start, e.span_end, e.note "
            "FROM expected_sources e JOIN cases c ON c.id = e.case_id "
            "JOIN documents d ON d.id = e.document_id")
        labels = [(str(c), str(d), g, bool(x)) for c, d, g, x in self._conn.execute(
            "SELECT c.key, d.key, e.grade, e.disputed FROM (" + queries.EFFECTIVE_PAIRS_SQL
            + ") e JOIN cases c ON c.id = e.case_id JOIN documents d ON d.id = e.document_id")]
        return build_snapshot(cases, sources, labels)

    def release_rows(self) -> list[Row]:
        """Every release, oldest first: name, date, author, changelog, hash, case count."""
        return self._many(
            "SELECT id, name, created_at, created_by, changelog, "
            "json_extract(snapshot, '$.content_hash') AS content_hash, "
            "(SELECT count(*) FROM json_each(snapshot, '$.cases')) AS cases "
            "FROM releases ORDER BY id")

    def latest_release(self) -> Row | None:
        """The last release frozen (with its snapshot text), or None."""
        return self._one("SELECT * FROM releases ORDER BY id DESC LIMIT 1")

    def release_snapshot(self, name: str) -> dict[str, Any]:
        """The snapshot of a release, decoded (KeyError if there is no such release)."""
        row = self._one("SELECT snapshot FROM releases WHERE name = ?", (name,))
        if row is None:
            raise KeyError(name)
        value: dict[str, Any] = json.loads(row["snapshot"])
        return value

    def release_state(self) -> tuple[str, str]:
        """("frozen", release name) while the last release is frozen, else ("draft", "")."""
        rows = dict(self._conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('release_state', 'frozen_release')"
        ).fetchall())
        if rows.get("release_state") == "frozen":
            return "frozen", str(rows.get("frozen_release") or "")
        return "draft", ""

    def frozen_case_keys(self) -> frozenset[str]:
        """Keys of the cases read-only under the frozen release (empty in a draft)."""
        if self.release_state()[0] != "frozen":
            return frozenset()
        row = self._conn.execute(
            "SELECT value FROM meta WHERE key = 'frozen_approved'").fetchone()
        try:
            keys = json.loads(row[0]) if row and row[0] else []
        except ValueError:
            keys = []
        return frozenset(str(k) for k in keys) if isinstance(keys, list) else frozenset()

    def document_keys_not_from_corpus(self) -> set[str]:
        """Keys of placeholder and unmatched-context documents (a corpus import fills them)
        and of passages (found in a corpus document by a run import, not read from a file:
        a corpus re-import does not count them as disappeared)."""
        return {str(k) for (k,) in self._conn.execute(
            "SELECT key FROM documents WHERE origin != 'corpus' "
            "OR (parent_id IS NOT NULL AND span_start IS NOT NULL)")}

    def document_titles(self) -> list[tuple[str, str]]:
        """(key, title) of the documents that have a title (sources named by title)."""
        return [(str(k), str(t)) for k, t in self._conn.execute(
            "SELECT key, title FROM documents WHERE title != '' ORDER BY id")]

    def corpus_texts(self) -> list[tuple[str, str]]:
        """(key, text) of the corpus documents, passages excepted (contexts are located in
        them by their text)."""
        return [(str(k), str(t)) for k, t in self._conn.execute(
            "SELECT key, text FROM documents WHERE origin = 'corpus' "
            "AND (parent_id IS NULL OR span_start IS NULL) ORDER BY id")]

    def release_names(self) -> list[str]:
        """Release names, newest first."""
        return [str(n) for (n,) in self._conn.execute(
            "SELECT name FROM releases ORDER BY id DESC")]

    def case_ids(self, *, search: str = "", family: str = "", status: str = "",
                 tag: str = "") -> list[int]:
        """Ids of the cases matching the filters, in key order."""
        clauses, params = [], []
        if search:
            clauses.append("(key LIKE ? OR question LIKE ? OR reference_answer LIKE ?)")
            params += [f"%{search}%"] * 3
        if family:
            clauses.append("family = ?")
            params.append(family)
        if status:
            clauses.append("status = ?")
            params.append(status)
        if tag:
            clauses.append("EXISTS (SELECT 1 FROM json_each(cases.tags) WHERE value = ?)")
            params.append(tag)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        # One row holding them all: stepping 10,000 rows through the sqlite3 module took
        # 3x as long (most of what a large file's case list costs before its first paint).
        # SQLite keeps a subquery's ORDER BY when the outer query aggregates with anything
        # but count/min/max (select.c), so the array is in key order.
        (text,) = self._conn.execute(
            f"SELECT json_group_array(id) FROM (SELECT id FROM cases {where} ORDER BY key)",
            params).fetchone()
        ids: list[int] = json.loads(text)  # not orjson: loading it costs more than it saves
        return ids

    def first_question_id(self) -> int | None:
        """The case a file is first shown on: its first ordinary question in key order (a
        RAG case, not retired), else its first RAG case, else its first case; None when it
        has none.  Agent cases sort first by key in the sample ("A01"), and are not where
        an expert starts."""
        row = self._conn.execute(
            "SELECT id FROM cases ORDER BY kind = 'agent', status = 'retired', "
            "family != 'ordinary', key LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def cases_rows(self, ids: Sequence[int]) -> dict[int, Row]:
        """Cases by id, with their judging progress, for one page of a table."""
        return {
            r["id"]: r
            for r in self._many(
                "SELECT c.id, c.key, c.question, c.family, c.status, c.expected_behaviour, "
                "c.tags, c.difficulty, c.author, c.updated_at, "
                "(SELECT count(*) FROM expected_sources e WHERE e.case_id = c.id) AS sources "
                "FROM cases c WHERE c.id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(ids)),),
            )
        }

    def document_ids(self, *, search: str = "", status: str = "") -> list[int]:
        """Ids of documents matching the filters, in key order."""
        clauses, params = [], []
        if search:
            clauses.append("(key LIKE ? OR title LIKE ?)")
            params += [f"%{search}%"] * 2
        if status:
            clauses.append("status = ?")
            params.append(status)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        return [r[0] for r in self._conn.execute(
            f"SELECT id FROM documents {where} ORDER BY key", params)]

    def documents_rows(self, ids: Sequence[int]) -> dict[int, Row]:
        """Documents by id (without their text) for one page of a table."""
        return {
            r["id"]: r
            for r in self._many(
                "SELECT d.id, d.key, d.title, d.owner, d.rights, d.status, d.version, "
                "d.valid_from, d.valid_until, d.origin, length(d.text) AS length, "
                "s.key AS supersedes FROM documents d "
                "LEFT JOIN documents s ON s.id = d.supersedes_id "
                "WHERE d.id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(ids)),),
            )
        }

    def case_detail(self, case_id: int) -> Row:
        """A whole case, list fields decoded, with its expected sources (key, title, passage,
        the page the passage starts on).

        Raises NotFound when the case no longer exists.
        """
        case = self.by_id("cases", case_id)
        for column in ("variants", "must_contain", "forbidden", "tags"):
            case[column] = json_list(case[column])
        case["expected_sources"] = self._many(
            "SELECT e.id, e.document_id, d.key, d.title, e.span_start, e.span_end, e.note, "
            "CASE WHEN e.span_start IS NOT NULL THEN "
            "substr(d.text, e.span_start + 1, e.span_end - e.span_start) END AS passage, "
            "d.pages FROM expected_sources e JOIN documents d ON d.id = e.document_id "
            "WHERE e.case_id = ? ORDER BY d.key, e.id",
            (case_id,),
        )
        for source in case["expected_sources"]:  # the page its passage starts on, if paged
            pages = source.pop("pages")
            source["page"] = (Layout.from_columns(pages, None).page_of(int(source["span_start"]))
                              if pages and source["span_start"] is not None else None)
        return case

    def document_text(self, document_id: int) -> str:
        """The text of one document ('' when it no longer exists)."""
        row = self._conn.execute("SELECT text FROM documents WHERE id = ?",
                                 (document_id,)).fetchone()
        return "" if row is None else str(row[0])

    def family_counts(self) -> dict[str, int]:
        """Cases per family, every family listed (0 where none)."""
        counts = dict.fromkeys(values(Family), 0)
        for family, n in self._conn.execute("SELECT family, count(*) FROM cases GROUP BY 1"):
            counts[family] = n
        return counts

    def status_counts(self) -> dict[str, int]:
        """Cases per workflow status."""
        return dict(self._conn.execute("SELECT status, count(*) FROM cases GROUP BY 1"))
