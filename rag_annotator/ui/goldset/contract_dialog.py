"""The case's output contract (issue 17), edited beside the case editor: the JSON Schema of
a structured answer and its decisive fields, as the one JSON object the files carry.

The text is checked as it is typed (strict JSON, a JSON Schema 2020-12, RFC 6901 pointers,
known comparisons, documents of the corpus): the line under it says what is wrong, and Save
is only possible once nothing is.  Saving is one undoable operation that also checks the
case's answers again; "Remove the contract" is one too.  An empty contract starts from a
template built on the case's expected sources.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.strict_json import parse_strict
from rag_annotator.domain.structured import Contract, contract_from_json, contract_to_json
from rag_annotator.errors import InvalidValue
from rag_annotator.ui.look.zoom import monospace


def template(source: str | None) -> dict[str, Any]:
    """A contract to start from: an object schema and one decisive field to fill in."""
    field: dict[str, Any] = {"pointer": "/field", "reference": "value", "comparison": "text"}
    if source:
        field.update(document=source, passage="")
    return {"schema": {"$schema": "https://json-schema.org/draft/2020-12/schema",
                       "type": "object", "required": ["field"],
                       "properties": {"field": {"type": "string"}}},
            "fields": [field]}


class ContractDialog(QDialog):
    """Edit one case's contract: ``contract`` holds the result once accepted (None when
    "Remove the contract" was chosen)."""

    def __init__(self, case_key: str, contract: Contract | None, documents: set[str],
                 first_source: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Output contract of case %1").replace("%1", case_key))
        self.documents = documents
        self.contract: Contract | None = None
        self.had_contract = contract is not None
        help_text = QLabel(self.tr(
            "The JSON Schema (2020-12) a structured answer must satisfy, and its decisive "
            "fields: <b>pointer</b> (e.g. /start_date), <b>reference</b> value, "
            "<b>comparison</b> (exact, number with a <b>tolerance</b>, date, text, one_of), "
            "the <b>document</b> key and <b>passage</b> that justify it."))
        help_text.setWordWrap(True)
        self.editor = QPlainTextEdit()
        monospace(self.editor)  # follows the text zoom
        self.editor.setTabChangesFocus(True)
        start = contract_to_json(contract) if contract is not None else template(first_source)
        self.editor.setPlainText(json.dumps(start, ensure_ascii=False, indent=2))
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.remove = QPushButton(self.tr("Remove the contract"))
        self.remove.setEnabled(self.had_contract)
        self.buttons.addButton(self.remove, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.remove.clicked.connect(self._remove)
        self.editor.textChanged.connect(self._check)
        layout = QVBoxLayout(self)
        layout.addWidget(help_text)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.resize(720, 560)
        self._check()
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    def parsed(self) -> tuple[Contract | None, str]:
        """The contract typed, or the one-line reason it is not one."""
        ok, value, reason = parse_strict(self.editor.toPlainText())
        if not ok:
            return None, self.tr("Not JSON: %1").replace("%1", reason)
        try:
            contract = contract_from_json(value)
        except InvalidValue as error:
            return None, error.render()
        unknown = sorted({f.document for f in contract.fields
                          if f.document is not None and f.document not in self.documents})
        if unknown:
            return None, self.tr("No document %1 in the corpus.").replace("%1", unknown[0])
        return contract, ""

    def _check(self) -> None:
        contract, problem = self.parsed()
        self.problem.setText("✓ " + self.tr("The contract is valid.") if contract is not None
                             else "✗ " + problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(
            contract is not None)

    def _remove(self) -> None:
        self.contract = None
        self.done(QDialog.DialogCode.Accepted)

    def accept(self) -> None:
        contract, _problem = self.parsed()
        if contract is None:
            return
        self.contract = contract
        super().accept()
