"""The words of the manager's reports (the workbook's summary and drift sheets, the one-page
PDF), in English and French, in one small catalogue.

The core cannot use Qt's ``tr()`` (no Qt outside ``ui/``), and a manager reads the summary in
the interface's language, so the reports look their words up here by key: :func:`words`
gives the lookup for a language.  ``tests/reports/test_words.py`` fails when a key is missing
in one language, so a new word cannot reach a French reader in English by accident.  Entity
sheets keep the column names the import reads and are not translated.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Callable

#: Read by the app (``ui.i18n``) and here: the interface's language for tests, screenshots.
LANG_ENV = "RAG_ANNOTATOR_LANG"

EN: dict[str, str] = {
    "summary": "Figures in detail", "drift_sheet": "Drift", "chart_sheet": "Chart data",
    "gold_set": "Gold set {name}", "file": "file", "written": "written on",
    "cases": "cases", "documents": "documents", "runs": "runs", "run": "run",
    "judged_cases": "judged cases counted",
    "what_tested": "What was tested",
    "release": "gold set release", "no_release": "no frozen release (current content)",
    "policy": "unjudged documents",
    "policy_trec": ("policy 'trec': a retrieved document nobody judged counts as not relevant, "
                    "as trec_eval does; a document outside a case's pool counts as not "
                    "relevant"),
    "level": "interval level",
    "level_note": ("[low – high]: the {level} interval (Wilson for shares, bootstrap over "
                   "cases for means); a wide interval means too few cases to conclude"),
    "model": "model", "corpus": "corpus", "index": "index", "prompt": "prompt",
    "notes": "notes", "created": "created",
    "headline": "Headline figures",
    "figure": "figure", "series": "series", "category": "category", "value": "value",
    "low": "low", "high": "high",
    "answers_title": "Answers of run {run}, per family",
    "family": "family", "tested": "tested", "produced": "produced", "validated": "validated",
    "unreviewed": "not yet reviewed", "not_generated": "no answer from this run",
    "quality": "quality", "coverage": "coverage", "success": "success",
    "answers_note": ("tested = reviewed cases expecting an answer; not yet reviewed: answers "
                     "present but not reviewed (left out of tested); quality = validated / "
                     "produced, coverage = produced / tested, success = validated / tested"),
    "all_families": "all families", "not_computable": "not computable",
    "chart_success": "Success per family (bars: {level} interval)",
    "retrieval_title": ("Retrieval measures (mean over the judged cases the run covers, a "
                        "value not defined counting 0, as in trec_eval); unjudged documents: "
                        "policy 'trec'"),
    "drift_title": "Drift across runs (in the order they were made)",
    "drift_note": ("Δ: change from the previous run; ▼ regression: a measure worse by a "
                   "paired test over the cases both runs answered (Holm-corrected); the "
                   "Drift sheet gives each family, the version fields that changed and the "
                   "cases that flipped"),
    "drift_chart": "Headline figures across runs",
    "vs_previous": "change vs previous", "vs_baseline": "change vs baseline",
    "baseline": "baseline", "regression": "regression", "significant": "significant",
    "regression_mark": "regression: {marks}", "against": "vs",
    "changed_fields": "version fields changed", "flipped": "cases flipped",
    "no_drift": "only one run: no drift to show",
    "judging_title": "Judging coverage (effective labels over every pair of the pools)",
    "relevant": "relevant", "not_relevant": "not relevant", "unjudged": "unjudged",
    "disputed": "of which disputed",
    "agreement_title": "Agreement between assessors (binary: relevant = grade ≥ 1)",
    "assessors": "assessors", "pairs_two": "pairs judged by two or more",
    "agreement": "agreement", "kappa": "Cohen's kappa", "alpha": "Krippendorff's alpha",
    "agents_title": ("Agents of run {run}, per family (a review mark overrides the automatic "
                     "check; undecided verdicts are left out of the rates)"),
    "trajectories": "trajectories", "task_success": "task success",
    "path_acceptable": "path acceptable", "both": "both", "undecided": "undecided",
    "mean_steps": "mean steps", "mean_tokens": "mean tokens", "mean_seconds": "mean seconds",
    "total_cost": "total cost", "cost_per_success": "cost per success",
    "overruled_success": "overruled (success)", "overruled_path": "overruled (path)",
    "violations_title": ("Violation rate per invariant, run {run} (broken / checked; a budget "
                         "the trajectory gives no figure for is unknown)"),
    "invariant": "invariant", "broken": "broken", "checked": "checked", "unknown": "unknown",
    "violation_rate": "violation rate",
    "ordinary": "ordinary", "ambiguous": "ambiguous", "sensitive": "sensitive",
    "out_of_scope": "out of scope", "no_answer": "no answer in the corpus",
    "conflicting_sources": "conflicting sources", "outdated_document": "outdated document",
    "prompt_injection": "prompt injection", "access_restricted": "restricted access",
    "pdf_more": "… and {n} more rows: see the workbook",
    "inv_forbidden": "forbidden tool: {tool}", "inv_required": "required tool: {tool}",
    "inv_order": "tool order: {tools}", "max_steps": "step budget",
    "max_tokens": "token budget", "max_seconds": "time budget", "max_cost": "cost budget",
    "corpus_version": "documents version", "index_version": "search index version",
    "prompt_version": "instructions version", "field_change": "{field}: {before} → {after}",
}

FR: dict[str, str] = {
    "summary": "Détail des chiffres", "drift_sheet": "Dérive",
    "chart_sheet": "Données des graphiques",
    "gold_set": "Jeu de référence {name}", "file": "fichier", "written": "écrit le",
    "cases": "cas", "documents": "documents", "runs": "exécutions", "run": "exécution",
    "judged_cases": "cas jugés comptés",
    "what_tested": "Ce qui a été testé",
    "release": "version du jeu de référence",
    "no_release": "aucune version figée (contenu actuel)",
    "policy": "documents non jugés",
    "policy_trec": ("politique 'trec' : un document retrouvé que personne n'a jugé compte "
                    "comme non pertinent, comme le fait trec_eval ; un document hors du pool "
                    "d'un cas compte comme non pertinent"),
    "level": "niveau des intervalles",
    "level_note": ("[bas – haut] : l'intervalle à {level} (Wilson pour les proportions, "
                   "bootstrap sur les cas pour les moyennes) ; un intervalle large signifie "
                   "trop peu de cas pour conclure"),
    "model": "modèle", "corpus": "corpus", "index": "index", "prompt": "consignes",
    "notes": "notes", "created": "créée le",
    "headline": "Chiffres clés",
    "figure": "indicateur", "series": "série", "category": "catégorie", "value": "valeur",
    "low": "bas", "high": "haut",
    "answers_title": "Réponses de l'exécution {run}, par famille",
    "family": "famille", "tested": "testés", "produced": "produites", "validated": "validées",
    "unreviewed": "pas encore relus", "not_generated": "sans réponse de cette exécution",
    "quality": "qualité", "coverage": "couverture", "success": "succès",
    "answers_note": ("testés = cas relus qui attendent une réponse ; pas encore relus : "
                     "réponses présentes mais non relues (hors des testés) ; qualité = "
                     "validées / produites, couverture = produites / testés, succès = "
                     "validées / testés"),
    "all_families": "toutes les familles", "not_computable": "non calculable",
    "chart_success": "Succès par famille (barres : intervalle à {level})",
    "retrieval_title": ("Mesures de recherche (moyenne sur les cas jugés que l'exécution "
                        "couvre, une valeur non définie comptant 0, comme dans trec_eval) ; "
                        "documents non jugés : politique 'trec'"),
    "drift_title": "Dérive d'une exécution à l'autre (dans l'ordre où elles ont été faites)",
    "drift_note": ("Δ : écart avec l'exécution précédente ; ▼ régression : une mesure moins "
                   "bonne selon un test apparié sur les cas que les deux exécutions ont "
                   "traités (correction de Holm) ; la feuille Dérive donne chaque famille, "
                   "les champs de version modifiés et les cas basculés"),
    "drift_chart": "Chiffres clés d'une exécution à l'autre",
    "vs_previous": "écart avec la précédente", "vs_baseline": "écart avec la référence",
    "baseline": "référence", "regression": "régression", "significant": "significative",
    "regression_mark": "régression : {marks}", "against": "contre",
    "changed_fields": "champs de version modifiés", "flipped": "cas basculés",
    "no_drift": "une seule exécution : pas de dérive à montrer",
    "judging_title": ("Couverture du jugement (étiquettes effectives sur toutes les paires "
                      "des pools)"),
    "relevant": "pertinent", "not_relevant": "non pertinent", "unjudged": "non jugé",
    "disputed": "dont en désaccord",
    "agreement_title": "Accord entre annotateurs (binaire : pertinent = note ≥ 1)",
    "assessors": "annotateurs", "pairs_two": "paires jugées par deux ou plus",
    "agreement": "accord", "kappa": "kappa de Cohen", "alpha": "alpha de Krippendorff",
    "agents_title": ("Agents de l'exécution {run}, par famille (la marque d'un relecteur "
                     "l'emporte sur le contrôle automatique ; les verdicts indécis sont hors "
                     "des taux)"),
    "trajectories": "trajectoires", "task_success": "succès de la tâche",
    "path_acceptable": "chemin acceptable", "both": "les deux", "undecided": "indécis",
    "mean_steps": "étapes (moy.)", "mean_tokens": "tokens (moy.)",
    "mean_seconds": "secondes (moy.)", "total_cost": "coût total",
    "cost_per_success": "coût par succès", "overruled_success": "infirmés (succès)",
    "overruled_path": "infirmés (chemin)",
    "violations_title": ("Taux de violation par invariant, exécution {run} (violé / vérifié ; "
                         "un budget dont la trajectoire ne donne pas le chiffre est inconnu)"),
    "invariant": "invariant", "broken": "violé", "checked": "vérifié", "unknown": "inconnu",
    "violation_rate": "taux de violation",
    "ordinary": "ordinaire", "ambiguous": "ambigu", "sensitive": "sensible",
    "out_of_scope": "hors périmètre", "no_answer": "pas de réponse dans le corpus",
    "conflicting_sources": "sources contradictoires", "outdated_document": "document obsolète",
    "prompt_injection": "source malveillante (injection)", "access_restricted": "accès restreint",
    "pdf_more": "… et {n} lignes de plus : voir le classeur",
    "inv_forbidden": "outil interdit : {tool}", "inv_required": "outil requis : {tool}",
    "inv_order": "ordre des outils : {tools}", "max_steps": "budget d'étapes",
    "max_tokens": "budget de jetons", "max_seconds": "budget de temps",
    "max_cost": "budget de coût", "corpus_version": "version des documents",
    "index_version": "version de l'index de recherche",
    "prompt_version": "version des consignes",
    "field_change": "{field} : {before} → {after}",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": EN, "fr": FR}

#: Family codes (``family:<code>`` is not needed: the codes are keys of the catalogue).
FAMILIES = ("ordinary", "ambiguous", "sensitive", "out_of_scope", "no_answer",
            "conflicting_sources", "outdated_document", "prompt_injection",
            "access_restricted")


def words(lang: str) -> Callable[[str], str]:
    """The lookup of ``lang`` (``fr`` or ``en``; anything else is English).  A key missing
    from the catalogue raises KeyError (a bug the catalogue test catches); a family code
    nobody registered is shown as it is."""
    catalogue = CATALOGUES.get(lang, EN)

    def t(key: str) -> str:
        if key not in catalogue and key not in EN:
            return key  # a family code of the user's own: shown as typed
        return catalogue[key]

    return t


def invariant_words(code: str, t: Callable[[str], str]) -> str:
    """An agent invariant's code in words (tool names stay as they are):
    ``forbidden:delete`` → "forbidden tool: delete", ``max_steps`` → "step budget"."""
    kind, _sep, rest = code.partition(":")
    if kind == "forbidden":
        return t("inv_forbidden").format(tool=rest)
    if kind == "required":
        return t("inv_required").format(tool=rest)
    if kind == "order":
        return t("inv_order").format(tools=rest.replace("<", " < "))
    return t(code) if code in EN else code


def default_language(requested: str | None = None) -> str:
    """``fr`` or ``en``: ``requested`` (``--locale``, the UI's interface language), else
    ``RAG_ANNOTATOR_LANG``, else the system's locale (``fr_*`` → ``fr``), else ``en``."""
    for choice in (requested, os.environ.get(LANG_ENV, "").strip().lower()):
        if choice in CATALOGUES:
            return choice
    # POSIX precedence first (a locale named there may not be installed, so Python's own
    # view can be "C"), then what Python sees (Windows sets no variable).
    name = next((os.environ[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG")
                 if os.environ.get(v)), "") or locale.getlocale()[0] or ""
    return "fr" if name.lower().startswith("fr") else "en"
