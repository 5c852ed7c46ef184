"""Tests share helpers through helper modules (``tests/helpers.py``, ``tests/builders.py``,
``tests/ui/driving.py`` …) and fixtures, never by importing another test module or a
conftest: a test module can then be renamed, split or deleted without breaking others, and
pytest never collects the same tests twice."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


def test_no_test_module_imports_another_test_module_or_a_conftest() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        for module in _imported_modules(path):
            last = module.rsplit(".", 1)[-1]
            if module.startswith("tests") and (last.startswith("test_") or last == "conftest"):
                found.append(f"{path.relative_to(TESTS)}: {module}")
    assert found == []
