"""The Gold set section's bulk edit: family, status and tags to set on the selected cases.

Its own module: the section shows in the window's first paint, this dialog only on Ctrl+B.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.ui import labels
from rag_annotator.ui.sections.base import choice_combo


class BulkEditDialog(QDialog):
    """Family, status and tags to set on a selection (empty choices leave things as they are)."""

    def __init__(self, count: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Change %Ln case(s)", "", count))
        unchanged = self.tr("(unchanged)")
        self.family = choice_combo(unchanged,
                                   {k: labels.tr(v) for k, v in labels.FAMILIES.items()})
        self.status = choice_combo(unchanged,
                                   {k: labels.tr(v) for k, v in labels.CASE_STATUSES.items()})
        self.add_tags = QLineEdit()
        self.add_tags.setPlaceholderText(self.tr("tags to add, comma-separated"))
        self.remove_tags = QLineEdit()
        self.remove_tags.setPlaceholderText(self.tr("tags to remove, comma-separated"))
        form = QFormLayout()
        form.addRow(self.tr("Family"), self.family)
        form.addRow(self.tr("Add tags"), self.add_tags)
        form.addRow(self.tr("Remove tags"), self.remove_tags)
        form.addRow(self.tr("Status"), self.status)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Each change is one step in the history (one undo).")))
        layout.addLayout(form)
        layout.addWidget(buttons)

