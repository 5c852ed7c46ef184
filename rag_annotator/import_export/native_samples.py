"""The review samples of automatic judges in the native JSON format (issue 22).

Section ``review_samples``: one object per sample (``judge``, ``level``, ``seed``, ``size``,
``population``, ``half_width``, ``created_at``, ``created_by``) with its ``sample_items`` in
review order, each naming its unit by natural keys — a claim by ``run``, ``case`` and its
``position`` in the answer; an answer by ``run`` and ``case``; a relevance pair by ``case``
and ``document`` (the other keys null) — with its ``stratum``, ``judge_label``, ``family``,
``stratum_size``, ``stratum_drawn`` and ``weight`` (inclusion probability).  Files written
before review samples have no such section and still import.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rag_annotator.domain.ports import Writer
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.storage.store import GoldSetStore


def specs(key: Any, text: Any, otext: Any, integer: Any, oint: Any, onum: Any,
          nested: Any, enum: Any) -> dict[str, dict[str, Any]]:
    """The two SPECS entries, in native_json's field kinds."""
    return {
        "review_samples": {
            "judge": key, "level": enum("claims", "answers", "relevance"), "seed": integer,
            "size": integer, "population": integer, "half_width": onum,
            "created_at": text, "created_by": text, "sample_items": nested},
        "sample_items": {
            "run": otext, "case": key, "position": oint, "document": otext,
            "stratum": text, "judge_label": text, "family": text, "stratum_size": integer,
            "stratum_drawn": integer, "weight": onum},
    }


_ITEMS = {
    "claims": ("SELECT r.name AS run, c.key AS \"case\", cl.position, NULL AS document "
               "FROM claims cl JOIN answers a ON a.id = cl.answer_id "
               "JOIN runs r ON r.id = a.run_id JOIN cases c ON c.id = a.case_id "
               "WHERE cl.id = ?"),
    "answers": ("SELECT r.name AS run, c.key AS \"case\", NULL AS position, NULL AS document "
                "FROM answers a JOIN runs r ON r.id = a.run_id "
                "JOIN cases c ON c.id = a.case_id WHERE a.id = ?"),
    "relevance": ("SELECT NULL AS run, c.key AS \"case\", NULL AS position, d.key AS document "
                  "FROM cases c, documents d WHERE c.id = ? AND d.id = ?"),
}
_ITEM_FIELDS = ("stratum", "judge_label", "family", "stratum_size", "stratum_drawn", "weight")


def export_rows(store: GoldSetStore) -> list[dict[str, Any]]:
    """Every sample with its items by natural keys (an item whose unit is gone is left out)."""
    out = []
    for sample in store.query(
            "SELECT rs.*, s.name AS judge FROM review_samples rs "
            "JOIN assessors s ON s.id = rs.judge_id ORDER BY s.name, rs.level"):
        items = []
        for item in store.query("SELECT * FROM review_sample_items WHERE sample_id = ? "
                                "ORDER BY position", (sample["id"],)):
            params = ((item["unit_id"], item["document_id"]) if sample["level"] == "relevance"
                      else (item["unit_id"],))
            found = store.query(_ITEMS[sample["level"]], params)
            if found:
                items.append({**found[0], **{k: item[k] for k in _ITEM_FIELDS}})
        out.append({**{k: sample[k] for k in ("judge", "level", "seed", "size", "population",
                                              "half_width", "created_at", "created_by")},
                    "sample_items": items})
    return out


def _unit(op: Writer, path: Path, level: str, item: dict[str, Any], where: str,
          ids: Any) -> tuple[int, int | None]:
    case_id = ids("cases", item["case"], f"{where}.case")
    if level == "relevance":
        if item["document"] is None:
            raise ImportRejected(path, None, "{where}: a relevance item needs 'document'.",
                                             where=where)
        return case_id, ids("documents", item["document"], f"{where}.document")
    if item["run"] is None:
        raise ImportRejected(path, None, "{where}: a {level} item needs 'run'.",
                                         where=where, level=level)
    answers = op.select("answers", run_id=ids("runs", item["run"], f"{where}.run"),
                        case_id=case_id)
    if not answers:
        raise ImportRejected(path, None, "{where}: run '{item}' has no answer to "
                                         "case '{item2}'.",
                                         where=where, item=item['run'], item2=item['case'])
    if level == "answers":
        return int(answers[0]["id"]), None
    claims = op.select("claims", answer_id=answers[0]["id"], position=item["position"])
    if not claims:
        raise ImportRejected(path, None, "{where}: no claim at position {item} "
                                         "in that answer.", where=where, item=item['position'])
    return int(claims[0]["id"]), None


def load(op: Writer, path: Path, samples: list[dict[str, Any]], ids: Any) -> None:
    """Insert the checked ``review_samples`` section (after the answers and judgments)."""
    for i, sample in enumerate(samples):
        where = f"review_samples[{i}]"
        row = op.insert("review_samples", {
            "judge_id": ids("assessors", sample["judge"], f"{where}.judge"),
            **{k: sample[k] for k in ("level", "seed", "size", "population", "half_width",
                                      "created_at", "created_by")}})
        for j, item in enumerate(sample["sample_items"]):
            unit_id, document_id = _unit(op, path, sample["level"], item,
                                         f"{where}.sample_items[{j}]", ids)
            op.insert("review_sample_items", {
                "sample_id": row["id"], "position": j, "unit_id": unit_id,
                "document_id": document_id, **{k: item[k] for k in _ITEM_FIELDS}})
