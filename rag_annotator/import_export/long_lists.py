"""Long lists in reports cut for people: a forged file with a million bad rows must not
print a million warning lines (nor a dialog a million lines of details).  The report keeps
every item; only what is shown is cut (column and field names in one line:
:func:`rag_annotator.import_export.tabular.few_names`)."""

from __future__ import annotations

from collections.abc import Sequence

from rag_annotator.messages import Message, render_any

#: Items shown before the rest is counted.
SHOWN = 20


def few_lines(items: Sequence[object], n: int = SHOWN, *, width: int = 300) -> list[str]:
    """The first ``n`` items in the reader's language (each cut to ``width`` characters),
    then one line saying how many more there are."""
    texts = [render_any(item) for item in items[:n]]
    shown = [text if len(text) <= width else text[:width - 1] + "…" for text in texts]
    if len(items) > n:
        shown.append(Message("… and {more:,} more ({total:,} in all)", more=len(items) - n,
                             total=len(items)).render())
    return shown
