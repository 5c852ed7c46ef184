"""A streaming reader of the native JSON's top-level layout (issue 19): one object whose
members are small values or long arrays of rows.

``json.load`` of a 1,000,000-judgment export built the whole document (about 2 GB of Python
objects) before the first check.  :class:`JsonStream` reads the text in 1 MB blocks and
hands out one member, or one array element, at a time, each decoded by CPython's C decoder
(``raw_decode``); the caller checks an element and lets the raw one go.  Why not ijson:
the layout is fixed (an object of arrays), its elements are small and the C decoder is what
``json.load`` itself runs, so a hand reader of ~100 lines adds no dependency and keeps the
errors' line and column numbers exactly as ``json.load`` gave them.

Decoding rules are ``json.load``'s (a key given twice in an object keeps the last value).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from rag_annotator.import_export.files import ImportRejected

_BLOCK = 1 << 20
_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"
#: A JSON escape of a UTF-16 surrogate: the only way a lone one gets into decoded text.
SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


class JsonStream:
    """The members of one top-level JSON object, read block by block."""

    def __init__(self, path: Path, handle: TextIO,
                 progress: Callable[[int, int], None] | None = None) -> None:
        self.path = path
        self.handle = handle
        self.progress = progress  # (bytes read, file size), once per block
        self.size = os.fstat(handle.fileno()).st_size
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.lines_before = 0  # newlines in the text dropped from the buffer's front
        self.carry = 0  # characters of the current line dropped from the buffer's front

    # -- the buffer ------------------------------------------------------------------------
    def _fill(self) -> bool:
        """Read one more block (dropping what was consumed); False at the end."""
        if self.eof:
            return False
        block = self.handle.read(_BLOCK)
        if not block:
            self.eof = True
            return False
        if self.progress is not None:
            self.progress(self.handle.buffer.tell(), self.size)
        self.lines_before += self.buf.count("\n", 0, self.pos)
        last = self.buf.rfind("\n", 0, self.pos)
        self.carry = self.carry + self.pos if last < 0 else self.pos - last - 1
        self.buf = self.buf[self.pos:] + block
        self.pos = 0
        return True

    def _peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        while True:
            buf, pos, n = self.buf, self.pos, len(self.buf)
            while pos < n and buf[pos] in _SPACE:
                pos += 1
            self.pos = pos
            if pos < n:
                return buf[pos]
            if not self._fill():
                return ""

    def _where(self, index: int) -> tuple[int, int]:
        line = self.lines_before + self.buf.count("\n", 0, index) + 1
        start = self.buf.rfind("\n", 0, index)
        return line, index - start if start >= 0 else self.carry + index + 1

    def fail(self, message: str, index: int | None = None) -> ImportRejected:
        line, column = self._where(self.pos if index is None else index)
        return ImportRejected(self.path, line, f"not valid JSON ({message}, column {column}).")

    def _expect(self, char: str) -> None:
        if self._peek() != char:
            raise self.fail(f"Expecting '{char}' delimiter" if char in ",:" else
                            f"Expecting '{char}'")
        self.pos += 1

    # -- values ----------------------------------------------------------------------------
    def value(self) -> tuple[Any, int, int]:
        """The next JSON value, and where its text starts and ends in :attr:`buf`."""
        self._peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as error:
                if self._fill():
                    continue  # the value may run past the block: read on, decode again
                raise self.fail(error.msg, error.pos) from None
            if end == len(self.buf) and self._fill():
                continue  # a number cut by the block's end would decode shorter
            start, self.pos = self.pos, end
            return value, start, end

    def members(self) -> Iterator[str]:
        """The top-level object's keys; after each, the caller reads its value with
        :meth:`value` or :meth:`items`."""
        if self._peek() != "{":
            raise NotAnObject()
        self.pos += 1
        if self._peek() == "}":
            self.pos += 1
        else:
            while True:
                key, _start, _end = self.value()
                if not isinstance(key, str):
                    raise self.fail("Expecting property name enclosed in double quotes")
                self._expect(":")
                yield key
                following = self._peek()
                self.pos += 1
                if following == "}":
                    break
                if following != ",":
                    raise self.fail("Expecting ',' delimiter", self.pos - 1)
        if self._peek() != "":
            raise self.fail("Extra data")

    def is_array(self) -> bool:
        return self._peek() == "["

    def items(self) -> Iterator[tuple[Any, bool]]:
        """The elements of the array that comes next: ``(value, may hold a lone
        surrogate)``."""
        self._expect("[")
        if self._peek() == "]":
            self.pos += 1
            return
        while True:
            value, start, end = self.value()
            yield value, SURROGATE.search(self.buf, start, end) is not None
            following = self._peek()
            self.pos += 1
            if following == "]":
                return
            if following != ",":
                raise self.fail("Expecting ',' delimiter", self.pos - 1)


class NotAnObject(ValueError):
    """The file's top-level value is not an object."""
