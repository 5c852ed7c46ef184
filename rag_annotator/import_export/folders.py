"""Reading the files of a folder the user chose without ever leaving it through a link.

A folder is untrusted input even when it is the user's own: a shared drive, a zip or a git
repository can carry ``passwd.txt -> /etc/passwd`` or ``corpus.jsonl -> ~/.ssh/id_rsa``, and
an import that followed it would store that file in a gold set the user then shares.  So:

* a symbolic link whose target is outside the folder (existing or not: a dangling link
  may lead somewhere tomorrow) refuses the whole import, with one line naming the link
  and where it leads; nothing is imported — the user copies the file in if it was meant;
* a link that stays inside the folder is harmless but redundant.  Walking a folder
  (:func:`folder_files`: the corpus folder) skips it with a note, because the file it names is
  read under its own name anyway (a link would only add a duplicate document, or a loop for a
  link to a parent folder).  A file the format names (:func:`named_file`: BEIR's
  ``corpus.jsonl``, the csv folder's ``cases.csv``…) is read through it, with a note, because
  skipping it would only make the import fail for a missing file.

Links are judged by where they resolve, every component on the way (``qrels`` itself may be
the link).  Hard links cannot be told from a file and are read like one.
"""

from __future__ import annotations

import os
from pathlib import Path

from rag_annotator.import_export.files import ImportRejected
from rag_annotator.messages import Message


def _within(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _judge_link(root: str, link: Path) -> str:
    """The real path a link inside the folder leads to; refuses one that leads out."""
    real = os.path.realpath(link)
    if not _within(real, root):
        raise ImportRejected(link, None, "this is a link to {real}, outside the folder; an "
                                         "import never follows a link out of its folder "
                                         "(copy the file in instead). Nothing was imported.",
                                         real=real)
    return real


def named_file(folder: Path, relative: str, notes: list[str]) -> Path:
    """``folder / relative`` once checked: a link on the way that leads out of the folder is
    refused; one that stays inside is followed and noted in ``notes``."""
    root = os.path.realpath(folder)
    path = folder
    for part in Path(relative).parts:
        path = path / part
        if path.is_symlink():
            real = _judge_link(root, path)
            notes.append(Message("{as_posix} is a link to "
                                 "{as_posix2} inside the folder; read "
                                 "through it.",
                                 as_posix=path.relative_to(folder).as_posix(),
                                 as_posix2=Path(real).relative_to(root).as_posix()))
    return path


def folder_files(folder: Path, suffixes: tuple[str, ...] | None, notes: list[str]) -> list[Path]:
    """The files below ``folder`` whose suffix is one of ``suffixes`` (None: every file),
    sorted, links skipped: one that leads out of the folder is refused, one that stays inside
    is noted and skipped.  Hidden files and folders (a name starting with ``.``: ``.git``,
    ``.DS_Store``) and office lock files (``~$rapport.docx``, left while a file is open) are
    not read, and a note names them: they are never documents, and walking a ``.git`` folder
    would list thousands of files."""
    root = os.path.realpath(folder)
    found: list[Path] = []
    skipped: list[str] = []
    hidden: list[str] = []
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            entries = list(os.scandir(current))
        except OSError as error:
            raise ImportRejected(current, None, "cannot read this folder "
                                                "({value}).",
                                                value=error.strerror or error) from None
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                _judge_link(root, path)
                skipped.append(path.relative_to(folder).as_posix())
            elif entry.name.startswith((".", "~$")):
                hidden.append(path.relative_to(folder).as_posix())
            elif entry.is_dir(follow_symlinks=False):
                pending.append(path)
            elif entry.is_file(follow_symlinks=False) and (
                    suffixes is None or path.suffix.lower() in suffixes):
                found.append(path)
    if skipped:
        from rag_annotator.import_export.tabular import few_names

        notes.append(Message("{n_skipped:,} link(s) inside the folder skipped (their targets are "
                             "read under their own names): {few_names}.",
                             n_skipped=len(skipped), few_names=few_names(sorted(skipped), 5)))
    if hidden:
        from rag_annotator.import_export.tabular import few_names

        notes.append(Message("{n:,} hidden or temporary file(s) or folder(s) not read: "
                             "{few_names}.", n=len(hidden),
                             few_names=few_names(sorted(hidden), 5)))
    return sorted(found)
