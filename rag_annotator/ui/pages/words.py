"""Words of a page's text, and a selection that grows and shrinks by whole words.

Selecting on a page (with the mouse or Shift and the arrow keys) picks whole words: an
evidence span or an expected passage is a run of words, and a span cut mid-word would name
characters the expert never meant.  A word is a run of letters and digits, with the
apostrophes, hyphens, dots and commas *inside* it kept ("l'accord", "2,08", "e-mail"), so
the punctuation after the last word selected is not part of the span.

Pure Python (no Qt): the page view keeps a :class:`WordCursor` and draws what it selects.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

WORD = re.compile(r"\w+(?:[-'’.,/]\w+)*")


def words(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of every word of ``text``, in order."""
    return [m.span() for m in WORD.finditer(text)]


@dataclass
class WordCursor:
    """A cursor on one word of a page and, once extended, a selection from an anchor word.

    ``index`` is the cursor's word; ``anchor`` the word the selection started from (None:
    no selection, only the cursor).  The selection covers every word between the two,
    whichever comes first.
    """

    text: str
    spans: list[tuple[int, int]]
    index: int = 0
    anchor: int | None = None

    @classmethod
    def on(cls, text: str, at: int = 0) -> WordCursor:
        """A cursor on the first word at or after offset ``at`` of ``text``."""
        spans = words(text)
        cursor = cls(text, spans)
        cursor.index = cursor.word_at(at)
        return cursor

    @property
    def empty(self) -> bool:
        """The page has no word."""
        return not self.spans

    def word_at(self, offset: int) -> int:
        """The word holding ``offset``, else the next one (the last at the end)."""
        if not self.spans:
            return 0
        starts = [s for s, _e in self.spans]
        i = bisect.bisect_right(starts, offset) - 1
        if i >= 0 and offset < self.spans[i][1]:
            return i
        return min(i + 1, len(self.spans) - 1)

    def cursor_span(self) -> tuple[int, int] | None:
        """``[start, end)`` of the cursor's word."""
        return self.spans[self.index] if self.spans else None

    def selection(self) -> tuple[int, int] | None:
        """``[start, end)`` of the selected words (None when nothing is selected)."""
        if self.anchor is None or not self.spans:
            return None
        first, last = sorted((self.anchor, self.index))
        return self.spans[first][0], self.spans[last][1]

    def clear(self) -> None:
        """Drop the selection, keep the cursor."""
        self.anchor = None

    def move(self, step: int, extend: bool) -> None:
        """``step`` words on (negative: back); ``extend`` grows or shrinks the selection.

        The first extension selects the cursor's word itself, so Shift+Right once selects
        one word, twice two words.
        """
        if not self.spans:
            return
        if extend and self.anchor is None:
            self.anchor = self.index
            return
        if not extend:
            self.anchor = None
        self.index = max(0, min(len(self.spans) - 1, self.index + step))

    def move_line(self, step: int, extend: bool) -> None:
        """To the word of the next (``step`` 1) or previous (-1) line nearest the cursor's
        column; at the first or last line, to its first or last word."""
        if not self.spans:
            return
        start = self.spans[self.index][0]
        line_start = self.text.rfind("\n", 0, start) + 1
        column = start - line_start
        if step > 0:
            next_break = self.text.find("\n", start)
            if next_break < 0:
                return self._go(len(self.spans) - 1, extend)
            target_start = next_break + 1
        else:
            if line_start == 0:
                return self._go(0, extend)
            target_start = self.text.rfind("\n", 0, line_start - 1) + 1
        target_end = self.text.find("\n", target_start)
        target_end = len(self.text) if target_end < 0 else target_end
        candidates = [i for i, (s, _e) in enumerate(self.spans)
                      if target_start <= s < target_end]
        if not candidates:  # an empty line: the next word in that direction
            index = self.word_at(target_start) if step > 0 else max(
                0, self.word_at(target_start) - 1)
            return self._go(index, extend)
        best = min(candidates, key=lambda i: abs(self.spans[i][0] - target_start - column))
        return self._go(best, extend)

    def line_end(self, last: bool, extend: bool) -> None:
        """To the first (``last`` False) or last word of the cursor's line."""
        if not self.spans:
            return
        start = self.spans[self.index][0]
        line_start = self.text.rfind("\n", 0, start) + 1
        line_end = self.text.find("\n", start)
        line_end = len(self.text) if line_end < 0 else line_end
        on_line = [i for i, (s, _e) in enumerate(self.spans) if line_start <= s < line_end]
        self._go(on_line[-1] if last else on_line[0], extend)

    def select_between(self, first: int, last: int) -> None:
        """Select from word ``first`` (the anchor) to word ``last`` (the cursor)."""
        if not self.spans:
            return
        bound = len(self.spans) - 1
        self.anchor, self.index = max(0, min(bound, first)), max(0, min(bound, last))

    def _go(self, index: int, extend: bool) -> None:
        if extend and self.anchor is None:
            self.anchor = self.index
        elif not extend:
            self.anchor = None
        self.index = index
