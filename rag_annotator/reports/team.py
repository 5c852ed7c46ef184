"""The team's figures, from the master file or live from a folder of assignment files.

* :func:`store_team_figures`: the figures of every assessor of one gold-set file (the master
  after collecting, or any file with several assessors) — what the workbook's *Assessors*
  sheet and the native JSON's ``assessors`` section render.
* :func:`read_team_folder`: what the Dashboard's team panel shows while the experts work —
  every ``*.goldset`` of a folder opened **read-only** (never written: the folder is synced
  by another program, and each file belongs to its expert), one :class:`FileStatus` per file
  and one :class:`TeamStatus` for the team.  A file that cannot be read now (a journal beside
  it while its owner's app or the sync engine writes it, half copied, damaged, from another
  campaign, a conflicting second copy of one assessor's file) is listed with the reason,
  never a crash; the next refresh tries again.

Both hand plain values to :func:`rag_annotator.metrics.team.team_figures`.  Opening a file
read-only also removes, in its folder, temporary files this app's dead processes on this
machine left there (``storage.tempfiles``) — never a gold-set file, never someone else's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rag_annotator.errors import KnownError
from rag_annotator.messages import Message
from rag_annotator.metrics.team import ItemProgress, TeamFigures, TimedJudgment, team_figures
from rag_annotator.metrics.team_items import ItemVerdict, items_agreement
from rag_annotator.storage.store import GoldSetStore

#: What the folder holds that the panel reads.
PATTERN = "*.goldset"


@dataclass(frozen=True)
class FileStatus:
    """One file of the team folder: whose, which campaign, how far; ``problem`` says why it
    was not read ('' when it was)."""

    name: str
    assessor: str = ""
    campaign: str = ""
    campaign_name: str = ""
    problem: str = ""
    assigned: int = 0
    done: int = 0
    modified: str = ""
    #: What the campaign hands out: ``pairs``, ``claims`` or ``trajectories``.
    items: str = "pairs"


@dataclass(frozen=True)
class TeamStatus:
    """What the team panel shows: the files, the team's figures over the files read, and
    notes about the folder itself (missing, several campaigns)."""

    folder: str
    files: tuple[FileStatus, ...] = ()
    figures: TeamFigures = field(default_factory=TeamFigures)
    notes: tuple[str, ...] = ()

    @property
    def read(self) -> tuple[FileStatus, ...]:
        """The files whose figures count."""
        return tuple(f for f in self.files if not f.problem)

    @property
    def unread(self) -> tuple[FileStatus, ...]:
        """The files listed with a reason."""
        return tuple(f for f in self.files if f.problem)


@dataclass
class _FileRead:
    """What one assignment file gave (internal)."""

    status: FileStatus
    judgments: list[TimedJudgment] = field(default_factory=list)
    #: The expert's own answers on claims or trajectories (a campaign of items).
    verdicts: list[ItemVerdict] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    controls: list[tuple[int, int]] = field(default_factory=list)
    cant_judge: int = 0
    graded: bool = False


# -- from one file -----------------------------------------------------------------------------
def store_team_figures(store: GoldSetStore) -> TeamFigures:
    """Every assessor's figures in one file (module docstring)."""
    rows = [TimedJudgment(c, d, a, g) for c, d, a, g, _f in store.judgment_rows()]
    seconds: dict[str, list[float]] = {}
    for name, value in store.judgment_seconds():
        seconds.setdefault(name, []).append(value)
    controls: dict[str, list[tuple[int, int]]] = {}
    for row in store.control_rows():
        if row["first"] is not None and row["repeat"] is not None:
            controls.setdefault(str(row["assessor"]), []).append(
                (int(row["first"]), int(row["repeat"])))
    cant: dict[str, int] = {}
    for row in store.cannot_judge_rows():
        cant[str(row["assessor"])] = cant.get(str(row["assessor"]), 0) + 1
    progress = store.assessor_progress()
    # an assessor of the file who never judged relevance nor has work left (a claim
    # verifier, a judge) is not part of the judging team
    remaining = {name: p["remaining"] for name, p in progress.items()
                 if p["judged"] or p["remaining"]}
    figures = team_figures(rows, controls=controls, cant_judge=cant, remaining=remaining,
                           seconds=seconds, graded=_graded(store))
    items = [
        ItemProgress(str(r["name"]), str(r["items"]), int(r["assigned"]), int(r["done"]))
        for r in store.item_progress()]
    if not items:  # no campaign of claims or trajectories: their verdicts are not read
        return figures
    return with_items(figures, items, [ItemVerdict(*v) for v in store.item_verdicts()])


def with_items(figures: TeamFigures, progress: Sequence[ItemProgress],
               verdicts: Iterable[ItemVerdict]) -> TeamFigures:
    """``figures`` with the progress on claims and trajectories and the agreement on them
    (``metrics.team_items``): each assessor's progress row carries their mean kappa on the
    kind's first question."""
    if not progress:
        return figures
    agreement = items_agreement(verdicts, {p.items for p in progress})
    first = {a.items: a for a in reversed(agreement)}  # the first question of each kind
    rows = []
    for p in progress:
        kappa, partners = first[p.items].kappa_of(p.name) if p.items in first else (None, 0)
        rows.append(replace(p, kappa=kappa, kappa_partners=partners))
    return replace(figures, items=tuple(rows), items_agreement=agreement)


def _graded(store: GoldSetStore) -> bool:
    text = store.meta("max_grade", "1")
    return text.isdigit() and int(text) > 1


# -- from a folder -----------------------------------------------------------------------------
#: What :func:`read_team_folder` keeps between two reads of a folder: per file, its
#: (modification and change times, inode, size, campaigns asked) and what it gave.
FolderCache = dict[str, tuple[tuple[int, int, int, int, frozenset[str] | None], Any]]


def read_team_folder(folder: Path, *, skip: Path | None = None,
                     campaigns: Collection[str] | None = None,
                     cache: FolderCache | None = None) -> TeamStatus:
    """Read every assignment file of ``folder`` read-only (module docstring).

    ``skip``: a file not to read (the master the lead has open, if it lies there);
    ``campaigns``: the campaign ids the master knows — a file of another campaign is listed
    as such (None: any campaign); ``cache``: a dict the caller keeps between reads — a file
    read whole before whose time and size have not changed is not opened again (the panel
    reads a folder of twenty experts every minute).
    """
    folder = Path(folder)
    try:
        entries = sorted(p for p in folder.iterdir() if p.match(PATTERN))
    except OSError as error:
        reason = getattr(error, "strerror", None) or type(error).__name__
        return TeamStatus(str(folder), notes=(Message("the folder cannot be read ({reason}).",
                                                      reason=reason),))
    reads: list[_FileRead] = []
    for path in entries:
        if skip is not None and not path.is_symlink() and _same(path, skip):
            continue
        reads.append(_cached(path, campaigns, cache))
    reads = _one_file_per_assessor(reads)
    read_ok = [r for r in reads if not r.status.problem]
    good = [r for r in read_ok if r.status.items == "pairs"]  # relevance figures
    notes: list[str] = []
    ids = {r.status.campaign for r in read_ok}
    if len(ids) > 1:
        notes.append(Message("the files come from {n_ids} different campaigns; the figures "
                             "mix them.", n_ids=len(ids)))
    figures = team_figures(
        [j for r in good for j in r.judgments],
        assigned={r.status.assessor: r.status.assigned for r in good},
        controls={r.status.assessor: r.controls for r in good},
        cant_judge={r.status.assessor: r.cant_judge for r in good},
        remaining={r.status.assessor: r.status.assigned - r.status.done for r in good},
        seconds={r.status.assessor: r.seconds for r in good},
        graded=any(r.graded for r in good))
    items = sorted((r for r in read_ok if r.status.items != "pairs"),
                   key=lambda r: (r.status.assessor, r.status.items))
    figures = with_items(
        figures, [ItemProgress(r.status.assessor, r.status.items, r.status.assigned,
                               r.status.done) for r in items],
        [v for r in items for v in r.verdicts])
    return TeamStatus(str(folder), tuple(r.status for r in reads), figures, tuple(notes))


def _cached(path: Path, campaigns: Collection[str] | None,
            cache: FolderCache | None) -> _FileRead:
    """:func:`_read_one`, or what it gave last time for the same time, size and campaigns
    (only a file read whole: one that could not be read is tried again)."""
    if cache is None:
        return _read_one(path, campaigns)
    try:
        stat = path.lstat()
        # ctime and inode too: a sync engine may keep the sender's modification time, and a
        # file's size often stays the same when rows are added into existing pages
        key = (stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_size,
               None if campaigns is None else frozenset(campaigns))
    except OSError:
        return _read_one(path, campaigns)
    found = cache.get(str(path))
    if found is not None and found[0] == key:
        return found[1]  # type: ignore[no-any-return]
    read = _read_one(path, campaigns)
    if not read.status.problem and not path.with_name(path.name + "-journal").exists():
        cache[str(path)] = (key, read)
    else:
        cache.pop(str(path), None)
    return read


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _read_one(path: Path, campaigns: Collection[str] | None) -> _FileRead:
    """One file, or its status with the reason it was not read."""
    name = path.name
    try:
        stat = path.lstat()
    except OSError as error:
        return _FileRead(FileStatus(name, problem=Message("cannot be read ({reason}).",
                                                          reason=error.strerror)))
    modified = datetime.fromtimestamp(stat.st_mtime, timezone.utc).isoformat(timespec="seconds")
    status = FileStatus(name, modified=modified)
    problem = _not_now(path, stat.st_size)
    if problem:
        return _FileRead(replace(status, problem=problem))
    try:
        with GoldSetStore.open(path, read_only=True, verify="now") as store:
            return _from_store(store, status, campaigns)
    except KnownError as error:  # its message without the file's path (the line names it)
        return _FileRead(replace(status, problem=Message(error.message_id, **error.params)))
    except (sqlite3.Error, OSError) as error:
        return _FileRead(replace(status, problem=Message(
            "cannot be read now ({error}); it may be being copied: read again later.",
            error=str(error))))


def _not_now(path: Path, size: int) -> str:
    """Why a file is not read this time, before opening it ('' to read it)."""
    if path.is_symlink():
        return Message("a link, not a file: not followed (copy the file into the folder).")
    if size == 0:
        return Message("empty: it is probably still being copied; read again later.")
    for suffix in ("-journal", "-wal"):
        if path.with_name(path.name + suffix).exists():
            return Message("being written (a '{kind}' file is beside it): its owner's app or "
                           "the sync engine is writing it; read again later.",
                           kind=suffix[1:])
    return ""


def _from_store(store: GoldSetStore, status: FileStatus,
                campaigns: Collection[str] | None) -> _FileRead:
    info = store.assignment_info()
    if info is None:
        return _FileRead(replace(status, problem=Message(
            "not an assignment file (no campaign): left out of the team's figures.")))
    status = replace(status, assessor=info["assessor"], campaign=info["campaign"],
                     campaign_name=info["name"])
    if campaigns is not None and info["campaign"] not in campaigns:
        return _FileRead(replace(status, problem=Message(
            "from another campaign than the open file's: left out.")))
    campaign = store.campaign_by_uuid(info["campaign"])
    kind = str(campaign["items"]) if campaign is not None else "pairs"
    who = info["assessor"]
    if kind != "pairs":  # claims or trajectories: progress and this expert's own answers
        mine = [r for r in store.item_progress() if r["name"] == who and r["items"] == kind]
        return _FileRead(replace(status, items=kind,
                                 assigned=sum(int(r["assigned"]) for r in mine),
                                 done=sum(int(r["done"]) for r in mine)),
                         verdicts=[ItemVerdict(*v) for v in store.item_verdicts()
                                   if v[0] == kind and v[3] == who])
    queue = store.assignment_queue()
    read = _FileRead(replace(status, assigned=len(queue),
                             done=sum(1 for r in queue if r["done"])),
                     graded=_graded(store))
    for row in queue:
        if row["cannot_judge"] is not None and not row["is_control"]:
            read.cant_judge += 1  # pairs marked (their control repeat is the same pair)
        if row["grade"] is None:
            continue
        if row["seconds"] is not None:
            read.seconds.append(float(row["seconds"]))
        if not row["is_control"]:
            read.judgments.append(TimedJudgment(str(row["case"]), str(row["document"]), who,
                                                int(row["grade"]), row["seconds"]))
    read.controls = [(int(r["first"]), int(r["repeat"])) for r in store.control_rows()
                     if r["assessor"] == who and r["first"] is not None
                     and r["repeat"] is not None]
    return read


def _one_file_per_assessor(reads: list[_FileRead]) -> list[_FileRead]:
    """Keep the newest file of each assessor and campaign; an older copy (a sync engine's
    "conflicted copy") is listed with the reason."""
    newest: dict[tuple[str, str], _FileRead] = {}
    for read in reads:
        s = read.status
        if s.problem:
            continue
        key = (s.campaign, s.assessor)
        if key not in newest or s.modified > newest[key].status.modified:
            newest[key] = read
    out: list[_FileRead] = []
    for read in reads:
        s = read.status
        keep = newest.get((s.campaign, s.assessor))
        if s.problem or keep is read:
            out.append(read)
        else:
            out.append(_FileRead(replace(s, problem=Message(
                "another file of {assessor} is newer ({newer}): this one is left out.",
                assessor=s.assessor, newer=keep.status.name if keep else "?"))))
    return out
