"""Commands and shortcuts of the Agents section (trajectory review, seed 000).

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut).  The titles of this area's history actions are in the one
registry, ``domain/action_names.py``.

The key scheme (single letters act on the current trajectory, like the Judge and Verify
sections; each change is one undoable operation):

============  ====================================================================
Enter         accept the automatic checks (marks every verdict not yet marked with the
              automatic one), then the next trajectory to review
Y / N         task success: yes / no (the final state is what the task needed)
A / X         path acceptable: yes / no (A for *acceptable*; X is the app's "no" mark, as
              in the Verify section's Y / P / X citation keys, and N is taken by success)
U             clear the review (the automatic verdicts count again)
E             write a note (Enter saves, Esc cancels)
J / K         next / previous trajectory
H / L         previous / next step of the timeline (its arguments and result shown whole)
Shift+J       next trajectory to review
T             list only the trajectories to review (toggle)
R             choose the run (the list of runs opens; Enter picks one)
============  ====================================================================

A mark that overrules the automatic verdict (Y when the final state differs, A when a check
is broken…) opens a small dialog asking the reason: Enter saves it with the mark, Esc
cancels and nothing is stored.  The same key again on a mark already set clears it.
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP


def _spec(action_id: str, label: str, *keys: str, checkable: bool = False) -> ActionSpec:
    return ActionSpec(f"agents.{action_id}", label, keys, "agents", checkable)


SPECS: tuple[ActionSpec, ...] = (
    _spec("accept", QT_TRANSLATE_NOOP(
        "actions", "Accept the automatic checks, then the next trajectory to review"),
        "Return", "Enter"),
    _spec("success_yes", QT_TRANSLATE_NOOP("actions", "Task success: yes"), "Y"),
    _spec("success_no", QT_TRANSLATE_NOOP("actions", "Task success: no"), "N"),
    _spec("path_yes", QT_TRANSLATE_NOOP("actions", "Path acceptable: yes"), "A"),
    _spec("path_no", QT_TRANSLATE_NOOP("actions", "Path acceptable: no"), "X"),
    _spec("clear", QT_TRANSLATE_NOOP("actions", "Clear the review"), "U"),
    _spec("note", QT_TRANSLATE_NOOP("actions", "Write a note on the trajectory"), "E"),
    _spec("next", QT_TRANSLATE_NOOP("actions", "Next trajectory"), "J"),
    _spec("previous", QT_TRANSLATE_NOOP("actions", "Previous trajectory"), "K"),
    _spec("next_to_review", QT_TRANSLATE_NOOP("actions", "Next trajectory to review"),
          "Shift+J"),
    _spec("previous_step", QT_TRANSLATE_NOOP("actions", "Previous step of the timeline"),
          "H"),
    _spec("next_step", QT_TRANSLATE_NOOP("actions", "Next step of the timeline"), "L"),
    _spec("to_review_only", QT_TRANSLATE_NOOP("actions", "Only trajectories to review"),
          "T", checkable=True),
    _spec("choose_run", QT_TRANSLATE_NOOP("actions", "Choose the run"), "R"),
)

__all__ = ["QT_TRANSLATE_NOOP", "SPECS"]
