"""The desktop UI: the only package (with ``app.py``) that imports PySide6 (DESIGN section 2).

Importing it imports PySide6 and makes PySide6's scan of each later import cheap
(``import_scan``): every module of the window is imported after this one.
"""

import PySide6.QtCore  # noqa: F401 - loads the import hook that import_scan speeds up

from rag_annotator.ui import import_scan

import_scan.install()
