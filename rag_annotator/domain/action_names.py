"""Every history action code of the application with its English title (the UI translates).

Each area declares its codes in its own module; this one gathers them so the history, the
undo stack and the tests have one list.
"""

from __future__ import annotations

from rag_annotator.domain import actions_agents, actions_goldset, actions_verify
from rag_annotator.domain.operations import CORE_ACTION_NAMES

ACTION_NAMES: dict[str, str] = {
    **CORE_ACTION_NAMES,
    **actions_goldset.ACTION_NAMES,
    **actions_verify.ACTION_NAMES,
    **actions_agents.ACTION_NAMES,
}


def action_title(action: str) -> str:
    """English title of an action code (the code itself if unknown)."""
    return ACTION_NAMES.get(action, action)
