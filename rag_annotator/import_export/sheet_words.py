"""The workbook's entity sheets in the reader's language, and back.

The native data exports (JSON, the CSV ``data`` profile) keep the file's machine names —
``cases``, ``reference_answer``, ``supported``, ``[]``, ``1``/``0`` — so scripts never depend
on anyone's language.  The workbook is for people: its entity sheets are named, headed and
filled in words (« Cas », « Réponse de référence », « étayée », one item per line, « oui » /
« non »).  :func:`sheet_title`, :func:`header` and :func:`encode` write them;
:func:`entity_of`, :func:`column_of` and :func:`decode` read them back, whatever the language
the workbook was written in (machine names too), so the ``xlsx`` import reads its own
workbooks exactly as before.

A value is encoded only where it can be decoded to the very same value: a list whose items
could not be told apart one per line (an empty item, an item holding a line break, a text
that reads as JSON) stays in its JSON spelling, and a word nobody wrote (a family of the
user's own) stays as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rag_annotator.reports.manager_words import EN as MANAGER_EN
from rag_annotator.reports.manager_words import FR as MANAGER_FR
from rag_annotator.reports.words import EN as REPORT_EN
from rag_annotator.reports.words import FAMILIES
from rag_annotator.reports.words import FR as REPORT_FR

LANGS = ("en", "fr")

#: Entity → (English title, French title); a title is at most 31 characters with room for
#: " (12)" when the entity needs more than one sheet.
TITLES: dict[str, tuple[str, str]] = {
    "cases": ("Cases", "Cas"), "documents": ("Documents", "Documents"),
    "expected_sources": ("Expected sources", "Sources attendues"),
    "runs": ("Runs", "Exécutions"), "retrieved": ("Retrieved documents", "Documents retrouvés"),
    "answers": ("Answers", "Réponses"), "judgments": ("Judgments", "Jugements"),
    "adjudications": ("Adjudications", "Arbitrages"), "claims": ("Claims", "Affirmations"),
    "answer_reviews": ("Answer reviews", "Relectures des réponses"),
    "trajectories": ("Trajectories", "Trajectoires"),
    "trajectory_steps": ("Trajectory steps", "Étapes des trajectoires"),
    "trajectory_reviews": ("Trajectory reviews", "Relectures des trajectoires"),
}

#: Column → (English header, French header), the same in every sheet that has it.
HEADERS: dict[str, tuple[str, str]] = {
    "key": ("Key", "Clé"), "kind": ("Kind", "Nature"), "question": ("Question", "Question"),
    "variants": ("Other wordings", "Autres formulations"),
    "reference_answer": ("Reference answer", "Réponse de référence"),
    "must_contain": ("Must contain", "Doit contenir"),
    "forbidden": ("Must never say", "Ne doit jamais dire"),
    "expected_behaviour": ("Expected behaviour", "Comportement attendu"),
    "family": ("Family", "Famille"), "tags": ("Tags", "Étiquettes"),
    "difficulty": ("Difficulty", "Difficulté"), "role": ("Role", "Rôle"),
    "notes": ("Notes", "Notes"), "status": ("Status", "Statut"), "author": ("Author", "Auteur"),
    "created_at": ("Created", "Créé le"), "updated_at": ("Updated", "Modifié le"),
    "expected_state": ("Expected final state", "État final attendu"),
    "forbidden_tools": ("Forbidden tools", "Outils interdits"),
    "required_tools": ("Required tools", "Outils requis"),
    "tool_order": ("Tool order", "Ordre des outils"),
    "max_steps": ("Step budget", "Budget d'étapes"),
    "max_tokens": ("Token budget", "Budget de jetons"),
    "max_seconds": ("Time budget (s)", "Budget de temps (s)"),
    "max_cost": ("Cost budget", "Budget de coût"),
    "extra": ("Other fields (JSON)", "Autres champs (JSON)"),
    "title": ("Title", "Titre"), "text": ("Text", "Texte"),
    "content_hash": ("Content fingerprint", "Empreinte du contenu"),
    "owner": ("Owner", "Responsable"), "rights": ("Who may read it", "Qui peut le lire"),
    "valid_from": ("Valid from", "Valable du"), "valid_until": ("Valid until", "Valable jusqu'au"),
    "version": ("Version", "Version"), "supersedes": ("Replaces", "Remplace"),
    "parent": ("Part of", "Extrait de"), "origin": ("Origin", "Origine"),
    "case": ("Case", "Cas"), "document": ("Document", "Document"),
    "span_start": ("Passage start", "Début du passage"),
    "span_end": ("Passage end", "Fin du passage"), "note": ("Note", "Note"),
    "name": ("Name", "Nom"), "model": ("Model", "Modèle"),
    "corpus_version": ("Documents version", "Version des documents"),
    "prompt_version": ("Instructions version", "Version des consignes"),
    "index_version": ("Search index version", "Version de l'index de recherche"),
    "run": ("Run", "Exécution"), "rank": ("Rank", "Rang"), "score": ("Score", "Score"),
    "latency_ms": ("Response time (ms)", "Temps de réponse (ms)"), "cost": ("Cost", "Coût"),
    "tokens": ("Tokens", "Jetons"),
    "assessor": ("Reviewer", "Relecteur"),
    "grade": ("Relevance (0 = not relevant)", "Pertinence (0 = non pertinent)"),
    "seconds": ("Seconds", "Secondes"), "position": ("Position", "Position"),
    "verdict": ("Verdict", "Verdict"), "rationale": ("Why", "Pourquoi"),
    "outcome": ("What the system did", "Ce qu'a fait le système"),
    "validated": ("Validated", "Validée"),
    "failure_categories": ("Why it failed", "Causes d'échec"),
    "must_contain_found": ("Must-contain points found", "Points attendus trouvés"),
    "forbidden_present": ("Says something forbidden", "Contient un propos interdit"),
    "trial": ("Trial", "Essai"), "final_state": ("Final state", "État final"),
    "final_answer": ("Final answer", "Réponse finale"), "reward": ("Reward", "Récompense"),
    "tool": ("Tool", "Outil"), "arguments": ("Arguments", "Arguments"),
    "result": ("Result", "Résultat"), "task_success": ("Task completed", "Tâche réussie"),
    "success_reason": ("Why (task)", "Pourquoi (tâche)"),
    "path_acceptable": ("Path acceptable", "Chemin acceptable"),
    "path_reason": ("Why (path)", "Pourquoi (chemin)"),
    "pages": ("Page starts (JSON)", "Débuts de page (JSON)"),
    "headings": ("Headings (JSON)", "Titres (JSON)"),
    "file": ("Kept file (fingerprint)", "Fichier conservé (empreinte)"),
    "located": ("How it was found", "Comment il a été retrouvé"),
    "match_score": ("Match score", "Score de correspondance"),
    "page_count": ("Pages", "Pages"),
}
#: Where a column means something else in one sheet: (entity, column) → headers.
HEADER_OVERRIDES: dict[tuple[str, str], tuple[str, str]] = {
    ("cases", "key"): ("Case", "Cas"), ("documents", "key"): ("Document", "Document"),
    ("runs", "name"): ("Run", "Exécution"), ("adjudications", "assessor"):
        ("Adjudicator", "Arbitre"), ("documents", "status"): ("Status", "Statut"),
    ("trajectory_steps", "result"): ("Tool result", "Résultat de l'outil"),
    ("documents", "kind"): ("File type", "Type de fichier"),
    ("documents", "span_start"): ("Start in its document", "Début dans son document"),
    ("documents", "span_end"): ("End in its document", "Fin dans son document"),
}

_YES_NO = {"1": ("yes", "oui"), "0": ("no", "non")}


def _words_of(codes: Mapping[str, str], fr: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    return {code: (en, fr[code]) for code, en in codes.items()}


#: Column → code → (English word, French word): the values the sheets write in words.
ENUMS: dict[str, dict[str, tuple[str, str]]] = {
    "kind": {"rag": ("question", "question"), "agent": ("agent task", "tâche d'agent")},
    "expected_behaviour": {"answer": ("answer", "répondre"),
                           "abstain": ("decline", "s'abstenir"),
                           "escalate": ("hand over", "transmettre")},
    "family": {f: (REPORT_EN[f], REPORT_FR[f]) for f in FAMILIES},
    "difficulty": {"easy": ("easy", "facile"), "medium": ("medium", "moyenne"),
                   "hard": ("hard", "difficile")},
    "verdict": {"supported": ("supported", "étayée"),
                "not_supported": ("not supported", "non étayée"),
                "contradicted": ("contradicted", "contredite")},
    "outcome": {"answered": ("answered", "a répondu"),
                "abstained": ("declined", "s'est abstenu"),
                "escalated": ("handed over", "a transmis")},
    "located": {"exact": ("exactly", "à l'identique"),
                "normalised": ("once normalised", "une fois normalisé"),
                "fuzzy": ("approximately", "approximativement")},
    "origin": {"corpus": ("from the corpus", "du corpus"),
               "placeholder": ("placeholder", "à compléter"),
               "unmatched_context": ("context without a document",
                                     "contexte sans document")},
    "failure_categories": _words_of(
        {c: MANAGER_EN[c] for c in ("factual_error", "unsupported_claim",
                                    "non_justifying_citation", "outdated_source",
                                    "unauthorised_source", "unwarranted_abstention",
                                    "missing_abstention", "forbidden_content")}, MANAGER_FR),
}
#: (entity, column) → words where the column's values differ by sheet (a document's
#: ``kind`` is its file type, a text: no words).
ENUM_OVERRIDES: dict[tuple[str, str], dict[str, tuple[str, str]]] = {
    ("documents", "kind"): {},
    ("cases", "status"): {"draft": ("draft", "brouillon"), "reviewed": ("reviewed", "relu"),
                          "approved": ("approved", "approuvé"),
                          "retired": ("retired", "retiré")},
    ("documents", "status"): {"current": ("current", "en vigueur"),
                              "outdated": ("outdated", "obsolète"),
                              "withdrawn": ("withdrawn", "retiré")},
}
#: Columns of 0/1 (or empty): written "yes"/"no", « oui » / « non ».
BOOLEANS = frozenset({"validated", "forbidden_present", "task_success", "path_acceptable"})
#: Columns holding a JSON list of texts (or of codes: ``failure_categories``; of true /
#: false / null: ``must_contain_found``): written one item per line.
LISTS = frozenset({"variants", "must_contain", "forbidden", "tags", "rights",
                   "failure_categories", "must_contain_found", "forbidden_tools",
                   "required_tools", "tool_order"})
#: JSON objects whose empty value ``{}`` is written as an empty cell (the column never
#: holds null).
EMPTY_OBJECTS = frozenset({"extra", "expected_state"})
#: Every column whose values the sheets write otherwise than the data exports (with the
#: columns of :data:`ENUMS` and :data:`ENUM_OVERRIDES`).
WORDED = BOOLEANS | LISTS | EMPTY_OBJECTS
#: must_contain_found's items in words (None: not checked).
_FOUND = {True: ("yes", "oui"), False: ("no", "non"), None: ("?", "?")}


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "fr" else pair[0]


def sheet_title(entity: str, lang: str, part: int = 1) -> str:
    """The sheet of ``entity`` (its ``part``-th when it takes several)."""
    title = _pick(TITLES[entity], lang)
    return title if part == 1 else f"{title} ({part})"


def header(entity: str, column: str, lang: str) -> str:
    pair = HEADER_OVERRIDES.get((entity, column)) or HEADERS.get(column)
    return column if pair is None else _pick(pair, lang)


def enum_of(entity: str, column: str) -> dict[str, tuple[str, str]] | None:
    """The words of a column's codes in one sheet (None: its values are not codes)."""
    if (entity, column) in ENUM_OVERRIDES:
        return ENUM_OVERRIDES[(entity, column)] or None
    return ENUMS.get(column)


def _as_lines(items: list[Any]) -> str | None:
    """``items`` one per line, or None when the lines could not give them back."""
    if not all(isinstance(i, str) and i and "\n" not in i and "\r" not in i for i in items):
        return None
    text = "\n".join(items)
    try:
        json.loads(text)
    except ValueError:
        return text
    return None  # it would read back as JSON


def encode(entity: str, column: str, value: Any, lang: str) -> Any:
    """A machine value of the flat table (JSON text for lists and objects) as the sheet
    writes it."""
    if value is None:
        return None
    if column in BOOLEANS and value in (0, 1):
        return _pick(_YES_NO[str(int(value))], lang)
    words = enum_of(entity, column)
    if column in LISTS and isinstance(value, str):
        items = json.loads(value)
        if not items:
            return ""
        if column == "must_contain_found":
            return "\n".join(_pick(_FOUND[i], lang) for i in items) \
                if all(i in _FOUND for i in items) else value
        if words is not None:
            items = [_pick(words[i], lang) if i in words else i for i in items]
        return _as_lines(items) or value
    if column in EMPTY_OBJECTS and value == "{}":
        return ""
    if words is not None and isinstance(value, str) and value in words:
        return _pick(words[value], lang)
    return value


# -- reading back --------------------------------------------------------------------------
def _reverse(pairs: Mapping[str, tuple[str, str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for code, words in pairs.items():
        for word in words:
            out.setdefault(word.casefold(), code)
    return out


_TITLES_BACK = {title.casefold(): entity for entity, pair in TITLES.items() for title in pair}


def entity_of(title: str) -> tuple[str, int] | None:
    """(entity, part) of a sheet title in any language (machine names included), or None."""
    name, part = title, 1
    if title.endswith(")") and " (" in title:
        head, _sep, number = title[:-1].rpartition(" (")
        if number.isdigit():
            name, part = head, int(number)
    entity = _TITLES_BACK.get(name.casefold()) or (name if name in TITLES else None)
    return None if entity is None else (entity, part)


def column_of(entity: str, text: str, columns: tuple[str, ...]) -> str:
    """The machine name of a header cell of ``entity`` (``columns``: the entity's), in any
    language; a header nobody wrote is returned as it is (a column someone added)."""
    if text in columns:
        return text
    folded = text.casefold()
    for column in columns:
        if any(folded == w.casefold() for w in (
                *(HEADER_OVERRIDES.get((entity, column)) or ()), *HEADERS.get(column, ()))):
            return column
    return text


def decode(entity: str, column: str, value: Any) -> Any:
    """A cell of the sheet back to the flat table's machine value (the inverse of
    :func:`encode`, in either language)."""
    if column in EMPTY_OBJECTS and value in ("", None):
        return "{}"
    if not isinstance(value, str):
        return value
    if column in BOOLEANS:
        return {"yes": 1, "oui": 1, "no": 0, "non": 0}.get(value.strip().casefold(), value)
    words = enum_of(entity, column)
    if column in LISTS:
        return _decode_list(column, value, words)
    if words is not None:
        return _reverse(words).get(value.casefold(), value)
    return value


def _decode_list(column: str, value: str, words: Mapping[str, tuple[str, str]] | None) -> str:
    if value == "":
        return "[]"
    if value.startswith("["):
        try:
            if isinstance(json.loads(value), list):
                return value  # written in JSON: items lines could not hold
        except ValueError:
            pass
    lines = value.split("\n")
    if column == "must_contain_found":
        back = {w.casefold(): flag for flag, pair in _FOUND.items() for w in pair}
        found = [back.get(line.strip().casefold(), line) for line in lines]
        return json.dumps(found, ensure_ascii=False)
    if words is not None:
        reverse = _reverse(words)
        lines = [reverse.get(line.casefold(), line) for line in lines]
    return json.dumps(lines, ensure_ascii=False)
