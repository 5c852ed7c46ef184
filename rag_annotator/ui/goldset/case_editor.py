"""The case editor: every field of one case, edited in place, each change committed at once.

A field commits when it loses the focus (or on Enter in one-line fields, on choice in a
combo): one ``edit_case`` operation, on the undo stack and in the history.  Lists (variants,
must contain, must never say) take one item per line; tags are comma-separated.  Family rules
(``domain.family_rules``) are shown above the form as warnings; a case that a frozen release
approved is shown read-only with the reason.

:class:`~rag_annotator.ui.goldset.source_dialog.SourceDialog` picks a document for an
expected source, optionally a passage selected in the document's text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.family_rules import check_case
from rag_annotator.domain.validation import CASE_AGENT_FIELDS
from rag_annotator.errors import InvalidValue, NotFound
from rag_annotator.ui import actions, labels
from rag_annotator.ui.context import UiContext
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP
from rag_annotator.ui.look import colours
from rag_annotator.ui.models import Column, RowsModel, one_line
from rag_annotator.ui.sections.base import (
    current_row,
    esc,
    make_table,
)

LIST_FIELDS = ("variants", "must_contain", "forbidden")
#: Fields of an agent case (seed 000), in the form's order; text forms of ``domain.agents``.
AGENT_FIELDS = CASE_AGENT_FIELDS
#: Fields only a RAG case uses: hidden while an agent case is shown (and the other way).
RAG_FIELDS = ("variants", "reference_answer", "must_contain", "forbidden",
              "expected_behaviour")
KINDS: dict[str, str] = {
    "rag": QT_TRANSLATE_NOOP("labels", "RAG (answer from documents)"),
    "agent": QT_TRANSLATE_NOOP("labels", "Agent (result and path)"),
}
_INVALID = object()
# Texts outside the class keep its context: lupdate finds ``translate("CaseEditor", "…")``.
translate = QCoreApplication.translate


class TextField(QPlainTextEdit):
    """A multi-line field that reports when editing ends (focus lost); Tab leaves it."""

    editing_finished = Signal()

    def __init__(self, lines: int = 3, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        height = self.fontMetrics().lineSpacing() * lines + 14
        self.setMinimumHeight(height)
        self.setMaximumHeight(height * 2)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.editing_finished.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Ctrl+Enter commits without leaving the field (Enter makes a new line: a new item).
        if (event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self.editing_finished.emit()
            return
        super().keyPressEvent(event)


#: The agent field a RAG field's shortcut reaches on an agent case (that field is hidden).
AGENT_STAND_INS = {"reference_answer": "expected_state", "must_contain": "forbidden_tools"}


def _combo(choices: dict[str, str], empty: str | None = None) -> QComboBox:
    combo = QComboBox()
    if empty is not None:
        combo.addItem(empty, "")
    for code, label in choices.items():
        combo.addItem(labels.tr(label), code)
    return combo


def _set_combo(combo: QComboBox, code: str | None) -> None:
    index = combo.findData(code or "")
    with QSignalBlocker(combo):
        combo.setCurrentIndex(max(index, 0))


def split_lines(text: str) -> list[str]:
    """One list item per non-empty line."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def split_tags(text: str) -> list[str]:
    """Tags from a comma- or semicolon-separated text, in order, without repeats."""
    out: list[str] = []
    for part in text.replace(";", ",").split(","):
        tag = part.strip()
        if tag and tag not in out:
            out.append(tag)
    return out


class CaseEditor(QWidget):
    """Edits one case; ``set_case`` commits what is being typed before switching."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.case_id: int | None = None
        self.case: dict[str, Any] = {}
        self.read_only = False
        self.rule_codes: list[str] = []
        self._committing = False
        self._build_fields()
        self.budgets = self._build_budgets()
        self._build_sources()
        self._build_form()
        self._build_layout()
        self._connect_fields()
        self.set_case(None)

    def _build_fields(self) -> None:
        """The banner, the warnings and one field per column of the case."""
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setTextFormat(Qt.TextFormat.RichText)
        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.warnings.setTextFormat(Qt.TextFormat.RichText)

        self.key = QLineEdit()
        self.kind = _combo(KINDS)
        self.question = TextField(2)
        self.variants = TextField(2)
        self.reference_answer = TextField(3)
        self.must_contain = TextField(3)
        self.forbidden = TextField(2)
        self.expected_behaviour = _combo(labels.BEHAVIOURS)
        self.family = _combo(labels.FAMILIES)
        self.tags = QLineEdit()
        self.tags.setPlaceholderText(self.tr("comma-separated topics"))
        self.difficulty = _combo(labels.DIFFICULTIES, "—")
        self.role = QLineEdit()
        self.role.setPlaceholderText(self.tr("the role that may or may not see the sources"))
        self.status = _combo(labels.CASE_STATUSES)
        self.author = QLineEdit()
        self.notes = TextField(2)
        self.expected_state = TextField(3)
        self.expected_state.setPlaceholderText(self.tr(
            "one key = value per line, e.g. ticket.category = changement_offre"))
        self.forbidden_tools = QLineEdit()
        self.forbidden_tools.setPlaceholderText(self.tr("tool names, comma-separated"))
        self.required_tools = QLineEdit()
        self.required_tools.setPlaceholderText(self.tr("tool names, comma-separated"))
        self.tool_order = TextField(2)
        self.tool_order.setPlaceholderText(self.tr(
            "one pair per line, e.g. verifier_identite < modifier_offre"))

    def _build_budgets(self) -> QWidget:
        """The four budgets, two by row (fits a zoomed text), each label its field's buddy."""
        self.max_steps, self.max_tokens = QLineEdit(), QLineEdit()
        self.max_seconds, self.max_cost = QLineEdit(), QLineEdit()
        budgets = QWidget()
        budget_grid = QGridLayout(budgets)
        budget_grid.setContentsMargins(0, 0, 0, 0)
        for i, (title, field) in enumerate(((self.tr("steps"), self.max_steps),
                                            (self.tr("tokens"), self.max_tokens),
                                            (self.tr("seconds"), self.max_seconds),
                                            (self.tr("cost"), self.max_cost))):
            field.setPlaceholderText(self.tr("none"))
            field.setMinimumWidth(field.fontMetrics().horizontalAdvance("0") * 6)
            budget_grid.addWidget(label := QLabel(title), i // 2, (i % 2) * 2)
            label.setBuddy(field)  # a screen reader names the field
            budget_grid.addWidget(field, i // 2, (i % 2) * 2 + 1)
        return budgets

    def _build_sources(self) -> None:
        """The expected sources table, its buttons and its keys."""
        self.sources_model = RowsModel([
            Column(self.tr("Document"), lambda r: r["key"], 12),
            Column(self.tr("Title"), lambda r: one_line(r["title"]), 24, stretch=True),
            Column(self.tr("Passage"), self._passage_text, 24),
            Column(self.tr("Note"), lambda r: one_line(r["note"]), 14),
        ], self)
        self.sources = make_table(self.sources_model)
        self.sources.setMaximumHeight(self.sources.verticalHeader().defaultSectionSize() * 5
                                      + 30)
        self.add_source_button = QPushButton(self.tr("Add source…"))
        self.remove_source_button = QPushButton(self.tr("Remove source"))
        self.add_source_button.clicked.connect(self.add_source)
        self.remove_source_button.clicked.connect(self.remove_source)
        self.remove_action = actions.make_action("goldset.remove_source", self.sources,
                                                 Qt.ShortcutContext.WidgetShortcut)
        self.remove_action.triggered.connect(self.remove_source)
        self.sources.addAction(self.remove_action)
        self.show_action = actions.make_action("goldset.show_source", self.sources,
                                               Qt.ShortcutContext.WidgetShortcut)
        self.show_action.triggered.connect(self.show_source)
        self.sources.addAction(self.show_action)
        self.note_action = actions.make_action("goldset.edit_source_note", self.sources,
                                               Qt.ShortcutContext.WidgetShortcut)
        self.note_action.triggered.connect(self.edit_source_note)
        self.sources.addAction(self.note_action)
        self.sources.doubleClicked.connect(lambda _index: self.edit_source_note())

    def _build_form(self) -> None:
        """The form: every field under its title, then the expected sources."""
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        rows: list[tuple[str, QWidget]] = [
            (self.tr("Key"), self.key),
            (self.tr("Kind"), self.kind),
            (self.tr("Question"), self.question),
            (self.tr("Variants (one per line)"), self.variants),
            (self.tr("Reference answer"), self.reference_answer),
            (self.tr("Must contain (one per line)"), self.must_contain),
            (self.tr("Must never say (one per line)"), self.forbidden),
            (self.tr("Expected behaviour"), self.expected_behaviour),
            (self.tr("Expected final state (key = value per line)"), self.expected_state),
            (self.tr("Forbidden tools"), self.forbidden_tools),
            (self.tr("Required tools"), self.required_tools),
            (self.tr("Tool order (before < after, one pair per line)"), self.tool_order),
            (self.tr("Budgets (empty: none)"), self.budgets),
            (self.tr("Family"), self.family),
            (self.tr("Tags"), self.tags),
            (self.tr("Difficulty"), self.difficulty),
            (self.tr("Role"), self.role),
            (self.tr("Status"), self.status),
            (self.tr("Author"), self.author),
            (self.tr("Notes"), self.notes),
        ]
        for title, widget in rows:
            form.addRow(_title(title, widget), widget)
        source_buttons = QHBoxLayout()
        source_buttons.addWidget(self.add_source_button)
        source_buttons.addWidget(self.remove_source_button)
        source_buttons.addStretch(1)
        source_box = QVBoxLayout()
        source_box.addWidget(self.sources)
        source_box.addLayout(source_buttons)
        form.addRow(_title(self.tr("Expected sources"), self.sources), source_box)
        self.form = form
        self.source_box = source_box

    def _build_layout(self) -> None:
        """The form in a vertical scroll area under the banner and the warnings."""
        inner = QWidget()
        inner_layout = QVBoxLayout(inner)
        inner_layout.addWidget(self.banner)
        inner_layout.addWidget(self.warnings)
        inner_layout.addLayout(self.form)
        inner_layout.addStretch(1)
        self.fields_area = scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    def _connect_fields(self) -> None:
        """Each field commits on its own when the user leaves it or picks a value."""
        self._text_fields: dict[str, QPlainTextEdit | QLineEdit] = {
            "key": self.key, "question": self.question, "variants": self.variants,
            "reference_answer": self.reference_answer, "must_contain": self.must_contain,
            "forbidden": self.forbidden, "tags": self.tags, "role": self.role,
            "author": self.author, "notes": self.notes,
            "expected_state": self.expected_state, "forbidden_tools": self.forbidden_tools,
            "required_tools": self.required_tools, "tool_order": self.tool_order,
            "max_steps": self.max_steps, "max_tokens": self.max_tokens,
            "max_seconds": self.max_seconds, "max_cost": self.max_cost,
        }
        for name, widget in self._text_fields.items():
            if isinstance(widget, TextField):
                widget.editing_finished.connect(lambda n=name: self.commit(n))
            elif isinstance(widget, QLineEdit):
                widget.editingFinished.connect(lambda n=name: self.commit(n))
        self._combos = {"kind": self.kind, "expected_behaviour": self.expected_behaviour,
                        "family": self.family, "difficulty": self.difficulty,
                        "status": self.status}
        for name, combo in self._combos.items():
            combo.activated.connect(lambda _i, n=name: self.commit(n))

    # -- loading ---------------------------------------------------------------------------
    @property
    def store(self) -> Any:
        """The open file."""
        return self.ctx.hub.store

    def set_case(self, case_id: int | None) -> None:
        """Show ``case_id`` (None: nothing), committing the field being edited first."""
        if case_id != self.case_id:
            self.flush()
        self.case_id = case_id
        self.reload()

    def flush(self) -> None:
        """Commit every field whose text differs from the stored value."""
        if self.case_id is None or self.read_only:
            return
        typed = {name: self._typed(name) for name in self._text_fields}
        for name, widget in self._text_fields.items():
            # Each commit re-reads the case into the form: put back what was typed.
            if self._typed(name) != typed[name]:
                with QSignalBlocker(widget):
                    if isinstance(widget, QPlainTextEdit):
                        widget.setPlainText(typed[name])
                    else:
                        widget.setText(typed[name])
            self.commit(name)

    def reload(self, *, keep_typing: bool = False) -> None:
        """Read the case again (after a change); a field being typed in keeps its text when
        ``keep_typing``."""
        store = self.store
        case = None
        if store is not None and self.case_id is not None:
            try:
                case = store.case_detail(self.case_id)
            except NotFound:
                case = None
        self.setEnabled(case is not None)
        if case is None:
            self.case_id = None
            self.case = {}
            for widget in self._text_fields.values():
                with QSignalBlocker(widget):
                    widget.clear()
            for combo in self._combos.values():  # not the last file's case's kind
                _set_combo(combo, None)
            self.show_kind("rag")
            self.sources_model.set_rows([])
            self.banner.clear()
            self.warnings.clear()
            return
        self.case = case
        focused = self.focusWidget() if keep_typing else None
        for name, widget in self._text_fields.items():
            text = self.stored_text(name)
            if widget is focused and self._typed(name) != text:
                continue
            with QSignalBlocker(widget):
                if isinstance(widget, QPlainTextEdit):
                    if widget.toPlainText() != text:
                        widget.setPlainText(text)
                elif widget.text() != text:
                    widget.setText(text)
        for name, combo in self._combos.items():
            _set_combo(combo, case[name])
        self.show_kind(case.get("kind") or "rag")
        self.sources_model.set_rows(case["expected_sources"])
        frozen = case["key"] in store.frozen_case_keys()
        self.read_only = frozen
        for widget in self._text_fields.values():
            widget.setReadOnly(frozen)
        for combo in self._combos.values():
            combo.setEnabled(not frozen)
        self.add_source_button.setEnabled(not frozen)
        self.remove_source_button.setEnabled(not frozen)
        if frozen:
            release = store.release_state()[1]
            text = self.tr("Approved in the frozen release “%1”: read-only until a new draft "
                           "version starts (Releases…).").replace("%1", release)
            self.banner.setText(colours.coloured("text_info", esc(text), bold=True))
        else:
            self.banner.clear()
        self.banner.setVisible(frozen)
        self.show_warnings()

    def show_kind(self, kind: str) -> None:
        """Show the fields of a RAG case or of an agent case (the others stay stored)."""
        agent = kind == "agent"
        for name in RAG_FIELDS:
            widget = self._text_fields.get(name) or self._combos[name]
            self.form.setRowVisible(widget, not agent)
        self.form.setRowVisible(self.source_box, not agent)
        for name in AGENT_FIELDS[:4]:
            self.form.setRowVisible(self._text_fields[name], agent)
        self.form.setRowVisible(self.budgets, agent)
        label = self.form.labelForField(self.question)
        if isinstance(label, QLabel):
            label.setText(self.tr("User's request") if agent else self.tr("Question"))

    def show_warnings(self) -> None:
        """The family rules this case does not meet."""
        store = self.store
        if store is None or self.case_id is None:
            self.warnings.clear()
            return
        rows = store.family_rule_inputs([self.case_id])
        found = check_case(rows[0]) if rows and rows[0]["status"] != "retired" else []
        self.rule_codes = [w.code for w in found]
        if not found:
            self.warnings.clear()
            self.warnings.setVisible(False)
            return
        items = "".join(f"<li>{esc(rule_text(w.code, w.message))}</li>" for w in found)
        title = self.tr("To check")
        self.warnings.setText(f"<div style='color:{colours.css_fg('text_warning')}'><b>⚠ "
                              f"{esc(title)}</b><ul style='margin:0'>{items}</ul></div>")
        self.warnings.setVisible(True)

    def stored_text(self, name: str) -> str:
        """The stored value of a text field, as the editor shows it."""
        value = self.case.get(name)
        if name in LIST_FIELDS:
            return "\n".join(map(str, value or []))
        if name == "tags":
            return ", ".join(map(str, value or []))
        if name in AGENT_FIELDS:
            return agent_text(name, value)
        return str(value or "")

    def _typed(self, name: str) -> str:
        widget = self._text_fields[name]
        return widget.toPlainText() if isinstance(widget, QPlainTextEdit) else widget.text()

    # -- committing --------------------------------------------------------------------------
    def commit(self, name: str) -> None:
        """Store the field ``name`` if it changed (one undoable operation)."""
        if self.case_id is None or self.read_only or not self.case or self._committing:
            return
        value: Any
        if name in self._combos:
            code = self._combos[name].currentData()
            value = code or None
            if value == self.case.get(name):
                return
        else:
            typed = self._typed(name)
            if typed == self.stored_text(name):
                return
            if name in LIST_FIELDS:
                value = split_lines(typed)
            elif name == "tags":
                value = split_tags(typed)
            elif name == "reference_answer":
                value = typed if typed.strip() else None
            elif name == "key":
                value = typed.strip()
            else:
                value = typed
            if name in AGENT_FIELDS:
                from rag_annotator.domain.agents import agent_column

                try:
                    column = agent_column(name, typed)
                except InvalidValue:
                    column = _INVALID  # refused below, with the message
                if column == self.case.get(name) or (
                        column is not _INVALID and not typed.strip()
                        and self.case.get(name) in (None, "", "{}", "[]")):
                    return
            elif name not in ("key",) and value == self.case.get(name):
                return
        from rag_annotator.domain import operations as ops  # writes: not for the first paint

        case_id = self.case_id
        # A refusal shows a message box, which takes the focus, which ends the editing of
        # this field again: do not commit (and refuse) twice.
        self._committing = True
        try:
            result = self.ctx.undo.run(lambda s: ops.edit_case(s, case_id, **{name: value}))
        finally:
            self._committing = False
        if result is None:  # refused (message shown): show the stored value again
            self.reload()

    def focus_field(self, name: str) -> None:
        """Put the keyboard in one field.  An agent case has no reference answer nor
        must-contain points: Alt+A and Alt+M reach its expected state and forbidden tools."""
        if self.kind.currentData() == "agent":
            name = AGENT_STAND_INS.get(name, name)
        widget: QWidget | None = self._text_fields.get(name) or self._combos.get(name)
        if name == "sources":
            widget = self.sources
        if widget is not None:
            widget.setFocus(Qt.FocusReason.ShortcutFocusReason)
            # The keyboard lands after the text, to go on writing (not at its start).
            if isinstance(widget, QPlainTextEdit):
                widget.moveCursor(QTextCursor.MoveOperation.End)
            elif isinstance(widget, QLineEdit):
                widget.end(False)

    # -- expected sources ------------------------------------------------------------------
    def add_source(self) -> None:
        """Pick a document (and optionally a passage) as an expected source."""
        if self.case_id is None or self.read_only or self.store is None:
            return
        from rag_annotator.domain import operations as ops
        from rag_annotator.ui.goldset.source_dialog import SourceDialog

        dialog = SourceDialog(self.ctx, self)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.document_id is None:
            return
        case_id, doc_id = self.case_id, dialog.chosen_document()
        span, note = dialog.span(), dialog.note.text().strip()
        if doc_id is None:
            return
        self.ctx.undo.run(lambda s: ops.add_expected_source(s, case_id, doc_id, span, note))

    def _passage_text(self, row: dict[str, Any]) -> str:
        passage = one_line(row["passage"] or "")
        if row.get("page") is None or not passage:
            return passage
        return self.tr("p. %1 — %2").replace("%1", str(row["page"])).replace("%2", passage)

    def show_source(self) -> None:
        """The selected expected source: its document, the passage highlighted (on its PDF
        page when it has one)."""
        row = self.sources_model.row_at(current_row(self.sources))
        if row is None:
            return
        from rag_annotator.ui.goldset.source_dialog import SourceDialog

        span = (None if row["span_start"] is None
                else (int(row["span_start"]), int(row["span_end"])))
        dialog = SourceDialog(self.ctx, self, shown=(int(row["document_id"]), span))
        dialog.exec()
        dialog.deleteLater()
        self.sources.setFocus(Qt.FocusReason.OtherFocusReason)

    def edit_source_note(self) -> None:
        """Write the note of the selected expected source (why this document, the conflict
        or the injected passage it shows)."""
        from rag_annotator.domain import operations as ops
        from rag_annotator.ui.line_dialog import LineDialog

        row = self.sources_model.row_at(current_row(self.sources))
        if row is None or self.read_only:
            return
        dialog = LineDialog(self.tr("Note on the expected source"),
                            esc(self.tr("Note on %1 (Enter saves, Esc cancels):")
                                .replace("%1", str(row["key"]))),
                            str(row["note"] or ""), required=False, parent=self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            source_id, note = int(row["id"]), dialog.field.text()
            index = current_row(self.sources)
            self.ctx.undo.run(lambda s: ops.set_expected_source_note(s, source_id, note))
            if 0 <= index < self.sources_model.rowCount():
                self.sources.selectRow(index)  # the list was read again: stay on the source
        self.window().activateWindow()  # the keyboard back in the list after the dialog
        self.sources.setFocus(Qt.FocusReason.OtherFocusReason)

    def remove_source(self) -> None:
        """Remove the selected expected source."""
        from rag_annotator.domain import operations as ops

        row = self.sources_model.row_at(current_row(self.sources))
        if row is None or self.read_only:
            return
        source_id = int(row["id"])
        self.ctx.undo.run(lambda s: ops.remove_expected_source(s, source_id))


#: How a case without agent fields stores them (every RAG case): shown empty, without
#: importing the agent code for the window's first paint.
_STORED_EMPTY = {"expected_state": "{}", "forbidden_tools": "[]", "required_tools": "[]",
                 "tool_order": "[]"}


def agent_text(name: str, value: Any) -> str:
    """An agent column as the editor shows it (what ``agent_column`` reads back)."""
    if value is None or value == "" or _STORED_EMPTY.get(name) == value:
        return ""
    from rag_annotator.domain.agents import BUDGETS, format_order, format_state

    if name in BUDGETS:
        number = float(value)
        return str(int(number)) if number.is_integer() else f"{number:g}"
    try:
        decoded = json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return str(value)
    if name == "expected_state" and isinstance(decoded, dict):
        return format_state(decoded)
    if name == "tool_order" and isinstance(decoded, list):
        return format_order(p for p in decoded if isinstance(p, list) and len(p) == 2)
    if isinstance(decoded, list):
        return ", ".join(map(str, decoded))
    return str(value)


def rule_text(code: str, english: str) -> str:
    """A family-rule warning, translated (the English message for codes without one)."""
    texts: dict[str, Callable[[], str]] = {
        "no_question": lambda: translate("CaseEditor", "The case has no question."),
        "no_reference_answer": lambda: translate("CaseEditor",
            "No reference answer: write one, or expect abstention if nothing answers it."),
        "no_answer_behaviour": lambda: translate("CaseEditor",
            "No answer in the corpus: the expected behaviour should be “abstain”."),
        "no_answer_sources": lambda: translate("CaseEditor",
            "No answer in the corpus: the case should have no expected source."),
        "conflict_sources": lambda: translate("CaseEditor",
            "Conflicting sources: name at least two expected sources."),
        "conflict_note": lambda: translate("CaseEditor",
            "Conflicting sources: write a note on the conflict."),
        "outdated_missing_old": lambda: translate("CaseEditor",
            "Outdated document: name the outdated (or superseded) document as a source."),
        "outdated_missing_current": lambda: translate("CaseEditor",
            "Outdated document: name the current document as a source too."),
        "restricted_role": lambda: translate("CaseEditor",
            "Access restricted: give the role that may or may not see the documents."),
        "agent_no_request": lambda: translate("CaseEditor", "The agent case has no user request."),
        "agent_no_state": lambda: translate("CaseEditor",
            "No expected final state: task success cannot be checked automatically; give "
            "'key = value' pairs."),
        "agent_no_invariant": lambda: translate("CaseEditor",
            "No invariant (forbidden or required tool, order, step budget): the path "
            "cannot be checked automatically."),
        "injection_passage": lambda: translate("CaseEditor",
            "Prompt injection: identify the injected passage (a source with a passage or a "
            "note)."),
    }
    maker = texts.get(code)
    return maker() if maker is not None else english[:1].upper() + english[1:]


def _title(text: str, field: QWidget) -> QLabel:
    """A title that wraps (a long one was cut at the right edge at 150 %), naming its field."""
    label = _Title(text)
    label.setWordWrap(True)
    label.setBuddy(field)
    return label


class _Title(QLabel):
    """A wrapping label that asks for its whole line: a form lays a title out at its size
    hint, and a wrapping QLabel's hint is a short guess that broke short titles in two."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        width = max(hint.width(), self.fontMetrics().horizontalAdvance(self.text()) + 4)
        owner = self.parentWidget()
        layout = owner.layout() if owner is not None else None
        if owner is not None and layout is not None:  # no wider than the form
            margins = layout.contentsMargins()
            room = owner.width() - margins.left() - margins.right()
            width = max(min(width, room), self.minimumSizeHint().width())
        return QSize(width, self.heightForWidth(width))
