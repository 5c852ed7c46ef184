"""The CLI's progress bar (issue 19): drawn on stderr when it is a terminal, after about a
second; nothing at all otherwise (scripts, CI logs)."""

from __future__ import annotations

import io
import sys

import pytest

from rag_annotator.cli import progress
from rag_annotator.cli.progress import Progress, interrupted


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(monkeypatch: pytest.MonkeyPatch, stderr: io.StringIO, delay: float) -> str:
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(progress, "DELAY", delay)
    with Progress("import qrels") as bar:
        for done in range(0, 100_001, 5_000):
            bar.report(done, 100_000)
            bar.poll()
    return stderr.getvalue()


def test_a_terminal_gets_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAG_ANNOTATOR_NO_PROGRESS", raising=False)
    drawn = _run(monkeypatch, _Terminal(), 0.0)
    assert "import qrels" in drawn and "100k/100k" in drawn


def test_a_pipe_or_a_file_gets_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run(monkeypatch, io.StringIO(), 0.0) == ""


def test_a_short_command_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAG_ANNOTATOR_NO_PROGRESS", raising=False)
    assert _run(monkeypatch, _Terminal(), 60.0) == ""


def test_the_switch_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_ANNOTATOR_NO_PROGRESS", "1")
    assert _run(monkeypatch, _Terminal(), 0.0) == ""


def test_the_interruption_line_is_one_line() -> None:
    line = interrupted("import", "g.goldset")
    assert "\n" not in line and line.startswith("interrupted: import") and "g.goldset" in line
