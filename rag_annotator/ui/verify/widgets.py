"""Pieces of the Verify section: text offsets, the highlighted answer, the review items and
the judge-agreement dialog.

Qt counts text positions in UTF-16 code units, Python and the gold-set file in code points;
:func:`to_qt` and :func:`from_qt` convert, so an evidence span selected next to an emoji or a
rare CJK character still names the right words of the document.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from rag_annotator.domain.enums import FailureCategory, values
from rag_annotator.ui import labels
from rag_annotator.ui.i18n import QT_TRANSLATE_NOOP
from rag_annotator.ui.look import colours
from rag_annotator.ui.models import Column, RowsModel, one_line
from rag_annotator.ui.sections.base import esc, make_table, select_row

Row = dict[str, Any]

#: Colour role (ui/look/colours.py) of a claim in the answer by verdict (None: unverified);
#: the current claim is drawn with the strong variant, underlined and bold.
SOFT = {None: "pending", "supported": "good", "not_supported": "missing",
        "contradicted": "bad", "hidden": "neutral"}
STRONG = {verdict: f"{role}_strong" for verdict, role in SOFT.items()}
#: What tells a claim's verdict in the answer without its colour (a reader who does not see
#: the colours, a grey-scale print): a contradicted claim is struck through, an unsupported
#: one in italics; Qt's rich text knows no dotted or wavy underline.
SHAPE = {"not_supported": "font-style:italic;", "contradicted": "text-decoration:line-through;"}
EVIDENCE_COLOUR = "evidence"
MARKER_COLOUR = "marker"


#: Failure categories of DESIGN section 4, as the review list names them.
FAILURES: dict[str, str] = {
    "factual_error": QT_TRANSLATE_NOOP("VerifySection", "factual error"),
    "unsupported_claim": QT_TRANSLATE_NOOP("VerifySection", "unsupported claim"),
    "non_justifying_citation": QT_TRANSLATE_NOOP("VerifySection", "non-justifying citation"),
    "outdated_source": QT_TRANSLATE_NOOP("VerifySection", "outdated source"),
    "unauthorised_source": QT_TRANSLATE_NOOP("VerifySection", "unauthorised source"),
    "unwarranted_abstention": QT_TRANSLATE_NOOP("VerifySection", "unwarranted abstention"),
    "missing_abstention": QT_TRANSLATE_NOOP("VerifySection", "missing abstention"),
    "forbidden_content": QT_TRANSLATE_NOOP("VerifySection", "forbidden content"),
}
SUPPORT: dict[str | None, str] = {
    None: "—",
    "yes": QT_TRANSLATE_NOOP("VerifySection", "yes"),
    "partly": QT_TRANSLATE_NOOP("VerifySection", "partly"),
    "no": QT_TRANSLATE_NOOP("VerifySection", "no"),
}


#: lupdate finds ``translate("VerifySection", "literal")`` calls (not in f-strings).
translate = QCoreApplication.translate


def tr(text: str) -> str:
    """Translate a source text of the ``VerifySection`` context (marked elsewhere)."""
    return translate("VerifySection", text)


# -- offsets -----------------------------------------------------------------------------------


# -- the answer with its claims ----------------------------------------------------------------
def answer_html(text: str, claims: Sequence[Row], current: int | None,
                shown_verdict: Callable[[Row], str | None],
                marker: tuple[int, int] | None = None) -> str:
    """The answer as rich text with each claim's span highlighted (current claim stronger)
    and the selected citation's marker (``marker``, a span) boxed in blue.

    The text keeps its characters one for one (``white-space: pre-wrap``), so a position in
    the rendered document is a position in the answer: words selected there become a new
    claim's span.
    """
    marks: list[tuple[int, int, Row]] = []
    for claim in claims:
        start, end = claim["span_start"], claim["span_end"]
        if start is None or end is None or not 0 <= start < end <= len(text):
            continue
        if marks and start < marks[-1][1]:
            continue  # overlapping spans: keep the first
        marks.append((int(start), int(end), claim))
    marks.sort(key=lambda m: m[0])
    def plain(piece_start: int, piece_end: int) -> str:
        """Text outside claims, with the citation marker drawn if it falls there."""
        if marker is None or not (piece_start <= marker[0] < marker[1] <= piece_end):
            return html.escape(text[piece_start:piece_end])
        return (html.escape(text[piece_start:marker[0]])
                + f'<span style="background-color:{colours.css_bg(MARKER_COLOUR)};'
                + f'color:{colours.css_fg(MARKER_COLOUR)};">'
                + html.escape(text[marker[0]:marker[1]]) + "</span>"
                + html.escape(text[marker[1]:piece_end]))

    out, at = [], 0
    for start, end, claim in marks:
        out.append(plain(at, start))
        verdict = shown_verdict(claim)
        is_current = claim["id"] == current
        role = (STRONG if is_current else SOFT).get(verdict, SOFT[None])
        style = (f"background-color:{colours.css_bg(role)};color:{colours.css_fg(role)};"
                 + SHAPE.get(verdict or "", ""))
        if is_current:
            struck = " line-through" if verdict == "contradicted" else ""
            style += f"font-weight:bold;text-decoration:underline{struck};"
        out.append(f'<span style="{style}">{html.escape(text[start:end])}</span>')
        at = end
    out.append(plain(at, len(text)))
    return f'<p style="white-space:pre-wrap">{"".join(out)}</p>'


def case_html(context: Row) -> str:
    """Question, reference answer, must-contain points and forbidden statements of a case."""
    nothing = translate("VerifySection", "nothing listed")

    def items(values_: list[str]) -> str:
        if not values_:
            return f"<i>{esc(nothing)}</i>"
        return "<br>".join(f"{i}. {esc(v)}" for i, v in enumerate(values_, start=1))

    titles = {
        "reference": translate("VerifySection", "Reference answer"),
        "none": translate("VerifySection", "none"),
        "must": translate("VerifySection", "Must contain"),
        "never": translate("VerifySection", "Must never say"),
        "behaviour": translate("VerifySection", "Expected behaviour"),
        "role": translate("VerifySection", "Role"),
    }
    role = context.get("role") or ""
    role_text = f" · <b>{esc(titles['role'])}:</b> {esc(role)}" if role else ""
    return (
        f"<p><b>{esc(context['case_key'])}</b> — {esc(context['question'])}</p>"
        f"<p><b>{esc(titles['reference'])}:</b> "
        f"{esc(context['reference_answer'] or titles['none'])}</p>"
        f"<p><b>{esc(titles['must'])}:</b><br>{items(context['must_contain'])}</p>"
        f"<p><b>{esc(titles['never'])}:</b><br>{items(context['forbidden'])}</p>"
        f"<p><b>{esc(titles['behaviour'])}:</b> "
        f"{esc(labels.behaviour(context['expected_behaviour']))}{role_text}</p>"
    )


# -- answer review items -------------------------------------------------------------------------
OUTCOMES = (None, "answered", "abstained", "escalated")
BOOLS = (None, True, False)


def review_items(context: Row) -> list[Row]:
    """The rows of the review list: outcome, validated, each failure category, each
    must-contain point, forbidden content.  ``field`` and ``index`` say what Space changes."""
    review = context.get("review") or {}
    failures = set(review.get("failure_categories") or [])
    found = list(review.get("must_contain_found") or [])
    points = context["must_contain"]
    found = (found + [None] * len(points))[:len(points)]
    yes, no = translate("VerifySection", "yes"), translate("VerifySection", "no")
    present_text = translate("VerifySection", "present")
    yes_no = {None: "—", 1: yes, 0: no}
    outcome_names = {None: "—", "answered": translate("VerifySection", "answered"),
                     "abstained": translate("VerifySection", "abstained"),
                     "escalated": translate("VerifySection", "escalated")}
    rows: list[Row] = [
        {"field": "outcome", "index": None, "item": translate("VerifySection", "Outcome"),
         "value": outcome_names.get(review.get("outcome"), "—")},
        {"field": "validated", "index": None, "item": translate("VerifySection", "Validated"),
         "value": yes_no.get(review.get("validated"), "—")},
    ]
    failure = translate("VerifySection", "Failure: %1")
    for category in values(FailureCategory):
        rows.append({"field": "failure", "index": category,
                     "item": failure.replace("%1", tr(FAILURES[category])),
                     "value": "✔" if category in failures else ""})
    present = {None: "—", True: present_text, False: translate("VerifySection", "missing")}
    must = translate("VerifySection", "Must contain: %1")
    for i, point in enumerate(points):
        rows.append({"field": "must_contain", "index": i,
                     "item": must.replace("%1", one_line(point)),
                     "value": present.get(found[i], "—")})
    forbidden = {None: "—", 1: present_text, 0: translate("VerifySection", "absent")}
    rows.append({"field": "forbidden", "index": None,
                 "item": translate("VerifySection", "Forbidden content"),
                 "value": forbidden.get(review.get("forbidden_present"), "—")})
    return rows


def _cycle(options: Sequence[Any], current: Any) -> Any:
    index = list(options).index(current) if current in options else 0
    return options[(index + 1) % len(options)]


def next_review_values(context: Row, item: Row) -> dict[str, Any]:
    """The answer-review fields to write when Space is pressed on ``item``."""
    review = context.get("review") or {}
    field = item["field"]
    if field == "outcome":
        return {"outcome": _cycle(OUTCOMES, review.get("outcome"))}
    if field == "validated":
        current = review.get("validated")
        return {"validated": _cycle(BOOLS, None if current is None else bool(current))}
    if field == "forbidden":
        current = review.get("forbidden_present")
        return {"forbidden_present": _cycle(BOOLS, None if current is None else bool(current))}
    if field == "failure":
        failures = list(review.get("failure_categories") or [])
        if item["index"] in failures:
            failures.remove(item["index"])
        else:
            failures.append(item["index"])
        order = values(FailureCategory)
        return {"failure_categories": sorted(failures, key=order.index)}
    points = context["must_contain"]
    found = (list(review.get("must_contain_found") or []) + [None] * len(points))[
        :len(points)]
    found[item["index"]] = _cycle(BOOLS, found[item["index"]])
    return {"must_contain_found": found}


# -- agreement with a judge -----------------------------------------------------------------------
class CalibrationDialog(QDialog):
    """Human vs judge: confusion matrix, kappa, and the claims where they disagree.

    Enter (or a double click) on a disagreement closes the dialog and goes to that claim
    (``chosen`` holds its id).
    """

    def __init__(self, judges: list[str], report: Callable[[str], Row],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Agreement with an automatic judge"))
        self.chosen: int | None = None
        self._report = report
        self.judge = QComboBox()
        self.judge.addItems(judges)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.rows = RowsModel([
            Column(self.tr("Run"), lambda r: r["run"], 14),
            Column(self.tr("Case"), lambda r: r["case_key"], 6),
            Column(self.tr("#"), lambda r: str(r["position"]), 3, numeric=True),
            Column(self.tr("Claim"), lambda r: one_line(r["text"]), 40, stretch=True),
            Column(self.tr("You"), lambda r: labels.verdict(r["human"]), 12),
            Column(self.tr("Judge"), lambda r: labels.verdict(r["judge"]), 12),
        ], self)
        self.table = make_table(self.rows)
        # Enter on a row (the view's "activated"), or a double click, goes to the claim; the
        # Close button must not be the default one, or Enter would close the dialog too.
        self.table.activated.connect(self.accept_current)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setAutoDefault(False)
        close.setDefault(False)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.judge)
        layout.addWidget(self.summary)
        layout.addWidget(QLabel(self.tr(
            "Claims where you and the judge disagree (Enter goes to the claim):")))
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.judge.currentTextChanged.connect(self.show_judge)
        self.resize(900, 600)
        self.show_judge(self.judge.currentText())
        self.table.setFocus()

    def show_judge(self, judge: str) -> None:
        """Fill the matrix and the list for one judge."""
        if not judge:
            return
        data = self._report(judge)
        classes = data["classes"]
        head = "".join(f"<th>{esc(labels.verdict(c))}</th>" for c in classes)
        body = ""
        for i, human in enumerate(classes):
            cells = "".join(f"<td align='right'>{n}</td>" for n in data["confusion"][i])
            body += f"<tr><th align='left'>{esc(labels.verdict(human))}</th>{cells}</tr>"
        kappa = data["kappa"]
        kappa_text = self.tr("not defined") if kappa is None else f"{kappa:.3f}"
        share = data["agreement"]
        share_text = "—" if share is None else f"{100 * share:.1f} %"
        layout_note = self.tr("Rows: your verdict; columns: the judge’s.")
        compared = self.tr("Claims compared: %1 · agreement: %2 · Cohen’s κ: %3").replace(
            "%1", str(data["pairs"])).replace("%2", share_text).replace("%3", kappa_text)
        self.summary.setText(
            f"<p>{esc(layout_note)}</p>"
            f"<table border='1' cellspacing='0' cellpadding='3'><tr><th></th>{head}</tr>"
            f"{body}</table><p>{esc(compared)}</p>{self._answer_level(data)}")
        self.rows.set_rows(data["disagreements"])
        select_row(self.table, 0)

    def _answer_level(self, data: Row) -> str:
        """One line comparing faithfulness per answer, for judges whose claims are not
        yours (RAGChecker's triplets): empty when no answer has both."""
        level = data.get("answer_level") or {}
        if not level.get("compared"):
            return ""

        def pct(value: float | None) -> str:
            return "—" if value is None else f"{100 * value:.1f} %"

        text = self.tr("Answers compared: %1 · faithfulness, judge %2, yours %3 · mean "
                       "difference %4").replace("%1", str(level["compared"])).replace(
            "%2", pct(level["judge_faithfulness"])).replace(
            "%3", pct(level["human_faithfulness"])).replace(
            "%4", pct(level["mean_abs_difference"]))
        return f"<p>{esc(text)}</p>"

    def accept_current(self) -> None:
        """Go to the selected disagreement's claim."""
        index = self.table.currentIndex()
        row = self.rows.row_at(index.row()) if index.isValid() else None
        if row is not None:
            self.chosen = int(row["claim_id"])
            self.accept()
