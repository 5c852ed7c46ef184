"""The Verify section's structured-answer panel: the answer as a tree, its decisive fields
marked by outcome, the justifying passage beside the current one.

Each decisive field shows its outcome as a symbol and a word on a coloured background (never
colour alone): ✓ equal, ✗ differs, ∅ missing, ? not supported, ⊘ source not provided,
– not executed; a review adds "confirmed" or "overruled" with its reason.  A decisive field
the answer does not hold (missing, or an answer that did not parse) is listed under its own
"Not in the answer" branch, so every field can be reached and reviewed.

Keys (declared in ``ui/verify/keys.py``): D shows the panel, F / Shift+F move between
decisive fields, V confirms the outcome (V again clears it), Shift+V overrules it (asks the
reason), Ctrl+Shift+V checks every structured answer again.  Each is one undoable operation.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QLabel,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.strict_json import parse_strict
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP
from rag_annotator.ui.line_dialog import LineDialog
from rag_annotator.ui.look import colours
from rag_annotator.ui.sections.base import esc

Row = dict[str, Any]
FIELD_ROLE = Qt.ItemDataRole.UserRole + 1

#: Outcome → (symbol, word, colour role of ui/look/colours.py).  The word is translated in
#: this class's context.
OUTCOME_LOOK: dict[str | None, tuple[str, str, str]] = {
    "equal": ("✓", QT_TRANSLATE_NOOP("StructuredPanel", "equal"), "good"),
    "differs": ("✗", QT_TRANSLATE_NOOP("StructuredPanel", "differs"), "bad"),
    "missing": ("∅", QT_TRANSLATE_NOOP("StructuredPanel", "missing"), "missing"),
    "not_supported": ("?", QT_TRANSLATE_NOOP("StructuredPanel", "not supported"), "pending"),
    "source_not_provided": ("⊘", QT_TRANSLATE_NOOP("StructuredPanel", "source not provided"),
                            "other"),
    "not_executed": ("–", QT_TRANSLATE_NOOP("StructuredPanel", "not executed"), "neutral"),
    None: ("·", QT_TRANSLATE_NOOP("StructuredPanel", "not checked yet"), "quiet"),
}
COMPARISON_WORDS = {
    "exact": QT_TRANSLATE_NOOP("StructuredPanel", "exact"),
    "number": QT_TRANSLATE_NOOP("StructuredPanel", "number"),
    "date": QT_TRANSLATE_NOOP("StructuredPanel", "date"),
    "text": QT_TRANSLATE_NOOP("StructuredPanel", "normalised text"),
    "one_of": QT_TRANSLATE_NOOP("StructuredPanel", "one of"),
}


def tr(text: str) -> str:
    return QCoreApplication.translate("StructuredPanel", text)


def outcome_text(outcome: str | None, review: str | None = None, reason: str = "") -> str:
    """Symbol and word of an outcome, with its review (for the tree and the tests)."""
    symbol, word, _colour = OUTCOME_LOOK.get(outcome, OUTCOME_LOOK[None])
    text = f"{symbol} {tr(word)}"
    if review == "confirmed":
        text += " · " + tr("confirmed")
    elif review == "overruled":
        text += " · " + tr("overruled: %1").replace("%1", reason)
    return text


def _short(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return "{…}" if isinstance(value, dict) else f"[{len(value)}]"
    return json.dumps(value, ensure_ascii=False)


class StructuredPanel(QWidget):
    """The structured answer of the answer shown (empty text when its case has no contract)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: Row | None = None
        self.items: list[QTreeWidgetItem] = []  # decisive fields, in the contract's order
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels([tr("Field"), tr("Outcome"), tr("Value")])
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(False)
        self.passage = QTextBrowser()
        self.passage.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(self.passage)
        split.setSizes([600, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addWidget(split, 1)
        self.tree.currentItemChanged.connect(lambda *_: self._show_passage())
        self.show_answer(None)

    # -- showing -----------------------------------------------------------------------------
    def show_answer(self, data: Row | None) -> None:
        """Show one structured answer (``store.structured_answer``), keeping the current
        decisive field when the same answer is shown again."""
        keep = self.current_field()
        same = data is not None and self.data is not None and data["id"] == self.data["id"]
        self.data = data
        self.tree.clear()
        self.items = []
        if data is None:
            self.status.setText(esc(tr("This case has no output contract: its answer is "
                                       "checked claim by claim only.")))
            self.passage.clear()
            return
        self.status.setText(self._status_html(data))
        ok, value, _reason = parse_strict(data["text"])
        by_pointer = {f["pointer"]: f for f in data["fields"]}
        placed: dict[str, QTreeWidgetItem] = {}
        root = QTreeWidgetItem(self.tree, [tr("answer"), "", "" if ok else data["text"][:200]])
        if ok:
            self._add(root, value, "", by_pointer, placed)
        absent = [f for f in data["fields"] if f["pointer"] not in placed]
        if absent:
            group = QTreeWidgetItem(self.tree, [tr("Not in the answer"), "", ""])
            for f in absent:
                placed[f["pointer"]] = QTreeWidgetItem(group, [f["pointer"], "", "—"])
        for f in data["fields"]:
            item = placed[f["pointer"]]
            self._mark(item, f)
            self.items.append(item)
        self.tree.expandAll()
        for column in (0, 1, 2):  # field and outcome always whole; the value may be long
            self.tree.resizeColumnToContents(column)
        index = 0
        if same and keep is not None:
            index = next((i for i, f in enumerate(data["fields"])
                          if f["id"] == keep["id"]), 0)
        if self.items:
            self.tree.setCurrentItem(self.items[index])
        self._show_passage()

    def _add(self, parent: QTreeWidgetItem, value: Any, pointer: str,
             fields: dict[str, Row], placed: dict[str, QTreeWidgetItem]) -> None:
        """The value's children under ``parent`` (``pointer``: where ``value`` is)."""
        if pointer in fields:
            placed[pointer] = parent
        children = (value.items() if isinstance(value, dict) else
                    enumerate(value) if isinstance(value, list) else ())
        for key, child in children:
            where = pointer + "/" + str(key).replace("~", "~0").replace("/", "~1")
            item = QTreeWidgetItem(parent, [str(key), "", _short(child)])
            self._add(item, child, where, fields, placed)

    def _mark(self, item: QTreeWidgetItem, f: Row) -> None:
        """Outcome word + symbol on the field's row, its colour behind the row."""
        item.setText(1, outcome_text(f["outcome"], f["review"], f["review_reason"] or ""))
        item.setData(0, FIELD_ROLE, f["id"])
        role = OUTCOME_LOOK.get(f["outcome"], OUTCOME_LOOK[None])[2]
        for column in range(3):
            item.setBackground(column, QBrush(colours.bg(role)))
            item.setForeground(column, QBrush(colours.fg(role)))
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        item.setToolTip(1, self._why(f))

    def _status_html(self, data: Row) -> str:
        check = data["check"]
        if check is None:
            return esc(tr("Not checked yet: Ctrl+Shift+V checks the structured answers."))
        if not check["parsed"]:
            head = tr("✗ The answer is not strict JSON")
        elif not check["schema_valid"]:
            head = tr("✗ The answer parses but breaks the schema")
        else:
            head = tr("✓ The answer parses and satisfies the schema")
        text = f"<b>{esc(head)}</b>"
        if check["reason"]:
            text += " — " + esc(check["reason"])
        left = sum(1 for f in data["fields"] if f["review"] is None)
        return text + " — " + esc(tr("%1 of %2 decisive fields left to review")
                                  .replace("%1", str(left))
                                  .replace("%2", str(len(data["fields"]))))

    def _show_passage(self) -> None:
        f = self.current_field()
        if f is None:
            self.passage.clear()
            return
        retrieved = self.data["retrieved"] if self.data else []
        rows = [(tr("Field"), f["pointer"]),
                (tr("Outcome"), outcome_text(f["outcome"], f["review"],
                                             f["review_reason"] or "")),
                (tr("Found"), f["found"] if f["found"] is not None else "—"),
                (tr("Reference"), json.dumps(f["reference"], ensure_ascii=False)),
                (tr("Comparison"), tr(COMPARISON_WORDS.get(str(f["comparison"]),
                                                           str(f["comparison"])))
                 + (f" ± {f['tolerance']:g}" if f["tolerance"] else ""))]
        why = self._why(f)
        if why:
            rows.append((tr("Why"), why))
        if f["document_key"]:
            state = tr("retrieved") if f["document_key"] in retrieved else tr("not retrieved")
            rows.append((tr("Source"), f"{f['document_key']} ({state})"))
        table = "".join(f"<tr><td><b>{esc(k)}</b>&nbsp;</td><td>{esc(str(v))}</td></tr>"
                        for k, v in rows)
        passage = f["passage"] or tr("No justifying passage recorded.")
        title = esc(tr("Justifying passage"))
        quiet = f"background:{colours.css_bg('quiet')};color:{colours.css_fg('quiet')}"
        self.passage.setHtml(
            f"<table>{table}</table><p><b>{title}</b></p>"
            f"<blockquote style='{quiet}'>{esc(passage)}</blockquote>")

    def _why(self, f: Row) -> str:
        """Why the field has its outcome, in the user's language (the file keeps the
        English detail for the exports)."""
        outcome = f["outcome"]
        check = (self.data or {}).get("check") or {}
        if outcome == "not_executed":
            return tr("the answer did not parse") if not check.get("parsed") else tr(
                "the answer broke the schema")
        if outcome == "source_not_provided":
            return tr("document %1 was not retrieved").replace("%1", f["document_key"] or "?")
        if outcome == "missing":
            return tr("no value at %1").replace("%1", f["pointer"] or "/")
        if outcome == "not_supported":
            return tr("the value is not found in the retrieved passages")
        if outcome == "differs":
            return tr("expected %1").replace("%1", json.dumps(f["reference"],
                                                              ensure_ascii=False))
        return ""

    # -- where we are ------------------------------------------------------------------------
    def current_field(self) -> Row | None:
        """The decisive field selected (its row with its outcome), else None."""
        item = self.tree.currentItem()
        if item is None or self.data is None or item not in self.items:
            return None
        field: Row = self.data["fields"][self.items.index(item)]
        return field

    def step_field(self, step: int) -> None:
        """Select the next (+1) or previous (-1) decisive field (wrapping round)."""
        if not self.items:
            return
        item = self.tree.currentItem()
        index = self.items.index(item) if item in self.items else -1 if step > 0 else 0
        self.tree.setCurrentItem(self.items[(index + step) % len(self.items)])

    # -- reviewing ---------------------------------------------------------------------------
    def overrule_reason(self) -> str | None:
        """Ask why the current field's outcome is overruled (None: cancelled)."""
        f = self.current_field()
        if f is None:
            return None
        prompt = (esc(tr("Field %1: the check says %2.")).replace(
            "%1", f"<b>{esc(f['pointer'])}</b>").replace(
            "%2", f"<b>{esc(outcome_text(f['outcome']))}</b>")
            + "<br><br>" + esc(tr("Why do you overrule it? (Enter saves, Esc cancels)")))
        dialog = LineDialog(tr("Overrule the field's outcome"), prompt,
                            f["review_reason"] or "", required=True, parent=self)
        accepted = dialog.exec()
        self.window().activateWindow()
        self.tree.setFocus(Qt.FocusReason.OtherFocusReason)
        return dialog.text if accepted else None

    def review_args(self, overrule: bool) -> tuple[int, str | None, str] | None:
        """What V (``overrule`` False) or Shift+V asks of the current field: the outcome id,
        the review and the reason; None when there is nothing to do (or it was cancelled)."""
        f = self.current_field()
        if f is None or f["outcome_id"] is None:
            return None
        if not overrule:
            return int(f["outcome_id"]), None if f["review"] == "confirmed" else "confirmed", ""
        if f["outcome"] == "not_executed":
            return None
        reason = self.overrule_reason()
        return None if reason is None else (int(f["outcome_id"]), "overruled", reason)


def bind_review(panel: StructuredPanel, run: Callable[[Callable[[Any], Any]], Any],
                review: Callable[..., Any], overrule: bool, hint: Callable[[str], None]
                ) -> None:
    """Confirm or overrule the panel's current field through the undo stack."""
    f = panel.current_field()
    if overrule and f is not None and f["outcome"] == "not_executed":
        hint(tr("This field was not checked (the answer did not parse or broke the "
                "schema): there is no outcome to overrule."))
        return
    args = panel.review_args(overrule)
    if args is None:
        return
    outcome_id, verdict, reason = args
    run(lambda s: review(s, outcome_id, verdict, reason))


