"""``collect``: bring assignment files back into the master, one undoable operation per file.

Collecting trusts nothing in the incoming file (it travelled):

* it must be a gold-set file of this build's schema (opening it read-only checks that), an
  assignment file (``meta.assignment``) handed out by THIS master (``meta.file_uuid``) in a
  campaign this master has, for one of that campaign's assessors; otherwise it is refused
  with one line and the master is not touched;
* cases and documents are shared content: an expert's edit to them is reported as a conflict
  and never applied;
* only the file's assessor's rows on their own slots come in (judgments with their seconds,
  control repeats, "can't judge" with its reason); anything else is listed as skipped, and
  so is a value that cannot be trusted (a grade off the scale, a time that is not one, a
  timestamp in the future);
* a label the master already holds for that assessor and pair is replaced only by a newer
  one (instants compared).

Every file is read first; then all are brought in as one transaction, each file one
operation (one undoable step) of it, opened only when something is to be written, so
collecting the same file twice leaves the master byte for byte as it was, and an
interrupted collect keeps nothing; a file byte for byte the one collected last time is not
read again (``team_seen``).  Disputes (the ``k`` assessors of a pair disagree) need no step
of their own: the adjudication queue (``disputed_pairs``) is computed from the judgments.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import partial
from pathlib import Path
from typing import Any

from rag_annotator.domain import team_ops
from rag_annotator.domain.changes import Changes
from rag_annotator.errors import FileNotFound, KnownError
from rag_annotator.import_export import team_collect_items, team_seen
from rag_annotator.import_export.files import Cancelled, check_cancel
from rag_annotator.messages import N_, Message, Plural
from rag_annotator.storage import team_merge
from rag_annotator.storage.store import GoldSetStore

SUFFIX = ".goldset"
#: How far in the future an incoming timestamp may be (an expert's clock set wrong).
FUTURE_SKEW = timedelta(days=1)
Pair = tuple[int, int]
CONTROL_COLUMNS = ("case_id", "document_id", "campaign_id", "assessor_id", "grade", "seconds",
                   "updated_at")
CANNOT_COLUMNS = ("case_id", "document_id", "assessor_id", "reason", "updated_at")
#: A timestamp as ``domain.clock.utc_now`` writes it: checked by this pattern (and compared
#: as text with the latest believable one) without parsing it, ~2,000,000 times a collect.
_UTC = re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:"
                  r"[0-5]\d\.\d{3}Z")


@dataclass
class FileCollect:
    """What collecting one file did (``refused``: why it was not, the master untouched)."""

    path: Path
    assessor: str = ""
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    #: labels that differ from the master's but are older than its (the master's are kept)
    older: int = 0
    cannot_judge: int = 0
    controls: int = 0
    conflicts: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: str | None = None
    changes: Changes | None = None
    items: str = "pairs"

    def summary(self) -> str:
        """One line (English as a ``str``; rendered in the reader's language), each count
        with its own plural ("1 judgment added", « 0 jugement ajouté »)."""
        if self.refused is not None:
            return Message("refused: {refused}", refused=self.refused)
        tail: dict[str, Plural | Message] = {
            "conflicts": Plural("{n} conflict", "{n} conflicts", len(self.conflicts)),
            "skipped": Plural("{n} skipped", "{n} skipped", len(self.skipped)),
            "updated": Plural("{n} updated", "{n} updated", self.updated),
            "unchanged": Plural("{n} unchanged", "{n} unchanged", self.unchanged)}
        if self.older:  # said only when some are: they differ from what the master keeps
            tail["unchanged"] = Message(
                "{unchanged}, {older}", unchanged=tail["unchanged"],
                older=Plural("{n} older than the master's (its label kept)",
                             "{n} older than the master's (its labels kept)", self.older))
        if self.items != "pairs":
            added = (Plural("{n} claim verdict added", "{n} claim verdicts added", self.added)
                     if self.items == "claims" else
                     Plural("{n} trajectory verdict added", "{n} trajectory verdicts added",
                            self.added))
            return Message("{file}: {assessor}: {added}, {updated}, {unchanged}; "
                           "{conflicts}, {skipped}", file=self.path, assessor=self.assessor,
                           added=added, **tail)
        return Message(
            "{file}: {assessor}: {added}, {updated}, {unchanged}, {controls}, {cannot_judge}; "
            "{conflicts}, {skipped}", file=self.path, assessor=self.assessor,
            added=Plural("{n} judgment added", "{n} judgments added", self.added),
            controls=Plural("{n} control repeat", "{n} control repeats", self.controls),
            cannot_judge=Plural("{n} can't-judge", "{n} can't-judge", self.cannot_judge),
            **tail)


@dataclass
class CollectReport:
    """Every file's outcome and the disputes now waiting in the adjudication queue."""

    files: list[FileCollect] = field(default_factory=list)
    disputes: int = 0
    #: The master was among the sources (named, or in a folder given) and left out.
    master_skipped: bool = False

    @property
    def refused(self) -> list[FileCollect]:
        return [f for f in self.files if f.refused is not None]


@dataclass
class _Writes:
    """What one file's control repeats and can't-judge bring, computed before any write
    (its judgments are compared in SQL: ``storage.team_merge``)."""

    controls: list[tuple[Any, ...]] = field(default_factory=list)
    control_updates: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    cannot: list[tuple[Any, ...]] = field(default_factory=list)
    cannot_updates: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any((self.controls, self.control_updates, self.cannot, self.cannot_updates))


def expand_sources(sources: Iterable[str | Path], master: Path,
                   skipped: list[Path] | None = None) -> list[Path]:
    """The files to collect: each file given, and every ``*.goldset`` under each folder
    (recursively, in name order; hidden folders such as ``.git`` and hidden files skipped;
    the master itself never: it goes to ``skipped`` when given, so the caller can say so).
    A missing source is refused before anything."""
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
        elif skipped is not None and not skipped:
            skipped.append(path)
    return list(unique.values())


def collect(store: GoldSetStore, sources: Iterable[str | Path], *,
            cancel: Callable[[], bool] | None = None,
            progress: Callable[[int, int], None] | None = None) -> CollectReport:
    """Collect every assignment file of ``sources`` into ``store``, one undoable operation
    per file (see the module's rules); a refused file is reported, never half-applied,
    and the others are still collected.

    Every file is read first (outside any transaction); then all of them are brought in
    as ONE transaction (``store.batch``), each file still an operation of its own: the
    judgments' indexes are rewritten and journaled once for the whole collect instead of
    once per file.  So an interruption (``cancel``, polled between files, raising
    ``Cancelled``; Ctrl+C; a crash) leaves the master exactly as it was: nothing of the
    call is kept.  ``progress(done, total)`` counts two steps per file (read, brought in).
    """
    left_out: list[Path] = []
    paths = expand_sources(sources, store.path, left_out)
    report = CollectReport(master_skipped=bool(left_out))
    master = _Master(store)  # collecting writes no case or document: read them once
    total = 2 * len(paths)
    staged: list[_Staged] = []
    with store.collect_session():
        for done, path in enumerate(paths):
            check_cancel(cancel)
            if progress is not None:
                progress(done, total)
            result = FileCollect(path)
            report.files.append(result)
            try:
                staged.append(_stage(store, master, path, result, len(staged)))
            except KnownError as error:
                result.refused = Message("{error}", error=error)  # names the file
        _flag_same_assessor(staged)
        if staged:
            # every reference written is checked (the verdicts in SQL; the controls and
            # can't-judge against the master's keys and slots): no foreign-key look-ups
            with store.batch(foreign_keys=False):
                for done, file in enumerate(staged, start=len(paths)):
                    if progress is not None:
                        progress(done, total)
                    if not file.already:
                        _bring(store, master, file)
                    check_cancel(cancel)  # after: a cancel here undoes a file brought in
    if progress is not None:
        progress(total, total)
    report.disputes = store.dispute_count()
    return report


def _flag_same_assessor(staged: list[_Staged]) -> None:
    """Two files of one assessor and campaign in one collect — most often the copy a sync
    engine made of a file edited on two machines ("Anne (conflicted copy).goldset") —
    are both brought in, and for each pair the newer label wins; each file says so, at every
    collect while both are there, so the lead can ask the expert which one to keep."""
    by_assessor: dict[tuple[str, str], list[_Staged]] = defaultdict(list)
    for file in staged:
        by_assessor[(str(file.campaign["uuid"]), file.assessor)].append(file)
    for files in by_assessor.values():
        if len(files) < 2:
            continue
        for file in files:
            file.result.conflicts.append(Message(
                "another file of {assessor} is in this collect ({others}): a copy left by a "
                "sync engine? Both are brought in; for each pair the newer label is kept.",
                assessor=file.assessor,
                others=", ".join(f.path.name for f in files if f is not file)))


class _Master:
    """What every file of one collect maps its keys with (the master's ids)."""

    def __init__(self, store: GoldSetStore) -> None:
        self.cases = {r["key"]: int(r["id"]) for r in store.query("SELECT key, id FROM cases")}
        self.docs = {r["key"]: int(r["id"])
                     for r in store.query("SELECT key, id FROM documents")}


@dataclass
class _Staged:
    """One file read and checked, waiting to be brought in (its judgments staged in the
    master's TEMP tables as number ``number``)."""

    path: Path
    result: FileCollect
    campaign: dict[str, Any]
    assessor: str
    kind: str
    rows: dict[str, list[tuple[Any, ...]]]
    items: list[tuple[Any, ...]]
    number: int = 0
    same_ids: bool = False
    #: the file's digest (``team_seen``), and whether it is the one recorded when it was
    #: last collected (then nothing of it is read again)
    seen: team_seen.Seen | None = None
    already: bool = False

    @property
    def meta_key(self) -> str:
        return team_seen.key(str(self.campaign["uuid"]), self.assessor)


def _stage(store: GoldSetStore, master: _Master, path: Path, result: FileCollect,
           number: int) -> _Staged:
    """Read and check one file (refused with a KnownError; the master untouched)."""
    try:
        seen = team_seen.digest(path)  # first: what is read after is no newer than it
        # "skip": no page-by-page quick check of the whole file (reading ten 100 MB files
        # cost ~2x a copy of the master); its schema is still checked, and SQLite reports
        # damage on the pages collect reads, which refuses the file below
        with GoldSetStore.open(path, read_only=True, verify="skip") as other:
            file = _checked(store, path, other.assignment_info(), result, number, seen)
            known = (team_seen.recorded(store, file.meta_key, seen)
                     if file.kind == "pairs" else None)
            if known is not None:  # byte for byte the file collected last time: not read
                file.already, result.unchanged = True, known
                return file
            file.rows = other.team_rows()
            if file.kind != "pairs":
                file.items = team_collect_items.incoming_items(other, file.kind)
    except OSError as error:
        raise KnownError("cannot be read ({value}).",
                         value=error.strerror or error, path=path) from None
    except sqlite3.DatabaseError as error:
        raise KnownError("cannot be read ({error}); it may be damaged: ask its expert for "
                         "a fresh copy.", error=error, path=path) from None
    if file.kind == "pairs":
        result.conflicts, file.same_ids = _stage_judgments(store, path, number)
    return file


def _checked(store: GoldSetStore, path: Path, info: dict[str, str] | None,
             result: FileCollect, number: int, seen: team_seen.Seen) -> _Staged:
    """The file's campaign and assessor, once its ``meta.assignment`` names this master,
    one of its campaigns and one of that campaign's assessors (else a KnownError)."""
    if info is None:
        raise KnownError("not an assignment file (it holds no campaign handed out by "
                         "'assign'); use 'merge' for a colleague's copy.", path=path)
    mine = store.file_uuid()
    if not mine or info["master"] != mine:
        raise KnownError("it was handed out by another master file, not this one; collect "
                         "it into the file that ran 'assign'.", path=path)
    campaign = store.campaign_by_uuid(info["campaign"])
    if campaign is None:
        raise KnownError("it belongs to campaign {info}, which this file does "
                         "not have (removed or undone?); nothing was collected.",
                         info=info['campaign'], path=path)
    assessor = info["assessor"]
    result.assessor = assessor
    if not store.has_slot(int(campaign["id"]), assessor):
        raise KnownError("assessor {assessor!r} has no slot in campaign {campaign}; "
                         "nothing was collected.",
                         assessor=assessor, campaign=campaign['name'], path=path)
    return _Staged(path, result, campaign, assessor, str(campaign["items"]), {}, [], number,
                   seen=seen)


def _stage_judgments(store: GoldSetStore, path: Path, number: int) -> tuple[list[str], bool]:
    """With the file attached: its conflicts, and its judgments staged (``team_merge``)."""
    try:
        attached = store.attach_incoming(path)
        attached.__enter__()
    except sqlite3.Error as error:
        raise KnownError("cannot be read ({error}).", error=error, path=path) from None
    try:
        conflicts: list[str] = [Message(_ADDED[kind] if added else _EDITED[kind], key=key)
                                for kind, key, added in store.incoming_conflicts()]
        return conflicts, store.stage_incoming(number)
    except sqlite3.DatabaseError as error:  # changed under our feet (a sync engine wrote it)
        store.unstage_incoming(number)
        raise KnownError("could not be read to the end ({error}); nothing of it was "
                         "collected. Let the sync finish, then collect again.", error=error,
                         path=path) from None
    finally:
        attached.__exit__(None, None, None)


def _bring(store: GoldSetStore, master: _Master, file: _Staged) -> None:
    """Bring one staged file in: one operation (a savepoint of the collect's transaction);
    a KnownError refuses this file alone, its changes rolled back."""
    result = file.result
    try:
        if file.kind != "pairs":
            result.items = file.kind
            team_collect_items.collect_items(store, file.path, file.campaign, file.assessor,
                                             file.items, result)
            return
        reader = _Reader(store, master, file.assessor, int(file.campaign["id"]), result)
        _judgments(store, file, reader, reader.writes(file.rows))
    except Cancelled:
        raise
    except KnownError as error:
        if not store.in_transaction():  # SQLite rolled the whole collect back (disk full…)
            raise
        result.changes = None
        result.refused = Message("{error}", error=error)  # names the file
    finally:
        store.unstage_incoming(file.number)


#: a case or document the assignment file added, or edited (the master's version is kept)
_ADDED = {"case": N_("case {key} is not in this file (added in the assignment file); not "
                     "applied"),
          "document": N_("document {key} is not in this file (added in the assignment file); "
                         "not applied")}
_EDITED = {"case": N_("case {key} was edited in the assignment file; this file's version "
                      "kept"),
           "document": N_("document {key} was edited in the assignment file; this file's "
                          "version kept")}


def _judgments(store: GoldSetStore, file: _Staged, reader: _Reader, writes: _Writes) -> None:
    """The staged judgments' verdicts, then (if anything is new) the one operation that
    writes them, the control repeats and the can't-judge."""
    result = file.result
    counts = store.classify_incoming(file.number, file.same_ids, reader.params())
    result.skipped += [Message("judgment of {who} on {case} · {doc}: {why}", who=who,
                               case=case, doc=doc, why=Message(team_merge.SKIPPED[why]))
                       for why, case, doc, who in store.incoming_skipped()]
    updates = store.incoming_updates()
    result.added, result.updated = counts.get("new", 0), len(updates)
    result.unchanged, result.older = counts.get("same", 0), counts.get("older", 0)
    if not (writes or result.added or updates):
        return  # nothing new: no operation, the master untouched
    with store.operation("collect", f"← {file.path.name} ({reader.assessor})") as op:
        team_merge.insert_new(op, reader.assessor_id)
        op.insert_rows("control_judgments", CONTROL_COLUMNS, sorted(writes.controls))
        op.insert_rows("cannot_judge", CANNOT_COLUMNS, sorted(writes.cannot))
        for table, changed in (("judgments", updates),
                               ("control_judgments", writes.control_updates),
                               ("cannot_judge", writes.cannot_updates)):
            for row_id, values in changed:
                op.update(table, {"id": row_id}, values)
        if (file.seen is not None and not (result.conflicts or result.skipped)
                and file.seen.still(file.path)):
            team_seen.record(op, file.meta_key, file.seen,
                             result.added + result.updated + result.unchanged
                             + result.older)
    result.changes = op.changes()


_instant, _newer = team_collect_items.instant, team_collect_items.newer


def _control_where(case: Any, doc: Any) -> Message:
    return Message("control repeat on {case} · {doc}", case=case, doc=doc)


def _cannot_where(case: Any, doc: Any) -> Message:
    return Message("can't judge on {case} · {doc}", case=case, doc=doc)


class _Reader:
    """Checks one file's team rows against the master and says what to write."""

    def __init__(self, store: GoldSetStore, master: _Master, assessor: str, campaign_id: int,
                 result: FileCollect) -> None:
        self.store, self.assessor, self.campaign_id = store, assessor, campaign_id
        self.result = result
        self._slots: dict[bool, set[tuple[int, int]]] = {}
        self.cases, self.docs = master.cases, master.docs
        self.assessor_id = int(store.by_key("assessors", assessor)["id"])
        self.max_grade = int(store.meta("max_grade", "1") or 1)
        self.latest = datetime.now(timezone.utc) + FUTURE_SKEW
        self.latest_text = self.latest.strftime("%Y-%m-%dT%H:%M:%S.%f")[:23] + "Z"

    def slot(self, case: Any, doc: Any, who: Any, control: int, what: str) -> Pair | None:
        """The master's pair of a row on one of the assessor's slots, else None (listed)."""
        pair = (self.cases.get(case), self.docs.get(doc))
        if who != self.assessor:
            self.result.skipped.append(Message(
                "{what} of {who} on {case} · {doc}: not this file's assessor ({assessor})",
                what=Message(what), who=who, case=case, doc=doc, assessor=self.assessor))
        elif pair[0] is None or pair[1] is None or (pair[0], pair[1]) not in self.slots(
                bool(control)):
            self.result.skipped.append(Message(
                "{what} on {case} · {doc}: not one of {assessor}'s pairs",
                what=Message(what), case=case, doc=doc, assessor=self.assessor))
        else:
            return pair[0], pair[1]
        return None

    def trusted(self, grade: Any, seconds: Any, at: Any, what: Callable[[], Message]) -> bool:
        """Whether the values can be taken (else the row is listed as skipped, where
        ``what()`` says: built only then, not for each of 10,000 control repeats)."""
        if isinstance(at, str) and _UTC.fullmatch(at):  # the app's own format: no parse
            believable = at <= self.latest_text
        else:
            moment = _instant(at)
            believable = moment is not None and moment <= self.latest
        if grade is not None and (isinstance(grade, bool) or not isinstance(grade, int)
                                  or not 0 <= grade <= self.max_grade):
            why = Message("grade {grade!r} is outside this file's scale (0–{max_grade})",
                          grade=grade, max_grade=self.max_grade)
        elif seconds is not None and (isinstance(seconds, bool) or not isinstance(
                seconds, (int, float)) or not 0 <= seconds <= team_ops.MAX_SECONDS):
            why = Message("seconds {seconds!r} is not a time", seconds=seconds)
        elif not believable:
            why = Message("its timestamp {at!r} is not a believable date and time",
                          at=str(at)[:40])
        else:
            return True
        self.result.skipped.append(Message("{where}: {why}", where=what(), why=why))
        return False

    def slots(self, control: bool) -> set[tuple[int, int]]:
        """The assessor's control (or other) slots, read on first use: a file without
        can't-judge rows never reads its 200,000 other slots here."""
        if control not in self._slots:
            self._slots[control] = self.store.campaign_slots(self.campaign_id, self.assessor,
                                                             control=control)
        return self._slots[control]

    def params(self) -> dict[str, Any]:
        """The parameters of ``team_merge``'s classification of the file's judgments."""
        return {"assessor": self.assessor, "assessor_id": self.assessor_id,
                "campaign": self.campaign_id, "max_grade": self.max_grade,
                "max_seconds": team_ops.MAX_SECONDS, "latest": self.latest_text}

    def writes(self, rows: dict[str, list[tuple[Any, ...]]]) -> _Writes:
        out = _Writes()
        self._controls(rows["control_judgments"], out)
        self._cannot(rows["cannot_judge"], out)
        return out

    def _controls(self, rows: list[tuple[Any, ...]], out: _Writes) -> None:
        existing = self.store.assessor_controls(self.campaign_id, self.assessor)
        for case, doc, who, grade, seconds, at in rows:
            pair = self.slot(case, doc, who, 1, N_("control repeat"))
            if pair is None or not self.trusted(grade, seconds, at,
                                                partial(_control_where, case, doc)):
                continue
            values = {"grade": grade, "seconds": seconds, "updated_at": at}
            known = existing.get(pair)
            if known is None:
                out.controls.append((*pair, self.campaign_id, self.assessor_id, grade,
                                     seconds, at))
            elif (known[1], known[2]) != (grade, seconds) and _newer(at, known[3]):
                out.control_updates.append((known[0], values))
            else:
                continue
            self.result.controls += 1

    def _cannot(self, rows: list[tuple[Any, ...]], out: _Writes) -> None:
        existing = self.store.assessor_cannot(self.assessor)
        for case, doc, who, reason, at in rows:
            pair = self.slot(case, doc, who, 0, N_("can't judge"))
            where = partial(_cannot_where, case, doc)
            if pair is None or not self.trusted(None, None, at, where):
                continue
            if not isinstance(reason, str) or not reason.strip():
                self.result.skipped.append(Message("{where}: no reason", where=where()))
                continue
            known = existing.get(pair)
            if known is None:
                out.cannot.append((*pair, self.assessor_id, reason, at))
            elif known[1] != reason and _newer(at, known[2]):
                out.cannot_updates.append((known[0], {"reason": reason, "updated_at": at}))
            else:
                continue
            self.result.cannot_judge += 1
