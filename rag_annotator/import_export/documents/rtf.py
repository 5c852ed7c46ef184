"""RTF documents, read with striprtf.

striprtf turns RTF's control words into the text they stand for (escaped characters, the
``\\'xx`` code-page bytes in the file's declared code page, ``\\u`` Unicode characters, paragraph
and line breaks, table cells) and drops the destinations that are not text (fonts, colours,
styles, pictures).  RTF keeps no structure striprtf reports, so an RTF document has its text
and no headings; its title and author come from the ``\\info`` group.
"""

from __future__ import annotations

import re
from pathlib import Path

from rag_annotator.domain.layout import DocumentKind, Layout
from rag_annotator.import_export.documents.reading import (
    ReadDocument,
    clean_title,
    plain,
    properties,
)
from rag_annotator.import_export.files import ImportRejected

_CODE_PAGE = re.compile(rb"\\ansicpg(\d{3,5})")
_INFO = re.compile(r"\{\\(title|author|subject|keywords)\s+((?:[^{}\\]|\\.)*)\}")


def read_rtf(path: Path, data: bytes) -> ReadDocument:
    """Read an .rtf (module docstring)."""
    from striprtf.striprtf import rtf_to_text

    if not data.lstrip().startswith(b"{\\rtf"):
        raise ImportRejected(path, None, "not an RTF document (it does not start with "
                                         "{marker}).", marker="{\\rtf")
    page = _CODE_PAGE.search(data[:4096])
    encoding = f"cp{page.group(1).decode()}" if page else "cp1252"
    try:
        "".encode(encoding)
    except LookupError:
        encoding = "cp1252"
    source = data.decode("latin-1")  # RTF is 7-bit: its other bytes are escapes
    text = plain(str(rtf_to_text(source, encoding=encoding,  # type: ignore[no-untyped-call]
                                 errors="replace")))
    info = {name: clean_title(str(rtf_to_text(  # type: ignore[no-untyped-call]
        value, encoding=encoding, errors="replace")))
            for name, value in _INFO.findall(source[:65536])}
    return ReadDocument(DocumentKind.RTF, text.strip("\n"), Layout(),
                        title=info.get("title", ""),
                        properties=properties(author=info.get("author"),
                                              subject=info.get("subject"),
                                              keywords=info.get("keywords")))
