"""History action codes of the gold set and corpus, with their English titles.

Covers: case editor, bulk edits, releases, review queue, imports.

Kept apart from ``operations.py`` so each area declares its own actions; they are gathered in
:data:`rag_annotator.domain.action_names.ACTION_NAMES`.
"""

from __future__ import annotations

ACTION_NAMES: dict[str, str] = {}
