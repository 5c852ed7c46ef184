"""Assignment files: hand the pool out to a team, one file per expert, and collect them back.

One writer per file, any file-sync engine (a synced folder, a git repository) as transport,
union on read: the lead's master creates a campaign and writes ``DIR/<assessor>.goldset``
for each expert (:func:`hand_out`); each expert judges offline in their own file; the lead's
``collect`` brings each file back as one undoable operation (:func:`collect`).

Collecting trusts nothing in the incoming file (it travelled):

* it must be a gold-set file of this build's schema (opening it read-only checks that), an
  assignment file (``meta.assignment``) handed out by THIS master (``meta.file_uuid``) in a
  campaign this master has, for one of that campaign's assessors; otherwise it is refused
  with one line and the master is not touched;
* cases and documents are shared content: an expert's edit to them is reported as a conflict
  and never applied;
* only the file's assessor's rows on their own slots come in (judgments with their seconds,
  control repeats, "can't judge" with its reason); anything else is listed as skipped;
* a label the master already holds for that assessor and pair is replaced only by a newer
  one (instants compared), so collecting the same file twice adds nothing.

Disputes (the ``k`` assessors of a pair disagree) need no step of their own: the adjudication
queue (``disputed_pairs``) is computed from the judgments, so they appear there once collected.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from rag_annotator.domain import team_ops
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.ports import Writer
from rag_annotator.errors import FileNotFound, KnownError
from rag_annotator.import_export.files import Cancelled, atomic_text_writer, check_cancel
from rag_annotator.storage import tempfiles
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.storage.team_copy import refuse_existing, write_assignment

SUFFIX = ".goldset"
#: Names Windows refuses as a file name, whatever the extension.
_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                       *(f"lpt{i}" for i in range(1, 10))})
_UNSAFE = re.compile(r"[^\w\-. ]+", re.UNICODE)
#: How far in the future an incoming timestamp may be (an expert's clock set wrong).
FUTURE_SKEW = timedelta(days=1)


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
        return (f"campaign {self.campaign}: {self.pairs} pairs handed out to "
                f"{len(self.files)} assessors ("
                + ", ".join(f"{name} {n}" for name, n in self.slots.items()) + " slots)")


def hand_out(store: GoldSetStore, assessors: Sequence[str], per_pair: int, out_dir: Path, *,
             control: float = 0.0, seed: int | None = None,
             runs: Sequence[str] | None = None, depth: int | None = None,
             cancel: Callable[[], bool] | None = None,
             progress: Callable[[int, int], None] | None = None) -> HandOutReport:
    """Create a campaign in ``store`` (one undoable operation) and write one assignment file
    per assessor in ``out_dir`` (created if missing; existing assignment files are never
    overwritten: refused before anything changes).

    ``cancel`` is polled while planning and between files; cancelled while planning, nothing
    changed; cancelled while writing, the files written so far are removed and the campaign
    is undone.  ``progress(done, total)`` counts the files (total = assessors + 1).
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
                                       tick=lambda: check_cancel(cancel))
    report.changes = changes
    campaign = store.campaigns()[-1]
    report.campaign, report.pairs = str(campaign["uuid"]), len(store.campaign_pool(runs, depth))
    ids = {name: store.by_key("assessors", name)["id"] for name in names}
    written: list[Path] = []
    try:
        out.mkdir(exist_ok=True)
        for done, name in enumerate(names, start=1):
            check_cancel(cancel)
            info = {"campaign": report.campaign, "master": str(campaign["master"]),
                    "assessor": name, "name": str(campaign["name"])}
            report.slots[name] = write_assignment(store.path, files[name], campaign["id"],
                                                  ids[name], info)
            written.append(files[name])
            report.files[name] = files[name]
            if progress is not None:
                progress(done, total)
    except BaseException:
        for path in written:
            tempfiles.remove(path)
        if changes.operation_id:
            store.revert(changes.operation_id)
        raise
    if progress is not None:
        progress(total, total)
    return report


# -- collecting -------------------------------------------------------------------------
@dataclass
class FileCollect:
    """What collecting one file did (``refused``: why it was not, the master untouched)."""

    path: Path
    assessor: str = ""
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    cannot_judge: int = 0
    controls: int = 0
    conflicts: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: str | None = None
    changes: Changes | None = None

    def summary(self) -> str:
        """One line in English."""
        if self.refused is not None:
            return f"refused: {self.refused}"
        return (f"{self.path}: {self.assessor}: {self.added} judgments added, {self.updated} "
                f"updated, {self.unchanged} unchanged, {self.controls} control repeats, "
                f"{self.cannot_judge} can't-judge; {len(self.conflicts)} conflicts, "
                f"{len(self.skipped)} skipped")


@dataclass
class CollectReport:
    """Every file's outcome and the disputes now waiting in the adjudication queue."""

    files: list[FileCollect] = field(default_factory=list)
    disputes: int = 0

    @property
    def refused(self) -> list[FileCollect]:
        return [f for f in self.files if f.refused is not None]


def expand_sources(sources: Iterable[str | Path], master: Path) -> list[Path]:
    """The files to collect: each file given, and every ``*.goldset`` under each folder
    (recursively, in name order; hidden folders such as ``.git`` and our temporary names
    skipped; the master itself never).  A missing source is refused before anything."""
    out: list[Path] = []
    for source in sources:
        path = Path(source).expanduser()
        if path.is_dir():
            for found in sorted(path.rglob(f"*{SUFFIX}")):
                parts = found.relative_to(path).parts
                if any(p.startswith(".") for p in parts) or not found.is_file():
                    continue
                out.append(found)
        elif path.exists():
            out.append(path)
        else:
            raise FileNotFound("no such file or folder to collect; check the path.", path=path)
    master = master.resolve()
    unique: dict[Path, Path] = {}
    for path in out:
        if path.resolve() != master:
            unique.setdefault(path.resolve(), path)
    return list(unique.values())


def collect(store: GoldSetStore, sources: Iterable[str | Path], *,
            cancel: Callable[[], bool] | None = None,
            progress: Callable[[int, int], None] | None = None) -> CollectReport:
    """Collect every assignment file of ``sources`` into ``store``, one undoable operation
    per file (see the module's rules); a refused file is reported, never half-applied."""
    paths = expand_sources(sources, store.path)
    report = CollectReport()
    for done, path in enumerate(paths):
        check_cancel(cancel)
        if progress is not None:
            progress(done, len(paths))
        result = FileCollect(path)
        try:
            _collect_one(store, path, result)
        except Cancelled:
            raise
        except KnownError as error:
            result.refused = str(error)  # names the file
        report.files.append(result)
    if progress is not None:
        progress(len(paths), len(paths))
    report.disputes = len(store.disputed_pairs())
    return report


def _collect_one(store: GoldSetStore, path: Path, result: FileCollect) -> None:
    try:
        with GoldSetStore.open(path, read_only=True) as other:
            info = other.assignment_info()
            if info is None:
                raise KnownError("not an assignment file (it holds no campaign handed out by "
                                 "'assign'); use 'merge' for a colleague's copy.", path=path)
            rows = other.team_rows()
            content = other.shared_content()
    except OSError as error:
        raise KnownError(f"cannot be read ({error.strerror or error}).", path=path) from None
    mine = store.file_uuid()
    if not mine or info["master"] != mine:
        raise KnownError("it was handed out by another master file, not this one; collect "
                         "it into the file that ran 'assign'.", path=path)
    campaign = store.campaign_by_uuid(info["campaign"])
    if campaign is None:
        raise KnownError(f"it belongs to campaign {info['campaign']}, which this file does "
                         "not have (removed or undone?); nothing was collected.", path=path)
    assessor = info["assessor"]
    result.assessor = assessor
    slots = store.campaign_slots(int(campaign["id"]), assessor)
    if not slots:
        raise KnownError(f"assessor {assessor!r} has no slot in campaign {campaign['name']}; "
                         "nothing was collected.", path=path)
    result.conflicts = _conflicts(store.shared_content(), content)
    with store.operation("collect", f"← {path.name} ({assessor})") as op:
        _bring(store, op, rows, assessor, int(campaign["id"]), slots, result)
    result.changes = op.changes()


def _conflicts(master: dict[str, dict[str, tuple[object, ...]]],
               theirs: dict[str, dict[str, tuple[object, ...]]]) -> list[str]:
    """Shared content the expert changed, one line each (never applied)."""
    out: list[str] = []
    for table, what in (("cases", "case"), ("documents", "document")):
        for key, values in theirs[table].items():
            known = master[table].get(key)
            if known is None:
                out.append(f"{what} {key} is not in this file (added in the assignment "
                           "file); not applied")
            elif known != values:
                out.append(f"{what} {key} was edited in the assignment file; this file's "
                           "version kept")
    return out


def _instant(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def _bring(store: GoldSetStore, op: Writer, rows: dict[str, list[tuple[Any, ...]]],
           assessor: str, campaign_id: int, slots: set[tuple[int, int, int]],
           result: FileCollect) -> None:
    """Inside the collect operation: the assessor's rows on their slots, checked."""
    cases, docs = op.ids_by_key("cases"), op.ids_by_key("documents")
    assessor_id = int(store.by_key("assessors", assessor)["id"])
    max_grade = int(store.meta("max_grade", "1") or 1)
    latest = datetime.now(timezone.utc) + FUTURE_SKEW

    def slot(case: Any, doc: Any, who: Any, control: int, what: str) -> tuple[int, int] | None:
        pair = (cases.get(case), docs.get(doc))
        if who != assessor:
            result.skipped.append(f"{what} of {who} on {case} · {doc}: not this file's "
                                  f"assessor ({assessor})")
        elif pair[0] is None or pair[1] is None or (pair[0], pair[1], control) not in slots:
            result.skipped.append(f"{what} on {case} · {doc}: not one of {assessor}'s pairs")
        else:
            return int(pair[0]), int(pair[1])
        return None

    def trusted(grade: Any, seconds: Any, at: Any, what: str) -> bool:
        moment = _instant(at)
        if grade is not None and (not isinstance(grade, int) or not 0 <= grade <= max_grade):
            why = f"grade {grade!r} is outside this file's scale (0–{max_grade})"
        elif seconds is not None and not (isinstance(seconds, (int, float))
                                          and 0 <= seconds <= team_ops.MAX_SECONDS):
            why = f"seconds {seconds!r} is not a time"
        elif moment is None or moment > latest:
            why = f"its timestamp {str(at)[:40]!r} is not a believable date and time"
        else:
            return True
        result.skipped.append(f"{what}: {why}")
        return False

    existing = store.assessor_judgments(assessor)
    new_rows: list[tuple[Any, ...]] = []
    for case, doc, who, grade, seconds, note, at in rows["judgments"]:
        pair = slot(case, doc, who, 0, "judgment")
        if pair is None or not trusted(grade, seconds, at, f"judgment on {case} · {doc}"):
            continue
        known = existing.get(pair)
        if known is None:
            if grade is not None:
                new_rows.append((pair[0], pair[1], assessor_id, grade, seconds, note or "", at))
                result.added += 1
            continue
        judgment_id, old_grade, old_seconds, old_note, old_at = known
        if (old_grade, old_seconds, old_note) == (grade, seconds, note):
            result.unchanged += 1
        elif _newer(at, old_at):
            op.update("judgments", {"id": judgment_id}, {"grade": grade, "seconds": seconds,
                                                         "note": note or "", "updated_at": at})
            result.updated += 1
        else:
            result.unchanged += 1
    op.insert_rows("judgments", ("case_id", "document_id", "assessor_id", "grade", "seconds",
                                 "note", "updated_at"), new_rows)
    _bring_controls(op, rows["control_judgments"], slot, trusted, campaign_id, assessor_id,
                    result)
    _bring_cannot(op, rows["cannot_judge"], slot, trusted, assessor_id, result)


def _newer(theirs: Any, mine: Any) -> bool:
    theirs_at, mine_at = _instant(theirs), _instant(mine)
    return theirs_at is not None and (mine_at is None or theirs_at > mine_at)


def _bring_controls(op: Writer, rows: list[tuple[Any, ...]], slot: Callable[..., Any],
                    trusted: Callable[..., bool], campaign_id: int, assessor_id: int,
                    result: FileCollect) -> None:
    for case, doc, who, grade, seconds, at in rows:
        pair = slot(case, doc, who, 1, "control repeat")
        if pair is None or not trusted(grade, seconds, at, f"control repeat on {case} · {doc}"):
            continue
        key = {"campaign_id": campaign_id, "assessor_id": assessor_id, "case_id": pair[0],
               "document_id": pair[1]}
        found = op.select("control_judgments", **key)
        values = {"grade": grade, "seconds": seconds, "updated_at": at}
        if not found:
            op.insert("control_judgments", {**key, **values})
            result.controls += 1
        elif (found[0]["grade"], found[0]["seconds"]) != (grade, seconds) and _newer(
                at, found[0]["updated_at"]):
            op.update("control_judgments", {"id": found[0]["id"]}, values)
            result.controls += 1


def _bring_cannot(op: Writer, rows: list[tuple[Any, ...]], slot: Callable[..., Any],
                  trusted: Callable[..., bool], assessor_id: int, result: FileCollect) -> None:
    for case, doc, who, reason, at in rows:
        pair = slot(case, doc, who, 0, "can't judge")
        if pair is None or not trusted(None, None, at, f"can't judge on {case} · {doc}"):
            continue
        if not isinstance(reason, str) or not reason.strip():
            result.skipped.append(f"can't judge on {case} · {doc}: no reason")
            continue
        key = {"case_id": pair[0], "document_id": pair[1], "assessor_id": assessor_id}
        found = op.select("cannot_judge", **key)
        if not found:
            op.insert("cannot_judge", {**key, "reason": reason, "updated_at": at})
            result.cannot_judge += 1
        elif found[0]["reason"] != reason and _newer(at, found[0]["updated_at"]):
            op.update("cannot_judge", {"id": found[0]["id"]}, {"reason": reason,
                                                               "updated_at": at})
            result.cannot_judge += 1


def export_pending(store: GoldSetStore, destination: Path) -> int:
    """Write the pairs the file still has to judge as qrels with the label -1 (in an
    assignment file: its expert's remaining pairs, in their order); return how many."""
    pairs = store.pending_pairs()
    with atomic_text_writer(destination) as out:
        for case, doc in pairs:
            if any(ch.isspace() for ch in case + doc):
                raise KnownError(f"case {case!r} or document {doc!r} holds a space, which a "
                                 "qrels line cannot carry.", path=destination)
            out.write(f"{case} 0 {doc} -1\n")
    return len(pairs)
