"""What each family of case needs to be a usable test (issue 3, item 2): pure checks.

A rule looks at one case (fields decoded: lists are lists) and its expected sources, each
with its document's ``key``, ``status``, ``origin``, ``rights`` and ``superseded_by`` (the key
of a document that supersedes it, or None).  It returns :class:`RuleWarning` values: advice
shown in the case editor and listed by ``rag-annotator check``.  They are curation warnings,
not integrity problems: a draft is allowed to be incomplete, so ``check`` does not fail on
them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rag_annotator.messages import Message


@dataclass(frozen=True)
class RuleWarning:
    """One unmet rule: a stable code (for tests and translation) and an English message."""

    code: str
    message: str

    def __post_init__(self) -> None:
        if not isinstance(self.message, Message):  # a message id: shown in any language
            object.__setattr__(self, "message", Message(self.message))


def _text(value: Any) -> str:
    return str(value or "").strip()


def check_case(case: Mapping[str, Any],
               sources: Iterable[Mapping[str, Any]] | None = None) -> list[RuleWarning]:
    """Every rule that ``case`` (with its expected ``sources``) does not meet."""
    found = list(case.get("sources", []) if sources is None else sources)
    family = case.get("family", "ordinary")
    behaviour = case.get("expected_behaviour", "answer")
    out: list[RuleWarning] = []

    def warn(code: str, message: str, **params: Any) -> None:
        out.append(RuleWarning(code, Message(message, **params)))

    if case.get("kind") == "agent":
        return _agent_rules(case)
    if not _text(case.get("question")):
        warn("no_question", "the case has no question.")
    if behaviour != "abstain" and not _text(case.get("reference_answer")):
        warn("no_reference_answer",
             "no reference answer; write one, or expect abstention if nothing answers it.")
    if family == "no_answer":
        if behaviour != "abstain":
            warn("no_answer_behaviour",
                 "no answer in the corpus: the expected behaviour should be abstain.")
        if found:
            warn("no_answer_sources",
                 "no answer in the corpus: the case should have no expected source.")
    if family == "conflicting_sources":
        if len({s["document_id"] for s in found}) < 2:
            warn("conflict_sources",
                 "conflicting sources: name at least two expected sources.")
        if not _text(case.get("notes")) and not any(_text(s.get("note")) for s in found):
            warn("conflict_note",
                 "conflicting sources: write a note on the conflict (case notes or a "
                 "source's note).")
    if family == "outdated_document":
        old = [s for s in found if s.get("status") == "outdated" or s.get("superseded_by")]
        current = [s for s in found if s.get("status") == "current"
                   and not s.get("superseded_by")]
        if not old:
            warn("outdated_missing_old",
                 "outdated document: name the outdated (or superseded) document as an "
                 "expected source.")
        if not current:
            warn("outdated_missing_current",
                 "outdated document: name the current document as an expected source too.")
    if family == "access_restricted" and not _text(case.get("role")):
        warn("restricted_role",
             "access restricted: give the role that may or may not see the documents.")
    if family == "prompt_injection" and not any(
            s.get("span_start") is not None or _text(s.get("note")) for s in found):
        warn("injection_passage",
             "prompt injection: identify the injected passage (an expected source with a "
             "selected passage or a note).")
    for source in found:
        key = source.get("key", source.get("document_id"))
        if source.get("origin", "corpus") != "corpus":
            warn("source_missing",
                 "expected source {key} is not in the corpus (a placeholder); import the "
                 "corpus or remove it.", key=key)
        elif source.get("status") == "withdrawn":
            warn("source_withdrawn", "expected source {key} is withdrawn.", key=key)
        elif source.get("status") == "outdated" and family != "outdated_document":
            warn("source_outdated", "expected source {key} is outdated.", key=key)
    return out


def _agent_rules(case: Mapping[str, Any]) -> list[RuleWarning]:
    """An agent case (seed 000) is judged on its final state and its invariants: without
    them nothing can be checked automatically; a tool both forbidden and needed is a
    contradiction no trajectory can meet."""
    from rag_annotator.domain.agents import AgentSpec

    spec = AgentSpec.from_row(case)
    out: list[RuleWarning] = []
    if not _text(case.get("question")):
        out.append(RuleWarning("agent_no_request", "the agent case has no user request."))
    if not spec.expected_state:
        out.append(RuleWarning(
            "agent_no_state", "no expected final state: task success cannot be checked "
            "automatically; give 'key = value' pairs."))
    if not (spec.forbidden_tools or spec.required_tools or spec.tool_order
            or spec.max_steps is not None):
        out.append(RuleWarning(
            "agent_no_invariant", "no invariant (forbidden or required tool, order, step "
            "budget): the path cannot be checked automatically."))
    needed = set(spec.required_tools) | {tool for pair in spec.tool_order for tool in pair}
    for tool in sorted(needed & set(spec.forbidden_tools)):
        out.append(RuleWarning(
            "agent_contradiction", Message("tool {tool} is forbidden but also required or "
                                           "ordered: no trajectory can keep every invariant.",
                                           tool=tool)))
    return out
