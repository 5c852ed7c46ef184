"""PySide6's scan of each import (``ui/import_scan.py``): the byte read gives PySide6 the
answer its own ``inspect.getsource`` scan gives, for every module the window imports."""

from __future__ import annotations

import inspect
import sys

import rag_annotator.app  # noqa: F401 - the window's modules, imported as the app does
from rag_annotator.ui import import_scan


def _pyside_answer(module: object) -> bool:
    """PySide6's own rule (``shibokensupport.feature._mod_uses_pyside``)."""
    try:
        return "PySide6" in inspect.getsource(module)  # type: ignore[arg-type]
    except (TypeError, OSError, SyntaxError):
        return False


def test_the_window_imports_through_the_byte_read() -> None:
    feature = sys.modules["shibokensupport.feature"]
    installed = feature._mod_uses_pyside
    assert getattr(installed, import_scan._MARK)
    assert import_scan.install()  # again: kept, not wrapped twice
    assert feature._mod_uses_pyside is installed


def test_the_byte_read_answers_as_pyside_does() -> None:
    uses = sys.modules["shibokensupport.feature"]._mod_uses_pyside
    modules = [m for name, m in sorted(sys.modules.items())
               if isinstance(getattr(m, "__file__", None), str)]
    assert len(modules) > 100
    answers = {m.__name__: uses(m) for m in modules}
    assert answers == {m.__name__: _pyside_answer(m) for m in modules}
    assert answers["rag_annotator.ui.main_window"] and not answers["rag_annotator.errors"]
