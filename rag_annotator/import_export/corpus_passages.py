"""A new version of a document and the passages runs found in the old one.

A passage (a retrieved chunk kept as a part of a corpus document) holds its place in its
document's text as offsets.  When a corpus re-import gives the document a new text, those
offsets point into the old text: each passage is looked for again in the new version with
the locator the run imports use (exact, then its letters, then a fuzzy alignment), inside
the import's operation (one undo takes it back with the rest):

* found at one place: its span, how it was found and the score are updated, and its key
  follows its new place (``policy#1200-1850`` → ``policy#1310-1960``) so the next run that
  retrieves the same chunk finds it, unless a passage already has that key;
* not found (the new version no longer says it), or found at several places: it keeps its
  old place, and the import's report names it: its page is the old version's.

Its text, judgments and parent never change: the passage is what the system retrieved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rag_annotator.domain.ports import Writer
from rag_annotator.import_export.chunk_locator import ChunkLocator
from rag_annotator.import_export.passages import passage_key


@dataclass
class Relocated:
    """What became of the passages of documents that changed."""

    moved: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    #: Per changed document key: (passages found again, passages not found).
    by_document: dict[str, tuple[int, int]] = field(default_factory=dict)


def relocate_passages(op: Writer, changed: Mapping[int, str]) -> Relocated:
    """Look for the passages of each changed document (id → its key) in its new text."""
    out = Relocated()
    taken: set[str] | None = None
    for parent_id, parent_key in changed.items():
        passages = [row for row in op.select("documents", parent_id=parent_id)
                    if row["span_start"] is not None]
        if not passages:
            continue
        parent = op.get("documents", {"id": parent_id})
        assert parent is not None
        locator = ChunkLocator([(parent_key, str(parent["text"]))])
        found = lost = 0
        if taken is None:  # every key, read once: a passage's new key must be free
            taken = set(op.ids_by_key("documents"))
        for row in passages:
            located = locator.locate(str(row["text"]))
            if located is None or located.several:
                out.kept.append(str(row["key"]))
                lost += 1
                continue
            values: dict[str, object] = {
                "span_start": located.start, "span_end": located.end, "located": located.how,
                "match_score": located.score}
            key = passage_key(parent_key, located.start, located.end)
            if key != row["key"] and key not in taken:
                values["key"] = key
                taken.add(key)
            op.update("documents", {"id": row["id"]}, values)
            out.moved.append(str(values.get("key", row["key"])))
            found += 1
        out.by_document[parent_key] = (found, lost)
    return out
