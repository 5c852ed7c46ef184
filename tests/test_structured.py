"""Structured answers: strict parsing, jsonschema's verdict, one outcome per decisive field,
reviews, undo, and the ``structured`` figures (issue 17, seed 003 "contrôler un résultat
JSON")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rag_annotator.domain import operations as ops
from rag_annotator.domain.strict_json import parse_strict
from rag_annotator.domain.structured import (
    CompiledContract,
    Contract,
    DecisiveField,
    Retrieved,
)
from rag_annotator.domain.structured_ops import (
    check_structured,
    review_field_outcome,
    set_output_contract,
)
from rag_annotator.errors import Conflict, InvalidValue
from rag_annotator.import_export.runs_jsonl import import_jsonl_run
from rag_annotator.reports.render import metrics_json
from rag_annotator.reports.run_figures import build
from rag_annotator.storage.store import GoldSetStore
from tests.builders import last_id

POLICY = ("Politique congés 2026. Le congé parental débute le 1er mars 2026. "
          "L'indemnité forfaitaire est de 1 200,50 euros. Tout salarié ayant un an "
          "d'ancienneté est éligible.")
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["start", "amount", "eligible"],
    "properties": {
        "start": {"type": "string", "format": "date"},
        "amount": {"type": "number", "minimum": 0},
        "eligible": {"type": "boolean"},
        "kind": {"enum": ["parental", "sick"]},
        "ref": {"type": "string", "pattern": "^RH-[0-9]+$"},
        "period": {"type": "array", "prefixItems": [{"$ref": "#/$defs/day"}]},
    },
    "$defs": {"day": {"type": "string", "format": "date"}},
}
FIELDS = (
    DecisiveField("/start", "2026-03-01", "date", document="POL", passage="1er mars 2026"),
    DecisiveField("/amount", 1200.5, "number", 0.01, document="POL"),
    DecisiveField("/eligible", True, "exact", document="POL",
                  passage="Tout salarié ayant un an d'ancienneté est éligible."),
)


def contract() -> Contract:
    return Contract(SCHEMA, FIELDS)


def check(text: str, docs: list[tuple[str, str]] | None = None) -> list[str]:
    result = CompiledContract(contract()).check(text, Retrieved(
        [("POL", POLICY)] if docs is None else docs))
    return [f.outcome for f in result.fields]


GOOD = {"start": "2026-03-01", "amount": 1200.5, "eligible": True}


# -- seed 003's three tests, and not executed --------------------------------------------------
def test_a_missing_value_a_contradiction_and_a_document_not_provided_differ() -> None:
    assert check(json.dumps(GOOD)) == ["equal", "equal", "equal"]
    schema_ok_missing = {**GOOD, "start": None}
    missing = dict(SCHEMA, required=["amount", "eligible"],
                   properties={**SCHEMA["properties"],
                               "start": {"type": ["string", "null"], "format": "date"}})
    result = CompiledContract(Contract(missing, FIELDS)).check(
        json.dumps(schema_ok_missing), Retrieved([("POL", POLICY)]))
    assert result.fields[0].outcome == "missing"
    without_start = {k: v for k, v in GOOD.items() if k != "start"}
    result = CompiledContract(Contract(missing, FIELDS)).check(
        json.dumps(without_start), Retrieved([("POL", POLICY)]))
    assert result.fields[0].outcome == "missing"
    assert check(json.dumps({**GOOD, "amount": 1500})) == ["equal", "differs", "equal"]
    assert check(json.dumps(GOOD), [("OTHER", POLICY)]) == ["source_not_provided"] * 3


def test_a_right_value_absent_from_the_retrieved_passages_is_not_supported() -> None:
    other = POLICY.replace("1 200,50", "une somme").replace("1er mars 2026", "au printemps")
    assert check(json.dumps(GOOD), [("POL", other)]) == ["not_supported", "not_supported",
                                                         "equal"]


def test_an_unparseable_answer_leaves_every_field_not_executed_and_says_so(
        store: GoldSetStore, tmp_path: Path) -> None:
    run = hr_file(store, tmp_path, {"H1": "Voici le formulaire : {\"start\": …"})
    figures = metrics_json(build(store, run))["structured"]
    field = figures["overall"]["fields"]["/start"]
    assert field["not_executed"] == 1 and field["executed"] == 0
    assert field["accuracy"] is None and field["passed"] == 0
    assert figures["overall"]["parse_rate"] == 0.0
    assert figures["per_case"]["H1"]["diagnosis"] == "contract_broken"


def test_a_schema_failure_executes_no_field() -> None:
    assert check(json.dumps({**GOOD, "amount": -3})) == ["not_executed"] * 3
    assert check(json.dumps({**GOOD, "start": "01/03/2026"})) == ["not_executed"] * 3


# -- strict parsing ------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "says"), [
    ('{"a": 1, "a": 2}', "the key 'a' appears twice"),
    ('{"a": NaN}', "NaN is not a number JSON allows"),
    ('{"a": Infinity}', "Infinity is not a number JSON allows"),
    ('{"a": 1} and more', "text after the JSON value"),
    ('{"a": 1,}', "not valid JSON"),
])
def test_strict_parsing_refuses_with_one_line(text: str, says: str) -> None:
    ok, _value, reason = parse_strict(text)
    assert not ok and says in reason and "\n" not in reason
    assert check(text) == ["not_executed"] * 3


# -- jsonschema's own verdict --------------------------------------------------------------------
_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(
    ["2026-03-01", "2026-02-30", "x", "RH-12", "RH-x", "parental", "sick", "01/03/2026"]))
_answers = st.fixed_dictionaries({}, optional={
    "start": _values, "amount": _values, "eligible": _values, "kind": _values,
    "ref": _values, "period": st.lists(_values, max_size=2)})


@settings(max_examples=300, deadline=None)
@given(_answers)
def test_the_schema_check_is_jsonschema_s_own_verdict(answer: dict[str, Any]) -> None:
    peer = Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)
    result = CompiledContract(contract()).check(json.dumps(answer),
                                                Retrieved([("POL", POLICY)]))
    assert result.parsed
    assert result.schema_valid is peer.is_valid(answer)
    assert (result.fields[0].outcome == "not_executed") is not peer.is_valid(answer)


def test_a_contract_with_a_broken_schema_or_pointer_is_refused(store: GoldSetStore) -> None:
    ops.create_case(store, key="C1", question="?")
    case_id = last_id(store, "cases")
    with pytest.raises(InvalidValue, match="not valid JSON Schema 2020-12"):
        set_output_contract(store, case_id, Contract({"type": "nothing"}, ()))
    with pytest.raises(InvalidValue, match="JSON Pointer"):
        set_output_contract(store, case_id, Contract({}, (DecisiveField("start", 1),)))
    with pytest.raises(InvalidValue, match="number comparison"):
        set_output_contract(store, case_id, Contract({}, (DecisiveField("/a", "x",
                                                                        "number"),)))
    assert store.output_contract(case_id) is None


# -- the file: import, recheck, reviews, undo --------------------------------------------------
def hr_file(store: GoldSetStore, tmp_path: Path, answers: dict[str, str],
            retrieved: dict[str, list[str]] | None = None) -> str:
    """A corpus with the policy, one HR case per answer (with the contract), a run imported
    through the jsonl-run importer."""
    ops.create_document(store, key="POL", title="Politique", text=POLICY)
    ops.create_document(store, key="AUTRE", title="Autre", text="Rien à voir.")
    for key in answers:
        ops.create_case(store, key=key, question="Remplir le formulaire RH", family="ordinary")
        set_output_contract(store, last_id(store, "cases"), contract())
    lines = [json.dumps({"case": key, "retrieved": (retrieved or {}).get(key, ["POL"]),
                         "answer": text}) for key, text in answers.items()]
    source = tmp_path / "run.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_jsonl_run(store, source, name="llm")
    return "llm"


def outcomes(store: GoldSetStore, case: str) -> list[str]:
    return [r["outcome"] for r in store.query(
        "SELECT o.outcome FROM field_outcomes o JOIN answers a ON a.id = o.answer_id "
        "JOIN cases c ON c.id = a.case_id JOIN decisive_fields f ON f.id = o.field_id "
        "WHERE c.key = ? ORDER BY f.position", (case,))]


def test_a_run_import_checks_its_structured_answers(store: GoldSetStore,
                                                    tmp_path: Path) -> None:
    hr_file(store, tmp_path, {
        "H1": json.dumps(GOOD), "H2": json.dumps({**GOOD, "amount": 99}),
        "H3": json.dumps(GOOD), "H4": '{"start": "2026-03-01", "start": "2026-03-02"}'},
        retrieved={"H3": ["AUTRE"]})
    assert outcomes(store, "H1") == ["equal"] * 3
    assert outcomes(store, "H2") == ["equal", "differs", "equal"]
    assert outcomes(store, "H3") == ["source_not_provided"] * 3
    assert outcomes(store, "H4") == ["not_executed"] * 3
    reason = store.query("SELECT reason FROM structured_checks s JOIN answers a "
                         "ON a.id = s.answer_id JOIN cases c ON c.id = a.case_id "
                         "WHERE c.key = 'H4'")[0]["reason"]
    assert "appears twice" in reason
    data = metrics_json(build(store, "llm"))["structured"]
    amount = data["per_family"]["ordinary"]["fields"]["/amount"]
    assert (amount["passed"], amount["executed"], amount["not_executed"]) == (1, 3, 1)
    assert data["overall"]["diagnosis"] == {
        "contract_broken": 1, "document_missing": 1, "right_document_wrong_field": 1,
        "all_fields_right": 1, "not_checked": 0}


def test_confirm_and_overrule_with_a_reason_then_undo(store: GoldSetStore,
                                                      tmp_path: Path) -> None:
    hr_file(store, tmp_path, {"H2": json.dumps({**GOOD, "amount": 99})})
    rows = store.query("SELECT id, outcome FROM field_outcomes ORDER BY field_id")
    with pytest.raises(InvalidValue, match="reason"):
        review_field_outcome(store, rows[1]["id"], "overruled", "  ")
    first = review_field_outcome(store, rows[0]["id"], "confirmed")
    second = review_field_outcome(store, rows[1]["id"], "overruled", "99 k€ is right")
    data = metrics_json(build(store, "llm"))["structured"]["overall"]["fields"]
    assert data["/amount"]["passed"] == 1 and data["/amount"]["overruled"] == 1
    assert [(r["review"], r["review_reason"]) for r in store.query(
        "SELECT review, review_reason FROM field_outcomes ORDER BY field_id")][:2] == [
        ("confirmed", ""), ("overruled", "99 k€ is right")]
    store.revert(int(second.operation_id or 0))
    store.revert(int(first.operation_id or 0))
    assert [r["review"] for r in store.query(
        "SELECT review FROM field_outcomes ORDER BY field_id")] == [None] * 3


def test_checking_again_keeps_reviews_whose_outcome_stands(store: GoldSetStore,
                                                           tmp_path: Path) -> None:
    hr_file(store, tmp_path, {"H2": json.dumps({**GOOD, "amount": 99})})
    rows = store.query("SELECT id FROM field_outcomes ORDER BY field_id")
    review_field_outcome(store, rows[0]["id"], "confirmed")
    review_field_outcome(store, rows[1]["id"], "overruled", "ok")
    case_id = store.by_key("cases", "H2")["id"]
    changed = [*FIELDS[:1], DecisiveField("/amount", 99, "number"), FIELDS[2]]
    set_output_contract(store, case_id, Contract(SCHEMA, tuple(changed)))
    assert [r["review"] for r in store.query(
        "SELECT review FROM field_outcomes ORDER BY field_id")] == ["confirmed", None, None]
    changes = check_structured(store)
    assert changes.operation_id is not None
    assert outcomes(store, "H2") == ["equal", "not_supported", "equal"]


def test_deleting_the_case_or_the_run_takes_the_checks_with_it(store: GoldSetStore,
                                                               tmp_path: Path) -> None:
    hr_file(store, tmp_path, {"H1": json.dumps(GOOD)})
    ops.delete_run(store, int(store.query("SELECT id FROM runs")[0]["id"]))
    assert store.count("field_outcomes") == 0 and store.count("structured_checks") == 0
    ops.delete_case(store, store.by_key("cases", "H1")["id"])
    assert store.count("decisive_fields") == 0 and store.count("output_contracts") == 0
    assert store.integrity_problems() == [] and store.cross_reference_problems() == []


def test_native_json_carries_contracts_checks_and_reviews_byte_for_byte(
        store: GoldSetStore, tmp_path: Path) -> None:
    from importlib import resources

    from rag_annotator.import_export import native_json
    from rag_annotator.import_export.registry import Options

    hr_file(store, tmp_path, {"H2": json.dumps({**GOOD, "amount": 99}), "H4": "{"})
    first_id = store.query("SELECT id FROM field_outcomes ORDER BY id")[1]["id"]
    review_field_outcome(store, first_id, "overruled", "l'avenant dit 99")
    native_json.export_json(store, tmp_path / "a.json", Options())
    with GoldSetStore.create(tmp_path / "b.goldset", assessor="imp") as other:
        native_json.import_json(other, tmp_path / "a.json", Options())
        native_json.export_json(other, tmp_path / "b.json", Options())
        carried = other.output_contract(other.by_key("cases", "H2")["id"])
        assert carried is not None and carried.schema == SCHEMA
        assert [(f.pointer, f.reference, f.comparison, f.tolerance, f.document)
                for f in carried.fields] == [(f.pointer, f.reference, f.comparison,
                                              f.tolerance, f.document) for f in FIELDS]
        start = POLICY.index("1er mars 2026")  # a passage found in its document: its span
        assert carried.fields[0].span == (start, start + len("1er mars 2026"))
    first, second = (tmp_path / "a.json").read_bytes(), (tmp_path / "b.json").read_bytes()
    assert first == second
    data = json.loads(first)
    schema = json.loads((resources.files("rag_annotator.resources") / "schema" /
                         "goldset.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(data)
    assert data["output_contracts"][0]["fields"][1] == {
        "pointer": "/amount", "reference": 1200.5, "comparison": "number", "tolerance": 0.01,
        "document": "POL"}
    overruled = [o for o in data["field_outcomes"] if o["review"] == "overruled"]
    assert [(o["case"], o["pointer"], o["review_reason"], o["reviewer"]) for o in overruled] == [
        ("H2", "/amount", "l'avenant dit 99", "alice")]
    assert [c["parsed"] for c in data["structured_checks"]] == [1, 0]


def test_check_reports_a_broken_contract_written_behind_the_app(store: GoldSetStore,
                                                                tmp_path: Path) -> None:
    hr_file(store, tmp_path, {"H1": json.dumps(GOOD)})
    assert store.cross_reference_problems() == []
    with store.operation("test_damage", "") as op:
        op.update("output_contracts", {"id": 1}, {"json_schema": '{"type": 3}'})
        op.update("decisive_fields", {"id": 1}, {"pointer": "start", "span_end": 10_000})
    problems = store.cross_reference_problems()
    assert any("case H1: the output schema is not valid JSON Schema 2020-12" in p
               for p in problems)
    assert any("decisive field start" in p and "JSON Pointer" in p for p in problems)
    assert any("beyond document POL" in p for p in problems)


# -- the sample: metrics --json and the workbook -------------------------------------------------
def test_on_the_sample_metrics_json_has_structured_per_family_and_per_field(
        tmp_path: Path) -> None:
    from tests.helpers import run_cli

    path = tmp_path / "s.goldset"
    assert run_cli("new", str(path), "--sample").returncode == 0
    result = run_cli("metrics", str(path), "--run", "bm25-gpt4o-v1", "--json")
    assert result.returncode == 0, result.stderr
    structured = json.loads(result.stdout)["structured"]
    assert set(structured["per_family"]) == {"ordinary", "outdated_document"}
    ordinary = structured["per_family"]["ordinary"]
    assert (ordinary["answers"], ordinary["parsed"], ordinary["schema_valid"]) == (2, 2, 1)
    # S01 (five fields checked) and S02 (broke the schema: its fields not executed)
    assert ordinary["fields"]["/plafond_mensuel"]["outcomes"]["differs"] == 1
    assert ordinary["fields"]["/jours_max"]["outcomes"]["missing"] == 1
    assert ordinary["fields"]["/plafond_annuel"]["outcomes"]["not_supported"] == 1
    assert ordinary["fields"]["/valeur_faciale"] | {"outcomes": None} == {
        "accuracy": None, "passed": 0, "executed": 0, "not_executed": 1, "checks": 1,
        "overruled": 0, "outcomes": None}
    outdated = structured["per_family"]["outdated_document"]
    assert outdated["diagnosis"]["document_missing"] == 1
    assert outdated["fields"]["/applicable"]["outcomes"]["source_not_provided"] == 1
    other = json.loads(run_cli("metrics", str(path), "--run", "hybride-mistral-v2",
                               "--json").stdout)["structured"]
    assert other["overall"]["parse_rate"] == 2 / 3
    assert other["per_case"]["S03"]["diagnosis"] == "right_document_wrong_field"


def test_the_workbook_has_a_structured_sheet(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from rag_annotator.import_export.registry import Options
    from rag_annotator.import_export.sample import create_sample
    from rag_annotator.import_export.xlsx_export import export_xlsx

    with create_sample(tmp_path / "s.goldset") as store:
        export_xlsx(store, tmp_path / "s.xlsx", Options())
    wb = load_workbook(tmp_path / "s.xlsx", read_only=True)
    try:
        sheet = [list(r) for r in wb["Structured answers"].iter_rows(values_only=True)]
    finally:
        wb.close()
    titles = [r[0] for r in sheet if r and isinstance(r[0], str)]
    assert "Structured answers of run bm25-gpt4o-v1, per family" in titles
    overall = next(r for r in sheet if r and r[0] == "all families")
    assert overall[1:8] == [3, 1.0, 2 / 3, 1, 1, 1, 0]
    field = next(r for r in sheet if r and r[0] == "/valeur_faciale")
    assert field[1:6] == ["not computable", 0, 0, 1, 0]


# -- the cases import: an "Output contract" column --------------------------------------------
def test_a_cases_csv_brings_contracts_in_a_json_column(store: GoldSetStore,
                                                       tmp_path: Path) -> None:
    import csv

    from rag_annotator.domain.structured import contract_to_json
    from rag_annotator.import_export.cases_import import import_cases
    from rag_annotator.import_export.files import ImportRejected
    from rag_annotator.import_export.registry import Options

    ops.create_document(store, key="POL", title="Politique", text=POLICY)
    source = tmp_path / "cases.csv"
    with source.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Id", "Question", "Contrat de sortie"])
        writer.writerow(["H1", "Remplir la fiche", json.dumps(contract_to_json(contract()))])
        writer.writerow(["H2", "Sans contrat", ""])
    import_cases(store, source, Options())
    stored = store.output_contract(store.by_key("cases", "H1")["id"])
    assert stored is not None and [f.pointer for f in stored.fields] == [
        "/start", "/amount", "/eligible"]
    assert store.output_contract(store.by_key("cases", "H2")["id"]) is None
    bad = tmp_path / "bad.csv"
    with bad.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Id", "Question", "Output contract"])
        writer.writerow(["H3", "Doublon", '{"schema": {}, "schema": {}}'])
        writer.writerow(["H4", "Inconnu", json.dumps({"schema": {}, "fields": [
            {"pointer": "/a", "reference": 1, "document": "NOPE"}]})])
    with pytest.raises(ImportRejected) as refused:
        import_cases(store, bad, Options())
    message = str(refused.value)
    assert "row 2" in message and "appears twice" in message
    assert "row 3" in message and "no document 'NOPE'" in message
    assert store.count("cases") == 2


# -- reading a value in the retrieved passages ---------------------------------------------------
@pytest.mark.parametrize(("value", "tolerance", "found"), [
    (1200.5, 0.0, True),     # "1 200,50" (French grouping and decimal comma)
    (1200.50, 0.0, True),
    (200.5, 0.0, False),     # the tail of 1 200,50 is not 200,5
    (50, 0.0, False),        # nor is the fraction of 1 200,50 the number 50
    (1201, 0.6, True),       # within the tolerance
    (1201, 0.4, False),
    (2026, 0.0, True),       # the year of a date is written
    (1, 0.0, True),          # "1er mars"
])
def test_numbers_are_read_in_the_passages_as_written(value: float, tolerance: float,
                                                     found: bool) -> None:
    assert Retrieved([("POL", POLICY)]).has_number(value, tolerance) is found


@pytest.mark.parametrize(("text", "found"), [
    ("Le congé débute le 1er mars 2026.", True),
    ("Le congé débute le 1 MARS 2026.", True),   # case folded when not found as written
    ("Le congé débute le 01/03/2026.", True),
    ("Le congé débute le 2026-03-01.", True),
    ("Le congé débute le 11/03/2026.", False),
    ("Le congé débute le 1er mars 2027.", False),
])
def test_dates_are_read_in_the_passages_in_their_usual_forms(text: str, found: bool) -> None:
    import datetime as dt

    assert Retrieved([("POL", text)]).has_date(dt.date(2026, 3, 1)) is found


def test_check_structured_on_the_command_line(tmp_path: Path) -> None:
    from tests.helpers import run_cli

    path = tmp_path / "s.goldset"
    assert run_cli("new", str(path), "--sample").returncode == 0
    result = run_cli("check-structured", str(path), "--run", "bm25-gpt4o-v1")
    assert result.returncode == 0, result.stderr
    assert "3 structured answers checked" in result.stdout
    assert ("equal 3, differs 1, missing 1, not supported 1, source not provided 3, "
            "not executed 3") in result.stdout
    unknown = run_cli("check-structured", str(path), "--run", "nope")
    assert unknown.returncode != 0 and "no run named 'nope'" in unknown.stderr


def test_undoing_the_run_import_removes_its_checks_and_redo_brings_them_back(
        store: GoldSetStore, tmp_path: Path) -> None:
    hr_file(store, tmp_path, {"H1": json.dumps(GOOD), "H2": "{"})
    operation = int(store.query("SELECT max(id) AS id FROM operations "
                                "WHERE action = 'import_run'")[0]["id"])
    assert store.count("field_outcomes") == 6 and store.count("structured_checks") == 2
    undo = store.revert(operation)
    assert store.count("field_outcomes") == 0 and store.count("answers") == 0
    store.revert(int(undo.operation_id or 0), action="redo")
    assert outcomes(store, "H1") == ["equal"] * 3 and outcomes(store, "H2") == [
        "not_executed"] * 3
    assert store.integrity_problems() == []


def test_an_approved_case_of_a_frozen_release_keeps_its_contract(store: GoldSetStore,
                                                                  tmp_path: Path) -> None:
    from rag_annotator.domain.releases import freeze_release

    hr_file(store, tmp_path, {"H1": json.dumps(GOOD)})
    case_id = store.by_key("cases", "H1")["id"]
    ops.edit_case(store, case_id, status="approved")
    freeze_release(store, "v1")
    with pytest.raises(Conflict, match="frozen release 'v1'"):
        set_output_contract(store, case_id, None)
    assert store.output_contract(case_id) is not None
