"""tau-bench and tau2-bench trajectory files, as the benchmarks publish them (issue 18).

* **tau-bench** (``historical_trajectories/*.json``, and what ``run.py`` saves): one JSON
  array of ``{"task_id", "reward", "info", "traj", "trial"}``; ``traj`` is the OpenAI-style
  chat (system, user, assistant with ``tool_calls``, ``tool`` with ``tool_call_id``).
* **tau2-bench** (``Results`` saved by ``tau2 run``): one object whose ``simulations`` list
  holds ``{"task_id", "trial", "messages", "reward_info": {"reward"}, "agent_cost",
  "duration", ...}``; its tool calls are ``{"id", "name", "arguments": {...},
  "requestor"}`` and a tool message carries the call's ``id``.  Calls the simulated user
  makes on their own device (``requestor: user``) are not the agent's steps and are left
  out, with a note.

Each record is one trajectory of case ``task_id`` (as text) in ONE run, trial ``trial``:
several trials of a task live side by side so the agent metrics give the success rate per
trial and pass^k.  ``reward`` is the benchmark's own automatic verdict, stored as the
trajectory's ``reward`` (success = 1), never as a reviewer's mark.  A task the gold set
lacks becomes an agent case (draft) whose question is the task's ``instruction``
(tau-bench ``info.task.instruction``; tau2 ``tasks[].user_scenario.instructions``).
tau-bench's logs use one tool-call id several times within a log (49 of the 200 logs of
``gpt-4o-airline.json``): a tool message answers the earliest unanswered call with its id.
Double-encoded ``arguments`` (a JSON text holding JSON) are decoded.  Both repairs are
counted in the report.  A record's other fields (tau-bench's ``info`` but the instruction,
tau2's ``termination_reason``, ``seed``, ``reward_info``…) are kept in the trajectory's
``extra``; what is not kept (tau2's per-message timestamps and usage, the run's ``info``) is
listed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rag_annotator.domain.agent_ops import TrajectoryInput
from rag_annotator.gc_pause import bulk_objects
from rag_annotator.import_export.extra_fields import plain
from rag_annotator.import_export.files import TOO_DEEP
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.tabular import few_names
from rag_annotator.import_export.trajectories import (
    TrajectoryReport,
    _conversation,
    _Line,
    _objects,
    _store,
    tally_notes,
)
from rag_annotator.messages import Message

_TAU_FIELDS = frozenset(("task_id", "reward", "info", "traj", "trial"))
_TAU2_KEPT = frozenset(("task_id", "trial", "messages", "agent_cost", "duration"))
#: A tau2 message's fields the steps read; the others (timestamps, usage, raw_data…) are
#: listed as not kept.
_TAU2_MESSAGE = frozenset(("role", "content", "tool_calls", "id", "tool_call_id",
                           "requestor", "tool_messages"))


class _Parsed:
    """What the records of one file gave: trajectories, task questions, notes."""

    def __init__(self) -> None:
        self.items: list[TrajectoryInput] = []
        self.questions: dict[str, str] = {}
        self.tally: dict[str, int] = {}
        self.ignored: set[str] = set()  # fields not kept anywhere
        self.in_extra: set[str] = set()  # fields kept in the trajectory's extra
        self.user_calls = 0
        self.unanswered = 0

    def warnings(self) -> list[str]:
        notes = tally_notes(self.tally)
        if self.user_calls:
            notes.append(Message("{user_calls} tool calls of the simulated user (requestor "
                                 "user) are not agent steps; left out", user_calls=self.user_calls))
        if self.unanswered:
            notes.append(Message("{unanswered} tool calls have no tool message; their result "
                                 "is left empty", unanswered=self.unanswered))
        if self.in_extra:
            notes.append(Message("fields kept in extra: {few}",
                                 few=few_names(sorted(self.in_extra))))
        if self.ignored:
            notes.append(Message(
                         "fields not kept: {few_names}", few_names=few_names(sorted(self.ignored))))
        return notes


def parse(path: Path) -> _Parsed:
    """Parse a tau-bench array or a tau2-bench ``Results`` object."""
    parsed = _Parsed()
    for line, obj, suspicious in _objects(path):
        at = _Line(path, line, suspicious)
        try:
            if isinstance(obj.get("simulations"), list):
                _tau2(at, obj, parsed)
            else:
                _tau(at, obj, parsed)
        except RecursionError:
            raise at.fail(TOO_DEEP) from None
    if not parsed.items:
        raise _Line(path, 0).fail("the file holds no trajectories.")
    for item in parsed.items:  # every task is an agent case, with its instruction if given
        parsed.questions.setdefault(item.case, "")
    return parsed


def _trial(at: _Line, value: Any) -> int:
    return 0 if value is None else int(at.number("trial", value, whole=True))


def _tau(at: _Line, obj: dict[str, Any], parsed: _Parsed) -> None:
    """One tau-bench record."""
    if "traj" not in obj or "task_id" not in obj:
        raise at.fail("not a tau-bench record: expected 'task_id' and 'traj' (give a "
                      "tau-bench results array, or a tau2-bench results object).")
    case = at.case(obj, ("task_id",))
    messages = obj["traj"]
    if not isinstance(messages, list):
        raise at.fail("'traj' must be the list of chat messages.")
    steps, answer, missing = _conversation(at, messages, parsed.tally)
    parsed.unanswered += missing
    info = obj.get("info")
    extra = {k: plain(x) for k, x in obj.items() if k not in _TAU_FIELDS}
    parsed.in_extra |= set(extra)
    if isinstance(info, dict):  # kept but for the instruction, which is the case's question
        task = info.get("task")
        if isinstance(task, dict) and isinstance(task.get("instruction"), str):
            parsed.questions.setdefault(case, at.text("instruction", task["instruction"]))
            task = {k: x for k, x in task.items() if k != "instruction"}
            info = {**info, "task": task}
        parsed.in_extra |= {f"info.{k}" for k in info if k != "task"}
        if isinstance(task, dict):
            parsed.in_extra |= {f"info.task.{k}" for k in task}
        extra["info"] = plain(info)
    elif info is not None:
        extra["info"] = plain(info)
        parsed.in_extra.add("info")
    parsed.items.append(TrajectoryInput(
        case=case, steps=steps, final_answer=answer, line=at.line,
        trial=_trial(at, obj.get("trial")),
        reward=at.number("reward", obj.get("reward")), extra=extra))


def _tau2(at: _Line, obj: dict[str, Any], parsed: _Parsed) -> None:
    """A tau2-bench ``Results`` object: its tasks' instructions, then each simulation."""
    parsed.ignored |= {k for k in obj if k not in ("simulations", "tasks")}  # run settings
    for task in obj.get("tasks") or []:
        if isinstance(task, dict):  # the task's expectations: the benchmark's, not read
            parsed.ignored |= {f"tasks.{k}" for k in task if k not in ("id", "user_scenario")}
        scenario = task.get("user_scenario") if isinstance(task, dict) else None
        instructions = scenario.get("instructions") if isinstance(scenario, dict) else None
        if isinstance(instructions, dict):
            instructions = instructions.get("task_instructions")
        if isinstance(instructions, str) and task.get("id") is not None:
            parsed.questions[str(task["id"])] = at.text("instructions", instructions)
    for n, sim in enumerate(obj["simulations"], start=1):
        if not isinstance(sim, dict):
            raise at.fail("simulation {n}: expected an object.", n=n)
        where = at  # a Results object is one JSON value: its line is the object's
        case = where.case(sim, ("task_id",))
        extra = {k: plain(x) for k, x in sim.items() if k not in _TAU2_KEPT}
        parsed.in_extra |= {f"simulations.{k}" for k in extra}
        messages = sim.get("messages")
        if not isinstance(messages, list):
            raise where.fail("simulation {n} (task {case}): 'messages' is missing; this "
                             "importer reads half-duplex runs (messages, not ticks).",
                             n=n, case=case)
        steps, answer, missing = _conversation(where, _openai_messages(messages, parsed),
                                               parsed.tally)
        parsed.unanswered += missing
        parsed.ignored |= {f"simulations.messages.{k}" for m in messages
                           if isinstance(m, dict) for k in m if k not in _TAU2_MESSAGE}
        reward_info = sim.get("reward_info")
        reward = reward_info.get("reward") if isinstance(reward_info, dict) else None
        parsed.items.append(TrajectoryInput(
            case=case, steps=steps, final_answer=answer, line=at.line,
            trial=_trial(where, sim.get("trial")), reward=where.number("reward", reward),
            cost=where.number("agent_cost", sim.get("agent_cost")),
            seconds=where.number("duration", sim.get("duration")), extra=extra))


def _openai_messages(messages: list[Any], parsed: _Parsed) -> list[Any]:
    """tau2's messages in the OpenAI shape ``_conversation`` reads: ``function`` wrapped
    calls, ``tool_call_id`` on tool messages; the simulated user's calls dropped."""
    out: list[Any] = []
    for message in messages:
        if not isinstance(message, dict):
            out.append(message)
            continue
        if message.get("role") == "tool" and isinstance(message.get("tool_messages"), list):
            out.extend(_openai_messages(message["tool_messages"], parsed))
            continue
        if message.get("requestor") == "user":
            continue  # a result for the simulated user's own call
        if message.get("role") == "tool":
            out.append({**message, "tool_call_id": message.get("tool_call_id",
                                                               message.get("id"))})
            continue
        calls = []
        for call in message.get("tool_calls") or []:
            if isinstance(call, dict) and call.get("requestor") == "user":
                parsed.user_calls += 1
                continue
            if isinstance(call, dict) and "function" not in call:
                call = {"id": call.get("id") or None, "function": {
                    "name": call.get("name"), "arguments": call.get("arguments")}}
            calls.append(call)
        out.append({**message,
                    "tool_calls": calls if message.get("role") == "assistant" else None})
    return out


def import_tau(store: Any, path: Path, *, run: str | None = None,
               cancel: Callable[[], bool] | None = None) -> TrajectoryReport:
    """Import a tau-bench or tau2-bench results file into run ``run`` (default: the file
    name), making the agent cases it describes that the gold set lacks."""
    parsed = parse(path)
    report = TrajectoryReport(warnings=parsed.warnings())
    _store(store, path, run or path.stem, parsed.items, report, cancel,
           parsed.questions)
    made = len((report.changes.rows.get("cases", {}).get("insert") or ())
               if report.changes is not None else ())
    if made:
        report.warnings.append(Message("{made} agent cases made from the file's tasks (drafts; "
                                       "question = the task's instruction)", made=made))
    return report


def import_tau_file(store: Any, source: Path, options: Options) -> TrajectoryReport:
    """Registry entry for ``tau-bench``."""
    with bulk_objects():
        return import_tau(store, source, run=options.run, cancel=options.cancel)
