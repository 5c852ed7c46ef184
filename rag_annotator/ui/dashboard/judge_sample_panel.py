"""The Dashboard's panel of an automatic judge measured on its human review sample (issue 22),
beside the agreement between assessors.

For each judge and level with a sample: the figures computed from the judge's labels three
ways — the judge's own (naive), the human sample's, and the prediction-powered estimate with
its interval (``FileFigures.judges``: file-wide, the numbers ``metrics --json`` prints
under ``judges``) — then the judge's precision and recall per class against the humans, and a note
with the sample's progress, accuracy, kappa and the units verified outside the sample (never
mixed in).  Press Q in Verify to review the sample's claims blind.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

from rag_annotator.metrics.intervals import Interval
from rag_annotator.metrics.judge_sample import JudgeSample
from rag_annotator.ui import labels
from rag_annotator.ui.dashboard.format import decimals, pct, translate
from rag_annotator.ui.dashboard.widgets import Cell, FigureTable


def measure_title(measure: str) -> str:
    """A corrected figure's name, translated."""
    titles = {
        "supported_share": translate("JudgeSamplePanel", "Supported share of claims"),
        "contradicted_share": translate("JudgeSamplePanel", "Contradicted share of claims"),
        "validated_rate": translate("JudgeSamplePanel", "Validated answers"),
        "faithfulness_mean": translate("JudgeSamplePanel", "Mean faithfulness"),
        "relevant_share": translate("JudgeSamplePanel", "Relevant share of pooled pairs"),
    }
    return titles.get(measure, measure)


def level_title(level: str) -> str:
    """A sample level, translated."""
    return {"claims": translate("JudgeSamplePanel", "claims"),
            "answers": translate("JudgeSamplePanel", "answers"),
            "relevance": translate("JudgeSamplePanel", "relevance")}.get(level, level)


def class_title(code: str) -> str:
    """A class of the judge's labels, translated."""
    if code in ("supported", "not_supported", "contradicted"):
        return labels.verdict(code)
    return {"validated": translate("JudgeSamplePanel", "validated"),
            "not_validated": translate("JudgeSamplePanel", "not validated"),
            "relevant": translate("JudgeSamplePanel", "relevant"),
            "not_relevant": translate("JudgeSamplePanel", "not relevant")}.get(code, code)


def interval_text(interval: Interval | None) -> str:
    return "—" if interval is None else f"{pct(interval.low)} – {pct(interval.high)}"


def _cell(text: str, tip: str = "") -> Cell:
    return (text, None, tip)


class JudgeLevelBox(QGroupBox):
    """One judge at one level: corrected figures, per-class scores, a note."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.figures = FigureTable()
        self.classes = FigureTable()
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        for widget in (self.figures, self.classes, self.note):
            layout.addWidget(widget)
        layout.addStretch(1)  # the note right under the tables

    def show_sample(self, measured: JudgeSample) -> None:
        self.setTitle(translate("JudgeSamplePanel", "Judge %1 · %2").replace("%1", measured.judge)
                      .replace("%2", level_title(measured.level)))
        rows = []
        for measure, figure in measured.figures.items():
            ppi = figure.ppi
            rows.append((measure_title(measure), [
                _cell(pct(figure.naive),
                      translate("JudgeSamplePanel", "from the judge's labels alone")),
                _cell(pct(figure.human),
                      translate("JudgeSamplePanel", "from the reviewed sample alone")),
                _cell(pct(None if ppi is None else ppi.value), translate(
                    "JudgeSamplePanel", "prediction-powered: the judge's figure corrected by the "
                    "sample")),
                _cell(interval_text(None if ppi is None else ppi.interval)),
                _cell(f"{0 if ppi is None else ppi.n_human} / {figure.n_judge}")]))
        self.figures.fill([translate("JudgeSamplePanel", "Judge"),
                           translate("JudgeSamplePanel", "Human sample"),
                           translate("JudgeSamplePanel", "Corrected"),
                           translate("JudgeSamplePanel", "95% interval"),
                           translate("JudgeSamplePanel", "Reviewed / judged")], rows)
        self.classes.fill([translate("JudgeSamplePanel", "Precision"),
                           translate("JudgeSamplePanel", "interval"),
                           translate("JudgeSamplePanel", "Recall"),
                           translate("JudgeSamplePanel", "interval ")], [
            (class_title(code), [_cell(pct(s.precision)), _cell(interval_text(s.precision_ci)),
                                 _cell(pct(s.recall)), _cell(interval_text(s.recall_ci))])
            for code, s in measured.classes.items()])
        kappa = decimals(measured.kappa, 2)
        outside = int(measured.outside.get("labelled", 0))
        self.note.setText(
            translate("JudgeSamplePanel",
                      "%1 of %2 sampled units reviewed (%3 to go, Q in Verify); "
                      "judge's accuracy %4 (%5), κ %6; %7 disagreement(s). %8 unit(s) "
                      "verified outside the sample are not counted.")
            .replace("%1", str(measured.reviewed)).replace("%2", str(measured.sampled))
            .replace("%3", str(measured.to_review)).replace("%4", pct(measured.accuracy))
            .replace("%5", interval_text(measured.accuracy_ci)).replace("%6", kappa)
            .replace("%7", str(len(measured.disagreements))).replace("%8", str(outside)))


class JudgeSamplePanel(QGroupBox):
    """Every judge's review samples (hidden when the file has none)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("JudgeSamplePanel",
                                   "Automatic judges checked on a human sample"), parent)
        self.boxes: dict[tuple[str, str], JudgeLevelBox] = {}
        self.explain = QLabel(translate(
            "JudgeSamplePanel",
            "Each figure three ways: the judge's own, the human sample's alone, and "
            "corrected (prediction-powered inference: the judge's figure over every unit plus "
            "the mean human−judge difference on the random sample, stratified by the judge's "
            "label and family)."))
        self.explain.setWordWrap(True)
        self.box_layout = QVBoxLayout(self)
        self.box_layout.addWidget(self.explain)
        self.hide()

    def show_judges(self, judges: Mapping[str, Mapping[str, JudgeSample]]) -> None:
        wanted = [(j, lv) for j in sorted(judges) for lv in judges[j]]
        for key in list(self.boxes):
            if key not in wanted:
                self.boxes.pop(key).deleteLater()
        for key in wanted:
            box = self.boxes.get(key)
            if box is None:
                box = self.boxes[key] = JudgeLevelBox()
                self.box_layout.addWidget(box)
            box.show_sample(judges[key[0]][key[1]])
        self.setVisible(bool(wanted))

    def clear(self) -> None:
        self.show_judges({})
