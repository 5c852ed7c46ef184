"""PySide6's per-import source scan, made cheap (issue 19: window <= 2x a bare PySide6 window).

Once PySide6 is imported it replaces ``__import__`` and, for its opt-in
``from __feature__ import snake_case``, sorts every module imported afterwards into "uses
PySide6" or not, by reading the module's source with ``inspect.getsource`` and looking for the
word ``PySide6`` (``shibokensupport.feature._mod_uses_pyside``).  ``inspect`` finds the file,
detects its encoding, splits it into lines through ``linecache`` and joins them again: 15 to
30 ms for the ~130 modules (ours and the standard library's) that start the window, which
a bare PySide6 window never imports.

:func:`install` gives PySide6 the same answer read from the file's bytes (``b"PySide6"``
in a UTF-8 or ASCII source is exactly ``"PySide6"`` in its text) and leaves every other case
(no ``.py`` file, a file that cannot be read) to PySide6's own function.  A PySide6 whose
``shibokensupport.feature`` has no such function (another version) is left as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

_MARK = "_rag_annotator_reads_bytes"


def install() -> bool:
    """Replace PySide6's scan with the byte read; True when it is (now or already) in place."""
    feature = sys.modules.get("shibokensupport.feature")
    original: Callable[[ModuleType], bool] | None = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(original):
        return False
    if getattr(original, _MARK, False):
        return True

    def uses_pyside(module: ModuleType) -> bool:
        file = getattr(module, "__file__", None)
        if not isinstance(file, str) or not file.endswith(".py"):
            return original(module)
        try:
            with open(file, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return original(module)

    setattr(uses_pyside, _MARK, True)
    feature._mod_uses_pyside = uses_pyside  # type: ignore[attr-defined]
    return True
