"""The automatic checks of one trajectory against its agent case (seed 000).

Pure functions: what the agent did (its tool calls in order, final state, tokens, seconds,
cost) and what the case expects (:class:`~rag_annotator.domain.agents.AgentSpec`) give, for
each invariant, *held*, *broken* (with the steps that broke it) or *unknown* (the
trajectory lacks the figure), and for the final state which keys differ.

Rules (seed 000's ``evaluer_trajectoire``, made step-precise):

* **forbidden tool** — broken at every step that calls it;
* **required tool** — broken when it is never called (no step to point at);
* **ordering pair** ``a < b`` — both must be called and ``a`` first: broken at the first
  call of ``b`` when no ``a`` came before it; broken without a step when ``b`` (or both)
  is never called, as the seed's ``a in etapes and b in etapes`` requires;
* **step budget** — broken at the first step past the budget; token, second and cost
  budgets are kept when the figure is at most the budget, unknown when it is missing.

*Task success* (automatic) is "every expected key has its value in the final state"
(unknown when the case expects no state or the trajectory gives none); when that cannot
decide and the log carries the benchmark's own ``reward`` (tau-bench, tau2-bench), success
is that reward being 1 (tau-bench's ``is_successful``: within 1e-6).  Both are *automatic*
verdicts, kept apart from a reviewer's marks; *path acceptable*
(automatic) is "no invariant broken" (unknown only when the case states none).  A review
confirms or overrules them; :func:`effective` gives what the metrics count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rag_annotator.domain.agents import BUDGETS, AgentSpec, format_value, same_value

HELD, BROKEN, UNKNOWN = "held", "broken", "unknown"
EQUAL, DIFFERS, MISSING = "equal", "differs", "missing"
_FIGURE = {"max_tokens": "tokens", "max_seconds": "seconds", "max_cost": "cost"}


@dataclass(frozen=True)
class Check:
    """One invariant's outcome on one trajectory.

    ``code`` names the invariant across trajectories (violation rates group by it):
    ``forbidden:TOOL``, ``required:TOOL``, ``order:A<B``, ``max_steps``, ``max_tokens``,
    ``max_seconds``, ``max_cost``.  ``steps`` are 1-based positions of the steps that broke
    it; ``limit``/``actual`` are a budget and the trajectory's figure.
    """

    code: str
    kind: str
    tools: tuple[str, ...]
    status: str
    steps: tuple[int, ...] = ()
    limit: float | None = None
    actual: float | None = None
    missing: tuple[str, ...] = ()  # tools the invariant needed that were never called

    def describe(self) -> str:
        """One English line (the CLI's; the UI words it in the user's language)."""
        if self.kind == "forbidden":
            text = f"forbidden tool {self.tools[0]}"
            return text + (f": called at step {_steps(self.steps)}" if self.steps else
                           ": never called")
        if self.kind == "required":
            return f"required tool {self.tools[0]}" + (
                ": never called" if self.status == BROKEN else ": called")
        if self.kind == "order":
            a, b = self.tools
            if self.status == HELD:
                return f"{a} before {b}: kept"
            if self.steps:
                return f"{a} before {b}: {b} at step {self.steps[0]} with no {a} before it"
            return f"{a} before {b}: {' and '.join(self.missing)} never called"
        name = self.kind.removeprefix("max_")
        if self.status == UNKNOWN:
            return f"{name} budget {_num(self.limit)}: the trajectory gives no {name}"
        verb = "kept" if self.status == HELD else "exceeded"
        where = f" at step {self.steps[0]}" if self.steps else ""
        return f"{name} budget {_num(self.limit)}: {verb} ({_num(self.actual)}){where}"


@dataclass(frozen=True)
class StateKey:
    """One expected key of the final state and what the trajectory ended with."""

    key: str
    expected: Any
    actual: Any
    status: str  # equal, differs or missing

    def describe(self) -> str:
        if self.status == MISSING:
            return f"{self.key}: expected {format_value(self.expected)}, absent"
        if self.status == DIFFERS:
            return (f"{self.key}: expected {format_value(self.expected)}, got "
                    f"{format_value(self.actual)}")
        return f"{self.key} = {format_value(self.actual)}"


@dataclass(frozen=True)
class Evaluation:
    """Every automatic verdict on one trajectory."""

    checks: tuple[Check, ...]
    state: tuple[StateKey, ...]
    has_final_state: bool
    #: The benchmark's own score of the trajectory (None: the log gave none).
    reward: float | None = None

    @property
    def task_success(self) -> bool | None:
        """Final state as expected; else the benchmark's reward is 1 (None: neither)."""
        if not self.state or not self.has_final_state:
            return reward_success(self.reward)
        return all(key.status == EQUAL for key in self.state)

    @property
    def path_acceptable(self) -> bool | None:
        """No invariant broken (None: the case states no invariant)."""
        if not self.checks:
            return None
        return not any(check.status == BROKEN for check in self.checks)

    @property
    def broken(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.status == BROKEN)

    def broken_steps(self) -> dict[int, list[Check]]:
        """Step position → the checks it broke (what the timeline highlights)."""
        out: dict[int, list[Check]] = {}
        for check in self.broken:
            for step in check.steps:
                out.setdefault(step, []).append(check)
        return out


def reward_success(reward: float | None) -> bool | None:
    """A benchmark reward read as task success, as tau-bench does (1 within 1e-6)."""
    return None if reward is None else abs(reward - 1.0) <= 1e-6


def evaluate(spec: AgentSpec, tools: Sequence[str], final_state: Mapping[str, Any] | None,
             tokens: float | None = None, seconds: float | None = None,
             cost: float | None = None, reward: float | None = None) -> Evaluation:
    """Check one trajectory (``tools``: the tool of each step, in order)."""
    checks: list[Check] = []
    for tool in spec.forbidden_tools:
        steps = tuple(i for i, name in enumerate(tools, start=1) if name == tool)
        checks.append(Check(f"forbidden:{tool}", "forbidden", (tool,),
                            BROKEN if steps else HELD, steps))
    for tool in spec.required_tools:
        called = tool in tools
        checks.append(Check(f"required:{tool}", "required", (tool,),
                            HELD if called else BROKEN, missing=() if called else (tool,)))
    for before, after in spec.tool_order:
        checks.append(_order(before, after, tools))
    if spec.max_steps is not None:
        over = len(tools) > spec.max_steps
        checks.append(Check("max_steps", "max_steps", (), BROKEN if over else HELD,
                            (spec.max_steps + 1,) if over else (), spec.max_steps,
                            len(tools)))
    figures = {"tokens": tokens, "seconds": seconds, "cost": cost}
    for budget in BUDGETS:
        if budget == "max_steps":
            continue
        limit = getattr(spec, budget)
        if limit is None:
            continue
        actual = figures[_FIGURE[budget]]
        status = UNKNOWN if actual is None else (HELD if actual <= limit else BROKEN)
        checks.append(Check(budget, budget, (), status, (), limit, actual))
    return Evaluation(tuple(checks), _state(spec.expected_state, final_state),
                      final_state is not None, reward)


def evaluate_row(row: Mapping[str, Any]) -> Evaluation:
    """The checks of a trajectory row as the store gives it: the case's expectation columns,
    ``tools`` in step order (or ``steps`` rows with a ``tool``), the decoded ``final_state``,
    ``tokens``, ``seconds`` and ``cost``."""
    tools = row.get("tools")
    if tools is None:
        tools = [step["tool"] for step in row.get("steps", [])]
    return evaluate(AgentSpec.from_row(row), tools, row.get("final_state"), row.get("tokens"),
                    row.get("seconds"), row.get("cost"), row.get("reward"))


def _order(before: str, after: str, tools: Sequence[str]) -> Check:
    code = f"order:{before}<{after}"
    first_before = next((i for i, t in enumerate(tools, start=1) if t == before), None)
    first_after = next((i for i, t in enumerate(tools, start=1) if t == after), None)
    if first_after is None:
        # never exercised: the seed counts it broken (it needs both tools called)
        missing = (after,) if first_before is not None else (before, after)
        return Check(code, "order", (before, after), BROKEN, missing=missing)
    if first_before is None or first_before > first_after:
        return Check(code, "order", (before, after), BROKEN, (first_after,))
    return Check(code, "order", (before, after), HELD)


def _state(expected: Mapping[str, Any],
           final: Mapping[str, Any] | None) -> tuple[StateKey, ...]:
    if final is None:
        return tuple(StateKey(k, v, None, MISSING) for k, v in expected.items())
    flat = _flat(final)
    out = []
    for key, value in expected.items():
        if key not in flat:
            out.append(StateKey(key, value, None, MISSING))
        else:
            out.append(StateKey(key, value, flat[key],
                                EQUAL if same_value(value, flat[key]) else DIFFERS))
    return tuple(out)


def _flat(obj: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted keys of a nested final state; a literal dotted key is kept as well."""
    out: dict[str, Any] = {}
    for key, value in obj.items():
        name = f"{prefix}{key}"
        out[name] = value
        if isinstance(value, Mapping):
            out.update(_flat(value, name + "."))
    return out


def effective(automatic: bool | None, reviewed: bool | None) -> bool | None:
    """What counts: the reviewer's mark when there is one, else the automatic verdict."""
    return automatic if reviewed is None else reviewed


def _steps(steps: Sequence[int]) -> str:
    return ", ".join(str(s) for s in steps)


def _num(value: float | None) -> str:
    if value is None:
        return "?"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
