"""The workbook under a French locale speaks French on every sheet: no sheet, header or value
is a machine name (``cases``, ``reference_answer``, ``supported``, ``ordinary``,
``answered``, ``supported_share``), an English word of the catalogues, a JSON ``[]`` or a
``1``/``0`` of a yes-or-no column — checked against a word list built from the app's own
codes and English catalogues — and the xlsx import still reads it back exactly, even once a
spreadsheet has saved it again."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from python_calamine import CalamineWorkbook

from rag_annotator.domain import enums
from rag_annotator.import_export import judge_sheet, sheet_words
from rag_annotator.import_export.csv_export import FLAT_ENTITIES
from rag_annotator.import_export.sample import create_sample
from rag_annotator.reports import manager_words, sheets_rights, sheets_structured, sheets_team
from rag_annotator.reports import words as report_words
from rag_annotator.storage.reads_exchange import ENTITY_SQL
from tests.helpers import run_cli

LANG_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "RAG_ANNOTATOR_LANG")


def _codes() -> set[str]:
    """Every code the file stores and every machine name of the data exports (less those
    that are French words too: ``documents``, ``question``, ``version``, ``note``)."""
    codes = {str(m.value) for name in dir(enums)
             if isinstance(kind := getattr(enums, name), type) and issubclass(kind, Enum)
             for m in kind}
    codes |= set(FLAT_ENTITIES) | {c for columns, _sql in ENTITY_SQL.values() for c in columns}
    codes |= set(judge_sheet.CODES)
    return ({c.casefold() for c in codes} - _french()) | {"[]", "{}", "true", "false", "ppi"}


def _french() -> set[str]:
    return {fr.casefold() for _en, fr in _pairs()}


def _english() -> set[str]:
    """The English texts of the workbook's catalogues that French never uses as they are."""
    return {en.casefold() for en, _fr in _pairs()} - _french()


def _pairs() -> list[tuple[str, str]]:
    """(English, French) of every text of the workbook's catalogues."""
    pairs: list[tuple[str, str]] = []
    for en, fr in ((report_words.EN, report_words.FR), (manager_words.EN, manager_words.FR)):
        pairs += [(en[k], fr[k]) for k in en]
    for module in (judge_sheet, sheets_team, sheets_structured, sheets_rights):
        pairs += list(module.FRENCH.items())
    pairs += list(sheet_words.TITLES.values()) + list(sheet_words.HEADERS.values())
    pairs += [w for words in sheet_words.ENUMS.values() for w in words.values()]
    pairs += [w for words in sheet_words.ENUM_OVERRIDES.values() for w in words.values()]
    pairs += list(judge_sheet.CODES.values())
    return pairs


@pytest.fixture
def french_workbook(goldset_path: Path, tmp_path: Path,
                    monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample exported under a French system (no --locale: the system's language)."""
    create_sample(goldset_path, assessor="alice").close()
    for name in LANG_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    dest = tmp_path / "classeur.xlsx"
    done = run_cli("export", str(goldset_path), "xlsx", str(dest))
    assert done.returncode == 0, done.stderr
    return dest


def _sheets(path: Path) -> dict[str, list[list[Any]]]:
    wb = CalamineWorkbook.from_path(str(path))
    return {name: wb.get_sheet_by_name(name).to_python() for name in wb.sheet_names}


def test_no_english_header_or_value_under_a_french_locale(french_workbook: Path) -> None:
    sheets = _sheets(french_workbook)
    codes, english = _codes(), _english()
    assert len(codes) > 100 and len(english) > 150  # real lists
    assert "cases" in codes and "reference_answer" in codes and "supported" in codes
    bad_names = [n for n in sheets if n.casefold() in codes | english]
    assert not bad_names, bad_names
    found: list[tuple[str, int, str]] = []
    for name, rows in sheets.items():
        for number, row in enumerate(rows, start=1):
            for cell in row:
                if isinstance(cell, str) and cell.strip().casefold() in codes | english:
                    found.append((name, number, cell))
    assert not found, found[:20]


def test_the_entity_sheets_are_headed_and_filled_in_french(french_workbook: Path) -> None:
    sheets = _sheets(french_workbook)
    for entity in FLAT_ENTITIES:
        title = sheet_words.sheet_title(entity, "fr")
        header = sheets[title][0]
        assert header == [sheet_words.header(entity, c, "fr")
                          for c in ENTITY_SQL[entity][0]], entity
    reviews = sheets["Relectures des réponses"]
    column = reviews[0].index("Validée")
    assert {r[column] for r in reviews[1:]} <= {"oui", "non", ""}
    assert {"oui", "non"} <= {r[column] for r in reviews[1:]}
    claims = sheets["Affirmations"]
    verdicts = {r[claims[0].index("Verdict")] for r in claims[1:]}
    assert verdicts <= {"étayée", "non étayée", "contredite", ""} and "étayée" in verdicts
    cases = sheets["Cas"]
    tags = next(r for r in cases[1:] if r[0] == "A01")[cases[0].index("Étiquettes")]
    assert tags == "agent\nchangement d'offre"  # one item per line, no JSON
    assert {r[cases[0].index("Famille")] for r in cases[1:]} >= {"ordinaire", "sensible"}


def test_the_french_workbook_imports_back_exactly(french_workbook: Path, tmp_path: Path,
                                                  goldset_path: Path) -> None:
    """Also once a spreadsheet saved it again (openpyxl drops a row's trailing empty
    cells, as a spreadsheet may): the decoding must not shift a cell."""
    from rag_annotator.storage.store import GoldSetStore

    resaved = tmp_path / "resaved.xlsx"
    wb = load_workbook(french_workbook)
    wb.save(resaved)
    for source in (french_workbook, resaved):
        target = tmp_path / f"{source.stem}.goldset"
        assert run_cli("new", str(target)).returncode == 0
        done = run_cli("import", str(target), str(source))
        assert done.returncode == 0, done.stderr
        with GoldSetStore.open(goldset_path, read_only=True) as first, \
                GoldSetStore.open(target, read_only=True) as second:
            for entity in FLAT_ENTITIES:
                assert list(second.entity_rows(entity)[1]) == list(
                    first.entity_rows(entity)[1]), (source.name, entity)


@pytest.mark.parametrize("items", [["a", "b"], ["[1]"], ["une ligne\nsur deux"], [""],
                                   ["[note]"], ["true"], []])
def test_a_list_is_written_one_item_per_line_only_when_that_reads_back(items: list[str]
                                                                       ) -> None:
    import json

    value = json.dumps(items, ensure_ascii=False)
    written = sheet_words.encode("cases", "tags", value, "fr")
    assert sheet_words.decode("cases", "tags", written) == value
    if items == ["a", "b"]:
        assert written == "a\nb"
