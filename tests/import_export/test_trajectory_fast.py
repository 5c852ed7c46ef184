"""The orjson reading of plain ``trajectories`` lines (issue 19) gives exactly what the strict
``json`` reader and the checked reader give, or declines: a repeated key anywhere, NaN, a
lone surrogate, an integer past 64 bits… still get the strict reader and its refusal, with
the line.  The peer is the standard library's ``json`` with the duplicate-key hook."""

from __future__ import annotations

import json
import math
import random
import struct
from decimal import Decimal, localcontext
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.trajectories import (
    _SURROGATE,
    _Line,
    _loads,
    _native_item,
    parse_native,
)
from rag_annotator.import_export.trajectory_lines import fast_line, plain_line

#: A JSON object written as pairs, so a key may be repeated (Python dicts cannot hold that).
Pairs = list[tuple[str, Any]]


class Obj:
    """An object's pairs in order, duplicates allowed."""

    def __init__(self, pairs: Pairs) -> None:
        self.pairs = pairs


def write(value: Any, style: int) -> str:
    """JSON text of ``value`` (an :class:`Obj` may repeat keys) in one of four styles: as
    ``json.dumps`` writes it, ASCII-only, compact, or with extra spaces."""
    if isinstance(value, Obj):
        sep, colon = ((",", ":") if style == 2 else (" , ", " : ") if style == 3
                      else (", ", ": "))
        return "{" + sep.join(write(k, style) + colon + write(v, style)
                              for k, v in value.pairs) + "}"
    if isinstance(value, list):
        return "[" + (", " if style != 2 else ",").join(write(v, style) for v in value) + "]"
    return json.dumps(value, ensure_ascii=style == 1)


KEYS = st.sampled_from(["a", "k:1", "é", "u003a", "e+", "a b", ":", "\\", "x"]) | st.text(
    max_size=4)
SCALARS = (st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False)
           | st.integers(min_value=-2**70, max_value=2**70)
           | st.sampled_from([2**63, 2**64, -2**63 - 1, 10**18, 10**19, 1e16, -0.0, 5e-324])
           | st.text(max_size=6) | st.sampled_from(["x:y", "\u2028", "\x7f", "e+1", "\U0001F600"]))

AMOUNTS = (st.none() | st.floats(min_value=0, allow_infinity=False)
           | st.integers(0, 2**65) | SCALARS)


def _objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Obj]:
    """Objects, a few with a key repeated (then the strict reader refuses the line)."""
    def build(pairs: Pairs, repeat: bool, where: int) -> Obj:
        if repeat and pairs:
            key = pairs[where % len(pairs)][0]
            pairs = [*pairs, (key, None)]
        return Obj(pairs)

    return st.builds(build, st.lists(st.tuples(KEYS, children), max_size=4,
                                     unique_by=lambda pair: pair[0]),
                     st.integers(0, 9).map(lambda n: n == 7), st.integers(0, 3))


VALUES = st.recursive(SCALARS, lambda children: st.lists(children, max_size=3)
                      | _objects(children), max_leaves=12)


@st.composite
def lines(draw: st.DrawFn) -> str:
    """A ``trajectories`` line, plain most of the time."""
    steps = [Obj([("tool", draw(st.sampled_from(["t", " outil ", "a:b"]))),
                  ("arguments", draw(_objects(VALUES))),
                  ("result", draw(st.sampled_from(["ok", "x:y", ""]) | st.text(max_size=5)))])
             for _ in range(draw(st.integers(0, 3)))]
    case = draw(st.sampled_from(["A01", "A:2", "A04", "A05", " A03"]))
    pairs: Pairs = [("case", case), ("steps", steps)]
    for name, values in (("final_state", st.none() | _objects(VALUES)),
                         ("answer", st.none() | st.text(max_size=4)),
                         ("tokens", st.none() | st.integers(-1, 2**65) | st.just(12.0)),
                         ("seconds", AMOUNTS), ("cost", AMOUNTS)):
        if draw(st.booleans()):
            pairs.append((name, draw(values)))
    if draw(st.integers(0, 19)) == 7:  # a key of the line itself given twice
        pairs.append(("case", "A09"))
    return write(Obj(pairs), draw(st.integers(0, 3)))


def strict(text: str, line: int = 5) -> tuple[Any, str | None]:
    """What the strict reader makes of a line: (item, None), or (None, its refusal)."""
    try:
        obj = _loads(text)
    except ValueError as error:
        return None, str(error)
    suspicious = _SURROGATE.search(text) is not None  # as parse_native reads a line
    plain = None if suspicious else plain_line(obj, line)
    if plain is not None:
        return plain, None
    try:
        item, _run = _native_item(_Line(Path("t.jsonl"), line, suspicious), obj)
    except ImportRejected as error:
        return None, str(error)
    return item, None


def same(fast: Any, slow: Any) -> None:
    """The same item, and the same final-state text stored (the checked reader leaves it to
    the store to encode)."""
    assert fast == slow
    assert fast.state_text == (slow.state_text if slow.final_state is None
                               or slow.state_text is not None
                               else json.dumps(slow.final_state, ensure_ascii=False))
    assert [type(getattr(fast, f)) for f in ("tokens", "seconds", "cost")] == \
        [type(getattr(slow, f)) for f in ("tokens", "seconds", "cost")]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines())
def test_the_fast_reader_gives_the_strict_readers_item_or_declines(text: str) -> None:
    # as parse_native calls it: a line that may hold a lone surrogate goes to the checked
    # reader (which checks every text) without trying orjson
    fast = None if _SURROGATE.search(text) else fast_line(text, 5)
    slow, refusal = strict(text)
    if fast is not None:  # never an item where the strict reader refuses or reads otherwise
        assert refusal is None
        same(fast, slow)


def test_plain_lines_take_the_fast_path_and_agree() -> None:
    rng = random.Random(4)
    for i in range(300):
        obj = {"case": f"A{i}", "steps": [
            {"tool": "t", "arguments": {"id": f"C-{rng.random()}", "l": [1, "a:b", None],
                                        "n": rng.randint(-10**17, 10**17),
                                        "x": rng.uniform(-1e6, 1e6)},
             "result": "ok: é"} for _ in range(rng.randint(0, 4))],
            "final_state": {"t": {"k": rng.random()}}, "answer": "Fait.", "tokens": i,
            "seconds": rng.random() * 10, "cost": 0}
        for style in range(4):
            text = write(_pairs(obj), style)
            fast = fast_line(text, 5)
            assert fast is not None, text
            same(fast, strict(text)[0])


def _pairs(value: Any) -> Any:
    if isinstance(value, dict):
        return Obj([(k, _pairs(v)) for k, v in value.items()])
    if isinstance(value, list):
        return [_pairs(v) for v in value]
    return value


PLAIN = '{"case": "A01", "steps": [{"tool": "t", "arguments": {"a": 1}, "result": "ok"}]}'


@pytest.mark.parametrize(("bad", "key"), [
    ('{"case": "A03", "steps": [{"tool": "t", "arguments": {"a": {"b": [{"c": 1, "d": '
     '{"e": 2}, "c": 3}]}}, "result": ""}]}', "c"),
    # the text's colons made up by an escaped one: the escape sends it to the strict reader
    ('{"case": "A03", "steps": [{"tool": "t", "arguments": {"k": 1, "k": 2, "v": "\\u003a"},'
     ' "result": ""}]}', "k"),
    ('{"case": "A03", "steps": [{"tool": "t", "arguments": {"a": 1, "\\u0061": 2}, '
     '"result": ""}]}', "a"),
    ('{"case": "A03", "steps": [], "final_state": {"x": {"y": null, "y": null}}}', "y"),
    ('{"case": "A03", "steps": [{"tool": "t", "tool": "t", "arguments": {}, "result": ""}]}',
     "tool"),
    ('{"case": "A03", "case": "A03", "steps": []}', "case"),
])
def test_a_key_given_twice_anywhere_is_refused_with_its_line(tmp_path: Path, bad: str,
                                                             key: str) -> None:
    assert fast_line(bad, 3) is None
    path = tmp_path / "run.jsonl"
    path.write_text(f"{PLAIN}\n{PLAIN.replace('A01', 'A02')}\n{bad}\n", encoding="utf-8")
    with pytest.raises(ImportRejected) as error:
        parse_native(path)
    assert error.value.line == 3
    assert f"the key '{key}' appears twice in one object" in str(error.value)


@pytest.mark.parametrize("bad", [
    '{"case": "A03", "steps": [{"tool": "t", "arguments": {"a": NaN}, "result": ""}]}',
    '{"case": "A03", "steps": [{"tool": "t", "arguments": {"a": 1e400}, "result": ""}]}',
    '{"case": "A03", "steps": [{"tool": "t", "arguments": {}, "result": "\\ud800"}]}',
    '{"case": "A03", "steps": [{"tool": "t", "arguments": {}, "result": "a\x01"}]}',
    '{"case": "A03", "steps": []} x',
    '{"case": "A03", "steps": [], "tokens": 18446744073709551616}',
    '{"case": "A03", "steps": [], "cost": 123456789012345678901234567890}',
])
def test_other_refusals_keep_their_words_and_line(tmp_path: Path, bad: str) -> None:
    assert fast_line(bad, 3) is None
    _item, refusal = strict(bad, 3)
    assert refusal is not None
    path = tmp_path / "run.jsonl"
    path.write_text(f"{PLAIN}\n\n{bad}\n", encoding="utf-8")
    with pytest.raises(ImportRejected) as error:
        parse_native(path)
    assert error.value.line == 3
    assert refusal.split(": ", 1)[-1].rstrip(".") in str(error.value)


def test_integers_past_64_bits_stay_exact(tmp_path: Path) -> None:
    """orjson would make them floats: such lines are read by the strict reader."""
    big = ('{"case": "A01", "steps": [{"tool": "t", "arguments": {"n": 12345678901234567890123'
           ', "m": -9223372036854775809, "u": 18446744073709551615}, "result": ""}], '
           '"final_state": {"s": [100000000000000000000]}, "seconds": 18446744073709551617}')
    assert fast_line(big, 1) is None
    path = tmp_path / "run.jsonl"
    path.write_text(big.replace(', "seconds": 18446744073709551617', "") + "\n",
                    encoding="utf-8")
    [item], _runs = parse_native(path)
    assert item.steps[0][1] == ('{"n": 12345678901234567890123, "m": -9223372036854775809, '
                                '"u": 18446744073709551615}')
    assert item.state_text == '{"s": [100000000000000000000]}'
    with_seconds = tmp_path / "seconds.jsonl"
    with_seconds.write_text(big + "\n", encoding="utf-8")
    with pytest.raises(ImportRejected, match="'seconds' is out of range"):
        parse_native(with_seconds)


def test_decimal_text_rounds_to_the_double_float_gives() -> None:
    """Halfway cases between two doubles, written out in full: orjson rounds as ``float``."""
    rng = random.Random(19)
    with localcontext() as context:
        context.prec = 1200
        for i in range(400):
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(63)))[0]
            y = math.nextafter(x, math.inf)
            if not (math.isfinite(x) and math.isfinite(y)) or x == 0:
                continue
            middle = (Decimal(x) + Decimal(y)) / 2
            for number in (middle, middle.next_plus(), middle.next_minus()):
                text = format(number, "e") if i % 2 else format(number, "f")
                text += "" if "." in text or "e" in text else ".0"
                line = ('{"case": "A01", "steps": [{"tool": "t", "arguments": {"x": '
                        f'{text}}}, "result": ""}}]}}')
                fast = fast_line(line, 1)
                if fast is not None:
                    same(fast, strict(line, 1)[0])
                assert json.loads(strict(line, 1)[0].steps[0][1])["x"] == float(text)
