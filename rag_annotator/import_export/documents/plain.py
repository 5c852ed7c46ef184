"""Plain text (.txt) and Markdown (.md) documents.

The text is the file's, decoded (UTF-8, a byte-order mark accepted, else Windows-1252, said
in a note), with ``\\r\\n`` line ends as ``\\n``; Markdown keeps its markup, as the author wrote
it.  A Markdown file's headings are found with markdown-it-py, a CommonMark parser: ``#``
headings and underlined (setext) ones, never a ``#`` line inside a code block; each starts at
its line.  A plain text file has no headings.  The title is the first ``# heading`` line, as
the corpus import has always taken it.
"""

from __future__ import annotations

import re
from pathlib import Path

from rag_annotator.domain.layout import MAX_HEADING_LEVEL, DocumentKind, Heading, Layout
from rag_annotator.import_export.documents.reading import ReadDocument, clean_title
from rag_annotator.import_export.files import ImportRejected
from rag_annotator.messages import Message

_FIRST_HEADING = re.compile(r"^#\s+(.+)$", re.MULTILINE)


def read_plain(path: Path, data: bytes, kind: DocumentKind) -> ReadDocument:
    """Read a .txt or .md file (module docstring)."""
    text, windows = decode(path, data)
    text = text.replace("\r\n", "\n")
    layout = Layout((), markdown_headings(text)) if kind is DocumentKind.MARKDOWN else Layout()
    heading = _FIRST_HEADING.search(text)
    notes = [Message("not UTF-8; read as Windows-1252")] if windows else []
    return ReadDocument(kind, text, layout,
                        title=clean_title(heading.group(1)) if heading else "", notes=notes,
                        decoded_as="cp1252" if windows else "")


def decode(path: Path, data: bytes) -> tuple[str, bool]:
    """The text of a file and whether it was read as Windows-1252 (not UTF-8)."""
    if data.find(b"\x00") >= 0:
        raise ImportRejected(path, None, "the file holds NUL bytes: it is not a text file "
                                         "(UTF-16? save it as UTF-8).")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), True


def markdown_headings(text: str) -> tuple[Heading, ...]:
    """The headings of a Markdown text at the offsets of their lines."""
    from markdown_it import MarkdownIt

    line_starts = [0]
    for found in re.finditer("\n", text):
        line_starts.append(found.end())
    tokens = MarkdownIt("commonmark").parse(text)
    headings: list[Heading] = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None or i + 1 >= len(tokens):
            continue
        title = clean_title(tokens[i + 1].content)
        line = token.map[0]
        if title and line < len(line_starts):
            headings.append(Heading(line_starts[line], min(int(token.tag[1:]),
                                                           MAX_HEADING_LEVEL), title))
    return tuple(headings)
