"""The workbook's structured-answer sheet: for every run with answers to cases that have an
output contract, per family the parse and schema-valid rates and seed 003's diagnosis, then
per decisive field the accuracy with the checks not executed beside it — rows in the summary
sheet's cell format (``reports.workbook``), rendered from each run's ``RunFigures`` (the
export's, built once: ``reports.book``).
``import_export.xlsx_export`` adds the sheet with one line (:func:`add_structured_sheet`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rag_annotator.metrics.structured import StructuredGroup
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.reports.words import words

SHEET = "Structured answers"
FRENCH = {
    SHEET: "Sorties structurées",
    "Structured answers of run {run}, per family": "Sorties structurées de l'exécution {run}, "
                                                   "par famille",
    "family": "famille", "answers": "réponses", "parse rate": "taux d'analyse",
    "schema-valid rate": "taux conforme au schéma", "contract broken": "contrat cassé",
    "document missing": "document manquant",
    "right document, wrong field": "bon document, champ faux",
    "all fields right": "tous les champs justes", "all families": "toutes les familles",
    ("Decisive fields of run {run} (accuracy = right / executed; a check not executed is "
     "never counted as passed)"):
        ("Champs décisifs de l'exécution {run} (exactitude = justes / exécutés ; un contrôle "
         "non exécuté n'est jamais compté comme réussi)"),
    "field": "champ", "accuracy": "exactitude", "right": "justes", "executed": "exécutés",
    "not executed": "non exécutés", "overruled": "infirmés",
}


def _words(lang: str) -> Callable[[str], str]:
    return (lambda text: FRENCH.get(text, text)) if lang == "fr" else (lambda text: text)


def structured_rows(figures: RunFigures, lang: str = "en") -> list[list[Any]]:
    """One run's rows (none when it has no structured answer)."""
    summary = figures.structured
    if not summary.has_data:
        return []
    t = _words(lang)

    def line(title: str, group: StructuredGroup) -> list[Any]:
        counts = group.diagnoses()
        return [title, group.answers, ("pct", group.parse_rate),
                ("pct", group.schema_valid_rate),
                *(counts[d] for d in ("contract_broken", "document_missing",
                                      "right_document_wrong_field", "all_fields_right"))]

    rows: list[list[Any]] = [
        [("title", t("Structured answers of run {run}, per family").format(run=summary.run))],
        [("bold", t(h)) for h in ("family", "answers", "parse rate", "schema-valid rate",
                                  "contract broken", "document missing",
                                  "right document, wrong field", "all fields right")]]
    family_words = words(lang)
    rows += [line(family_words(family), group)
             for family, group in summary.per_family.items()]
    rows += [line(t("all families"), summary.overall), []]
    rows.append([("title", t("Decisive fields of run {run} (accuracy = right / executed; a "
                             "check not executed is never counted as passed)")
                  .format(run=summary.run))])
    rows.append([("bold", t(h)) for h in ("field", "accuracy", "right", "executed",
                                          "not executed", "overruled")])
    rows += [[pointer, ("pct", f.accuracy), f.passed, f.executed, f.not_executed, f.overruled]
             for pointer, f in summary.overall.fields().items()]
    return [*rows, []]


def add_structured_sheet(wb: Any, runs: Sequence[RunFigures], lang: str,
                         write: Callable[[Any, list[list[Any]], str], None]) -> None:
    """Add the sheet (``write`` renders rows as cells) when a run of the export's figures
    has structured answers."""
    rows: list[list[Any]] = []
    for figures in runs:
        rows += structured_rows(figures, lang)
    if rows:
        write(wb.create_sheet(_words(lang)(SHEET)), rows, lang)
