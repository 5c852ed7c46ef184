"""Store reads of the rights matrix: identities, documents' rights, what runs exposed.

Plain rows for the pure checks of ``domain.rights`` and ``metrics.exposure``.  The cases
read are those the metrics read (RAG cases, not retired).
"""

from __future__ import annotations

from typing import Any

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

    def matrix_documents(self) -> list[Row]:
        """Every document (``id``, ``key``, ``title``, ``rights`` as a list), in key order."""
        rows = self._many("SELECT id, key, title, rights FROM documents ORDER BY key")
        parsed: dict[str, list[Any]] = {}
        for row in rows:
            text = row["rights"]
            if text not in parsed:
                parsed[text] = [str(r) for r in json_list(text)]
            row["rights"] = parsed[text]
        return rows

    def case_roles(self) -> dict[str, str]:
        """Case key -> role (the identity asking it), for every case with a role."""
        return {k: r for k, r in self._conn.execute(
            "SELECT key, role FROM cases WHERE trim(role) != '' ORDER BY key")}

    def exposure_rows(self, run_name: str | None = None) -> list[Row]:
        """Per (run, case) of the RAG cases that are not retired and have a role: ``run``,
        ``case``, ``role``, ``answered`` (the run has an answer), ``retrieved`` as
        ``[(document key, rank)]`` in rank order and ``cited`` as ``[document key]`` in
        citation order; one run (by name) or every run (run and case order)."""
        where, params = ("AND r.name = ?", (run_name,)) if run_name is not None else ("", ())
        base = ("FROM runs r JOIN cases c ON c.status != 'retired' AND c.kind != 'agent' "
                "AND trim(c.role) != '' ")
        out: dict[tuple[str, str], Row] = {}

        def entry(run: str, case: str, role: str) -> Row:
            return out.setdefault((run, case), {"run": run, "case": case, "role": role,
                                                "answered": False, "retrieved": [],
                                                "cited": []})

        for run, case, role, doc, rank in self._conn.execute(
                "SELECT r.name, c.key, c.role, d.key, t.rank " + base +
                "JOIN retrieved t ON t.run_id = r.id AND t.case_id = c.id "
                "JOIN documents d ON d.id = t.document_id WHERE 1 " + where +
                " ORDER BY r.name, c.key, t.rank", params):
            entry(run, case, role)["retrieved"].append((doc, rank))
        for run, case, role, doc in self._conn.execute(
                "SELECT r.name, c.key, c.role, d.key " + base +
                "JOIN answers a ON a.run_id = r.id AND a.case_id = c.id "
                "LEFT JOIN citations ci ON ci.answer_id = a.id "
                "LEFT JOIN documents d ON d.id = ci.document_id WHERE 1 " + where +
                " ORDER BY r.name, c.key, ci.id", params):
            row = entry(run, case, role)
            row["answered"] = True
            if doc is not None:
                row["cited"].append(doc)
        return [out[k] for k in sorted(out)]
