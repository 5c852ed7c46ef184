"""Trajectory imports (``trajectories`` and ``openai-trajectories``): shapes, refusals that
name the line and store nothing, the CLI, and issue 9's done-when through files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.domain.agent_checks import BROKEN, HELD, evaluate
from rag_annotator.domain.agents import AgentSpec
from rag_annotator.import_export import registry
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.trajectories import import_native, import_openai
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import dump, full_dump, run_cli, stderr_lines

AGENT_TABLES = ("runs", "trajectories", "trajectory_steps", "operations", "history")
SEED_CASE: dict[str, Any] = {
    "key": "A01", "kind": "agent", "question": "Je veux changer d'offre",
    "expected_state": "ticket.category = changement_offre\nticket.client = C-42",
    "forbidden_tools": "supprimer_compte", "max_steps": 6,
    "tool_order": "verifier_identite < modifier_offre",
}
FINAL = {"ticket": {"id": "T-981", "category": "changement_offre", "client": "C-42"}}
ARGS = {"verifier_identite": {"client_id": "C-42"},
        "modifier_offre": {"client_id": "C-42", "offre": "fibre_max"},
        "creer_ticket": {"categorie": "changement_offre"},
        "supprimer_compte": {"client_id": "C-42"}}
PATHS = {"good": ["verifier_identite", "modifier_offre", "creer_ticket"],
         "forbidden": ["verifier_identite", "supprimer_compte", "creer_ticket"],
         "reversed": ["modifier_offre", "verifier_identite", "creer_ticket"]}


def native_line(case: str, tools: list[str], **extra: Any) -> dict[str, Any]:
    return {"case": case, "steps": [{"tool": t, "arguments": ARGS.get(t, {}),
                                     "result": f"{t} ok"} for t in tools],
            "final_state": FINAL, "answer": "Ticket T-981 créé", "tokens": 1234,
            "seconds": 8.2, "cost": 0.012, **extra}


def openai_line(case: str, tools: list[str], **extra: Any) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Je veux changer d'offre"}]
    for i, tool in enumerate(tools, start=1):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{i}", "type": "function",
             "function": {"name": tool, "arguments": json.dumps(ARGS.get(tool, {}))}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": f"{tool} ok"})
    messages.append({"role": "assistant", "content": "Ticket T-981 créé"})
    return {"case": case, "messages": messages, "final_state": FINAL,
            "usage": {"total_tokens": 1234}, "seconds": 8.2, "cost": 0.012, **extra}


def write(folder: Path, name: str, lines: list[Any] | str) -> Path:
    path = folder / name
    text = lines if isinstance(lines, str) else "".join(
        json.dumps(o, ensure_ascii=False) + "\n" for o in lines)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def seeded(store: GoldSetStore) -> GoldSetStore:
    ops.create_case(store, **SEED_CASE)
    ops.create_case(store, **{**SEED_CASE, "key": "A02"})
    ops.create_case(store, key="Q1", question="Combien de jours de congés ?")
    return store


def stored(store: GoldSetStore, run: str) -> list[dict[str, Any]]:
    return store.query(
        "SELECT c.key, t.final_state, t.final_answer, t.tokens, t.seconds, t.cost, "
        "(SELECT group_concat(s.tool || ' ' || s.arguments || ' ' || s.result, ' | ') FROM "
        "(SELECT * FROM trajectory_steps WHERE trajectory_id = t.id ORDER BY position) s) "
        "AS steps FROM trajectories t JOIN cases c ON c.id = t.case_id "
        "JOIN runs r ON r.id = t.run_id WHERE r.name = ? ORDER BY c.key", (run,))


# -- the two shapes --------------------------------------------------------------------------
def test_native_file_stores_steps_state_and_figures(seeded: GoldSetStore,
                                                    tmp_path: Path) -> None:
    path = write(tmp_path, "agent-v1.jsonl", [
        native_line("A01", PATHS["good"]),
        {"case_id": "A02", "steps": [{"name": "creer_ticket", "args": "{\"x\": 1}",
                                      "output": {"ticket": "T-1"}}], "final_state": None},
    ])
    report = import_native(seeded, path)
    assert report.name == "agent-v1" and report.new_run
    assert (report.trajectories, report.steps) == (2, 4)
    assert report.summary() == ("2 trajectories, 4 steps imported into new run 'agent-v1'.")
    a01, a02 = stored(seeded, "agent-v1")
    assert a01["steps"] == ('verifier_identite {"client_id": "C-42"} verifier_identite ok | '
                            'modifier_offre {"client_id": "C-42", "offre": "fibre_max"} '
                            'modifier_offre ok | creer_ticket {"categorie": '
                            '"changement_offre"} creer_ticket ok')
    assert json.loads(a01["final_state"]) == FINAL
    assert (a01["final_answer"], a01["tokens"], a01["seconds"], a01["cost"]) == (
        "Ticket T-981 créé", 1234, 8.2, 0.012)
    assert a02["steps"] == 'creer_ticket {"x": 1} {"ticket": "T-1"}'
    assert (a02["final_state"], a02["final_answer"], a02["tokens"]) == (None, "", None)


def test_openai_log_becomes_the_same_trajectory(seeded: GoldSetStore, tmp_path: Path) -> None:
    import_native(seeded, write(tmp_path, "n.jsonl", [native_line("A01", PATHS["good"])]))
    report = import_openai(seeded, write(tmp_path, "o.jsonl", [
        openai_line("A01", PATHS["good"], model="gpt-4o-mini")]))
    assert report.warnings == ["fields ignored: model"]
    assert stored(seeded, "o") == stored(seeded, "n")


def test_openai_parallel_calls_case_in_metadata_and_json_array(seeded: GoldSetStore,
                                                                tmp_path: Path) -> None:
    """Two tool_calls in one message are consecutive steps; results are matched by id
    whatever order the tool messages come in; a .json array is read too."""
    conversation = {"metadata": {"case": "A01"}, "messages": [
        {"role": "user", "content": "Je veux changer d'offre"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "a", "type": "function",
             "function": {"name": "verifier_identite", "arguments": "{\"client_id\": \"C-42\"}"}},
            {"id": "b", "type": "function",
             "function": {"name": "consulter_offres", "arguments": ""}}]},
        {"role": "tool", "tool_call_id": "b", "content": "fibre_max"},
        {"role": "tool", "tool_call_id": "a", "content": "ok"},
        {"role": "assistant", "content": [{"type": "text", "text": "Fait."}]}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20}}
    path = tmp_path / "log.json"
    path.write_text(json.dumps([conversation, {**conversation, "metadata": {"case": "A02"}}],
                               indent=2), encoding="utf-8")
    report = import_openai(seeded, path, run="parallel")
    assert (report.trajectories, report.steps) == (2, 4)
    rows = stored(seeded, "parallel")
    assert rows[0]["steps"] == ('verifier_identite {"client_id": "C-42"} ok | '
                                'consulter_offres {} fibre_max')
    assert (rows[0]["final_answer"], rows[0]["tokens"]) == ("Fait.", 120)


def test_a_call_without_result_is_kept_with_a_warning(seeded: GoldSetStore,
                                                      tmp_path: Path) -> None:
    line = openai_line("A01", PATHS["good"])
    del line["messages"][4]  # the tool message of call_2
    report = import_openai(seeded, write(tmp_path, "o.jsonl", [line]))
    assert report.warnings == ["1 tool calls have no tool message; their result is left "
                               "empty (lines 1)"]
    assert stored(seeded, "o")[0]["steps"].split(" | ")[1] == (
        'modifier_offre {"client_id": "C-42", "offre": "fibre_max"} ')


def test_run_field_must_agree_with_the_run_option(seeded: GoldSetStore, goldset_path: Path,
                                                  tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", [native_line("A01", []),
                                       native_line("A02", [], run="v1")])
    with pytest.raises(ImportRejected, match=r"a\.jsonl:2: this line's run 'v1' is not "
                                             r"'v2' given with --run"):
        import_native(seeded, path, run="v2")
    assert seeded.query("SELECT count(*) AS n FROM runs") == [{"n": 0}]


def test_responses_api_items_are_read_like_chat_tool_calls(seeded: GoldSetStore,
                                                            tmp_path: Path) -> None:
    items: list[dict[str, Any]] = [{"role": "user", "content": "Je veux changer d'offre"},
                                   {"type": "reasoning", "summary": []}]
    for i, tool in enumerate(PATHS["good"], start=1):
        items.append({"type": "function_call", "call_id": f"call_{i}", "name": tool,
                      "arguments": json.dumps(ARGS[tool])})
        items.append({"type": "function_call_output", "call_id": f"call_{i}",
                      "output": f"{tool} ok"})
    items.append({"type": "message", "role": "assistant",
                  "content": [{"type": "output_text", "text": "Ticket T-981 créé"}]})
    import_openai(seeded, write(tmp_path, "r.jsonl", [
        {"case": "A01", "messages": items, "final_state": FINAL,
         "usage": {"total_tokens": 1234}, "seconds": 8.2, "cost": 0.012}]))
    import_native(seeded, write(tmp_path, "n.jsonl", [native_line("A01", PATHS["good"])]))
    assert stored(seeded, "r") == stored(seeded, "n")
    orphan = [{"type": "function_call_output", "call_id": "nope", "output": "x"}]
    with pytest.raises(ImportRejected, match=r"o\.jsonl:1: message 1: .* fix call_id"):
        import_openai(seeded, write(tmp_path, "o.jsonl", [{"case": "A02", "messages": orphan}]))


def test_adds_to_an_existing_run_and_run_named_in_lines(seeded: GoldSetStore,
                                                        tmp_path: Path) -> None:
    import_native(seeded, write(tmp_path, "a.jsonl", [
        native_line("A01", PATHS["good"], run="v1")]))
    report = import_native(seeded, write(tmp_path, "b.jsonl", [native_line("A02", [])]),
                           run="v1")
    assert report.name == "v1" and not report.new_run
    assert [r["key"] for r in stored(seeded, "v1")] == ["A01", "A02"]


def test_import_is_one_undoable_operation(seeded: GoldSetStore, goldset_path: Path,
                                          tmp_path: Path) -> None:
    before = dump(goldset_path, ("runs", "trajectories", "trajectory_steps"))
    import_openai(seeded, write(tmp_path, "o.jsonl", [openai_line("A01", PATHS["good"]),
                                                     openai_line("A02", PATHS["reversed"])]))
    assert len(stored(seeded, "o")) == 2
    seeded.revert(seeded.operation_ids()[0])
    assert dump(goldset_path, ("runs", "trajectories", "trajectory_steps")) == before


# -- refusals: the line is named and nothing is stored -----------------------------------------
BAD_NATIVE: list[tuple[str, str, int, str]] = [
    ("not json", '{"case": "A01", "steps": []}\n{"case": "A02", steps: []}\n', 2,
     "not valid JSON"),
    ("unknown case", [native_line("A01", []), native_line("Z9", [])], 2, "no case 'Z9'"),
    ("rag case", [native_line("Q1", [])], 1, "case 'Q1' is a RAG case"),
    ("duplicate case", [native_line("A01", []), native_line("A02", []),
                        native_line("A01", [])], 3, "already has a trajectory on line 1"),
    ("missing steps", [native_line("A01", []), {"case": "A02"}], 2,
     "the field 'steps' is missing"),
    ("steps not a list", [{"case": "A01", "steps": "verifier_identite"}], 1,
     "'steps' must be a list"),
    ("empty tool", [{"case": "A01", "steps": [{"tool": " "}]}], 1,
     "step 1: 'tool' must be the tool's name"),
    ("missing case", [{"steps": []}], 1, "the field 'case' is missing"),
    ("case not a key", [{"case": " A01", "steps": []}], 1, "non-empty identifier"),
    ("negative tokens", [native_line("A01", [], tokens=-5)], 1,
     "'tokens' must be a finite number of 0 or more"),
    ("fractional tokens", [native_line("A01", [], tokens=1.5)], 1, "whole number"),
    ("NaN", '{"case": "A01", "steps": [], "cost": NaN}\n', 1, "NaN is not a number"),
    ("Infinity", '{"case": "A01", "steps": [], "seconds": Infinity}\n', 1,
     "Infinity is not a number"),
    ("overflow", '{"case": "A01", "steps": [], "seconds": 1e999}\n', 1,
     "1e999 is too large for a number"),
    ("overflow in arguments", '{"case": "A01", "steps": [{"tool": "x", "arguments": '
     '{"n": -1e400}}]}\n', 1, "-1e400 is too large"),
    ("deep nesting", '{"case": "A01", "steps": [], "final_state": {"a": ' + "[" * 100_000
     + "]" * 100_000 + "}}\n", 1, "nested too deeply"),
    ("text number", [native_line("A01", [], seconds="8")], 1, "'seconds' must be a number"),
    ("duplicate key", '{"case": "A01", "case": "A02", "steps": []}\n', 1,
     "the key 'case' appears twice"),
    ("state not object", [native_line("A01", [], final_state=["x"])], 1,
     "'final_state' must be a JSON object"),
    ("unknown field", [native_line("A01", [], trajectory=[])], 1, "unknown field 'trajectory'"),
    ("two aliases", [{"case": "A01", "case_id": "A01", "steps": []}], 1,
     "'case' and 'case_id' are the same field"),
    ("array line", '[1, 2]\n', 1, "expected a JSON object"),
    ("lone surrogate", '{"case": "A01", "steps": [{"tool": "x", "result": "a\\ud800"}]}\n', 1,
     "invalid Unicode"),
    ("lone surrogate in answer", '{"case": "A01", "steps": [], "answer": "\\uDFFF"}\n', 1,
     "invalid Unicode"),
    ("lone surrogate in an argument key", '{"case": "A01", "steps": [{"tool": "x", '
     '"arguments": {"\\udc00": 1}, "result": ""}]}\n', 1, "step 1 arguments: the text holds "
     "invalid Unicode"),
    ("lone surrogate in an argument", '{"case": "A01", "steps": [{"tool": "x", "arguments": '
     '{"q": ["\\ud83d"]}}]}\n', 1, "step 1 arguments: the text holds invalid Unicode"),
    ("lone surrogate in the final state", '{"case": "A01", "steps": [], "final_state": '
     '{"k": {"\\udfff": "v"}}}\n', 1, "final_state: the text holds invalid Unicode"),
    ("two runs", [native_line("A01", [], run="v1"), native_line("A02", [], run="v2")], 2,
     "one file is one run"),
]


@pytest.mark.parametrize("lines,line,message", [c[1:] for c in BAD_NATIVE],
                         ids=[c[0] for c in BAD_NATIVE])
def test_native_refusals_name_the_line_and_store_nothing(
        seeded: GoldSetStore, goldset_path: Path, tmp_path: Path, lines: Any, line: int,
        message: str) -> None:
    path = write(tmp_path, "bad.jsonl", lines)
    before = full_dump(goldset_path), dump(goldset_path, AGENT_TABLES)
    with pytest.raises(ImportRejected) as raised:
        import_native(seeded, path)
    assert str(raised.value).startswith(f"{path}:{line}: ")
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)
    assert (full_dump(goldset_path), dump(goldset_path, AGENT_TABLES)) == before


def _openai_bad_arguments() -> dict[str, Any]:
    line = openai_line("A02", PATHS["good"])
    line["messages"][3]["tool_calls"][0]["function"]["arguments"] = "{\"offre\": fibre}"
    return line


def _openai_orphan_tool() -> dict[str, Any]:
    line = openai_line("A02", PATHS["good"])
    line["messages"][2]["tool_call_id"] = "call_9"
    return line


def _openai_twice() -> dict[str, Any]:
    line = openai_line("A02", PATHS["good"])
    line["messages"].insert(3, dict(line["messages"][2]))
    return line


def _openai_surrogate_arguments() -> str:
    """Arguments given as a JSON text holding a lone surrogate's escape (written as JSON
    by hand: Python's encoder would not keep the escape as it is)."""
    line = openai_line("A02", PATHS["good"])
    line["messages"][3]["tool_calls"][0]["function"]["arguments"] = "{\"offre\": \"SURR\"}"
    return json.dumps(line).replace("SURR", "\\\\udc00") + "\n"


BAD_OPENAI: list[tuple[str, Any, int, str]] = [
    ("bad arguments JSON", [openai_line("A01", []), _openai_bad_arguments()], 2,
     "message 4, tool call \"call_2\" (modifier_offre): 'arguments' is not valid JSON"),
    ("tool message without call", [openai_line("A01", []), _openai_orphan_tool()], 2,
     "message 3: this tool message answers \"call_9\", which no earlier assistant tool call"),
    ("two results for a call", [_openai_twice()], 1, "already has a result"),
    ("lone surrogate in arguments", _openai_surrogate_arguments(), 1,
     "tool call \"call_2\" arguments: the text holds invalid Unicode"),
    ("no messages", [{"case": "A01"}], 1, "'messages' is missing"),
    ("negative tokens", [openai_line("A01", [], usage={"total_tokens": -1})], 1,
     "'usage.total_tokens' must be a finite number of 0 or more"),
    ("unknown case", [openai_line("Z9", [])], 1, "no case 'Z9'"),
    ("rag case", [openai_line("Q1", [])], 1, "RAG case"),
    ("duplicate case", [openai_line("A01", []), openai_line("A01", [])], 2,
     "already has a trajectory on line 1"),
    ("NaN cost", '{"case": "A01", "messages": [], "cost": NaN}\n', 1, "NaN"),
]


@pytest.mark.parametrize("lines,line,message", [c[1:] for c in BAD_OPENAI],
                         ids=[c[0] for c in BAD_OPENAI])
def test_openai_refusals_name_the_line_and_store_nothing(
        seeded: GoldSetStore, goldset_path: Path, tmp_path: Path, lines: Any, line: int,
        message: str) -> None:
    path = write(tmp_path, "bad.jsonl", lines)
    before = full_dump(goldset_path), dump(goldset_path, AGENT_TABLES)
    with pytest.raises(ImportRejected) as raised:
        import_openai(seeded, path)
    assert str(raised.value).startswith(f"{path}:{line}: ")
    assert message in str(raised.value)
    assert (full_dump(goldset_path), dump(goldset_path, AGENT_TABLES)) == before


@pytest.mark.parametrize("fmt", ["trajectories", "openai-trajectories"])
@pytest.mark.parametrize("content,where,message", [
    (b"", "", "holds no trajectories"),
    (b"\n  \n", "", "holds no trajectories"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ":1", "not UTF-8"),
    (b'{"case": "A01", "steps": []}\n\x00\x00\x00\x01', ":2", "NUL byte"),
    (b'{"case": "A01", "steps": []}\n{"case": "\xe9"}\n', ":2", "not UTF-8"),
])
def test_empty_and_binary_files_are_refused(seeded: GoldSetStore, goldset_path: Path,
                                            tmp_path: Path, fmt: str, content: bytes,
                                            where: str, message: str) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(content)
    before = full_dump(goldset_path), dump(goldset_path, AGENT_TABLES)
    with pytest.raises(ImportRejected) as raised:
        registry.importer(fmt)(seeded, path, registry.Options())
    assert str(raised.value).startswith(f"{path}{where}: ") and message in str(raised.value)
    assert (full_dump(goldset_path), dump(goldset_path, AGENT_TABLES)) == before


def test_json_array_errors_name_the_line_of_the_object(seeded: GoldSetStore,
                                                       tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text('[\n  {"case": "A01", "messages": []},\n  {"case": "A01", '
                    '"messages": []}\n]\n', encoding="utf-8")
    with pytest.raises(ImportRejected, match=r"log\.json:3: case 'A01' already has a "
                                             r"trajectory on line 2"):
        import_openai(seeded, path)
    path.write_text('[\n  {"case": "A01", "messages": []}\n  {"case": "A02"}\n]',
                    encoding="utf-8")
    with pytest.raises(ImportRejected, match=r"log\.json:3: expected ','"):
        import_openai(seeded, path)


def test_pretty_printed_json_objects_one_after_the_other(seeded: GoldSetStore,
                                                          tmp_path: Path) -> None:
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(native_line("A01", PATHS["good"]), indent=2) + "\n"
                    + json.dumps(native_line("A02", []), indent=2), encoding="utf-8")
    report = import_native(seeded, path)
    assert (report.name, report.trajectories, report.steps) == ("v1", 2, 3)
    second = json.dumps(native_line("A02", []), indent=2).replace('"steps"', '"steps" x')
    path.write_text(json.dumps(native_line("A01", []), indent=2) + "\n" + second,
                    encoding="utf-8")
    lines = json.dumps(native_line("A01", []), indent=2).count("\n") + 2
    with pytest.raises(ImportRejected, match=rf"v1\.json:{lines}: not valid JSON"):
        import_native(seeded, path, run="v2")
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(ImportRejected, match=r"v1\.json: the file holds no trajectories"):
        import_native(seeded, path, run="v2")


def test_a_second_import_of_the_same_case_into_a_run_is_refused(seeded: GoldSetStore,
                                                                 tmp_path: Path) -> None:
    path = write(tmp_path, "v1.jsonl", [native_line("A01", PATHS["good"])])
    import_native(seeded, path)
    with pytest.raises(ImportRejected, match=r"v1\.jsonl:1: run 'v1' already has a "
                                             r"trajectory for case 'A01'"):
        import_native(seeded, path)


# -- the CLI and issue 9's done-when ----------------------------------------------------------
def _verdicts(store: GoldSetStore, run: str) -> dict[str, tuple[str, tuple[int, ...]]]:
    (row,) = store.agent_inputs(run)
    evaluation = evaluate(AgentSpec.from_row(row), row["tools"], row["final_state"],
                          row["tokens"], row["seconds"], row["cost"])
    return {c.code: (c.status, c.steps) for c in evaluation.checks}


@pytest.mark.parametrize("fmt,make", [("trajectories", native_line),
                                      ("openai-trajectories", openai_line)])
def test_seed_000_done_when_through_the_cli(goldset_path: Path, tmp_path: Path, fmt: str,
                                            make: Any) -> None:
    """Seed 000's support-agent case, and three trajectories imported from files by the
    CLI: the seed's path keeps every invariant (the seed prints three True), the one calling
    supprimer_compte is flagged at step 2, the reversed one at step 1."""
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        ops.create_case(store, **SEED_CASE)
    for name, tools in PATHS.items():
        source = write(tmp_path, f"{name}.jsonl", [make("A01", tools)])
        result = run_cli("import", str(goldset_path), fmt, str(source))
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == (f"{source}: 1 trajectory, 3 steps imported into new "
                                         f"run '{name}'.")
    with GoldSetStore.open(goldset_path, read_only=True) as store:
        good, forbidden, reversed_ = (_verdicts(store, run) for run in PATHS)
    order = "order:verifier_identite<modifier_offre"
    assert good == {"forbidden:supprimer_compte": (HELD, ()), order: (HELD, ()),
                    "max_steps": (HELD, ())}
    assert forbidden["forbidden:supprimer_compte"] == (BROKEN, (2,))
    # modifier_offre is never called: the pair is not met, but no step breaks it
    assert forbidden[order] == (BROKEN, ()) and forbidden["max_steps"] == (HELD, ())
    assert reversed_[order] == (BROKEN, (1,))
    assert reversed_["forbidden:supprimer_compte"][0] == HELD


def test_cli_refusal_is_one_line_and_leaves_the_file(goldset_path: Path,
                                                     tmp_path: Path) -> None:
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        ops.create_case(store, **SEED_CASE)
    before = full_dump(goldset_path)
    source = write(tmp_path, "bad.jsonl", [native_line("A01", []), native_line("A01", [])])
    result = run_cli("import", str(goldset_path), "trajectories", str(source), "--run", "x")
    assert result.returncode == 2
    assert stderr_lines(result) == [f"error: {source}:2: case 'A01' already has a trajectory "
                                    "on line 1; keep one."]
    assert full_dump(goldset_path) == before


def test_seed_case_from_a_french_csv_then_trajectories_all_through_the_cli(
        goldset_path: Path, tmp_path: Path) -> None:
    """The whole path a user takes with files only: the case from Excel's French CSV, the
    trajectories from JSON Lines."""
    assert run_cli("new", str(goldset_path)).returncode == 0
    cases = tmp_path / "cas.csv"
    cases.write_bytes("\ufeffId;Question;Outils interdits;Étapes max;Ordre imposé\r\n"
                      "A01;Je veux changer d'offre;supprimer_compte;6;"
                      "verifier_identite < modifier_offre\r\n".encode())
    result = run_cli("import", str(goldset_path), "cases", str(cases))
    assert result.returncode == 0, result.stderr
    source = write(tmp_path, "v1.jsonl", [native_line("A01", PATHS["reversed"])])
    result = run_cli("import", str(goldset_path), "trajectories", str(source))
    assert result.returncode == 0, result.stderr
    with GoldSetStore.open(goldset_path, read_only=True) as store:
        verdicts = _verdicts(store, "v1")
    assert verdicts == {"forbidden:supprimer_compte": (HELD, ()),
                        "order:verifier_identite<modifier_offre": (BROKEN, (1,)),
                        "max_steps": (HELD, ())}


def test_the_sample_agent_runs_show_each_kind_of_verdict(tmp_path: Path) -> None:
    """The built-in sample: a clean path, supprimer_compte at step 2, a reversed order, a
    wrong final state and blown budgets, so the Agents section has something to show."""
    from rag_annotator.import_export.sample import create_sample

    def outcome(store: GoldSetStore, run: str) -> dict[str, tuple[Any, ...]]:
        out = {}
        for row in store.agent_inputs(run):
            e = evaluate(AgentSpec.from_row(row), row["tools"], row["final_state"],
                         row["tokens"], row["seconds"], row["cost"])
            out[row["case_key"]] = (e.task_success, e.path_acceptable, {
                c.code: c.steps for c in e.checks if c.status == BROKEN},
                sorted(k.key for k in e.state if k.status != "equal"))
        return out

    with create_sample(tmp_path / "s.goldset") as store:
        assert store.agent_case_ids().keys() == {"A01", "A02", "A03"}
        v1, v2 = outcome(store, "agent-support-v1"), outcome(store, "agent-support-v2")
        reviewed = store.query("SELECT note FROM trajectory_reviews")
    order = "order:verifier_identite<modifier_offre"
    assert v1["A01"] == (True, False, {order: (1,)}, [])
    assert v1["A02"][1] is False and v1["A02"][2]["forbidden:supprimer_compte"] == (2,)
    assert v1["A03"] == (True, False, {"max_steps": (5,), "max_tokens": (), "max_seconds": (),
                                       "max_cost": ()}, [])
    assert v2["A01"] == (True, True, {}, []) and v2["A03"] == (True, True, {}, [])
    assert v2["A02"] == (False, True, {}, ["ticket.category"])
    assert len(reviewed) == 1 and "supprimé" in reviewed[0]["note"]
