"""Agent trajectories: what a tool-using agent did on each agent case (issue 9, seed 000).

Two shapes, both JSON Lines (one trajectory per line; blank lines are skipped), imported into
ONE run in one undoable operation, all or nothing; every refusal names ``file:line`` and
what to do.  The run is ``--run NAME``, else the ``run`` field of the lines (all the same),
else the file name without its extension.  A run that exists already is added to (each case
at most once per run); a new name makes a new run.

* ``trajectories`` (this app's shape)::

    {"case": "A01",
     "steps": [{"tool": "verifier_identite", "arguments": {"client_id": "C-42"},
                "result": "ok"}, ...],
     "final_state": {"ticket": {"category": "changement_offre"}} | null,
     "answer": "Ticket T-981 créé", "tokens": 1234, "seconds": 8.2, "cost": 0.012}

  Only ``case`` and ``steps`` are required.  Aliases: ``case_id`` for ``case``; ``name`` for
  ``tool``; ``args`` / ``input`` for ``arguments``; ``output`` for ``result``;
  ``final_answer`` for ``answer``.  ``trial`` (0, 1…: several attempts of a case in one
  run) and ``reward`` (a benchmark's automatic score, 1 = success) are optional.
  ``run`` (text) and ``metadata`` (ignored) are accepted;
  any other field is refused (no silent loss).

* ``openai-trajectories``: an OpenAI-style chat log per line, ``{"case": "A01", "messages":
  [...], "final_state": {...}, "usage": {"total_tokens": N}, "seconds": S, "cost": C}``.
  Each ``tool_calls`` entry of an assistant message is a step, in order; its result is the
  content of the ``tool`` message whose ``tool_call_id`` matches; ``function.arguments`` is
  a JSON text (a JSON text holding a JSON text, as some loggers write, is decoded twice,
  with a note).  A call id used again within one log (tau-bench's logs do) is paired by
  position: a tool message answers the earliest call with that id still unanswered, with a
  note.  Items of the Responses API in the same list are read too:
  ``{"type": "function_call", "call_id", "name", "arguments"}`` is a step and
  ``{"type": "function_call_output", "call_id", "output"}`` its result.  The last
  assistant message with text content is the final answer; ``usage.total_tokens`` (else
  prompt + completion tokens) the tokens.  The case may also be given as ``case_id`` or
  ``metadata.case``; other top-level fields (``model``, ``id``…) are ignored with a
  warning, and so is a call no tool message answers (its result stays empty).

Either shape may also come as a ``.json`` file holding one array of such objects, or the
objects one after the other, pretty-printed (line numbers are then where each object
starts).

Numbers must be finite and not negative (``NaN`` and ``Infinity`` are refused), a JSON object
must not repeat a key, ``final_state`` is an object or null.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.agent_ops import TrajectoryInput, TrajectoryRejected, import_trajectories
from rag_annotator.domain.changes import Changes, made
from rag_annotator.domain.ports import Store
from rag_annotator.errors import InvalidValue
from rag_annotator.gc_pause import bulk_objects
from rag_annotator.import_export.files import (
    TOO_DEEP,
    ImportRejected,
    check_cancel,
    read_text_blocks,
    refuse_constant,
    refuse_duplicate_keys,
)
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.tabular import few_names
from rag_annotator.import_export.tool_call_notes import tally_notes as tally_notes
from rag_annotator.import_export.trajectory_lines import ENCODE as _ENCODE
from rag_annotator.import_export.trajectory_lines import LARGEST as _LARGEST
from rag_annotator.import_export.trajectory_lines import STEP_KEYS as _STEP_KEYS
from rag_annotator.import_export.trajectory_lines import fast_line, plain_line
from rag_annotator.messages import N_, P_, Message, Plural

NATIVE_FIELDS = ("case", "case_id", "steps", "final_state", "answer", "final_answer", "tokens",
                 "seconds", "cost", "run", "metadata", "trial", "reward")
STEP_FIELDS = {"tool": ("tool", "name"), "arguments": ("arguments", "args", "input"),
               "result": ("result", "output")}
_STEP_ALIASES = frozenset(alias for names in STEP_FIELDS.values() for alias in names)


@dataclass
class TrajectoryReport:
    """What a trajectory import stored, for the CLI and the UI to show."""

    name: str = ""
    trajectories: int = 0
    steps: int = 0
    new_run: bool = False
    warnings: list[str] = field(default_factory=list)
    #: What the import's one operation changed (None: nothing).
    changes: Changes | None = None

    def summary(self) -> str:
        """One sentence in English (the UI builds its own translated text)."""
        run = Message(N_("new run '{name}'") if self.new_run else N_("run '{name}'"),
                      name=self.name)
        return Message("{trajectories}, {steps} imported into {run}.", run=run,
                       trajectories=_count(self.trajectories, "trajectory", "trajectories"),
                       steps=_count(self.steps, "step", "steps"))


def _count(n: int, one: str, many: str) -> Message:
    """``1 trajectory``, ``3 steps``: a counted message (French: 0 and 1 singular)."""
    return Plural(*_COUNTS[one], n)


_COUNTS = {"trajectory": P_("{n} trajectory", "{n} trajectories"),
           "step": P_("{n} step", "{n} steps")}


# -- reading JSON ------------------------------------------------------------------------------
def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a number; write a finite number")
    return value


_DECODER = json.JSONDecoder(parse_constant=refuse_constant, parse_float=_finite,
                            object_pairs_hook=refuse_duplicate_keys)


#: A JSON escape of a UTF-16 surrogate: the only way a lone surrogate (which SQLite cannot
#: store as UTF-8) gets into text decoded from valid UTF-8.  Lines without one skip the
#: per-text Unicode check.
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _loads(text: str) -> Any:
    try:
        return _DECODER.decode(text)
    except RecursionError:
        raise ValueError(TOO_DEEP.removesuffix(".")) from None


def _objects(path: Path) -> list[tuple[int, dict[str, Any], bool]]:
    """``(line, object, may hold a lone surrogate)`` of a JSON Lines file, or of a
    ``.json`` file holding one array or objects one after the other (pretty-printed)."""
    return list(_each_object(path))


def _each_object(path: Path, fast: Callable[[str, int], Any] | None = None
                 ) -> Iterator[tuple[int, Any, bool]]:
    """:func:`_objects` one at a time (an importer keeps one decoded line, not the file's);
    ``fast(line, number)`` reads a line first: its value, unless None, is yielded as is."""
    if path.suffix.lower() == ".json":
        text = "\n".join(line for _first, block in read_text_blocks(path) for line in block)
        suspicious = _SURROGATE.search(text) is not None
        objects = _array(path, text) if text.lstrip().startswith("[") else _sequence(path, text)
        if not objects:
            raise ImportRejected(path, None, "the file holds no trajectories.")
        yield from ((n, obj, suspicious) for n, obj in objects)
        return
    lines_iter = ((n, line) for first, block in read_text_blocks(path)
                  for n, line in enumerate(block, start=first))
    found = False
    for number, line in lines_iter:
        if not line.strip():
            continue
        found = True
        suspicious = "\\u" in line and _SURROGATE.search(line) is not None
        if fast is not None and not suspicious and (value := fast(line, number)) is not None:
            yield number, value, False
            continue
        try:
            value = _loads(line)
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            raise ImportRejected(path, number, "not valid JSON ({error}); each line must be "
                                               "one JSON object.", error=error) from None
        if not isinstance(value, dict):
            raise ImportRejected(path, number, "expected a JSON object ({...}) on each line.")
        yield number, value, suspicious
    if not found:
        raise ImportRejected(path, None, "the file holds no trajectories (no JSON lines).")


def _array(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    """The objects of a JSON array, each with the line it starts on."""
    def line_at(index: int) -> int:
        return text.count("\n", 0, index) + 1

    found: list[tuple[int, dict[str, Any]]] = []
    i = text.index("[") + 1
    n = len(text)
    while True:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i < n and text[i] == "]" and not found:
            i += 1
            break
        try:
            value, end = _DECODER.raw_decode(text, i)
        except ValueError as error:
            raise ImportRejected(path, line_at(i), "not valid JSON ({error}); the file must be "
                                                   "one array of objects.", error=error) from None
        except RecursionError:
            raise ImportRejected(path, line_at(i), TOO_DEEP) from None
        if not isinstance(value, dict):
            raise ImportRejected(path, line_at(i), "expected a JSON object ({...}) in the "
                                                   "array.")
        found.append((line_at(i), value))
        i = end
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i < n and text[i] == ",":
            i += 1
            continue
        if i < n and text[i] == "]":
            i += 1
            break
        raise ImportRejected(path, line_at(i), "expected ',' or ']' after an object in the "
                                               "array.")
    if text[i:].strip():
        raise ImportRejected(path, line_at(i), "unexpected text after the array.")
    return found


def _sequence(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    """Objects one after the other (one per line, or pretty-printed), each with the line
    it starts on."""
    found: list[tuple[int, dict[str, Any]]] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i >= n:
            return found
        line = text.count("\n", 0, i) + 1
        try:
            value, i = _DECODER.raw_decode(text, i)
        except ValueError as error:
            raise ImportRejected(path, line, "not valid JSON ({error}); give one array of "
                                             "objects, or one object after the other.",
                                             error=error) from None
        except RecursionError:
            raise ImportRejected(path, line, TOO_DEEP) from None
        if not isinstance(value, dict):
            raise ImportRejected(path, line, "expected a JSON object ({...}).")
        found.append((line, value))


# -- fields ------------------------------------------------------------------------------------
class _Line:
    """Field checks for one line: every refusal names the file and the line."""

    def __init__(self, path: Path, line: int, suspicious: bool = True) -> None:
        self.path, self.line = path, line
        self.suspicious = suspicious  # the line may hold a lone surrogate: check texts

    def fail(self, message: str, **params: Any) -> ImportRejected:
        return ImportRejected(self.path, self.line, message, **params)

    def pick(self, obj: dict[str, Any], names: tuple[str, ...]) -> tuple[str, Any]:
        """The value under the first of ``names`` present (``names[0]``, None if none);
        two aliases of one field at once are refused."""
        given = [n for n in names if n in obj]
        if len(given) > 1:
            raise self.fail("'{given}' and '{given2}' are the same field; keep one.",
                            given=given[0], given2=given[1])
        return (given[0], obj[given[0]]) if given else (names[0], None)

    def text(self, name: str, value: Any, *, default: str = "") -> str:
        if value is None:
            return default
        if not isinstance(value, str):
            raise self.fail("'{name}' must be text.", name=name)
        if not self.suspicious:
            return value
        try:
            return str(v.check_text(name, value))
        except InvalidValue as error:
            raise self.fail("{error}", error=error) from None

    def case(self, obj: dict[str, Any], names: tuple[str, ...] = ("case", "case_id")) -> str:
        name, value = self.pick(obj, names)
        if value is None:
            raise self.fail("the field 'case' is missing; give the agent case's key "
                            "(e.g. \"case\": \"A01\").")
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        try:
            return v.check_key(name, value)
        except InvalidValue as error:
            raise self.fail("{error}", error=error) from None

    def number(self, name: str, value: Any, *, whole: bool = False) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail("'{name}' must be a number (or null), got {dumps}.",
                            name=name, dumps=json.dumps(value))
        if isinstance(value, int) and abs(value) > _LARGEST:  # past SQLite's integers
            raise self.fail("'{name}' is out of range (a number from 0 to {largest:,}).",
                            name=name, largest=_LARGEST)
        if not math.isfinite(value) or value < 0:
            raise self.fail("'{name}' must be a finite number of 0 or more (got {value}).",
                            name=name, value=value)
        if whole:
            if value != int(value):
                raise self.fail("'{name}' must be a whole number (got {value}).",
                                name=name, value=value)
            return int(value)
        return float(value)

    def state(self, value: Any) -> dict[str, Any] | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.fail("'final_state' must be a JSON object (key → value) or null.")
        self.text("final_state", _ENCODE(value))  # too deep, a lone surrogate: this line
        return value


def _result_text(result: Any) -> str:
    """A step's result as stored: text as is, any other JSON value as JSON text."""
    if result is None:
        return ""
    if isinstance(result, str):
        return result
    return _ENCODE(result)


def _arguments(value: Any, tally: dict[str, int] | None = None) -> str:
    """A step's arguments as stored (JSON text): a text that reads as JSON is that JSON
    (twice over when the JSON is itself a JSON text: counted in ``tally["double"]``)."""
    if value is None:
        return "{}"
    if isinstance(value, str):
        try:
            value = _loads(value)
        except ValueError:
            pass  # a plain text argument, kept as a JSON string
        else:
            value = undouble(value, tally)
    return _ENCODE(value)


def undouble(value: Any, tally: dict[str, int] | None) -> Any:
    """A decoded argument that is a JSON text of an object or list (double-encoded, as
    some loggers write ``arguments``) decoded once more; counted in ``tally["double"]``."""
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        try:
            inner = _loads(value)
        except ValueError:
            return value
        if isinstance(inner, (dict, list)):
            if tally is not None:
                tally["double"] = tally.get("double", 0) + 1
            return inner
    return value


# -- the two shapes ----------------------------------------------------------------------------
def parse_native(path: Path) -> tuple[list[TrajectoryInput], dict[int, str]]:
    """Parse a ``trajectories`` file; also return each line's ``run`` field, if any."""
    items: list[TrajectoryInput] = []
    runs: dict[int, str] = {}
    objects = _each_object(path, fast_line)  # one decoded line at a time (issue 19)
    for line, obj, suspicious in objects:
        if type(obj) is TrajectoryInput:  # a plain line orjson read (trajectory_lines)
            items.append(obj)
            continue
        at = _Line(path, line, suspicious)
        try:  # most lines are plain: read without a call per field
            plain = None if suspicious else plain_line(obj, line)
            item, run = (plain, None) if plain is not None else _native_item(at, obj)
        except (ImportRejected, RecursionError) as error:
            for _later in objects:  # a line further on that is not JSON is said first
                pass
            if isinstance(error, RecursionError):  # decoded, too deep to encode again
                raise at.fail(TOO_DEEP) from None
            raise
        items.append(item)
        if run is not None:
            runs[line] = run
    return items, runs


def _native_item(at: _Line, obj: dict[str, Any]) -> tuple[TrajectoryInput, str | None]:
    """One line of a ``trajectories`` file, and its ``run`` field if any."""
    line, suspicious = at.line, at.suspicious
    unknown = [k for k in obj if k not in NATIVE_FIELDS]
    if unknown:
        raise at.fail("unknown field '{unknown}'; the fields are case, steps, "
                      "final_state, answer, tokens, seconds, cost (and trial, reward, run, "
                      "metadata).", unknown=unknown[0])
    run = _run_field(at, obj["run"]) if "run" in obj else None
    case = at.case(obj)
    if "steps" not in obj:
        raise at.fail("the field 'steps' is missing; give the tool calls as a list "
                      "(\"steps\": [] if the agent called none).")
    steps = obj["steps"]
    if not isinstance(steps, list):
        raise at.fail("'steps' must be a list of {\"tool\", \"arguments\", \"result\"} "
                      "objects.")
    parsed: list[tuple[str, Any, str]] = []
    for position, step in enumerate(steps, start=1):
        if not suspicious and type(step) is dict and step.keys() <= _STEP_KEYS:
            # the documented shape with plain values (most lines): no call per field
            tool, arguments, result = (step.get("tool"), step.get("arguments"),
                                       step.get("result"))
            if type(tool) is str and type(result) is str and type(arguments) is dict:
                name = tool.strip()
                if name:
                    parsed.append((name, _ENCODE(arguments), result))
                    continue
        if not isinstance(step, dict):
            raise at.fail("step {position}: expected an object {{\"tool\": name, "
                          "\"arguments\": {{...}}, \"result\": text}}.", position=position)
        if step.keys() <= _STEP_KEYS:  # the documented shape: no alias to look for
            tool, arguments, result = (step.get("tool"), step.get("arguments"),
                                       step.get("result"))
        else:
            extra = [k for k in step if k not in _STEP_ALIASES]
            if extra:
                raise at.fail("step {position}: unknown field '{extra}' (tool, "
                              "arguments, result).", position=position, extra=extra[0])
            _n, tool = at.pick(step, STEP_FIELDS["tool"])
            _n, arguments = at.pick(step, STEP_FIELDS["arguments"])
            _n, result = at.pick(step, STEP_FIELDS["result"])
        parsed.append((_tool(at, position, tool),
                       at.text(f"step {position} arguments", _arguments(arguments)),
                       at.text(f"step {position} result", _result_text(result))))
    _n, answer = at.pick(obj, ("answer", "final_answer"))
    return TrajectoryInput(
        case=case, steps=parsed, final_state=at.state(obj.get("final_state")),
        final_answer=at.text("answer", answer), line=line,
        tokens=at.number("tokens", obj.get("tokens"), whole=True),
        seconds=at.number("seconds", obj.get("seconds")),
        cost=at.number("cost", obj.get("cost")),
        trial=int(at.number("trial", obj.get("trial"), whole=True) or 0),
        reward=at.number("reward", obj.get("reward"))), run


def _tool(at: _Line, position: int, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise at.fail("step {position}: 'tool' must be the tool's name (non-empty text).",
                      position=position)
    return at.text(f"step {position} tool", value.strip())


def _run_field(at: _Line, value: Any) -> str:
    try:
        return v.check_key("run", value)
    except InvalidValue as error:
        raise at.fail("{error}", error=error) from None


def parse_openai(path: Path, warnings: list[str]) -> list[TrajectoryInput]:
    """Parse an ``openai-trajectories`` file (see the module docstring)."""
    items: list[TrajectoryInput] = []
    ignored: set[str] = set()
    unanswered: list[int] = []
    tally: dict[str, int] = {}
    for line, obj, suspicious in _objects(path):
        at = _Line(path, line, suspicious)
        ignored |= set(obj) - {"case", "case_id", "metadata", "messages", "final_state",
                               "usage", "tokens", "seconds", "cost"}
        try:
            item, missing = _openai_item(at, obj, tally)
        except RecursionError:  # decoded, but too deep to encode again
            raise at.fail(TOO_DEEP) from None
        items.append(item)
        unanswered.extend([line] * missing)
    if ignored:
        warnings.append(Message("fields ignored: {few_names}",
                                few_names=few_names(sorted(ignored))))
    warnings.extend(tally_notes(tally))
    if unanswered:
        lines = sorted(set(unanswered))
        warnings.append(Message("{n_unanswered} tool calls have no tool message; their result is "
                                "left empty (lines {map}{value})", n_unanswered=len(unanswered),
                                map=', '.join(map(str, lines[:5])),
                                value=', …' if len(lines) > 5 else ''))
    return items


def _openai_item(at: _Line, obj: dict[str, Any], tally: dict[str, int]
                 ) -> tuple[TrajectoryInput, int]:
    """One chat log, and how many of its calls no tool message answers."""
    line = at.line
    case_holder = obj
    metadata = obj.get("metadata")
    if "case" not in obj and "case_id" not in obj and isinstance(metadata, dict):
        case_holder = metadata
    case = at.case(case_holder)
    messages = obj.get("messages")
    if not isinstance(messages, list):
        raise at.fail("'messages' is missing or not a list; give the chat messages "
                      "(role, content, tool_calls).")
    steps, answer, missing = _conversation(at, messages, tally)
    tokens = obj.get("tokens")
    usage = obj.get("usage")
    if usage is not None:
        if not isinstance(usage, dict):
            raise at.fail("'usage' must be an object like {\"total_tokens\": 1234}.")
        if tokens is not None:
            raise at.fail("give the tokens once: 'tokens' or 'usage', not both.")
        tokens = usage.get("total_tokens")
        if tokens is None and ("prompt_tokens" in usage or "completion_tokens" in usage):
            parts = [at.number(f"usage.{k}", usage.get(k), whole=True) or 0
                     for k in ("prompt_tokens", "completion_tokens")]
            tokens = sum(parts)
    return TrajectoryInput(
        case=case, steps=steps, final_state=at.state(obj.get("final_state")),
        final_answer=answer, line=line,
        tokens=at.number("tokens" if usage is None else "usage.total_tokens", tokens,
                         whole=True),
        seconds=at.number("seconds", obj.get("seconds")),
        cost=at.number("cost", obj.get("cost"))), missing


def _conversation(at: _Line, messages: list[Any], tally: dict[str, int] | None = None
                  ) -> tuple[list[tuple[str, Any, str]], str, int]:
    """The steps, the final answer and the number of calls left without a result
    (``tally`` counts the repairs: ids used again, double-encoded arguments)."""
    steps: list[list[Any]] = []  # tool, arguments, result (None until its tool message)
    by_id: dict[str, list[int]] = {}  # call id → positions of its calls, in order
    answer = ""
    count = {} if tally is None else tally
    reused = count.get("reused", 0)
    for number, message in enumerate(messages, start=1):
        if isinstance(message, dict) and not isinstance(message.get("role"), str) and \
                isinstance(message.get("type"), str):
            _response_item(at, number, message, steps, by_id, count)
            continue
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise at.fail("message {number}: expected an object with a 'role'.", number=number)
        role = message["role"]
        content = message.get("content")
        if role == "assistant":
            for call in message.get("tool_calls") or []:
                steps.append(_call(at, number, call, by_id, len(steps) + 1, count))
            text = _content_text(at, number, content)
            if text.strip():
                answer = text
        elif role == "tool":
            _result(at, number, message.get("tool_call_id"), content, steps, by_id,
                    "tool_call_id")
        elif role == "function":  # the older functions API: name + content, no id
            raise at.fail("message {number}: role 'function' (the older functions API) is "
                          "not read; log tool_calls and tool messages.", number=number)
    if count.get("reused", 0) > reused:
        count["reused_logs"] = count.get("reused_logs", 0) + 1
    return ([(tool, arguments, "" if result is None else result)
             for tool, arguments, result in steps], answer,
            sum(result is None for _t, _a, result in steps))


def _result(at: _Line, number: int, call_id: Any, content: Any, steps: list[list[Any]],
            by_id: dict[str, list[int]], field: str) -> None:
    """Attach a tool message's content to the call it answers: the earliest call with
    that id still unanswered (ids used again within a log are paired by position)."""
    if not isinstance(call_id, str) or call_id not in by_id:
        raise at.fail("message {number}: this tool message answers {dumps}, "
                      "which no earlier assistant tool call has as its id; fix {field}.",
                      number=number, dumps=json.dumps(call_id), field=field)
    open_calls = [i for i in by_id[call_id] if steps[i][2] is None]
    if not open_calls:
        raise at.fail("message {number}: tool call '{call_id}' already has a result; keep "
                      "one tool message per call.", number=number, call_id=call_id)
    steps[open_calls[0]][2] = _content_text(at, number, content)


def _response_item(at: _Line, number: int, item: dict[str, Any], steps: list[list[Any]],
                   by_id: dict[str, list[int]], tally: dict[str, int]) -> None:
    """An item of the Responses API (``function_call``, ``function_call_output``; other
    types such as ``reasoning`` are skipped)."""
    kind = item["type"]
    if kind == "function_call":
        call = {"id": item.get("call_id"),
                "function": {"name": item.get("name"), "arguments": item.get("arguments")}}
        steps.append(_call(at, number, call, by_id, len(steps) + 1, tally))
    elif kind == "function_call_output":
        _result(at, number, item.get("call_id"), item.get("output"), steps, by_id, "call_id")


def _content_text(at: _Line, number: int, content: Any) -> str:
    """Message content: text, or a list of parts whose text parts are joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return at.text(f"message {number} content", content)
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return at.text(f"message {number} content",
                       "".join(p for p in parts if isinstance(p, str)))
    raise at.fail("message {number}: 'content' must be text, a list of parts or null.",
                  number=number)


def _call(at: _Line, number: int, call: Any, by_id: dict[str, list[int]],
          position: int, tally: dict[str, int]) -> list[Any]:
    if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
        raise at.fail("message {number}: each tool call needs a 'function' object "
                      "{{\"name\", \"arguments\"}}.", number=number)
    call_id = call.get("id")
    label = Message("tool call {call}",
                    call=json.dumps(call_id) if call_id is not None else position)
    function = call["function"]
    name = function.get("name")
    if not isinstance(name, str) or not name.strip():
        raise at.fail("message {number}, {label}: 'function.name' must be the tool's name.",
                      number=number, label=label)
    raw = function.get("arguments")
    if raw is None or raw == "":
        arguments = "{}"
    elif isinstance(raw, str):
        try:
            arguments = json.dumps(undouble(_loads(raw), tally), ensure_ascii=False)
        except ValueError as error:
            raise at.fail("message {number}, {label} ({name}): 'arguments' is not valid "
                          "JSON ({error}); it must be a JSON text.",
                          number=number, label=label, name=name, error=error) from None
    elif isinstance(raw, dict):
        arguments = json.dumps(raw, ensure_ascii=False)
    else:
        raise at.fail("message {number}, {label} ({name}): 'arguments' must be a JSON text.",
                      number=number, label=label, name=name)
    if call_id is not None:
        if not isinstance(call_id, str) or not call_id:
            raise at.fail("message {number}: a tool call's 'id' must be text.", number=number)
        if call_id in by_id:
            tally["reused"] = tally.get("reused", 0) + 1
        by_id.setdefault(call_id, []).append(position - 1)
    return [at.text(Message("{label} name", label=label), name.strip()),
            at.text(Message("{label} arguments", label=label), arguments), None]


# -- import ------------------------------------------------------------------------------------
def _store(store: Store, path: Path, run: str, items: list[TrajectoryInput],
           report: TrajectoryReport, cancel: Callable[[], bool] | None = None,
           new_cases: dict[str, str] | None = None) -> TrajectoryReport:
    try:
        v.check_key("run name", run)
    except InvalidValue as error:
        raise ImportRejected(path, None, "{error} Name the run with --run NAME.",
                                         error=error) from None
    report.name = run
    try:
        changes = import_trajectories(store, run, items, notes=f"Imported from {path.name}.",
                                      checkpoint=lambda: check_cancel(cancel),
                                      new_cases=new_cases)
    except TrajectoryRejected as error:
        raise ImportRejected(path, error.line or None, error.reason, **error.params) from None
    report.changes = made(changes)
    report.new_run = bool(changes.rows.get("runs", {}).get("insert"))
    report.trajectories = len(items)
    report.steps = sum(len(item.steps) for item in items)
    return report


def import_native(store: Store, path: Path, *, run: str | None = None,
                  cancel: Callable[[], bool] | None = None) -> TrajectoryReport:
    """Import a ``trajectories`` file into run ``run`` (default: the lines' ``run``, else
    the file name)."""
    items, runs = parse_native(path)
    named = set(runs.values())
    if run is None and len(named) > 1:
        line = min(n for n, name in runs.items() if name != runs[min(runs)])
        raise ImportRejected(path, line, "this line's run '{runs}' differs from "
                                         "'{runs2}' (line {min}); one file "
                                         "is one run: split it or name the run with --run.",
                                         runs=runs[line], runs2=runs[min(runs)], min=min(runs))
    if run is not None:
        for line, name in sorted(runs.items()):
            if name != run:
                raise ImportRejected(path, line, "this line's run '{name}' is not '{run}' "
                                                 "given with --run; remove the 'run' field or "
                                                 "the --run option.", name=name, run=run)
    return _store(store, path, run or (named.pop() if named else path.stem), items,
                  TrajectoryReport(), cancel)


def import_openai(store: Store, path: Path, *, run: str | None = None,
                  cancel: Callable[[], bool] | None = None) -> TrajectoryReport:
    """Import an ``openai-trajectories`` file into run ``run`` (default: the file name)."""
    report = TrajectoryReport()
    items = parse_openai(path, report.warnings)
    return _store(store, path, run or path.stem, items, report, cancel)


def import_trajectories_file(store: Store, source: Path, options: Options) -> TrajectoryReport:
    """Registry entry for ``trajectories``."""
    with bulk_objects():
        return import_native(store, source, run=options.run, cancel=options.cancel)


def import_openai_file(store: Store, source: Path, options: Options) -> TrajectoryReport:
    """Registry entry for ``openai-trajectories``."""
    with bulk_objects():
        return import_openai(store, source, run=options.run, cancel=options.cancel)
