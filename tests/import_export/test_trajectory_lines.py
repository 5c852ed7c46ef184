"""The plain-line reader of ``trajectories`` files (issue 19) gives what the checked reader
gives, leaves every other line to it, and keeps which refusal a file gets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.trajectories import _Line, _native_item, parse_native
from rag_annotator.import_export.trajectory_lines import plain_line

PLAIN: list[dict[str, Any]] = [
    {"case": "A01", "steps": [{"tool": " verifier_identite ", "arguments": {"client": "C-42"},
                               "result": "ok"},
                              {"tool": "modifier_offre", "arguments": {"offre": {"id": 2,
                                                                        "tags": ["fibre"]}},
                               "result": ""}],
     "final_state": {"ticket": {"category": "changement_offre"}}, "answer": "Fait.",
     "tokens": 1234, "seconds": 8, "cost": 0.012},
    {"case": "A02", "steps": []},
    {"case": "A03", "steps": [{"tool": "x", "arguments": {}, "result": "é ✓"}],
     "final_state": None, "answer": None, "tokens": None, "seconds": 0.0, "cost": None},
    {"case": "A04", "steps": [{"result": "r", "arguments": {"a": 1.5e300}, "tool": "t"}],
     "final_state": {}, "seconds": 2**63 - 1, "cost": 0},
]
#: Lines the plain reader leaves to the checked one (aliases, other types, other fields).
OTHERS: list[dict[str, Any]] = [
    {"case": 7, "steps": []},
    {"case_id": "A01", "steps": []},
    {"case": "A01", "steps": [], "trial": 1, "reward": 1.0, "run": "r"},
    {"case": "A01", "steps": [{"name": "t", "args": "{\"a\": 1}", "output": "o"}]},
    {"case": "A01", "steps": [{"tool": "t", "arguments": "{\"a\": 1}", "result": {"x": 1}}]},
    {"case": "A01", "steps": [{"tool": "t", "arguments": None, "result": None}]},
    {"case": "A01", "steps": [], "tokens": 12.0, "seconds": 3},
    {"case": "A01", "steps": [], "final_answer": "f"},
]
#: Lines both readers must refuse (the checked reader words it).
BAD: list[dict[str, Any]] = [
    {"case": " A01", "steps": []},
    {"case": "A01"},
    {"case": "A01", "steps": [{"tool": "  ", "arguments": {}, "result": ""}]},
    {"case": "A01", "steps": [], "tokens": -1},
    {"case": "A01", "steps": [], "seconds": -0.5},
    {"case": "A01", "steps": [], "cost": 2**64},
    {"case": "A01", "steps": [], "tokens": True},
    {"case": "A01", "steps": [], "final_state": [1]},
    {"case": "A01", "steps": [], "answer": 3},
    {"case": "A01", "steps": [], "colour": "red"},
]


def checked(obj: dict[str, Any], line: int = 3) -> Any:
    item, _run = _native_item(_Line(Path("t.jsonl"), line, suspicious=False), obj)
    return item


@pytest.mark.parametrize("obj", PLAIN)
def test_a_plain_line_reads_as_the_checked_reader_reads_it(obj: dict[str, Any]) -> None:
    fast = plain_line(obj, 3)
    assert fast is not None
    slow = checked(obj)
    assert fast == slow
    assert [type(getattr(fast, f)) for f in ("tokens", "seconds", "cost")] == \
        [type(getattr(slow, f)) for f in ("tokens", "seconds", "cost")]
    state = obj.get("final_state")
    assert fast.state_text == (None if state is None
                               else json.dumps(state, ensure_ascii=False))


@pytest.mark.parametrize("obj", OTHERS)
def test_other_lines_are_left_to_the_checked_reader(obj: dict[str, Any]) -> None:
    assert plain_line(obj, 3) is None
    checked(obj)  # which accepts them


@pytest.mark.parametrize("obj", BAD)
def test_refused_lines_are_left_to_the_checked_reader(obj: dict[str, Any]) -> None:
    assert plain_line(obj, 3) is None
    with pytest.raises(ImportRejected, match=r"t\.jsonl"):
        checked(obj)


def test_a_file_reads_the_same_line_by_line_and_keeps_its_first_refusal(
        tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in PLAIN + OTHERS[:1]),
                    encoding="utf-8")
    items, runs = parse_native(path)
    assert items == [checked(o, n) for n, o in enumerate(PLAIN + OTHERS[:1], start=1)]
    assert runs == {}
    # a field refused on line 2 and a line that is not JSON on line 4: as when every line
    # was decoded before any was read, the line that is not JSON is the one reported
    path.write_text(json.dumps(PLAIN[0]) + "\n" + json.dumps(BAD[1]) + "\n"
                    + json.dumps(PLAIN[1]) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(ImportRejected) as error:
        parse_native(path)
    assert error.value.line == 4 and "not valid JSON" in str(error.value)
    path.write_text(json.dumps(PLAIN[0]) + "\n" + json.dumps(BAD[1]) + "\n",
                    encoding="utf-8")
    with pytest.raises(ImportRejected) as error:
        parse_native(path)
    assert error.value.line == 2 and "'steps' is missing" in str(error.value)
