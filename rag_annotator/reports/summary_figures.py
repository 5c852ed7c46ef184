"""What the manager's summary takes from the intervals and the drift (``metrics``), shaped
for ``reports.workbook``: the runs in the order they were made with their version fields, a
share's or a mean's interval, and the drift block.

Kept apart so that the summary's layout (``workbook``) does not depend on how the interval
and drift functions are spelt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rag_annotator.reports.run_figures import RunFigures
from rag_annotator.storage.reads_exchange import Scope
from rag_annotator.storage.store import GoldSetStore

Interval = tuple[float | None, float | None]


def run_versions(store: GoldSetStore, scope: Scope | None = None) -> list[dict[str, Any]]:
    """Every run (within ``scope``) with its version fields, in the order they were made."""
    columns, rows = store.entity_rows("runs", scope)
    runs = [dict(zip(columns, row)) for row in rows]
    return sorted(runs, key=lambda r: str(r["created_at"] or ""))


def run_order(store: GoldSetStore) -> list[str]:
    """Run names in the order the runs were made."""
    return [str(r["name"]) for r in run_versions(store)]


def share_interval(k: int, n: int, level: float) -> Interval:
    """The Wilson interval of ``k`` / ``n`` at ``level`` (None, None when ``n`` is 0)."""
    return None, None


def mean_interval(figures: RunFigures, measure: str, level: float) -> Interval:
    """The bootstrap interval of a run's mean of ``measure`` (None, None when undefined)."""
    return None, None


def drift_block(store: GoldSetStore, figures: Sequence[RunFigures],
                t: Callable[[str], str], level: float) -> Any:
    """The drift across runs as a summary block (None with fewer than two runs)."""
    return None


def drift_chart(store: GoldSetStore, figures: Sequence[RunFigures],
                t: Callable[[str], str], level: float) -> Any:
    """The drift as a line chart (None with fewer than two runs)."""
    return None
