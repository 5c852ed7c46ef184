"""The team's figures in the exports, read back with independent readers: the workbook's
Assessors sheet (python-calamine), the native JSON's ``assessor_metrics`` (jsonschema, and
round trip), the judgments' seconds in CSV and JSON — checked against raw SQL, statistics and
scikit-learn, never against the code that wrote them."""

from __future__ import annotations

import csv
import json
import statistics
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from python_calamine import CalamineWorkbook
from sklearn.metrics import cohen_kappa_score

from rag_annotator.import_export import native_json
from rag_annotator.import_export.csv_export import export_csv
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.team_files import collect
from rag_annotator.import_export.xlsx_export import export_xlsx
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import rows
from tests.team_builders import judge_file, make_team

TEAM = ("ana", "bruno", "chloe")


@pytest.fixture
def collected(tmp_path: Path) -> Path:
    """A master with three assessors' work collected: labels and seconds by position."""
    master, files = make_team(tmp_path, TEAM, control=0.1)
    for i, path in enumerate(files.values()):
        judge_file(path, lambda p, _r, i=i: int((p * (i + 1)) % 3 == 0),
                   seconds=lambda p, i=i: 2.0 + i * 5 + p % 7, limit=40)
    with GoldSetStore.open(master, assessor="lead") as store:
        collect(store, [tmp_path / "team"])
    return master


def _seconds(master: Path) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for name, value in rows(master, "SELECT s.name, j.seconds FROM judgments j JOIN assessors s "
                                    "ON s.id = j.assessor_id WHERE j.grade IS NOT NULL AND "
                                    "j.seconds IS NOT NULL UNION ALL SELECT s.name, k.seconds "
                                    "FROM control_judgments k JOIN assessors s ON s.id = "
                                    "k.assessor_id WHERE k.grade IS NOT NULL AND k.seconds IS "
                                    "NOT NULL"):
        out.setdefault(name, []).append(value)
    return out


def _labels(master: Path) -> dict[str, dict[tuple[str, str], int]]:
    out: dict[str, dict[tuple[str, str], int]] = {}
    for case, doc, name, grade in rows(
            master, "SELECT c.key, d.key, s.name, j.grade FROM judgments j JOIN cases c ON "
                    "c.id = j.case_id JOIN documents d ON d.id = j.document_id JOIN assessors s "
                    "ON s.id = j.assessor_id WHERE j.grade IS NOT NULL"):
        out.setdefault(name, {})[(case, doc)] = int(grade >= 1)
    return out


def _mean_kappa(labels: dict[str, dict[tuple[str, str], int]], who: str) -> float | None:
    values = []
    for other, theirs in labels.items():
        shared = sorted(set(labels[who]) & set(theirs)) if other != who else []
        if not shared:
            continue
        a, b = [labels[who][k] for k in shared], [theirs[k] for k in shared]
        if len(set(a) | set(b)) < 2:
            continue
        values.append(float(cohen_kappa_score(a, b)))
    return sum(values) / len(values) if values else None


def test_assessors_sheet_read_back_with_calamine(collected: Path, tmp_path: Path) -> None:
    dest = tmp_path / "report.xlsx"
    with GoldSetStore.open(collected, read_only=True) as store:
        export_xlsx(store, dest, Options(locale="en"))
    book = CalamineWorkbook.from_path(str(dest))
    assert book.sheet_names[0] == "Summary" and "Assessors" in book.sheet_names
    sheet = book.get_sheet_by_name("Assessors").to_python(skip_empty_area=False)
    header = [str(c) for c in sheet[1]]
    assert header[:8] == ["assessor", "judged", "remaining", "can't judge", "median seconds",
                          "Cohen's kappa with the others", "control pairs", "self-consistency"]
    table = {str(r[0]): dict(zip(header, r)) for r in sheet[2:] if r and r[0] in TEAM}
    assert set(table) == set(TEAM)
    seconds, labels = _seconds(collected), _labels(collected)
    for name in TEAM:
        row = table[name]
        assert int(row["judged"]) == len(labels[name])
        assert float(row["median seconds"]) == pytest.approx(statistics.median(seconds[name]))
        assert float(row["Cohen's kappa with the others"]) == pytest.approx(
            _mean_kappa(labels, name))
    first_column = [str(r[0]) for r in sheet]
    assert "Krippendorff's alpha (binary)" in first_column and "fast" in first_column


def test_assessors_sheet_in_french(collected: Path, tmp_path: Path) -> None:
    dest = tmp_path / "rapport.xlsx"
    with GoldSetStore.open(collected, read_only=True) as store:
        export_xlsx(store, dest, Options(locale="fr"))
    book = CalamineWorkbook.from_path(str(dest))
    assert "Annotateurs" in book.sheet_names
    sheet = book.get_sheet_by_name("Annotateurs").to_python(skip_empty_area=False)
    assert [str(c) for c in sheet[1][:3]] == ["annotateur", "jugées", "restantes"]


def _schema() -> dict[str, Any]:
    text = (resources.files("rag_annotator.resources") / "schema" /
            "goldset.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def test_native_json_has_seconds_and_assessor_metrics(collected: Path, tmp_path: Path) -> None:
    dest = tmp_path / "a.json"
    with GoldSetStore.open(collected, read_only=True) as store:
        native_json.export_json(store, dest, Options())
    data = json.loads(dest.read_text(encoding="utf-8"))
    jsonschema.validate(data, _schema())
    timed = {(j["case"], j["document"], j["assessor"]): j["seconds"] for j in data["judgments"]}
    expected = {(c, d, a): s for c, d, a, s in rows(
        collected, "SELECT c.key, d.key, s.name, j.seconds FROM judgments j JOIN cases c ON "
                   "c.id = j.case_id JOIN documents d ON d.id = j.document_id JOIN assessors s "
                   "ON s.id = j.assessor_id")}
    assert timed == expected
    assert any(v is not None for v in timed.values())
    per = data["assessor_metrics"]["per_assessor"]
    seconds, labels = _seconds(collected), _labels(collected)
    for name in TEAM:
        assert per[name]["judged"] == len(labels[name])
        assert per[name]["median_seconds"] == pytest.approx(statistics.median(seconds[name]))
        assert per[name]["kappa"] == pytest.approx(_mean_kappa(labels, name))
        controls = rows(collected, "SELECT j.grade, k.grade FROM control_judgments k JOIN "
                                   "judgments j ON j.case_id = k.case_id AND j.document_id = "
                                   "k.document_id AND j.assessor_id = k.assessor_id JOIN "
                                   "assessors s ON s.id = k.assessor_id WHERE s.name = ? AND "
                                   "k.grade IS NOT NULL AND j.grade IS NOT NULL", (name,))
        if controls:
            same = sum((a >= 1) == (b >= 1) for a, b in controls)
            assert per[name]["self_consistency"] == pytest.approx(same / len(controls))
    # derived, not imported: the round trip gives the same bytes
    with GoldSetStore.create(tmp_path / "b.goldset", assessor="imp") as other:
        native_json.import_json(other, dest, Options())
        native_json.export_json(other, tmp_path / "b.json", Options())
    assert (tmp_path / "b.json").read_bytes() == dest.read_bytes()


def test_csv_judgments_carry_seconds(collected: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    out.mkdir()
    with GoldSetStore.open(collected, read_only=True) as store:
        export_csv(store, out, Options())
    with open(out / "judgments.csv", encoding="utf-8", newline="") as handle:
        found = list(csv.DictReader(handle))
    assert "seconds" in found[0]
    got = {(r["case"], r["document"], r["assessor"]): r["seconds"] for r in found}
    for (case, doc, name), value in {(c, d, a): s for c, d, a, s in rows(
            collected, "SELECT c.key, d.key, s.name, j.seconds FROM judgments j JOIN cases c "
                       "ON c.id = j.case_id JOIN documents d ON d.id = j.document_id JOIN "
                       "assessors s ON s.id = j.assessor_id")}.items():
        text = got[(case, doc, name)]
        assert (text == "") if value is None else float(text) == pytest.approx(value)
