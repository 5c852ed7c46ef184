"""History action codes of the gold set and corpus, with their English titles.

Covers: case editor, bulk edits, releases, review queue, imports.

Kept apart from ``operations.py`` so each area declares its own actions; they are gathered in
:data:`rag_annotator.domain.action_names.ACTION_NAMES`.
"""

from __future__ import annotations

ACTION_NAMES: dict[str, str] = {
    "bulk_set_family": "Change the family of cases",
    "bulk_set_status": "Change the status of cases",
    "bulk_edit_tags": "Change the tags of cases",
    "review_case": "Review a generated case",
    "import_cases": "Import cases",
    "import_corpus": "Import corpus",
    "import_testset": "Import a generated test set",
    "freeze_release": "Freeze a release",
    "start_draft": "Start a new draft version",
    "import_file": "Import a file",  # exchange: json, csv, xlsx, beir, deepeval
}
