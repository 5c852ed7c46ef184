"""Simulated power loss, in the style of SQLite's crash tests (testing.html, "crash testing").

An apsw VFS records every file operation SQLite makes (create, write, truncate, sync,
delete).  :func:`power_cut` rebuilds, from a durable baseline, what the disk could hold if the
power went at operation ``k``: what a sync made durable is there; each write not yet synced
survives with probability ½, and a surviving multi-sector write may be torn at a 512-byte
sector boundary; a file creation or deletion survives only once the directory was synced
(SQLite syncs it after deleting a journal with ``synchronous=EXTRA`` and on a new journal's
first sync), else with probability ½.  The image is then opened by the app's own code (the
stdlib sqlite3), which plays a hot journal back.

apsw brings its own SQLite library (the VFS cannot be plugged into the stdlib's), so the app's
statements are recorded from its real connection and replayed through apsw; see
test_power_loss.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import apsw

SECTOR = 512


@dataclass
class Event:
    kind: str  # create, write, trunc, sync, delete
    path: str | None
    offset: int = 0  # write offset, truncate size, delete's syncdir flag
    data: bytes = b""


@dataclass
class Recorder:
    events: list[Event] = field(default_factory=list)


class _File(apsw.VFSFile):  # type: ignore[misc]
    def __init__(self, recorder: Recorder, name: Any, flags: list[int]) -> None:
        self.recorder = recorder
        self.path = name.filename() if hasattr(name, "filename") else name
        existed = self.path is not None and Path(self.path).exists()
        super().__init__("", name, flags)
        if self.path is not None and not existed:
            recorder.events.append(Event("create", self.path))

    def xWrite(self, data: bytes, offset: int) -> None:
        self.recorder.events.append(Event("write", self.path, offset, bytes(data)))
        super().xWrite(data, offset)

    def xTruncate(self, size: int) -> None:
        self.recorder.events.append(Event("trunc", self.path, size))
        super().xTruncate(size)

    def xSync(self, flags: int) -> None:
        self.recorder.events.append(Event("sync", self.path, flags))
        super().xSync(flags)


class CrashVFS(apsw.VFS):  # type: ignore[misc]
    """Pass-through VFS that logs into ``recorder`` (register once per process)."""

    def __init__(self, name: str, recorder: Recorder) -> None:
        self.recorder = recorder
        super().__init__(name, "")

    def xOpen(self, name: Any, flags: list[int]) -> _File:
        return _File(self.recorder, name, flags)

    def xDelete(self, name: str, syncdir: bool) -> None:
        self.recorder.events.append(Event("delete", name, int(bool(syncdir))))
        super().xDelete(name, syncdir)


def power_cut(events: list[Event], k: int, baseline: dict[str, bytes], rnd: random.Random
              ) -> dict[str, bytes]:
    """The files (path → bytes) on disk after a power cut just before ``events[k]``.

    ``baseline`` is what was durable before the first event (path → content).
    """
    ops = events[:k]
    # Directory syncs: a delete with syncdir, or the first sync of a file created here.
    dirsync: list[int] = []
    created: set[str | None] = set()
    for i, ev in enumerate(ops):
        if ev.kind == "create":
            created.add(ev.path)
        elif ev.kind == "sync" and ev.path in created:
            dirsync.append(i)
            created.discard(ev.path)
        elif ev.kind == "delete" and ev.offset:
            dirsync.append(i)
    last_dirsync = dirsync[-1] if dirsync else -1
    # A write or truncate is durable when the same incarnation of its file is synced later.
    durable = [False] * len(ops)
    synced_later: dict[str | None, bool] = {}
    for i in range(len(ops) - 1, -1, -1):
        ev = ops[i]
        if ev.kind == "sync":
            synced_later[ev.path] = True
        elif ev.kind in ("create", "delete"):
            synced_later[ev.path] = False
        else:
            durable[i] = synced_later.get(ev.path, False)

    files: dict[str | None, bytearray | None] = {p: bytearray(b) for p, b in baseline.items()}
    for i, ev in enumerate(ops):
        if ev.kind == "create":
            if i <= last_dirsync or rnd.random() < 0.5:
                files[ev.path] = bytearray()
            else:
                files[ev.path] = None  # the directory entry never reached the disk
        elif ev.kind == "delete":
            if ev.offset or i <= last_dirsync or rnd.random() < 0.5:
                files[ev.path] = None
        elif ev.kind == "write":
            buf = files.get(ev.path)
            if buf is None or not (durable[i] or rnd.random() < 0.5):
                continue
            data = ev.data
            if not durable[i] and len(data) > SECTOR and rnd.random() < 0.3:
                data = data[:SECTOR * rnd.randrange(1, len(data) // SECTOR + 1)]
            if len(buf) < ev.offset:
                buf.extend(b"\0" * (ev.offset - len(buf)))
            buf[ev.offset:ev.offset + len(data)] = data
        elif ev.kind == "trunc":
            buf = files.get(ev.path)
            if buf is not None and (durable[i] or rnd.random() < 0.5):
                del buf[ev.offset:]
    return {p: bytes(b) for p, b in files.items() if p is not None and b is not None}
