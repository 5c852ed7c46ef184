"""The manager workbook: summary first, never a formula, same values in openpyxl and calamine,
split sheets, cut cells, safe and exact import."""

from __future__ import annotations

import inspect
import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook
from python_calamine import CalamineWorkbook

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry, safety, xlsx_export, xlsx_import
from rag_annotator.import_export.csv_export import FLAT_ENTITIES
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.sheet_words import sheet_title
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich
from tests.import_export.populate import HOSTILE, populate


def _export(store: GoldSetStore, dest: Path, **options: Any) -> xlsx_export.TablesReport:
    """English summary unless the test asks otherwise (not the machine's language)."""
    return xlsx_export.export_xlsx(store, dest, Options(**{"locale": "en", **options}))


def _sheet_xml(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {n: archive.read(n) for n in archive.namelist() if n.startswith("xl/worksheets/")}


def _calamine(path: Path) -> dict[str, list[list[Any]]]:
    wb = CalamineWorkbook.from_path(str(path))
    return {name: wb.get_sheet_by_name(name).to_python(skip_empty_area=False)
            for name in wb.sheet_names}


def _openpyxl(path: Path) -> dict[str, list[list[Any]]]:
    wb = load_workbook(path, read_only=True)
    out = {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb}
    wb.close()
    return out


def _norm(value: Any) -> Any:
    """openpyxl gives None for an empty cell, calamine ''; ints may come back as floats."""
    if value is None or value == "":
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def test_summary_first_and_active(tmp_path: Path) -> None:
    with create_sample(tmp_path / "s.goldset", with_judge=False) as store:
        _export(store, tmp_path / "s.xlsx")
    wb = load_workbook(tmp_path / "s.xlsx")
    assert wb.sheetnames[0] == "Summary" and wb.active.title == "Summary"  # the manager's
    reports = len(wb.sheetnames) - len(FLAT_ENTITIES)  # summary, details, drift...
    assert wb.sheetnames[reports:] == [sheet_title(e, "en") for e in FLAT_ENTITIES]
    assert set(wb.sheetnames[1:reports]) <= {"Figures in detail", "Drift", "Chart data",
                                             "Assessors", "Structured answers", "Exposure"}
    # the sample has structured answers and exposures: their report sheets (issue 17)
    assert {"Structured answers", "Exposure"} <= set(wb.sheetnames[1:reports])
    assert "Assessors" in wb.sheetnames  # the team's figures (issue 15)
    texts = [c for row in wb["Figures in detail"].iter_rows(values_only=True) for c in row
             if isinstance(c, str)]
    assert any("policy 'trec'" in t for t in texts)  # the unjudged policy is named
    assert {"tested", "produced", "validated", "quality", "coverage", "success"} <= set(texts)
    assert any(t.startswith("Agreement") for t in texts)
    assert any(t.startswith("Judging coverage") for t in texts)
    judgments = wb["Judgments"]
    assert judgments.freeze_panes == "A2"
    assert judgments.auto_filter.ref == f"A1:G{store_count(tmp_path / 's.goldset') + 1}"
    assert judgments["A1"].font.b and judgments.column_dimensions["A"].width == 18


def store_count(path: Path) -> int:
    with GoldSetStore.open(path, read_only=True) as store:
        return store.count("judgments")


def test_never_a_formula_and_readers_agree(tmp_path: Path, store: GoldSetStore) -> None:
    build_rich(store)
    populate(store, [*HOSTILE, "_x0041_ literal escape", "cr\ronly"], long_passage=False)
    _export(store, tmp_path / "h.xlsx")
    for name, xml in _sheet_xml(tmp_path / "h.xlsx").items():
        assert b"<f>" not in xml and b"<f " not in xml, name
    by_openpyxl, by_calamine = _openpyxl(tmp_path / "h.xlsx"), _calamine(tmp_path / "h.xlsx")
    assert by_openpyxl.keys() == by_calamine.keys()
    for sheet in by_openpyxl:
        ours = [[_norm(xlsx_export.unescape(c) if isinstance(c, str) else c) for c in row]
                for row in by_openpyxl[sheet]]
        theirs = [[_norm(c) for c in row] for row in by_calamine[sheet]]
        width = max((len(r) for r in ours + theirs), default=0)
        ours = [r + [""] * (width - len(r)) for r in ours]
        theirs = [r + [""] * (width - len(r)) for r in theirs]
        assert ours == theirs, sheet
    cells = {c for row in by_calamine["Cases"] for c in row if isinstance(c, str)}
    assert "=cmd|' /C calc'!A0" in cells  # kept exactly, as text
    assert "nul\x00byte" in {c for rows in by_calamine.values() for row in rows for c in row}


def test_ids_are_text(tmp_path: Path, store: GoldSetStore) -> None:
    from rag_annotator.domain import operations as ops

    ops.create_case(store, key="00123", question="q")
    _export(store, tmp_path / "t.xlsx")
    ws = load_workbook(tmp_path / "t.xlsx")["Cases"]
    assert ws["A2"].value == "00123" and ws["A2"].data_type == "s"


@pytest.mark.parametrize("texts", [HOSTILE, ["plain"]])
def test_round_trip_through_the_import(tmp_path: Path, store: GoldSetStore,
                                       texts: list[str]) -> None:
    populate(store, texts)
    _export(store, tmp_path / "a.xlsx")
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        xlsx_import.import_xlsx(other, tmp_path / "a.xlsx", Options())
        _export(other, tmp_path / "b.xlsx")
        for entity in FLAT_ENTITIES:
            assert list(other.entity_rows(entity)[1]) == list(store.entity_rows(entity)[1]) \
                or entity == "cases", entity  # '' and null read back alike in cells
    first, second = _calamine(tmp_path / "a.xlsx"), _calamine(tmp_path / "b.xlsx")
    for sheet in ("Summary", "Figures in detail"):  # they name the file, which differs
        del first[sheet], second[sheet]
    # derived figures too, and they read citations, which the entity sheets do not carry
    del first["Exposure"], second["Exposure"]
    assert first == second


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=st.lists(st.one_of(st.sampled_from(HOSTILE),
                                st.text(st.characters(exclude_categories=["Cs"]),
                                        max_size=20)), min_size=1, max_size=6))
def test_texts_survive_exactly(tmp_path_factory: pytest.TempPathFactory,
                               texts: list[str]) -> None:
    tmp = tmp_path_factory.mktemp("x")
    with GoldSetStore.create(tmp / "a.goldset") as store:
        populate(store, texts)
        _export(store, tmp / "a.xlsx")
        before = store.query("SELECT key, question, notes FROM cases ORDER BY key")
    with GoldSetStore.create(tmp / "b.goldset") as other:
        xlsx_import.import_xlsx(other, tmp / "a.xlsx", Options())
        assert other.query("SELECT key, question, notes FROM cases ORDER BY key") == before


def test_long_tables_are_split(tmp_path: Path, store: GoldSetStore,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    populate(store, ["x"])
    monkeypatch.setattr(xlsx_export, "ROWS_PER_SHEET", 10)
    _export(store, tmp_path / "s.xlsx")
    wb = load_workbook(tmp_path / "s.xlsx")
    n = store.count("judgments")
    parts = [t for t in wb.sheetnames if t.startswith("Judgments")]
    assert parts == ["Judgments", "Judgments (2)", "Judgments (3)", "Judgments (4)"][
        :-(-n // 10)]
    assert sum(wb[t].max_row - 1 for t in parts) == n
    assert all(wb[t]["A1"].value == "Case" for t in parts)
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        xlsx_import.import_xlsx(other, tmp_path / "s.xlsx", Options())
        assert other.count("judgments") == n


def test_long_cells_are_cut_with_marker_and_warning(tmp_path: Path,
                                                    store: GoldSetStore) -> None:
    populate(store, ["x"], long_passage=True)
    report = _export(store, tmp_path / "c.xlsx")
    assert any("cut" in w and "documents" in w for w in report.warnings)
    ws = load_workbook(tmp_path / "c.xlsx")["Documents"]
    texts = [ws.cell(row=r, column=3).value for r in range(2, ws.max_row + 1)]
    cut = [t for t in texts if len(t) == xlsx_export.MAX_CELL]
    assert len(cut) == 1 and "[cut by the export: 40,001 characters in all]" in cut[0]
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        with pytest.raises(ImportRejected, match=r"sheet 'Documents', row 2: column 'Text': "
                                                 "this cell was cut"):
            xlsx_import.import_xlsx(other, tmp_path / "c.xlsx", Options())
        assert other.is_empty_goldset()


def test_failure_midway_leaves_no_file(tmp_path: Path, store: GoldSetStore,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    populate(store, ["x"])
    out = tmp_path / "exports"
    out.mkdir()
    (out / "old.xlsx").write_bytes(b"previous")

    from openpyxl.workbook.workbook import Workbook

    real_save = Workbook.save

    def failing_save(self: Any, filename: Any) -> None:
        real_save(self, io.BytesIO())  # the whole workbook is produced…
        Path(filename).write_bytes(b"PK partial")  # …and the disk fills up while writing
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Workbook, "save", failing_save)
    with pytest.raises(KnownError, match="No space left"):
        _export(store, out / "old.xlsx")
    assert [p.name for p in out.iterdir()] == ["old.xlsx"]
    assert (out / "old.xlsx").read_bytes() == b"previous"


# -- untrusted workbooks -----------------------------------------------------------------------
def test_zip_bomb_and_non_zip_are_refused(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\x00" * (20 * 1024**2))
    with pytest.raises(ImportRejected, match="zip bomb"):
        safety.check_xlsx(bomb)
    (tmp_path / "text.xlsx").write_text("not a zip")
    with pytest.raises(ImportRejected, match="not a zip"):
        safety.check_xlsx(tmp_path / "text.xlsx")
    with pytest.raises(ImportRejected, match="too large"):
        safety.check_xlsx(bomb, max_bytes=10)


def test_xml_entities_are_not_expanded(tmp_path: Path, store: GoldSetStore) -> None:
    populate(store, ["plain"])
    _export(store, tmp_path / "ok.xlsx")
    evil = tmp_path / "evil.xlsx"
    with zipfile.ZipFile(tmp_path / "ok.xlsx") as src, \
            zipfile.ZipFile(evil, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                body = data.split(b"?>", 1)[-1]
                data = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
                        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' + body)
            dst.writestr(item, data)
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        with pytest.raises(ImportRejected, match="cannot be read"):
            xlsx_import.import_xlsx(other, evil, Options())
        assert other.is_empty_goldset()


def test_defusedxml_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("openpyxl.xml.DEFUSEDXML", False)
    with pytest.raises(ImportRejected, match="defusedxml"):
        safety.require_defused_xml()


def test_bad_cells_name_sheet_and_row(tmp_path: Path, store: GoldSetStore) -> None:
    populate(store, ["plain"])
    _export(store, tmp_path / "a.xlsx")
    wb = load_workbook(tmp_path / "a.xlsx")
    wb["Judgments"]["D3"] = "high"
    wb.save(tmp_path / "a.xlsx")
    with GoldSetStore.create(tmp_path / "b.goldset") as other, \
            pytest.raises(ImportRejected, match=r"sheet 'Judgments', row 3: column "
                                                r"'Relevance \(0 = not relevant\)'"):
        xlsx_import.import_xlsx(other, tmp_path / "a.xlsx", Options())


def test_neutralise_is_reversible_and_covers_owasp() -> None:
    for text in [*HOSTILE, "'", "''", "'x", "x'", "\nx", "\rx", "@", "-", "+"]:
        assert safety.unneutralise(safety.neutralise(text)) == text
    for trigger in ("=", "+", "-", "@", "\t", "\r", "\n"):
        assert safety.neutralise(trigger + "1").startswith("'")
    assert safety.neutralise("plain") == "plain"


def test_escape_round_trips() -> None:
    for text in [*HOSTILE, "_x0041_", "_x005F_", "a\x01\x0b\r\ufffe", "_x00"]:
        assert xlsx_export.unescape(xlsx_export.escape(text)) == text


def test_registry_names_xlsx() -> None:
    assert inspect.unwrap(registry.exporter("xlsx")) is xlsx_export.export_xlsx
    assert inspect.unwrap(registry.importer("xlsx")) is xlsx_import.import_xlsx


def test_calamine_decodes_escapes_like_excel(tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("s")
    ws.append([xlsx_export.escape("a\x00b"), xlsx_export.escape("_x0041_")])
    buffer = io.BytesIO()
    wb.save(buffer)
    (tmp_path / "e.xlsx").write_bytes(buffer.getvalue())
    assert _calamine(tmp_path / "e.xlsx")["s"] == [["a\x00b", "_x0041_"]]


# -- agent cases (issue 9) ---------------------------------------------------------------------
def _row_after(rows: list[list[Any]], first: str, label: Any) -> list[Any]:
    """The row whose first cell is ``label`` below the header row starting with ``first``."""
    start = next(i for i, r in enumerate(rows) if r and r[0] == first)
    return next(r for r in rows[start + 1:] if r and r[0] == label)


def _row_of(ws: Any, label: str) -> int:
    return next(c.row for c in ws["A"] if c.value == label)


def test_agent_figures_on_the_summary_and_entity_sheets(tmp_path: Path,
                                                        store: GoldSetStore) -> None:
    from rag_annotator.domain import agent_ops
    from tests.metrics.agent_seed import build_agents

    ids = build_agents(store)
    agent_ops.review_trajectory(store, ids["A03"], path_acceptable=True,
                                path_reason="identité vérifiée au guichet")
    _export(store, tmp_path / "a.xlsx")
    for sheets in (_openpyxl(tmp_path / "a.xlsx"), _calamine(tmp_path / "a.xlsx")):
        summary = sheets["Figures in detail"]
        texts = [c for row in summary for c in row if isinstance(c, str)]
        assert any(t.startswith("Agents of run agent-v1") for t in texts)
        # an agent run has no retrieved list and no answer: no RAG rows saying 0
        assert not any(t.startswith(("Retrieval measures", "Answers of run")) for t in texts)
        overall = _row_after(summary, "family", "all families")
        assert overall[1] == 5  # then task success with its interval (low, high)
        assert overall[2] == pytest.approx(0.75) and overall[5] == pytest.approx(0.8)
        assert overall[3] < 0.75 < overall[4]
        assert overall[8] == pytest.approx(2.8) and overall[9] == pytest.approx(725)
        assert overall[10] == pytest.approx(4.0)
        assert overall[12] == pytest.approx(0.065 / 3)
        assert overall[13:15] == [0, 1]
        sensitive = _row_after(summary, "family", "sensitive")
        assert sensitive[2] == "not computable" and sensitive[12] == "not computable"
        order = _row_after(summary, "invariant",
                           "tool order: verifier_identite < modifier_offre")
        assert order[1:5] == [1, 4, 0, pytest.approx(0.25)]
        assert order[5] == pytest.approx(0.0456, abs=1e-4)  # Wilson 1/4, as scipy gives it
        tokens = _row_after(summary, "invariant", "token budget")
        assert tokens[1:5] == [0, 0, 1, "not computable"]
        cases = sheets["Cases"]
        header = cases[0]
        a03 = next(r for r in cases if r[0] == "A03")
        assert a03[header.index("Kind")] == "agent task"
        assert a03[header.index("Tool order")] == '[["verifier_identite", "modifier_offre"]]'
        assert _norm(a03[header.index("Token budget")]) == 1000
        steps = sheets["Trajectory steps"]
        assert steps[0][:5] == ["Run", "Case", "Trial", "Position", "Tool"]
        assert [r[4] for r in steps[1:] if r[1] == "A02"] == [
            "verifier_identite", "supprimer_compte", "modifier_offre", "creer_ticket"]
        reviews = sheets["Trajectory reviews"]
        assert [r[1] for r in reviews[1:]] == ["A03"]
        assert len(sheets["Trajectories"]) == 7  # header + six trajectories
    ws = load_workbook(tmp_path / "a.xlsx")["Figures in detail"]
    cost = ws[f"M{_row_of(ws, 'all families')}"]
    assert cost.value == pytest.approx(0.065 / 3)
    assert cost.number_format == "0.0000"  # a cost keeps its 4 decimals
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        xlsx_import.import_xlsx(other, tmp_path / "a.xlsx", Options())
        for entity in ("trajectories", "trajectory_steps", "trajectory_reviews"):
            assert list(other.entity_rows(entity)[1]) == list(store.entity_rows(entity)[1])
        def inputs(source: GoldSetStore) -> list[dict[str, Any]]:
            return [{k: v for k, v in row.items() if k != "id"}
                    for row in source.agent_inputs("agent-v1")]

        assert inputs(other) == inputs(store)


def test_the_summary_speaks_french_under_a_french_locale(tmp_path: Path) -> None:
    """Managers read the workbook in their language: ``--locale fr`` words it in French
    (sheet names, the entity sheets' headers included) with the same figures."""
    with create_sample(tmp_path / "s.goldset", with_judge=False) as store:
        _export(store, tmp_path / "en.xlsx")
        _export(store, tmp_path / "fr.xlsx", locale="fr")
    en, fr = load_workbook(tmp_path / "en.xlsx"), load_workbook(tmp_path / "fr.xlsx")
    assert fr.sheetnames[0] == "Synthèse" and fr.active.title == "Synthèse"
    assert fr.sheetnames[-len(FLAT_ENTITIES):] == [sheet_title(e, "fr") for e in FLAT_ENTITIES]
    assert len(fr.sheetnames) == len(en.sheetnames)
    assert "Annotateurs" in fr.sheetnames and "Assessors" in en.sheetnames
    english = list(en["Figures in detail"].iter_rows(values_only=True))
    french = list(fr["Détail des chiffres"].iter_rows(values_only=True))
    assert len(english) == len(french)
    for row_en, row_fr in zip(english, french):  # same figures, other words
        assert [c for c in row_en if not isinstance(c, str)] == [
            c for c in row_fr if not isinstance(c, str)]
    texts = {c for row in french for c in row if isinstance(c, str)}
    assert {"testés", "produites", "validées", "succès de la tâche", "taux de violation",
            "toutes les familles", "ordinaire"} <= texts
    assert any(t.startswith("Réponses de l'exécution bm25") for t in texts)
    assert any(t.startswith("Agents de l'exécution agent-support-v1") for t in texts)
    assert not {"tested", "all families", "task success"} & texts
    assert [c.value for c in fr["Cas"][1]][:3] == ["Cas", "Nature", "Question"]
    assert [c.value for c in en["Cases"][1]][:3] == ["Case", "Kind", "Question"]
