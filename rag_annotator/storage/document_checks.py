"""What ``check`` says about documents' structure and kept files.

A gold set written by this app never has these problems; a file edited by hand, damaged on
disk or written by another tool may.  Each is one line naming the document (or the kept
file), what is wrong and what to do:

* a ``kind`` this build does not know;
* ``pages`` or ``headings`` that do not parse, or offsets past the end of the text, pages not
  ascending from 0, headings out of order (the page or section shown for a span would be
  wrong);
* a PDF document without its kept file (its pages cannot be shown), or whose kept file is
  not a PDF;
* a kept file whose bytes no longer have the SHA-256 or size recorded for them (damaged);
* a passage whose span is not within the text of the document it is part of, or that has a
  span without being part of a document.

A kept file no document uses is not a problem: an import keeps the previous version's file so
that an undo can bring it back.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

from rag_annotator.domain.layout import DocumentKind, check_layout
from rag_annotator.errors import InvalidValue
from rag_annotator.messages import Message


def document_problems(conn: sqlite3.Connection) -> list[str]:
    """Every problem of documents' structure and kept files, one message each."""
    problems: list[str] = []
    kinds = [k.value for k in DocumentKind]
    for key, kind in conn.execute(
            "SELECT key, kind FROM documents WHERE kind NOT IN (SELECT value FROM json_each(?)) "
            "ORDER BY key", (json.dumps(kinds),)):
        problems.append(Message("document {key}: kind '{kind}' is not one this build reads; "
                                "import the document again", key=key, kind=kind))
    for key, pages, headings, length in conn.execute(
            "SELECT key, pages, headings, length(text) FROM documents "
            "WHERE pages IS NOT NULL OR headings IS NOT NULL ORDER BY key"):
        try:
            check_layout(json.loads(pages) if pages else None,
                         json.loads(headings) if headings else None, int(length))
        except (ValueError, InvalidValue) as error:
            problems.append(Message("document {key}: its layout is wrong ({error}); import "
                                    "the document again", key=key, error=error))
    for (key,) in conn.execute(
            "SELECT key FROM documents WHERE kind = 'pdf' AND parent_id IS NULL "
            "AND file_id IS NULL ORDER BY key"):
        problems.append(Message("document {key} is a PDF without its kept file: its pages "
                                "cannot be shown; import the PDF again", key=key))
    for key, kind in conn.execute(
            "SELECT d.key, f.kind FROM documents d JOIN document_files f ON f.id = d.file_id "
            "WHERE d.kind != f.kind ORDER BY d.key"):
        problems.append(Message("document {key}: its kept file is a {kind} file, not its "
                                "kind; import the document again", key=key, kind=kind))
    problems += _file_problems(conn)
    for key, parent, start, end, length in conn.execute(
            "SELECT d.key, p.key, d.span_start, d.span_end, length(p.text) FROM documents d "
            "LEFT JOIN documents p ON p.id = d.parent_id WHERE d.span_start IS NOT NULL "
            "AND (p.id IS NULL OR d.span_end > length(p.text) OR d.span_end IS NULL) "
            "ORDER BY d.key"):
        if parent is None:
            problems.append(Message("passage {key} has a span but is part of no document",
                                    key=key))
        else:
            problems.append(Message("passage {key}: span {start}–{end} lies beyond the end of "
                                    "document {parent} ({length} characters)", key=key,
                                    start=start, end=end, parent=parent, length=length))
    return problems


def _file_problems(conn: sqlite3.Connection) -> list[str]:
    """Kept files whose bytes no longer match their SHA-256 or size (read one at a time)."""
    problems: list[str] = []
    for file_id, sha, size in conn.execute(
            "SELECT id, sha256, size FROM document_files ORDER BY id").fetchall():
        (data,) = conn.execute("SELECT data FROM document_files WHERE id = ?",
                               (file_id,)).fetchone()
        if len(data) != size or hashlib.sha256(data).hexdigest() != sha:
            names = [k for (k,) in conn.execute(
                "SELECT key FROM documents WHERE file_id = ? ORDER BY key LIMIT 3", (file_id,))]
            problems.append(Message("kept file {sha} (documents: {keys}): its bytes do not "
                                    "match their SHA-256 and size (damaged); import the "
                                    "documents again", sha=sha[:12], keys=", ".join(names)
                                    or "none"))
    return problems
