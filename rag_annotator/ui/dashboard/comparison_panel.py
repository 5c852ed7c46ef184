"""The Dashboard's run-against-run panel (wins, losses, ties per measure, filterable by
family) and, under ``strict``, the pairs whose label settles the most undetermined values."""

from __future__ import annotations

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QComboBox, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from rag_annotator.metrics.compare import Comparison
from rag_annotator.metrics.significance import BETTER, WORSE, PairedResult
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui import labels
from rag_annotator.ui.dashboard.format import decimals, num, translate
from rag_annotator.ui.dashboard.widgets import Cell, FigureTable
from rag_annotator.ui.models import number


class ComparisonPanel(QGroupBox):
    """``table`` (one row per measure), ``family_combo`` (which cases) and ``note``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("DashboardSection",
                                   "Run against run (wins / losses / ties per case)"), parent)
        self.figures: RunFigures | None = None
        self.family_combo = QComboBox()
        self.family_combo.addItem(translate("DashboardSection", "All families"), "")
        for code, _label in labels.FAMILIES.items():
            self.family_combo.addItem(labels.family(code), code)
        self.table = FigureTable()
        self.note = QLabel()
        self.note.setWordWrap(True)
        row = QHBoxLayout()
        family_label = QLabel(translate("DashboardSection", "&Family:"))
        family_label.setBuddy(self.family_combo)
        row.addWidget(family_label)
        row.addWidget(self.family_combo)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.table)
        layout.addWidget(self.note)
        self.family_combo.currentIndexChanged.connect(self._show)

    def clear(self) -> None:
        self.figures = None
        self.table.fill([], [])

    def show_figures(self, figures: RunFigures) -> None:
        self.figures = figures
        self._show()

    def _show(self) -> None:
        figures = self.figures
        if figures is None:
            return
        if figures.comparison is None:
            self.table.fill([], [])
            self.note.setText(translate("DashboardSection", "Choose another run under "
                                        "“Against” to compare it with this one, case by case."))
            return
        family = self.family_combo.currentData() or None
        result = figures.comparison
        if family is not None:
            result = result.restrict(figures.case_families, family)
        columns = [translate("DashboardSection", "Wins"),
                   translate("DashboardSection", "Losses"),
                   translate("DashboardSection", "Ties"),
                   translate("DashboardSection", "Not comparable"),
                   translate("DashboardSection", "Mean, this run"),
                   translate("DashboardSection", "Mean, other run"),
                   translate("DashboardSection", "Difference")]
        rows = _rows(result)
        significance = figures.significance if family is None else None
        if significance:  # over every case both runs cover: not per family
            columns += [translate("DashboardSection", "Paired difference [range]"),
                        translate("DashboardSection", "p (Holm)"),
                        translate("DashboardSection", "Verdict")]
            rows = [(m, [*cells, *_paired_cells(significance.get(m))]) for m, cells in rows]
        self.table.fill(columns, rows)
        self.note.setText(translate(
            "DashboardSection",
            "%1 against %2: a win is a case where %1 scores higher. Means are over the cases "
            "both runs publish. Cases only in %1: %3; only in %2: %4.")
            .replace("%1", result.run_a).replace("%2", result.run_b)
            .replace("%3", str(len(result.only_a))).replace("%4", str(len(result.only_b))))


def _paired_cells(r: PairedResult | None) -> list[Cell]:
    """The paired comparison of one measure: the mean difference with its bootstrap range,
    the Holm-corrected randomization p, and the verdict in words."""
    if r is None:
        return [("—", None, ""), ("—", None, ""), ("—", None, "")]
    diff = "—" if r.mean_diff is None else QLocale().toString(r.mean_diff, "f", 3)
    if r.mean_diff is not None and r.mean_diff >= 0:
        diff = "+" + diff
    if r.mean_diff_ci is not None:
        diff += f" [{decimals(r.mean_diff_ci.low, 2)}–{decimals(r.mean_diff_ci.high, 2)}]"
    p = "—" if r.p_holm is None else QLocale().toString(r.p_holm, "f", 3)
    verdict = {BETTER: translate("DashboardSection", "▲ better"),
               WORSE: translate("DashboardSection", "▼ worse")}.get(
        r.verdict, translate("DashboardSection",
                             "no detectable difference with %1 cases").replace("%1", str(r.n)))
    tip = translate("DashboardSection", "paired t-test p = %1; randomization p = %2").replace(
        "%1", "—" if r.p_t is None else f"{r.p_t:.3f}").replace(
        "%2", "—" if r.p_randomization is None else f"{r.p_randomization:.3f}")
    return [(diff, list(r.cases), ""), (p, list(r.cases), tip), (verdict, list(r.cases), tip)]


def _rows(result: Comparison) -> list[tuple[str, list[Cell]]]:
    rows: list[tuple[str, list[Cell]]] = []
    for m, c in result.by_measure.items():
        compared = list(c.cases("compared"))
        rows.append((m, [
            (number(len(c.wins)), list(c.wins), ""),
            (number(len(c.losses)), list(c.losses), ""),
            (number(len(c.ties)), list(c.ties), ""),
            (number(len(c.not_comparable)), list(c.not_comparable),
             translate("DashboardSection", "not published for one run or both")),
            (num(c.mean_a), compared, ""),
            (num(c.mean_b), compared, ""),
            ("—" if c.delta is None else f"{c.delta:+.3f}", compared, ""),
        ]))
    return rows


class NextPairsPanel(QGroupBox):
    """Under ``strict``: the unjudged pairs whose label settles the most undetermined values,
    most first (``table``); the section shows it only under ``strict``."""

    def __init__(self, cases_limit: int, parent: QWidget | None = None) -> None:
        super().__init__(translate("DashboardSection", "Judge next (strict): the unjudged "
                                   "pairs whose label settles the most undetermined values"),
                         parent)
        self.cases_limit = cases_limit
        self.table = FigureTable()
        QVBoxLayout(self).addWidget(self.table)

    def clear(self) -> None:
        self.table.fill([], [])
        self.hide()

    def show_figures(self, figures: RunFigures) -> None:
        if not figures.next_pairs:
            cases = len(figures.report.per_query)
            text = (translate("DashboardSection", "Nothing: no value of this run is "
                              "undetermined")
                    if cases <= self.cases_limit else
                    translate("DashboardSection", "Not ranked here for %1 cases (too long); "
                              "the Judge section ranks the pairs of the case at hand.")
                    .replace("%1", str(cases)))
            self.table.fill([translate("DashboardSection", "Case")], [("", [(text, None, "")])])
            return
        self.table.fill(
            [translate("DashboardSection", "Case"), translate("DashboardSection", "Document"),
             translate("DashboardSection", "Settles"),
             translate("DashboardSection", "Measures")],
            [(str(i), [(s.case_key, [s.case_key], ""), (s.document_key, [s.case_key], ""),
                       (number(s.settles), [s.case_key],
                        translate("DashboardSection",
                                  "values that become known whatever the label")),
                       (", ".join(m for _run, m in s.values)
                        or translate("DashboardSection", "narrows only"), [s.case_key], "")])
             for i, s in enumerate(figures.next_pairs, start=1)])
