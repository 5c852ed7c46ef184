"""The words of the manager's page (the workbook's first sheet and the one-page PDF), in
English and French: plain sentences for a reader who does not know the tool, its codes or
the evaluation jargon.  ``tests/reports/test_manager_page.py`` fails when a key is missing in
one language.  Family names come from ``reports.words``.
"""

from __future__ import annotations

from collections.abc import Callable

EN: dict[str, str] = {
    "sheet": "Summary",
    "title": "Gold set “{name}”: where it stands",
    "subtitle": "File {file} · written on {date}",
    "release": "frozen release {release}",
    "no_release": "current content (no frozen release)",
    "tested": "What was tested",
    "tested_cases": "{n} questions, by kind: {families}.",
    "tested_runs": "{n} versions of the system tested, in the order they were made:",
    "run_line": "{name} — {details}",
    "run_made": "made on {date}",
    "model": "model {value}", "corpus": "documents {value}", "index": "search index {value}",
    "prompt": "instructions {value}",
    "baseline_mark": " (baseline)",
    "headlines": "Headline figures of {run}",
    "headlines_note": ("Each figure is given with the range where the true figure lies "
                       "({level} confidence) given how many questions were counted: a wide range "
                       "means too few questions to conclude."),
    "between": "between {low} and {high}",
    "of_n": "{k} of {n} {unit}",
    "not_measurable": "not measurable yet (0 {unit})",
    "h_success": "Questions answered correctly",
    "h_quality": "Answers given that are correct",
    "h_coverage": "Questions that got an answer",
    "h_found": "A right document among the first 10 results",
    "h_abstention": "Declined or handed over when it should",
    "h_task": "Agent tasks completed ({run})",
    "u_reviewed": "reviewed questions", "u_answers": "answers given",
    "u_judged": "questions with judged documents", "u_abstention": "questions that called for it",
    "u_tasks": "tasks checked",
    "chart": "Questions answered correctly, by kind of question ({run})",
    "chart_none": "no reviewed question",
    "changes": "Since the baseline ({baseline})",
    "changes_none": "Only one version of the system: nothing to compare yet.",
    "worse": "Worse, beyond what chance explains: {what}.",
    "no_worse": "Nothing is worse beyond what chance explains.",
    "moved": "{label}: {before} of {n_before} → {after} of {n_after} ({points}).",
    "points": "{sign}{value} points", "unchanged": "unchanged",
    "all_questions": "all questions",
    "changed_fields": "What changed between the two versions: {fields}.",
    "field_change": "{field}: {before} → {after}",
    "f_model": "model", "f_corpus_version": "documents", "f_index_version": "search index",
    "f_prompt_version": "instructions", "f_notes": "notes",
    "lost_cases": "Questions no longer answered correctly: {cases}.",
    "failures": "Main reasons for failures ({run})",
    "failures_reviewed": "Noted by the reviewers: {list}.",
    "failures_diagnosed": "Found by the automatic checks: {list}.",
    "failures_none": "No failure found so far.",
    "count_questions": "{what} ({n})",
    "pending": "Not yet reviewed",
    "pending_answers": "{n} answers of {run} not yet reviewed (they count in no figure above).",
    "pending_pairs": "{n} of {total} question–document pairs not yet judged{disputed}.",
    "pending_disputed": ", {n} of them disputed between reviewers",
    "pending_claims": "{n} of {total} statements of the answers not yet checked.",
    "pending_sample": "{n} of {total} items drawn to check the automatic judge {judge} not yet "
                      "reviewed.",
    "pending_none": "Everything has been reviewed.",
    "more": "… and {n} more (see the workbook)",
    "details": "Details: the other sheets of the workbook.",
    "col_figure": "Figure", "col_value": "Value", "col_low": "Low end",
    "col_high": "High end", "col_counted": "Counted", "col_of": "Out of",
    "col_words": "In words", "col_kind": "Kind of question",
    # what an answer failed on, as the reviewers note it
    "factual_error": "factual error", "unsupported_claim": "statement the documents do not "
    "support", "non_justifying_citation": "citation that does not back the answer",
    "outdated_source": "outdated document used", "unauthorised_source": "document the user "
    "may not read", "unwarranted_abstention": "declined a question it could answer",
    "missing_abstention": "answered when it should have declined",
    "forbidden_content": "said something it must never say",
    # where the automatic diagnosis places a failure
    "access": "a document the user may not read reached the answer",
    "retrieval": "the right document was not found",
    "abstention": "answered or declined when it should not have",
    "generation": "the answer says what the documents do not",
    # the retrieval measures, in words
    "P@5": "relevant share of the first 5 results", "P@10": "relevant share of the first 10 "
    "results", "R@10": "share of the relevant documents found in the first 10",
    "RR": "position of the first relevant result", "nDCG@10": "order of the first 10 results",
    "AP": "order of all the relevant results", "Judged@10": "share of the first 10 results "
    "judged", "Success@10": "a right document among the first 10 results",
    "validated": "questions answered correctly",
}

FR: dict[str, str] = {
    "sheet": "Synthèse",
    "title": "Jeu de référence « {name} » : où en est-on ?",
    "subtitle": "Fichier {file} · établi le {date}",
    "release": "version figée {release}",
    "no_release": "contenu actuel (pas de version figée)",
    "tested": "Ce qui a été testé",
    "tested_cases": "{n} questions, par nature : {families}.",
    "tested_runs": "{n} versions du système testées, dans l'ordre où elles ont été faites :",
    "run_line": "{name} — {details}",
    "run_made": "faite le {date}",
    "model": "modèle {value}", "corpus": "documents {value}",
    "index": "index de recherche {value}", "prompt": "consignes {value}",
    "baseline_mark": " (référence)",
    "headlines": "Chiffres clés de {run}",
    "headlines_note": ("Chaque chiffre est donné avec la fourchette où se situe le vrai chiffre "
                       "(confiance à {level}) compte tenu du nombre de questions comptées : une "
                       "fourchette large signifie trop peu de questions pour conclure."),
    "between": "entre {low} et {high}",
    "of_n": "{k} sur {n} {unit}",
    "not_measurable": "pas encore mesurable (0 {unit})",
    "h_success": "Questions traitées correctement",
    "h_quality": "Réponses données qui sont justes",
    "h_coverage": "Questions qui ont reçu une réponse",
    "h_found": "Un bon document parmi les 10 premiers résultats",
    "h_abstention": "Refus ou transmission à bon escient",
    "h_task": "Tâches de l'agent réussies ({run})",
    "u_reviewed": "questions relues", "u_answers": "réponses données",
    "u_judged": "questions aux documents jugés", "u_abstention": "questions qui l'exigeaient",
    "u_tasks": "tâches vérifiées",
    "chart": "Questions traitées correctement, par nature de question ({run})",
    "chart_none": "aucune question relue",
    "changes": "Depuis la référence ({baseline})",
    "changes_none": "Une seule version du système : rien à comparer pour l'instant.",
    "worse": "En recul, au-delà du hasard : {what}.",
    "no_worse": "Rien n'est en recul au-delà de ce que le hasard explique.",
    "moved": "{label} : {before} sur {n_before} → {after} sur {n_after} ({points}).",
    "points": "{sign}{value} points", "unchanged": "inchangé",
    "all_questions": "toutes les questions",
    "changed_fields": "Ce qui a changé entre les deux versions : {fields}.",
    "field_change": "{field} : {before} → {after}",
    "f_model": "modèle", "f_corpus_version": "documents", "f_index_version": "index de recherche",
    "f_prompt_version": "consignes", "f_notes": "notes",
    "lost_cases": "Questions qui ne sont plus traitées correctement : {cases}.",
    "failures": "Principales causes d'échec ({run})",
    "failures_reviewed": "Relevées par les relecteurs : {list}.",
    "failures_diagnosed": "Trouvées par les contrôles automatiques : {list}.",
    "failures_none": "Aucun échec relevé pour l'instant.",
    "count_questions": "{what} ({n})",
    "pending": "Pas encore relu",
    "pending_answers": "{n} réponses de {run} pas encore relues (elles ne comptent dans aucun "
                       "chiffre ci-dessus).",
    "pending_pairs": "{n} paires question–document sur {total} pas encore jugées{disputed}.",
    "pending_disputed": ", dont {n} en désaccord entre relecteurs",
    "pending_claims": "{n} affirmations des réponses sur {total} pas encore vérifiées.",
    "pending_sample": "{n} éléments sur {total} tirés pour contrôler le juge automatique "
                      "{judge} pas encore relus.",
    "pending_none": "Tout a été relu.",
    "more": "… et {n} de plus (voir le classeur)",
    "details": "Le détail : les autres feuilles du classeur.",
    "col_figure": "Chiffre", "col_value": "Valeur", "col_low": "Bas de la fourchette",
    "col_high": "Haut de la fourchette", "col_counted": "Comptées", "col_of": "Sur",
    "col_words": "En clair", "col_kind": "Nature de question",
    "factual_error": "erreur factuelle", "unsupported_claim": "affirmation que les documents "
    "n'étayent pas", "non_justifying_citation": "citation qui ne justifie pas la réponse",
    "outdated_source": "document périmé utilisé", "unauthorised_source": "document que "
    "l'utilisateur n'a pas le droit de lire", "unwarranted_abstention": "refus d'une question "
    "à laquelle il pouvait répondre", "missing_abstention": "réponse là où il fallait refuser",
    "forbidden_content": "propos qu'il ne doit jamais tenir",
    "access": "un document que l'utilisateur n'a pas le droit de lire a servi à la réponse",
    "retrieval": "le bon document n'a pas été trouvé",
    "abstention": "réponse ou refus à mauvais escient",
    "generation": "la réponse dit ce que les documents ne disent pas",
    "P@5": "part de résultats pertinents parmi les 5 premiers",
    "P@10": "part de résultats pertinents parmi les 10 premiers",
    "R@10": "part des documents pertinents trouvés parmi les 10 premiers",
    "RR": "rang du premier résultat pertinent", "nDCG@10": "ordre des 10 premiers résultats",
    "AP": "ordre de l'ensemble des résultats pertinents",
    "Judged@10": "part des 10 premiers résultats déjà jugés",
    "Success@10": "un bon document parmi les 10 premiers résultats",
    "validated": "questions traitées correctement",
}

CATALOGUES = {"en": EN, "fr": FR}


def manager_words(lang: str) -> Callable[[str], str]:
    """The lookup of ``lang`` (``fr`` or ``en``; anything else is English); a key missing in
    both catalogues is shown as it is (a measure of the user's own, say)."""
    catalogue = CATALOGUES.get(lang, EN)
    return lambda key: catalogue.get(key, EN.get(key, key))
