"""A label whose new text re-lays out the window only when it needs another size.

Qt lays out again every layout up to the window each time a label in a layout gets a new text
(``QLabel::setText`` calls ``updateGeometry``, and every layout that activates calls it on its
own widget in turn): in the Agents section each review key changed four labels, and each time
the splitters, every pane and the section were laid out and painted again (issue 19).  A
:class:`LabelBox` holds the label outside any layout and passes the change on only when the
label needs another size: another height at the box's width (a wrapped label) or another
width (a label on one line).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class LabelBox(QWidget):
    """Holds ``label`` (which keeps its own API: set its text as before) at its own size."""

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        self.setSizePolicy(label.sizePolicy())
        self._hints = self._measure()

    def _measure(self) -> tuple[object, ...]:
        """What the layouts around need of the label.  A word-wrapped label's widths follow
        its words ("A12" is wider than "A11") but the pane's width is the splitter's: only
        its height at the box's width matters, and whether its longest word still fits."""
        label = self.label
        if not label.wordWrap():
            return label.sizeHint(), label.minimumSizeHint()
        minimum = label.minimumSizeHint()
        return (label.heightForWidth(self.width()), minimum.height(),
                minimum.width() > self.width())

    # -- what the layout holding the box asks: the label's answers ---------------------------
    def sizeHint(self) -> QSize:  # Qt override
        return self.label.sizeHint()

    def minimumSizeHint(self) -> QSize:  # Qt override
        return self.label.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:  # Qt override
        return self.label.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:  # Qt override
        return self.label.heightForWidth(width)

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        self.label.setGeometry(self.rect())
        self._hints = self._measure()

    def event(self, event: QEvent) -> bool:  # Qt override
        # the label's text changed: lay out again only if it now needs another size
        if event.type() == QEvent.Type.LayoutRequest:
            hints = self._measure()
            if hints != self._hints:
                self._hints = hints
                self.updateGeometry()
            return True
        return super().event(event)
