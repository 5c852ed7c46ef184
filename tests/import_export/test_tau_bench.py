"""tau-bench's published trajectories, imported as they are (issue 18, point 3).

The data is a cut of ``historical_trajectories/gpt-4o-airline.json`` (tests/data/tau_bench,
see its README): four tasks, their four trials each, records unchanged.  The expected
figures are computed here from the file's own ``reward`` fields with plain Python and
tau-bench's formula, never from the code under test."""

from __future__ import annotations

import json
from collections import defaultdict
from math import comb
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.tau_bench import import_tau
from rag_annotator.import_export.trajectories import import_openai
from rag_annotator.metrics.agents import summarize_rows
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import run_cli

CUT = Path(__file__).parents[1] / "data" / "tau_bench" / "gpt-4o-airline-cut.json"


def records() -> list[dict[str, Any]]:
    return list(json.loads(CUT.read_text(encoding="utf-8")))


def success(reward: float) -> bool:
    return (1 - 1e-6) <= reward <= (1 + 1e-6)  # tau-bench's is_successful


def hand_pass_k(data: list[dict[str, Any]]) -> dict[int, float]:
    """tau-bench's display_metrics, written out."""
    trials = len({r["trial"] for r in data})
    c_per_task: dict[int, int] = defaultdict(int)
    for r in data:
        c_per_task[r["task_id"]] += success(r["reward"])
    return {k: sum(comb(c, k) / comb(trials, k) for c in c_per_task.values()) / len(c_per_task)
            for k in range(1, trials + 1)}


def test_the_cut_is_what_the_issue_describes() -> None:
    """Reused tool-call ids inside a log, four trials per task, rewards 0 and 1."""
    data = records()
    reused = 0
    for r in data:
        ids = [c["id"] for m in r["traj"] for c in (m.get("tool_calls") or [])]
        reused += len(ids) != len(set(ids))
    assert reused >= 2 and {r["trial"] for r in data} == {0, 1, 2, 3}
    assert {r["reward"] for r in data} == {0.0, 1.0}


def test_openai_importer_refused_it_before(store: GoldSetStore, tmp_path: Path) -> None:
    """The generic chat-log importer reads no task_id / traj: the file was refused."""
    with pytest.raises(ImportRejected):
        import_openai(store, CUT)


def test_published_file_imports_unchanged_with_trials_and_rewards(store: GoldSetStore) -> None:
    data = records()
    report = import_tau(store, CUT)
    assert report.trajectories == len(data) == 16 and report.new_run
    assert any("used again within one log" in w for w in report.warnings)
    assert any(w.startswith("4 agent cases made") for w in report.warnings)
    rows = store.query(
        "SELECT c.key, c.kind, c.question, t.trial, t.reward, "
        "(SELECT count(*) FROM trajectory_steps s WHERE s.trajectory_id = t.id) AS steps "
        "FROM trajectories t JOIN cases c ON c.id = t.case_id ORDER BY c.key, t.trial")
    expected = sorted((str(r["task_id"]), r["trial"], r["reward"],
                       sum(len(m.get("tool_calls") or []) for m in r["traj"]),
                       r["info"]["task"]["instruction"]) for r in data)
    assert sorted((row["key"], row["trial"], row["reward"], row["steps"], row["question"])
                  for row in rows) == expected
    assert {row["kind"] for row in rows} == {"agent"}
    # every tool message's content landed on a call (paired by position when ids repeat)
    results = [row["result"] for row in store.query("SELECT result FROM trajectory_steps")]
    tool_messages = [m["content"] for r in data for m in r["traj"] if m["role"] == "tool"]
    assert sorted(results) == sorted(tool_messages)
    # no reviewer's mark was made: the reward is an automatic verdict, kept apart
    assert store.query("SELECT count(*) AS n FROM trajectory_reviews")[0]["n"] == 0


def test_agent_metrics_give_success_per_trial_and_pass_k(store: GoldSetStore) -> None:
    data = records()
    import_tau(store, CUT, run="gpt-4o")
    summary = summarize_rows("gpt-4o", store.agent_inputs("gpt-4o"))
    trials = summary.trials
    for trial in range(4):
        rewards = [r["reward"] for r in data if r["trial"] == trial]
        assert trials.success_rate(trial) == pytest.approx(
            sum(map(success, rewards)) / len(rewards))
    expected = hand_pass_k(data)
    assert {k: value for k, (value, _n) in trials.pass_k.items()} == pytest.approx(expected)
    assert summary.overall.task_success_rate == pytest.approx(
        sum(success(r["reward"]) for r in data) / len(data))
    block = summary.to_json()["trials"]
    assert isinstance(block, dict) and block["pass_k"]["4"]["cases"] == 4


def test_metrics_json_through_the_cli(goldset_path: Path) -> None:
    with GoldSetStore.create(goldset_path, assessor="alice"):
        pass
    result = run_cli("import", str(goldset_path), "tau-bench", str(CUT), "--run", "gpt-4o")
    assert result.returncode == 0, result.stderr
    assert "16 trajectories" in result.stdout
    shown = run_cli("metrics", str(goldset_path), "--run", "gpt-4o", "--json")
    assert shown.returncode == 0, shown.stderr
    agents = json.loads(shown.stdout)["agents"]
    expected = hand_pass_k(records())
    assert {int(k): v["value"] for k, v in agents["trials"]["pass_k"].items()} == \
        pytest.approx(expected)
    check = run_cli("check", str(goldset_path))
    assert check.returncode == 0, check.stderr


def test_reused_ids_as_openai_chat_logs_pair_by_position(store: GoldSetStore,
                                                         tmp_path: Path) -> None:
    """The same logs as ``openai-trajectories`` lines (case + messages = traj): main refused
    the whole file ("the tool call id ... is used twice"); now each tool message answers
    the earliest unanswered call with its id, and the report says how many ids came back."""
    from rag_annotator.domain import operations as ops

    data = [r for r in records() if r["trial"] == 0]
    for r in data:
        ops.create_case(store, key=str(r["task_id"]), kind="agent", question="q")
    source = tmp_path / "logs.jsonl"
    source.write_text("".join(json.dumps({"case": str(r["task_id"]), "messages": r["traj"]})
                              + "\n" for r in data), encoding="utf-8")
    report = import_openai(store, source)
    assert report.trajectories == len(data)
    assert any("used again within one log" in w for w in report.warnings)
    for r in data:
        calls = [(c["function"]["name"], json.loads(c["function"]["arguments"]))
                 for m in r["traj"] for c in (m.get("tool_calls") or [])]
        # the tool messages answer the calls in the order they were made
        answers = [m["content"] for m in r["traj"] if m["role"] == "tool"]
        steps = store.query(
            "SELECT s.tool, s.arguments, s.result FROM trajectory_steps s "
            "JOIN trajectories t ON t.id = s.trajectory_id JOIN cases c ON c.id = t.case_id "
            "WHERE c.key = ? ORDER BY s.position", (str(r["task_id"]),))
        assert [(s["tool"], json.loads(s["arguments"])) for s in steps] == calls
        assert [s["result"] for s in steps] == answers


def test_double_encoded_arguments_are_decoded_with_a_note(store: GoldSetStore,
                                                          tmp_path: Path) -> None:
    """A logger that wrote ``arguments`` as a JSON text of a JSON text (none in this file;
    made here from a real record by encoding one call's arguments once more)."""
    record = next(r for r in records() if r["task_id"] == 12 and r["trial"] == 0)
    call = next(c for m in record["traj"] for c in (m.get("tool_calls") or []))
    original = json.loads(call["function"]["arguments"])
    call["function"]["arguments"] = json.dumps(call["function"]["arguments"])
    source = tmp_path / "double.json"
    source.write_text(json.dumps([record]), encoding="utf-8")
    report = import_tau(store, source)
    assert any("double-encoded" in w for w in report.warnings)
    first = store.query("SELECT arguments FROM trajectory_steps ORDER BY id LIMIT 1")[0]
    assert json.loads(first["arguments"]) == original


def test_tau2_results_object(store: GoldSetStore, tmp_path: Path) -> None:
    """tau2-bench's ``Results`` shape (its data model, src/tau2/data_model/simulation.py
    and message.py; no published results file is small enough to keep here): calls with
    ``name`` / ``arguments`` objects, tool messages carrying the call's ``id``, the
    simulated user's own calls left out, ``reward_info.reward``, ``agent_cost``,
    ``duration``."""
    def sim(trial: int, reward: float) -> dict[str, Any]:
        return {"id": f"s{trial}", "task_id": "7", "trial": trial, "duration": 12.5,
                "agent_cost": 0.02, "termination_reason": "user_stop",
                "reward_info": {"reward": reward},
                "messages": [
                    {"role": "user", "content": "My phone has no data.", "tool_calls": [
                        {"id": "u1", "name": "toggle_airplane_mode", "arguments": {},
                         "requestor": "user"}]},
                    {"role": "tool", "id": "u1", "content": "off", "requestor": "user"},
                    {"role": "assistant", "content": None, "tool_calls": [
                        {"id": "a1", "name": "get_customer", "arguments": {"phone": "555"},
                         "requestor": "assistant"}]},
                    {"role": "tool", "id": "a1", "content": "{\"id\": \"C1\"}",
                     "requestor": "assistant"},
                    {"role": "assistant", "content": "Data is back."}]}
    results = {"timestamp": "t", "info": {},
               "tasks": [{"id": "7", "user_scenario": {"instructions": {
                   "task_instructions": "Get mobile data working."}}}],
               "simulations": [sim(0, 1.0), sim(1, 0.0)]}
    source = tmp_path / "tau2.json"
    source.write_text(json.dumps(results), encoding="utf-8")
    report = import_tau(store, source, run="tau2")
    assert report.trajectories == 2 and any("simulated user" in w for w in report.warnings)
    rows = store.query(
        "SELECT c.question, t.trial, t.reward, t.cost, t.seconds, t.final_answer, s.tool, "
        "s.arguments, s.result FROM trajectories t JOIN cases c ON c.id = t.case_id "
        "JOIN trajectory_steps s ON s.trajectory_id = t.id ORDER BY t.trial")
    assert [(r["trial"], r["reward"], r["tool"], json.loads(r["arguments"]), r["result"])
            for r in rows] == [(0, 1.0, "get_customer", {"phone": "555"}, '{"id": "C1"}'),
                               (1, 0.0, "get_customer", {"phone": "555"}, '{"id": "C1"}')]
    assert {(r["question"], r["cost"], r["seconds"], r["final_answer"]) for r in rows} == {
        ("Get mobile data working.", 0.02, 12.5, "Data is back.")}


def test_trials_and_rewards_round_trip_through_the_native_json(store: GoldSetStore,
                                                               tmp_path: Path) -> None:
    """The native JSON keeps each trial and its reward (schema-valid), and the file read
    back gives the same agent figures."""
    from importlib import resources

    import jsonschema

    from rag_annotator.import_export import native_json
    from rag_annotator.import_export.registry import Options

    import_tau(store, CUT, run="gpt-4o")
    native_json.export_json(store, tmp_path / "g.json", Options())
    data = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    schema = (resources.files("rag_annotator.resources") / "schema" /
              "goldset.schema.json").read_text(encoding="utf-8")
    jsonschema.validate(data, json.loads(schema))
    assert sorted((t["case"], t["trial"], t["reward"]) for t in data["trajectories"]) == \
        sorted((str(r["task_id"]), r["trial"], r["reward"]) for r in records())
    with GoldSetStore.create(tmp_path / "b.goldset") as other:
        native_json.import_json(other, tmp_path / "g.json", Options())
        assert summarize_rows("gpt-4o", other.agent_inputs("gpt-4o")).to_json() == \
            summarize_rows("gpt-4o", store.agent_inputs("gpt-4o")).to_json()


def test_a_review_overruling_the_reward_needs_a_reason_and_stays_apart(
        store: GoldSetStore) -> None:
    """The reward is the automatic verdict: a reviewer who disagrees overrules it with a
    reason; the reward itself is never changed, and the effective verdict follows the mark."""
    from rag_annotator.domain.agent_ops import review_trajectory
    from rag_annotator.errors import InvalidValue

    import_tau(store, CUT, run="gpt-4o")
    row = store.query("SELECT t.id, t.reward FROM trajectories t JOIN cases c "
                      "ON c.id = t.case_id WHERE c.key = '12' AND t.trial = 0")[0]
    assert row["reward"] == 1.0
    with pytest.raises(InvalidValue, match="overrules the automatic check"):
        review_trajectory(store, row["id"], task_success=False)
    review_trajectory(store, row["id"], task_success=False,
                      success_reason="the booking was for the wrong date")
    item = next(i for i in summarize_rows("gpt-4o", store.agent_inputs("gpt-4o")).items
                if i.case_key == "12" and i.trial == 0)
    assert (item.automatic_success, item.reviewed_success, item.success) == (True, False,
                                                                             False)
    assert store.query("SELECT reward FROM trajectories WHERE id = ?",
                       (row["id"],))[0]["reward"] == 1.0


def test_the_native_shape_takes_trials_and_rewards_too(store: GoldSetStore,
                                                       tmp_path: Path) -> None:
    from rag_annotator.domain import operations as ops
    from rag_annotator.import_export.trajectories import import_native

    ops.create_case(store, key="A01", kind="agent", question="q")
    source = tmp_path / "t.jsonl"
    source.write_text("".join(json.dumps({"case": "A01", "steps": [], "trial": n,
                                          "reward": float(n % 2)}) + "\n" for n in range(3)),
                      encoding="utf-8")
    import_native(store, source, run="r")
    summary = summarize_rows("r", store.agent_inputs("r"))
    assert [(i.trial, i.success) for i in summary.items] == [(0, False), (1, True),
                                                             (2, False)]
    # one case, 3 trials, 1 success: pass^1 = 1/3, pass^2 = C(1,2)/C(3,2) = 0
    assert summary.trials.pass_k[1][0] == pytest.approx(comb(1, 1) / comb(3, 1))
    assert summary.trials.pass_k[2][0] == 0.0


def test_the_format_is_told_from_the_content(tmp_path: Path) -> None:
    """``import FILE SOURCE`` without a format: the published file (longer than what is
    sniffed once indented like the original), a tau2 object and RAGChecker's files."""
    from rag_annotator.import_export.detect import detect

    big = tmp_path / "big.json"
    big.write_text(json.dumps(records() * 3, indent=2), encoding="utf-8")
    assert big.stat().st_size > 256 * 1024
    assert detect(big) is not None and detect(big)[0] == "tau-bench"  # type: ignore[index]
    assert detect(CUT)[0] == "tau-bench"  # type: ignore[index]
    tau2 = tmp_path / "tau2.json"
    tau2.write_text(json.dumps({"info": {}, "tasks": [], "simulations": []}), encoding="utf-8")
    assert detect(tau2)[0] == "tau-bench"  # type: ignore[index]
    data = Path(__file__).parents[1] / "data" / "ragchecker"
    for name in ("checking_inputs.json", "checking_outputs.json"):
        assert detect(data / name)[0] == "ragchecker-run"  # type: ignore[index]


TAU2 = Path(__file__).parents[1] / "data" / "tau2_bench" / \
    "airline_relaxed_grok-4-fast-reasoning_4trials.json"


def test_a_real_tau2_results_file_imports_as_it_is(goldset_path: Path) -> None:
    """A file ``tau2 run`` saved (tests/data/tau2_bench/README.md), through the CLI with no
    format named: detected, 4 trials of task 8 in one run, the agent's calls as steps,
    ``reward_info.reward`` as the automatic success, and pass^k by tau2's formula
    (its metrics/agent_metrics.py: C(successes, k) / C(trials, k), averaged over tasks),
    computed here from the file with plain Python."""
    data = json.loads(TAU2.read_text(encoding="utf-8"))
    sims = data["simulations"]
    with GoldSetStore.create(goldset_path, assessor="alice"):
        pass
    done = run_cli("import", str(goldset_path), str(TAU2), "--run", "grok")
    assert done.returncode == 0, done.stderr
    assert "tau-bench" in done.stdout + done.stderr and "4 trajectories" in done.stdout
    with GoldSetStore.open(goldset_path) as store:
        rows = store.query("SELECT c.key, t.trial, t.reward, t.cost, COUNT(s.id) AS steps "
                           "FROM trajectories t JOIN cases c ON c.id = t.case_id "
                           "LEFT JOIN trajectory_steps s ON s.trajectory_id = t.id "
                           "GROUP BY t.id ORDER BY t.trial")
        summary = summarize_rows("grok", store.agent_inputs("grok"))
    by_trial = {s["trial"]: s for s in sims}
    assert [(r["key"], r["trial"], r["reward"], r["cost"], r["steps"]) for r in rows] == [
        ("8", t, by_trial[t]["reward_info"]["reward"], by_trial[t]["agent_cost"],
         sum(len(m.get("tool_calls") or []) for m in by_trial[t]["messages"]))
        for t in range(4)]
    successes = sum(success(s["reward_info"]["reward"]) for s in sims)
    assert {k: v for k, (v, _n) in summary.trials.pass_k.items()} == pytest.approx(
        {k: comb(successes, k) / comb(4, k) for k in range(1, 5)})  # 0.75, 0.5, 0.25, 0
    for trial in range(4):
        assert summary.trials.success_rate(trial) == float(
            success(by_trial[trial]["reward_info"]["reward"]))
    check = run_cli("check", str(goldset_path))
    assert check.returncode == 0, check.stderr
