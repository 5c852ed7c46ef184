"""How the dashboard's panels write their figures: shares and measure values in the user's
locale, family row titles, and the translation context they all share.

The dashboard's texts were written in one class, ``DashboardSection``; the panels keep that
context (``translate("DashboardSection", …)``, which pyside6-lupdate extracts) so the
French translations stay where they are.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, QLocale

from rag_annotator.metrics.intervals import Interval
from rag_annotator.metrics.overview import ALL
from rag_annotator.ui import labels

translate = QCoreApplication.translate


def pct(value: float | None) -> str:
    """A share in the user's locale ("72.0%", "72,0 %"); a dash when not computable."""
    if value is None:
        return "—"
    locale = QLocale()
    text = locale.toString(value * 100, "f", 1)
    return text + ("\u202f%" if locale.language() == QLocale.Language.French else "%")


def num(value: float | None) -> str:
    """A measure value with 3 decimals in the user's locale; a dash when not defined."""
    return "—" if value is None else QLocale().toString(value, "f", 3)


def decimals(value: float | None, places: int) -> str:
    """A mean with ``places`` decimals in the user's locale; a dash when not computable."""
    return "—" if value is None else QLocale().toString(value, "f", places)


def family_title(key: str) -> str:
    """A family's row title; ``ALL`` is "All families"."""
    return (translate("DashboardSection", "All families") if key == ALL
            else labels.family(key))


def family_keys(keys: Iterable[str]) -> list[str]:
    """Family codes in the order of their titles, then ``ALL``."""
    return [*sorted((k for k in keys if k != ALL), key=labels.family), ALL]


def pct_range(value: float | None, interval: Interval | None) -> str:
    """A share and its interval in points: "92.0% [84–96]" ("—" alone when not
    computable; no range when there is none)."""
    if value is None or interval is None:
        return pct(value)
    locale = QLocale()
    return (f"{pct(value)} [{locale.toString(interval.low * 100, 'f', 0)}–"
            f"{locale.toString(interval.high * 100, 'f', 0)}]")


def num_range(value: float | None, interval: Interval | None) -> str:
    """A mean (3 decimals) and its interval (2 decimals): "0.870 [0.73–1.00]"."""
    if value is None or interval is None:
        return num(value)
    return f"{num(value)} [{decimals(interval.low, 2)}–{decimals(interval.high, 2)}]"


def error_bar(interval: Interval | None) -> tuple[float, float] | None:
    """An interval as a bar's whisker (low, high), or None."""
    return None if interval is None else (interval.low, interval.high)
