"""A one-line text dialog: Enter saves, Esc cancels (a reason, a note).

Shared by the Agents section (the reason for an overruled check, a trajectory's note) and
the case editor (an expected source's note).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget


class LineDialog(QDialog):
    """One line of text: Enter saves (when ``required``, only a non-empty text), Esc cancels."""

    def __init__(self, title: str, prompt: str, text: str = "", *, required: bool,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.required = required
        label = QLabel(prompt)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        self.field = QLineEdit(text)
        self.field.setMinimumWidth(520)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.field.textChanged.connect(self._sync)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.field)
        layout.addWidget(self.buttons)
        self._sync()
        self.field.setFocus()

    def _sync(self) -> None:
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setEnabled(not self.required or bool(self.field.text().strip()))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if not self.required or self.field.text().strip():
                self.accept()
            return  # a reason is required: Enter on an empty field does nothing
        super().keyPressEvent(event)

    def accept(self) -> None:
        if self.required and not self.field.text().strip():
            return
        super().accept()

    @property
    def text(self) -> str:
        return self.field.text().strip()
