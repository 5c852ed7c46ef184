"""Assignment files: hand the pool out to a team, one file per expert, and collect them back.

One writer per file, any file-sync engine (a synced folder, a git repository) as transport,
union on read: the lead's master creates a campaign and writes ``DIR/<assessor>.goldset``
for each expert (:func:`hand_out`); each expert judges offline in their own file; the lead's
``collect`` brings each file back as one undoable operation (:func:`collect`).

Collecting is :mod:`~rag_annotator.import_export.team_collect` (re-exported here).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rag_annotator.domain import team_ops
from rag_annotator.domain.changes import Changes
from rag_annotator.errors import FileNotFound, KnownError
from rag_annotator.import_export.files import atomic_text_writer, check_cancel
from rag_annotator.import_export.team_collect import (
    SUFFIX,
    CollectReport,
    FileCollect,
    collect,
    expand_sources,
)
from rag_annotator.messages import Message
from rag_annotator.storage import tempfiles
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.storage.team_copy import refuse_existing, write_assignments

__all__ = ["CollectReport", "FileCollect", "HandOutReport", "collect", "expand_sources",
           "export_pending", "hand_out", "safe_file_name"]

#: Names Windows refuses as a file name, whatever the extension.
_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                       *(f"lpt{i}" for i in range(1, 10))})
_UNSAFE = re.compile(r"[^\w\-. ]+", re.UNICODE)


def safe_file_name(assessor: str) -> str:
    """A file name for an assessor's assignment, safe on every file system and sync engine:
    letters (any script), digits, ``-_.`` and spaces kept; anything else (``/``, ``\\``,
    ``:``…) replaced; NFC; no leading dot; no reserved Windows name; at most 80
    characters.  When anything had to change, a short hash of the real name is appended, so
    two names never share a file (``a/b`` and ``a_b`` included)."""
    name = unicodedata.normalize("NFC", assessor)
    safe = _UNSAFE.sub("_", name).strip(" .")[:80] or "assessor"
    if safe.lower().split(".")[0] in _RESERVED:
        safe = f"_{safe}"
    if safe != assessor:
        safe += "-" + hashlib.sha256(assessor.encode("utf-8")).hexdigest()[:8]
    return safe + SUFFIX


# -- handing out ------------------------------------------------------------------------
@dataclass
class HandOutReport:
    """What :func:`hand_out` did: the campaign's uuid and one file per assessor."""

    campaign: str = ""
    pairs: int = 0
    files: dict[str, Path] = field(default_factory=dict)
    slots: dict[str, int] = field(default_factory=dict)
    changes: Changes | None = None
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line in English."""
        return Message("campaign {campaign}: {pairs} pairs handed out to {assessors} assessors "
                       "({slots} slots)", campaign=self.campaign, pairs=self.pairs,
                       assessors=len(self.files),
                       slots=", ".join(f"{name} {n}" for name, n in self.slots.items()))


def hand_out(store: GoldSetStore, assessors: Sequence[str], per_pair: int, out_dir: Path, *,
             control: float = 0.0, seed: int | None = None,
             runs: Sequence[str] | None = None, depth: int | None = None,
             cancel: Callable[[], bool] | None = None,
             progress: Callable[[int, int], None] | None = None,
             items: str = "pairs", name: str = "") -> HandOutReport:
    """Create a campaign in ``store`` (one undoable operation) and write one assignment file
    per assessor in ``out_dir`` (created if missing; existing assignment files are never
    overwritten: refused before anything changes).

    ``cancel`` is polled while planning and between files; cancelled while planning, nothing
    changed; cancelled while writing, the files written so far are removed and the campaign
    is undone.  ``progress(done, total)`` counts the files (total = assessors + 1).
    ``items`` "claims" / "trajectories" hands out those of ``runs`` instead of pairs
    (``report.pairs`` then counts them); ``name`` names the campaign ('' gives one).
    """
    out = Path(out_dir).expanduser()
    if not out.parent.is_dir():
        raise FileNotFound("the folder that should hold the assignment files does not exist; "
                           "create it first.", path=out.parent)
    names = list(assessors)
    files = {name: out / safe_file_name(name) for name in names}
    for dest in files.values():
        refuse_existing(dest)
    report = HandOutReport()
    total = len(names) + 1
    if progress is not None:
        progress(0, total)
    changes = team_ops.create_campaign(store, names, per_pair, control=control, seed=seed,
                                       runs=runs, depth=depth,
                                       tick=lambda: check_cancel(cancel), items=items,
                                       name=name)
    report.changes = changes
    campaign = store.campaigns()[-1]
    report.campaign = str(campaign["uuid"])
    ids = {name: store.by_key("assessors", name)["id"] for name in names}
    written: list[Path] = []

    def each(dest: Path, slots: int, pairs: int) -> None:
        written.append(dest)
        name = names[len(written) - 1]
        report.slots[name], report.files[name] = slots, dest
        report.pairs += pairs
        if progress is not None:
            progress(len(written), total)
        check_cancel(cancel)

    try:
        out.mkdir(exist_ok=True)
        check_cancel(cancel)
        write_assignments(store.path, int(campaign["id"]), str(campaign["items"]), [
            (files[name], int(ids[name]), {
                "campaign": report.campaign, "master": str(campaign["master"]),
                "assessor": name, "name": str(campaign["name"])}) for name in names],
            each=each)
    except BaseException:
        for path in written:
            tempfiles.remove(path)
        if changes.operation_id:
            store.revert(changes.operation_id)
        raise
    report.pairs //= per_pair  # each pair is in per_pair queues once (controls aside)
    if progress is not None:
        progress(total, total)
    return report


def export_pending(store: GoldSetStore, destination: Path) -> int:
    """Write the pairs the file still has to judge as qrels with the label -1 (in an
    assignment file: its expert's remaining pairs, in their order); return how many."""
    pairs = store.pending_pairs()
    with atomic_text_writer(destination) as out:
        for case, doc in pairs:
            if any(ch.isspace() for ch in case + doc):
                raise KnownError("case {case!r} or document {doc!r} holds a space, which a "
                                 "qrels line cannot carry.", case=case, doc=doc, path=destination)
            out.write(f"{case} 0 {doc} -1\n")
    return len(pairs)
