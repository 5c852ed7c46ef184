"""Run work once a widget has been painted, not before (issue 19: a key within a frame).

A key that moves to the next pair or answer should reach the screen first; what the next key
will need (reading ahead) runs afterwards, while the user reads.  Neither a zero-delay timer
nor a 1 ms one says "after the paint": the first is a posted call that Qt delivers before the
low-priority repaint request, and a timer that is already due when the event loop comes back
may be served before posted events too (the glib dispatcher takes its sources in turn).  So
:class:`AfterPaint` watches the widget's Paint event and posts the work from there: a call
posted while the window paints is delivered only once that paint (and its flush) is done.
If no paint comes (the widget hidden, or nothing on it changed) the work runs after a short
fallback delay instead.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

#: Milliseconds after which the work runs anyway when the widget was not painted.
FALLBACK_MS = 50


class AfterPaint(QObject):
    """Calls ``work`` once after the next paint of ``widget`` (see the module's docstring)."""

    def __init__(self, widget: QWidget, work: Callable[[], None],
                 fallback_ms: int = FALLBACK_MS) -> None:
        super().__init__(widget)
        self._widget = widget
        self._work = work
        self._pending = False  # the work is asked for and has not run
        self._armed = False  # watching the widget's events (only then: no Python call per
        # event of the widget the rest of the time)
        self._fallback = QTimer(self)
        self._fallback.setSingleShot(True)
        self._fallback.setInterval(fallback_ms)
        self._fallback.timeout.connect(self._run)

    @property
    def due(self) -> bool:
        """The work is asked for and has not run yet."""
        return self._pending

    def arm(self) -> None:
        """Run the work after the widget's next paint (once, however often armed)."""
        self._pending = True
        self._watch(True)
        if not self._fallback.isActive():
            self._fallback.start()

    def cancel(self) -> None:
        """Forget the work asked for."""
        self._pending = False
        self._watch(False)
        self._fallback.stop()

    def _watch(self, on: bool) -> None:
        if on != self._armed:
            self._armed = on
            if on:
                self._widget.installEventFilter(self)
            else:
                self._widget.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if self._armed and event.type() == QEvent.Type.Paint:
            self._watch(False)
            self._fallback.stop()
            QTimer.singleShot(0, self, self._run)  # posted during the paint: runs after it
        return False

    def _run(self) -> None:
        self._watch(False)
        self._fallback.stop()
        if self._pending:  # not cancelled, nor run already
            self._pending = False
            self._work()
