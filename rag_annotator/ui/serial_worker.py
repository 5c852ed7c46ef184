"""One background thread that runs jobs one after the other, in the order given.

What ``ThreadPoolExecutor(max_workers=1)`` did for the judging counts, without importing
``concurrent.futures`` (~4 ms of the GUI thread, paid right after the window's first paint
when the counts start: issue 19).  Nothing waits for a job's result: a job reports through
Qt signals, and one that raises is logged, never lost silently.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

log = logging.getLogger("rag_annotator")


class SerialWorker:
    """Runs submitted jobs on one daemon thread, started with the first job."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: deque[tuple[Callable[..., object], tuple[Any, ...]]] = deque()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, job: Callable[..., object], *args: Any) -> None:
        """Queue ``job(*args)`` after the jobs already queued."""
        with self._wake:
            if self._closed:
                raise RuntimeError("submit after shutdown")
            self._jobs.append((job, args))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name,
                                                daemon=True)
                self._thread.start()
            self._wake.notify()

    def shutdown(self) -> None:
        """Drop the jobs not started yet and wait for the running one to end."""
        with self._wake:
            self._closed = True
            self._jobs.clear()
            self._wake.notify()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._jobs and not self._closed:
                    self._wake.wait()
                if not self._jobs:
                    return
                job, args = self._jobs.popleft()
            try:
                job(*args)
            except Exception:
                log.exception("background job %s failed", getattr(job, "__name__", job))
