"""The judging counts' background thread (``ui/serial_worker.py``): jobs run one at a time
in the order given, on one thread; shutdown drops what has not started and waits for the
running job; a job that raises is logged and the next one still runs."""

from __future__ import annotations

import logging
import threading

import pytest

from rag_annotator.ui.serial_worker import SerialWorker


def test_jobs_run_in_order_on_one_thread() -> None:
    worker = SerialWorker("test-worker")
    seen: list[tuple[int, str]] = []
    done = threading.Event()
    for i in range(20):
        worker.submit(lambda i=i: seen.append((i, threading.current_thread().name)))
    worker.submit(done.set)
    assert done.wait(10)
    worker.shutdown()
    assert [i for i, _ in seen] == list(range(20))
    assert {name for _, name in seen} == {"test-worker"}
    with pytest.raises(RuntimeError):
        worker.submit(done.set)


def test_shutdown_waits_for_the_running_job_and_drops_the_rest() -> None:
    worker = SerialWorker("test-worker")
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def slow() -> None:
        started.set()
        release.wait(10)
        ran.append("slow")

    worker.submit(slow)
    worker.submit(lambda: ran.append("dropped"))
    assert started.wait(10)
    closer = threading.Thread(target=worker.shutdown)
    closer.start()
    closer.join(0.2)
    assert closer.is_alive()  # still waiting for the running job
    release.set()
    closer.join(10)
    assert not closer.is_alive() and ran == ["slow"]


def test_a_failing_job_is_logged_and_the_next_one_runs(caplog: pytest.LogCaptureFixture) -> None:
    worker = SerialWorker("test-worker")
    done = threading.Event()

    def broken() -> None:
        raise ValueError("boom")

    with caplog.at_level(logging.ERROR, logger="rag_annotator"):
        worker.submit(broken)
        worker.submit(done.set)
        assert done.wait(10)
        worker.shutdown()
    assert "broken" in caplog.text and "boom" in caplog.text
