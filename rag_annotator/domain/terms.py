"""The question's terms, found again in a document (Judge section highlighting).

An expert skims a long document for the passage that answers the question; highlighting the
question's words where they occur is the cheapest help, as long as it finds the words a reader
would (``délai`` in ``Délais``, ``resiliation`` typed without its accent) and skips the words
every sentence has (``le``, ``de``, ``the``).  Matching is on a light stem: accents and case
removed, then the first :data:`STEM` letters of longer words — crude, but language-neutral,
predictable, and wrong only towards highlighting a little more.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

#: Words longer than this are matched on their first STEM letters (délai → délais, délaI).
STEM = 5
_WORD = re.compile(r"\w+", re.UNICODE)

_STOPWORD_TEXT = """
a à afin ai aie ainsi alors au aucun aussi autre aux avec avoir bon car ce ceci cela celle
celui ces cet cette chaque ci comme comment dans de des doit donc dont du elle elles en encore
est et été être eu fait faut il ils je la le les leur leurs lors lui ma mais me même mes moi
mon ne ni nos notre nous on ont ou où par pas peut peu plus pour pourquoi quand que quel quelle
quelles quels qui sa sans se ses si son sont sous sur ta te tes toi ton tous tout toute toutes
tu un une vos votre vous y
about after all also an and any are as at be because been but by can could did do does for
from had has have he her his how if in into is it its may more most must no not of on or our
shall she should so some such than that the their them then there these they this those to
under up was we were what when where which while who why will with would you your
"""


def fold(text: str) -> str:
    """Lower case, accents removed (``Délai`` → ``delai``); same length as NFC input words."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


#: Words too common to help a reader find the passage (French and English), folded.
STOPWORDS = frozenset(fold(word) for word in _STOPWORD_TEXT.split())


@lru_cache(maxsize=65536)  # a document repeats its words: the Judge's key highlights one
def _key(word: str) -> str | None:
    folded = fold(word)
    if folded in STOPWORDS or len(folded) < 2 or (len(folded) < 3 and not folded.isdigit()):
        return None
    return folded[:STEM] if len(folded) > STEM else folded


def question_terms(question: str) -> frozenset[str]:
    """The match keys of a question's meaningful words."""
    keys = (_key(m.group()) for m in _WORD.finditer(question))
    return frozenset(k for k in keys if k)


def term_spans(text: str, terms: Iterable[str]) -> list[tuple[int, int]]:
    """(start, end) character spans of the words of ``text`` that match ``terms``."""
    wanted = frozenset(terms)
    if not wanted:
        return []
    spans = []
    for match in _WORD.finditer(text):
        key = _key(match.group())
        if key is not None and key in wanted:
            spans.append((match.start(), match.end()))
    return spans
