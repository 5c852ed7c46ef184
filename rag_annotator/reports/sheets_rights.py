"""The workbook's ``exposure`` sheet: out-of-scope exposures and seed 003's three outcomes.

Per run in the export's scope: for each test identity, the (run, case) pairs checked and the
forbidden documents retrieved, passed to the model and cited (with the cases exposed); the
run's three outcomes kept apart (wrong answer, missing evidence, out-of-scope exposure);
then every exposure, one row each.  Rows are in the summary sheet's cell format
(``xlsx_export._write_summary``); the sheet's title is a code, like the entity sheets, and
its wording follows the summary's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rag_annotator.metrics.exposure import STAGES
from rag_annotator.reports.run_figures import RunFigures

#: The sheet's title, in English (``rights_title`` gives the reader's).
SHEET = "Exposure"

FRENCH = {
    SHEET: "Exposition",
    "Out-of-scope exposure of run {run} per test identity (a critical error, never averaged "
    "into quality)": "Exposition hors périmètre de l'exécution {run} par identité de test "
                     "(erreur critique, jamais moyennée dans la qualité)",
    "identity": "identité", "groups": "groupes", "cases checked": "cas vérifiés",
    "retrieved": "récupéré", "context": "transmis au modèle", "cited": "cité",
    "cases exposed": "cas exposés",
    "Three outcomes of run {run}, kept apart": "Trois issues de l'exécution {run}, séparées",
    "wrong answer": "réponse erronée", "missing evidence": "absence de preuve",
    "out-of-scope exposure": "exposition hors périmètre", "cases": "cas",
    "Every exposure": "Toutes les expositions", "run": "exécution", "case": "cas",
    "stage": "étape", "document": "document",
}


def rights_title(lang: str) -> str:
    """The sheet's title in the reader's language."""
    return _words(lang)(SHEET)


def _words(lang: str) -> Callable[[str], str]:
    return (lambda text: FRENCH.get(text, text)) if lang == "fr" else (lambda text: text)


def rights_rows(runs: Sequence[RunFigures], lang: str = "en") -> list[list[Any]]:
    """The sheet's rows for the export's runs (their figures, built once: ``reports.book``)."""
    t = _words(lang)
    rows: list[list[Any]] = []
    events: list[list[Any]] = []
    for figures in runs:
        run = figures.run
        exposure, outcomes = figures.rights.exposure, figures.rights.outcomes
        if not any(exposure.checked.values()):
            continue  # no case asked by an identity (an agent run): nothing to show
        rows.append([("title", t("Out-of-scope exposure of run {run} per test identity (a "
                                 "critical error, never averaged into quality)").format(
                                     run=run))])
        rows.append([("bold", t(h)) for h in ("identity", "groups", "cases checked",
                                              *STAGES, "cases exposed")])
        for who, row in exposure.per_identity().items():
            rows.append([who, ", ".join(row["groups"]), row["checked"],
                         *(row[s]["count"] for s in STAGES), len(row["cases"])])
        rows.append([])
        rows.append([("title", t("Three outcomes of run {run}, kept apart").format(run=run))])
        for name, cases in (("wrong answer", outcomes.wrong_answer),
                            ("missing evidence", outcomes.missing_evidence),
                            ("out-of-scope exposure", outcomes.exposure)):
            rows.append([("bold", t(name)), len(cases), ", ".join(cases)])
        rows.append([])
        events += [[e.run, e.case, e.identity, t(e.stage), e.document] for e in exposure.events]
    rows.append([("title", t("Every exposure"))])
    rows.append([("bold", t(h)) for h in ("run", "case", "identity", "stage", "document")])
    return rows + events
