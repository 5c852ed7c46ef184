"""Split a generated answer into candidate claims (French and English).

A candidate claim is a sentence, an item of an enumeration or bullet list, or a clause after a
semicolon.  :func:`split_claims` returns ``(start, end)`` character spans into the answer
(``text[start:end]`` is the claim, stripped of surrounding spaces and list markers), so every
claim points at the exact words of the answer.  The expert then merges or splits what the
heuristics got wrong; they are meant to be predictable rather than clever:

* a sentence ends at ``.``, ``!``, ``?`` or ``…`` followed by a space and an upper-case letter,
  a digit, an opening quote or bracket, or by the end of the text or a line break;
* not after an abbreviation (``M.``, ``Mme.``, ``art.``, ``p. ex.``, ``e.g.``, ``i.e.``,
  ``etc.`` before a lower-case word, ``cf.``, ``n°``…, a single capital initial ``J.``),
  nor inside a number (``2,5``, ``2.5``, ``1.000``);
* not inside quoted text (``« … »``, ``“ … ”``, ``"…"``): a quotation is one claim with what
  surrounds it;
* a new claim starts at each bullet (``-``, ``*``, ``•``, ``–`` at the start of a line), at
  each numbered item (``1)``, ``2.``, ``a)`` at the start of a line, or ``2)`` inline after a
  first ``1)``), and after ``; `` outside quotes;
* line breaks separate claims (a paragraph never runs into the next);
* a piece without any letter or digit (a lone marker, an ellipsis) is not a claim.
"""

from __future__ import annotations

import itertools
import re

#: Abbreviations after which a period never ends a sentence: they announce what follows
#: (titles, "art. 3", "p. 12", "cf. ...", "n° 4"); compared case-insensitively, without the
#: period.
TITLES = frozenset({
    "m", "mm", "mme", "mmes", "mlle", "mlles", "me", "dr", "pr", "mr", "mrs", "ms", "prof",
    "art", "arts", "alin", "ch", "chap", "p", "pp", "cf", "vol", "fig", "no", "nos", "réf",
    "ref", "vs", "st", "ste", "av", "bd", "mgr", "op", "ex", "ss", "sect", "n", "sté", "cie",
})
#: Abbreviations that end a sentence only when a capital follows ("… congés, etc. Le
#: salarié …"), not before a lower-case word or a number ("env. 30 jours").
ABBREVIATIONS = frozenset({
    "etc", "al", "env", "min", "max", "approx", "hab", "tél", "tel", "inc", "ltd", "jr", "sr",
    "co", "dept", "dép", "éd", "ed", "id", "ibid", "cit", "sq", "sqq", "suiv",
    "resp", "ca", "janv", "févr", "fév", "avr", "juil", "sept", "oct", "nov", "déc", "dec",
    "jan", "feb", "apr", "aug", "sep", "coll", "ord", "ann", "anc", "nouv",
})

_OPENING = {"«": "»", "“": "”", "„": "“", "‘": "’"}
_BULLET = re.compile(r"[ \t]*(?:[-*•–—▪◦]|\(?\d{1,3}[.)]|\(?[a-zA-Z][)])[ \t]+")
_INLINE_ITEM = re.compile(r"(?<![\w.,])\(?(\d{1,2}|[a-z])\)[ \t]+")
_WORD_BEFORE = re.compile(r"([^\W\d_]+)\.?$")


def split_claims(text: str) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of the candidate claims of ``text``, in order."""
    spans: list[tuple[int, int]] = []
    for line_start, line_end in _lines(text):
        for start, end in _split_line(text, line_start, line_end):
            span = _trim(text, start, end)
            if span is not None:
                spans.append(span)
    return spans


def claim_texts(text: str) -> list[str]:
    """The candidate claims' texts (``text[start:end]`` for each span)."""
    return [text[s:e] for s, e in split_claims(text)]


def _lines(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for match in re.finditer(r"\r\n|\n|\r|\u2028|\u2029", text):
        out.append((start, match.start()))
        start = match.end()
    out.append((start, len(text)))
    return out


def _split_line(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Boundaries inside one line: after sentence ends, '; ' and inline enumeration items."""
    cuts: list[int] = []
    quote_close: str | None = None
    straight_open = False
    inline_items = _inline_items(text, start, end)
    i = start
    while i < end:
        ch = text[i]
        if quote_close is not None:
            if ch == quote_close:
                quote_close = None
                _cut_after_quote(text, i, start, end, cuts)
            i += 1
            continue
        if ch in _OPENING:
            quote_close = _OPENING[ch]
            i += 1
            continue
        if ch == '"':
            if straight_open:
                _cut_after_quote(text, i, start, end, cuts)
            straight_open = not straight_open
            i += 1
            continue
        if straight_open:
            i += 1
            continue
        if i in inline_items:
            cuts.append(i)
        if ch == ";" and i + 1 < end and text[i + 1].isspace():
            cuts.append(i + 1)
        elif ch in ".!?…":
            j = i
            while j + 1 < end and text[j + 1] in ".!?…":
                j += 1
            # closing quotes or brackets belong to the sentence they end
            while j + 1 < end and text[j + 1] in ")]":
                j += 1
            if _ends_sentence(text, i, j + 1, start, end):
                cuts.append(j + 1)
            i = j + 1
            continue
        i += 1
    bounds = [start, *sorted(set(c for c in cuts if start < c < end)), end]
    return list(itertools.pairwise(bounds))


def _inline_items(text: str, start: int, end: int) -> set[int]:
    """Positions of inline enumeration items: ``1) … 2) …`` or ``a) … b) …``, in sequences
    of at least two items starting at 1 or a (a lone "3)" is not an enumeration)."""
    items: set[int] = set()
    sequence: list[int] = []
    expected: str | None = None
    for match in _INLINE_ITEM.finditer(text, start, end):
        label = match.group(1)
        if label == expected:
            sequence.append(match.start())
        elif label in ("1", "a"):
            if len(sequence) >= 2:
                items.update(sequence)
            sequence = [match.start()]
        else:
            continue
        expected = _successor(label)
    if len(sequence) >= 2:
        items.update(sequence)
    return items


def _cut_after_quote(text: str, close: int, start: int, end: int, cuts: list[int]) -> None:
    """A quotation ending with its sentence's mark ("… il part. »") ends the sentence too."""
    k = close - 1
    while k > start and text[k].isspace():
        k -= 1
    if text[k] in ".!?…" and _ends_sentence(text, k, close + 1, start, end):
        cuts.append(close + 1)


def _successor(label: str) -> str:
    return str(int(label) + 1) if label.isdigit() else chr(ord(label) + 1)


def _ends_sentence(text: str, mark: int, after: int, start: int, end: int) -> bool:
    """Whether the punctuation at ``mark`` (ending at ``after``) ends a sentence."""
    if after >= end:
        return True
    if not text[after].isspace():
        return False
    k = after
    while k < end and text[k].isspace():
        k += 1
    if k >= end:
        return True
    nxt = text[k]
    if text[mark] == ".":
        before = text[start:mark]
        word = _WORD_BEFORE.search(before)
        if word is not None:
            token = word.group(1)
            lower = token.casefold()
            if lower in TITLES or (word.start() > 0 and before[word.start() - 1] == "."):
                return False  # "M. Dupont", "art. 3", "e.g. this", "i.e. that"
            if lower in ABBREVIATIONS:
                return nxt.isupper()
            if len(token) == 1 and token.isupper() and _initial(before[:word.start()]):
                return False  # an initial: "J. Martin", "Jean J. Martin"
        elif before.endswith("°"):
            return False
        elif _item_number(before):
            return False  # "1. Le congé…": the number of an enumeration item
    return nxt.isupper() or nxt.isdigit() or nxt in "«“\"'(¿¡[-•*–"


def _initial(before: str) -> bool:
    """A capital letter then a period is an initial at the start of a sentence or after a
    capitalised word ("Jean J. Martin"), not after a common word ("form A. Then")."""
    words = before.split()
    return not words or words[-1][:1].isupper() or words[-1][-1:] in ".!?…:;"


def _item_number(before: str) -> bool:
    """Whether ``before`` ends with a number that starts a line or follows a sentence end."""
    match = re.search(r"(\d{1,3})$", before)
    if match is None:
        return False
    rest = before[:match.start()]
    if rest and not rest[-1].isspace() and rest[-1] != "(":
        return False
    rest = rest.rstrip().rstrip("(").rstrip()
    return not rest or rest[-1] in ".!?…;:"


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Strip spaces and a leading list marker; None when nothing claim-like is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    marker = _BULLET.match(text, start, end)
    if marker is not None and marker.end() < end:
        start = marker.end()
    else:
        inline = _INLINE_ITEM.match(text, start, end)
        if inline is not None and inline.end() < end:
            start = inline.end()
    if not any(ch.isalnum() for ch in text[start:end]):
        return None
    return start, end
