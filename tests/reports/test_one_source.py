"""The sample's figures are one set of numbers (issue 14, item 3): the dashboard (built in this
process, read back from its tables), ``metrics --json`` (a CLI process), the XLSX summary
(exported by the CLI, read back with python-calamine) and the native JSON's derived agent
figures agree, and the seed 003 denominators agree with a recount straight from the file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from rag_annotator.app import create_main_window
from rag_annotator.import_export.sample import create_sample
from rag_annotator.paths import app_paths
from rag_annotator.reports.words import EN
from rag_annotator.settings import Settings
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.dashboard.section import DashboardSection
from rag_annotator.ui.i18n import install_translations, remove_translations
from tests.helpers import rows, run_cli

RAG_RUN = "bm25-gpt4o-v1"
AGENT_RUN = "agent-support-v1"
ALL = "All families"
MEASURES = ("P@5", "P@10", "R@10", "RR", "nDCG@10", "AP", "Judged@10")


@pytest.fixture
def english() -> Iterator[None]:
    translators = install_translations("en")
    yield
    remove_translations(translators)


@pytest.fixture
def sample(goldset_path: Path) -> Path:
    create_sample(goldset_path, assessor="alice").close()
    return goldset_path


def _cli_json(*args: str) -> dict[str, Any]:
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def _export(path: Path, fmt: str, dest: Path, *extra: str) -> Path:
    done = run_cli("export", str(path), fmt, str(dest), *extra)
    assert done.returncode == 0, done.stderr
    return dest


def _block(sheet: list[list[Any]], title: str) -> list[list[Any]]:
    """The rows under the section titled ``title`` (up to the next blank row or title)."""
    start = next(i for i, row in enumerate(sheet) if row and row[0] == title)
    out = []
    for row in sheet[start + 1:]:
        if not any(cell not in ("", None) for cell in row) or (
                isinstance(row[0], str) and row[0] and all(c in ("", None) for c in row[1:])):
            break
        out.append(row)
    return out


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a == b or {a, b} <= {None, "not computable"}
    return abs(float(a) - float(b)) < 1e-12


def _shows(text: str, value: float | None, decimals: int, scale: float = 1.0) -> bool:
    """The dashboard's ``text`` ("0.150", "72.0%", "—") is ``value`` at its precision (Qt
    rounds halves up, Python's format to even: compare numbers, not strings)."""
    if value is None:
        return text == "—"
    shown = float(text.split()[0].rstrip("%").replace("\u202f", ""))
    return abs(shown - value * scale) <= 0.5 * 10 ** -decimals + 1e-9


def _pct(text: str, value: float | None) -> bool:
    return _shows(text, value, 1, 100.0)


def _dashboard(qtbot, path: Path, run: str) -> DashboardSection:  # type: ignore[no-untyped-def]
    store = GoldSetStore.open(path, assessor="alice")
    window = create_main_window(store, Settings(assessor="alice"), paths=app_paths())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.progress.complete, timeout=5000)  # the judging counts
    dashboard = next(s for s in window.sections if isinstance(s, DashboardSection))
    window.show_section(window.sections.index(dashboard))
    qtbot.waitUntil(lambda: dashboard.figures is not None, timeout=5000)
    index = dashboard.run_combo.findData(run)
    if dashboard.run_combo.currentIndex() != index:
        with qtbot.waitSignal(dashboard.figures_shown, timeout=5000):
            dashboard.run_combo.setCurrentIndex(index)
    assert dashboard.figures is not None and dashboard.figures.run == run
    return dashboard


def _recount(path: Path, run: str) -> tuple[int, int, int]:
    """Seed 003's overall tested / produced / validated, counted in SQL on the file."""
    (tested, produced, validated), = rows(path, """
        WITH run AS (SELECT id FROM runs WHERE name = ?),
        covered AS (SELECT c.id, c.expected_behaviour FROM cases c
            WHERE c.status != 'retired' AND c.kind != 'agent' AND (
            c.id IN (SELECT case_id FROM retrieved WHERE run_id = (SELECT id FROM run)) OR
            c.id IN (SELECT case_id FROM answers WHERE run_id = (SELECT id FROM run)))),
        reviewed AS (SELECT r.outcome, r.validated FROM covered v JOIN answer_reviews r
            ON r.case_id = v.id AND r.run_id = (SELECT id FROM run)
            WHERE v.expected_behaviour = 'answer' AND r.outcome IS NOT NULL
            AND (r.outcome != 'answered' OR r.validated IS NOT NULL))
        SELECT count(*), coalesce(sum(outcome = 'answered'), 0),
               coalesce(sum(outcome = 'answered' AND validated = 1), 0) FROM reviewed""",
        (run,))
    return int(tested), int(produced), int(validated)


def test_retrieval_and_answers_are_the_same_everywhere(qtbot, sample: Path, english: None,  # type: ignore[no-untyped-def]
                                                       tmp_path: Path) -> None:
    metrics = _cli_json("metrics", str(sample), "--run", RAG_RUN, "--json")
    sheet = CalamineWorkbook.from_path(
        str(_export(sample, "xlsx", tmp_path / "s.xlsx", "--locale", "en"))
    ).get_sheet_by_name("Summary").to_python()
    dashboard = _dashboard(qtbot, sample, RAG_RUN)

    # Retrieval means (trec, the default measures): JSON = workbook = dashboard (3 decimals).
    assert tuple(metrics["measures"]) == MEASURES
    retrieval = {row[0]: row for row in _block(sheet, next(
        r[0] for r in sheet if r and str(r[0]).startswith("Retrieval measures")))}
    assert retrieval[RAG_RUN][1] == len(metrics["per_query"])
    for i, measure in enumerate(MEASURES):
        mean = metrics["mean"][measure]
        assert _close(retrieval[RAG_RUN][2 + i], mean), measure
        assert _shows(dashboard.retrieval.text_at(ALL, measure), mean, 3), measure

    # Answers per family and overall (seed 003): JSON = workbook = dashboard = a SQL recount.
    answers = metrics["answers"]
    header, *block = _block(sheet, f"Answers of run {RAG_RUN}, per family")
    column = {name: i for i, name in enumerate(header) if name}  # a share, then its interval
    by_family = {row[0]: row for row in block}
    groups = [(f, g) for f, g in answers["per_family"].items() if g["tested"]]
    for family, g in [*groups, ("all families", answers["overall"])]:
        row = by_family[EN.get(family, family)]  # the workbook words a family code
        figures = [g[k] for k in ("tested", "produced", "validated", "quality", "coverage",
                                  "success")]
        cells = [row[column[k]] for k in ("tested", "produced", "validated", "quality",
                                          "coverage", "success")]
        assert all(_close(a, b) for a, b in zip(cells, figures)), (family, row, figures)
        assert row[column["not yet reviewed"]] == g["unreviewed"], (family, row)
        title = ALL if family == "all families" else labels.family(family)
        shown = [dashboard.answers.text_at(title, c) for c in
                 ("Tested", "Produced", "Validated", "Quality", "Coverage", "Success")]
        assert shown[:3] == [str(n) for n in figures[:3]], (family, shown)
        assert all(_pct(t, v) for t, v in zip(shown[3:], figures[3:])), (family, shown)
    overall = answers["overall"]
    assert (overall["tested"], overall["produced"], overall["validated"]) \
        == _recount(sample, RAG_RUN)
    assert overall["tested"] > overall["produced"] > overall["validated"] > 0

    # Judging coverage of the pools: info --json = workbook = dashboard.
    judgments = _cli_json("info", str(sample), "--json")["judgments"]
    (row,) = _block(sheet, "Judging coverage (effective labels over every pair of the "
                           "pools)")[1:]
    keys = ("relevant", "not_relevant", "unjudged", "disputed")
    assert [int(x) for x in row[:4]] == [judgments[k] for k in keys]
    shown = dashboard.judgments.values()
    assert [shown[labels.judgment(k)] for k in keys[:3]] == [str(judgments[k]) for k in keys[:3]]
    assert shown["of which disputed"] == str(judgments["disputed"])

    # Diagnosis and latency: JSON = dashboard.
    kinds = {"access": "Access", "retrieval": "Retrieval", "abstention": "Abstention",
             "generation": "Generation"}
    for kind, column in kinds.items():
        assert dashboard.diagnosis.text_at(ALL, column) \
            == str(metrics["diagnosis"]["overall"][kind]["cases"])
    latency = metrics["latency"]
    assert f"Median {latency['median_ms']:,.0f} ms".replace(",", "\u202f") \
        in dashboard.latency_panel.label.text()


def test_agent_figures_are_the_same_everywhere(qtbot, sample: Path, english: None,  # type: ignore[no-untyped-def]
                                               tmp_path: Path) -> None:
    metrics = _cli_json("metrics", str(sample), "--run", AGENT_RUN, "--json")["agents"]
    native = json.loads(_export(sample, "json", tmp_path / "s.json").read_text("utf-8"))
    sheet = CalamineWorkbook.from_path(
        str(_export(sample, "xlsx", tmp_path / "s.xlsx", "--locale", "en"))
    ).get_sheet_by_name("Summary").to_python()
    dashboard = _dashboard(qtbot, sample, AGENT_RUN)

    derived = native["agent_metrics"][AGENT_RUN]
    assert derived == {k: metrics[k] for k in ("trajectories", "retired_excluded", "overall",
                                               "per_family")}
    block = _block(sheet, next(r[0] for r in sheet if r and str(r[0]).startswith(
        f"Agents of run {AGENT_RUN}")))[1:]
    by_family = {row[0]: row for row in block}
    for family, g in [*metrics["per_family"].items(), ("all families", metrics["overall"])]:
        row = by_family[family]
        assert row[1] == g["trajectories"]
        # task success (with its low and high), path acceptable, both
        for cell, value in zip((row[2], row[5], row[6]), (g["task_success"]["rate"],
                               g["path_acceptable"]["rate"], g["both"]["rate"])):
            assert _close(cell, value), (family, row)
        assert _close(row[12], g["cost_per_success"])
        title = ALL if family == "all families" else labels.family(family)
        table = dashboard.agents.table
        assert table.text_at(title, "Trajectories") == str(g["trajectories"])
        assert _pct(table.text_at(title, "Task success"), g["task_success"]["rate"])
        assert _pct(table.text_at(title, "Path acceptable"), g["path_acceptable"]["rate"])
        assert _pct(table.text_at(title, "Both"), g["both"]["rate"])
