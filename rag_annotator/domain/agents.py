"""What an agent case expects, as stored and as typed (seed 000: result and path).

An agent case holds the user's request (``question``), the **expected final state** (key →
expected value, e.g. ``ticket.category = changement_offre``) and **invariants** every
acceptable path keeps: forbidden tools, required tools, ordering pairs
(``verifier_identite < modifier_offre``) and budgets (steps; optionally tokens, seconds,
cost).  Never an exact path: several paths are often valid.

Columns (``cases``): ``expected_state`` is a JSON object, ``forbidden_tools`` and
``required_tools`` JSON arrays of tool names, ``tool_order`` a JSON array of
``[before, after]`` pairs, ``max_*`` numbers or NULL (no budget).

The text forms below are what a spreadsheet cell or the case editor holds; each parser also
takes the JSON value, and :func:`agent_column` accepts either, so the CLI, the importers and
the editor share one set of rules and messages.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.errors import InvalidValue

_TOOL_RE = re.compile(r"^[^\s<>;,]+$")
_ORDER_SPLIT = re.compile(r"\s*(?:<|->|→|\bbefore\b|\bavant\b)\s*")

#: Budget columns and whether each holds a whole number.
BUDGETS: dict[str, bool] = {"max_steps": True, "max_tokens": True, "max_seconds": False,
                            "max_cost": False}


@dataclass(frozen=True)
class AgentSpec:
    """An agent case's expectations, decoded from its row."""

    expected_state: dict[str, Any] = field(default_factory=dict)
    forbidden_tools: tuple[str, ...] = ()
    required_tools: tuple[str, ...] = ()
    tool_order: tuple[tuple[str, str], ...] = ()
    max_steps: int | None = None
    max_tokens: int | None = None
    max_seconds: float | None = None
    max_cost: float | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> AgentSpec:
        """Decode a ``cases`` row (unreadable JSON reads as empty: ``check`` reports it)."""
        state = _loads(row.get("expected_state"), {})
        order = _loads(row.get("tool_order"), [])
        return cls(
            expected_state=state if isinstance(state, dict) else {},
            forbidden_tools=_names(_loads(row.get("forbidden_tools"), [])),
            required_tools=_names(_loads(row.get("required_tools"), [])),
            tool_order=tuple((str(p[0]), str(p[1])) for p in order
                             if isinstance(p, list) and len(p) == 2),
            max_steps=row.get("max_steps"), max_tokens=row.get("max_tokens"),
            max_seconds=row.get("max_seconds"), max_cost=row.get("max_cost"))


def _loads(text: Any, default: Any) -> Any:
    if isinstance(text, (dict, list)):  # already decoded
        return text
    if not isinstance(text, str) or not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def _names(value: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in value) if isinstance(value, list) else ()


# -- values of the expected state ----------------------------------------------------------
def parse_value(text: str) -> Any:
    """A typed value: JSON when it reads as JSON (``3``, ``true``, ``"x"``, ``[1]``), else
    the text itself (``changement_offre``, ``C-42``)."""
    stripped = text.strip()
    try:
        value = json.loads(stripped)
    except ValueError:
        return stripped
    if isinstance(value, float) and not math.isfinite(value):
        return stripped
    return value


def format_value(value: Any) -> str:
    """The inverse of :func:`parse_value` for display and text cells."""
    if isinstance(value, str):
        # a text that would read back as another JSON type keeps its quotes
        return value if parse_value(value) == value else json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def same_value(expected: Any, actual: Any) -> bool:
    """Whether a final-state value meets the expected one.

    Equal JSON values match; a text also matches the number or boolean it spells (``"3"``
    and ``3``, ``"true"`` and ``true``), since spreadsheets write every value as text.  A
    boolean never matches a number (Python would say ``1 == True``).
    """
    if type(expected) is type(actual) and expected == actual:
        return True  # the common case, without parsing
    e = parse_value(expected) if isinstance(expected, str) else expected
    a = parse_value(actual) if isinstance(actual, str) else actual
    if isinstance(e, bool) or isinstance(a, bool):
        return isinstance(e, bool) and isinstance(a, bool) and e is a
    return bool(e == a)


# -- text forms ------------------------------------------------------------------------------
def parse_state(value: Any, where: str = "expected_state") -> dict[str, Any]:
    """The expected final state from a JSON object, a mapping, or lines ``key = value``
    (``;`` also separates pairs).  Nested objects are flattened to dotted keys."""
    if isinstance(value, Mapping):
        return _flatten(value)
    if not isinstance(value, str):
        raise InvalidValue("{where}: expected 'key = value' pairs or a JSON object, got "
                           "{name}.", where=where, name=type(value).__name__)
    text = value.strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            decoded = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidValue("{where}: the JSON object does not parse ({msg} at "
                               "character {pos}).",
                               where=where, msg=error.msg, pos=error.pos + 1) from None
        if not isinstance(decoded, dict):
            raise InvalidValue("{where}: expected a JSON object.", where=where)
        return _flatten(decoded)
    state: dict[str, Any] = {}
    for part in re.split(r"[;\n]", text):
        if not part.strip():
            continue
        key, sep, raw = part.partition("=")
        if not sep or not key.strip():
            raise InvalidValue("{where}: '{part}' is not 'key = value' (e.g. "
                               "ticket.category = changement_offre).",
                               where=where, part=part.strip())
        name = key.strip()
        if name in state:
            raise InvalidValue("{where}: the key '{name}' is given twice.", where=where, name=name)
        state[name] = parse_value(raw)
    return state


def _flatten(obj: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.update(_flatten(value, name + "."))
        else:
            out[name] = value
    return out


def format_state(state: Mapping[str, Any]) -> str:
    """One ``key = value`` per line (what :func:`parse_state` reads back)."""
    return "\n".join(f"{key} = {format_value(value)}" for key, value in state.items())


def parse_tools(value: Any, where: str) -> list[str]:
    """Tool names from a list or a text (split on ``,`` ``;`` spaces and lines)."""
    if isinstance(value, (list, tuple)):
        items = [str(x).strip() for x in value]
    elif isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                decoded = json.loads(text)
            except ValueError:
                decoded = None
            if isinstance(decoded, list):
                return parse_tools(decoded, where)
        items = re.split(r"[,;\s]+", text)
    else:
        raise InvalidValue("{where}: expected tool names, got {name}.",
                           where=where, name=type(value).__name__)
    names: list[str] = []
    for item in items:
        if not item:
            continue
        if not _TOOL_RE.match(item):
            raise InvalidValue("{where}: '{item}' is not a tool name (no spaces, <, ; or ,).",
                               where=where, item=item)
        if item not in names:
            names.append(item)
    return names


def parse_order(value: Any, where: str = "tool_order") -> list[tuple[str, str]]:
    """Ordering pairs from ``[[before, after], …]`` or lines / ``;``-separated
    ``before < after`` (also ``->``, ``before``/``avant``).  ``a < b < c`` gives two pairs."""
    pairs: list[tuple[str, str]] = []
    if isinstance(value, (list, tuple)):
        chains = [[str(x).strip() for x in item] if isinstance(item, (list, tuple))
                  else None for item in value]
    elif isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                return parse_order(json.loads(text), where)
            except ValueError:
                pass
        chains = [_ORDER_SPLIT.split(part.strip()) for part in re.split(r"[;\n]", text)
                  if part.strip()]
    else:
        raise InvalidValue("{where}: expected 'before < after' pairs, got "
                           "{name}.", where=where, name=type(value).__name__)
    for chain in chains:
        if chain is None or len(chain) < 2 or not all(chain):
            raise InvalidValue("{where}: write each pair as 'before < after' (e.g. "
                               "verifier_identite < modifier_offre).", where=where)
        for tool in chain:
            if not _TOOL_RE.match(tool):
                raise InvalidValue("{where}: '{tool}' is not a tool name.", where=where, tool=tool)
        for before, after in itertools.pairwise(chain):
            if before == after:
                raise InvalidValue("{where}: '{before}' cannot come before itself.",
                                   where=where, before=before)
            if (before, after) not in pairs:
                pairs.append((before, after))
    return pairs


def format_order(pairs: Any) -> str:
    """``before < after`` per line."""
    return "\n".join(f"{a} < {b}" for a, b in pairs)


def parse_budget(name: str, value: Any) -> int | float | None:
    """A budget: empty or None for no budget, else a non-negative number."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    whole = BUDGETS[name]
    if isinstance(value, bool):
        raise InvalidValue("{name}: expected a number, got {value!r}.", name=name, value=value)
    try:
        number = float(str(value).strip().replace(",", ".")) if isinstance(
            value, str) else float(value)
    except (TypeError, ValueError):
        raise InvalidValue("{name}: '{value}' is not a number.", name=name, value=value) from None
    if not math.isfinite(number) or number < 0:
        raise InvalidValue("{name}: give a number of 0 or more (got {value}).",
                           name=name, value=value)
    if whole:
        if number != int(number):
            raise InvalidValue("{name}: give a whole number (got {value}).", name=name, value=value)
        return int(number)
    return number


def agent_column(name: str, value: Any) -> Any:
    """Validate one agent field (any accepted form) and return its column value."""
    if name == "expected_state":
        return json.dumps(parse_state(value, name), ensure_ascii=False)
    if name in ("forbidden_tools", "required_tools"):
        return json.dumps(parse_tools(value, name), ensure_ascii=False)
    if name == "tool_order":
        return json.dumps([list(p) for p in parse_order(value, name)], ensure_ascii=False)
    if name in BUDGETS:
        return parse_budget(name, value)
    raise InvalidValue("cases have no field '{name}'.", name=name)
