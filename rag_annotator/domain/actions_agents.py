"""History action codes of agent cases and trajectory reviews, with their English titles.

Kept apart from ``operations.py`` so each area declares its own actions; they are gathered in
:data:`rag_annotator.domain.action_names.ACTION_NAMES`.
"""

from __future__ import annotations

ACTION_NAMES: dict[str, str] = {
    "import_trajectories": "Import trajectories",
    "review_trajectory": "Review trajectory",
    "confirm_trajectory": "Confirm automatic checks",
    "clear_trajectory_review": "Clear trajectory review",
}
