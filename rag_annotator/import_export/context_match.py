"""Which document a retrieved context (a chunk's text) came from.

Evaluation tools log the texts their retriever returned, not ids.  Against a real knowledge
base those texts rarely equal a document's: the chunk is a *part* of the document, Ragas and
the loaders strip Markdown (``[text](target.md)`` becomes ``[text](target)`` or ``text``,
``+`` bullets become ``*``, front matter and ``[!INCLUDE]`` lines vanish), pipelines prepend
a header (a title, "Feedback", a source line) and a fixed-size splitter cuts words in two.
Exact matching found 0 of 150 retrieved contexts of a real evaluation (issue 18).

So a context is compared as *plain words*: Markdown syntax, link targets, HTML tags and
punctuation removed, Unicode NFC, case folded.  It matches, in this order:

1. ``exact``: a document with the same text;
2. ``normalised``: the same plain words (:func:`runs_jsonl.normalise` kind of sameness);
3. ``contained``: its plain words, but for a first and last word a splitter may have cut,
   are a run of a document's plain words (a chunk inside a document) — or a document's plain
   words are a run of the context's (a document inside a chunk, a chunk merging several);
4. ``mostly``: at least :data:`MIN_SHARE` of the characters of its paragraphs of 4 words or
   more are paragraphs found in one document (a prepended metadata header, boilerplate
   the loader added).

Several documents matching equally: the first by key (counted, reported by the importer).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

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
    """The document a context came from and how it was found."""

    key: str
    how: str  # exact | normalised | contained | mostly
    several: bool = False


@dataclass
class ContextMatcher:
    """An index over the documents' texts, built once per import."""

    documents: list[tuple[str, str]]  # (key, text), in key order
    _exact: dict[str, list[str]] = field(default_factory=dict)
    _plain: dict[str, str] = field(default_factory=dict)
    _by_plain: dict[str, list[str]] = field(default_factory=dict)
    _words: dict[str, set[str]] = field(default_factory=dict)
    _postings: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key, text in sorted(self.documents):
            self._exact.setdefault(text, []).append(key)
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
        words = plain_words(text)
        if not words:
            return None
        found = self._by_plain.get(" ".join(words))
        if found:
            return Match(found[0], "normalised", len(found) > 1)
        return self._contained(words) or self._mostly(text)

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
