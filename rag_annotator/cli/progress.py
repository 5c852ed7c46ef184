"""Progress bars of the long commands, and what Ctrl+C prints (issue 19).

A command that runs over about a second (a 1,000,000-line import takes 15 s) shows a bar on
stderr — only when stderr is a terminal, so scripts and CI logs stay clean.  The bar is
tqdm's (a well-kept, dependency-free library the scientific Python world already installs;
imported only when a bar may be drawn, so a piped command does not pay its import), with
``delay=1``: a command done within a second draws nothing.

:class:`Progress` is handed to the import and export code as ``Options.progress`` (called
with ``(done, total)``) and ``Options.cancel`` (polled every few thousand rows): polling is
where a SIGINT test waits for the command to be busy.  Ctrl+C raises KeyboardInterrupt in
the middle of the work: the open transaction rolls back (``storage.transaction``), an
export's temporary file is removed, and :func:`interrupted` is the one line the command
prints before exiting with 130 (128 + SIGINT, what a shell expects).

Test hook: with ``RAG_ANNOTATOR_TEST_BUSY=PATH`` in the environment, the first poll after
the work began writes PATH and then waits (up to a minute) for the signal, so a test can
interrupt the command truly mid-work instead of racing it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from rag_annotator.messages import Message

if TYPE_CHECKING:
    from rag_annotator.storage.store import GoldSetStore

#: Exit status of a command stopped by Ctrl+C: 128 + SIGINT.
EXIT_INTERRUPTED = 130
#: Environment variable of the SIGINT tests' hook (see the module docstring).
BUSY_ENV = "RAG_ANNOTATOR_TEST_BUSY"
#: Seconds of work before a bar is drawn.
DELAY = 1.0


class Progress:
    """A bar on stderr (when it is a terminal) for one command; a context manager."""

    def __init__(self, what: str, unit: str = "") -> None:
        self.what = what
        self.unit = unit
        self._bar: Any = None
        self._shown = sys.stderr.isatty() and not os.environ.get("RAG_ANNOTATOR_NO_PROGRESS")
        self._busy = os.environ.get(BUSY_ENV)
        self._start = time.monotonic()
        #: The store being written, if any: the test hook then waits for a poll made
        #: inside its transaction (the moment an interruption could half-change it).
        self.store: Any = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def report(self, done: int, total: int) -> None:
        """``Options.progress``: ``done`` of ``total`` (0: unknown, only the time is shown).
        A new total starts a new phase (reading, then storing)."""
        self._hook()
        if not self._shown:
            return
        if self._bar is None or (total or None) != self._bar.total:
            self.close()
            from tqdm import tqdm

            unit = f" {self.unit}" if self.unit else "it"
            self._bar = tqdm(total=total or None, desc=self.what, unit=unit,
                             file=sys.stderr, delay=max(0.0, DELAY - self._elapsed()),
                             leave=False, dynamic_ncols=True, unit_scale=True,
                             bar_format=None if total else "{desc}: {elapsed}")
        self._bar.update(max(0, done - self._bar.n))

    def poll(self) -> bool:
        """``Options.cancel``: never cancels (Ctrl+C does); keeps a bar's clock going
        for work that reports no count; the SIGINT tests' hook."""
        self._hook()
        if self._shown and self._elapsed() >= DELAY:
            if self._bar is None:
                self.report(0, 0)
            else:
                self._bar.refresh()
        return False

    def _hook(self) -> None:
        """The SIGINT tests' hook (see the module docstring)."""
        if self._busy and (self.store is None or self.store.in_transaction()):
            busy, self._busy = self._busy, None
            Path(busy).write_text(self.what, encoding="utf-8")
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:  # the test's SIGINT ends this sleep
                time.sleep(0.05)

    def tick(self) -> None:
        """A checkpoint of work that counts nothing (``check_cancel``-style callers)."""
        self.poll()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _elapsed(self) -> float:
        return time.monotonic() - self._start


def add_verbose(parser: argparse.ArgumentParser) -> None:
    """``--verbose`` of the read-only commands."""
    parser.add_argument("--verbose", action="store_true",
                        help="also say on stderr whether the file's damage check ran in "
                             "full or was skipped (unchanged since its last clean check; "
                             "'check' always checks in full)")


def say_check(store: GoldSetStore, verbose: bool) -> None:
    """Under ``--verbose``, one line on stderr: was the damage check run or skipped?"""
    if not verbose:
        return
    if store.check_done == "skipped":
        print(Message("note: {path}: damage check skipped: unchanged (size, times, SQLite "
                      "header and change counter) since its last clean full check; "
                      "'rag-annotator check' checks in full", path=str(store.path)).render(),
              file=sys.stderr)
    else:
        print(Message("note: {path}: damage check run in full (quick check of every page)",
                      path=str(store.path)).render(), file=sys.stderr)


def interrupted(command: str, file: str | None) -> str:
    """The one line printed when Ctrl+C stopped ``command``."""
    where = f" {file}" if file else ""
    return (f"interrupted: {command} stopped by Ctrl+C;{where} left as it was "
            "(nothing half-written).")
