"""CSV folders: the data and Excel profiles, neutralisation undone on import, atomic folders."""

from __future__ import annotations

import csv
import inspect
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_annotator.errors import KnownError
from rag_annotator.import_export import csv_export, csv_import, registry
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.safety import TRIGGERS
from rag_annotator.storage.store import GoldSetStore
from tests.import_export.populate import HOSTILE, populate


def _export(store: GoldSetStore, dest: Path, **options: object) -> dict[str, bytes]:
    csv_export.export_csv(store, dest, Options(**options))  # type: ignore[arg-type]
    return {p.name: p.read_bytes() for p in sorted(dest.iterdir())}


def _rows(data: bytes, delimiter: str = ",") -> list[list[str]]:
    text = data.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


def test_data_profile_is_rfc4180_utf8_lf(tmp_path: Path, store: GoldSetStore) -> None:
    populate(store, HOSTILE)
    files = _export(store, tmp_path / "out")
    assert set(files) == {f"{e}.csv" for e in csv_export.FLAT_ENTITIES}
    cases = files["cases.csv"]
    assert not cases.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" not in cases.replace(b'"\r\nCRLF', b"")  # only inside a quoted field
    rows = _rows(cases)
    assert rows[0][:3] == ["key", "kind", "question"]
    questions = {r[2] for r in rows[1:]}
    assert questions <= set(HOSTILE) and questions  # written as they are, no quote added
    scores = [r[4] for r in _rows(files["retrieved.csv"])[1:]]
    assert all("." in s and "," not in s for s in scores)


def test_excel_profile_french(tmp_path: Path, store: GoldSetStore) -> None:
    populate(store, HOSTILE)
    files = _export(store, tmp_path / "out", profile="excel", locale="fr")
    cases = files["cases.csv"]
    assert cases.startswith(b"\xef\xbb\xbf")
    assert cases.split(b"\n", 1)[0].endswith(b"\r")
    rows = _rows(cases, ";")
    assert rows[0][:3] == ["key", "kind", "question"]
    for row in rows[1:]:
        for cell in row:
            # Nothing a spreadsheet would evaluate: every trigger-led cell starts with '.
            assert not cell.startswith(TRIGGERS)
    assert "'=cmd|' /C calc'!A0" in {c for r in rows for c in r}
    scores = [r[4] for r in _rows(files["retrieved.csv"], ";")[1:]]
    assert scores and all("," in s and "." not in s for s in scores)


def test_excel_profile_english_keeps_comma_and_point(tmp_path: Path,
                                                     store: GoldSetStore) -> None:
    populate(store, ["plain"])
    files = _export(store, tmp_path / "out", profile="excel", locale="en")
    header = files["retrieved.csv"].decode("utf-8-sig").split("\r\n")[0]
    assert header == "run,case,document,rank,score"
    assert all("." in r[4] for r in _rows(files["retrieved.csv"])[1:])


def test_system_locale_decides_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_export.locale, "getlocale", lambda: ("fr_FR", "UTF-8"))
    assert csv_export.Dialect.of("excel", None).delimiter == ";"
    monkeypatch.setattr(csv_export.locale, "getlocale", lambda: ("en_GB", "UTF-8"))
    assert csv_export.Dialect.of("excel", None).decimal == "."


@pytest.mark.parametrize(("profile", "loc"), [("data", None), ("excel", "fr"),
                                              ("excel", "en")])
def test_round_trip_gives_the_same_files(tmp_path: Path, store: GoldSetStore, profile: str,
                                         loc: str | None) -> None:
    populate(store, HOSTILE, long_passage=True)
    first = _export(store, tmp_path / "a", profile=profile, locale=loc)
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        csv_import.import_csv(other, tmp_path / "a", Options())
        second = _export(other, tmp_path / "b", profile=profile, locale=loc)
        questions = {r["question"] for r in other.query("SELECT question FROM cases")}
    assert first == second
    assert questions <= set(HOSTILE) and "=cmd|' /C calc'!A0" in questions | set(HOSTILE)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=st.lists(st.one_of(st.sampled_from(HOSTILE),
                                st.text(st.characters(exclude_categories=["Cs"]),
                                        max_size=20)), min_size=1, max_size=6))
def test_excel_round_trip_recovers_every_string(tmp_path_factory: pytest.TempPathFactory,
                                                texts: list[str]) -> None:
    tmp = tmp_path_factory.mktemp("csv")
    with GoldSetStore.create(tmp / "a.goldset") as store:
        populate(store, texts)
        _export(store, tmp / "a", profile="excel", locale="fr")
        before = store.query("SELECT key, question, notes, role FROM cases ORDER BY key")
    with GoldSetStore.create(tmp / "b.goldset") as other:
        csv_import.import_csv(other, tmp / "a", Options())
        after = other.query("SELECT key, question, notes, role FROM cases ORDER BY key")
    assert after == before


def test_failure_midway_leaves_nothing(tmp_path: Path, store: GoldSetStore,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    populate(store, ["x"])
    real = csv_export.write_csv
    calls = []

    def failing(*args: object, **kwargs: object) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(csv_export, "write_csv", failing)
    exports = tmp_path / "exports"
    exports.mkdir()
    with pytest.raises(KnownError, match="No space left on device"):
        csv_export.export_csv(store, exports / "out", Options())
    assert len(calls) == 3
    assert list(exports.iterdir()) == []  # neither the folder nor its temporary twin


def test_existing_non_empty_destination_is_refused(tmp_path: Path,
                                                   store: GoldSetStore) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    with pytest.raises(KnownError, match="not an empty folder"):
        csv_export.export_csv(store, tmp_path / "out", Options())
    assert (tmp_path / "out" / "keep.txt").read_text() == "mine"


def test_scope_limits_rows(tmp_path: Path, store: GoldSetStore) -> None:
    populate(store, ["x"])
    run = store.query("SELECT name FROM runs ORDER BY name")[0]["name"]
    files = _export(store, tmp_path / "out", runs=(run,), families=("ordinary",))
    retrieved = _rows(files["retrieved.csv"])[1:]
    assert retrieved and {r[0] for r in retrieved} == {run}
    assert {r[8] for r in _rows(files["cases.csv"])[1:]} == {"ordinary"}


def _folder(tmp_path: Path, store: GoldSetStore) -> Path:
    populate(store, ["plain"])
    _export(store, tmp_path / "a")
    return tmp_path / "a"


@pytest.mark.parametrize(("file", "edit", "message"), [
    ("judgments.csv", lambda t: t.replace(",0,", ",zero,", 1),
     r"judgments\.csv:\d+: column 'grade': expected an integer"),
    ("judgments.csv", lambda t: t.replace("c0_plain", "c9_missing", 1),
     r"judgments\.csv:2: no case 'c9_missing'"),
    ("cases.csv", lambda t: t.replace("family", "famille", 1),
     r"cases\.csv:1: the header has no column 'family'"),
    ("cases.csv", lambda t: t.replace("ordinary", "weird", 1),
     r"cases\.csv:2: column 'family': expected one of"),
    ("claims.csv", lambda t: t.replace("r0_plain", "r9", 1), r"claims\.csv:2: no run 'r9'"),
    ("trajectory_steps.csv", lambda t: t.replace("g0_plain", "c0_plain", 1),
     r"trajectory_steps\.csv:2: no trajectory of run 'r0_plain' for case 'c0_plain'"),
    ("cases.csv", lambda t: t.replace('[[""verifier_identite"", ""modifier_offre""]]',
                                      "verifier_identite", 1),
     r"cases\.csv:5: column 'tool_order': write each pair as 'before < after'"),
    ("trajectory_reviews.csv", lambda t: t.replace(",1,", ",yes,", 1),
     r"trajectory_reviews\.csv:2: column 'task_success': expected 0, 1 or null"),
])
def test_bad_files_name_file_and_line(tmp_path: Path, store: GoldSetStore, file: str,
                                      edit: object, message: str) -> None:
    folder = _folder(tmp_path, store)
    path = folder / file
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")  # type: ignore[operator]
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        with pytest.raises(ImportRejected, match=message):
            csv_import.import_csv(other, folder, Options())
        assert other.is_empty_goldset()


def test_not_utf8_and_non_empty_target(tmp_path: Path, store: GoldSetStore) -> None:
    folder = _folder(tmp_path, store)
    with pytest.raises(KnownError, match="EMPTY gold set"):
        csv_import.import_csv(store, folder, Options())
    (folder / "runs.csv").write_bytes(b"name,model\n\xff\xfe,x\n")
    with GoldSetStore.create(tmp_path / "b.goldset") as other, \
            pytest.raises(ImportRejected, match=r"runs\.csv:2: not UTF-8"):
        csv_import.import_csv(other, folder, Options())


def test_registry_names_csv() -> None:
    assert inspect.unwrap(registry.exporter("csv")) is csv_export.export_csv
    assert inspect.unwrap(registry.importer("csv")) is csv_import.import_csv


def test_release_scope_limits_cases_to_the_snapshot(tmp_path: Path,
                                                    store: GoldSetStore) -> None:
    from rag_annotator.domain import operations as ops
    from rag_annotator.domain.releases import freeze_release

    populate(store, ["x"])
    freeze_release(store, "v1")
    ops.create_case(store, key="after-release", question="new")
    files = _export(store, tmp_path / "out", release="v1")
    keys = {r[0] for r in _rows(files["cases.csv"])[1:]}
    assert keys and "after-release" not in keys
    assert keys == {r["key"] for r in store.query("SELECT key FROM cases")} - {"after-release"}
    with pytest.raises(KnownError, match="no release named 'v9'"):
        csv_export.export_csv(store, tmp_path / "other", Options(release="v9"))


def test_excel_profile_warns_about_cells_excel_would_cut(tmp_path: Path,
                                                         store: GoldSetStore) -> None:
    populate(store, ["x"], long_passage=True)
    report = csv_export.export_csv(store, tmp_path / "out", Options(profile="excel",
                                                                     locale="en"))
    assert any("longer than Excel keeps" in w and "documents line 2" in w
               for w in report.warnings)
    data = csv_export.export_csv(store, tmp_path / "data", Options())
    assert data.warnings == []  # data tools have no such limit
    text = (tmp_path / "out" / "documents.csv").read_text(encoding="utf-8-sig")
    assert "x" * 40_000 in text  # the file itself is whole


def test_graded_labels_set_the_scale_of_the_new_file(tmp_path: Path,
                                                     store: GoldSetStore) -> None:
    populate(store, ["x"])
    with store.operation("test_load", "graded") as op:
        op.update("meta", {"key": "max_grade"}, {"value": "3"})
        for row in op.select("judgments", grade=1):
            op.update("judgments", {"id": row["id"]}, {"grade": 3})
    _export(store, tmp_path / "a")
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        csv_import.import_csv(other, tmp_path / "a", Options())
        assert other.meta("max_grade") == "3"
        assert other.cross_reference_problems() == []


def test_agent_tables_are_written_and_read_back(tmp_path: Path, store: GoldSetStore) -> None:
    from rag_annotator.domain import agent_ops
    from tests.metrics.agent_seed import build_agents

    ids = build_agents(store)
    agent_ops.review_trajectory(store, ids["A04"], task_success=True,
                                success_reason="la résiliation était voulue")
    files = _export(store, tmp_path / "a")
    assert {"trajectories.csv", "trajectory_steps.csv", "trajectory_reviews.csv"} <= set(files)
    cases = _rows(files["cases.csv"])
    a03 = dict(zip(cases[0], next(r for r in cases if r[0] == "A03")))
    assert a03["kind"] == "agent" and a03["max_tokens"] == "1000"
    assert a03["expected_state"] == '{"ticket.category": "changement_offre"}'
    steps = _rows(files["trajectory_steps.csv"])
    assert steps[0] == ["run", "case", "trial", "position", "tool", "arguments", "result"]
    assert steps[1] == ["agent-v1", "A01", "0", "1", "verifier_identite", '{"client": "C-42"}',
                        "ok"]
    assert _rows(files["trajectory_reviews.csv"])[1][:5] == ["agent-v1", "A04", "0", "alice",
                                                             "1"]
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        csv_import.import_csv(other, tmp_path / "a", Options())
        assert _export(other, tmp_path / "b") == files
        from rag_annotator.reports.inputs import summarize_agents as summarize

        assert summarize(other, "agent-v1").to_json() == summarize(store, "agent-v1").to_json()


def test_a_folder_written_before_agent_cases_still_imports(tmp_path: Path,
                                                          store: GoldSetStore) -> None:
    populate(store, ["plain"])
    folder = tmp_path / "a"
    _export(store, folder)
    from rag_annotator.storage.reads_exchange import AGENT_COLUMNS

    rows = [r for r in _rows((folder / "cases.csv").read_bytes()) if "agent" not in r]
    keep = [i for i, name in enumerate(rows[0]) if name not in (*AGENT_COLUMNS, "kind")]
    with open(folder / "cases.csv", "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([[r[i] for i in keep]
                                                           for r in rows])
    for name in ("trajectories", "trajectory_steps", "trajectory_reviews"):
        (folder / f"{name}.csv").unlink()
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        csv_import.import_csv(other, folder, Options())
        assert set(other.case_kinds().values()) == {"rag"}
        assert other.count("cases") == len(rows) - 1
