"""The Dashboard's diagnosis and latency panels: where the run failed (access, retrieval,
abstention, generation; cases per family) with the first action each failure suggests, and
latency and cost against the target the user sets."""

from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

from rag_annotator.metrics.diagnosis import KINDS, Diagnosis
from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.ui import labels
from rag_annotator.ui.dashboard.format import pct, translate
from rag_annotator.ui.dashboard.widgets import TableNotePanel
from rag_annotator.ui.models import number


def _kind_names() -> dict[str, str]:
    return {"access": translate("DashboardSection", "Access"),
            "retrieval": translate("DashboardSection", "Retrieval"),
            "abstention": translate("DashboardSection", "Abstention"),
            "generation": translate("DashboardSection", "Generation")}


def _action_names() -> dict[str, str]:
    """``metrics.diagnosis.ACTIONS`` in the user's language."""
    return {
        "Filter retrieval by the user's rights before generation.":
            translate("DashboardSection",
                      "Filter retrieval by the user's rights before generation."),
        "Fix the corpus, chunking or query before the model.":
            translate("DashboardSection", "Fix the corpus, chunking or query before the model."),
        "Withdraw or mark outdated versions so the current one is retrieved.":
            translate("DashboardSection", "Withdraw or mark outdated versions so the current "
                      "one is retrieved."),
        "Adjust the confidence thresholds: it must abstain here.":
            translate("DashboardSection",
                      "Adjust the confidence thresholds: it must abstain here."),
        "Adjust the confidence thresholds: it refused an answerable question.":
            translate("DashboardSection", "Adjust the confidence thresholds: it refused an "
                      "answerable question."),
        "Define the escalation path for sensitive cases.":
            translate("DashboardSection", "Define the escalation path for sensitive cases."),
        "Block or rephrase answers that are not supported.":
            translate("DashboardSection", "Block or rephrase answers that are not supported."),
    }


class DiagnosisPanel(TableNotePanel):
    """``table`` (failing cases per family and kind, the first action as tooltip) and
    ``note`` (the first action of each kind, overall)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("DashboardSection", "Where it failed (cases per family)"),
                         parent)
        self._kinds = _kind_names()
        self._actions = _action_names()

    def clear(self) -> None:
        self.table.fill([], [])

    def show_figures(self, figures: RunFigures) -> None:
        diagnosis = figures.diagnosis
        counts = diagnosis.counts()
        rows = []
        for family in sorted(counts, key=labels.family):
            rows.append((labels.family(family), [
                (number(counts[family][kind]), list(diagnosis.cases(kind, family)),
                 self._action(diagnosis.first_action(kind, family)))
                for kind in KINDS]))
        rows.append((translate("DashboardSection", "All families"), [
            (number(len(diagnosis.cases(kind))), list(diagnosis.cases(kind)),
             self._action(diagnosis.first_action(kind))) for kind in KINDS]))
        self.table.fill([self._kinds[k] for k in KINDS], rows)
        self._show_note(diagnosis)

    def _show_note(self, diagnosis: Diagnosis) -> None:
        lines = [f"<b>{self._kinds[k]}</b>: {self._action(diagnosis.first_action(k))}"
                 for k in KINDS if diagnosis.first_action(k)]
        self.note.setText(
            translate("DashboardSection", "First action:") + "<br>" + "<br>".join(lines)
            if lines else translate("DashboardSection", "No failure found at the top %1.")
            .replace("%1", str(diagnosis.depth)))

    def _action(self, action: str | None) -> str:
        return "" if action is None else self._actions.get(action, action)


class LatencyPanel(QGroupBox):
    """Median and p90 latency, the share under the target, cost per validated answer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("DashboardSection", "Latency and cost"), parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        QVBoxLayout(self).addWidget(self.label)

    def clear(self) -> None:
        self.label.clear()

    def show_figures(self, figures: RunFigures) -> None:
        latency = figures.latency
        if not latency.has_data:
            self.label.setText(translate("DashboardSection",
                                         "This run's answers carry no latency or cost."))
            return

        def ms(value: float | None) -> str:
            return "—" if value is None else f"{value:,.0f} ms".replace(",", "\u202f")

        cost = latency.cost_per_validated
        self.label.setText(translate(
            "DashboardSection",
            "Median %1, p90 %2 over %3 timed answers; %4 under the target of %5 ms. "
            "Cost per validated answer: %6.")
            .replace("%1", ms(latency.median_ms)).replace("%2", ms(latency.p90_ms))
            .replace("%3", str(len(latency.timed_cases)))
            .replace("%4", pct(latency.share_under_target))
            .replace("%5", str(latency.target_ms))
            .replace("%6", translate("DashboardSection", "not computable") if cost is None
                     else f"{cost:.4f}"))
