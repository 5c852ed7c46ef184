"""The corpus import of the expert's own files: a folder of documents, or one document.

Every file below the folder is read by the reader of its kind
(:mod:`~rag_annotator.import_export.documents`) and gets exactly one line in the import's
report: *added*, *changed*, *updated* (same text, new properties, structure or kept file),
*unchanged*, or *not imported* with its reason (unknown kind, too large, damaged, encrypted,
a scan without text, unsafe, an id another file also has).  One file that cannot be read is
refused alone; the others are imported.

* The document id (key) is the file's path relative to the folder without its extension
  (``rh/conges.pdf`` → ``rh/conges``), so a re-import finds the same document again.
* Two files with the same key (``a.pdf`` and ``a.docx``) would be two versions of one
  document with no way to tell which is meant: neither is imported, each line names the
  other, and the document already in the gold set (if any) is left as it is (it has not
  disappeared: its files are still there).
* The title is the file's own title, else its first heading, else its file name.
* The file's other properties (author, dates, subject, keywords, language) go to the
  document's ``extra``; they do not overwrite its ``owner``, which is the registry's
  accountable owner, set by whoever curates the corpus.
* A PDF's bytes are kept (the page is shown from them): hashed while it is read, and read
  again when they are stored, one file at a time, so a folder of large PDFs never sits in
  memory whole.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_annotator.domain.layout import DocumentKind
from rag_annotator.errors import KnownError
from rag_annotator.import_export.documents.reading import (
    SUFFIX_LIST,
    ReadDocument,
    clean_title,
    kind_of,
    read_bytes,
    read_document,
)
from rag_annotator.import_export.files import Cancelled, ImportRejected
from rag_annotator.import_export.folders import folder_files
from rag_annotator.messages import Joined, Message

#: Most text characters a folder's documents may hold together (read before anything is
#: written, they are all in memory once).
MAX_FOLDER_CHARS = 512 * 1024**2

#: The statuses of a file in the report, in the order the report lists them.
STATUSES = ("not_imported", "added", "changed", "updated", "unchanged")
#: Titles that name no document ("untitled" is what many tools write when none was given).
_EMPTY_TITLES = frozenset({"untitled", "sans titre", "document", "titre", "title"})


@dataclass(frozen=True)
class KeptFile:
    """The original file a document keeps: where to read it again and what it must hash to."""

    sha256: str
    path: Path
    name: str
    kind: str
    size: int

    def read(self) -> bytes:
        """The bytes, checked against the hash taken when the file was read."""
        data = read_bytes(self.path)
        if hashlib.sha256(data).hexdigest() != self.sha256:
            raise ImportRejected(self.path, None, "the file changed while it was being "
                                                  "imported; import the folder again.")
        return data


@dataclass
class FileOutcome:
    """What the import did with one file."""

    path: str
    key: str | None
    status: str = "not_imported"
    reason: Message | str | None = None
    notes: list[Message | str] = field(default_factory=list)

    def line(self) -> Message:
        """One line for the report: the file, what happened, why or what was noticed."""
        words = {"added": Message("added"), "changed": Message("changed (new version)"),
                 "updated": Message("same text, properties or kept file updated"),
                 "unchanged": Message("unchanged")}
        if self.status == "not_imported":
            return Message("{file}: not imported — {reason}", file=self.path,
                           reason=self.reason or "")
        if self.notes:
            return Message("{file}: {status}; {notes}", file=self.path,
                           status=words[self.status], notes=Joined(self.notes, "; "))
        return Message("{file}: {status}", file=self.path, status=words[self.status])


@dataclass
class FileRecords:
    """The documents read from files, and a line for every file."""

    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    outcomes: list[FileOutcome] = field(default_factory=list)
    #: Keys of files that were not imported: not "disappeared", their files are there.
    refused_keys: set[str] = field(default_factory=set)


def is_document_file(path: Path) -> bool:
    """True for a single file the corpus import reads as one document (a .txt stays a
    table: a tab-separated registry is a .txt too)."""
    kind = kind_of(path)
    return kind is not None and kind is not DocumentKind.TEXT


def read_folder(folder: Path, warnings: list[str],
                progress: Callable[[int, int], None] | None = None,
                cancel: Callable[[], bool] | None = None) -> FileRecords:
    """Read every file below ``folder`` (module docstring)."""
    files = folder_files(folder, None, warnings)
    if not any(kind_of(f) is not None for f in files):
        raise ImportRejected(folder, None, "the folder holds no document this import reads "
                                           "({suffixes}).", suffixes=SUFFIX_LIST)
    out = FileRecords()
    by_key: dict[str, list[Path]] = {}
    for file in files:
        if kind_of(file) is not None:
            by_key.setdefault(file.relative_to(folder).with_suffix("").as_posix(),
                              []).append(file)
    total_chars = 0
    windows: list[str] = []
    for number, file in enumerate(files, start=1):
        if cancel is not None and cancel():
            raise Cancelled()
        if progress is not None:
            progress(number - 1, len(files))
        relative = file.relative_to(folder).as_posix()
        key = file.relative_to(folder).with_suffix("").as_posix()
        outcome = FileOutcome(relative, key)
        out.outcomes.append(outcome)
        twins = [f for f in by_key.get(key, []) if f != file]
        if twins:
            outcome.reason = Message("{other} has the same document id '{key}'; rename or "
                                     "move one of them (neither was imported)",
                                     other=twins[0].relative_to(folder).as_posix(), key=key)
            out.refused_keys.add(key)
            continue
        try:
            read = read_document(file, cancel=cancel)
        except Cancelled:
            raise
        except KnownError as error:
            outcome.reason = Message(error.message_id, **error.params)
            if kind_of(file) is not None:
                out.refused_keys.add(key)
            else:
                outcome.key = None  # not a document at all: it names no document
            continue
        total_chars += len(read.text)
        if total_chars > MAX_FOLDER_CHARS:
            raise ImportRejected(folder, None, "the folder's documents hold too much text "
                                               "together (over {limit:,} characters); import "
                                               "it in parts.", limit=MAX_FOLDER_CHARS)
        if read.decoded_as == "cp1252":
            windows.append(relative)
        outcome.notes = list(read.notes)
        out.records.append((number, record(file, key, read)))
    if windows:  # one line, however many files
        from rag_annotator.import_export.tabular import few_names

        warnings.append(Message("{few_names}: not UTF-8; read as Windows-1252.",
                                few_names=few_names(windows, 5)))
    return out


def read_single(path: Path, cancel: Callable[[], bool] | None = None) -> FileRecords:
    """One document file given alone: its key is its name without the extension.  A file
    that cannot be read refuses the import (ImportRejected), as any single file does."""
    read = read_document(path, cancel=cancel)
    out = FileRecords()
    out.records.append((1, record(path, path.stem, read)))
    outcome = FileOutcome(path.name, path.stem)
    outcome.notes = list(read.notes)
    out.outcomes.append(outcome)
    return out


def record(path: Path, key: str, read: ReadDocument) -> dict[str, Any]:
    """The import record of a document read from ``path``: its fields, its properties as
    ``extra``, its structure and the file it keeps (see the corpus import)."""
    first_heading = read.layout.headings[0].title if read.layout.headings else ""
    title = read.title if read.title.lower() not in _EMPTY_TITLES else ""
    row: dict[str, Any] = {
        "key": key, "title": title or first_heading or clean_title(path.stem.replace("_", " ")),
        "text": read.text, "extra": dict(read.properties),
        "structure": {"kind": read.kind.value, **read.layout.columns()}}
    if read.keep is not None:
        row["keep"] = KeptFile(hashlib.sha256(read.keep).hexdigest(), path, path.name,
                               read.kind.value, len(read.keep))
    return row
