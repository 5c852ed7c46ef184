"""One background thread that runs jobs one after the other, in the order given.

What ``ThreadPoolExecutor(max_workers=1)`` did for the judging counts, without importing
``concurrent.futures`` (~4 ms of the GUI thread, paid right after the window's first paint
when the counts start).  Nothing waits for a job's result: a job reports through Qt
signals, and one that raises is logged, never lost silently.  :func:`window_first` is the
rule every worker thread of the window follows while it works (the import and export
workers, the page renderer): the GIL handed back to the window's thread quickly.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger("rag_annotator")

#: The interpreter's thread switch interval while a worker runs (Python's default: 5 ms).
#: A worker parsing a file in Python holds the GIL; each time the window runs Python code (a
#: model's ``data()``, a paint override) it waits up to one interval for it, and showing a
#: dialog makes dozens of such calls: 5 ms each stalled the window for 150-230 ms.
WORKER_SWITCH_INTERVAL = 0.0005

_active = 0
_active_lock = threading.Lock()
_default_interval = sys.getswitchinterval()


@contextmanager
def window_first() -> Iterator[None]:
    """While any worker runs, hand the GIL back to the window's thread quickly."""
    global _active, _default_interval
    with _active_lock:
        if _active == 0:
            _default_interval = sys.getswitchinterval()
            sys.setswitchinterval(WORKER_SWITCH_INTERVAL)
        _active += 1
    try:
        yield
    finally:
        with _active_lock:
            _active -= 1
            if _active == 0:
                sys.setswitchinterval(_default_interval)


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
