"""A text reduced to its letters and digits, with the way back to the original offsets.

Two parsers of one PDF agree on the words and little else: pypdf writes ``ﬁ`` where PDFium
writes ``fi``, ``adip-\\niscing`` where PDFium writes ``adip\\ufffeiscing``, one keeps a run
of spaces that the other makes a line break, a Markdown rendering adds ``**``, ``#`` and
``[text](target)``.  The *skeleton* of a text keeps only what they share: its letters and
digits, compatibility-decomposed (NFKD: ``ﬁ`` → ``fi``, ``²`` → ``2``), case-folded, with
their accents dropped (so a text typed in NFD, or a parser that lost an accent, still
agrees), and with no separator at all (so a word broken by a hyphen at a line end, or cut
by a splitter, is the same run of characters).  Markdown link targets, images, HTML tags
and front matter are blanked first: their letters are not the document's words.

``origin[i]`` is the offset in the original text of the skeleton's character ``i``, so a
span found in skeletons maps back to the original text's offsets (and so to its page).

Built with numpy over the text's code points (a per-character table for the Basic
Multilingual Plane, made once), because a corpus of 5,000 pages is some fifteen million
characters and a Python loop over them would cost seconds.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

#: Markup whose characters are not the document's text: an image (all of it), a link's
#: target (``](target "title")``; the linked words stay), a reference link's label, a
#: documentation directive, a code fence's line (its language tag), YAML front matter, the
#: HTML tags a Markdown rendering leaves (named ones only: ``x <y`` in a formula stays) and
#: pdfminer's ``(cid:12)`` for a glyph it could not map to a character.
_MARKUP = re.compile(
    r"\(cid:\d+\)"
    r"|!\[[^\]\n]*\]\([^)\n]*\)"
    r"|\]\([^()\s]*(?:\s+\"[^\"\n]*\")?\)"
    r"|\]\[[^\]\n]*\]"
    r"|\[!(?:INCLUDE|VIDEO|NOTE|TIP|IMPORTANT|WARNING|CAUTION)[^\]\n]*\](?:\([^)\n]*\))?"
    r"|^[ \t]*(?:```|~~~).*$"
    r"|\A---\n.*?\n---\n"
    r"|</?(?:a|abbr|b|br|code|del|div|em|h[1-6]|hr|i|img|kbd|li|mark|ol|p|pre|s|small|span"
    r"|strong|sub|sup|table|tbody|td|th|thead|tr|u|ul)\b[^<>\n]*>",
    re.IGNORECASE | re.MULTILINE | re.DOTALL)

_BMP = 0x10000


def _fold(char: str) -> str:
    """The skeleton of one character: '' for anything that is not a letter or a digit."""
    if not char.isalnum():
        return ""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", char).casefold())
    return "".join(c for c in folded if c.isalnum())


@cache
def _tables() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint32], dict[int, str]]:
    """For every BMP code point: its skeleton's length, its first character, and the
    skeletons longer than one character (``ﬁ``, ``ß``, ``½``)."""
    lengths = np.zeros(_BMP, dtype=np.uint8)
    first = np.zeros(_BMP, dtype=np.uint32)
    longer: dict[int, str] = {}
    for code in range(_BMP):
        if 0xD800 <= code <= 0xDFFF:
            continue  # surrogates are no characters
        out = _fold(chr(code))
        if out:
            lengths[code] = min(len(out), 255)
            first[code] = ord(out[0])
            if len(out) > 1:
                longer[code] = out
    return lengths, first, longer


@dataclass(frozen=True)
class Skeleton:
    """The skeleton of a text and, per skeleton character, its offset in the text."""

    text: str
    origin: npt.NDArray[np.int32] | npt.NDArray[np.int64]

    def span(self, start: int, end: int, original: str) -> tuple[int, int]:
        """The original text's ``[start, end)`` covering the skeleton's ``[start, end)``
        (combining marks after the last character included)."""
        first = int(self.origin[start])
        last = int(self.origin[end - 1]) + 1
        while last < len(original) and unicodedata.combining(original[last]):
            last += 1
        return first, last


def code_points(text: str) -> npt.NDArray[np.uint32]:
    """The text's code points as an array (no Python loop)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def skeleton(text: str) -> Skeleton:
    """The skeleton of ``text`` (see the module docstring)."""
    lengths_table, first_table, longer = _tables()
    cps = code_points(text)
    big = cps >= _BMP
    small = np.where(big, 0, cps) if big.any() else cps
    lengths = lengths_table[small]
    extra: dict[int, str] = {}
    for position in np.flatnonzero(big).tolist():  # outside the BMP: rare, one by one
        out = _fold(text[position])
        lengths[position] = len(out)
        if out:
            extra[position] = out
    for match in _MARKUP.finditer(text) if ("[" in text or "<" in text or "`" in text
                                            or "~" in text or "(cid:" in text
                                            or text.startswith("---")) else ():
        lengths[match.start():match.end()] = 0
    kept = np.flatnonzero(lengths)
    kept_lengths = lengths[kept]
    chars = first_table[small[kept]]
    if (kept_lengths.size and int(kept_lengths.max()) > 1) or extra:
        origin = np.repeat(kept, kept_lengths)
        chars = np.repeat(chars, kept_lengths)
        ends = np.cumsum(kept_lengths, dtype=np.int64)
        for index in np.flatnonzero((kept_lengths > 1) | big[kept]).tolist():
            position = int(kept[index])
            out = extra.get(position) or longer[int(cps[position])]
            at = int(ends[index]) - len(out)
            chars[at:at + len(out)] = np.frombuffer(out.encode("utf-32-le"), dtype="<u4")
    else:
        origin = kept
    wide = len(text) >= 2 ** 31  # int32 offsets halve the memory of a large corpus
    return Skeleton(chars.astype("<u4", copy=False).tobytes().decode("utf-32-le"),
                    origin.astype(np.int64 if wide else np.int32, copy=False))
