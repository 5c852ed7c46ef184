"""``metrics/`` is pure (DESIGN section 2, issue 14 item 3): no module of it imports the store
or the reports that read through it, not even for type checking, and no function of it takes
a store.  Read from the source with ``ast`` (every import statement, wherever it sits)."""

from __future__ import annotations

import ast
from pathlib import Path

import rag_annotator.metrics
import rag_annotator.reports

METRICS = Path(rag_annotator.metrics.__file__).parent
REPORTS = Path(rag_annotator.reports.__file__).parent
FORBIDDEN_IN_METRICS = ("rag_annotator.storage", "rag_annotator.reports",
                        "rag_annotator.import_export", "rag_annotator.ui", "PySide6", "sqlite3")
FORBIDDEN_IN_REPORTS = ("rag_annotator.ui", "rag_annotator.import_export", "PySide6")


def imported_modules(path: Path, package: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path``, relative ones resolved
    against ``package`` (the dotted name of the file's package)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[:len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            found += [(node.lineno, base)]
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _offenders(folder: Path, package: str, forbidden: tuple[str, ...]) -> list[str]:
    out = []
    for path in sorted(folder.rglob("*.py")):
        for line, module in imported_modules(path, package):
            if any(module == f or module.startswith(f + ".") for f in forbidden):
                out.append(f"{path.name}:{line} imports {module}")
    return out


def test_metrics_imports_neither_the_store_nor_the_reports() -> None:
    assert sorted(METRICS.glob("*.py"))  # the walk below sees the modules
    assert _offenders(METRICS, "rag_annotator.metrics", FORBIDDEN_IN_METRICS) == []


def test_no_metrics_function_takes_a_store() -> None:
    takes = []
    for path in sorted(METRICS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            for arg in args:
                annotation = ast.unparse(arg.annotation) if arg.annotation else ""
                if arg.arg == "store" or "Store" in annotation:
                    takes.append(f"{path.name}:{node.lineno} {node.name}({arg.arg})")
    assert takes == []


def test_reports_sit_below_the_ui_and_the_exports() -> None:
    """``ui -> (reports, import_export) -> (metrics, storage)``: reports import neither."""
    assert _offenders(REPORTS, "rag_annotator.reports", FORBIDDEN_IN_REPORTS) == []


def test_the_import_reader_sees_type_checking_blocks(tmp_path: Path) -> None:
    """The check must catch an import hidden under TYPE_CHECKING or in a function."""
    sample = tmp_path / "m.py"
    sample.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from rag_annotator.storage.store import X\n"
                      "def f():\n    from ..reports import inputs\n", encoding="utf-8")
    modules = [m for _line, m in imported_modules(sample, "rag_annotator.metrics")]
    assert "rag_annotator.storage.store" in modules
    assert "rag_annotator.reports.inputs" in modules
