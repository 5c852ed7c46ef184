"""No two modules of rag_annotator import each other, directly or through others.

A cycle makes the import order decide what works (half-initialised modules) and hides which
module is the lower layer.  Only imports that run when a module is loaded count: module-level
statements, including those under ``try`` or ``if``, but not ``if TYPE_CHECKING:`` blocks
(annotations only) nor imports inside functions (deliberately late, for startup time).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import rag_annotator

PACKAGE = Path(rag_annotator.__file__).parent
NAME = "rag_annotator"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "resources" in path.relative_to(PACKAGE).parts:
            continue
        parts = (NAME, *path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _load_time_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Import statements run when the module loads (not in functions or classes' methods,
    not under ``if TYPE_CHECKING``)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _load_time_imports(node.body)
            yield from _load_time_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody,
                          *(handler.body for handler in node.handlers)):
                yield from _load_time_imports(block)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            yield from _load_time_imports(node.body)


def _targets(module: str, path: Path, node: ast.Import | ast.ImportFrom,
             modules: dict[str, Path]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in modules:
                yield alias.name
        return
    if node.level:  # relative: from the package holding this module
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1]
                        + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    for alias in node.names:
        if f"{base}.{alias.name}" in modules:  # from package import module
            yield f"{base}.{alias.name}"
        elif base in modules:
            yield base


def import_graph() -> dict[str, set[str]]:
    """Each module of rag_annotator -> the modules of rag_annotator it imports on loading."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = {target for node in _load_time_imports(tree.body)
                         for target in _targets(module, path, node, modules)
                         if target != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_finder_sees_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_load_time_imports_only() -> None:
    file_life = import_graph()["rag_annotator.ui.file_life"]
    assert "rag_annotator.ui.hub" in file_life  # module level
    assert "rag_annotator.import_export.merge" not in file_life  # under TYPE_CHECKING
    assert "rag_annotator.ui.backup_dialog" not in file_life  # inside a method


def test_no_import_cycle_between_modules() -> None:
    assert cycles(import_graph()) == []
