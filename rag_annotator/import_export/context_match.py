"""Which document a retrieved context (a chunk's text) came from, and where in it.

Evaluation tools log the texts their retriever returned, not ids.  Against a real knowledge
base those texts rarely equal a document's: the chunk is a *part* of the document, read by
another parser (pypdf, pdfminer, a Markdown rendering: hyphenation, ligatures, line breaks,
running headers, ``[text](target)``), and a splitter may have cut a word in two.  Exact
matching found 0 of 150 retrieved contexts of a real evaluation.

A context is matched, in this order:

1. ``exact``: a document (or a passage already kept) with the same text;
2. *located* by :class:`~.chunk_locator.ChunkLocator` in one corpus document: ``exact``,
   ``normalised`` or ``fuzzy`` (with its score), with its span in that document's text.
   The importer keeps it as a *passage* of the document (:mod:`passages`), unless the
   span is the whole document, or the chunk matched as well elsewhere (its page is then
   unknown: the document itself when every place is in it, else the first by key);
3. as a whole document, by plain words (Markdown, punctuation and case set aside):
   ``contained`` when a document's words are a run of the context's (a chunk merging
   several documents), or the context's, but for the first and last word a splitter may
   have cut, a run of a document's; ``mostly`` when at least :data:`MIN_SHARE` of the
   characters of its paragraphs of 4 words or more are paragraphs of one document (a
   prepended metadata header, boilerplate the loader added).

Several documents matching equally: the first by key (counted, reported by the importer).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from rag_annotator.import_export.chunk_locator import ChunkLocator, Located

#: Share of a context's paragraph characters that must be found in one document for a
#: ``mostly`` match (a header or boilerplate of up to a third of the chunk is tolerated).
MIN_SHARE = 0.66

#: A paragraph shorter than this many words says nothing about its source ("Note", "Feedback").
MIN_PARAGRAPH_WORDS = 4

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
_REF_LINK = re.compile(r"\[([^\]]*)\]\[[^\]]*\]")
_DIRECTIVE = re.compile(r"\[!(?:INCLUDE|VIDEO|NOTE|TIP|IMPORTANT|WARNING|CAUTION)[^\]]*\]"
                        r"(?:\([^)]*\))?",
                        re.IGNORECASE)
_FENCE = re.compile(r"^[ \t]*(?:```|~~~).*$", re.MULTILINE)  # its language tag is no text
_TAG = re.compile(r"<[^>\n]{1,200}>")
_WORD = re.compile(r"\w+")


def plain_words(text: str) -> list[str]:
    """The words of a text once its Markdown is gone: what two copies of one passage share
    whatever their loader kept of the syntax."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n")
    text = _FRONT_MATTER.sub("", text)
    text = _DIRECTIVE.sub(" ", text)
    text = _FENCE.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _TAG.sub(" ", text)
    return _WORD.findall(text.casefold().replace("_", " "))


def plain(text: str) -> str:
    """:func:`plain_words` as one string, words separated by one space."""
    return " ".join(plain_words(text))


@dataclass
class Match:
    """The document a context came from and how it was found; ``span`` is its place in
    that document's text when it was located there as a part (None: the document as a
    whole), ``score`` the fuzzy match's (100 for the others)."""

    key: str
    how: str  # by id | exact | normalised | fuzzy | contained | mostly | added
    several: bool = False  # other documents matched as well (this is the first by key)
    span: tuple[int, int] | None = None
    score: float = 100.0
    #: found at several places (of this document, or of others too): kept as the document
    repeated: bool = False

    @property
    def located(self) -> bool:
        """The context was found at one place of a document's text."""
        return self.span is not None


@dataclass
class ContextMatcher:
    """An index over the documents' texts, built once per import.  ``searched``: the keys
    of the documents a chunk is located in (None: all of them); a passage or a context kept
    as a document is matched by its whole text only."""

    documents: list[tuple[str, str]]  # (key, text), in key order
    searched: Collection[str] | None = None
    _exact: dict[str, list[str]] = field(default_factory=dict)
    _plain: dict[str, str] = field(default_factory=dict)
    _by_plain: dict[str, list[str]] = field(default_factory=dict)
    _words: dict[str, set[str]] = field(default_factory=dict)
    _postings: dict[str, list[str]] = field(default_factory=dict)
    _locator: ChunkLocator | None = None

    def __post_init__(self) -> None:
        searched = self.searched
        corpus = [(k, t) for k, t in self.documents if searched is None or k in searched]
        self._locator = ChunkLocator(corpus) if corpus else None
        for key, text in sorted(self.documents):
            self._exact.setdefault(text, []).append(key)
            if searched is not None and key not in searched:
                continue
            words = plain_words(text)
            flat = " ".join(words)
            self._plain[key] = f" {flat} "
            self._by_plain.setdefault(flat, []).append(key)
            self._words[key] = set(words)
            for word in self._words[key]:
                self._postings.setdefault(word, []).append(key)

    def add(self, key: str, text: str) -> None:
        """A document added during the import (an unmatched context kept as a document)."""
        self._exact.setdefault(text, []).append(key)
        self._by_plain.setdefault(plain(text), []).append(key)

    def match(self, text: str) -> Match | None:
        """The document ``text`` came from, or None."""
        found = self._exact.get(text)
        if found:
            return Match(found[0], "exact", len(found) > 1)
        located = self._locator.locate(text) if self._locator is not None else None
        if located is not None:
            return _from_located(located)
        words = plain_words(text)
        if not words:
            return None
        found = self._by_plain.get(" ".join(words))
        if found:
            return Match(found[0], "normalised", len(found) > 1)
        return self._contained(words) or self._mostly(text)

    def located_in(self) -> int:
        """How many documents chunks are located in."""
        return 0 if self._locator is None else self._locator.size

    def _candidates(self, words: Iterable[str]) -> list[str]:
        """Documents holding the rarest of these words (all when the words are common)."""
        known = [w for w in set(words) if w in self._postings]
        if not known:
            return []
        rarest = sorted(known, key=lambda w: len(self._postings[w]))[:3]
        keys = set(self._postings[rarest[0]])
        for word in rarest[1:]:
            keys &= set(self._postings[word])
        return sorted(keys)

    def _contained(self, words: list[str]) -> Match | None:
        core = words[1:-1] if len(words) > 6 else words  # a splitter may cut the end words
        needle = f" {' '.join(core)} "
        inside = [k for k in self._candidates(core) if needle in self._plain[k]]
        if inside:
            return Match(inside[0], "contained", len(inside) > 1)
        haystack = f" {' '.join(words)} "
        have = set(words)
        around = [k for k, doc_words in self._words.items()
                  if doc_words and doc_words <= have and self._plain[k] in haystack]
        if around:
            return Match(sorted(around)[0], "contained", len(around) > 1)
        return None

    def _mostly(self, text: str) -> Match | None:
        pieces = [p for p in (plain_words(part) for part in re.split(r"\n\s*\n|\n(?=#)", text))
                  if len(p) >= MIN_PARAGRAPH_WORDS]
        total = sum(len(" ".join(p)) for p in pieces)
        if not total:
            return None
        scores: dict[str, int] = {}
        for piece in pieces:
            core = piece[1:-1] if len(piece) > 6 else piece
            needle = f" {' '.join(core)} "
            for key in self._candidates(core):
                if needle in self._plain[key]:
                    scores[key] = scores.get(key, 0) + len(" ".join(piece))
        if not scores:
            return None
        best = max(scores.values())
        if best < MIN_SHARE * total:
            return None
        winners = sorted(k for k, s in scores.items() if s == best)
        return Match(winners[0], "mostly", len(winners) > 1)


def _from_located(found: Located) -> Match:
    """A located chunk as a match: a passage of its document when its place is known and
    is not the whole document."""
    if found.whole or found.several:
        # the whole document; or several places (its page is unknown): the document when
        # every place is in it, else the first by key, reported as several
        return Match(found.key, found.how, bool(found.others), None, found.score,
                     found.several)
    return Match(found.key, found.how, False, (found.start, found.end), found.score)
