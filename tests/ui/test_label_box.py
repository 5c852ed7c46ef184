"""A LabelBox passes a label's new text on to the layouts only when it needs another size."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from rag_annotator.ui.agents.label_box import LabelBox

pytestmark = pytest.mark.gui


def settle() -> None:
    """Deliver what the last change posted, and what handling it posted in turn."""
    for _ in range(5):
        QApplication.processEvents()


class LayoutSpy(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.LayoutRequest:
            self.seen += 1
        return False


def test_a_new_text_lays_out_again_only_when_its_size_changes(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = QWidget()
    qtbot.addWidget(window)
    layout = QVBoxLayout(window)
    label = QLabel("A01 · agent-v1 — trajectory 1 of 3")
    label.setWordWrap(True)
    box = LabelBox(label)
    layout.addWidget(box)
    layout.addWidget(QWidget(), 1)
    window.resize(300, 200)
    window.show()
    qtbot.waitExposed(window)
    settle()
    one_line = box.height()
    assert label.geometry() == box.rect()
    spy = LayoutSpy()
    window.installEventFilter(spy)

    label.setText("A12 · agent-v2 — trajectory 12 of 30")  # as high: nothing laid out
    settle()
    assert spy.seen == 0 and box.height() == one_line
    assert label.text().startswith("A12")

    label.setText("A02 · agent-v1 — " + "a request much longer than the pane is wide " * 3)
    settle()
    assert spy.seen >= 1
    assert box.height() > one_line  # wrapped on more lines, and shown whole
    assert box.height() >= label.heightForWidth(box.width())
    assert label.geometry() == box.rect()

    label.setText("A03 · agent-v1 — trajectory 3 of 3")  # back to one line
    settle()
    assert box.height() == one_line


def test_a_label_on_one_line_gets_the_width_of_its_new_text(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = QWidget()
    qtbot.addWidget(window)
    layout = QHBoxLayout(window)
    layout.addStretch(1)
    label = QLabel("3 trajectories · 3 to review")
    box = LabelBox(label)
    layout.addWidget(box)
    window.resize(600, 60)
    window.show()
    qtbot.waitExposed(window)
    settle()
    label.setText("10,000 trajectories · 9,999 to review")
    settle()
    assert box.width() >= label.sizeHint().width()  # shown whole, not clipped
