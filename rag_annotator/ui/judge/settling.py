"""S in the Judge section: go to the pair whose label settles the most metric values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt

from rag_annotator.ui.sections.base import current_row, select_row

if TYPE_CHECKING:
    from rag_annotator.ui.judge.section import JudgeSection


# Above this many cases, S looks for the pair to settle in the current case only.
SETTLE_WHOLE_SET_MAX_CASES = 2000


class Settling(QObject):
    """The words S shows, in a class of their own: lupdate reads a plural only from a
    ``self.tr`` call in a class (the module is not a part of the section's class)."""

    def settles(self, n: int) -> str:
        return self.tr("Settles %n undetermined value(s)", "", n)

    def narrows(self) -> str:
        return self.tr("Narrows undetermined values")

    def nothing(self) -> str:
        return self.tr("No unjudged pair settles a metric value: every value is determined, "
                       "or depends on several pairs.")


def jump_to_settling(section: JudgeSection) -> bool:
    """Go to the unjudged pair whose label settles the most metric values that are still
    undetermined under the strict policy (``metrics.settle``), within the pool.

    Says how many values it settles; False (with a message) when no pair settles any.
    """
    store = section.store
    if store is None or section.adjudicating:
        return False
    from PySide6.QtGui import QGuiApplication

    from rag_annotator.reports.inputs import suggestions

    runs, _depth = store.pool_settings()
    # Over the whole gold set at the usual scale (~55 ms for the sample); past a few
    # thousand cases (~25 ms a case) over the current case only.
    scope = None
    if store.count("cases") > SETTLE_WHOLE_SET_MAX_CASES:
        case = section.progress_model.row_at(current_row(section.cases))
        scope = [str(case["key"])] if case else []
    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        found = suggestions(store, runs, cases=scope)
    finally:
        QGuiApplication.restoreOverrideCursor()
    pools: dict[int, set[str]] = {}
    for suggestion in found[:200]:
        case = store.by_key("cases", suggestion.case_key)
        case_id = int(case["id"])
        if case_id not in pools:
            pools[case_id] = {r["key"] for r in store.pool_of_case(case_id, store.assessor)
                              if r["my_grade"] is None}
        if suggestion.document_key not in pools[case_id]:
            continue
        row = section.progress_model.row_of(case_id)
        if row is None:
            continue
        if row != current_row(section.cases):
            select_row(section.cases, row)
        pair = next((i for i, r in enumerate(section.pool.rows)
                     if r["key"] == suggestion.document_key), None)
        if pair is not None:
            select_row(section.pairs, pair)
            words = Settling()
            section.position.setText(words.settles(suggestion.settles) if suggestion.settles
                                     else words.narrows())
            return True
    section.position.setText(Settling().nothing())
    return False
