"""The Dashboard: figures per family, the policy always visible, cases behind every number,
live refresh (issue 6; how fast a new judgment shows: tests/bench/bench_dashboard_refresh.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from rag_annotator.domain import judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.import_export.sample import create_sample
from rag_annotator.metrics import Policy
from rag_annotator.ui.dashboard.section import DashboardSection
from rag_annotator.ui.main_window import MainWindow
from tests.ui.driving import open_window

ALL = "All families"


@pytest.fixture
def sample_window(qtbot, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    create_sample(goldset_path, assessor="alice").close()
    return open_window(qtbot, goldset_path)


def _dashboard(qtbot, window: MainWindow) -> DashboardSection:  # type: ignore[no-untyped-def]
    dashboard = window.sections[5]
    assert isinstance(dashboard, DashboardSection)
    window.show_section(5)
    qtbot.waitUntil(lambda: dashboard.figures is not None, timeout=3000)
    return dashboard


def test_dashboard_reflects_a_new_judgment(qtbot, sample_window: MainWindow) -> None:
    """Judge, through the window's undo stack, an unjudged document of a judged case's top 5
    relevant: the overall P@5 shown rises, and undo puts it back.
    (How fast: tests/bench/bench_dashboard_refresh.py prints it; DESIGN section 9.)"""
    window = sample_window
    dashboard = _dashboard(qtbot, window)
    store = window.store
    assert store is not None
    figures = dashboard.figures
    assert figures is not None
    inputs = store.metric_inputs(figures.run)
    # an unjudged document in the top 5 of a judged case (a case in every mean)
    case, doc = next((c, d) for c, (ranking, labels) in inputs.items()
                     if c in figures.report.topics for d in ranking[:5]
                     if labels.get(d) is None)
    before = dashboard.retrieval.text_at(ALL, "P@5")
    assert before
    case_id = store.by_key("cases", case)["id"]
    doc_id = store.by_key("documents", doc)["id"]
    window.undo.run(lambda s: judging_ops.set_judgment(s, case_id, doc_id, 1))
    qtbot.waitUntil(lambda: dashboard.retrieval.text_at(ALL, "P@5") != before, timeout=2000)
    after = dashboard.retrieval.text_at(ALL, "P@5")
    assert float(after.split()[0]) > float(before.split()[0])
    window.undo.undo()
    qtbot.waitUntil(lambda: dashboard.retrieval.text_at(ALL, "P@5") == before, timeout=1000)


def test_a_verdict_moves_the_answer_figures(qtbot, sample_window: MainWindow) -> None:
    window = sample_window
    dashboard = _dashboard(qtbot, window)
    store = window.store
    assert store is not None and dashboard.figures is not None
    contradicted = dashboard.figures.answers.contradicted_claims
    claim = store.query("SELECT cl.id FROM claims cl JOIN answers a ON a.id = cl.answer_id "
                        "JOIN runs r ON r.id = a.run_id WHERE r.name = ? "
                        "AND cl.verdict IS NULL LIMIT 1", (dashboard.figures.run,))[0]["id"]
    window.undo.run(lambda s: ops.set_claim_verdict(s, claim, "contradicted"))
    qtbot.waitUntil(lambda: dashboard.figures is not None
                    and dashboard.figures.answers.contradicted_claims == contradicted + 1,
                    timeout=1000)


def test_policy_is_visible_and_switchable(qtbot, sample_window: MainWindow) -> None:
    dashboard = _dashboard(qtbot, sample_window)
    assert dashboard.policy_combo.isVisible()
    assert "trec" in dashboard.policy_combo.currentText()
    assert "trec_eval" in dashboard.policy_note.text()
    assert "not relevant" in dashboard.policy_note.text()  # the pooling assumption
    with qtbot.waitSignal(dashboard.figures_shown, timeout=2000):
        dashboard.policy_action.trigger()  # Alt+P
    assert dashboard.figures is not None and dashboard.figures.policy is Policy.JUDGED_ONLY
    with qtbot.waitSignal(dashboard.figures_shown, timeout=2000):
        dashboard.next_policy()
    assert dashboard.figures.policy is Policy.STRICT
    assert "undetermined" in dashboard.policy_note.text()
    # Under strict the sample has undetermined values: the distribution says how many.
    rows = dict(dashboard.figures.histogram("P@5"))
    assert rows["undetermined"]
    assert "(" in dashboard.retrieval.text_at(ALL, "P@5")  # "x.xxx  (published/total)"
    # ... and which pairs to judge next, most settling first.
    assert dashboard.next_box.isVisible()
    pairs = dashboard.figures.next_pairs
    assert pairs and dashboard.next_pairs.text_at("1", "Case") == pairs[0].case_key
    assert dashboard.next_pairs.text_at("1", "Document") == pairs[0].document_key
    with qtbot.waitSignal(dashboard.figures_shown, timeout=2000):
        dashboard.next_policy()
    assert dashboard.figures.policy is Policy.TREC
    assert not dashboard.next_box.isVisible()


def test_every_number_lists_its_cases_and_opens_one(qtbot, sample_window: MainWindow) -> None:
    window = sample_window
    dashboard = _dashboard(qtbot, window)
    figures = dashboard.figures
    assert figures is not None
    item = dashboard.retrieval.find_item(ALL, "P@5")
    assert item is not None
    dashboard.retrieval.setCurrentItem(item)
    mean = figures.figure("P@5")
    assert mean is not None
    assert dashboard.shown_cases() == list(mean.cases + mean.left_out)
    assert len(dashboard.shown_cases()) == len(figures.report.per_query)
    # Answer table: the cases behind "Unreviewed" of all families.
    unreviewed = dashboard.answers.find_item(ALL, "Unreviewed")
    assert unreviewed is not None
    dashboard.answers.setCurrentItem(unreviewed)
    assert dashboard.shown_cases() == list(figures.answers.overall.unreviewed_cases)
    # A bar: the distribution's first bin.
    name, cases = figures.histogram("P@5")[0]
    with qtbot.waitSignal(dashboard.distribution.clicked) as blocker:
        bar = dashboard.distribution
        dashboard.figures_area.ensureWidgetVisible(bar)  # below the answers: scroll to it
        bar.repaint()
        rect = bar._hits[0][0]
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == [name, cases]
    # Activating a case opens it in the Gold Set section.
    first = dashboard.shown_cases()[0]
    with qtbot.waitSignal(dashboard.case_requested) as opened:
        dashboard.open_case(first)
    assert opened.args == [first]
    goldset = window.sections[0]
    assert window.current_section() is goldset
    row = goldset.table.currentIndex().row()
    assert goldset.model.row_at(row)["key"] == first  # type: ignore[attr-defined]


def test_comparison_filters_by_family(qtbot, sample_window: MainWindow) -> None:
    dashboard = _dashboard(qtbot, sample_window)
    figures = dashboard.figures
    assert figures is not None and figures.comparison is not None  # the sample has two runs
    assert dashboard.comparison.text_at("RR", "Wins") != ""
    total = sum(int(dashboard.comparison.text_at("RR", c))
                for c in ("Wins", "Losses", "Ties", "Not comparable"))
    assert total == len(figures.comparison.per_case)
    index = dashboard.family_combo.findData("ordinary")
    dashboard.family_combo.setCurrentIndex(index)
    ordinary = sum(int(dashboard.comparison.text_at("RR", c))
                   for c in ("Wins", "Losses", "Ties", "Not comparable"))
    assert 0 < ordinary < total


def test_hidden_dashboard_catches_up_when_shown(qtbot, window: MainWindow) -> None:
    dashboard = _dashboard(qtbot, window)
    before = dashboard.retrieval.text_at(ALL, "RR")
    window.show_section(0)
    store = window.store
    assert store is not None
    q2 = store.by_key("cases", "Q2")["id"]
    d4 = store.by_key("documents", "D4")["id"]
    window.undo.run(lambda s: judging_ops.set_judgment(s, q2, d4, 1))
    assert dashboard.dirty and dashboard.retrieval.text_at(ALL, "RR") == before
    window.show_section(5)
    qtbot.waitUntil(lambda: dashboard.retrieval.text_at(ALL, "RR") != before, timeout=1000)


def test_an_answer_review_moves_seed003_counts(qtbot, sample_window: MainWindow) -> None:
    window = sample_window
    dashboard = _dashboard(qtbot, window)
    store = window.store
    assert store is not None and dashboard.figures is not None
    run = dashboard.figures.run
    run_id = store.by_key("runs", run)["id"]
    # An answer the sample's expert has not decided on yet (validated unknown).
    undecided = {r["key"] for r in store.query(
        "SELECT c.key FROM answer_reviews r JOIN cases c ON c.id = r.case_id "
        "WHERE r.run_id = ? AND r.validated IS NULL AND c.expected_behaviour = 'answer'",
        (run_id,))}
    case = next(i.case_key for i in dashboard.figures.answers.items
                if i.case_key in undecided and i.has_answer)
    tested = int(dashboard.answers.text_at(ALL, "Tested"))
    validated = int(dashboard.answers.text_at(ALL, "Validated"))
    case_id = store.by_key("cases", case)["id"]
    window.undo.run(lambda s: ops.set_answer_review(s, run_id, case_id, outcome="answered",
                                                    validated=True))
    qtbot.waitUntil(lambda: dashboard.answers.text_at(ALL, "Tested") == str(tested + 1),
                    timeout=1000)
    assert dashboard.answers.text_at(ALL, "Validated") == str(validated + 1)
    window.undo.undo()
    qtbot.waitUntil(lambda: dashboard.answers.text_at(ALL, "Tested") == str(tested),
                    timeout=1000)


def test_big_files_are_computed_on_a_worker(qtbot, sample_window: MainWindow,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import rag_annotator.ui.dashboard.section as module

    dashboard = _dashboard(qtbot, sample_window)
    expected = dashboard.retrieval.text_at(ALL, "P@5")
    monkeypatch.setattr(module, "WORKER_THRESHOLD", 0)
    dashboard.figures = None
    dashboard.retrieval.fill([], [])
    with qtbot.waitSignal(dashboard.figures_shown, timeout=5000):
        dashboard.refresh()
        assert dashboard.figures is None  # not computed on the GUI thread
    assert dashboard.retrieval.text_at(ALL, "P@5") == expected


def test_a_file_without_runs_says_so(qtbot, goldset_path: Path, english: None) -> None:
    from rag_annotator.storage.store import GoldSetStore

    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        ops.create_case(store, key="Q1", question="?")
    window = open_window(qtbot, goldset_path)
    dashboard = window.sections[5]
    assert isinstance(dashboard, DashboardSection)
    window.show_section(5)
    qtbot.waitUntil(lambda: dashboard.loaded, timeout=2000)
    assert dashboard.empty.isVisible() and dashboard.figures is None
    assert not dashboard.next_box.isVisible()
    assert dashboard.families.values()["Ordinary"] == "1"


def test_agreement_between_assessors_is_shown_per_family(qtbot, window: MainWindow) -> None:
    from sklearn.metrics import cohen_kappa_score

    dashboard = _dashboard(qtbot, window)
    store = window.store
    assert store is not None
    # Pairs both alice and bob labelled (relevant or not), as the rich fixture made them.
    by = {}
    for case, doc, who, grade, _family in store.judgment_rows():
        by.setdefault((case, doc), {})[who] = int(grade >= 1)
    both = [v for v in by.values() if {"alice", "bob"} <= v.keys()]
    alice, bob = [v["alice"] for v in both], [v["bob"] for v in both]
    expected = cohen_kappa_score(alice, bob)
    agree = sum(a == b for a, b in zip(alice, bob)) / len(both) * 100
    assert dashboard.agreement.isVisibleTo(dashboard)
    assert dashboard.agreement.text_at("All families", "Pairs judged by 2+") == str(len(both))
    assert dashboard.agreement.text_at("All families", "Cohen's κ") == f"{expected:.3f}"
    assert dashboard.agreement.text_at("All families", "Agreement") == f"{agree:.1f} %"
    assert dashboard.agreement.text_at("Ordinary", "Pairs judged by 2+") == str(len(both))


def test_the_panels_keep_their_french(qtbot, goldset_path: Path, french: None) -> None:
    """The panels moved out of DashboardSection keep its translation context."""
    create_sample(goldset_path, assessor="alice").close()
    dashboard = _dashboard(qtbot, open_window(qtbot, goldset_path))
    titles = {panel.title() for panel in (dashboard.retrieval_panel, dashboard.answers_panel,
                                          dashboard.diagnosis_panel, dashboard.latency_panel,
                                          dashboard.agreement_panel)}
    assert titles == {
        "Recherche",
        "Réponses par famille\xa0: testées / produites / validées",
        "Où le système échoue (cas par famille)", "Latence et coût",
        "Accord entre annotateurs sur la pertinence (pertinent ou non)"}
    assert dashboard.counts.families.title() == "Cas par famille"
    assert dashboard.answers.horizontalHeaderItem(0).text() != "Tested"


def test_the_retrieval_panel_says_over_which_topics_the_means_run(
        qtbot, sample_window: MainWindow) -> None:
    """Issue 18: the label names the topic set of every mean (judged cases the run covers)
    and the rule for values not defined, as ``metrics`` prints it."""
    dashboard = _dashboard(qtbot, sample_window)
    figures = dashboard.figures
    assert figures is not None
    text = dashboard.retrieval_panel.topics_label.text()
    assert f"Means over the {len(figures.report.topics)} judged cases the run covers" in text
    assert "counts 0, as in trec_eval" in text
    if figures.report.unjudged_topics:
        assert f"{len(figures.report.unjudged_topics)} cases without any judgment" in text


def _wheel(widget, steps: int = -3) -> bool:  # type: ignore[no-untyped-def]
    """Turn the mouse wheel over the middle of ``widget`` (negative: towards the user);
    whether the widget kept the turn (False: it leaves it to its parents, as Qt passes a
    real wheel up to the page)."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    centre = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget.viewport() if hasattr(widget, "viewport") else widget,
                           event)
    return bool(event.isAccepted())


def test_the_wheel_scrolls_the_page_not_a_table_nor_a_field(
        qtbot, sample_window: MainWindow) -> None:
    """Over a table wider than the page, the wheel used to scroll it sideways; over the
    measure chosen for the bars, it changed the measure."""
    dashboard = _dashboard(qtbot, sample_window)
    sample_window.resize(900, 700)  # narrow: the answers table overflows sideways
    qtbot.wait(50)
    table = dashboard.answers
    sideways = table.horizontalScrollBar()
    assert sideways.maximum() > 0  # it does overflow
    assert _wheel(table) is False  # left to the page
    assert sideways.value() == 0
    page = dashboard.figures_area.verticalScrollBar()
    combo = dashboard.measure_combo
    index = combo.currentIndex()
    page.setValue(page.maximum() // 2)
    before = page.value()
    _wheel(combo, steps=3)
    assert combo.currentIndex() == index  # the field did not change
    assert page.value() < before  # the page scrolled up instead


def test_the_explanations_are_folded_until_asked(qtbot, sample_window: MainWindow) -> None:
    dashboard = _dashboard(qtbot, sample_window)
    note = dashboard.policy_note
    shown = note.label.text()
    assert "What does this mean?" in shown and "trec_eval" not in shown
    note.label.linkActivated.emit("#more")
    assert "trec_eval" in note.label.text() and "Pooling assumption" in note.label.text()
    note.label.linkActivated.emit("#fold")
    assert "trec_eval" not in note.label.text()
    headline = dashboard.headline_panel  # the page opens on the headline figures
    body = dashboard.figures_area.widget().layout()
    order = [body.itemAt(i).widget() for i in range(body.count())
             if body.itemAt(i).widget() is not None]
    assert order.index(headline) < order.index(dashboard.answers_panel) \
        < order.index(dashboard.retrieval_panel) < order.index(dashboard.counts)
    assert order.index(dashboard.team_panel) < order.index(dashboard.answers_panel)
    assert headline.texts() and headline.texts()[0][1] == "Questions answered correctly"
