"""The workbook's *Assessors* sheet: per assessor judged, remaining, can't judge, median
seconds per judgment, Cohen's kappa with the others, self-consistency on control pairs and
the outlier flags with their reason; then the team's Krippendorff's alpha and the rules.

Rows in the summary sheet's cell language (``reports.workbook``: a cell is a value or a
``(kind, value)`` tuple), rendered from :func:`reports.team.store_team_figures`, so the sheet,
the native JSON's ``assessors`` section and the Dashboard say the same numbers.  A file with
no assessor gets no sheet.
"""

from __future__ import annotations

from typing import Any

from rag_annotator.metrics.team import OUTLIER_RULES, TeamFigures
from rag_annotator.reports.team import store_team_figures
from rag_annotator.storage.store import GoldSetStore

ASSESSORS = "Assessors"

COLUMNS = ("assessor", "judged", "remaining", "can't judge", "median seconds",
           "Cohen's kappa with the others", "control pairs", "self-consistency", "outlier")

ITEMS_TITLE = ("Claims and trajectories handed out (each assessor's latest campaign of each "
               "kind)")
ITEMS_COLUMNS = ("assessor", "items", "assigned", "done", "remaining",
                 "Cohen's kappa with the others")
AGREEMENT_COLUMNS = ("items", "question", "answered by two or more",
                     "Krippendorff's alpha (nominal)", "pairwise kappas")
#: The questions asked on each kind of item, as the sheet names them.
QUESTIONS = {"verdict": "verdict (supported / not supported / contradicted)",
             "task_success": "task success", "path_acceptable": "path acceptable"}

FRENCH: dict[str, str] = {
    ASSESSORS: "Annotateurs", "assessor": "annotateur", "judged": "jugées",
    "remaining": "restantes", "can't judge": "impossible à juger",
    "median seconds": "secondes (médiane)",
    "Cohen's kappa with the others": "kappa de Cohen avec les autres",
    "control pairs": "paires de contrôle", "self-consistency": "constance",
    "outlier": "atypique",
    ITEMS_TITLE: "Affirmations et trajectoires distribuées (la dernière campagne de chaque "
                 "annotateur pour chaque sorte)",
    "items": "éléments", "assigned": "attribuées", "done": "faites",
    "claims": "affirmations", "trajectories": "trajectoires",
    "question": "question", "answered by two or more": "répondues par deux ou plus",
    "Krippendorff's alpha (nominal)": "alpha de Krippendorff (nominal)",
    "pairwise kappas": "kappas deux à deux",
    QUESTIONS["verdict"]: "verdict (étayée / non étayée / contredite)",
    QUESTIONS["task_success"]: "tâche réussie", QUESTIONS["path_acceptable"]: "chemin acceptable",
    "Assessors (time: active seconds per judgment; kappa: mean of the pairwise kappas, binary "
    "labels; self-consistency: control pairs given the same label twice)":
        "Annotateurs (temps : secondes actives par jugement ; kappa : moyenne des kappas deux à "
        "deux, étiquettes binaires ; constance : paires de contrôle étiquetées deux fois de même)",
    "Krippendorff's alpha (binary)": "alpha de Krippendorff (binaire)",
    "Krippendorff's alpha (ordinal, on grades)": "alpha de Krippendorff (ordinal, sur les notes)",
    "pairs judged by two or more": "paires jugées par deux ou plus",
    "Outlier rules": "Règles d'atypie",
    "fast": "rapide", "low_kappa": "kappa bas", "inconsistent": "inconstant",
    OUTLIER_RULES["fast"]: "temps médian par jugement sous le tiers de la médiane de l'équipe",
    OUTLIER_RULES["low_kappa"]: "kappa inférieur de plus de 0,2 à la médiane de l'équipe",
    OUTLIER_RULES["inconsistent"]: "constance sous 67 % sur 3 paires de contrôle ou plus",
}

TITLE = ("Assessors (time: active seconds per judgment; kappa: mean of the pairwise kappas, "
         "binary labels; self-consistency: control pairs given the same label twice)")


def _t(lang: str, text: str) -> str:
    return FRENCH.get(text, text) if lang == "fr" else text


def assessor_rows(figures: TeamFigures, lang: str = "en") -> list[list[Any]]:
    """The sheet's rows for ``figures`` (empty when there is no assessor): relevance
    judging, then the progress on claims and trajectories campaigns."""
    if not figures.assessors:
        return _item_rows(figures, lang)
    rows: list[list[Any]] = [[("title", _t(lang, TITLE))],
                             [("bold", _t(lang, c)) for c in COLUMNS]]
    for a in figures.assessors:
        flags = "; ".join(f"{_t(lang, o.code)}: {o.reason}" for o in a.outliers)
        rows.append([a.name, a.judged, a.remaining, a.cant_judge, ("mean", a.median_seconds),
                     ("num", a.kappa), a.controls, ("pct", a.self_consistency), flags])
    rows += [[],
             [_t(lang, "pairs judged by two or more"), figures.units],
             [_t(lang, "Krippendorff's alpha (binary)"), ("num", figures.alpha)]]
    if figures.alpha_ordinal is not None:
        rows.append([_t(lang, "Krippendorff's alpha (ordinal, on grades)"),
                     ("num", figures.alpha_ordinal)])
    rows += [[], [("bold", _t(lang, "Outlier rules"))]]
    rows += [[_t(lang, code), _t(lang, rule)] for code, rule in figures.rules.items()]
    items = _item_rows(figures, lang)
    return rows + ([[], *items] if items else [])


def _item_rows(figures: TeamFigures, lang: str) -> list[list[Any]]:
    """Assigned / done / remaining per assessor on claims and trajectories campaigns."""
    if not figures.items:
        return []
    rows: list[list[Any]] = [
        [("title", _t(lang, ITEMS_TITLE))],
        [("bold", _t(lang, c)) for c in ITEMS_COLUMNS],
        *([p.name, _t(lang, p.items), p.assigned, p.done, p.remaining, ("num", p.kappa)]
          for p in figures.items)]
    if figures.items_agreement:
        rows += [[], [("bold", _t(lang, c)) for c in AGREEMENT_COLUMNS]]
        rows += [[_t(lang, a.items), _t(lang, QUESTIONS.get(a.question, a.question)), a.units,
                  ("num", a.alpha),
                  "; ".join(f"{p.first} – {p.second}: "
                            f"{'—' if p.kappa is None else _number(p.kappa, lang)} "
                            f"({p.units})" for p in a.pairwise)]
                 for a in figures.items_agreement]
    return rows


def _number(value: float, lang: str) -> str:
    """A kappa inside a text cell, with the reader's decimal mark."""
    text = f"{value:.2f}"
    return text.replace(".", ",") if lang == "fr" else text


def team_sheets(store: GoldSetStore, lang: str = "en") -> list[tuple[str, list[list[Any]]]]:
    """(sheet title, rows) of the team sheets the workbook adds after its summary."""
    rows = assessor_rows(store_team_figures(store), lang)
    return [(_t(lang, ASSESSORS), rows)] if rows else []
