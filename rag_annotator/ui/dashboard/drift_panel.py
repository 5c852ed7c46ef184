"""The Dashboard's drift panel (issue 16, item 3): the runs of the gold set in the order they
were made, each with its version fields (model, corpus, index, prompt), the headline figures
of a family with their intervals, the change from the previous run and from a baseline run
the user picks, and the significant regressions — marked with a word and a sign, never with
colour alone.  Selecting a run lists what its regressions are: the measure, the run it is
against, the paired test's p (Holm), the version fields that changed and the cases that
flipped (validated → not validated, relevant found → lost); clicking the regression cell
lists those cases on the right, like every figure of the Dashboard.

The drift needs every run's figures with their intervals and a paired test per pair of runs
(about 0.3 s on the sample, seconds on a big file), so it is always computed on a worker
thread with its own read-only connection; the panel says so while it waits.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QComboBox, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from rag_annotator.metrics.drift import OVERALL, Drift, DriftRow, Regression
from rag_annotator.reports.drift import build_drift
from rag_annotator.reports.run_figures import FigureOptions
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.dashboard.format import num_range, pct_range, translate
from rag_annotator.ui.dashboard.widgets import Cell, FigureTable

log = logging.getLogger("rag_annotator")

#: The headline figures the panel shows: (figure, is a share).
FIGURES = (("success", True), ("nDCG@10", False), ("task_success", True))
#: The version fields shown, in order.
FIELDS = ("model", "corpus_version", "index_version", "prompt_version")
#: The mark of a significant regression: a sign and a word, readable without colour.
MARK = "▼"


class DriftPanel(QGroupBox):
    """``table`` (one row per run), ``baseline_combo``, ``family_combo`` and ``detail``.

    Signals:
        baseline_changed(): the user picked another baseline (the drift is computed again).
        shown(): a new drift is on screen (tests wait on it).
    """

    baseline_changed = Signal()
    shown = Signal()
    _computed = Signal(int, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("DashboardSection",
                                   "Drift across runs (in the order they were made)"), parent)
        self.drift: Drift | None = None
        self._generation = 0
        self._executor: ThreadPoolExecutor | None = None
        self._wanted: tuple[Path, FigureOptions] | None = None  # asked for, not in view yet
        self._computed.connect(self._on_computed, Qt.ConnectionType.QueuedConnection)
        self.baseline_combo = QComboBox()
        self.family_combo = QComboBox()
        for combo in (self.baseline_combo, self.family_combo):  # filled after the first show
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.table = FigureTable()
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel(translate("DashboardSection",
            "Change = this run minus the previous run, and minus the baseline. A regression "
            "(▼) is a measure worse by a paired test over the cases both runs answered (Holm-"
            "corrected randomization test), against the previous run or an earlier "
            "baseline; select a run to see what changed and which cases flipped."))
        self.note.setWordWrap(True)
        self.busy = QLabel(translate("DashboardSection", "Computing the drift across runs…"))
        self.busy.hide()
        bar = QHBoxLayout()
        for text, combo in ((translate("DashboardSection", "&Baseline:"), self.baseline_combo),
                            (translate("DashboardSection", "Famil&y:"), self.family_combo)):
            label = QLabel(text)
            label.setBuddy(combo)
            bar.addWidget(label)
            bar.addWidget(combo)
        bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        for widget in (self.busy, self.table, self.detail, self.note):
            layout.addWidget(widget)
        self.baseline_combo.currentIndexChanged.connect(self._on_baseline)
        self.family_combo.currentIndexChanged.connect(self._refill)
        self.table.currentCellChanged.connect(self._on_row)

    # -- computing ---------------------------------------------------------------------------
    def fields(self) -> tuple[QWidget, ...]:
        """The fields a mouse wheel passing over must not change."""
        return (self.baseline_combo, self.family_combo)

    def request(self, path: Path, options: FigureOptions, when_shown: bool = False) -> None:
        """Compute the drift of the file at ``path`` on the worker (the latest request
        wins); ``when_shown``: only once the panel is scrolled into view (a large file's
        drift builds every run's figures again: a minute of work nobody may look at)."""
        if when_shown and self.visibleRegion().isEmpty():
            self._wanted = (path, options)
            self.busy.show()
            return
        self._wanted = None
        self._generation += 1
        self.busy.show()
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drift")
        baseline = self.baseline_combo.currentData() or None
        self._executor.submit(self._compute, self._generation, path, options, baseline)

    def _compute(self, generation: int, path: Path, options: FigureOptions,
                 baseline: str | None) -> None:
        if generation != self._generation:
            return  # a newer request is queued behind this one
        try:
            with GoldSetStore.open(path, read_only=True, verify="skip") as reader:
                if baseline is not None and baseline not in reader.run_names():
                    baseline = None  # the run was deleted meanwhile: the first run again
                value = build_drift(reader, baseline, options)
        except Exception:
            log.exception("dashboard: computing the drift failed")
            return
        try:
            self._computed.emit(generation, value)
        except RuntimeError:  # the panel was deleted meanwhile (window closed)
            return

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        wanted = self._wanted
        if wanted is not None:  # scrolled into view: the drift asked for meanwhile, now
            self._wanted = None
            QTimer.singleShot(0, lambda: self.request(*wanted))

    def close_worker(self) -> None:
        """Drop what is being computed and wait for the worker (a file is closing)."""
        self._generation += 1
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def clear(self) -> None:
        self._generation += 1
        self._wanted = None
        self.drift = None
        self.busy.hide()
        self.table.fill([], [])
        self.detail.clear()

    def _on_computed(self, generation: int, value: Drift) -> None:
        if generation != self._generation:
            return
        self.drift = value
        self.busy.hide()
        self._fill_combos(value)
        self._refill()
        self.shown.emit()

    # -- showing -----------------------------------------------------------------------------
    def _fill_combos(self, value: Drift) -> None:
        runs = [row.name for row in value.rows]
        families = sorted({f for row in value.rows for f in row.point.headlines
                           if f is not None}, key=labels.family)
        for combo, items in (
                (self.baseline_combo, [("", translate("DashboardSection",
                                                      "(first run)")), *((r, r) for r in runs)]),
                (self.family_combo, [("", translate("DashboardSection", "All families")),
                                     *((f, labels.family(f)) for f in families)])):
            if [combo.itemData(i) for i in range(combo.count())] == [k for k, _t in items]:
                continue
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            for key, text in items:
                combo.addItem(text, key)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)

    def _on_baseline(self) -> None:
        self.baseline_changed.emit()

    def family(self) -> str | None:
        """The family shown (None: the whole run)."""
        return self.family_combo.currentData() or OVERALL

    def _refill(self) -> None:
        value = self.drift
        if value is None:
            return
        family = self.family()
        names = {"success": translate("DashboardSection", "Success"), "nDCG@10": "nDCG@10",
                 "task_success": translate("DashboardSection", "Task success")}
        shown = [(f, share) for f, share in FIGURES
                 if any(f in row.point.headlines.get(family, {}) for row in value.rows)]
        columns = [*(labels_field(f) for f in FIELDS), *(names[f] for f, _s in shown),
                   *(translate("DashboardSection", "Δ %1 vs previous").replace("%1", names[f])
                     for f, _s in shown),
                   *(translate("DashboardSection", "Δ %1 vs baseline").replace("%1", names[f])
                     for f, _s in shown),
                   translate("DashboardSection", "Regression")]
        rows = []
        for row in value.rows:
            baseline = translate("DashboardSection", "(baseline)")
            title = row.name + (" " + baseline if row.name == value.baseline else "")
            rows.append((title, self._cells(row, family, shown)))
        self.table.fill(columns, rows)
        self.detail.setText(translate("DashboardSection", "Select a run to see its regressions."))

    def _cells(self, row: DriftRow, family: str | None,
               shown: list[tuple[str, bool]]) -> list[Cell]:
        fields = row.point.version.fields
        cells: list[Cell] = [(fields.get(f, "") or "—", None, fields.get(f, ""))
                             for f in FIELDS]
        headlines = row.point.headlines.get(family, {})
        for figure, share in shown:
            h = headlines.get(figure)
            if h is None:
                cells.append(("—", None, ""))
                continue
            text = (pct_range if share else num_range)(h.value, h.interval)
            cells.append((text, None, translate("DashboardSection",
                                                "over %1 cases").replace("%1", str(h.n))))
        for deltas in (row.from_previous, row.from_baseline):
            for figure, share in shown:
                delta = deltas.get(family, {}).get(figure)
                cells.append((_delta(delta, share), None, ""))
        flipped = sorted({c for r in row.regressions
                          for c in (*r.flipped_validated, *r.lost_relevant)})
        mark = (f"{MARK} " + translate("DashboardSection", "regression: %1").replace(
            "%1", ", ".join(sorted({r.measure for r in row.regressions})))
            if row.regressions else "")
        cells.append((mark, flipped if row.regressions else None, ""))
        return cells

    def _on_row(self, current_row: int, *_args: object) -> None:
        value = self.drift
        if value is None or not 0 <= current_row < len(value.rows):
            return
        row = value.rows[current_row]
        if not row.regressions:
            self.detail.setText(translate("DashboardSection",
                                          "%1: no significant regression.").replace("%1", row.name))
            return
        self.detail.setText(_describe(row.regressions))

    def regression_texts(self) -> list[str]:
        """The regression column, run by run (for tests)."""
        last = self.table.columnCount() - 1
        return [item.text() if (item := self.table.item(r, last)) is not None else ""
                for r in range(self.table.rowCount())]


def _delta(delta: float | None, share: bool) -> str:
    """A change with its sign: "+8.3 points" for a share, "−0.012" for a mean."""
    if delta is None:
        return "—"
    from PySide6.QtCore import QLocale

    sign = "+" if delta >= 0 else "−"
    if share:
        points = translate("DashboardSection", " points")
        return sign + QLocale().toString(abs(delta) * 100, "f", 1) + points
    return sign + QLocale().toString(abs(delta), "f", 3)


def _describe(regressions: Sequence[Regression]) -> str:
    """A run's regressions in words, one paragraph per run it is worse than: each measure
    with its mean change and p (Holm), then once the version fields that changed and the
    cases that flipped."""
    from PySide6.QtCore import QLocale

    locale = QLocale()
    paragraphs = []
    for against in dict.fromkeys(r.against for r in regressions):
        mine = [r for r in regressions if r.against == against]
        measures = []
        for r in mine:
            diff, p = r.result.mean_diff, r.result.p_holm
            measures.append(translate("DashboardSection", "%1 (change %2, p (Holm) %3)")
                            .replace("%1", r.measure)
                            .replace("%2", "—" if diff is None else
                                     ("+" if diff >= 0 else "−")
                                     + locale.toString(abs(diff), "f", 3))
                            .replace("%3", "—" if p is None else locale.toString(p, "f", 3)))
        first = mine[0]
        changed = "; ".join(f"{labels_field(k)}: {a or '∅'} → {b or '∅'}"
                            for k, (a, b) in first.changed_fields.items())
        lines = [translate("DashboardSection", "%1 worse than %2 over %3 cases: %4.")
                 .replace("%1", MARK).replace("%2", against)
                 .replace("%3", str(first.result.n)).replace("%4", ", ".join(measures)),
                 translate("DashboardSection", "Version fields changed: %1.").replace(
                     "%1", changed or translate("DashboardSection", "none"))]
        if first.flipped_validated:
            lines.append(translate("DashboardSection", "Validated → not validated: %1.")
                         .replace("%1", ", ".join(first.flipped_validated)))
        if first.lost_relevant:
            lines.append(translate("DashboardSection", "Relevant found → lost: %1.")
                         .replace("%1", ", ".join(first.lost_relevant)))
        paragraphs.append(" ".join(lines))
    return "\n".join(paragraphs)


def labels_field(name: str) -> str:
    """A version field's name as the panel shows it."""
    names = {"model": translate("DashboardSection", "Model"),
             "corpus_version": translate("DashboardSection", "Corpus"),
             "index_version": translate("DashboardSection", "Index"),
             "prompt_version": translate("DashboardSection", "Prompt"),
             "notes": translate("DashboardSection", "Notes")}
    return names.get(name, name)
