"""The native JSON's structured-answer sections: ``output_contracts``, ``structured_checks``
and ``field_outcomes`` (written, read back and loaded; ``native_json`` registers them).

* ``output_contracts``: ``{"case", "schema", "note"?, "fields": [{"pointer", "reference",
  "comparison", "tolerance"?, "document"?, "passage"?, "span"?}]}`` per case with a contract;
* ``structured_checks``: ``{"run", "case", "parsed", "schema_valid", "reason"}`` per checked
  answer;
* ``field_outcomes``: ``{"run", "case", "pointer", "outcome", "found", "detail", "review",
  "review_reason", "reviewer", "reviewed_at"}`` per (answer, decisive field).

The checks and outcomes are carried as stored (with the reviews), not recomputed, so an
export of the imported file gives the same bytes.  A file written before output contracts has
none of these sections and still imports.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rag_annotator.domain.ports import Writer
from rag_annotator.domain.structured import OUTCOMES, REVIEWS, contract_from_json
from rag_annotator.domain.structured_ops import write_contract_in
from rag_annotator.errors import InvalidValue
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.storage.store import GoldSetStore

SECTIONS = ("output_contracts", "structured_checks", "field_outcomes")
_CHECK_KEYS = {"run", "case", "parsed", "schema_valid", "reason"}
_OUTCOME_KEYS = {"run", "case", "pointer", "outcome", "found", "detail", "review",
                 "review_reason", "reviewer", "reviewed_at"}


def export_sections(store: GoldSetStore) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """(section, rows) in the order the export writes them."""
    yield "output_contracts", store.export_output_contracts()
    yield "structured_checks", store.export_structured_checks()
    yield "field_outcomes", store.export_field_outcomes()


def read_sections(path: Path, data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The three sections of a parsed file, checked (ImportRejected naming the row)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for section in SECTIONS:
        items = data.get(section, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise ImportRejected(path, None, "{section}: expected a list of objects.",
                                             section=section)
        out[section] = items
    for i, item in enumerate(out["output_contracts"]):
        if not isinstance(item.get("case"), str):
            raise ImportRejected(path, None, "output_contracts[{i}]: 'case' must be a key.", i=i)
        try:
            contract_from_json({k: v for k, v in item.items() if k != "case"})
        except InvalidValue as error:
            raise ImportRejected(path, None, "output_contracts[{i}]: {error}",
                                             i=i, error=error) from None
    for i, item in enumerate(out["structured_checks"]):
        _keys(path, f"structured_checks[{i}]", item, _CHECK_KEYS)
        if item["parsed"] not in (0, 1) or item["schema_valid"] not in (0, 1, None):
            raise ImportRejected(path, None, "structured_checks[{i}]: parsed is 0 or 1, "
                                             "schema_valid 0, 1 or null.", i=i)
    for i, item in enumerate(out["field_outcomes"]):
        _keys(path, f"field_outcomes[{i}]", item, _OUTCOME_KEYS)
        if item["outcome"] not in OUTCOMES or item["review"] not in (*REVIEWS, None):
            raise ImportRejected(path, None, "field_outcomes[{i}]: outcome must be one of "
                                             "{outcomes}; review confirmed, "
                                             "overruled or null.",
                                             i=i, outcomes=', '.join(OUTCOMES))
    return out


def _keys(path: Path, where: str, item: dict[str, Any], keys: set[str]) -> None:
    if set(item) != keys:
        odd = sorted(set(item) ^ keys)[0]
        raise ImportRejected(path, None, "{where}: field '{odd}' is missing or unknown; this "
                                         "file was not written by this version of the app.",
                                         where=where, odd=odd)


def load_sections(op: Writer, path: Path, data: dict[str, list[dict[str, Any]]]) -> None:
    """Inside the import's operation, after the answers: contracts, checks, outcomes."""
    cases = op.ids_by_key("cases")
    runs = op.ids_by_key("runs")
    for i, item in enumerate(data.get("output_contracts", [])):
        if item["case"] not in cases:
            raise ImportRejected(path, None, "output_contracts[{i}]: no case "
                                             "'{item}' in the file.", i=i, item=item['case'])
        case = op.get("cases", {"id": cases[item["case"]]}) or {}
        try:
            write_contract_in(op, case, contract_from_json(
                {k: v for k, v in item.items() if k != "case"}))
        except InvalidValue as error:
            raise ImportRejected(path, None, "output_contracts[{i}]: {error}",
                                             i=i, error=error) from None
    answers = {(int(a["run_id"]), int(a["case_id"])): int(a["id"])
               for a in op.select("answers")}

    def answer(where: str, item: dict[str, Any]) -> int:
        key = (runs.get(item["run"], -1), cases.get(item["case"], -1))
        if key not in answers:
            raise ImportRejected(path, None, "{where}: no answer of run '{item}' to "
                                             "case '{item2}' in the file.",
                                             where=where, item=item['run'], item2=item['case'])
        return answers[key]

    op.insert_rows("structured_checks", ("answer_id", "parsed", "schema_valid", "reason"), [
        (answer(f"structured_checks[{i}]", c), c["parsed"], c["schema_valid"], c["reason"])
        for i, c in enumerate(data.get("structured_checks", []))])
    fields = {(int(f["contract_id"]), f["pointer"]): int(f["id"])
              for f in op.select("decisive_fields")}
    contracts = {int(c["case_id"]): int(c["id"]) for c in op.select("output_contracts")}
    assessors = op.ids_by_key("assessors")
    rows = []
    for i, o in enumerate(data.get("field_outcomes", [])):
        where = f"field_outcomes[{i}]"
        field = fields.get((contracts.get(cases.get(o["case"], -1), -1), o["pointer"]))
        if field is None:
            raise ImportRejected(path, None, "{where}: case '{o}' has no decisive "
                                             "field {o2}.",
                                             where=where, o=o['case'], o2=o['pointer'])
        if o["reviewer"] is not None and o["reviewer"] not in assessors:
            raise ImportRejected(path, None, "{where}: no assessor '{o}'.",
                                             where=where, o=o['reviewer'])
        rows.append((answer(where, o), field, o["outcome"], o["found"], o["detail"],
                     o["review"], o["review_reason"],
                     None if o["reviewer"] is None else assessors[o["reviewer"]],
                     o["reviewed_at"]))
    op.insert_rows("field_outcomes", ("answer_id", "field_id", "outcome", "found", "detail",
                                      "review", "review_reason", "assessor_id", "reviewed_at"),
                   rows)
