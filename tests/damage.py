"""Damaged gold-set files, built from a sound one, for the tests of opening and of the
background integrity check (CLI, storage, UI).
"""

from __future__ import annotations

import random
import sqlite3
import struct
from collections.abc import Callable
from contextlib import closing
from pathlib import Path


def page_size(path: Path) -> int:
    """The page size written in a SQLite file's header."""
    size = struct.unpack(">H", path.read_bytes()[16:18])[0]
    return 65536 if size == 1 else size


def root_pages(path: Path) -> dict[str, int]:
    """Each table's and index's root page number."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        return dict(conn.execute("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0"))


def garbage_page(table: str) -> Callable[[Path, Path], None]:
    """Random bytes over the first 64 bytes of a table's root page (its b-tree header)."""
    def make(good: Path, out: Path) -> None:
        page = root_pages(good)[table]
        size = page_size(good)
        data = bytearray(good.read_bytes())
        offset = (page - 1) * size
        assert offset > 100, "must not hit the file header"
        rnd = random.Random(f"{table}-garbage")
        data[offset:offset + 64] = bytes(rnd.randrange(256) for _ in range(64))
        out.write_bytes(bytes(data))
    return make
