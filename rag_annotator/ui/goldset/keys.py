"""Commands and shortcuts of the Gold set and Corpus sections.

Covers: case editor, review queue, releases.

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut).  The titles of this area's history actions are in the one
registry, ``domain/action_names.py``.

Shortcuts avoid what text fields use (Ctrl+arrows, Ctrl+Shift+arrows select words) and the
menu bar's mnemonics (Alt+F, E, V, S, H), so they work while a field of the editor has focus.
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("goldset.new_case", QT_TRANSLATE_NOOP("actions", "New case"),
               ("Ctrl+Shift+N",), "goldset"),
    ActionSpec("goldset.next_case", QT_TRANSLATE_NOOP("actions", "Next case"), ("Alt+Down",),
               "goldset"),
    ActionSpec("goldset.previous_case", QT_TRANSLATE_NOOP("actions", "Previous case"),
               ("Alt+Up",), "goldset"),
    ActionSpec("goldset.status_next", QT_TRANSLATE_NOOP(
        "actions", "Next status (draft → reviewed → approved → retired)"), ("Alt+Right",),
        "goldset"),
    ActionSpec("goldset.status_previous", QT_TRANSLATE_NOOP("actions", "Previous status"),
               ("Alt+Left",), "goldset"),
    ActionSpec("goldset.focus_list", QT_TRANSLATE_NOOP("actions", "Go to the case list"),
               ("Alt+L",), "goldset"),
    ActionSpec("goldset.focus_question", QT_TRANSLATE_NOOP("actions", "Go to the question"),
               ("Alt+Q",), "goldset"),
    ActionSpec("goldset.focus_answer", QT_TRANSLATE_NOOP(
        "actions", "Go to the reference answer (agent case: the expected final state)"),
               ("Alt+A",), "goldset"),
    ActionSpec("goldset.focus_must", QT_TRANSLATE_NOOP(
        "actions", "Go to must contain (agent case: the forbidden tools)"),
               ("Alt+M",), "goldset"),
    ActionSpec("goldset.focus_tags", QT_TRANSLATE_NOOP("actions", "Go to the tags"),
               ("Alt+T",), "goldset"),
    ActionSpec("goldset.focus_notes", QT_TRANSLATE_NOOP("actions", "Go to the notes"),
               ("Alt+N",), "goldset"),
    ActionSpec("goldset.add_source", QT_TRANSLATE_NOOP("actions", "Add an expected source…"),
               ("Ctrl+Shift+O",), "goldset"),
    ActionSpec("goldset.remove_source", QT_TRANSLATE_NOOP(
        "actions", "Remove the expected source (in the sources list)"), ("Del",), "goldset"),
    ActionSpec("goldset.show_source", QT_TRANSLATE_NOOP(
        "actions", "Show the expected source, its passage highlighted (in the sources list)"),
               ("Return", "Enter"), "goldset"),
    ActionSpec("goldset.edit_source_note", QT_TRANSLATE_NOOP(
        "actions", "Write the note of the expected source (in the sources list)"), ("F2",),
               "goldset"),
    ActionSpec("goldset.bulk_edit", QT_TRANSLATE_NOOP(
        "actions", "Change family, tags or status of the selected cases…"),
        ("Ctrl+Shift+B",), "goldset"),
    ActionSpec("goldset.delete_case", QT_TRANSLATE_NOOP("actions", "Delete the case"),
               ("Ctrl+Shift+Del",), "goldset"),
    ActionSpec("goldset.coverage", QT_TRANSLATE_NOOP("actions", "Coverage grid…"),
               ("Ctrl+Shift+G",), "goldset"),
    ActionSpec("goldset.review_queue", QT_TRANSLATE_NOOP("actions", "Review queue…"),
               ("Ctrl+Shift+E",), "goldset"),
    ActionSpec("goldset.releases", QT_TRANSLATE_NOOP("actions", "Releases…"),
               ("Ctrl+Shift+R",), "goldset"),
    ActionSpec("goldset.output_contract", QT_TRANSLATE_NOOP(
        "actions", "Output contract of the case (structured answers)…"), ("Ctrl+Shift+K",),
        "goldset"),
    ActionSpec("goldset.import_cases", QT_TRANSLATE_NOOP("actions", "Import cases…"),
               ("Ctrl+Shift+I",), "goldset"),
    ActionSpec("goldset.import_testset", QT_TRANSLATE_NOOP(
        "actions", "Import a generated test set (Ragas)…"), (), "goldset"),
    ActionSpec("corpus.import", QT_TRANSLATE_NOOP("actions", "Import a corpus…"), (),
               "goldset"),
    ActionSpec("corpus.find_in_text", QT_TRANSLATE_NOOP(
        "actions", "Corpus: find in the document's text"), ("Ctrl+Shift+F",), "goldset"),
    # a window command ("go"): it reaches the Corpus's rights matrix from any section
    ActionSpec("corpus.rights_matrix", QT_TRANSLATE_NOOP(
        "actions", "Corpus: rights matrix (documents × identities)"), ("Ctrl+Shift+X",),
        "go"),
    ActionSpec("corpus.rights_toggle", QT_TRANSLATE_NOOP(
        "actions", "Rights matrix: allow or forbid the cell's identity"), ("Space",),
        "goldset"),
    ActionSpec("corpus.rights_replay", QT_TRANSLATE_NOOP(
        "actions", "Rights matrix: what if a group is removed…"), ("Ctrl+Shift+P",),
        "goldset"),
    ActionSpec("review.accept", QT_TRANSLATE_NOOP("actions", "Review queue: accept"), ("A",),
               "goldset"),
    ActionSpec("review.edit", QT_TRANSLATE_NOOP("actions", "Review queue: edit, then accept"),
               ("E",), "goldset"),
    ActionSpec("review.reject", QT_TRANSLATE_NOOP("actions", "Review queue: reject"), ("R",),
               "goldset"),
    ActionSpec("review.next", QT_TRANSLATE_NOOP("actions", "Review queue: next case"),
               ("J",), "goldset"),
    ActionSpec("review.previous", QT_TRANSLATE_NOOP("actions", "Review queue: previous case"),
               ("K",), "goldset"),
)

__all__ = ["QT_TRANSLATE_NOOP", "SPECS"]
