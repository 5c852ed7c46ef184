"""What keeps exports from running as formulas and untrusted workbooks from hurting the reader.

* :func:`neutralise` / :func:`unneutralise` — OWASP's CSV-injection rule: a cell that starts
  with ``=``, ``+``, ``-``, ``@``, a tab, CR or LF gets a leading ``'`` so a spreadsheet shows it
  as text.  To make that reversible, a text that already starts with ``'`` gets one too: the
  written cell starts with ``'`` exactly when a quote was added, and ``unneutralise`` removes
  exactly one.  ``unneutralise(neutralise(s)) == s`` for every string.
* :func:`check_xlsx` — before openpyxl opens an untrusted workbook: a size limit, a real zip,
  a bounded number of members, and a bounded compression ratio (a zip bomb expands 1000×);
  :func:`zip_excess` is that member check, shared with the document packages (.docx, .odt,
  .pptx).
* :func:`require_defused_xml` — openpyxl parses with defusedxml when it is installed (no
  entity expansion, no external entities); imports refuse to run without it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from rag_annotator.import_export.files import ImportRejected

#: First characters that make a spreadsheet evaluate a cell (OWASP), plus the quote itself.
TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n")
QUOTE = "'"

#: Largest workbook an import opens (on disk), and largest total once decompressed.
MAX_XLSX_BYTES = 200 * 1024**2
MAX_XLSX_UNPACKED = 2 * 1024**3
MAX_XLSX_MEMBERS = 10_000


def looks_like_formula(text: str) -> bool:
    """True when a spreadsheet could read the cell as a formula (or DDE command)."""
    return text.startswith(TRIGGERS)


def neutralise(text: str) -> str:
    """The text as a cell a spreadsheet shows and never evaluates (reversible)."""
    if text.startswith(TRIGGERS) or text.startswith(QUOTE):
        return QUOTE + text
    return text


def unneutralise(text: str) -> str:
    """Undo :func:`neutralise`."""
    return text[1:] if text.startswith(QUOTE) else text


def check_xlsx(path: Path, *, max_bytes: int = MAX_XLSX_BYTES,
               max_ratio: float = 100.0, max_unpacked: int = MAX_XLSX_UNPACKED) -> None:
    """Refuse a workbook that is too large, not a zip, or a zip bomb (ImportRejected)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ImportRejected(path, None, "no such file; check the path.") from None
    if size > max_bytes:
        raise ImportRejected(path, None, "the workbook is too large ({size:,} bytes; the "
                                         "limit is {max_bytes:,}); split it.",
                                         size=size, max_bytes=max_bytes)
    if not zipfile.is_zipfile(path):
        raise ImportRejected(path, None, "not an .xlsx workbook (not a zip file); save it "
                                         "from Excel as .xlsx.")
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError) as error:
        raise ImportRejected(path, None, "the workbook is damaged ({error}).",
                                         error=error) from None
    excess = zip_excess(members, max_ratio=max_ratio, max_unpacked=max_unpacked,
                        max_members=MAX_XLSX_MEMBERS)
    if excess is None:
        return
    limit, value, member = excess
    if limit == "members":
        raise ImportRejected(path, None, "the workbook has {n_members:,} parts; refused.",
                                         n_members=int(value))
    if limit == "unpacked":
        raise ImportRejected(path, None, "the workbook would expand to {unpacked:,} bytes "
                                         "(limit {max_unpacked:,}); refused.",
                                         unpacked=int(value), max_unpacked=max_unpacked)
    if limit == "part":
        raise ImportRejected(path, None, "part {filename} expands {ratio:.0f}× "
                                         "(limit {max_ratio:.0f}×): a zip bomb? refused.",
                                         filename=member, ratio=value, max_ratio=max_ratio)
    raise ImportRejected(path, None, "the workbook expands {unpacked:.0f}× "
                                     "(limit {max_ratio:.0f}×): a zip bomb? refused.",
                                     unpacked=value, max_ratio=max_ratio)


def zip_excess(members: list[zipfile.ZipInfo], *, max_ratio: float, max_unpacked: int,
               max_members: int) -> tuple[str, float, str] | None:
    """The first limit a zip's members pass, as ``(limit, value, member name)``: ``members``
    (how many), ``unpacked`` (total bytes once expanded), ``part`` (one member's expansion
    ratio) or ``whole`` (the archive's ratio); None when within every limit.  Sizes are the
    ones the archive declares, which bound what reading a member can return (Python's
    zipfile stops at the declared size).  Each caller words the refusal for its files."""
    if len(members) > max_members:
        return "members", len(members), ""
    unpacked = sum(m.file_size for m in members)
    packed = sum(m.compress_size for m in members)
    if unpacked > max_unpacked:
        return "unpacked", unpacked, ""
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > 1024**2 and ratio > max_ratio:
            return "part", ratio, member.filename
    if packed and unpacked > 1024**2 and unpacked / packed > max_ratio:
        return "whole", unpacked / packed, ""
    return None


def require_defused_xml() -> None:
    """Refuse to parse untrusted workbooks unless openpyxl uses defusedxml."""
    from openpyxl.xml import DEFUSEDXML

    if not DEFUSEDXML:
        raise ImportRejected(Path("defusedxml"), None,
                             "the defusedxml package is missing: reading workbooks safely "
                             "needs it; reinstall rag-annotator.")
