"""Dashboard section: the numbers of a run, per family, with the cases behind every one.

What it shows (issue 6, item 8), for the run chosen at the top and the unjudged-document
policy chosen next to it (always visible, switchable with Alt+P):

* retrieval measures per family (mean over the cases where the value is published, with how
  many that is), as a table and as bars for the measure picked below it, and that measure's
  distribution over the cases (including how many are undetermined or not defined);
* seed 003's answer decomposition per family (tested / produced / validated, quality,
  coverage, success) with stacked bars "where do the tested questions go", faithfulness and
  abstention;
* the diagnosis per family (access, retrieval, abstention, generation) with the first action;
* latency and cost when the run carries them, against a target the user sets;
* run against run: wins, losses, ties per measure, filterable by family;
* for a run holding agent trajectories (issue 9): task success, path acceptable, violation
  rate per invariant, mean steps / tokens / seconds, cost per successful task and the
  verdicts a review overruled, per family; a run of trajectories only shows no RAG panel;
* the gold set's counts (families, statuses, labels, verdicts).

Every figure is clickable: the cases behind it are listed on the right, and activating one
(double-click or Enter) opens it in the Gold Set section.  The figures are recomputed when a
judgment, a verdict, a review or a run changes, only while the section is shown (otherwise
on the next show).  At the sample's scale that takes a few milliseconds on the GUI thread;
a file whose runs hold more than :data:`WORKER_THRESHOLD` retrieved rows (a trajectory
counting as ten) is computed on a worker thread with its own read-only connection, so the
window never freezes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QPalette,
)
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.changes import Changes
from rag_annotator.metrics import DEFAULT_MEASURES, Policy
from rag_annotator.metrics.agents import AgentSummary
from rag_annotator.metrics.agents import summarize as summarize_agents
from rag_annotator.metrics.diagnosis import KINDS
from rag_annotator.metrics.latency import DEFAULT_TARGET_MS
from rag_annotator.metrics.overview import (
    ALL,
    NEXT_CASES_LIMIT,
    Figures,
    compute,
    distribution,
    family_means,
)
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.actions import make_action
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.dashboard.widgets import (
    AgentsPanel,
    Bar,
    BarChart,
    CountsBox,
    FigureTable,
)
from rag_annotator.ui.models import number
from rag_annotator.ui.sections.base import Section, placeholder_label

log = logging.getLogger("rag_annotator")

#: Above this many retrieved rows (all runs), the figures are computed on a worker thread.
WORKER_THRESHOLD = 200_000

#: Tables whose changes can move a figure of the dashboard.
WATCHED = ("judgments", "adjudications", "claims", "answer_reviews", "answers", "retrieved",
           "runs", "cases", "documents", "expected_sources", "citations", "trajectories",
           "trajectory_steps", "trajectory_reviews")

def _pct(value: float | None) -> str:
    """A share in the user's locale ("72.0%", "72,0 %"); a dash when not computable."""
    if value is None:
        return "—"
    locale = QLocale()
    text = locale.toString(value * 100, "f", 1)
    return text + ("\u202f%" if locale.language() == QLocale.Language.French else "%")


def _num(value: float | None) -> str:
    """A measure value with 3 decimals in the user's locale; a dash when not defined."""
    return "—" if value is None else QLocale().toString(value, "f", 3)


def _compute_all(store: GoldSetStore, args: tuple[str, Policy, str | None, int]
                 ) -> tuple[Figures, AgentSummary]:
    """The RAG figures and the agent figures of one run (on the GUI thread or a worker)."""
    return compute(store, *args), summarize_agents(store, args[0])


# -- the section -------------------------------------------------------------------------------
#: Above this many judgments the dashboard does not recount agreement at every change.
AGREEMENT_UI_MAX = 50_000


class DashboardSection(Section):
    """Metrics of a run per family, answers, diagnosis, latency, run vs run, and counts.

    Signals:
        case_requested(str): a case key the user activated in the list of cases behind a
            figure (the section also opens it in the Gold Set section when it can).
        figures_shown(): the figures on screen were just replaced (tests wait on it).
    """

    case_requested = Signal(str)
    figures_shown = Signal()
    _computed = Signal(int, object)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.figures: Figures | None = None
        self.agent_summary: AgentSummary | None = None
        self._last_cell: tuple[FigureTable, str, str] | None = None
        self._generation = 0
        self._executor: ThreadPoolExecutor | None = None
        self._computed.connect(self._on_computed, Qt.ConnectionType.QueuedConnection)
        self._build_texts()

        # Top bar: run, policy (always visible), comparison, target.
        self.run_combo = QComboBox()
        self.other_combo = QComboBox()
        self.policy_combo = QComboBox()
        for policy in Policy:
            self.policy_combo.addItem(self._policy_names[policy], policy.value)
        self.policy_combo.setToolTip(self.tr("What a retrieved document nobody has judged "
                                             "yet is worth (Alt+P switches)"))
        self.family_combo = QComboBox()
        self.family_combo.addItem(self.tr("All families"), "")
        for code, _label in labels.FAMILIES.items():
            self.family_combo.addItem(labels.family(code), code)
        self.target = QSpinBox()
        self.target.setRange(0, 600_000)
        self.target.setSingleStep(250)
        self.target.setValue(DEFAULT_TARGET_MS)
        self.target.setSuffix(self.tr(" ms"))
        self.measure_combo = QComboBox()
        for name in DEFAULT_MEASURES:
            self.measure_combo.addItem(name, name)
        bar = QHBoxLayout()
        for text, widget in ((self.tr("&Run:"), self.run_combo),
                             (self.tr("&Unjudged documents:"), self.policy_combo),
                             (self.tr("&Against:"), self.other_combo),
                             (self.tr("Latency &target:"), self.target)):
            label = QLabel(text)
            label.setBuddy(widget)
            bar.addWidget(label)
            bar.addWidget(widget)
        bar.addStretch(1)
        self.policy_note = QLabel()
        self.policy_note.setWordWrap(True)
        self.pooling = QLabel(self.tr(
            "Pooling assumption: a document outside a case's universe (not retrieved by any "
            "run, not an expected source, never judged) counts as not relevant. Inside the "
            "universe, an unjudged pair is not \"not relevant\": it stays unjudged until "
            "someone labels it, and assessors who disagree make a disputed pair, never "
            "resolved silently."))
        self.pooling.setWordWrap(True)
        self.busy = QLabel(self.tr("Computing the figures of a large file…"))
        self.busy.hide()

        # Retrieval.
        self.retrieval = FigureTable()
        self.retrieval_bars = BarChart()
        self.distribution = BarChart()
        measure_row = QHBoxLayout()
        measure_label = QLabel(self.tr("&Measure for bars and distribution:"))
        measure_label.setBuddy(self.measure_combo)
        measure_row.addWidget(measure_label)
        measure_row.addWidget(self.measure_combo)
        measure_row.addStretch(1)
        retrieval_box = QGroupBox(self.tr("Retrieval per family (mean over the cases where "
                                          "the value is published)"))
        retrieval_layout = QVBoxLayout(retrieval_box)
        retrieval_layout.addWidget(self.retrieval)
        retrieval_layout.addLayout(measure_row)
        charts = QHBoxLayout()
        charts.addWidget(self.retrieval_bars, 1)
        charts.addWidget(self.distribution, 1)
        retrieval_layout.addLayout(charts)

        # Answers.
        self.answers = FigureTable()
        self.answer_bars = BarChart()
        self.answer_note = QLabel()
        self.answer_note.setWordWrap(True)
        answers_box = QGroupBox(self.tr("Answers per family: tested / produced / validated"))
        answers_layout = QVBoxLayout(answers_box)
        answers_layout.addWidget(self.answers)
        answers_layout.addWidget(self.answer_bars)
        answers_layout.addWidget(self.answer_note)

        # Diagnosis, latency, comparison.
        self.diagnosis = FigureTable()
        self.actions_note = QLabel()
        self.actions_note.setWordWrap(True)
        diagnosis_box = QGroupBox(self.tr("Where it failed (cases per family)"))
        diagnosis_layout = QVBoxLayout(diagnosis_box)
        diagnosis_layout.addWidget(self.diagnosis)
        diagnosis_layout.addWidget(self.actions_note)
        self.latency = QLabel()
        self.latency.setWordWrap(True)
        latency_box = QGroupBox(self.tr("Latency and cost"))
        QVBoxLayout(latency_box).addWidget(self.latency)
        self.comparison = FigureTable()
        self.comparison_note = QLabel()
        self.comparison_note.setWordWrap(True)
        compare_row = QHBoxLayout()
        family_label = QLabel(self.tr("&Family:"))
        family_label.setBuddy(self.family_combo)
        compare_row.addWidget(family_label)
        compare_row.addWidget(self.family_combo)
        compare_row.addStretch(1)
        compare_box = QGroupBox(self.tr("Run against run (wins / losses / ties per case)"))
        compare_layout = QVBoxLayout(compare_box)
        compare_layout.addLayout(compare_row)
        compare_layout.addWidget(self.comparison)
        compare_layout.addWidget(self.comparison_note)

        # Under strict: the pairs whose label settles the most undetermined values.
        self.next_pairs = FigureTable()
        self.next_box = QGroupBox(self.tr("Judge next (strict): the unjudged pairs whose label "
                                          "settles the most undetermined values"))
        QVBoxLayout(self.next_box).addWidget(self.next_pairs)
        self.next_box.hide()

        # Agents (issue 9): shown when the run holds trajectories.
        self.agents = AgentsPanel()
        self.agents.hide()
        self.agent_only = QLabel(self.tr(
            "This run holds agent trajectories only: no retrieved documents and no answers, "
            "so there are no retrieval or answer figures; its agent figures are below."))
        self.agent_only.setWordWrap(True)
        self.agent_only.hide()

        # Agreement between assessors on relevance (per family), as ``info --json`` gives it.
        self.agreement = FigureTable()
        self.agreement_note = QLabel()
        self.agreement_note.setWordWrap(True)
        agreement_box = QGroupBox(self.tr("Agreement between assessors on relevance "
                                          "(relevant or not)"))
        agreement_layout = QVBoxLayout(agreement_box)
        agreement_layout.addWidget(self.agreement)
        agreement_layout.addWidget(self.agreement_note)

        # Counts of the gold set (what the dashboard showed before the metrics).
        self.families = CountsBox(self.tr("Cases by family"))
        self.statuses = CountsBox(self.tr("Cases by status"))
        self.judgments = CountsBox(self.tr("Pairs by effective label"))
        self.claims = CountsBox(self.tr("Claims by verdict"))
        counts = QGridLayout()
        counts.addWidget(self.families, 0, 0, 2, 1)
        counts.addWidget(self.statuses, 0, 1)
        counts.addWidget(self.claims, 1, 1)
        counts.addWidget(self.judgments, 0, 2, 2, 1)

        self.empty = placeholder_label(self.tr("No run yet: import one (Runs section) to see "
                                               "its metrics here."))
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.addWidget(self.empty)
        body_layout.addWidget(self.agent_only)
        body_layout.addWidget(self.next_box)
        for box in (retrieval_box, answers_box, diagnosis_box, latency_box, compare_box):
            body_layout.addWidget(box)
        self._metric_boxes = (retrieval_box, answers_box, diagnosis_box, latency_box,
                              compare_box)
        body_layout.addWidget(self.agents)
        body_layout.addWidget(agreement_box)
        body_layout.addLayout(counts)
        body_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)

        # The cases behind the figure chosen last.
        self.cases_title = QLabel(self.tr("Click a figure to list the cases behind it."))
        self.cases_title.setWordWrap(True)
        self.cases = QListWidget()
        self.cases_title.setBuddy(self.cases)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.cases_title)
        side_layout.addWidget(self.cases, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(scroll)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 4)
        splitter.setStretchFactor(1, 1)

        top = QVBoxLayout()
        top.addLayout(bar)
        top.addWidget(self.busy)
        top.addWidget(self.policy_note)
        top.addWidget(self.pooling)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)

        self.policy_action: QAction = make_action(
            "dashboard.policy", self, Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.policy_action.triggered.connect(self.next_policy)
        self.addAction(self.policy_action)

        for table in (self.retrieval, self.answers, self.diagnosis, self.comparison,
                      self.next_pairs, self.agents.table, self.agents.violations):
            table.currentItemChanged.connect(self._on_cell)
            table.itemClicked.connect(self._on_cell)
        for chart in (self.retrieval_bars, self.distribution, self.answer_bars,
                      self.agents.bars):
            chart.clicked.connect(self.show_cases)
        self.cases.itemActivated.connect(self._on_case_activated)
        for combo in (self.run_combo, self.other_combo, self.policy_combo):
            combo.currentIndexChanged.connect(self.schedule_refresh)
        self.target.valueChanged.connect(self.schedule_refresh)
        self.measure_combo.currentIndexChanged.connect(self._show_charts)
        self.family_combo.currentIndexChanged.connect(self._show_comparison)
        ctx.progress.updated.connect(self._on_progress)
        ctx.progress.completed.connect(self._on_progress)

    # -- translated texts ------------------------------------------------------------------
    def _build_texts(self) -> None:
        self._policy_names = {
            Policy.TREC: self.tr("count as not relevant (trec)"),
            Policy.JUDGED_ONLY: self.tr("dropped from the ranking (judged-only)"),
            Policy.STRICT: self.tr("must not matter (strict)"),
        }
        self._policy_notes = {
            Policy.TREC: self.tr("Policy trec: a retrieved document nobody has judged counts "
                                 "as not relevant, as trec_eval does, so a figure may still "
                                 "move as judging goes on."),
            Policy.JUDGED_ONLY: self.tr("Policy judged-only: documents nobody has judged are "
                                        "removed from each ranking before computing "
                                        "(trec_eval -J)."),
            Policy.STRICT: self.tr("Policy strict: a value is shown only if it is the same "
                                   "whatever the unjudged documents turn out to be; otherwise "
                                   "it is undetermined and the mean leaves that case out."),
        }
        self._kind_names = {
            "access": self.tr("Access"), "retrieval": self.tr("Retrieval"),
            "abstention": self.tr("Abstention"), "generation": self.tr("Generation"),
        }
        self._actions = {
            "Filter retrieval by the user's rights before generation.":
                self.tr("Filter retrieval by the user's rights before generation."),
            "Fix the corpus, chunking or query before the model.":
                self.tr("Fix the corpus, chunking or query before the model."),
            "Withdraw or mark outdated versions so the current one is retrieved.":
                self.tr("Withdraw or mark outdated versions so the current one is "
                        "retrieved."),
            "Adjust the confidence thresholds: it must abstain here.":
                self.tr("Adjust the confidence thresholds: it must abstain here."),
            "Adjust the confidence thresholds: it refused an answerable question.":
                self.tr("Adjust the confidence thresholds: it refused an answerable "
                        "question."),
            "Define the escalation path for sensitive cases.":
                self.tr("Define the escalation path for sensitive cases."),
            "Block or rephrase answers that are not supported.":
                self.tr("Block or rephrase answers that are not supported."),
        }

    def _family_title(self, key: str) -> str:
        return self.tr("All families") if key == ALL else labels.family(key)

    # -- Section -----------------------------------------------------------------------------
    def cares(self, changes: Changes) -> bool:
        return changes.touches(*WATCHED)

    def focus_widget(self) -> QWidget:
        return self.run_combo

    def clear(self) -> None:
        self._generation += 1
        self.figures = None
        for box in (self.families, self.statuses, self.judgments, self.claims):
            box.show_counts([])
        for table in (self.retrieval, self.answers, self.diagnosis, self.comparison):
            table.fill([], [])
        for chart in (self.retrieval_bars, self.distribution, self.answer_bars):
            chart.set_bars([])
        self.agent_summary = None
        self.agents.clear()
        self.agents.hide()
        self.agent_only.hide()
        self.cases.clear()

    def refresh(self) -> None:
        store = self.store
        if store is None:
            return
        self._show_counts(store)
        self._fill_runs(store)
        run = self.run_combo.currentData()
        policy = Policy.parse(self.policy_combo.currentData() or "trec")
        self.policy_note.setText(self._policy_notes[policy])
        has_run = bool(run)
        self.empty.setVisible(not has_run)
        for box in self._metric_boxes:
            box.setVisible(has_run)
        if not has_run:
            self.next_box.hide()
            self.agents.hide()
            self.agent_only.hide()
            return
        other = self.other_combo.currentData() or None
        self._generation += 1
        generation = self._generation
        args = (str(run), policy, other, int(self.target.value()))
        if self._big(store):
            self.busy.show()
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1,
                                                    thread_name_prefix="dashboard")
            self._executor.submit(self._compute_on_worker, generation, store.path, args)
            return
        try:
            result = _compute_all(store, args)
        except Exception:  # a bug: logged, the section keeps its last figures
            log.exception("dashboard: computing the figures failed")
            return
        self._on_computed(generation, result)

    @staticmethod
    def _big(store: GoldSetStore) -> bool:
        # A trajectory costs about what ten retrieved rows do (its checks run in Python).
        return (store.count("retrieved") + 10 * store.count("trajectories")
                > WORKER_THRESHOLD)

    def _compute_on_worker(self, generation: int, path: Path,
                           args: tuple[str, Policy, str | None, int]) -> None:
        if generation != self._generation:
            return  # a newer refresh was queued behind this one: skip the stale work
        try:
            with GoldSetStore.open(path, read_only=True, verify="skip") as reader:
                result = _compute_all(reader, args)
        except Exception:
            log.exception("dashboard: computing the figures failed")
            return
        try:
            self._computed.emit(generation, result)
        except RuntimeError:  # the section was deleted meanwhile (window closed)
            return

    def _on_computed(self, generation: int, result: tuple[Figures, AgentSummary]) -> None:
        if generation != self._generation:
            return  # a newer refresh is on its way
        self.figures, self.agent_summary = result
        self.busy.hide()
        self._show_retrieval()
        self._show_charts()
        self._show_answers()
        self._show_diagnosis()
        self._show_latency()
        self._show_comparison()
        self._show_next()
        self._show_agents()
        self._reshow_last_cell()
        self.figures_shown.emit()

    # -- filling -----------------------------------------------------------------------------
    def _fill_runs(self, store: GoldSetStore) -> None:
        names = store.run_names()
        # By default a RAG run is shown and compared: agent runs come after them.
        agent_runs = set(store.trajectory_run_names())
        rag_first = [n for n in names if n not in agent_runs] + [
            n for n in names if n in agent_runs]
        for combo, with_none in ((self.run_combo, False), (self.other_combo, True)):
            current = combo.currentData()
            wanted = ([("", self.tr("(no comparison)"))] if with_none else []) + [
                (n, n) for n in names]
            if [combo.itemData(i) for i in range(combo.count())] == [w[0] for w in wanted]:
                continue
            combo.blockSignals(True)
            combo.clear()
            for code, text in wanted:
                combo.addItem(text, code)
            index = combo.findData(current) if current else -1
            if index < 0 and not with_none and names:
                index = combo.findData(rag_first[0])
            if index < 0 and with_none and len(names) > 1:
                shown = self.run_combo.currentData()
                index = combo.findData(next(n for n in rag_first if n != shown))
            combo.setCurrentIndex(max(0, index))
            combo.blockSignals(False)

    def _show_retrieval(self) -> None:
        figures = self.figures
        assert figures is not None
        report = figures.report
        measures = list(report.measures)
        per_measure = {m: family_means(report, figures.families, m) for m in measures}
        keys = sorted({k for means in per_measure.values() for k in means if k != ALL},
                      key=labels.family)
        rows = []
        for key in [*keys, ALL]:
            cells = []
            for m in measures:
                mean, published, other = per_measure[m].get(key, (None, [], []))
                total = len(published) + len(other)
                text = _num(mean) + (f"  ({len(published)}/{total})" if other else "")
                tip = self.tr("%1 of %2 cases publish a value; the others are undetermined "
                              "or not defined.").replace("%1", str(len(published))).replace(
                                  "%2", str(total))
                cells.append((text, published + other, tip))
            rows.append((self._family_title(key), cells))
        self.retrieval.fill(measures, rows)

    def _show_charts(self) -> None:
        figures = self.figures
        if figures is None:
            return
        measure = self.measure_combo.currentData() or DEFAULT_MEASURES[0]
        if measure not in figures.report.measures:
            return
        accent = self.palette().color(QPalette.ColorRole.Highlight)
        means = family_means(figures.report, figures.families, measure)
        bars = []
        for key in [*sorted((k for k in means if k != ALL), key=labels.family), ALL]:
            mean, published, _other = means.get(key, (None, [], []))  # no case: no ALL
            bars.append(Bar(self._family_title(key),
                            [(mean or 0.0, accent, measure, published)],
                            f"{measure} {_num(mean)}"))
        self.retrieval_bars.set_bars(bars)
        rows = distribution(figures.report, measure)
        biggest = max([len(cases) for _name, cases in rows] or [1]) or 1
        names = {"undetermined": self.tr("undetermined"), "not_defined": self.tr("not defined")}
        grey = self.palette().color(QPalette.ColorRole.Mid)
        locale = QLocale()

        def title(index: int, name: str) -> str:
            if name in names:
                return names[name]
            low, high = index / 10, (index + 1) / 10  # distribution()'s ten bins
            return f"{locale.toString(low, 'f', 1)}–{locale.toString(high, 'f', 1)}"

        self.distribution.set_bars([
            Bar(title(i, name), [(len(cases) / biggest,
                                  grey if name in names else accent, name, cases)],
                self.tr("%n case(s)", "", len(cases)))
            for i, (name, cases) in enumerate(rows)])

    def _show_answers(self) -> None:
        figures = self.figures
        assert figures is not None
        summary = figures.answers
        columns = [self.tr("Tested"), self.tr("Produced"), self.tr("Validated"),
                   self.tr("Quality"), self.tr("Coverage"), self.tr("Success"),
                   self.tr("Unreviewed"), self.tr("Abstention"),
                   self.tr("Faithfulness")]
        rows = []
        keys = sorted(summary.per_family, key=labels.family)
        for key in [*keys, ALL]:
            group = summary.group(None if key == ALL else key)
            abst = (f"{len(group.abstention_correct_cases)}/{len(group.abstention_cases)}"
                    if group.abstention_cases else "—")
            rows.append((self._family_title(key), [
                (number(group.tested), list(group.cases("tested")), ""),
                (number(group.produced), list(group.cases("produced")), ""),
                (number(group.validated), list(group.cases("validated")), ""),
                (_pct(group.quality), list(group.cases("produced")),
                 self.tr("validated / produced")),
                (_pct(group.coverage), list(group.cases("tested")),
                 self.tr("produced / tested")),
                (_pct(group.success), list(group.cases("tested")),
                 self.tr("validated / tested")),
                (number(len(group.unreviewed_cases)), list(group.unreviewed_cases),
                 self.tr("expecting an answer, review not complete: not counted as tested "
                         "(%1 more have no answer from this run at all)").replace(
                             "%1", str(len(group.not_generated_cases)))),
                (abst, list(group.abstention_cases),
                 self.tr("cases expecting an abstention or escalation, reviewed")),
                (_pct(group.faithfulness_mean), list(group.cases("produced")),
                 self.tr("mean of supported / verified claims per answer")),
            ]))
        self.answers.fill(columns, rows)
        palette = self.palette()
        good = QColor(46, 125, 50)
        bad = QColor(198, 40, 40)
        missing = palette.color(QPalette.ColorRole.Mid)
        bars = []
        for key in [*keys, ALL]:
            group = summary.group(None if key == ALL else key)
            tested = group.tested or 1
            bars.append(Bar(self._family_title(key), [
                (group.validated / tested, good, "validated", list(group.cases("validated"))),
                (len(group.cases("not_validated")) / tested, bad, "not_validated",
                 list(group.cases("not_validated"))),
                (len(group.cases("no_answer")) / tested, missing, "no_answer",
                 list(group.cases("no_answer"))),
            ], f"{group.validated} + {len(group.cases('not_validated'))} + "
               f"{len(group.cases('no_answer'))} = {group.tested}"))
        self.answer_bars.set_bars(bars)
        self.answer_note.setText(self.tr(
            "Bars: validated (green) + not validated (red) + no answer (grey) = tested. "
            "Quality = validated / produced, coverage = produced / tested, success = "
            "validated / tested; a zero denominator is not computable (—). Claims: %1 "
            "contradicted, %2 unsupported of the verified; must-contain recall %3.")
            .replace("%1", _pct(summary.contradicted_share))
            .replace("%2", _pct(summary.unsupported_share))
            .replace("%3", _pct(summary.must_contain_recall)))

    def _show_agents(self) -> None:
        """The agent panel when the run holds trajectories; a run that holds nothing else
        shows no RAG panel (they would only say 0 and "not computable")."""
        figures, summary = self.figures, self.agent_summary
        assert figures is not None and summary is not None
        agent_only = (summary.has_data and not figures.report.per_query
                      and not figures.answers.items)
        self.agent_only.setVisible(agent_only)
        for widget in (self.policy_note, self.pooling):  # about documents: not for agents
            widget.setVisible(not agent_only)
        for box in self._metric_boxes:
            box.setVisible(not agent_only)
        # the unjudged policy, the run to compare and the latency target are about retrieved
        # documents and answers: nothing to choose for a run of trajectories only
        for widget in (self.policy_combo, self.other_combo, self.target):
            widget.setEnabled(not agent_only)
        if agent_only:
            self.next_box.hide()
        self.agents.setVisible(summary.has_data)
        if not summary.has_data:
            self.agents.clear()
            return
        keys = sorted(summary.per_family, key=labels.family)
        locale = QLocale()

        def num(value: float | None, decimals: int) -> str:
            return "—" if value is None else locale.toString(value, "f", decimals)

        self.agents.show_summary(
            summary, [*((labels.family(k), k) for k in keys), (self.tr("All families"), None)],
            _pct, num)

    def _show_diagnosis(self) -> None:
        figures = self.figures
        assert figures is not None
        diagnosis = figures.diagnosis
        counts = diagnosis.counts()
        rows = []
        for family in sorted(counts, key=labels.family):
            rows.append((labels.family(family), [
                (number(counts[family][kind]), list(diagnosis.cases(kind, family)),
                 self._action_text(diagnosis.first_action(kind, family)))
                for kind in KINDS]))
        rows.append((self.tr("All families"), [
            (number(len(diagnosis.cases(kind))), list(diagnosis.cases(kind)),
             self._action_text(diagnosis.first_action(kind))) for kind in KINDS]))
        self.diagnosis.fill([self._kind_names[k] for k in KINDS], rows)
        lines = [f"<b>{self._kind_names[k]}</b>: {self._action_text(diagnosis.first_action(k))}"
                 for k in KINDS if diagnosis.first_action(k)]
        self.actions_note.setText(
            self.tr("First action:") + "<br>" + "<br>".join(lines) if lines
            else self.tr("No failure found at the top %1.").replace("%1",
                                                                   str(diagnosis.depth)))

    def _action_text(self, action: str | None) -> str:
        return "" if action is None else self._actions.get(action, action)

    def _show_latency(self) -> None:
        figures = self.figures
        assert figures is not None
        latency = figures.latency
        if not latency.has_data:
            self.latency.setText(self.tr("This run's answers carry no latency or cost."))
            return

        def ms(value: float | None) -> str:
            return "—" if value is None else f"{value:,.0f} ms".replace(",", "\u202f")

        cost = latency.cost_per_validated
        self.latency.setText(self.tr(
            "Median %1, p90 %2 over %3 timed answers; %4 under the target of %5 ms. "
            "Cost per validated answer: %6.")
            .replace("%1", ms(latency.median_ms)).replace("%2", ms(latency.p90_ms))
            .replace("%3", str(len(latency.timed_cases)))
            .replace("%4", _pct(latency.share_under_target))
            .replace("%5", str(latency.target_ms))
            .replace("%6", self.tr("not computable") if cost is None else f"{cost:.4f}"))

    def _show_comparison(self) -> None:
        figures = self.figures
        if figures is None:
            return
        if figures.comparison is None:
            self.comparison.fill([], [])
            self.comparison_note.setText(self.tr("Choose another run under “Against” to "
                                                 "compare it with this one, case by case."))
            return
        family = self.family_combo.currentData() or None
        result = figures.comparison
        if family is not None:
            result = result.restrict(figures.case_families, family)
        columns = [self.tr("Wins"), self.tr("Losses"), self.tr("Ties"),
                   self.tr("Not comparable"), self.tr("Mean, this run"),
                   self.tr("Mean, other run"), self.tr("Difference")]
        rows = []
        for m, c in result.by_measure.items():
            rows.append((m, [
                (number(len(c.wins)), list(c.wins), ""),
                (number(len(c.losses)), list(c.losses), ""),
                (number(len(c.ties)), list(c.ties), ""),
                (number(len(c.not_comparable)), list(c.not_comparable),
                 self.tr("not published for one run or both")),
                (_num(c.mean_a), list(c.cases("compared")), ""),
                (_num(c.mean_b), list(c.cases("compared")), ""),
                ("—" if c.delta is None else f"{c.delta:+.3f}", list(c.cases("compared")),
                 ""),
            ]))
        self.comparison.fill(columns, rows)
        self.comparison_note.setText(self.tr(
            "%1 against %2: a win is a case where %1 scores higher. Means are over the cases "
            "both runs publish. Cases only in %1: %3; only in %2: %4.")
            .replace("%1", result.run_a).replace("%2", result.run_b)
            .replace("%3", str(len(result.only_a))).replace("%4", str(len(result.only_b))))

    def _show_next(self) -> None:
        figures = self.figures
        assert figures is not None
        strict = figures.policy is Policy.STRICT
        self.next_box.setVisible(strict and self.empty.isHidden())
        if not strict:
            return
        if not figures.next_pairs:
            cases = len(figures.report.per_query)
            text = (self.tr("Nothing: no value of this run is undetermined")
                    if cases <= NEXT_CASES_LIMIT else
                    self.tr("Not ranked here for %1 cases (too long); the Judge section "
                            "ranks the pairs of the case at hand.").replace("%1", str(cases)))
            self.next_pairs.fill([self.tr("Case")], [("", [(text, None, "")])])
            return
        self.next_pairs.fill(
            [self.tr("Case"), self.tr("Document"), self.tr("Settles"), self.tr("Measures")],
            [(str(i), [(s.case_key, [s.case_key], ""), (s.document_key, [s.case_key], ""),
                       (number(s.settles), [s.case_key],
                        self.tr("values that become known whatever the label")),
                       (", ".join(m for _run, m in s.values) or self.tr("narrows only"),
                        [s.case_key], "")])
             for i, s in enumerate(figures.next_pairs, start=1)])

    def _show_counts(self, store: GoldSetStore) -> None:
        self.families.show_counts([(labels.family(k), number(v))
                                   for k, v in store.family_counts().items()])
        statuses = store.status_counts()
        self.statuses.show_counts([(labels.case_status(k), number(statuses.get(k, 0)))
                                   for k in labels.CASE_STATUSES])
        claims = store.claim_counts()
        self.claims.show_counts([(labels.verdict(k), number(claims.get(k, 0)))
                                 for k in ("supported", "not_supported", "contradicted",
                                           "unverified")])
        self._show_judgments()
        self._show_agreement(store)

    def _show_agreement(self, store: GoldSetStore) -> None:
        """Percent agreement, Cohen's kappa (two assessors) and Krippendorff's alpha, overall
        and per family; read again at each refresh, so only up to AGREEMENT_UI_MAX
        judgments (beyond, ``info --json`` and the workbook's summary give them)."""
        if store.count("judgments") > AGREEMENT_UI_MAX:
            self.agreement.fill([], [])
            self.agreement.hide()
            self.agreement_note.setText(self.tr(
                "Too many judgments to recount here at every change: "
                "'rag-annotator info FILE --json' and the Excel summary give the agreement."))
            return
        from rag_annotator.metrics.agreement import JudgmentRow, agreement, agreement_by_family

        rows = [JudgmentRow(*row) for row in store.judgment_rows()]
        overall = agreement(rows)
        if overall.assessors < 2 or overall.units == 0:
            self.agreement.hide()
            self.agreement_note.setText(self.tr(
                "No pair has been judged by two assessors yet: nothing to compare. Merge a "
                "colleague's file (File → Merge a Colleague's File…) to measure agreement."))
            return

        def cells(a: Any) -> list[tuple[str, list[str] | None, str]]:
            def figure(value: float | None, spec: str) -> str:
                return "—" if value is None else format(value, spec)

            return [(number(a.assessors), None, ""), (number(a.units), None, ""),
                    (figure(a.percent, ".1f") + ("" if a.percent is None else " %"), None, ""),
                    (figure(a.kappa, ".3f"), None,
                     self.tr("only with exactly two assessors")),
                    (figure(a.alpha, ".3f"), None, "")]

        table = [(labels.family(family), cells(a))
                 for family, a in sorted(agreement_by_family(rows).items()) if a.units]
        table.append((self.tr("All families"), cells(overall)))
        self.agreement.show()
        self.agreement.fill([self.tr("Assessors"), self.tr("Pairs judged by 2+"),
                             self.tr("Agreement"), self.tr("Cohen's κ"),
                             self.tr("Krippendorff's α")], table)
        self.agreement_note.setText(self.tr(
            "Pairs judged by at least two assessors; a dispute (relevant vs not relevant) "
            "waits in the Judge section's adjudication queue (D). — means not defined."))

    def _on_progress(self, *_args: object) -> None:
        if self.loaded and self.active:
            self._show_judgments()
        elif self.loaded:
            self.dirty = True

    def _show_judgments(self) -> None:
        totals = self.ctx.progress.totals()
        if totals is None:
            self.judgments.show_counts([(self.tr("Counting judgments…"), "")])
            return
        self.judgments.show_counts([
            (labels.judgment("relevant"), number(totals["relevant"])),
            (labels.judgment("not_relevant"), number(totals["not_relevant"])),
            (labels.judgment("unjudged"), number(totals["unjudged"])),
            (self.tr("of which disputed"), number(totals["disputed"])),
            (self.tr("Pairs in the pools"), number(totals["pairs"])),
        ])

    # -- interaction -------------------------------------------------------------------------
    def next_policy(self) -> None:
        """Switch to the next unjudged-document policy (trec → judged-only → strict)."""
        combo = self.policy_combo
        combo.setCurrentIndex((combo.currentIndex() + 1) % combo.count())

    def _on_cell(self, item: QTableWidgetItem | None, *_args: object) -> None:
        if item is None:
            return
        table = item.tableWidget()
        cases = item.data(FigureTable.CASES)
        if cases is None or table is None:
            return
        row = table.verticalHeaderItem(item.row())
        column = table.horizontalHeaderItem(item.column())
        if row is not None and column is not None and isinstance(table, FigureTable):
            self._last_cell = (table, row.text(), column.text())
        title = " · ".join(h.text() for h in (row, column) if h is not None)
        self.show_cases(title, list(cases))

    def _reshow_last_cell(self) -> None:
        """After new figures, list again the cases behind the figure chosen last."""
        if self._last_cell is None:
            return
        table, row, column = self._last_cell
        item = table.find_item(row, column)
        if item is None:
            self.show_cases(f"{row} · {column}", [])
            return
        table.blockSignals(True)
        table.setCurrentItem(item)
        table.blockSignals(False)
        self._on_cell(item)

    def show_cases(self, title: str, cases: list[str]) -> None:
        """List ``cases`` on the right, under ``title``."""
        names = {"validated": self.tr("validated"), "not_validated": self.tr("not validated"),
                 "no_answer": self.tr("no answer"), "undetermined": self.tr("undetermined"),
                 "not_defined": self.tr("not defined")}
        self.cases_title.setText(self.tr("%1: %n case(s)", "", len(cases)).replace(
            "%1", names.get(title, title)))
        self.cases.clear()
        for case in cases:
            QListWidgetItem(case, self.cases)

    def shown_cases(self) -> list[str]:
        """The case keys listed on the right (for tests)."""
        return [self.cases.item(i).text() for i in range(self.cases.count())]

    def _on_case_activated(self, item: QListWidgetItem) -> None:
        self.open_case(item.text())

    def open_case(self, key: str) -> None:
        """Announce ``key`` and show it in the Gold Set section when the window allows."""
        self.case_requested.emit(key)
        store = self.store
        window: Any = self.window()
        if store is None or not hasattr(window, "show_section"):
            return
        case_id = store.case_id_of(key)
        if case_id is None:
            return
        window.show_section(0)
        goldset: Any = window.sections[0]
        opener: Callable[..., Any] | None = getattr(goldset, "clear_filters", None)
        if opener is not None:
            opener()
        from rag_annotator.ui.sections.base import select_row

        row = goldset.model.row_of(case_id)
        if row is not None:
            select_row(goldset.table, row)
