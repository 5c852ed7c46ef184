"""The Dashboard's agent panel (issue 9): figures per family, cases behind each, no RAG
panels for a run of trajectories only, live refresh after a review."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from rag_annotator.domain import agent_ops
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.dashboard.section import DashboardSection
from rag_annotator.ui.main_window import MainWindow
from tests.builders import build_rich
from tests.metrics.agent_seed import build_agents
from tests.ui.driving import open_window

ALL = "All families"


def _dashboard(qtbot, window: MainWindow, run: str) -> DashboardSection:  # type: ignore[no-untyped-def]
    dashboard = next(s for s in window.sections if isinstance(s, DashboardSection))
    window.show_section(window.sections.index(dashboard))
    qtbot.waitUntil(lambda: dashboard.figures is not None, timeout=3000)
    index = dashboard.run_combo.findData(run)
    if dashboard.run_combo.currentIndex() != index:
        with qtbot.waitSignal(dashboard.figures_shown, timeout=3000):
            dashboard.run_combo.setCurrentIndex(index)
    assert dashboard.figures is not None and dashboard.figures.run == run
    return dashboard


@pytest.fixture
def agent_window(qtbot, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        build_rich(store)
        build_agents(store)
    return open_window(qtbot, goldset_path)


def test_agent_run_shows_its_figures_and_no_rag_panels(qtbot, agent_window: MainWindow
                                                       ) -> None:
    dashboard = _dashboard(qtbot, agent_window, "agent-v1")
    panel = dashboard.agents
    assert panel.isVisible() and dashboard.agent_only.isVisible()
    assert all(not box.isVisible() for box in dashboard._metric_boxes)
    # nothing about documents or answers to choose for trajectories only
    assert not dashboard.policy_combo.isEnabled() and not dashboard.other_combo.isEnabled()
    table = panel.table
    assert table.text_at(ALL, "Trajectories") == "5"
    assert table.text_at(ALL, "Task success").startswith("75.0%")
    assert table.text_at(ALL, "Task success").endswith("(3/4)")
    assert table.text_at(ALL, "Path acceptable").startswith("60.0%")
    assert table.text_at(ALL, "Undecided") == "1"
    assert table.text_at(ALL, "Mean steps") == "2.8"
    assert table.text_at(ALL, "Cost per success") == "0.0217"
    assert table.text_at("Sensitive", "Task success").startswith("—")
    # 1 broken of 4 checked, with its Wilson range (scipy: 0.046-0.699)
    assert panel.violations.text_at("verifier_identite < modifier_offre",
                                    "Violation rate") == "25.0% [5–70]"
    assert panel.violations.text_at("token budget", "Unknown") == "1"
    # Every figure lists its cases; activating one opens it in the Gold Set section.
    panel.table.setCurrentItem(panel.table.find_item(ALL, "Failed"))
    assert dashboard.shown_cases() == ["A04"]
    panel.violations.setCurrentItem(panel.violations.find_item(
        "forbidden: supprimer_compte", "Violation rate"))
    assert dashboard.shown_cases() == ["A02"]
    with qtbot.waitSignal(panel.bars.clicked) as blocker:
        panel.bars.repaint()
        rect = next(r for r, name, _c in panel.bars._hits if name.startswith("forbidden"))
        qtbot.mouseClick(panel.bars, Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args[1] == ["A02"]
    with qtbot.waitSignal(dashboard.case_requested) as opened:
        dashboard.cases.itemActivated.emit(dashboard.cases.item(0))
    assert opened.args == ["A02"]
    goldset = agent_window.sections[0]
    assert agent_window.current_section() is goldset
    assert goldset.model.row_at(goldset.table.currentIndex().row())["key"] == "A02"  # type: ignore[attr-defined]


def test_a_review_moves_the_figures_and_undo_puts_them_back(qtbot, agent_window: MainWindow
                                                             ) -> None:
    dashboard = _dashboard(qtbot, agent_window, "agent-v1")
    store = agent_window.store
    assert store is not None
    tid = next(r["id"] for r in store.trajectory_queue("agent-v1") if r["case_key"] == "A03")
    table = dashboard.agents.table
    assert table.text_at(ALL, "Overruled") == "0 / 0"
    table.setCurrentItem(table.find_item(ALL, "Overruled"))
    agent_window.undo.run(lambda s: agent_ops.review_trajectory(
        s, tid, path_acceptable=True, path_reason="identité vérifiée au guichet"))
    qtbot.waitUntil(lambda: table.text_at(ALL, "Overruled") == "0 / 1", timeout=2000)
    assert table.text_at(ALL, "Path acceptable").startswith("80.0%")
    assert dashboard.shown_cases() == ["A03"]  # the list follows the chosen figure
    agent_window.undo.undo()
    qtbot.waitUntil(lambda: table.text_at(ALL, "Overruled") == "0 / 0", timeout=2000)


def test_a_rag_run_keeps_its_panels_and_shows_no_agent_panel(qtbot, agent_window: MainWindow
                                                              ) -> None:
    dashboard = next(s for s in agent_window.sections if isinstance(s, DashboardSection))
    agent_window.show_section(agent_window.sections.index(dashboard))
    qtbot.waitUntil(lambda: dashboard.figures is not None, timeout=3000)
    # by default a RAG run is shown and compared, though "agent-v1" sorts first
    assert dashboard.run_combo.currentData() == "bm25"
    assert dashboard.other_combo.currentData() == "dense"
    assert not dashboard.agents.isVisible() and not dashboard.agent_only.isVisible()
    assert all(box.isVisible() for box in dashboard._metric_boxes)
    assert dashboard.policy_combo.isEnabled() and dashboard.other_combo.isEnabled()
    figures = dashboard.figures
    assert figures is not None and set(figures.report.per_query) == {"Q1", "Q2"}


def test_agent_figures_come_from_the_worker_too(qtbot, agent_window: MainWindow,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import rag_annotator.ui.dashboard.section as module

    dashboard = _dashboard(qtbot, agent_window, "agent-v1")
    expected = dashboard.agents.table.text_at(ALL, "Task success")
    monkeypatch.setattr(module, "WORKER_THRESHOLD", 0)
    dashboard.agents.clear()
    with qtbot.waitSignal(dashboard.figures_shown, timeout=5000):
        dashboard.refresh()
        assert dashboard.agents.table.text_at(ALL, "Task success") == ""  # not yet
    assert dashboard.agents.table.text_at(ALL, "Task success") == expected


def test_trials_of_a_tau_bench_run_show_success_per_trial_and_pass_k(
        qtbot, goldset_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    """tau-bench's published cut (tests/data/tau_bench): the agent panel says the success
    rate of each trial and pass^k, computed here from the file's rewards."""
    import json
    from math import comb

    from rag_annotator.import_export.tau_bench import import_tau

    cut = Path(__file__).parents[1] / "data" / "tau_bench" / "gpt-4o-airline-cut.json"
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        import_tau(store, cut, run="gpt-4o")
    records = json.loads(cut.read_text(encoding="utf-8"))
    window = open_window(qtbot, goldset_path)
    panel = _dashboard(qtbot, window, "gpt-4o").agents
    assert panel.trials.isVisible()
    text = panel.trials.text()
    for trial in range(4):
        rewards = [r["reward"] for r in records if r["trial"] == trial]
        assert f"{trial}: {100 * sum(rewards) / len(rewards):.1f}%" in text
    tasks = {r["task_id"] for r in records}
    c = {t: sum(r["reward"] == 1.0 for r in records if r["task_id"] == t) for t in tasks}
    pass_4 = sum(comb(n, 4) / comb(4, 4) for n in c.values()) / len(tasks)
    assert f"k=4 {pass_4:.3f}" in text
