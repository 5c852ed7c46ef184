"""The installed PySide6 must not drop references to None (PySide6-Essentials 6.12.0 does on
Python < 3.12: after a few thousand void calls the interpreter aborts with "none_dealloc").
pyproject.toml excludes 6.12; this test fails if the pin is relaxed onto a leaking build."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.gui

SCRIPT = """
import sys
from PySide6.QtGui import QAction, QGuiApplication
app = QGuiApplication([])
action = QAction("x")
before = sys.getrefcount(None)
for _ in range(20_000):
    action.setEnabled(True)
print(before - sys.getrefcount(None))
"""


def test_void_calls_keep_references_to_none() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         env=env, timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.split()[-1]) < 1000  # a leaking build loses one per call
