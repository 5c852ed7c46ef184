"""The workbook's summary sheet as rows: a rendering of each run's
:class:`~rag_annotator.reports.run_figures.RunFigures` (answers per family, agent figures,
retrieval means under ``trec``) and of the gold set's judging coverage and agreement, worded
in English or French.  ``import_export.xlsx_export`` writes these rows as cells.

A row is a list of cells; a cell is a plain value or a ``(kind, value)`` tuple: ``title``
(a section title), ``bold``, and the number formats ``pct``, ``num``, ``mean``, ``cost``
(None there means "not computable").
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from rag_annotator.metrics import DEFAULT_MEASURES, Policy
from rag_annotator.metrics.agreement import JudgmentRow, agreement_json
from rag_annotator.reports.run_figures import (
    AGENTS,
    ANSWERS,
    RETRIEVAL,
    FigureOptions,
    RunFigures,
    build,
)
from rag_annotator.storage.reads_exchange import Scope
from rag_annotator.storage.store import GoldSetStore

#: What the summary shows of each run: the main measures under ``trec``, no diagnosis.
SUMMARY_OPTIONS = FigureOptions(policy=Policy.TREC, measures=DEFAULT_MEASURES,
                                parts=frozenset({RETRIEVAL, ANSWERS, AGENTS}))

SUMMARY = "Summary"
RETRIEVAL_TITLE = ("Retrieval measures (mean over the judged cases the run covers, a value "
                   "not defined counting 0, as in trec_eval); "
                   "unjudged documents: policy 'trec' — counted as not relevant, as trec_eval "
                   "does; documents outside a case's pool count as not relevant")
AGENTS_TITLE = ("Agents of run {run}, per family (a review mark overrides the automatic "
                "check; undecided verdicts are left out of the rates)")
VIOLATIONS_TITLE = ("Violation rate per invariant, run {run} (broken / checked; a budget the "
                    "trajectory gives no figure for is unknown)")

#: The summary sheet in French (managers read it in their language; ``--locale fr``, else
#: the system's).  Entity sheets keep the column names the import reads.
FRENCH: dict[str, str] = {
    SUMMARY: "Synthèse", "Gold set {name}": "Jeu de référence {name}", "file": "fichier",
    "cases": "cas", "documents": "documents", "runs": "exécutions", "run": "exécution",
    "Answers of run {run}, per family": "Réponses de l'exécution {run}, par famille",
    "family": "famille", "tested": "testés", "produced": "produites", "validated": "validées",
    "quality": "qualité", "coverage": "couverture", "success": "succès",
    "all families": "toutes les familles", "not computable": "non calculable",
    RETRIEVAL_TITLE: ("Mesures de recherche (moyenne sur les cas jugés que le run couvre, une "
                      "valeur non définie comptant 0, comme dans trec_eval) ; "
                      "documents non jugés : politique 'trec' — comptés non pertinents, comme "
                      "le fait trec_eval ; un document hors du pool d'un cas compte comme non "
                      "pertinent"),
    "Judging coverage (effective labels over every pair of the pools)":
        "Couverture du jugement (étiquettes effectives sur toutes les paires des pools)",
    "relevant": "pertinent", "not relevant": "non pertinent", "unjudged": "non jugé",
    "of which disputed": "dont en désaccord",
    "Agreement between assessors (binary: relevant = grade ≥ 1)":
        "Accord entre annotateurs (binaire : pertinent = note ≥ 1)",
    "assessors": "annotateurs", "pairs judged by two or more": "paires jugées par deux ou plus",
    "agreement": "accord", "Cohen's kappa": "kappa de Cohen",
    "Krippendorff's alpha": "alpha de Krippendorff",
    AGENTS_TITLE: ("Agents de l'exécution {run}, par famille (la marque d'un relecteur "
                   "l'emporte sur le contrôle automatique ; les verdicts indécis sont hors des "
                   "taux)"),
    "trajectories": "trajectoires", "task success": "succès de la tâche",
    "path acceptable": "chemin acceptable", "both": "les deux", "undecided": "indécis",
    "mean steps": "étapes (moy.)", "mean tokens": "tokens (moy.)",
    "mean seconds": "secondes (moy.)", "total cost": "coût total",
    "cost per success": "coût par succès", "overruled (success)": "infirmés (succès)",
    "overruled (path)": "infirmés (chemin)",
    VIOLATIONS_TITLE: ("Taux de violation par invariant, exécution {run} (violé / vérifié ; un "
                       "budget dont la trajectoire ne donne pas le chiffre est inconnu)"),
    "invariant": "invariant", "broken": "violé", "checked": "vérifié", "unknown": "inconnu",
    "violation rate": "taux de violation",
    "ordinary": "ordinaire", "ambiguous": "ambigu", "sensitive": "sensible",
    "out_of_scope": "hors périmètre", "no_answer": "pas de réponse dans le corpus",
    "conflicting_sources": "sources contradictoires", "outdated_document": "document obsolète",
    "prompt_injection": "injection de prompt", "access_restricted": "accès restreint",
}


def words(lang: str) -> Callable[[str], str]:
    """The summary's wording in ``lang`` (English: as written)."""
    if lang == "fr":
        return lambda text: FRENCH.get(text, text)
    return lambda text: text


def run_figures(store: GoldSetStore, scope: Scope) -> list[RunFigures]:
    """The figures of every run in ``scope`` (every run when it names none), by name."""
    names = store.names_of("runs")
    return [build(store, run, SUMMARY_OPTIONS) for run in names
            if not scope.runs or run in scope.runs]


def summary_rows(store: GoldSetStore, scope: Scope, lang: str = "en") -> list[list[Any]]:
    """The summary sheet's rows (see the module docstring); ``lang`` ``fr`` words it in
    French (the manager's language)."""
    t = words(lang)
    rows: list[list[Any]] = [
        [("title", t("Gold set {name}").format(name=store.meta("name") or store.path.stem))],
        [t("file"), store.path.name],
        [t("cases"), store.count("cases"), t("documents"), store.count("documents"), t("runs"),
         store.count("runs")],
        [],
    ]
    families = set(scope.families)
    figures = run_figures(store, scope)
    for run in figures:
        rows += answer_rows(run, families, lang)
    agent_runs = set(store.trajectory_run_names())
    for run in figures:
        if run.run in agent_runs:
            rows += agent_rows(run, families, lang)
    rows += retrieval_rows(figures, lang)
    rows += judging_rows(store.judgment_counts(), lang)
    rows += agreement_rows(agreement_json(JudgmentRow(*r) for r in store.judgment_rows()),
                           lang)
    return rows


def answer_rows(figures: RunFigures, families: Collection[str],
                lang: str = "en") -> list[list[Any]]:
    """One run's answers per family (none for a run with no retrieved list and no answer:
    nothing for the RAG figures)."""
    if not figures.answers.items:
        return []
    t = words(lang)
    answers = figures.answers.to_json()
    rows: list[list[Any]] = [
        [("title", t("Answers of run {run}, per family").format(run=figures.run))],
        [t(w) for w in ("family", "tested", "produced", "validated", "quality", "coverage",
                        "success")]]
    per_family: dict[str, dict[str, Any]] = answers["per_family"]  # type: ignore[assignment]
    for family, d in per_family.items():
        if (families and family not in families) or not d["tested"]:
            continue  # families this run was not tested on say nothing
        rows.append([t(family), d["tested"], d["produced"], d["validated"],
                     ("pct", d["quality"]), ("pct", d["coverage"]), ("pct", d["success"])])
    o: dict[str, Any] = answers["overall"]  # type: ignore[assignment]
    rows.append([("bold", t("all families")), o["tested"], o["produced"], o["validated"],
                 ("pct", o["quality"]), ("pct", o["coverage"]), ("pct", o["success"])])
    rows.append([])
    return rows


def agent_rows(figures: RunFigures, families: Collection[str],
               lang: str = "en") -> list[list[Any]]:
    """The summary's agent block of one run: figures per family, then per invariant."""
    t = words(lang)
    run, summary = figures.run, figures.agents
    rows: list[list[Any]] = [
        [("title", t(AGENTS_TITLE).format(run=run))],
        [t(w) for w in ("family", "trajectories", "task success", "path acceptable", "both",
                        "undecided", "mean steps", "mean tokens", "mean seconds", "total cost",
                        "cost per success", "overruled (success)", "overruled (path)")]]
    groups = [(f, g) for f, g in summary.per_family.items() if not families or f in families]
    for label, group in [*((t(f), g) for f, g in groups),
                         (("bold", t("all families")), summary.overall)]:
        data: dict[str, Any] = group.to_json()
        rows.append([label, data["trajectories"], ("pct", data["task_success"]["rate"]),
                     ("pct", data["path_acceptable"]["rate"]), ("pct", data["both"]["rate"]),
                     data["task_success"]["undecided"], ("mean", data["mean_steps"]),
                     ("mean", data["mean_tokens"]), ("mean", data["mean_seconds"]),
                     ("cost", data["total_cost"]), ("cost", data["cost_per_success"]),
                     data["overruled"]["task_success"], data["overruled"]["path_acceptable"]])
    violations = summary.overall.violations
    if violations:
        rows.append([("title", t(VIOLATIONS_TITLE).format(run=run))])
        rows.append([t(w) for w in ("invariant", "broken", "checked", "unknown",
                                    "violation rate")])
        for code, v in violations.items():
            rows.append([code, len(v.broken_cases), len(v.checked_cases),
                         len(v.unknown_cases), ("pct", v.rate)])
    rows.append([])
    return rows


def retrieval_rows(figures: Sequence[RunFigures], lang: str = "en") -> list[list[Any]]:
    """The main measures' means of every run with retrieved lists (an agent run has none)."""
    t = words(lang)
    reports = [(f.run, f.report) for f in figures if f.report.per_query]
    if not reports:
        return []
    rows: list[list[Any]] = [[("title", t(RETRIEVAL_TITLE))],
                             [t("run"), t("cases"), *DEFAULT_MEASURES]]
    for run, report in reports:
        rows.append([run, report.cases, *(("num", report.mean[m]) for m in report.measures)])
    rows.append([])
    return rows


def judging_rows(counts: dict[str, int], lang: str = "en") -> list[list[Any]]:
    """Judging coverage of the pools: pairs by effective label (``store.judgment_counts``)."""
    t = words(lang)
    return [[("title", t("Judging coverage (effective labels over every pair of the "
                         "pools)"))],
            [t(w) for w in ("relevant", "not relevant", "unjudged", "of which disputed")],
            [counts["relevant"], counts["not_relevant"], counts["unjudged"],
             counts["disputed"]],
            []]


def agreement_rows(agreement: dict[str, Any], lang: str = "en") -> list[list[Any]]:
    """Agreement between assessors (``metrics.agreement.agreement_json``)."""
    t = words(lang)
    return [[("title", t("Agreement between assessors (binary: relevant = grade ≥ 1)"))],
            [t(w) for w in ("assessors", "pairs judged by two or more", "agreement",
                            "Cohen's kappa", "Krippendorff's alpha")],
            [agreement["assessors"], agreement["units"], ("pct", _share(agreement["percent"])),
             ("num", agreement["kappa"]), ("num", agreement["alpha"])]]


def _share(percent: Any) -> float | None:
    return None if percent is None else float(percent) / 100.0
