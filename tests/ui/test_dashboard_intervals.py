"""The Dashboard's uncertainty (issue 16): every share and mean shown with its interval as a
range and an error bar, the level a saved setting, "how many cases are enough" against a
width the user sets, and the drift panel (runs in order, version fields, changes, a chosen
baseline, regressions marked with a word and a sign, their changed fields and flipped
cases)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from scipy.stats import binomtest

from rag_annotator.domain import operations as ops
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.dashboard.section import DashboardSection
from rag_annotator.ui.main_window import MainWindow
from tests.builders import build_regressing
from tests.ui.driving import open_window

ALL = "All families"
RANGE = re.compile(r"\[(-?[\d.]+)–(-?[\d.]+)\]")


@pytest.fixture
def sample_window(qtbot, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    create_sample(goldset_path, assessor="alice").close()
    return open_window(qtbot, goldset_path)


def _dashboard(qtbot, window: MainWindow) -> DashboardSection:  # type: ignore[no-untyped-def]
    dashboard = next(s for s in window.sections if isinstance(s, DashboardSection))
    with qtbot.waitSignal(dashboard.drift_panel.shown, timeout=20_000):
        window.show_section(window.sections.index(dashboard))
    assert dashboard.figures is not None
    return dashboard


def _range(text: str) -> tuple[float, float]:
    found = RANGE.search(text)
    assert found, text
    return float(found[1]), float(found[2])


def _wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    ci = binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    return ci.low, ci.high


def test_figures_show_their_ranges_and_bars_their_error_bars(
        qtbot, sample_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    dashboard = _dashboard(qtbot, sample_window)
    figures = dashboard.figures
    assert figures is not None
    overall = figures.answers.overall
    for column, (k, n) in (("Success", (overall.validated, overall.tested)),
                           ("Quality", (overall.validated, overall.produced)),
                           ("Coverage", (overall.produced, overall.tested))):
        text = dashboard.answers.text_at(ALL, column)
        low, high = _wilson(k, n)  # scipy, the independent peer
        assert _range(text) == (round(low * 100), round(high * 100)), (column, text)
        assert text.startswith(f"{k / n * 100:.1f}%"), text
    ndcg = figures.intervals.mean("nDCG@10")
    assert ndcg is not None and ndcg.low < figures.report.mean["nDCG@10"] <= ndcg.high
    shown = dashboard.retrieval.text_at(ALL, "nDCG@10")
    assert _range(shown) == (round(ndcg.low, 2), round(ndcg.high, 2)), shown
    # error bars: the success interval on the answers' bars, the mean's on the retrieval bars
    bar = next(b for b in dashboard.answers_panel.bars.bars if b.label == ALL)
    low, high = _wilson(overall.validated, overall.tested)
    assert bar.interval == pytest.approx((low, high))
    dashboard.measure_combo.setCurrentIndex(dashboard.measure_combo.findData("nDCG@10"))
    bar = next(b for b in dashboard.retrieval_panel.bars.bars if b.label == ALL)
    assert bar.interval == pytest.approx((ndcg.low, ndcg.high))


def test_the_level_is_a_saved_setting(qtbot, sample_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    dashboard = _dashboard(qtbot, sample_window)
    figures = dashboard.figures
    assert figures is not None
    o = figures.answers.overall
    wide = _range(dashboard.answers.text_at(ALL, "Success"))
    with qtbot.waitSignal(dashboard.figures_shown, timeout=5000):
        dashboard.level_combo.setCurrentIndex(dashboard.level_combo.findData(0.8))
    narrow = _range(dashboard.answers.text_at(ALL, "Success"))
    low, high = _wilson(o.validated, o.tested, 0.8)
    assert narrow == (round(low * 100), round(high * 100))
    assert wide[0] <= narrow[0] and narrow[1] <= wide[1] and narrow != wide
    assert sample_window.settings.interval_level == 0.8
    saved = json.loads(sample_window.paths.settings_file.read_text(encoding="utf-8"))
    assert saved["interval_level"] == 0.8


def test_how_many_cases_are_enough(qtbot, sample_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    dashboard = _dashboard(qtbot, sample_window)
    figures = dashboard.figures
    assert figures is not None
    ordinary = figures.answers.group("ordinary")
    table = dashboard.enough_panel.table
    low, high = _wilson(ordinary.validated, ordinary.tested)
    assert table.text_at("Ordinary", "Success: cases") == str(ordinary.tested)
    assert table.text_at("Ordinary", "Success: ± today") == f"±{(high - low) / 2 * 100:.1f}"
    before = figures.intervals.enough["ordinary"]["success"]
    assert before.more and table.text_at("Ordinary", "Success: more cases") == \
        f"+{before.more}"
    with qtbot.waitSignal(dashboard.figures_shown, timeout=5000):
        dashboard.enough_panel.target.setValue(20)
    after = dashboard.figures.intervals.enough["ordinary"]["success"]  # type: ignore[union-attr]
    assert after.target == pytest.approx(0.20) and after.more is not None
    assert after.more < before.more  # a wider interval asks for fewer cases
    assert table.text_at("Ordinary", "Success: more cases") == f"+{after.more}"
    assert sample_window.settings.enough_points == 20


def test_the_drift_panel_lists_the_runs_and_follows_the_baseline(
        qtbot, sample_window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    dashboard = _dashboard(qtbot, sample_window)
    panel = dashboard.drift_panel
    table = panel.table
    titles = [table.verticalHeaderItem(r).text() for r in range(table.rowCount())]
    assert titles == ["bm25-gpt4o-v1 (baseline)", "hybride-mistral-v2", "agent-support-v1",
                      "agent-support-v2"]  # the order they were made
    assert table.text_at("hybride-mistral-v2", "Model") == "mistral-large-2411"
    assert table.text_at("hybride-mistral-v2", "Index") == "hybride-dense768-bm25-2025-04-02"
    assert RANGE.search(table.text_at("hybride-mistral-v2", "nDCG@10"))
    assert table.text_at("bm25-gpt4o-v1 (baseline)", "Δ Success vs previous") == "—"
    with qtbot.waitSignal(panel.shown, timeout=20_000):
        panel.baseline_combo.setCurrentIndex(panel.baseline_combo.findData(
            "hybride-mistral-v2"))
    assert table.verticalHeaderItem(1).text() == "hybride-mistral-v2 (baseline)"
    assert table.text_at("hybride-mistral-v2 (baseline)", "Δ nDCG@10 vs baseline") == "—"
    delta = table.text_at("bm25-gpt4o-v1", "Δ nDCG@10 vs baseline")
    assert delta.startswith("−"), delta  # bm25's nDCG@10 is below hybride's


@pytest.fixture
def regressing(goldset_path: Path) -> Path:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        build_regressing(store)
    return goldset_path


def test_a_regression_is_marked_with_its_changes_and_flipped_cases(
        qtbot, regressing: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, regressing)
    dashboard = _dashboard(qtbot, window)
    panel = dashboard.drift_panel
    marks = panel.regression_texts()
    assert marks[0] == ""
    assert marks[1].startswith("▼ regression: ") and "nDCG@10" in marks[1]  # a word, a sign
    panel.table.setCurrentCell(1, 0)
    detail = panel.detail.text()
    assert "worse than v1 over 12 cases: " in detail and "nDCG@10 (change −1.000" in detail
    assert detail.count("Model: m1 → m2") == 1
    assert "Corpus" not in detail  # unchanged fields are not listed
    assert "Relevant found → lost: Q01" in detail
    cell = panel.table.item(1, panel.table.columnCount() - 1)
    panel.table.itemClicked.emit(cell)
    assert dashboard.shown_cases() == [f"Q{i:02}" for i in range(1, 13)]


def test_run_against_run_says_whether_chance_explains_it(
        qtbot, regressing: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, regressing)
    dashboard = _dashboard(qtbot, window)
    figures = dashboard.figures
    assert figures is not None and figures.run == "v1"
    assert dashboard.other_combo.currentData() == "v2" and figures.significance
    table = dashboard.comparison
    result = figures.significance["nDCG@10"]
    assert table.text_at("nDCG@10", "Verdict") == "▲ better"
    assert table.text_at("nDCG@10", "p (Holm)") == f"{result.p_holm:.3f}"
    assert table.text_at("nDCG@10", "Paired difference [range]").startswith("+1.000")
    dashboard.family_combo.setCurrentIndex(dashboard.family_combo.findData("ordinary"))
    assert table.text_at("nDCG@10", "Verdict") == ""  # the paired test is over every case


def test_a_file_past_the_threshold_is_bootstrapped_on_a_worker(
        qtbot, goldset_path: Path, english: None) -> None:  # type: ignore[no-untyped-def]
    """250 cases of 10 retrieved documents (2,500 rows, past WORKER_THRESHOLD): the
    refresh returns at once and the figures, intervals included, arrive from the worker."""
    import rag_annotator.ui.dashboard.section as module
    from rag_annotator.domain.clock import utc_now

    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        now = utc_now()
        with store.operation("test_load", "cases") as op:
            op.insert_many("documents", ({"key": f"D{i}", "title": "t", "text": "x",
                                          "content_hash": f"h{i}", "created_at": now,
                                          "updated_at": now} for i in range(40)))
            op.insert_many("cases", ({"key": f"Q{i:03}", "question": "?", "created_at": now,
                                      "updated_at": now} for i in range(250)))
        ops.create_run(store, name="big")
        run = store.by_key("runs", "big")["id"]
        with store.operation("test_load", "runs") as op:
            op.insert_many("retrieved", ({"run_id": run, "case_id": case, "rank": rank,
                                          "document_id": (case + rank) % 40 + 1,
                                          "score": 1.0 / rank}
                                         for case in range(1, 251) for rank in range(1, 11)))
            # every case judged on its first-ranked document (a topic counts in a mean only
            # with a judgment, as in trec_eval)
            assessor = op.insert("assessors", {"name": "alice", "created_at": now})["id"]
            op.insert_many("judgments", ({"case_id": case, "document_id": (case + 1) % 40 + 1,
                                          "assessor_id": assessor, "grade": case % 2,
                                          "updated_at": now} for case in range(1, 251)))
        assert store.count("retrieved") > module.WORKER_THRESHOLD
    window = open_window(qtbot, goldset_path)
    dashboard = next(s for s in window.sections if isinstance(s, DashboardSection))
    with qtbot.waitSignal(dashboard.figures_shown, timeout=20_000):
        window.show_section(window.sections.index(dashboard))
        assert dashboard.figures is None and dashboard.busy.isVisibleTo(dashboard)
    shown = RANGE.search(dashboard.retrieval.text_at(ALL, "P@5"))
    assert shown and float(shown[1]) < 0.1 < float(shown[2])  # half the cases: P@5 = 0.1
