"""Where a retrieved chunk sits in the corpus: its document and its span there.

A RAG system retrieves *chunks*: its loader (pypdf, pdfminer, a Markdown rendering) read the
expert's file, a splitter cut the text into pieces of 500 to 2,000 characters, often in the
middle of a word.  The app read the same file with its own reader, so the chunk's text is
in a document of the corpus but not as the same characters.  Both are compared as
*skeletons* (:mod:`text_skeleton`: letters and digits only, case, accents and ligatures
folded), which hyphenation, line breaks, whitespace, Markdown markup and Unicode forms do
not change, and the span found is mapped back to the document's own offsets (so to its
page).  In this order:

1. ``exact``: the chunk's text is in the document as it is;
2. ``normalised``: its skeleton is in the document's skeleton;
3. ``fuzzy``: only past both misses, the best alignment of its skeleton with a stretch of a
   document's skeleton (``rapidfuzz.fuzz.partial_ratio_alignment``), kept when its score is
   at least :data:`FUZZY_MIN` of 100; this tolerates what a parser adds or drops (a running
   header or footer inside the chunk, a formula written another way, a page's blocks in
   another order).

Where to look is found first, so a chunk costs the same in a corpus of 10 pages or 5,000:
every document's skeleton is cut into overlapping :data:`K`-character pieces, about one in
eight of them (chosen by their hash, so the same pieces are chosen in a chunk whatever its
offset) goes in a sorted index, and the chunk's own chosen pieces vote for the stretch of a
document they fall in (hit position minus position in the chunk).  The exact and fuzzy
comparisons then read only the few stretches with the most votes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from rag_annotator.import_export.text_skeleton import Skeleton, code_points, skeleton

#: Length of the skeleton pieces the index holds.  Long enough that a piece seldom occurs by
#: chance in another place; short enough that a chunk read by another parser still shares
#: many of them with its document.
K = 20
#: One piece in 2**SAMPLE_BITS goes in the index (chosen by its hash).
SAMPLE_BITS = 3
#: A piece found in more places than this (a running header, boilerplate) casts no vote.
MAX_PLACES = 64
#: A chunk whose skeleton is shorter than this is not located: too few letters to say where.
MIN_CHARS = 12
#: Lowest ``partial_ratio`` score (0-100) a fuzzy alignment is kept at.  Chunks of real PDFs
#: read by pypdf, pdfminer and a Markdown rendering score 85 and more against PDFium's text
#: of the right page; a chunk of another document scores below 65 (tests hold both).
FUZZY_MIN = 70.0
#: How many of the stretches with the most votes are compared.
CANDIDATES = 3
#: Two fuzzy places whose scores differ by less than this are equally good: the chunk is
#: said to be in several places (a heading in the table of contents and in the text).
AMBIGUOUS = 2.0
#: How many characters of each end of a chunk are aligned again to find a fuzzy span's
#: ends, and the score (0-100) they must reach for it.
EDGE = 48
EDGE_MIN = 85.0
#: Where an end matches nowhere well, the span starts (ends) at the first (last) run of at
#: least this many characters the window shares with the chunk.
MIN_BLOCK = 4

#: Characters hashed at a time while indexing (the temporary arrays stay near 100 MB).
BLOCK = 4_000_000

_MIX = np.uint64(0x9E3779B97F4A7C15)  # a multiplier that spreads a hash's bits
_BASE = np.uint64(0x100000001B3)
_SEPARATOR = "\x00"  # between two documents' skeletons: never in a skeleton


@dataclass(frozen=True)
class Located:
    """Where a chunk was found: the document, the span in its original text, how, the
    score (100 but for a fuzzy match) and whether the span is the whole document.

    ``several``: the chunk matched as well in another place (the first by key and offset is
    the one given), so its span and page are not known for sure; ``others``: the other
    documents it matched in (empty when every place is in this document)."""

    key: str
    start: int
    end: int
    how: str  # exact | normalised | fuzzy
    score: float
    whole: bool
    several: bool = False
    others: tuple[str, ...] = ()


def _hashes(points: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint64]:
    """A 64-bit hash of every K-character piece (overflow wraps: arithmetic modulo 2**64)."""
    count = len(points) - K + 1
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    wide = points.astype(np.uint64)
    out = np.zeros(count, dtype=np.uint64)
    for j in range(K):
        out *= _BASE
        out += wide[j:j + count]
    return out


def _chosen(hashes: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
    """The positions whose piece goes in the index: chosen by the hash, not the offset."""
    return np.flatnonzero((hashes * _MIX) >> np.uint64(64 - SAMPLE_BITS) == 0)


@dataclass(frozen=True)
class _Stretch:
    """A stretch of the corpus skeleton the chunk's pieces voted for."""

    doc: int
    lo: int
    hi: int
    votes: int  # how many of the chunk's pieces fall in it
    weight: float  # the same, each piece counted 1 / the number of places it is in


class ChunkLocator:
    """The corpus's documents as skeletons with an index of their pieces; built once per
    import (about a second per 5,000 pages), then :meth:`locate` per chunk."""

    def __init__(self, documents: Sequence[tuple[str, str]]) -> None:
        ordered = sorted(documents)
        self._keys = [key for key, _text in ordered]
        self._texts = [text for _key, text in ordered]
        self._skeletons: list[Skeleton] = [skeleton(text) for text in self._texts]
        starts, offset = [], 0
        for sk in self._skeletons:
            starts.append(offset)
            offset += len(sk.text) + 1
        self._starts = np.array(starts, dtype=np.int64)
        self._corpus = _SEPARATOR.join(sk.text for sk in self._skeletons)
        points = code_points(self._corpus)
        kept_hashes, kept_places = [], []
        for lo in range(0, max(1, len(points) - K + 1), BLOCK):  # bounded memory
            hashes = _hashes(points[lo:lo + BLOCK + K - 1])
            chosen = _chosen(hashes)
            kept_hashes.append(hashes[chosen])
            kept_places.append(chosen + lo)
        hashes = np.concatenate(kept_hashes)
        order = np.argsort(hashes, kind="stable")
        self._index = hashes[order]
        self._places = np.concatenate(kept_places)[order]

    @property
    def size(self) -> int:
        """How many documents the locator searches."""
        return len(self._keys)

    def locate(self, chunk: str) -> Located | None:
        """Where ``chunk`` is in the corpus, or None (see the module docstring)."""
        needle = skeleton(chunk).text
        if len(needle) < MIN_CHARS or not self._keys:
            return None
        stretches = self._stretches(needle)
        found = self._exact(needle, stretches)
        if found:
            return self._result(chunk, found, len(needle))
        return self._fuzzy(needle, stretches)

    # -- where to look ---------------------------------------------------------------------
    def _stretches(self, needle: str) -> list[_Stretch]:
        """The stretches of the corpus with the most votes, best first."""
        hashes = _hashes(code_points(needle))
        offsets = _chosen(hashes)
        wanted = hashes[offsets]
        left = np.searchsorted(self._index, wanted, "left")
        right = np.searchsorted(self._index, wanted, "right")
        places = right - left
        use = (places > 0) & (places <= MAX_PLACES)
        if not use.any():
            return self._scan(needle) if len(needle) < 4 * K * 2 ** SAMPLE_BITS else []
        hit_offsets = np.repeat(offsets[use], places[use])
        # a piece found in many places (a running header) says less about where to look
        hit_weights = np.repeat(1.0 / places[use], places[use])
        hit_places = np.concatenate([self._places[lo:hi] for lo, hi
                                     in zip(left[use].tolist(), right[use].tolist())])
        diagonals = hit_places - hit_offsets
        order = np.argsort(diagonals, kind="stable")
        diagonals, hit_offsets = diagonals[order], hit_offsets[order]
        hit_weights = hit_weights[order]
        tolerance = 16 + len(needle) // 8  # a parser's insertions and deletions
        breaks = np.flatnonzero(np.diff(diagonals) > tolerance) + 1
        stretches = []
        for group in np.split(np.arange(len(diagonals)), breaks):
            lo_diag, hi_diag = int(diagonals[group[0]]), int(diagonals[group[-1]])
            weights = dict(zip(hit_offsets[group].tolist(), hit_weights[group].tolist()))
            stretches.append(self._stretch((lo_diag + hi_diag) // 2, lo_diag,
                                           hi_diag + len(needle), len(weights),
                                           len(needle), sum(weights.values())))
        stretches.sort(key=lambda s: (-s.weight, s.doc, s.lo))
        return stretches[:CANDIDATES]

    def _stretch(self, middle: int, lo: int, hi: int, votes: int, length: int,
                 weight: float) -> _Stretch:
        doc = max(0, int(np.searchsorted(self._starts, max(0, middle), "right")) - 1)
        start = int(self._starts[doc])
        end = start + len(self._skeletons[doc].text)
        margin = K + length // 2
        return _Stretch(doc, max(start, lo - margin), min(end, hi + margin), votes, weight)

    def _scan(self, needle: str) -> list[_Stretch]:
        """A short chunk none of whose pieces was chosen: every place it is in, by scan."""
        found: list[_Stretch] = []
        at = self._corpus.find(needle)
        while at >= 0 and len(found) < CANDIDATES:
            found.append(self._stretch(at, at, at + len(needle), 1, 0, 1.0))
            at = self._corpus.find(needle, at + 1)
        return found

    # -- comparing -------------------------------------------------------------------------
    def _exact(self, needle: str, stretches: list[_Stretch]) -> list[tuple[int, int]]:
        """(document, skeleton offset in the corpus) of the needle's first two places in
        each document a stretch is in (the whole document is searched: a short chunk's
        pieces may all be of a running header, which votes for every page alike)."""
        found = []
        for doc in dict.fromkeys(s.doc for s in stretches):
            start = int(self._starts[doc])
            end = start + len(self._skeletons[doc].text)
            at = self._corpus.find(needle, start, end)
            if at >= 0:
                found.append((doc, at))
                again = self._corpus.find(needle, at + 1, end)
                if again >= 0:
                    found.append((doc, again))
        return sorted(found)

    def _result(self, chunk: str, found: list[tuple[int, int]], length: int) -> Located:
        doc, at = found[0]
        start = at - int(self._starts[doc])
        sk, text = self._skeletons[doc], self._texts[doc]
        first, last = sk.span(start, start + length, text)
        whole = start == 0 and length == len(sk.text)
        if whole:
            first, last = 0, len(text)
        verbatim = text.find(chunk.strip(), max(0, first - len(chunk)), last + len(chunk))
        if verbatim >= 0:
            first, last = verbatim, verbatim + len(chunk.strip())
        others = tuple(sorted({self._keys[d] for d, _at in found} - {self._keys[doc]}))
        return Located(self._keys[doc], first, last, "exact" if verbatim >= 0 else "normalised",
                       100.0, whole, len(found) > 1, others)

    def _fuzzy(self, needle: str, stretches: list[_Stretch]) -> Located | None:
        places: list[tuple[float, int, int, int]] = []  # score, doc, start, end (skeleton)
        for s in stretches:
            if s.votes < 2:
                continue
            aligned = fuzz.partial_ratio_alignment(needle, self._corpus[s.lo:s.hi],
                                                   score_cutoff=FUZZY_MIN)
            if aligned is not None:
                base = s.lo - int(self._starts[s.doc])
                places.append((aligned.score, s.doc, base + aligned.dest_start,
                               base + aligned.dest_end))
        if not places:
            return None
        places.sort(key=lambda p: (-p[0], p[1], p[2]))
        score, doc, start, end = places[0]
        rivals = [p for p in places[1:] if p[0] > score - AMBIGUOUS
                  and (p[1] != doc or p[2] >= end or p[3] <= start)]
        start, end = self._refine(needle, doc, start, end)
        sk, text = self._skeletons[doc], self._texts[doc]
        first, last = sk.span(start, end, text)
        whole = start == 0 and end == len(sk.text)
        if whole:
            first, last = 0, len(text)
        others = tuple(sorted({self._keys[p[1]] for p in rivals} - {self._keys[doc]}))
        return Located(self._keys[doc], first, last, "fuzzy", round(score, 1), whole,
                       bool(rivals), others)

    def _refine(self, needle: str, doc: int, start: int, end: int) -> tuple[int, int]:
        """The fuzzy span's true ends.  ``partial_ratio`` gives a window as long as the
        chunk, which overshoots into the page before (or stops short) when the document's
        version of the text is shorter (or longer) than the chunk's.  The chunk's first (and
        last) :data:`EDGE` characters are aligned again near each end of the window; where
        they match well, the end moves to the first (last) character they share."""
        text = self._skeletons[doc].text
        margin = 32 + len(needle) // 8
        edge = min(EDGE, len(needle) // 3)
        head = self._edge(needle[:edge], text, start - margin, start + edge + margin, True)
        tail = self._edge(needle[-edge:], text, end - edge - margin, end + margin, False)
        if head is None or tail is None:  # else: the window's first and last shared runs
            blocks = [b for b in Indel.opcodes(needle, text[start:end])
                      if b.tag == "equal" and b.dest_end - b.dest_start >= MIN_BLOCK]
            if blocks:
                head = start + blocks[0].dest_start if head is None else head
                tail = start + blocks[-1].dest_end if tail is None else tail
        first = start if head is None else head
        last = end if tail is None else tail
        return (first, last) if first < last else (start, end)

    @staticmethod
    def _edge(piece: str, text: str, lo: int, hi: int, head: bool) -> int | None:
        """Where ``piece`` starts (``head``) or ends in ``text[lo:hi]``, or None when it
        matches nowhere well (a parser moved or garbled that end of the chunk)."""
        lo, hi = max(0, lo), min(len(text), hi)
        aligned = fuzz.partial_ratio_alignment(piece, text[lo:hi], score_cutoff=EDGE_MIN)
        if aligned is None:
            return None
        at, to = lo + aligned.dest_start, lo + aligned.dest_end
        blocks = [b for b in Indel.opcodes(piece, text[at:to])
                  if b.tag == "equal" and b.dest_end - b.dest_start >= 2]
        if not blocks:
            return None
        return at + blocks[0].dest_start if head else at + blocks[-1].dest_end
