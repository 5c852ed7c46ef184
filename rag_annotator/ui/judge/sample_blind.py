"""The Judge section's blindness to an automatic relevance judge on its review sample
(issue 22): on a (case, document) pair drawn in a relevance sample, the judge's label — and
the effective label, which it takes part in — stay off the screen, even with B, until the
human has labelled the pair.

Q (a checkable action) walks one judge's relevance sample in the sample's order: J/K step
through its pairs, a label moves on to the next sampled pair the human has not labelled,
and the banner counts the pairs labelled and, once the human's key is given, says what the
judge had said on the pair just labelled.  A mixin of
:class:`~rag_annotator.ui.judge.section.JudgeSection` (kept apart so it stays short)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog, QLabel, QTableView, QWidget

from rag_annotator.ui import labels
from rag_annotator.ui.look import colours
from rag_annotator.ui.sections.base import current_row, select_row

if TYPE_CHECKING:
    from PySide6.QtGui import QAction

    from rag_annotator.domain.changes import Changes
    from rag_annotator.storage.store import GoldSetStore
    from rag_annotator.ui.judge.widgets import JudgeProgressModel
    from rag_annotator.ui.models import RowsModel

Row = dict[str, Any]
translate = QCoreApplication.translate


class SampleBlind:
    """Which pairs hide which judges' labels."""

    _sampled_pairs: frozenset[tuple[int, int]] = frozenset()
    _sample_judges: frozenset[str] = frozenset()

    def load_sampled_pairs(self, store: GoldSetStore) -> None:
        pairs, judges = store.sampled_pairs()
        self._sampled_pairs, self._sample_judges = frozenset(pairs), frozenset(judges)

    def sample_hidden(self, case_id: int | None, row: Row) -> bool:
        """Whether this pool row is a sampled pair the human has not labelled yet."""
        return (case_id is not None and row.get("my_grade") is None
                and (case_id, int(row["document_id"])) in self._sampled_pairs)

    def visible_others(self, case_id: int | None, row: Row) -> list[tuple[str, Any]]:
        """The other assessors' labels that may be shown."""
        others: list[tuple[str, Any]] = row["others"]
        if not self.sample_hidden(case_id, row):
            return others
        return [(name, grade) for name, grade in others if name not in self._sample_judges]


class SampleQueue(SampleBlind):
    """Q: the review queue of one judge's relevance sample (needs the section's tables)."""

    commands: dict[str, QAction]
    cases: QTableView
    pairs: QTableView
    pool: RowsModel
    progress_model: JudgeProgressModel
    sample_banner: QLabel
    adjudicating: bool
    max_grade: int
    store: GoldSetStore | None  # the section's (a property of Section)
    sample_queue_judge: str | None = None
    _last_labelled: tuple[int, int] | None = None

    def case_id(self) -> int | None:  # provided by the section
        raise NotImplementedError

    def document_id(self) -> int | None:  # provided by the section
        raise NotImplementedError

    def _connect_sample_queue(self) -> None:
        self.sample_banner = QLabel()
        self.sample_banner.setWordWrap(True)
        colours.paint_banner(self.sample_banner, "info_banner")
        self.sample_banner.setVisible(False)
        self.commands["judge.sample_queue"].toggled.connect(self.set_sample_queue)

    def _queue_rows(self) -> list[Row]:
        store, judge = self.store, self.sample_queue_judge
        if store is None or judge is None:
            return []
        return store.sample_pair_queue(judge, store.assessor)

    def _hint(self, text: str) -> None:
        status = getattr(self.sample_banner.window(), "statusBar", None)
        if callable(status):
            status().showMessage(text, 8000)

    def _choose_judge(self, judges: list[str]) -> str | None:
        if len(judges) == 1:
            return judges[0]
        parent = self if isinstance(self, QWidget) else None
        name, ok = QInputDialog.getItem(
            parent, translate("SampleQueue", "Review a judge's sample"),
            translate("SampleQueue", "Judge:"), judges, 0, False)
        return str(name) if ok else None

    def set_sample_queue(self, on: bool) -> None:
        """Walk one judge's relevance sample (on), or every case's pool again (off)."""
        judge = None
        if on and self.store is not None:
            judges = [str(r["judge"]) for r in self.store.review_samples()
                      if r["level"] == "relevance"]
            if not judges:
                self._hint(translate(
                    "SampleQueue", "No relevance review sample in this file: draw one with Verify "
                    "› Draw a Review Sample… (level: relevance)."))
            else:
                judge = self._choose_judge(judges)
        self.open_sample_queue(judge)

    def open_sample_queue(self, judge: str | None) -> None:
        """Enter the queue of ``judge``'s relevance sample (None: leave it), on its first
        pair this assessor has not labelled."""
        self.sample_queue_judge = judge
        self._last_labelled = None
        if self.store is not None:  # a sample drawn since the last refresh hides its pairs
            self.load_sampled_pairs(self.store)
        action = self.commands["judge.sample_queue"]
        if action.isChecked() != (judge is not None):
            action.blockSignals(True)
            action.setChecked(judge is not None)
            action.blockSignals(False)
        rows = self._queue_rows()
        first = next((i for i, r in enumerate(rows) if r["my_grade"] is None), 0)
        if rows:
            self._go_to(rows, first, +1)
        self.show_queue_status()

    def sample_changes(self, changes: Changes) -> None:
        """A sample drawn, redrawn or undone: which pairs hide a judge's label, and the
        queue (left when its sample is gone)."""
        if self.store is None or not changes.touches("review_samples", "review_sample_items"):
            return
        self.load_sampled_pairs(self.store)
        self.pairs.viewport().update()
        if self.sample_queue_judge is not None and not self._queue_rows():
            self.open_sample_queue(None)
        else:
            self.show_queue_status()

    def in_sample_queue(self) -> bool:
        """Whether J/K and the labels walk the sample queue."""
        return self.sample_queue_judge is not None and not self.adjudicating

    def _position(self, rows: list[Row]) -> int:
        here = (self.case_id(), self.document_id())
        return next((i for i, r in enumerate(rows)
                     if (r["case_id"], r["document_id"]) == here), -1)

    def _go_to(self, rows: list[Row], index: int, step: int) -> bool:
        """Select the pair ``rows[index]`` (or the next one in the pools, by ``step``)."""
        while 0 <= index < len(rows):
            row = self.progress_model.row_of(int(rows[index]["case_id"]))
            if row is not None:
                if current_row(self.cases) != row:
                    select_row(self.cases, row)
                target = next((i for i, r in enumerate(self.pool.rows)
                               if int(r["document_id"]) == int(rows[index]["document_id"])),
                              None)
                if target is not None:
                    select_row(self.pairs, target)
                    return True
            index += step
        return False

    def sample_step(self, step: int) -> None:
        """J/K in the queue: the next (+1) or previous (-1) sampled pair."""
        rows = self._queue_rows()
        self._go_to(rows, self._position(rows) + step, step)
        self.show_queue_status()

    def sample_advance(self) -> None:
        """After a label: the next sampled pair not labelled yet (after this one, then from
        the start)."""
        rows = self._queue_rows()
        here = self._position(rows)
        if here >= 0:
            self._last_labelled = (int(rows[here]["case_id"]), int(rows[here]["document_id"]))
        order = [*range(here + 1, len(rows)), *range(0, max(here, 0))]
        for index in order:
            if rows[index]["my_grade"] is None and self._go_to(rows, index, 0):
                break
        self.show_queue_status()

    def show_queue_status(self) -> None:
        """The banner: progress, and both labels of the pair just labelled."""
        rows = self._queue_rows()
        if self.sample_queue_judge is None or not rows:
            self.sample_banner.setVisible(False)
            return
        done = sum(r["my_grade"] is not None for r in rows)
        text = (translate("SampleQueue", "Review sample of judge %1: %2 of %3 pairs labelled. The "
                          "judge's label stays hidden until you give yours. Q to leave.")
                .replace("%1", self.sample_queue_judge).replace("%2", str(done))
                .replace("%3", str(len(rows))))
        last = next((r for r in rows
                     if (r["case_id"], r["document_id"]) == self._last_labelled), None)
        if last is not None and last["my_grade"] is not None:
            text += " " + (translate("SampleQueue", "Pair just labelled: you said %1; the judge "
                                     "said %2.")
                           .replace("%1", labels.grade(last["my_grade"], self.max_grade))
                           .replace("%2", labels.grade(last["judge_grade"], self.max_grade)))
        self.sample_banner.setText(text)
        self.sample_banner.setVisible(True)
