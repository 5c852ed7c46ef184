"""The desktop UI: the only package (with ``app.py``) that imports PySide6 (DESIGN section 2)."""
