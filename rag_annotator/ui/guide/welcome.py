"""The first start's welcome, and the page shown while no file is open.

The welcome is a band above the sections, not a dialog: the window and the sample are on
screen at once, the expert reads what the sample is, that F1 opens the guide at the page of
the section on screen and ? the keyboard shortcuts, that nothing is asked until a first change
records their name, and where their own files go.  It stays at every start until it is closed
(``Settings.welcomed``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.ui import actions
from rag_annotator.ui.look import colours

if TYPE_CHECKING:
    from rag_annotator.ui.main_window import MainWindow


class Welcome(QFrame):
    """"Welcome": what the sample is, F1 for the guide, ? for the keys; Close for good."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.setObjectName("welcome")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        colours.paint_banner(self.text, "info_banner", 8)
        self.guide_button = QPushButton(self.tr("Open the &Guide (F1)"))
        self.guide_button.clicked.connect(window.open_guide)
        self.new_button = QPushButton(self.tr("Create &My Own Gold Set…"))
        self.new_button.clicked.connect(window.files.ask_new)
        self.close_button = QPushButton(self.tr("Close the Welcome"))
        self.close_button.clicked.connect(self.close_for_good)
        buttons = QHBoxLayout()
        for button in (self.guide_button, self.new_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        self.setVisible(False)
        window.hub.store_replaced.connect(lambda _store: self._render())

    def show_welcome(self) -> None:
        """Show the welcome (the first start, and every start until it is closed)."""
        self._render()
        self.setVisible(True)

    def close_for_good(self) -> None:
        """Hide it, and remember not to show it again."""
        self.setVisible(False)
        self.window_.settings.welcomed = True
        self.window_.save_settings()

    def _render(self) -> None:
        window = self.window_
        store = window.store
        on_sample = store is not None and store.path == window.paths.sample_file.resolve()
        welcome = self.tr("Welcome to rag-annotator.")
        parts = [f"<b>{welcome}</b>"]
        if on_sample:
            parts.append(self.tr(
                "This is a sample gold set — the HR questions of a fictional company, with "
                "two runs to judge and verify — for you to try everything on: your own files "
                "are not touched."))
        parts.append(self.tr(
            "Press <b>F1</b> at any time for the guide, at the page of the section you are "
            "in; <b>?</b> lists the keyboard shortcuts."))
        parts.append(self.tr(
            "Your name is asked the first time you record a judgment or a change. Your own "
            "gold sets and exports go to your Documents folder unless you choose another."))
        self.text.setText(" ".join(parts))


class NoFilePage(QWidget):
    """The page shown while no gold set is open: what to do, and where the guide is."""

    def __init__(self, new: Callable[[], object], open_: Callable[[], object],
                 sample: Callable[[], object]) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        # a heading in rich text: its size is relative to the font, so it follows the zoom
        heading = self.tr("No gold set is open.")
        title = QLabel(f"<h2>{html.escape(heading)}</h2>")
        hint = QLabel(self.tr("Create a new gold set, open one, or explore the sample. "
                              "F1 opens the guide."))
        for label in (title, hint):
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            layout.addWidget(label)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for text, slot in ((actions.tr(actions.spec("file.new").label), new),
                           (actions.tr(actions.spec("file.open").label), open_),
                           (self.tr("Open the Sample"), sample)):
            button = QPushButton(text)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addStretch(2)
