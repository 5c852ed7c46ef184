"""Pieces of the Agents section: the words of a check, the review list (lazy) and the
timeline / checks / final-state models with their highlighting, the review summary, and the
dialogs that ask a reason or a note.

Colours follow the Verify section's (``ui/verify/widgets.py``): soft green for what holds, soft red
for what is broken or differs, orange for what is missing, grey for what cannot be told.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from rag_annotator.domain.agent_checks import (
    BROKEN,
    DIFFERS,
    EQUAL,
    HELD,
    MISSING,
    Check,
    Evaluation,
    StateKey,
    evaluate_row,
)
from rag_annotator.domain.agents import format_value
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui import labels
from rag_annotator.ui.look import colours
from rag_annotator.ui.models import Column, LazyTableModel, RowsModel, local_time, number, one_line
from rag_annotator.ui.sections.base import esc

Row = dict[str, Any]
Index = QModelIndex | QPersistentModelIndex

#: Background roles (ui/look/colours.py; same as the Verify section's claims).
GOOD = "good"
BAD = "bad"
MISSING_COLOUR = "missing"
UNKNOWN_COLOUR = "neutral"
STATUS_COLOURS = {HELD: GOOD, BROKEN: BAD, "unknown": UNKNOWN_COLOUR,
                  EQUAL: GOOD, DIFFERS: BAD, MISSING: MISSING_COLOUR}
#: Model role holding the texts of the checks a step broke (tests, tooltips).
BROKEN_ROLE = int(Qt.ItemDataRole.UserRole) + 1
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)

#: lupdate finds ``translate("AgentsSection", "literal")`` calls.
translate = QCoreApplication.translate


# -- evaluation and words ------------------------------------------------------------------------
def yes_no(value: bool | int | None) -> str:
    """yes / no / — (a verdict or a mark)."""
    if value is None:
        return "—"
    return translate("AgentsSection", "yes") if value else translate("AgentsSection", "no")


def number_text(value: float | None) -> str:
    """A figure without a useless ".0"."""
    if value is None:
        return "—"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def step_list(steps: Sequence[int]) -> str:
    return ", ".join(str(s) for s in steps)


def at_step(check: Check) -> str:
    """What a check says on the timeline row of the step that broke it (the step is the
    row: "forbidden tool supprimer_compte", "modifier_offre before verifier_identite")."""
    if check.kind == "forbidden":
        return translate("AgentsSection", "forbidden tool %1").replace("%1", check.tools[0])
    if check.kind == "order":
        return translate("AgentsSection", "%2 before %1").replace(
            "%1", check.tools[0]).replace("%2", check.tools[1])
    if check.kind == "max_steps":
        return translate("AgentsSection", "past the budget of %1 steps").replace(
            "%1", number_text(check.limit))
    return describe(check)


def describe(check: Check) -> str:
    """One line saying what a check found, in the user's language."""
    if check.kind == "forbidden":
        tool = check.tools[0]
        if check.steps:
            return translate("AgentsSection", "forbidden tool %1 called at step %2").replace(
                "%1", tool).replace("%2", step_list(check.steps))
        return translate("AgentsSection", "forbidden tool %1 never called").replace("%1", tool)
    if check.kind == "required":
        tool = check.tools[0]
        if check.status == BROKEN:
            return translate("AgentsSection", "required tool %1 never called").replace(
                "%1", tool)
        return translate("AgentsSection", "required tool %1 called").replace("%1", tool)
    if check.kind == "order":
        a, b = check.tools
        if check.status == HELD:
            text = translate("AgentsSection", "%1 before %2: kept")
        elif check.steps:
            text = translate("AgentsSection", "%2 before %1 (step %3)").replace(
                "%3", str(check.steps[0]))
        else:
            text = translate("AgentsSection", "%1 before %2: %3 never called").replace(
                "%3", " + ".join(check.missing))
        return text.replace("%1", a).replace("%2", b)
    names = {"max_steps": translate("AgentsSection", "steps"),
             "max_tokens": translate("AgentsSection", "tokens"),
             "max_seconds": translate("AgentsSection", "seconds"),
             "max_cost": translate("AgentsSection", "cost")}
    name = names.get(check.kind, check.kind)
    if check.status == "unknown":
        text = translate("AgentsSection", "%1 budget %2: not given by the trajectory")
    elif check.status == HELD:
        text = translate("AgentsSection", "%1 budget %2: kept (%3)")
    elif check.steps:
        text = translate("AgentsSection", "%1 budget %2 exceeded at step %4 (%3)").replace(
            "%4", str(check.steps[0]))
    else:
        text = translate("AgentsSection", "%1 budget %2 exceeded (%3)")
    return (text.replace("%1", name).replace("%2", number_text(check.limit))
            .replace("%3", number_text(check.actual)))


def status_text(status: str) -> str:
    """held / broken / unknown / equal / differs / missing, translated."""
    return {HELD: translate("AgentsSection", "held"),
            BROKEN: translate("AgentsSection", "broken"),
            "unknown": translate("AgentsSection", "cannot tell"),
            EQUAL: translate("AgentsSection", "equal"),
            DIFFERS: translate("AgentsSection", "differs"),
            MISSING: translate("AgentsSection", "missing")}.get(status, status)


def arguments_text(arguments: object) -> str:
    """A step's arguments on one line (compact JSON when they parse)."""
    text = str(arguments or "")
    try:
        value = json.loads(text)
    except ValueError:
        return one_line(text)
    if isinstance(value, dict):
        return ", ".join(f"{k}={format_value(v)}" for k, v in value.items())
    return one_line(json.dumps(value, ensure_ascii=False))


def pretty_json(arguments: object) -> str:
    """A step's arguments in full: JSON on one (wrapping) line when they parse, else the
    text."""
    text = str(arguments or "")
    try:
        return json.dumps(json.loads(text), ensure_ascii=False)
    except ValueError:
        return text


def step_rows(steps: list[Row], evaluation: Evaluation | None) -> list[Row]:
    """The timeline's rows: each step with the words of the checks it broke and its cells'
    texts (computed once, not at each paint of a cell)."""
    broken = evaluation.broken_steps() if evaluation is not None else {}
    # a step budget breaks at the first step past it: shown on that step
    rows = []
    for step in steps:
        words = [at_step(c) for c in broken.get(step["position"], [])]
        rows.append(dict(step, broken=words, arguments_text=arguments_text(step["arguments"]),
                         result_text=one_line(step["result"]), broken_text="; ".join(words)))
    return rows



# -- models --------------------------------------------------------------------------------------
def brushes(role: str) -> tuple[QBrush, QBrush]:
    """(background, text) brushes of a colour role for the application's palette, made once
    per palette (a view asks them for every painted cell)."""
    key = (role, QGuiApplication.palette().cacheKey())
    found = _BRUSHES.get(key)
    if found is None:
        if len(_BRUSHES) > 64:
            _BRUSHES.clear()
        found = _BRUSHES[key] = (QBrush(colours.bg(role)), QBrush(colours.fg(role)))
    return found


_BRUSHES: dict[tuple[str, int], tuple[QBrush, QBrush]] = {}


class _ColouredRows(RowsModel):
    """Rows read whole, each with a background colour role (``colour(row)``, or None)."""

    def colour(self, row: Row) -> str | None:
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in (_BACKGROUND, _FOREGROUND) and index.isValid():
            row = self.row_at(index.row())
            colour = self.colour(row) if row is not None else None
            if not colour:
                return None
            # the role's own text colour (black on light fills, white on dark ones)
            return brushes(colour)[0 if role == _BACKGROUND else 1]
        return super().data(index, role)


class StepsModel(_ColouredRows):
    """The timeline: one row per tool call; a step that broke a check is red, with the
    check's words in the last column and in :data:`BROKEN_ROLE`."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__([], parent)
        self.columns = [
            Column(self.tr("#"), lambda r: str(r["position"]), 3, numeric=True),
            Column(self.tr("Tool"), lambda r: r["tool"], 16),
            Column(self.tr("Arguments"), lambda r: r["arguments_text"], 20),
            Column(self.tr("Result"), lambda r: r["result_text"], 18),
            Column(self.tr("Broken check"), lambda r: r["broken_text"], 30, stretch=True),
        ]

    def set_steps(self, steps: Sequence[Row], evaluation: Evaluation | None) -> None:
        """Fill the timeline, marking the steps ``evaluation`` says broke a check."""
        self.set_rows(step_rows(list(steps), evaluation))

    def colour(self, row: Row) -> str | None:
        return BAD if row["broken"] else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == BROKEN_ROLE and index.isValid():
            row = self.row_at(index.row())
            return list(row["broken"]) if row is not None else None
        if role == _TOOLTIP and index.isValid():
            row = self.row_at(index.row())
            if row is not None and index.column() in (2, 3):
                return str(row["arguments"] if index.column() == 2 else row["result"]) or None
        return super().data(index, role)


class ChecksModel(_ColouredRows):
    """Every invariant: held (green), broken (red, with its steps), cannot tell (grey)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__([], parent)
        self.columns = [
            Column(self.tr("Check"), lambda r: describe(r["check"]), 40, stretch=True),
            Column(self.tr("Outcome"), lambda r: status_text(r["check"].status), 9),
            Column(self.tr("Steps"), lambda r: step_list(r["check"].steps), 6),
        ]

    def set_checks(self, checks: Sequence[Check]) -> None:
        self.set_rows([{"check": c} for c in checks])

    def colour(self, row: Row) -> str | None:
        return STATUS_COLOURS.get(row["check"].status)


class StateModel(_ColouredRows):
    """The expected final state beside the trajectory's: equal, differs, missing."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__([], parent)
        self.columns = [
            Column(self.tr("Key"), lambda r: r["key"].key, 22),
            Column(self.tr("Expected"), lambda r: format_value(r["key"].expected), 20),
            Column(self.tr("Actual"), lambda r: "" if r["key"].status == MISSING
                   else format_value(r["key"].actual), 20, stretch=True),
            Column(self.tr("Outcome"), lambda r: status_text(r["key"].status), 9),
        ]

    def set_state(self, keys: Sequence[StateKey]) -> None:
        self.set_rows([{"key": k} for k in keys])

    def colour(self, row: Row) -> str | None:
        return STATUS_COLOURS.get(row["key"].status)


# -- summaries ---------------------------------------------------------------------------------
def verdict_html(value: bool | None, mark: int | None) -> str:
    """A verdict as coloured text: the mark when set (with "overrules"), else automatic."""
    effective = value if mark is None else bool(mark)
    if effective is None:
        role, text = "text_muted", translate("AgentsSection", "cannot tell")
    else:
        role = "text_good" if effective else "text_bad"
        text = yes_no(effective)
    return colours.coloured(role, esc(text), bold=True)


def review_html(detail: Row, evaluation: Evaluation) -> str:
    """The review: for each verdict the automatic value, the mark, its reason; who; note."""
    review = detail.get("review") or {}
    lines = []
    for title, automatic, mark, reason in (
            (translate("AgentsSection", "Task success (Y / N)"), evaluation.task_success,
             review.get("task_success"), review.get("success_reason")),
            (translate("AgentsSection", "Path acceptable (A / X)"), evaluation.path_acceptable,
             review.get("path_acceptable"), review.get("path_reason"))):
        auto = translate("AgentsSection", "automatic: %1").replace(
            "%1", yes_no(automatic) if automatic is not None
            else translate("AgentsSection", "cannot tell"))
        if mark is None:
            marked = translate("AgentsSection", "not reviewed")
        elif automatic is not None and bool(mark) != automatic:
            marked = translate("AgentsSection", "overruled: %1").replace("%1", yes_no(mark))
        else:
            marked = translate("AgentsSection", "confirmed: %1").replace("%1", yes_no(mark))
        why = ("<br>&nbsp;&nbsp;<i>" + esc(translate("AgentsSection", "Reason:")) + "</i> "
               f"{esc(reason)}" if reason else "")
        lines.append(f"<b>{esc(title)}</b> {verdict_html(automatic, mark)} — "
                     f"{esc(auto)} · {esc(marked)}{why}")
    if review:
        who = translate("AgentsSection", "Reviewed by %1, %2").replace(
            "%1", str(review.get("assessor") or "?")).replace(
            "%2", local_time(review.get("updated_at"))[:16])
        lines.append(colours.coloured("text_muted", esc(who)))
    note = review.get("note") or ""
    if note:
        lines.append(bold(translate("AgentsSection", "Note (E):")) + " " + esc(note))
    return "<br>".join(lines)


def bold(text: str) -> str:
    """``text`` escaped, in bold (rich-text labels)."""
    return f"<b>{esc(text)}</b>"


def budgets_html(detail: Row, evaluation: Evaluation) -> str:
    """Steps, tokens, seconds and cost against their budgets (red when over)."""
    figures = (
        ("max_steps", translate("AgentsSection", "steps"), len(detail.get("steps") or [])),
        ("max_tokens", translate("AgentsSection", "tokens"), detail.get("tokens")),
        ("max_seconds", translate("AgentsSection", "seconds"), detail.get("seconds")),
        ("max_cost", translate("AgentsSection", "cost"), detail.get("cost")))
    status = {c.kind: c.status for c in evaluation.checks}
    parts = []
    for column, name, actual in figures:
        limit = detail.get(column)
        text = f"{esc(name)} {esc(number_text(actual))}"
        if limit is not None:
            text += f" / {esc(number_text(limit))}"
        if status.get(column) == BROKEN:
            text = colours.coloured("text_bad", "⚠ " + text, bold=True)
        parts.append(text)
    return bold(translate("AgentsSection", "Budgets:")) + " " + " · ".join(parts)


# -- dialogs -----------------------------------------------------------------------------------


class VerdictDelegate(QStyledItemDelegate):
    """Keeps a verdict cell's green or red when its row is selected: the selection is drawn
    as a frame around the cell instead of a fill that would hide the verdict's colour."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if not selected or index.data(Qt.ItemDataRole.BackgroundRole) is None:
            super().paint(painter, option, index)
            return
        plain = QStyleOptionViewItem(option)
        plain.state &= ~QStyle.StateFlag.State_Selected
        super().paint(painter, plain, index)
        painter.save()
        pen = QPen(option.palette.color(QPalette.ColorRole.Highlight))
        pen.setWidth(2)
        painter.setPen(pen)
        painter.drawRect(option.rect.adjusted(1, 1, -1, -1))
        painter.restore()


# -- the review list ------------------------------------------------------------------------
#: Columns of the list coloured by a verdict.
_VERDICT_COLUMNS = {4: "task_success", 5: "path_acceptable"}


def reviewed(row: Row) -> bool:
    """Both marks given (a queue or list row)."""
    return row["task_success"] is not None and row["path_acceptable"] is not None


class TrajectoriesModel(LazyTableModel):
    """The review list: ids from the section's queue, rows (with their automatic checks)
    read a page at a time."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__([], parent)
        self.columns = [
            Column(self.tr("Run"), lambda r: r["run"], 9),
            Column(self.tr("Case"), lambda r: r["case_key"] if not r.get("trial")
                   else f"{r['case_key']} #{r['trial']}", 5),  # trials numbered as logged
            Column(self.tr("Family"), lambda r: labels.family(r["family"]), 9),
            Column(self.tr("Steps"), lambda r: number(len(r["tools"])), 3, numeric=True),
            Column(self.tr("Success"), lambda r: self._verdict(r, "task_success"), 5),
            Column(self.tr("Path"), lambda r: self._verdict(r, "path_acceptable"), 5),
            Column(self.tr("Review"), self._review_text, 9, stretch=True),
        ]
        self.queue_ids: list[int] = []

    def fetch_ids(self, store: GoldSetStore) -> list[int]:
        return list(self.queue_ids)

    def fetch_rows(self, store: GoldSetStore, ids: Sequence[int]) -> dict[int, Row]:
        rows = store.trajectory_rows(ids)
        for row in rows.values():
            evaluation = evaluate_row(row)
            row["auto"] = {"task_success": evaluation.task_success,
                           "path_acceptable": evaluation.path_acceptable}
        return rows

    @staticmethod
    def effective(row: Row, mark: str) -> bool | None:
        value = row[mark]
        return row["auto"][mark] if value is None else bool(value)

    def _verdict(self, row: Row, mark: str) -> str:
        text = yes_no(self.effective(row, mark))
        return text if row[mark] is None else text + " ✔"

    def _review_text(self, row: Row) -> str:
        marks = [row["task_success"], row["path_acceptable"]]
        if all(m is None for m in marks):
            return self.tr("to review")
        overruled = any(row[m] is not None and row["auto"][m] is not None
                        and bool(row[m]) != row["auto"][m]
                        for m in ("task_success", "path_acceptable"))
        if overruled:
            return self.tr("overruled")
        return self.tr("reviewed") if None not in marks else self.tr("partly reviewed")

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in (_BACKGROUND, _FOREGROUND) and index.column() in _VERDICT_COLUMNS:
            row = self.row_at(index.row())
            if row is None:
                return None
            value = self.effective(row, _VERDICT_COLUMNS[index.column()])
            if value is None:
                return None
            return brushes(GOOD if value else BAD)[0 if role == _BACKGROUND else 1]
        return super().data(index, role)
