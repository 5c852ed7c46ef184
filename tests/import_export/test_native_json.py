"""Native JSON: lossless, versioned, schema-valid; export → import → export gives the same bytes.

``populate`` (also used by the CSV, XLSX and ecosystem tests) fills a gold set with every
entity of the schema, drawing its texts from a list that hypothesis makes hostile.
"""

from __future__ import annotations

import inspect
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_annotator.errors import KnownError
from rag_annotator.import_export import native_json, native_team, registry
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.native_documents import DOCUMENT_DEFAULTS
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_rich
from tests.import_export.populate import HOSTILE, populate


def _export(store: GoldSetStore, dest: Path, **options: Any) -> bytes:
    native_json.export_json(store, dest, Options(**options))
    return dest.read_bytes()


def _roundtrip(tmp: Path, store: GoldSetStore) -> tuple[bytes, bytes]:
    first = _export(store, tmp / "a.json")
    with GoldSetStore.create(tmp / "b.goldset", assessor="imp") as other:
        native_json.import_json(other, tmp / "a.json", Options())
        second = _export(other, tmp / "b.json")
    return first, second


def _schema() -> dict[str, Any]:
    text = (resources.files("rag_annotator.resources") / "schema" /
            "goldset.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def test_schema_is_valid_and_packaged() -> None:
    jsonschema.Draft202012Validator.check_schema(_schema())


def test_rich_goldset_round_trips_byte_for_byte(tmp_path: Path, store: GoldSetStore) -> None:
    build_rich(store)
    populate(store, HOSTILE, long_passage=True)
    first, second = _roundtrip(tmp_path, store)
    assert first == second
    data = json.loads(first)
    jsonschema.validate(data, _schema())
    # Three-state labels survive: null (unjudged), 0 and 1 all present.
    assert {j["grade"] for j in data["judgments"]} == {None, 0, 1}
    # Natural keys, never row ids.
    assert "id" not in data["judgments"][0] and "case_id" not in data["judgments"][0]
    claims = [c for a in data["answers"] for c in a["claims"]]
    assert any(c["evidence"] for c in claims) and any(c["judge_verdicts"] for c in claims)
    assert data["case_reviews"][0]["near_duplicate_of"].startswith("c1_")
    assert data["releases"] and data["adjudications"]
    assert any(len(d["text"]) > 40_000 for d in data["documents"])
    assert any(j.get("note") == "nul\x00byte" for j in data["judgments"])
    # Agent cases and trajectories are carried whole.
    (agent,) = [c for c in data["cases"] if c["kind"] == "agent"]
    assert agent["tool_order"] == [["verifier_identite", "modifier_offre"]]
    assert agent["expected_state"]["ticket.n"] == 2 and agent["max_seconds"] == 2.5
    assert [len(t["steps"]) for t in data["trajectories"]] == [3, 2]
    assert data["trajectories"][0]["final_state"]["ticket"]["n"] == 2
    assert data["trajectories"][1]["final_state"] is None
    assert data["trajectory_reviews"][0]["task_success"] == 1


def test_sample_round_trips_and_validates(tmp_path: Path) -> None:
    with create_sample(tmp_path / "s.goldset") as sample:
        first, second = _roundtrip(tmp_path, sample)
    assert first == second
    jsonschema.validate(json.loads(first), _schema())


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(texts=st.lists(st.one_of(st.sampled_from(HOSTILE),
                                st.text(st.characters(exclude_categories=["Cs"]),
                                        max_size=30)),
                      min_size=1, max_size=10),
       long_passage=st.booleans(), n=st.integers(2, 3))
def test_round_trip_property(tmp_path_factory: pytest.TempPathFactory, texts: list[str],
                             long_passage: bool, n: int) -> None:
    tmp = tmp_path_factory.mktemp("rt")
    with GoldSetStore.create(tmp / "a.goldset", assessor="x") as store:
        populate(store, texts, long_passage=long_passage, n=n)
        first, second = _roundtrip(tmp, store)
    assert first == second
    jsonschema.validate(json.loads(first), _schema())


def test_history_is_exported_valid_and_not_imported(tmp_path: Path,
                                                    store: GoldSetStore) -> None:
    build_rich(store)
    with_history = _export(store, tmp_path / "h.json", history=True)
    data = json.loads(with_history)
    jsonschema.validate(data, _schema())
    assert data["history"] and data["history"][0]["changes"]
    with GoldSetStore.create(tmp_path / "n.goldset") as other:
        report = native_json.import_json(other, tmp_path / "h.json", Options())
        assert any("history" in w for w in report.warnings)
        assert _export(other, tmp_path / "n.json") == _export(store, tmp_path / "o.json")


def test_import_is_one_undoable_operation(tmp_path: Path, store: GoldSetStore) -> None:
    build_rich(store)
    _export(store, tmp_path / "a.json")
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        native_json.import_json(other, tmp_path / "a.json", Options())
        assert other.count("judgments") == store.count("judgments")
        other.revert(other.operation_ids()[0])
        assert other.is_empty_goldset()
        assert other.count("judgments") == other.count("claims") == 0


def test_import_into_a_non_empty_file_is_refused(tmp_path: Path, store: GoldSetStore) -> None:
    build_rich(store)
    _export(store, tmp_path / "a.json")
    before = store.count("cases")
    with pytest.raises(KnownError, match="EMPTY gold set"):
        native_json.import_json(store, tmp_path / "a.json", Options())
    assert store.count("cases") == before


def _agent(data: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in data["cases"] if c["kind"] == "agent")


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d.update(format="other"), "not a rag_annotator JSON export"),
    (lambda d: d.update(version=99), "version 99"),
    (lambda d: d["judgments"][0].update(grade="1"), r"judgments\[0\]\.grade: expected an "
                                                    "integer"),
    (lambda d: d["judgments"][0].update(case="nope"), r"judgments\[0\]\.case: no case 'nope'"),
    (lambda d: d["cases"][0].update(family="weird"), r"cases\[0\]\.family: expected one of"),
    (lambda d: d["cases"][0].update(bogus=1), "unknown field 'bogus'"),
    (lambda d: d["cases"][0].update(extra=1),
     r"bad\.json: cases\[0\]\.extra: expected a JSON object, got 1; fix the file"),
    (lambda d: d["answers"][0].update(extra=["persona"]),
     r"answers\[0\]\.extra: expected a JSON object, got \[\"persona\"\]"),
    (lambda d: d["documents"][0].pop("text"), "field 'text' is missing"),
    (lambda d: d["answers"][0]["claims"][0]["evidence"][0].update(document="zz"),
     r"answers\[0\]\.claims\[0\]\.evidence\[0\]\.document: no document 'zz'"),
    (lambda d: d["retrieved"].append(dict(d["retrieved"][0])), "retrieved: UNIQUE"),
    (lambda d: d["cases"][0].update(key=" padded"), "non-empty key"),
    (lambda d: _agent(d).update(tool_order=[["a", "a"]]),
     r"cases\[\d\]\.tool_order: 'a' cannot come before itself"),
    (lambda d: _agent(d).update(forbidden_tools=["two words"]),
     r"cases\[\d\]\.forbidden_tools: 'two' is not a tool name|not a tool name"),
    (lambda d: _agent(d).update(max_steps=-1), "cases: CHECK constraint failed"),
    (lambda d: d["trajectories"][0].update(case=d["cases"][0]["key"]),
     r"trajectories\[0\]\.case: .* is not an agent case"),
    (lambda d: d["trajectories"][0].update(final_state=[1]),
     r"trajectories\[0\]\.final_state: expected a JSON object or null"),
    (lambda d: d["trajectories"][0]["steps"][0].update(position=0),
     "trajectory_steps: CHECK constraint failed"),
    (lambda d: d["trajectory_reviews"][0].update(task_success=2),
     r"trajectory_reviews\[0\]\.task_success: expected 0, 1 or null"),
    (lambda d: d["trajectory_reviews"][0].update(run="nope"),
     r"trajectory_reviews\[0\]: no trajectory of run 'nope'"),
])
def test_bad_files_are_refused_and_nothing_is_stored(tmp_path: Path, store: GoldSetStore,
                                                     mutate: Any, message: str) -> None:
    populate(store, ["plain"])
    data = json.loads(_export(store, tmp_path / "a.json"))
    mutate(data)
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        with pytest.raises(KnownError, match=message):
            native_json.import_json(other, tmp_path / "bad.json", Options())
        assert other.is_empty_goldset() and other.operation_ids() == []


def test_a_file_written_before_agent_cases_still_imports(tmp_path: Path,
                                                         store: GoldSetStore) -> None:
    populate(store, ["plain"])
    data = json.loads(_export(store, tmp_path / "a.json"))
    data["cases"] = [c for c in data["cases"] if c["kind"] == "rag"]
    for case in data["cases"]:
        for name in native_json.DEFAULTS:
            del case[name]
    del data["trajectories"], data["trajectory_reviews"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        native_json.import_json(other, tmp_path / "old.json", Options())
        assert other.case_kinds() and set(other.case_kinds().values()) == {"rag"}
        row = other.query("SELECT expected_state, tool_order, max_steps FROM cases")[0]
        assert (row["expected_state"], row["tool_order"], row["max_steps"]) == ("{}", "[]",
                                                                                None)


def test_agent_fields_in_their_text_forms_are_read(tmp_path: Path, store: GoldSetStore) -> None:
    populate(store, ["plain"])
    data = json.loads(_export(store, tmp_path / "a.json"))
    _agent(data).update(expected_state="ticket.category = changement_offre",
                        tool_order="verifier_identite < modifier_offre < creer_ticket",
                        forbidden_tools="supprimer_compte, fermer")
    (tmp_path / "t.json").write_text(json.dumps(data), encoding="utf-8")
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        native_json.import_json(other, tmp_path / "t.json", Options())
        back = _agent(json.loads(_export(other, tmp_path / "b.json")))
    assert back["expected_state"] == {"ticket.category": "changement_offre"}
    assert back["tool_order"] == [["verifier_identite", "modifier_offre"],
                                  ["modifier_offre", "creer_ticket"]]
    assert back["forbidden_tools"] == ["supprimer_compte", "fermer"]


def test_not_json_names_the_line(tmp_path: Path, store: GoldSetStore) -> None:
    (tmp_path / "x.json").write_text('{\n "format": \n}', encoding="utf-8")
    with pytest.raises(ImportRejected, match=r"x\.json:3: not valid JSON"):
        native_json.import_json(store, tmp_path / "x.json", Options())


def test_registry_names_the_json_format() -> None:
    assert inspect.unwrap(registry.exporter("json")) is native_json.export_json
    assert inspect.unwrap(registry.importer("json")) is native_json.import_json


def test_cancel_leaves_no_file(tmp_path: Path, store: GoldSetStore) -> None:
    populate(store, ["a"])
    exports = tmp_path / "exports"
    exports.mkdir()
    with pytest.raises(KnownError, match="cancelled"):
        native_json.export_json(store, exports / "c.json", Options(cancel=lambda: True))
    assert list(exports.iterdir()) == []


def test_failure_midway_leaves_the_old_file(tmp_path: Path, store: GoldSetStore,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    populate(store, ["a"])
    exports = tmp_path / "exports"
    exports.mkdir()
    (exports / "g.json").write_text("previous", encoding="utf-8")
    real = native_json._Writer.rows
    calls: list[str] = []

    def failing(self: Any, name: str, rows: Any) -> int:
        calls.append(name)
        if name == "judgments":
            self.out.write('[\n  {"partial": ')
            raise OSError(28, "No space left on device")
        return real(self, name, rows)

    monkeypatch.setattr(native_json._Writer, "rows", failing)
    with pytest.raises(KnownError, match="No space left on device"):
        native_json.export_json(store, exports / "g.json", Options())
    assert "judgments" in calls
    assert [p.name for p in exports.iterdir()] == ["g.json"]
    assert (exports / "g.json").read_text(encoding="utf-8") == "previous"


def test_progress_is_reported(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    with create_sample(tmp_path / "s.goldset") as sample:
        native_json.export_json(sample, tmp_path / "s.json",
                                Options(progress=lambda d, t: seen.append((d, t))))
    assert seen and all(0 < d <= t for d, t in seen)


def test_schema_describes_every_field_the_import_reads() -> None:
    defs = _schema()["$defs"]
    for entity, spec in native_json.SPECS.items():
        assert set(defs[entity]["properties"]) == set(spec), entity
        # an empty ``extra`` is left out of the file (round trips of older files stay equal),
        # and so are the fields older team files lack (a pair slot names no claim)
        optional = set(native_json.EXTRA_DEFAULTS) | set(native_team.DEFAULTS.get(entity, {}))
        if entity == "documents":  # a version 1 file's documents have no structure
            optional |= set(DOCUMENT_DEFAULTS)
        assert set(defs[entity]["required"]) == set(spec) - optional, entity


TOOL = st.text(st.characters(exclude_categories=["Cs", "Zs", "Cc", "Zl", "Zp"],
                             exclude_characters="<>;,"), min_size=1, max_size=8)
VALUE = st.one_of(st.text(max_size=10), st.integers(-5, 5), st.booleans(), st.none(),
                  st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(state=st.dictionaries(st.text(st.characters(exclude_categories=["Cs"],
                                                   exclude_characters="=;\n"),
                                     min_size=1, max_size=8).map(str.strip).filter(bool),
                             VALUE, max_size=4),
       forbidden=st.lists(TOOL, max_size=3), order=st.lists(st.tuples(TOOL, TOOL).filter(
           lambda p: p[0] != p[1]), max_size=2),
       budgets=st.tuples(st.one_of(st.none(), st.integers(0, 50)),
                         st.one_of(st.none(), st.floats(0, 1e4, allow_nan=False))),
       steps=st.lists(st.tuples(TOOL, st.text(max_size=10)), max_size=5),
       final=st.one_of(st.none(), st.dictionaries(st.text(max_size=5), VALUE, max_size=3)))
def test_agent_cases_and_trajectories_round_trip(
        tmp_path_factory: pytest.TempPathFactory, state: dict[str, Any], forbidden: list[str],
        order: list[tuple[str, str]], budgets: tuple[int | None, float | None],
        steps: list[tuple[str, str]], final: dict[str, Any] | None) -> None:
    from rag_annotator.domain import agent_ops
    from rag_annotator.domain import operations as ops
    from rag_annotator.domain.agent_ops import TrajectoryInput

    tmp = tmp_path_factory.mktemp("agents")
    with GoldSetStore.create(tmp / "a.goldset", assessor="x") as store:
        ops.create_case(store, key="A1", kind="agent", question="?", expected_state=state,
                        forbidden_tools=forbidden, tool_order=[list(p) for p in order],
                        max_steps=budgets[0], max_cost=budgets[1])
        agent_ops.import_trajectories(store, "r", [TrajectoryInput(
            case="A1", steps=[(tool, {"q": text}, text) for tool, text in steps],
            final_state=final, tokens=len(steps), seconds=0.5, cost=budgets[1], line=1)])
        first, second = _roundtrip(tmp, store)
    assert first == second
    data = json.loads(first)
    jsonschema.validate(data, _schema())
    assert [s["tool"] for s in data["trajectories"][0]["steps"]] == [t for t, _x in steps]
    assert data["cases"][0]["max_cost"] == budgets[1]


def _pop_ranges(group: dict[str, Any]) -> dict[str, Any]:
    """Take the ``_ci`` keys out of one group of agent figures (and return them)."""
    return {k: group.pop(k) for k in list(group) if k.endswith("_ci")}


def test_agent_metrics_travel_with_the_trajectories_and_are_not_imported(
        tmp_path: Path) -> None:
    """The issue asks for the agent metrics in the native JSON: each run holding
    trajectories gets the ``metrics --json`` figures (overall and per family); the import
    ignores them (they are derived), so the round trip still gives the same bytes."""
    from rag_annotator.reports.inputs import summarize_agents as summarize

    with create_sample(tmp_path / "s.goldset") as sample:
        first, second = _roundtrip(tmp_path, sample)
        expected = {run: summarize(sample, run).to_json()
                    for run in ("agent-support-v1", "agent-support-v2")}
    assert first == second
    data = json.loads(first)
    jsonschema.validate(data, _schema())
    assert set(data["agent_metrics"]) == set(expected)
    for run, figures in data["agent_metrics"].items():
        # Issue 16: the derived figures carry their ranges (X_ci), as metrics --json does.
        ranges = _pop_ranges(figures["overall"])
        assert ranges["task_success_ci"] is not None and "violations_ci" in ranges
        for group in figures["per_family"].values():
            _pop_ranges(group)
        assert figures["overall"] == expected[run]["overall"]
        assert figures["per_family"] == expected[run]["per_family"]
        assert "per_trajectory" not in figures
    v1 = data["agent_metrics"]["agent-support-v1"]["overall"]
    assert v1["trajectories"] == 3 and v1["violations"]["forbidden:supprimer_compte"][
        "broken"] == 1
