"""The common line of a ``trajectories`` file, read without a call per field (issue 19).

Most lines of a trajectory log have the documented shape with plain values: ``case`` a key,
``steps`` objects of a tool name, an arguments object and a result text, an optional final
state object, answer text and non-negative numbers.  :func:`plain_line` takes such a line
with a few type tests and one JSON encoding per arguments object; anything else (an alias, a
``run`` or ``trial`` field, a number given as a float where a count is expected, a value of
another type, a line that may hold a lone surrogate) returns None and goes through the
checked reader of ``trajectories.py``, which words every refusal.  Both give the same
:class:`TrajectoryInput` for a line both accept (the tests compare them).

:func:`fast_line` also decodes such a line with orjson, which builds the objects of a line
in about half the time of ``json`` with the duplicate-key hook (one Python call per JSON
object), but only when it can prove the result is the one the strict ``json`` reader gives;
otherwise the line is decoded again by that reader, as before, and gets its refusal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, cast

import orjson

from rag_annotator.domain import validation as v
from rag_annotator.domain.agent_ops import TrajectoryInput
from rag_annotator.errors import InvalidValue

#: The largest integer SQLite stores (and beyond which a count makes no sense).
LARGEST = 2**63 - 1
#: The fields of a plain line (``run``, ``trial``, ``reward``, aliases: the checked reader).
PLAIN_FIELDS = frozenset(("case", "steps", "final_state", "answer", "tokens", "seconds",
                          "cost"))
STEP_KEYS = frozenset(("tool", "arguments", "result"))


def _encoder() -> Callable[[Any, int], Iterable[str]]:
    """The chunks of ``json.dumps(value, ensure_ascii=False)`` (called with ``(value, 0)``)
    for values decoded from JSON (no cycles, no NaN): CPython's C encoder made once, which
    halves the cost of one call per step."""
    from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]

    if c_make_encoder is None:  # pragma: no cover - an interpreter without the accelerator
        encoder = json.JSONEncoder(ensure_ascii=False)
        return lambda value, _level: (encoder.encode(value),)

    def refuse(value: Any) -> Any:
        raise TypeError(f"{type(value).__name__} is not JSON")

    return cast(Callable[[Any, int], Iterable[str]], c_make_encoder(
        None, refuse, encode_basestring, None, ": ", ", ", False, False, True))


_CHUNKS = _encoder()


def ENCODE(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)`` of a value decoded from JSON (the name of
    the constant it was: importers import it)."""
    return "".join(_CHUNKS(value, 0))


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
    append, chunks, join = parsed.append, _CHUNKS, "".join  # locals: ~20 % of the loop
    for step in steps:
        if type(step) is not dict or len(step) != 3:  # three keys, then exactly these
            return None
        try:
            tool, arguments, result = step["tool"], step["arguments"], step["result"]
        except KeyError:
            return None
        if type(tool) is not str or type(result) is not str or type(arguments) is not dict:
            return None
        name = tool.strip()
        if not name:
            return None
        append((name, join(chunks(arguments, 0)), result))
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


#: The smallest float orjson may have made of an integer literal (it turns integers outside
#: [-2**63, 2**64) into floats; ``json`` keeps them exact).
_INEXACT = float(2**63)


def fast_line(text: str, line: int) -> TrajectoryInput | None:
    """The line ``text`` read by orjson and :func:`plain_line`, or None: the caller then
    decodes it with the strict ``json`` reader (and reads, or refuses, it as before).

    An item is returned only when orjson's objects are provably those of the strict reader
    (``trajectories._DECODER``), so nothing it would refuse gets through:

    * syntax, NaN/Infinity, numbers too large for a double, control characters, nesting past
      orjson's limit: orjson refuses them (then None); lines that may hold a lone surrogate
      never come here (the caller's ``suspicious`` test);
    * a repeated key in any object, which orjson keeps silently (the last one): in valid JSON
      a colon outside a string is a key's separator, so the text's colons are its keys plus
      the colons inside its strings; orjson's encoding of the decoded value has one colon per
      key kept plus the colons of the strings kept (it escapes none).  With no ``\\u003a``
      escape (a colon written as an escape), the counts are equal exactly when no key was
      dropped;
    * an integer literal outside [-2**63, 2**64), which orjson makes a float: the numbers of
      a plain line are ``tokens`` (an int, or plain_line declines), ``seconds`` and ``cost``
      (a float here is under 2**63) and those inside arguments and the final state, whose
      ``json`` encoding (float ``repr``) writes any float of 1e16 or more as ``…e+NN``;
    * floats: orjson rounds decimal text to the nearest double as ``float()`` does (the
      tests compare them on random and halfway cases).
    """
    if "u003a" in text or "u003A" in text:
        return None
    try:
        obj = orjson.loads(text)
        if type(obj) is not dict or orjson.dumps(obj).count(b":") != text.count(":"):
            return None
        item = plain_line(obj, line)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError, RecursionError):
        return None
    if item is None or (item.seconds or 0.0) >= _INEXACT or (item.cost or 0.0) >= _INEXACT \
            or (item.state_text is not None and "e+" in item.state_text):
        return None
    for _tool, arguments, _result in item.steps:
        if "e+" in arguments:
            return None
    return item
