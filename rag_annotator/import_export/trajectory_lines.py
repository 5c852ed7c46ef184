"""The common line of a ``trajectories`` file, read without a call per field (issue 19).

Most lines of a trajectory log have the documented shape with plain values: ``case`` a key,
``steps`` objects of a tool name, an arguments object and a result text, an optional final
state object, answer text and non-negative numbers.  :func:`plain_line` takes such a line
with a few type tests and one JSON encoding per arguments object; anything else (an alias, a
``run`` or ``trial`` field, a number given as a float where a count is expected, a value of
another type, a line that may hold a lone surrogate) returns None and goes through the
checked reader of ``trajectories.py``, which words every refusal.  Both give the same
:class:`TrajectoryInput` for a line both accept (the tests compare them).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.agent_ops import TrajectoryInput
from rag_annotator.errors import InvalidValue

#: The largest integer SQLite stores (and beyond which a count makes no sense).
LARGEST = 2**63 - 1
#: The fields of a plain line (``run``, ``trial``, ``reward``, aliases: the checked reader).
PLAIN_FIELDS = frozenset(("case", "steps", "final_state", "answer", "tokens", "seconds",
                          "cost"))
STEP_KEYS = frozenset(("tool", "arguments", "result"))


def _encoder() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False)`` for values decoded from JSON (no cycles,
    no NaN): CPython's C encoder made once, which halves the cost of one call per step."""
    from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]

    if c_make_encoder is None:  # pragma: no cover - an interpreter without the accelerator
        return json.JSONEncoder(ensure_ascii=False).encode

    def refuse(value: Any) -> Any:
        raise TypeError(f"{type(value).__name__} is not JSON")

    chunks = c_make_encoder(None, refuse, encode_basestring, None, ": ", ", ", False, False,
                            True)
    return lambda value: "".join(chunks(value, 0))


ENCODE = _encoder()


def plain_line(obj: dict[str, Any], line: int) -> TrajectoryInput | None:
    """``obj`` read as a trajectory when it is a plain line, else None (the checked reader
    then reads it).  A RecursionError (a state nested too deeply to encode) is the
    caller's to word, as for the checked reader."""
    if not obj.keys() <= PLAIN_FIELDS:
        return None
    case = obj.get("case")
    steps = obj.get("steps")
    if type(case) is not str or type(steps) is not list:
        return None
    try:
        v.check_key("case", case)
    except InvalidValue:
        return None
    parsed: list[tuple[str, Any, str]] = []
    append = parsed.append
    for step in steps:
        if type(step) is not dict or not step.keys() <= STEP_KEYS:
            return None
        tool, arguments, result = step.get("tool"), step.get("arguments"), step.get("result")
        if type(tool) is not str or type(result) is not str or type(arguments) is not dict:
            return None
        name = tool.strip()
        if not name:
            return None
        append((name, ENCODE(arguments), result))
    state = obj.get("final_state")
    if state is not None and type(state) is not dict:
        return None
    answer = obj.get("answer")
    if answer is None:
        answer = ""
    elif type(answer) is not str:
        return None
    tokens = obj.get("tokens")
    if tokens is not None and not (type(tokens) is int and 0 <= tokens <= LARGEST):
        return None
    plain_seconds, seconds = _amount(obj.get("seconds"))
    plain_cost, cost = _amount(obj.get("cost"))
    if not (plain_seconds and plain_cost):
        return None
    return TrajectoryInput(case=case, steps=parsed, final_state=state, final_answer=answer,
                           line=line, tokens=tokens, seconds=seconds, cost=cost,
                           state_text=None if state is None else ENCODE(state))


def _amount(value: Any) -> tuple[bool, float | None]:
    """``(True, amount)``: a non-negative amount as a float (None when absent); ``(False,
    None)``: the checked reader decides (the decoder gives finite floats only: it refuses
    NaN and overflows)."""
    if value is None:
        return True, None
    kind = type(value)
    if kind is float:
        return (True, value) if value >= 0 else (False, None)
    if kind is int and 0 <= value <= LARGEST:
        return True, float(value)
    return False, None
