"""Passages: the chunks a run retrieved, kept as parts of the corpus documents they were
found in, and what an import says about how its chunks were found.

A RAG system retrieves several chunks of one document for one question as a rule.  Each
chunk located at one place of a corpus document (:mod:`context_match`) becomes a *passage*:
a document of its own whose ``parent_id`` is that document, with its place there
(``span_start``, ``span_end``: offsets in the parent's text, so its page), how it was
located (``exact``, ``normalised``, ``fuzzy``) and the match score.  Its text is the chunk
as the system retrieved it (what the system saw, what the expert judges).  Its key is the
parent's key and the span (``policy#1200-1850``): two runs retrieving the same chunk of the
same document share one passage, so one judgment serves both.  It takes the parent's
owner, rights, validity, status and version (a restricted document's chunk is restricted).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.domain import validation as v
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.layout import Layout
from rag_annotator.domain.ports import Writer
from rag_annotator.import_export.context_match import Match
from rag_annotator.messages import Joined, Message, Plural

#: Between a passage's parent key and its span in the passage's key.
KEY_MARK = "#"

#: The columns a passage takes from its document.
INHERITED = ("owner", "rights", "valid_from", "valid_until", "status", "version")

#: How a chunk was located → what the report calls it.
EXACTLY = frozenset({"exact", "normalised"})
APPROXIMATELY = frozenset({"fuzzy"})


def passage_key(parent_key: str, start: int, end: int) -> str:
    """The key of the passage ``[start, end)`` of a document (stable across imports)."""
    return f"{parent_key}{KEY_MARK}{start}-{end}"


def passage_title(parent: Mapping[str, Any], start: int, text: str) -> str:
    """``Title, p. 12`` for a paged document, else ``Title: first words…``."""
    title = str(parent.get("title") or parent["key"])
    page = Layout.from_columns(parent.get("pages"), None).page_of(start)
    if page is not None:
        return f"{title}, p. {page}"
    words = re.sub(r"^[#>*+\-\s]+", "", " ".join(text.split()))  # Markdown's line marks
    return f"{title}: {words[:48]}…" if len(words) > 48 else f"{title}: {words}"


def searched_keys(rows: Iterable[Mapping[str, Any]]) -> set[str]:
    """The documents chunks are located in: corpus documents with a text, not passages."""
    return {str(r["key"]) for r in rows if r.get("parent_id") is None
            and r.get("origin", "corpus") == "corpus" and r.get("text")}


class Passages:
    """Finds or adds, inside an import's operation, the passage of each located chunk."""

    def __init__(self, op: Writer, rows: Iterable[Mapping[str, Any]]) -> None:
        self.op = op
        self.rows = {str(r["key"]): r for r in rows}
        self.added: list[str] = []
        self.now = utc_now()

    def key_for(self, match: Match, text: str) -> str:
        """The key the ranking holds for a matched chunk: its passage when it was located
        at one place of a document (added now if no import made it before), else the
        matched document's."""
        if match.span is None:
            return match.key
        start, end = match.span
        key = passage_key(match.key, start, end)
        if key in self.rows:
            return key
        parent = self.rows[match.key]
        row = {**v.document_columns({"key": key, "title": passage_title(parent, start, text),
                                     "text": text, "origin": "corpus"}),
               **{c: parent.get(c) for c in INHERITED if c in parent},
               "parent_id": int(parent["id"]), "span_start": start, "span_end": end,
               "located": match.how, "match_score": match.score,
               "created_at": self.now, "updated_at": self.now}
        self.rows[key] = self.op.insert("documents", row)
        self.added.append(key)
        return key


@dataclass
class ChunkTally:
    """How an import's retrieved chunks were found: located exactly (the same letters),
    approximately (fuzzy, with the lowest score), matched a document as a whole (the chunk
    is the document, or was found at several places of it, or matched it by its words
    only), or not found."""

    #: how many documents the chunks were searched in (0: no report, nothing to find)
    searched: int = 0
    exact: int = 0
    fuzzy: int = 0
    lowest: float | None = None
    whole: int = 0
    repeated: int = 0
    not_found: list[str] = field(default_factory=list)
    new_passages: list[str] = field(default_factory=list)

    @property
    def chunks(self) -> int:
        return self.exact + self.fuzzy + self.whole + len(self.not_found)

    def count(self, match: Match | None, text: str) -> None:
        """Count one chunk (None: not found; its first words are kept for the report)."""
        if match is None:
            self.not_found.append(" ".join(text.split())[:60])
        elif match.located and match.how in APPROXIMATELY:
            self.fuzzy += 1
            self.lowest = match.score if self.lowest is None else min(self.lowest,
                                                                       match.score)
        elif match.located or (match.how in EXACTLY and not match.repeated):
            self.exact += 1
        else:
            self.whole += 1
            self.repeated += match.repeated

    def summary(self) -> Message | None:
        """One sentence for the import's report (None when no chunk came in, or there was
        no document to find them in)."""
        if not self.chunks or not self.searched:
            return None
        located = self.exact + self.fuzzy
        parts: list[Any] = [Message("{n} exactly", n=self.exact)]
        if self.fuzzy:
            parts.append(Message("{n} approximately, lowest score {score:.1f}",
                                 n=self.fuzzy, score=self.lowest or 0.0))
        sentence: Message = Plural(
            "{located} of {n} chunk located in the documents ({how})",
            "{located} of {n} chunks located in the documents ({how})",
            self.chunks, located=located, how=Joined(parts, ", "))
        if self.whole:
            sentence = Message("{sentence}; {more}", sentence=sentence, more=Plural(
                "{n} matched a whole document", "{n} matched a whole document", self.whole))
        if self.not_found:
            sentence = Message("{sentence}; {more}", sentence=sentence, more=Plural(
                "{n} was not found", "{n} were not found", len(self.not_found)))
        return sentence

    def warnings(self) -> list[Message]:
        """The details: passages added, chunks found at several places (each importer
        lists the chunks it did not find in its own words: left out, or kept as documents)."""
        out: list[Message] = []
        if self.new_passages:
            out.append(Plural("{n} new passage of corpus documents: {few}",
                              "{n} new passages of corpus documents: {few}",
                              len(self.new_passages), few=_few(self.new_passages)))
        if self.repeated:
            out.append(Plural(
                "{n} chunk was found at several places; it is kept as its document "
                "(its page is not known)",
                "{n} chunks were found at several places; each is kept as its document "
                "(their pages are not known)", self.repeated))
        return out


def expected_spans(matches: Iterable[Match]) -> list[tuple[str, tuple[int, int] | None]]:
    """A case's reference contexts as expected sources: one per document, in order of
    first mention, with the context's span when it is the one context located in it (the
    document as a whole otherwise: expected sources are documents)."""
    spans: dict[str, list[tuple[int, int] | None]] = {}
    for match in matches:
        spans.setdefault(match.key, []).append(match.span)
    return [(key, found[0] if len(found) == 1 else None) for key, found in spans.items()]


def _few(items: list[str], n: int = 5) -> str:
    return ", ".join(items[:n]) + (", …" if len(items) > n else "")
