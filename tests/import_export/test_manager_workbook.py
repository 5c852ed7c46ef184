"""The manager's workbook (issue 16, item 5): it opens on the summary in the interface's
language, holds native charts, prints landscape one page wide with its header repeated,
freezes and filters every data sheet, formats shares as percentages, counts the answers not
yet reviewed, and LibreOffice prints the whole summary width on its first page."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from python_calamine import CalamineWorkbook

from rag_annotator.import_export.csv_export import FLAT_ENTITIES
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.sheet_words import sheet_title
from rag_annotator.reports.manager_words import FR as MANAGER_FR
from rag_annotator.reports.words import EN, FR
from tests.helpers import run_cli

RAG_RUN = "bm25-gpt4o-v1"
LANG_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "RAG_ANNOTATOR_LANG")


@pytest.fixture
def sample(goldset_path: Path) -> Path:
    create_sample(goldset_path, assessor="alice").close()
    return goldset_path


def _export(sample: Path, dest: Path, *extra: str) -> Path:
    done = run_cli("export", str(sample), "xlsx", str(dest), *extra)
    assert done.returncode == 0, done.stderr
    return dest


def _french_system(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in LANG_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")


def _rows(path: Path, sheet: str) -> list[list[Any]]:
    return CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python()


def _block(rows: list[list[Any]], title: str) -> tuple[list[Any], list[list[Any]]]:
    """The header and rows under the title ``title`` (up to the block's note)."""
    start = next(i for i, row in enumerate(rows) if row and row[0] == title)
    header, body = rows[start + 1], []
    for row in rows[start + 2:]:
        if not any(c not in ("", None) for c in row[1:]):
            break
        body.append(row)
    return header, body


def test_opens_on_the_summary_in_french_under_a_french_system(
        sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _french_system(monkeypatch)
    path = _export(sample, tmp_path / "s.xlsx")
    wb = load_workbook(path, read_only=True)
    assert wb.sheetnames[0] == MANAGER_FR["sheet"] and wb.active.title == MANAGER_FR["sheet"]
    assert wb.sheetnames[1] == FR["summary"]  # the figures in detail come next
    wb.close()
    calamine = CalamineWorkbook.from_path(str(path))
    assert calamine.sheet_names[0] == "Synthèse"
    page = {c for row in _rows(path, "Synthèse") for c in row if isinstance(c, str)}
    assert {"Ce qui a été testé", "Pas encore relu", "Questions traitées correctement"} <= page
    texts = {c for row in _rows(path, FR["summary"]) for c in row if isinstance(c, str)}
    assert {"Ce qui a été testé", "Chiffres clés", "pas encore relus", "testés",
            "toutes les familles"} <= texts
    assert not {"tested", "all families", "not yet reviewed"} & (texts | page)
    # RAG_ANNOTATOR_LANG (the interface's language) wins over the system's; --locale over both
    monkeypatch.setenv("RAG_ANNOTATOR_LANG", "en")
    assert CalamineWorkbook.from_path(str(_export(sample, tmp_path / "e.xlsx"))
                                      ).sheet_names[0] == "Summary"
    assert CalamineWorkbook.from_path(str(_export(sample, tmp_path / "f.xlsx", "--locale",
                                                  "fr"))).sheet_names[0] == "Synthèse"


def test_not_yet_reviewed_counts_the_sample_by_hand(sample: Path, tmp_path: Path) -> None:
    """The sample's ordinary family, run bm25-gpt4o-v1, counted from the sample file by hand:
    ordinary cases expecting an answer, not retired: Q01 Q02 Q04 Q06 Q13 Q14 Q15 Q16 Q17 Q20
    Q22 S01 S02 (Q21 is retired).  Reviewed: Q01 (every claim supported: validated), Q02 and Q04 (a
    contradicted claim: rejected), Q22 (abstained: no answer) → tested 4, produced 3,
    validated 1.  Answered with no claim verified, so not decided yet: Q06 Q13 Q14 Q15 Q16
    Q17 Q20 and the structured S01 S02 → 9 not yet reviewed (the summary left them out
    before)."""
    path = _export(sample, tmp_path / "s.xlsx", "--locale", "en")
    for rows in (_rows(path, EN["summary"]),
                 [list(r) for r in load_workbook(path, read_only=True)[EN["summary"]]
                  .iter_rows(values_only=True)]):
        header, body = _block(rows, f"Answers of run {RAG_RUN}, per family")
        ordinary = next(r for r in body if r[0] == "ordinary")
        column = {name: i for i, name in enumerate(header) if name}
        assert [ordinary[column[k]] for k in ("tested", "produced", "validated",
                                              "not yet reviewed")] == [4, 3, 1, 9]
        # a family with answers but none reviewed yet is listed too, "not computable"
        ambiguous = next(r for r in body if r[0] == "ambiguous")
        assert ambiguous[column["tested"]] == 0 and ambiguous[column["not yet reviewed"]] == 1
        assert ambiguous[column["success"]] == "not computable"


def test_charts_print_settings_panes_filters_and_formats(sample: Path,
                                                         tmp_path: Path) -> None:
    path = _export(sample, tmp_path / "s.xlsx", "--locale", "en")
    with zipfile.ZipFile(path) as archive:
        charts = [archive.read(n).decode() for n in archive.namelist()
                  if re.fullmatch(r"xl/charts/chart\d+\.xml", n)]
    # the manager's page: horizontal bars, the ranges as error bars from its hidden cells
    page = next(xml for xml in charts if "'Summary'!$B$" in xml)
    assert '<barDir val="bar"/>' in page and "<errBars>" in page
    assert "'Summary'!$H$" in page and "'Summary'!$I$" in page
    # the details: columns per family and run, error bars from the chart data sheet
    xml = next(xml for xml in charts if "'Chart data'!$F$" in xml)
    assert "<barChart>" in xml and "<errBars>" in xml and "cust" in xml
    assert "'Chart data'!$G$" in xml  # minus, plus from cells
    wb = load_workbook(path)
    for ws in wb.worksheets:
        assert ws.page_setup.orientation == (
            "portrait" if ws.title == "Summary" else "landscape"), ws.title
        assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0, ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert ws.print_title_rows == "$1:$1", ws.title
        if ws.title in ("Summary", EN["summary"], "Assessors", "Structured answers",
                        "Exposure", "Judges"):
            continue
        assert ws.freeze_panes == "A2", ws.title  # every data sheet
        assert ws.auto_filter.ref and ws.auto_filter.ref.startswith("A1:"), ws.title
    assert [ws.title for ws in wb.worksheets][-len(FLAT_ENTITIES):] == [
        sheet_title(e, "en") for e in FLAT_ENTITIES]
    summary = wb[EN["summary"]]
    formats = {c.number_format for row in summary.iter_rows() for c in row
               if isinstance(c.value, float)}
    assert "0.0%" in formats
    rows = list(summary.iter_rows())
    start = next(i for i, r in enumerate(rows) if r[0].value == EN["headline"])
    headline = next(r for r in rows[start:] if r[0].value == RAG_RUN)
    shares = [c for c in headline[2:11] if isinstance(c.value, float)]
    assert shares and all(c.number_format == "0.0%" for c in shares)
    assert summary.column_dimensions["A"].width >= 20


def _soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice (soffice) is not installed: "
                    "the print of the workbook cannot be checked here")
def test_libreoffice_prints_the_whole_summary_width_on_page_one(
        sample: Path, tmp_path: Path) -> None:
    from pypdf import PdfReader

    path = _export(sample, tmp_path / "s.xlsx", "--locale", "fr")
    out = tmp_path / "pdf"
    profile = (tmp_path / "lo-profile").as_uri()
    done = subprocess.run([str(_soffice()), f"-env:UserInstallation={profile}", "--headless",
                           "--convert-to", "pdf", "--outdir", str(out), str(path)],
                          capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    first = PdfReader(out / "s.pdf").pages[0].extract_text()
    flat = " ".join(first.split())
    # the widest tables' last column headers are on the first page: nothing cut at the width
    assert FR["what_tested"] in flat and FR["headline"] in flat
    answers = next(r for r in _rows(path, "Synthèse") if r and r[0] == FR["family"])
    for header in (answers[1], [h for h in answers if h][-1], FR["created"]):
        assert header in flat, header
    assert "toutes les familles" in flat


def test_words_are_in_both_languages() -> None:
    assert set(EN) == set(FR)
    assert all(FR[k].strip() and EN[k].strip() for k in EN)


def test_the_drift_sheet_and_line_chart(sample: Path, tmp_path: Path) -> None:
    path = _export(sample, tmp_path / "s.xlsx", "--locale", "en")
    with zipfile.ZipFile(path) as archive:
        xml = "".join(archive.read(n).decode() for n in archive.namelist()
                      if n.startswith("xl/charts/chart"))
    assert "<lineChart>" in xml
    rows = _rows(path, "Drift")
    header = rows[0]
    assert header[:6] == ["run", "family", "model", "corpus", "index", "prompt"]
    whole = [r for r in rows[1:] if r[1] == "all families"]
    assert [r[0] for r in whole] == ["bm25-gpt4o-v1 (baseline)", "hybride-mistral-v2",
                                     "agent-support-v1", "agent-support-v2"]  # made in order
    assert whole[1][2] == "mistral-large-2411"
    wb = load_workbook(path)
    assert wb["Drift"].freeze_panes == "A2" and wb["Drift"].auto_filter.ref


def test_a_regression_is_named_on_the_drift_sheet(goldset_path: Path, tmp_path: Path) -> None:
    from rag_annotator.storage.store import GoldSetStore
    from tests.builders import build_regressing

    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        build_regressing(store)
    path = _export(goldset_path, tmp_path / "r.xlsx", "--locale", "fr")
    rows = _rows(path, "Dérive")
    header = rows[0]
    v2 = next(r for r in rows[1:] if r[0] == "v2" and r[1] == "toutes les familles")
    mark = v2[header.index("régression")]
    assert mark.startswith("régression : ▼ ") and "nDCG@10 contre v1" in mark
    assert v2[header.index("champs de version modifiés")] == "modèle : m1 → m2"
    assert v2[header.index("cas basculés")] == ", ".join(f"Q{i:02}" for i in range(1, 13))
    summary = _rows(path, FR["summary"])
    assert any(isinstance(c, str) and c.startswith("régression : ▼")
               for r in summary for c in r)
    # the manager's page says what got worse since the baseline, in words
    page = " ".join(c for r in _rows(path, "Synthèse") for c in r if isinstance(c, str))
    worse = page.index("En recul, au-delà du hasard :")
    assert "ordre des 10 premiers résultats" in page[worse:worse + 400]
    assert "Ce qui a changé entre les deux versions : modèle : m1 → m2." in page


def test_the_level_of_the_intervals(sample: Path, tmp_path: Path) -> None:
    """``--level`` (the dashboard's setting, passed by the export dialog) sets the summary's
    intervals: the overall success of the sample's RAG run against scipy's Wilson."""
    from scipy.stats import binomtest

    def success(path: Path) -> list[Any]:
        header, body = _block(_rows(path, EN["summary"]), "Headline figures")
        row = next(r for r in body if r[0] == RAG_RUN)
        i = header.index("success")
        return row[i:i + 3]

    for level in (0.95, 0.8):
        path = _export(sample, tmp_path / f"{level}.xlsx", "--locale", "en", "--level",
                       str(level))
        value, low, high = success(path)
        ci = binomtest(1, 6).proportion_ci(confidence_level=level, method="wilson")
        assert value == pytest.approx(1 / 6)  # 1 validated of 6 tested
        assert (low, high) == (pytest.approx(ci.low), pytest.approx(ci.high))
    bad = run_cli("export", str(sample), "xlsx", str(tmp_path / "x.xlsx"), "--level", "2")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--level" in bad.stderr
