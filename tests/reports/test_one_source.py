"""The sample's figures are one set of numbers (issue 14, item 3): the dashboard (built in this
process, read back from its tables), ``metrics --json`` (a CLI process), the XLSX summary
(exported by the CLI, read back with python-calamine) and the native JSON's derived agent
figures agree, and the seed 003 denominators agree with a recount straight from the file."""

from __future__ import annotations

import json
import re
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
MEASURES = ("P@5", "P@10", "R@10", "RR", "nDCG@10", "AP", "Judged@10")  # metrics' defaults


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


#: A Dashboard cell: "0.746 [0.46–0.95]  (7/24)", "33.3% [6–79]", "—".
CELL = re.compile(r"^(?P<value>—|-?[\d.,]+)\s*%?(?:\s*\[(?P<low>[\d.,]+)[–-](?P<high>[\d.,]+)\])?"
                  r"(?:\s*\((?P<n>\d+)(?:/\d+)?\))?$")


def _cell(text: str) -> tuple[float | None, float | None, float | None, int | None]:
    """(value, low, high, n) of a Dashboard cell, as numbers."""
    found = CELL.match(text.replace("\u202f", "").strip())
    assert found is not None, text

    def number(part: str | None) -> float | None:
        return None if part in (None, "—") else float(str(part).replace(",", "."))

    n = found["n"]
    return (number(found["value"]), number(found["low"]), number(found["high"]),
            None if n is None else int(n))


def _near(shown: float | None, value: float | None, places: int, scale: float = 1.0) -> bool:
    """``shown`` is ``value`` at the precision a surface prints it."""
    if value is None or shown is None:
        return value is None and shown is None
    return abs(shown - value * scale) <= 0.5 * 10 ** -places + 1e-9


def _check_retrieval(dashboard: DashboardSection, metrics: dict[str, Any],
                     detail: list[list[Any]]) -> int:
    """Every retrieval mean, overall and per family: the same value, case count and
    interval on the Dashboard as in ``metrics --json``; the workbook's count and means."""
    checked = 0
    families: list[tuple[str | None, str]] = [(None, ALL)] + [
        (f, labels.family(f)) for f in metrics["mean_per_family"]]
    for family, title in families:
        for measure in MEASURES:
            if family is None:
                value, n = metrics["mean"][measure], metrics["mean_count"][measure]
                interval = metrics["mean_ci"][measure]
            else:
                value = metrics["mean_per_family"][family][measure]
                n = metrics["mean_per_family_count"][family][measure]
                interval = metrics["mean_per_family_ci"][family][measure]
            shown, low, high, count = _cell(dashboard.retrieval.text_at(title, measure))
            assert _near(shown, value, 3), (title, measure, shown, value)
            assert count == n, (title, measure, count, n)
            if interval is not None:
                assert _near(low, interval[0], 2) and _near(high, interval[1], 2), (
                    title, measure, low, high, interval)
            checked += 1
    # the workbook's retrieval block: the cases its means count, then the means
    header, row = detail[0], next(r for r in detail[1:] if r[0] == RAG_RUN)
    assert header[1] == "judged cases counted"
    assert row[1] == metrics["mean_count"]["P@5"] != len(metrics["per_query"])
    for i, measure in enumerate(MEASURES):
        assert _close(row[2 + i], metrics["mean"][measure]), measure
    return checked


def _check_answers(dashboard: DashboardSection, metrics: dict[str, Any],
                   block: list[list[Any]]) -> int:
    """Quality, coverage and success of every family and overall: value, count and
    interval on the Dashboard, in ``metrics --json`` and in the workbook."""
    answers = metrics["answers"]
    header, *rows = block
    column = {name: i for i, name in enumerate(header) if name}  # a share, then low, high
    by_family = {row[0]: row for row in rows}
    counts = {"quality": "produced", "coverage": "tested", "success": "tested"}
    checked = 0
    groups = [(f, g) for f, g in answers["per_family"].items() if g["tested"]]
    for family, g in [*groups, ("all families", answers["overall"])]:
        row = by_family[EN.get(family, family)]  # the workbook words a family code
        title = ALL if family == "all families" else labels.family(family)
        for name, count in counts.items():
            value, interval, n = g[name], g[f"{name}_ci"], g[count]
            i = column[name]
            assert _close(row[i], value), (family, name)
            assert row[column[count]] == n, (family, name)
            if interval is not None:
                assert _close(row[i + 1], interval[0]) and _close(row[i + 2], interval[1])
            shown, low, high, _n = _cell(dashboard.answers.text_at(title, name.title()))
            assert _near(shown, value, 1, 100), (family, name, shown, value)
            assert dashboard.answers.text_at(title, count.title()) == str(n)
            if interval is not None:
                assert _near(low, interval[0], 0, 100) and _near(high, interval[1], 0, 100)
            checked += 1
    return checked


def test_every_figure_is_the_same_on_every_surface(qtbot, sample: Path, english: None,  # type: ignore[no-untyped-def]
                                                   tmp_path: Path) -> None:
    """The sample's figures rendered by every surface — the Dashboard's tables, ``metrics
    --json``, the workbook read back with python-calamine and the PDF's text — give the same
    value, the same number of cases and the same interval for each."""
    metrics = _cli_json("metrics", str(sample), "--run", RAG_RUN, "--json")
    book = CalamineWorkbook.from_path(
        str(_export(sample, "xlsx", tmp_path / "s.xlsx", "--locale", "en")))
    detail = book.get_sheet_by_name("Figures in detail").to_python()
    dashboard = _dashboard(qtbot, sample, RAG_RUN)

    assert tuple(metrics["measures"]) == MEASURES
    retrieval = _block(detail, next(r[0] for r in detail
                                    if r and str(r[0]).startswith("Retrieval measures")))
    checked = _check_retrieval(dashboard, metrics, retrieval)
    checked += _check_answers(dashboard, metrics,
                              _block(detail, f"Answers of run {RAG_RUN}, per family"))
    assert checked > 40
    overall = metrics["answers"]["overall"]
    assert (overall["tested"], overall["produced"], overall["validated"]) \
        == _recount(sample, RAG_RUN)

    # The headline figures of the latest version: the manager's sheet, the PDF, the
    # Dashboard's first panel and metrics --json say the same value, count and range.
    latest = "hybride-mistral-v2"
    page = book.get_sheet_by_name("Summary").to_python()
    start = next(i for i, r in enumerate(page) if r and r[0] == "Figure")
    sheet_rows = {r[0]: r for r in page[start + 1:] if r and r[0] and len(r) > 5
                  and isinstance(r[5], float | int) and r[5] != ""}
    pdf = _pdf_text(_export(sample, "pdf", tmp_path / "m.pdf", "--locale", "en"))
    latest_json = _cli_json("metrics", str(sample), "--run", latest, "--measures",
                            "Success@10", "--json")
    with qtbot.waitSignal(dashboard.figures_shown, timeout=5000):
        dashboard.run_combo.setCurrentIndex(dashboard.run_combo.findData(latest))
    shown = {label: (value, count, range_) for value, label, count, range_
             in dashboard.headline_panel.texts()}
    answers = latest_json["answers"]["overall"]
    expected = {  # label → (value, k, n, interval) from metrics --json
        "Questions answered correctly": (answers["success"], answers["validated"],
                                         answers["tested"], answers["success_ci"]),
        "A right document among the first 10 results": (
            latest_json["mean"]["Success@10"],
            round(latest_json["mean"]["Success@10"] * latest_json["mean_count"]["Success@10"]),
            latest_json["mean_count"]["Success@10"], latest_json["mean_ci"]["Success@10"]),
        "Declined or handed over when it should": (
            answers["abstention_rate"], answers["abstention_correct"],
            answers["abstention_reviewed"], answers["abstention_rate_ci"]),
    }
    for label, (value, k, n, interval) in expected.items():
        row = sheet_rows[label]
        assert _close(row[1], value) and (row[4], row[5]) == (k, n), (label, row)
        assert _close(row[2], interval[0]) and _close(row[3], interval[1]), (label, row)
        words = (f"{value * 100:.0f}%", f"{k} of {n}",
                 f"between {interval[0] * 100:.0f}% and {interval[1] * 100:.0f}%")
        assert all(w in pdf for w in words), (label, words)
        value_text, count_text, range_text = shown[label]
        assert value_text == words[0] and words[1] in count_text and range_text == words[2]


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return " ".join(PdfReader(path).pages[0].extract_text().split())


def test_agent_figures_are_the_same_everywhere(qtbot, sample: Path, english: None,  # type: ignore[no-untyped-def]
                                               tmp_path: Path) -> None:
    metrics = _cli_json("metrics", str(sample), "--run", AGENT_RUN, "--json")["agents"]
    native = json.loads(_export(sample, "json", tmp_path / "s.json").read_text("utf-8"))
    sheet = CalamineWorkbook.from_path(
        str(_export(sample, "xlsx", tmp_path / "s.xlsx", "--locale", "en"))
    ).get_sheet_by_name("Figures in detail").to_python()
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
