"""Every history action code of the application with its English title: the one registry.

The history (``operations.action``), the undo stack's texts, the History section and the
tests all read their titles here.  The UI shows them translated: each title is marked with
:func:`QT_TRANSLATE_NOOP` in the ``labels`` context, so ``pyside6-lupdate`` (run over this file
too by ``scripts/update_translations.sh``) extracts them, and ``ui.labels.action_title``
translates them.  An operation that records a new action code adds its title here, in its
area's block; nothing else does.

This module imports nothing from the application (the core operations once held their codes
and imported this module back: a cycle).
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation in ``context`` (read by lupdate; Qt-free: returns it)."""
    return text


# Core operations (``domain/operations.py``): settings, cases, documents, runs, judging,
# claims, imports, undo.
CORE_ACTION_NAMES: dict[str, str] = {
    "set_meta": QT_TRANSLATE_NOOP("labels", "Edit gold-set settings"),
    "set_graded_scale": QT_TRANSLATE_NOOP("labels", "Set the grading scale"),
    "set_pool": QT_TRANSLATE_NOOP("labels", "Choose the judging pool"),
    "create_case": QT_TRANSLATE_NOOP("labels", "New case"),
    "edit_case": QT_TRANSLATE_NOOP("labels", "Edit case"),
    "delete_case": QT_TRANSLATE_NOOP("labels", "Delete case"),
    "add_expected_source": QT_TRANSLATE_NOOP("labels", "Add expected source"),
    "remove_expected_source": QT_TRANSLATE_NOOP("labels", "Remove expected source"),
    "set_expected_source_note": QT_TRANSLATE_NOOP("labels", "Note on an expected source"),
    "create_document": QT_TRANSLATE_NOOP("labels", "New document"),
    "edit_document": QT_TRANSLATE_NOOP("labels", "Edit document"),
    "delete_document": QT_TRANSLATE_NOOP("labels", "Delete document"),
    "create_run": QT_TRANSLATE_NOOP("labels", "New run"),
    "edit_run": QT_TRANSLATE_NOOP("labels", "Edit run"),
    "delete_run": QT_TRANSLATE_NOOP("labels", "Delete run"),
    "set_judgment": QT_TRANSLATE_NOOP("labels", "Judge"),
    "set_adjudication": QT_TRANSLATE_NOOP("labels", "Adjudicate"),
    "merge": QT_TRANSLATE_NOOP("labels", "Merge"),
    "set_claim_verdict": QT_TRANSLATE_NOOP("labels", "Verify claim"),
    "add_claim": QT_TRANSLATE_NOOP("labels", "Add claim"),
    "edit_claim": QT_TRANSLATE_NOOP("labels", "Edit claim"),
    "delete_claim": QT_TRANSLATE_NOOP("labels", "Delete claim"),
    "set_citation_support": QT_TRANSLATE_NOOP("labels", "Check citation"),
    "set_answer_review": QT_TRANSLATE_NOOP("labels", "Review answer"),
    "load_sample": QT_TRANSLATE_NOOP("labels", "Load sample"),
    "import_run": QT_TRANSLATE_NOOP("labels", "Import run"),
    "import_qrels": QT_TRANSLATE_NOOP("labels", "Import judgments"),
    "undo": QT_TRANSLATE_NOOP("labels", "Undo"),
    "redo": QT_TRANSLATE_NOOP("labels", "Redo"),
    "revert": QT_TRANSLATE_NOOP("labels", "Revert"),
}

# The gold set and corpus: case editor, bulk edits, releases, review queue, imports.
GOLDSET_ACTION_NAMES: dict[str, str] = {
    "bulk_set_family": QT_TRANSLATE_NOOP("labels", "Change the family of cases"),
    "bulk_set_status": QT_TRANSLATE_NOOP("labels", "Change the status of cases"),
    "bulk_edit_tags": QT_TRANSLATE_NOOP("labels", "Change the tags of cases"),
    "review_case": QT_TRANSLATE_NOOP("labels", "Review a generated case"),
    "import_cases": QT_TRANSLATE_NOOP("labels", "Import cases"),
    "import_corpus": QT_TRANSLATE_NOOP("labels", "Import corpus"),
    "import_testset": QT_TRANSLATE_NOOP("labels", "Import a generated test set"),
    "freeze_release": QT_TRANSLATE_NOOP("labels", "Freeze a release"),
    "start_draft": QT_TRANSLATE_NOOP("labels", "Start a new draft version"),
    "import_file": QT_TRANSLATE_NOOP(
        "labels", "Import a file"),  # exchange: json, csv, xlsx, beir, deepeval
}

# The rights matrix: test identities, documents' rights, a replayed change applied.
RIGHTS_ACTION_NAMES: dict[str, str] = {
    "create_identity": QT_TRANSLATE_NOOP("labels", "New test identity"),
    "edit_identity": QT_TRANSLATE_NOOP("labels", "Edit test identity"),
    "delete_identity": QT_TRANSLATE_NOOP("labels", "Delete test identity"),
    "set_document_rights": QT_TRANSLATE_NOOP("labels", "Change document rights"),
    "apply_rights_change": QT_TRANSLATE_NOOP("labels", "Apply a rights change"),
}

# Answer verification: claims, evidence, citations, reviews, judge verdicts.
VERIFY_ACTION_NAMES: dict[str, str] = {
    "set_claim_rationale": QT_TRANSLATE_NOOP("labels", "Claim rationale"),
    "split_claim": QT_TRANSLATE_NOOP("labels", "Split claim"),
    "merge_claims": QT_TRANSLATE_NOOP("labels", "Merge claims"),
    "split_answer": QT_TRANSLATE_NOOP("labels", "Split answer into claims"),
    "add_evidence": QT_TRANSLATE_NOOP("labels", "Add evidence"),
    "remove_evidence": QT_TRANSLATE_NOOP("labels", "Remove evidence"),
    "import_judge_verdicts": QT_TRANSLATE_NOOP("labels", "Import a judge's verdicts"),
    "draw_review_sample": QT_TRANSLATE_NOOP("labels", "Draw a review sample of a judge"),
}

# Agent cases and trajectory reviews.
AGENT_ACTION_NAMES: dict[str, str] = {
    "import_trajectories": QT_TRANSLATE_NOOP("labels", "Import trajectories"),
    "review_trajectory": QT_TRANSLATE_NOOP("labels", "Review trajectory"),
    "confirm_trajectory": QT_TRANSLATE_NOOP("labels", "Confirm automatic checks"),
    "clear_trajectory_review": QT_TRANSLATE_NOOP("labels", "Clear trajectory review"),
}

# Output contracts and structured answers (``domain/structured_ops.py``).
STRUCTURED_ACTION_NAMES: dict[str, str] = {
    "set_output_contract": QT_TRANSLATE_NOOP("labels", "Set the output contract"),
    "check_structured": QT_TRANSLATE_NOOP("labels", "Check structured answers"),
    "review_field_outcome": QT_TRANSLATE_NOOP("labels", "Review a decisive field"),
}

# Judging as a team: campaigns, assignment files, collecting them back.
TEAM_ACTION_NAMES: dict[str, str] = {
    "create_campaign": QT_TRANSLATE_NOOP("labels", "Hand out assignments"),
    "judge_assigned": QT_TRANSLATE_NOOP("labels", "Judge an assigned pair"),
    "cannot_judge": QT_TRANSLATE_NOOP("labels", "Can't judge"),
    "collect": QT_TRANSLATE_NOOP("labels", "Collect an assignment file"),
}

ACTION_NAMES: dict[str, str] = {
    **CORE_ACTION_NAMES,
    **STRUCTURED_ACTION_NAMES,
    **TEAM_ACTION_NAMES,
    **GOLDSET_ACTION_NAMES,
    **VERIFY_ACTION_NAMES,
    **AGENT_ACTION_NAMES,
    **RIGHTS_ACTION_NAMES,
}


def action_title(action: str) -> str:
    """English title of an action code (the code itself if unknown)."""
    return ACTION_NAMES.get(action, action)
