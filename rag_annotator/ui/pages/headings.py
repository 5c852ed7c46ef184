"""A document's headings styled in its text view, and the line each one starts.

Readers keep a document's headings as offsets into its text ("Titre II" at 4,120).  The
text view shows them as headings — bold, and larger for the two outer levels — so a long
text reads as the sections the expert knows, not as a wall of lines.  The styling is done
by a syntax highlighter (per line, as Qt lays each out), which other highlighters of the
same view extend (the Judge section's marks the question's terms over it).
"""

from __future__ import annotations

import bisect

from PySide6.QtGui import QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from rag_annotator.domain.layout import Heading

#: Extra point size of a heading line by level (deeper levels: bold only).
GROWTH = {1: 3, 2: 1.5}


def heading_lines(text: str, headings: tuple[Heading, ...], first_line: int = 0
                  ) -> dict[int, int]:
    """Line number (in the view: ``first_line`` lines come before ``text``) → heading level
    of every line a heading starts on."""
    if not headings:
        return {}
    breaks = [i for i, c in enumerate(text) if c == "\n"] if len(headings) > 8 else None
    lines: dict[int, int] = {}
    for heading in headings:
        start = min(max(heading.start, 0), len(text))
        line = (bisect.bisect_left(breaks, start) if breaks is not None
                else text.count("\n", 0, start))
        lines.setdefault(first_line + line, heading.level)
    return lines


class StructureHighlighter(QSyntaxHighlighter):
    """Styles the lines headings start on (see :func:`heading_lines`)."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.headings: dict[int, int] = {}
        self._formats: dict[int, QTextCharFormat] = {}

    def set_headings(self, lines: dict[int, int]) -> None:
        """The heading lines of the text shown (its lines styled again if they changed: a
        document without headings after another costs nothing)."""
        if lines == self.headings:
            return
        self.headings = lines
        self.rehighlight()

    def heading_format(self, level: int) -> QTextCharFormat:
        found = self._formats.get(level)
        if found is None:
            found = QTextCharFormat()
            found.setFontWeight(QFont.Weight.Bold)
            growth = GROWTH.get(level)
            if growth:
                size = self.document().defaultFont().pointSizeF()
                if size > 0:
                    found.setFontPointSize(size + growth)
            self._formats[level] = found
        return found

    def with_heading(self, fmt: QTextCharFormat) -> QTextCharFormat:
        """``fmt`` with the current line's heading style added (for subclasses' marks)."""
        level = self.headings.get(self.currentBlock().blockNumber())
        if level is None:
            return fmt
        merged = QTextCharFormat(self.heading_format(level))
        merged.merge(fmt)
        return merged

    def highlightBlock(self, text: str) -> None:
        if not self.headings:
            return
        level = self.headings.get(self.currentBlock().blockNumber())
        if level is not None:
            self.setFormat(0, len(text), self.heading_format(level))
