"""The integrity, schema and cross-reference checks behind ``rag-annotator check``.

Mixed into :class:`~rag_annotator.storage.store.GoldSetStore` like the read mixins: they only
read.  Kept apart from the store's life cycle so a newcomer who changes what ``check`` reports
opens this file alone.
"""

from __future__ import annotations

from rag_annotator.messages import Message
from rag_annotator.storage.connection import settings_problem
from rag_annotator.storage.document_checks import document_problems
from rag_annotator.storage.reads import ReadBase
from rag_annotator.storage.reads_structured import structured_problems
from rag_annotator.storage.schema import SCHEMA_VERSION
from rag_annotator.storage.shape import schema_differences
from rag_annotator.storage.team_checks import team_problems


class FileChecks(ReadBase):
    """What ``check`` reports, each as a list of one-line messages (empty when all is well)."""

    def integrity_problems(self) -> list[str]:
        """SQLite's integrity and foreign-key checks, as messages (empty when all is well)."""
        problems: list[str] = [Message("integrity: {problem}", problem=r[0]) for r in
                               self._conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
        for table, rowid, parent, _fk in self._conn.execute("PRAGMA foreign_key_check"):
            problems.append(Message("{table} row {rowid} refers to a missing {parent} row",
                                    table=table, rowid=rowid, parent=parent))
        return problems

    def schema_problems(self) -> list[str]:
        """Every difference between the file's schema (tables, columns, CHECKs, indexes,
        triggers, views) and this build's for the file's version, as opening refuses it
        (:mod:`~rag_annotator.storage.shape`; only ``sqlite_master``'s text is read), and a
        grade scale setting this build would not write (rows are not read past these)."""
        problems: list[str] = [Message("schema: {difference}", difference=difference)
                               for difference in schema_differences(self._conn,
                                                                    self.schema_version)]
        if not problems and self.schema_version >= 1:
            setting = settings_problem(self._conn)
            if setting is not None:
                problems.append(Message("settings: {setting}", setting=setting))
        if self.schema_version != SCHEMA_VERSION:
            problems.append(Message(
                            "schema: user_version is {schema_version}, expected "
                            "{schema_version2}",
                            schema_version=self.schema_version, schema_version2=SCHEMA_VERSION))
        return problems

    def cross_reference_problems(self) -> list[str]:
        """Cross-reference checks SQLite cannot express (spans, supersession, grades)."""
        problems: list[str] = []
        for (key, doc, start, end, length) in self._conn.execute(
                "SELECT c.key, d.key, e.span_start, e.span_end, length(d.text) "
                "FROM expected_sources e JOIN cases c ON c.id = e.case_id "
                "JOIN documents d ON d.id = e.document_id WHERE e.span_end > length(d.text)"):
            problems.append(Message(
                            "case {key}: expected passage {start}–{end} lies beyond the end "
                            "of document {doc} ({length} characters)",
                            key=key, start=start, end=end, doc=doc, length=length))
        for (claim_id, end, length) in self._conn.execute(
                "SELECT cl.id, cl.span_end, length(a.text) FROM claims cl "
                "JOIN answers a ON a.id = cl.answer_id WHERE cl.span_end > length(a.text)"):
            problems.append(Message(
                            "claim {claim_id}: span ends at {end}, beyond its answer "
                            "({length} characters)", claim_id=claim_id, end=end, length=length))
        for (claim_id, doc, end, length) in self._conn.execute(
                "SELECT e.claim_id, d.key, e.span_end, length(d.text) FROM evidence e "
                "JOIN documents d ON d.id = e.document_id WHERE e.span_end > length(d.text)"):
            problems.append(Message("evidence of claim {claim_id}: span ends at {end}, beyond "
                                    "document {doc} ({length} characters)",
                                    claim_id=claim_id, end=end, doc=doc, length=length))
        for (key,) in self._conn.execute(
                "WITH RECURSIVE chain(start, id, depth) AS ("
                " SELECT id, supersedes_id, 1 FROM documents WHERE supersedes_id IS NOT NULL"
                " UNION ALL SELECT chain.start, d.supersedes_id, depth + 1 FROM chain"
                " JOIN documents d ON d.id = chain.id"
                " WHERE d.supersedes_id IS NOT NULL AND depth < 1000)"
                " SELECT DISTINCT d.key FROM chain JOIN documents d ON d.id = chain.start"
                " WHERE chain.id = chain.start"):
            problems.append(Message(
                            "document {key} supersedes itself (a cycle of versions)", key=key))
        for table, column in _JSON_LIST_COLUMNS:
            for (row_id,) in self._conn.execute(
                    f"SELECT id FROM {table} WHERE NOT json_valid({column}) "
                    f"OR json_type({column}) != 'array'"):
                problems.append(Message("{table} {row_id}: {column} is not a JSON list",
                                        table=table, row_id=row_id, column=column))
        for table, column in _JSON_OBJECT_COLUMNS:
            for (row_id,) in self._conn.execute(
                    f"SELECT id FROM {table} WHERE {column} IS NOT NULL AND "
                    f"(NOT json_valid({column}) OR json_type({column}) != 'object')"):
                problems.append(Message("{table} {row_id}: {column} is not a JSON object",
                                        table=table, row_id=row_id, column=column))
        for (key,) in self._conn.execute(
                "SELECT key FROM cases WHERE json_valid(tool_order) AND EXISTS (SELECT 1 FROM "
                "json_each(tool_order) p WHERE p.type != 'array' OR json_array_length(p.value) "
                "!= 2)"):
            problems.append(Message("case {key}: tool_order holds something other than "
                                    "[before, after] pairs", key=key))
        for (run, case, n) in self._conn.execute(
                "SELECT r.name, c.key, count(*) FROM trajectory_steps s "
                "JOIN trajectories t ON t.id = s.trajectory_id JOIN runs r ON r.id = t.run_id "
                "JOIN cases c ON c.id = t.case_id GROUP BY s.trajectory_id "
                "HAVING count(*) != max(s.position)"):
            problems.append(Message("run {run}, case {case}: trajectory steps are not numbered "
                                    "1..{n}", run=run, case=case, n=n))
        for (name, n) in self._conn.execute(
                "SELECT lower(trim(name)), count(*) FROM identities GROUP BY lower(trim(name)) "
                "HAVING count(*) > 1"):
            problems.append(Message(
                            "{n} test identities are named '{name}' (names compare in lower "
                            "case: rename all but one)", n=n, name=name))
        max_grade = int(self.meta("max_grade", "1") or 1)
        for (n,) in self._conn.execute(
                "SELECT count(*) FROM judgments WHERE grade > ?", (max_grade,)):
            if n:
                problems.append(Message("{n} judgments have a grade above the gold set's scale "
                                        "(max {max_grade})", n=n, max_grade=max_grade))
        for (run, case, n, top) in self._conn.execute(
                "SELECT r.name, c.key, count(*), max(t.rank) FROM retrieved t "
                "JOIN runs r ON r.id = t.run_id JOIN cases c ON c.id = t.case_id "
                "GROUP BY t.run_id, t.case_id HAVING count(*) != max(t.rank)"):
            problems.append(Message("run {run}, case {case}: ranks are not 1..{n} (max {top})",
                                    run=run, case=case, n=n, top=top))
        problems.extend(structured_problems(self._conn))  # output contracts, field outcomes
        problems.extend(document_problems(self._conn))  # layouts, kept files, passages
        problems += team_problems(self._conn, max_grade)
        return problems


#: JSON list columns (never NULL).
_JSON_LIST_COLUMNS = (
    ("cases", "variants"), ("cases", "must_contain"), ("cases", "forbidden"), ("cases", "tags"),
    ("documents", "rights"), ("answer_reviews", "failure_categories"),
    ("answer_reviews", "must_contain_found"), ("cases", "forbidden_tools"),
    ("cases", "required_tools"), ("cases", "tool_order"), ("identities", "group_names"),
)
#: JSON object columns (NULL allowed where the column is nullable).
_JSON_OBJECT_COLUMNS = (("cases", "expected_state"), ("trajectories", "final_state"),
                        ("cases", "extra"), ("answers", "extra"), ("documents", "extra"),
                        ("trajectories", "extra"))
