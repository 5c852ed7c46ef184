"""Long lists in reports cut for people: a forged file with a million bad rows must not
print a million warning lines (nor a dialog a million lines of details).  The report keeps
every item; only what is shown is cut (column and field names in one line:
:func:`rag_annotator.import_export.tabular.few_names`)."""

from __future__ import annotations

from collections.abc import Sequence

#: Items shown before the rest is counted.
SHOWN = 20


def few_lines(items: Sequence[str], n: int = SHOWN, *, width: int = 300) -> list[str]:
    """The first ``n`` items (each cut to ``width`` characters), then one line saying how
    many more there are."""
    shown = [item if len(item) <= width else item[:width - 1] + "…" for item in items[:n]]
    if len(items) > n:
        shown.append(f"… and {len(items) - n:,} more ({len(items):,} in all)")
    return shown
