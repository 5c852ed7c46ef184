"""House rules that code review alone would let slip: lint, types, the Qt-free core."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ["rag_annotator/domain", "rag_annotator/storage", "rag_annotator/import_export",
        "rag_annotator/metrics", "rag_annotator/reports",
        "rag_annotator/cli", "rag_annotator/errors.py", "rag_annotator/paths.py",
        "rag_annotator/settings.py"]


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed; install the test extra: pip install -e '.[test]'")
    out = subprocess.run([ruff, "check", "--no-cache", "."], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


def test_core_is_strictly_typed() -> None:
    # ui/ and app.py are checked by ruff, not strict mypy: follow into them silently.
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                          "--follow-imports=silent", *CORE], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


def test_ui_type_checks() -> None:
    """The Qt package is not strict, but mypy finds nothing in it (75 errors once, among
    them widgets whose attributes hid QWidget methods)."""
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                          "rag_annotator/ui", "rag_annotator/app.py"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


def test_headless_commands_never_load_qt() -> None:
    """The CLI's headless commands and the core must work where Qt cannot even load."""
    code = (
        "import sys\n"
        "import rag_annotator.cli, rag_annotator.storage.store, rag_annotator.domain.operations\n"
        "import rag_annotator.import_export.sample\n"
        "bad = [m for m in sys.modules if m.startswith('PySide6')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stdout + out.stderr


def test_project_stands_alone() -> None:
    """Nothing tracked reads the shared folder outside the project."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=False).stdout.split()
    needle = "../" + "shared"  # spelt apart so this file does not match itself
    offenders = [
        name for name in tracked
        if name.endswith((".py", ".sh", ".toml", ".cfg")) or name.startswith(".ci/")
        if needle in (ROOT / name).read_text(encoding="utf-8", errors="replace")
    ]
    assert offenders == []
