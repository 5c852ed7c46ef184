"""Recognise an assignment file that has not changed since it was collected.

Collecting a file again must add nothing, and it used to prove that by reading and
classifying every one of its judgments again (~2.4 s per 200,000-judgment file, 33x the
copy of the master for ten).  Now the collect that brings a file in records, in the same
operation (so undoing the collect forgets it too), the file's SHA-256 and size under the
meta key ``collected:<campaign uuid>:<assessor>``, with the number of its judgments the
master then held.  A later collect that finds the same digest for that campaign and
assessor reports those judgments as unchanged without reading the file's rows.

Only the whole file's bytes are trusted: a header change counter, a size or a time can be
equal in two different copies (a sync conflict judged on two machines from the same file).
The digest is recorded only when the file did not change while it was read (same inode,
size and modification time before the digest and after staging) and when its collect
listed no conflict and skipped nothing (a file with warnings is read in full each time,
so each collect repeats them).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag_annotator.storage.store import GoldSetStore
from rag_annotator.storage.transaction import Operation

#: Bytes read at a time while hashing.
_CHUNK = 4 * 1024 * 1024


@dataclass(frozen=True)
class Seen:
    """A file's digest as taken now, and what identifies the state it was taken of."""

    sha256: str
    size: int
    state: tuple[int, int, int]

    def still(self, path: Path) -> bool:
        """True when ``path`` looks untouched since the digest (nothing wrote it)."""
        try:
            return _state(path) == self.state
        except OSError:
            return False


def key(campaign_uuid: str, assessor: str) -> str:
    """The meta key of one assessor's file in one campaign."""
    return f"collected:{campaign_uuid}:{assessor}"


def _state(path: Path) -> tuple[int, int, int]:
    info = os.stat(path)
    return info.st_ino, info.st_size, info.st_mtime_ns


def digest(path: Path) -> Seen:
    """SHA-256 of the file's bytes (raises OSError as reading does)."""
    state = _state(path)
    sha = hashlib.sha256()
    with open(path, "rb", buffering=0) as handle:
        buffer = bytearray(_CHUNK)
        view = memoryview(buffer)
        while count := handle.readinto(buffer):
            sha.update(view[:count])
    return Seen(sha.hexdigest(), state[1], state)


def recorded(store: GoldSetStore, meta_key: str, seen: Seen) -> int | None:
    """The number of judgments recorded with this very digest, else None."""
    try:
        value: Any = json.loads(store.meta(meta_key) or "null")
    except ValueError:
        return None
    if (isinstance(value, dict) and value.get("sha256") == seen.sha256
            and value.get("size") == seen.size and isinstance(value.get("judgments"), int)):
        return int(value["judgments"])
    return None


def record(op: Operation, meta_key: str, seen: Seen, judgments: int) -> None:
    """Record the digest in the collect's operation (undone with it)."""
    value = json.dumps({"sha256": seen.sha256, "size": seen.size, "judgments": judgments},
                       sort_keys=True)
    if op.get("meta", {"key": meta_key}) is None:
        op.insert("meta", {"key": meta_key, "value": value})
    else:
        op.update("meta", {"key": meta_key}, {"value": value})
