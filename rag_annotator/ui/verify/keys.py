"""Commands and shortcuts of the Verify section.

Covers: verdicts, claims, evidence, citations, answer review, structured answers.

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut).  The titles of this area's history actions are in the one
registry, ``domain/action_names.py``.

The key scheme (single letters act on the current claim, like the Judge section's keys; the
Ctrl+Shift ones edit claims; Space acts on the review list when it has the focus):

===========  =====================================================================
s / n / c    supported / not supported / contradicted, then the next unverified claim
u            back to unverified
j / k        next / previous claim (Shift+J / Shift+K: next / previous answer)
o            the list of all answers (Enter opens the selected one; O again: the case)
b            show / hide the other assessors' and the judges' verdicts (blind by default)
w            write the rationale (Enter or leaving the field saves it; Esc goes back)
F2           edit the claim's text (Enter saves); Ctrl+Shift+T splits it at the cursor
Ctrl+Shift+M merge the claim with the next one; Ctrl+Shift+D deletes it
Ctrl+Shift+A add a claim: the words selected in the answer, else a typed text
h / l        previous / next retrieved context (document)
F6           focus the claims, then the context, then the answer (select words there with
             Shift and the arrow keys; the verdict keys keep working)
e            bind the words selected in the context to the claim as evidence
Shift+E      remove the claim's last evidence span
t            next citation (its marker is boxed in the answer, its document shown)
y / p / x    the cited passage supports what it is attached to: yes / partly / no (the
             same key again clears it); a citation of a document the case's role may not
             read is flagged in the citations list and above the context
r            go to the answer review list; Space changes the selected item
g            agreement with an automatic judge (confusion matrix, kappa, disagreements)
d            the structured answer (a case with an output contract): the answer as a tree
f / Shift+F  next / previous decisive field of the structured answer
v            confirm the decisive field's outcome (the same key again clears it)
Shift+V      overrule the decisive field's outcome (asks the reason)
Ctrl+Shift+V check the structured answers again (all runs)
q            review queue of a judge's random sample (blind: the judge's verdict shows only
             once yours is given); q again leaves it
Shift+Q      draw a judge's review sample (judge, level, size or half-width, seed),
             then open its queue
===========  =====================================================================
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP


def _spec(action_id: str, label: str, *keys: str, checkable: bool = False) -> ActionSpec:
    return ActionSpec(f"verify.{action_id}", label, keys, "verify", checkable)


SPECS: tuple[ActionSpec, ...] = (
    _spec("supported", QT_TRANSLATE_NOOP("actions", "Claim supported"), "S"),
    _spec("not_supported", QT_TRANSLATE_NOOP("actions", "Claim not supported"), "N"),
    _spec("contradicted", QT_TRANSLATE_NOOP("actions", "Claim contradicted"), "C"),
    _spec("unverified", QT_TRANSLATE_NOOP("actions", "Claim back to unverified"), "U"),
    _spec("next", QT_TRANSLATE_NOOP("actions", "Next claim"), "J"),
    _spec("previous", QT_TRANSLATE_NOOP("actions", "Previous claim"), "K"),
    _spec("next_answer", QT_TRANSLATE_NOOP("actions", "Next answer"), "Shift+J"),
    _spec("previous_answer", QT_TRANSLATE_NOOP("actions", "Previous answer"), "Shift+K"),
    _spec("show_others", QT_TRANSLATE_NOOP("actions", "Show others' and judges' verdicts"),
          "B", checkable=True),
    _spec("rationale", QT_TRANSLATE_NOOP("actions", "Write the rationale"), "W"),
    _spec("edit_claim", QT_TRANSLATE_NOOP("actions", "Edit the claim's text"), "F2"),
    _spec("split_claim", QT_TRANSLATE_NOOP("actions", "Split the claim at the cursor"),
          "Ctrl+Shift+T"),
    _spec("merge_claims", QT_TRANSLATE_NOOP("actions", "Merge the claim with the next"),
          "Ctrl+Shift+M"),
    _spec("delete_claim", QT_TRANSLATE_NOOP("actions", "Delete the claim"), "Ctrl+Shift+D"),
    _spec("add_claim", QT_TRANSLATE_NOOP("actions", "Add a claim"), "Ctrl+Shift+A"),
    _spec("next_pane", QT_TRANSLATE_NOOP(
        "actions", "Focus the claims, the context or the answer (to select words)"), "F6"),
    _spec("previous_context", QT_TRANSLATE_NOOP("actions", "Previous context"), "H"),
    _spec("next_context", QT_TRANSLATE_NOOP("actions", "Next context"), "L"),
    _spec("add_evidence", QT_TRANSLATE_NOOP("actions", "Selected words are evidence"), "E"),
    _spec("remove_evidence", QT_TRANSLATE_NOOP("actions", "Remove the last evidence"),
          "Shift+E"),
    _spec("next_citation", QT_TRANSLATE_NOOP("actions", "Next citation"), "T"),
    _spec("citation_yes", QT_TRANSLATE_NOOP("actions", "Citation supports it"), "Y"),
    _spec("citation_partly", QT_TRANSLATE_NOOP("actions", "Citation partly supports it"),
          "P"),
    _spec("citation_no", QT_TRANSLATE_NOOP("actions", "Citation does not support it"), "X"),
    _spec("answers", QT_TRANSLATE_NOOP("actions", "List of all answers"), "O"),
    _spec("review", QT_TRANSLATE_NOOP("actions", "Answer review"), "R"),
    _spec("review_cycle", QT_TRANSLATE_NOOP("actions", "Change the review item"), "Space"),
    _spec("calibration", QT_TRANSLATE_NOOP("actions", "Agreement with a judge"), "G"),
    _spec("structured", QT_TRANSLATE_NOOP("actions", "Structured answer (decisive fields)"),
          "D"),
    _spec("next_field", QT_TRANSLATE_NOOP("actions", "Next decisive field"), "F"),
    _spec("previous_field", QT_TRANSLATE_NOOP("actions", "Previous decisive field"),
          "Shift+F"),
    _spec("confirm_field", QT_TRANSLATE_NOOP("actions", "Confirm the field's outcome"), "V"),
    _spec("overrule_field", QT_TRANSLATE_NOOP("actions", "Overrule the field's outcome…"),
          "Shift+V"),
    _spec("check_structured", QT_TRANSLATE_NOOP("actions", "Check structured answers again"),
          "Ctrl+Shift+V"),
    _spec("draw_sample", QT_TRANSLATE_NOOP("actions", "Draw a Review Sample…"), "Shift+Q"),
    _spec("sample_queue", QT_TRANSLATE_NOOP("actions", "Review a judge's sample (blind)"),
          "Q", checkable=True),
)

__all__ = ["QT_TRANSLATE_NOOP", "SPECS"]
