"""Store reads of the rights matrix: identities, documents' rights, what runs exposed.

Plain rows for the pure checks of ``domain.rights`` and ``metrics.exposure``.  The cases
read are those the metrics read (RAG cases, not retired).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rag_annotator.storage.reads import ReadBase, Row, json_list


class RightsReads(ReadBase):
    """Read queries of the rights matrix, mixed into the store."""

    def identity_rows(self) -> list[Row]:
        """Every declared test identity (``id``, ``name``, ``groups`` as a list, ``note``),
        in id order (the matrix's column order)."""
        if not self._has_identities():
            return []
        rows = self._many("SELECT id, name, group_names, note FROM identities ORDER BY id")
        for row in rows:
            row["groups"] = [str(g) for g in json_list(row.pop("group_names"))]
        return rows

    def export_identities(self) -> list[Row]:
        """The identities as the native JSON writes them (name, groups list, note)."""
        return [{"name": r["name"], "groups": r["groups"], "note": r["note"]}
                for r in self.identity_rows()]

    def _has_identities(self) -> bool:
        return self._conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                                  "AND name = 'identities'").fetchone() is not None

    def case_roles(self) -> dict[str, str]:
        """Case key -> role (the identity asking it), for every case with a role."""
        return {k: r for k, r in self._conn.execute(
            "SELECT key, role FROM cases WHERE trim(role) != '' ORDER BY key")}

    def exposure_rows(self, run_name: str | None = None, documents: Sequence[str] = ()
                      ) -> tuple[list[Row], dict[str, list[str]]]:
        """Per (run, case) of the RAG cases that are not retired and have a role: ``run``,
        ``case``, ``role``, ``answered`` (the run has an answer), ``retrieved`` as
        ``[(document key, rank)]`` in rank order and ``cited`` as ``[document key]`` in
        citation order; one run (by name) or every run (run and case order).

        Only *restricted* documents are listed (rights naming groups, none of them open to
        all), and those named in ``documents`` (a replayed change may restrict them): an open
        document can expose nobody, and reading only the others keeps this fast on 100,000
        documents.  Returned with the rights (a list) of every document listed, by key."""
        docs = self._restricted_documents(documents)
        where, params = ("AND r.name = ?", (run_name,)) if run_name is not None else ("", ())
        cases = "c.status != 'retired' AND c.kind != 'agent' AND trim(c.role) != '' "
        out: dict[tuple[str, str], Row] = {}

        def entry(run: str, case: str, role: str) -> Row:
            return out.setdefault((run, case), {"run": run, "case": case, "role": role,
                                                "answered": False, "retrieved": [],
                                                "cited": []})

        for run, case, role, doc, rank in self._conn.execute(
                # Cases first (CROSS JOIN keeps that order): only those with a role reach
                # the run's rows, through the (run, case) index (issue 19: SQLite chose to
                # scan the run's 1,000,000 rows when no case has a role).
                "SELECT r.name, c.key, c.role, t.document_id, t.rank FROM cases c "
                "CROSS JOIN runs r CROSS JOIN retrieved t ON t.run_id = r.id "
                "AND t.case_id = c.id WHERE " + cases + where, params):
            row = entry(run, case, role)
            if doc in docs:
                row["retrieved"].append((docs[doc][0], rank))
        for run, case, role, doc in self._conn.execute(
                "SELECT r.name, c.key, c.role, ci.document_id FROM answers a "
                "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
                "LEFT JOIN citations ci ON ci.answer_id = a.id WHERE " + cases + where +
                " ORDER BY a.id, ci.id", params):
            row = entry(run, case, role)
            row["answered"] = True
            if doc in docs:
                row["cited"].append(docs[doc][0])
        for row in out.values():
            row["retrieved"].sort(key=lambda pair: pair[1])
        return [out[k] for k in sorted(out)], {key: rights for key, rights in docs.values()}

    def _restricted_documents(self, keys: Sequence[str]) -> dict[int, tuple[str, list[str]]]:
        """Document id -> (key, rights) of the restricted documents and of ``keys``."""
        from rag_annotator.domain.rights import is_open  # here: not needed to open a file

        parsed = {text: [str(r) for r in json_list(text)] for (text,) in self._conn.execute(
            "SELECT DISTINCT rights FROM documents")}  # the index: a few distinct lists
        restricted = [text for text, rights in parsed.items() if not is_open(rights)]
        return {i: (k, parsed.get(r) or [str(x) for x in json_list(r)])
                for i, k, r in self._conn.execute(
                    "SELECT id, key, rights FROM documents WHERE rights IN (SELECT value FROM "
                    "json_each(?1)) OR key IN (SELECT value FROM json_each(?2))",
                    (json.dumps(restricted), json.dumps(list(keys))))}
