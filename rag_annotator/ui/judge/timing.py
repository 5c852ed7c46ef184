"""How long a pair was on screen before its key: the active seconds each judgment records.

:class:`ActiveClock` is restarted whenever the Judge section shows another pair.  It counts
the time between two user input events (a key, a click, the wheel, the mouse moving over the
window) only when the gap is at most :data:`IDLE_LIMIT_MS`: an assessor who left for lunch with
a pair on screen adds nothing for that gap, while reading a long document without touching
anything for a minute or two still counts.  The gap that ends at the judging key counts by the
same rule.

Cost: the clock filters the application's events only while the Judge section is shown
(:meth:`ActiveClock.watch`), and the filter does one type test and, for an input event, two
integer operations; reading the seconds at a key is one subtraction (no query).
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QEvent, QObject
from PySide6.QtWidgets import QApplication

#: A gap between two input events longer than this is idle time, not counted (3 minutes).
IDLE_LIMIT_MS = 3 * 60 * 1000

#: The events that show the assessor is there.
INPUT_EVENTS = frozenset({
    QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove,
    QEvent.Type.Wheel, QEvent.Type.ShortcutOverride,
})


class ActiveClock(QObject):
    """Active milliseconds since :meth:`restart` (see the module docstring)."""

    def __init__(self, parent: QObject | None = None, *, follow: bool = False) -> None:
        """``follow``: watch input while ``parent`` is shown (:meth:`follow`)."""
        super().__init__(parent)
        self._timer = QElapsedTimer()
        self._timer.start()
        self._active_ms = 0
        self._last_ms = 0
        self._watching = False
        self._followed: QObject | None = None
        if follow and parent is not None:
            self.follow(parent)

    def restart(self) -> None:
        """A new pair is on screen: count from now."""
        self._timer.restart()
        self._active_ms = 0
        self._last_ms = 0

    def touch(self, now_ms: int | None = None) -> None:
        """An input event at ``now_ms`` (default: now): count the gap since the last one
        unless it was idle."""
        now = self._timer.elapsed() if now_ms is None else now_ms
        gap = now - self._last_ms
        if 0 < gap <= IDLE_LIMIT_MS:
            self._active_ms += gap
        self._last_ms = max(now, self._last_ms)

    def seconds(self, now_ms: int | None = None) -> float:
        """Active seconds so far, the gap up to now included by the same idle rule."""
        now = self._timer.elapsed() if now_ms is None else now_ms
        gap = now - self._last_ms
        active = self._active_ms + (gap if 0 < gap <= IDLE_LIMIT_MS else 0)
        return round(active / 1000.0, 3)

    def watch(self, on: bool) -> None:
        """Follow the application's input events (True) or stop (False)."""
        app = QApplication.instance()
        if app is None or on == self._watching:
            return
        self._watching = on
        if on:
            app.installEventFilter(self)
            self.touch()
        else:
            app.removeEventFilter(self)

    def follow(self, widget: QObject) -> None:
        """Watch the input events while ``widget`` (the Judge section) is shown."""
        self._followed = widget
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in INPUT_EVENTS:
            self.touch()
        elif watched is self._followed and kind in (QEvent.Type.Show, QEvent.Type.Hide):
            self.watch(kind == QEvent.Type.Show)
        return False
