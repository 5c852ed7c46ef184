"""Commands and shortcuts of the Judge section: labels, moving between pairs and cases, the
panels beside the pair, the pool.

``SPECS`` joins the action registry (menus, shortcuts, cheat sheet; README's keyboard table
must list every shortcut).  The titles of this area's history actions are in the one
registry, ``domain/action_names.py``.  Single keys act on the current pair, so judging
needs no mouse.
"""

from __future__ import annotations

from rag_annotator.ui.action_spec import ActionSpec
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP

SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("judge.relevant", QT_TRANSLATE_NOOP("actions", "Relevant"), ("1",), "judge"),
    ActionSpec("judge.not_relevant", QT_TRANSLATE_NOOP("actions", "Not relevant"), ("0",),
               "judge"),
    ActionSpec("judge.grade2", QT_TRANSLATE_NOOP("actions", "Relevant, grade 2 (graded scale)"),
               ("2",), "judge"),
    ActionSpec("judge.grade3", QT_TRANSLATE_NOOP("actions", "Relevant, grade 3 (graded scale)"),
               ("3",), "judge"),
    ActionSpec("judge.unjudged", QT_TRANSLATE_NOOP("actions", "Back to unjudged"), ("U",),
               "judge"),
    ActionSpec("judge.cant_judge", QT_TRANSLATE_NOOP("actions", "Can’t judge (with a reason)…"),
               ("X",), "judge"),
    ActionSpec("judge.previous", QT_TRANSLATE_NOOP("actions", "Previous pair"), ("K",),
               "judge"),
    ActionSpec("judge.next", QT_TRANSLATE_NOOP("actions", "Next pair"), ("J",), "judge"),
    ActionSpec("judge.next_case", QT_TRANSLATE_NOOP("actions", "Next case"), ("N",), "judge"),
    ActionSpec("judge.previous_case", QT_TRANSLATE_NOOP("actions", "Previous case"), ("P",),
               "judge"),
    ActionSpec("judge.settle", QT_TRANSLATE_NOOP("actions", "Next pair that settles a metric"),
               ("S",), "judge"),
    ActionSpec("judge.note", QT_TRANSLATE_NOOP("actions", "Note on this pair"), ("E",),
               "judge"),
    ActionSpec("judge.show_others", QT_TRANSLATE_NOOP("actions", "Show others' labels"),
               ("B",), "judge", checkable=True),
    ActionSpec("judge.reference", QT_TRANSLATE_NOOP("actions", "Show the reference answer"),
               ("R",), "judge", checkable=True),
    ActionSpec("judge.guidelines", QT_TRANSLATE_NOOP("actions", "Show the guidelines"),
               ("G",), "judge", checkable=True),
    ActionSpec("judge.adjudicate", QT_TRANSLATE_NOOP("actions", "Adjudication queue"),
               ("D",), "judge", checkable=True),
    ActionSpec("judge.sample_queue", QT_TRANSLATE_NOOP("actions", "Sample review queue"),
               ("Q",), "judge", checkable=True),
    ActionSpec("judge.pool", QT_TRANSLATE_NOOP("actions", "Choose the Pool…"), (), "judge"),
)
