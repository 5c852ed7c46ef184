"""The workbook's sheet of the automatic judges checked on their human review samples
(issue 22): per judge and level, each figure computed from the judge's labels three ways
(the judge's, the human sample's, the prediction-powered estimate with its interval), the
judge's precision and recall per class, and the disagreements with the human's rationale.
Written only when the file holds a review sample; the numbers are ``metrics --json``'s
``judges`` (``reports.judge_figures``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rag_annotator.import_export.xlsx_summary import print_ready
from rag_annotator.metrics.judge_sample import JudgeSample

FRENCH = {
    "Judges": "Juges",
    "Judge": "Juge", "Level": "Niveau", "Figure": "Indicateur",
    "Judge's figure": "Chiffre du juge", "Human sample": "Échantillon humain",
    "Corrected": "Corrigé", "Interval low": "Intervalle bas",
    "Interval high": "Intervalle haut", "Reviewed": "Revus", "Judged": "Jugés",
    "Class": "Classe", "Precision": "Précision", "Recall": "Rappel",
    "Disagreements (human vs judge)": "Désaccords (humain contre juge)",
    "Unit": "Unité", "Human": "Humain", "Rationale": "Justification", "Text": "Texte",
    "Corrected figures: the judge's label over every unit plus the mean human − judge "
    "difference on the random sample, stratified by the judge's label and family "
    "(prediction-powered inference); 95% normal interval.":
        "Chiffres corrigés : le label du juge sur toutes les unités plus l'écart moyen "
        "humain − juge sur l'échantillon aléatoire, stratifié par label du juge et famille "
        "(inférence assistée par prédiction) ; intervalle normal à 95 %.",
}
#: The codes the sheet shows in words: levels, figures, classes (English, French).
CODES: dict[str, tuple[str, str]] = {
    "claims": ("claims", "affirmations"), "answers": ("answers", "réponses"),
    "relevance": ("relevance", "pertinence"),
    "supported_share": ("supported share of claims", "part d'affirmations étayées"),
    "contradicted_share": ("contradicted share of claims", "part d'affirmations contredites"),
    "validated_rate": ("validated answers", "réponses validées"),
    "faithfulness_mean": ("mean faithfulness", "fidélité moyenne"),
    "relevant_share": ("relevant share of pooled pairs", "part de paires pertinentes"),
    "supported": ("supported", "étayée"), "not_supported": ("not supported", "non étayée"),
    "contradicted": ("contradicted", "contredite"), "validated": ("validated", "validée"),
    "not_validated": ("not validated", "non validée"), "relevant": ("relevant", "pertinent"),
    "not_relevant": ("not relevant", "non pertinent"),
}


def _w(lang: str, text: str) -> str:
    return FRENCH.get(text, text) if lang == "fr" else text


def _code(lang: str, code: object) -> object:
    """A level, figure or class code in words (anything else as it is)."""
    pair = CODES.get(str(code)) if isinstance(code, str) else None
    return code if pair is None else pair[1 if lang == "fr" else 0]


def _pct(ws: Any, value: Any) -> Any:
    from openpyxl.cell import WriteOnlyCell

    cell = WriteOnlyCell(ws, value=value)
    if isinstance(value, float):
        cell.number_format = "0.0%"
    return cell


def write_judge_sheet(wb: Any, samples: Mapping[str, Mapping[str, JudgeSample]],
                      lang: str = "en") -> bool:
    """Add the sheet when the file has a review sample (``samples``: the file's figures,
    ``FileFigures.judges``); tell whether it did."""
    if not samples:
        return False
    ws = wb.create_sheet(_w(lang, "Judges"))
    print_ready(ws)
    ws.append([_w(lang, "Corrected figures: the judge's label over every unit plus the mean "
                        "human − judge difference on the random sample, stratified by the "
                        "judge's label and family (prediction-powered inference); 95% normal "
                        "interval.")])
    ws.append([_w(lang, h) for h in ("Judge", "Level", "Figure", "Judge's figure",
                                     "Human sample", "Corrected", "Interval low",
                                     "Interval high", "Reviewed", "Judged")])
    for judge, levels in sorted(samples.items()):
        for level, measured in levels.items():
            for measure, figure in measured.figures.items():
                ppi = figure.ppi
                ws.append([judge, _code(lang, level), _code(lang, measure),
                           _pct(ws, figure.naive),
                           _pct(ws, figure.human), _pct(ws, ppi and ppi.value),
                           _pct(ws, ppi and ppi.interval.low),
                           _pct(ws, ppi and ppi.interval.high),
                           0 if ppi is None else ppi.n_human, figure.n_judge])
    ws.append([])
    ws.append([_w(lang, h) for h in ("Judge", "Level", "Class", "Precision", "Recall")])
    for judge, levels in sorted(samples.items()):
        for level, measured in levels.items():
            for code, score in measured.classes.items():
                ws.append([judge, _code(lang, level), _code(lang, code),
                           _pct(ws, score.precision),
                           _pct(ws, score.recall)])
    ws.append([])
    ws.append([_w(lang, "Disagreements (human vs judge)")])
    ws.append([_w(lang, h) for h in ("Judge", "Level", "Unit", "Human", "Judge", "Rationale",
                                     "Text")])
    for judge, levels in sorted(samples.items()):
        for level, measured in levels.items():
            for d in measured.disagreements:
                where = " ".join(str(d[k]) for k in ("run", "case_key", "document_key",
                                                     "position") if d.get(k) is not None)
                ws.append([judge, _code(lang, level), where, _code(lang, d["human"]),
                           _code(lang, d["judge"]), d["rationale"], d.get("text", "")])
    return True
