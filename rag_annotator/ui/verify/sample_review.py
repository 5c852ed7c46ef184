"""The review queue of a judge's random sample in the Verify section (issue 22), blind.

Q switches the section to the claims of an automatic judge's review sample (drawn with
``rag-annotator sample FILE --judge NAME --level claims``), in the sample's order: J/K and
the verdict keys walk only them, and the header says how many are reviewed.  The judge's
verdict on a sampled claim stays off the screen — even with B, which reveals the other
verdicts — until the human has given a verdict with S, N or C; then the line under the
header shows both.  Q again goes back to every claim.

A mixin of :class:`~rag_annotator.ui.verify.section.VerifySection` (kept apart so each module
stays short).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QLabel, QWidget

from rag_annotator.ui import labels

if TYPE_CHECKING:
    from rag_annotator.storage.store import GoldSetStore
    from rag_annotator.ui.context import UiContext

Row = dict[str, Any]
translate = QCoreApplication.translate


def _level(level: str) -> str:
    return {"claims": translate("SampleReview", "claims"),
            "answers": translate("SampleReview", "answers")}.get(level, level)


class SampleReview:
    """The sample's queue and its blindness (needs the section's queue and claims)."""

    commands: dict[str, QAction]
    queue: list[Row]
    _unverified: int
    sample_judge: str | None
    sample_level: str
    context: Row | None
    sample_ids: set[int]
    sample_note: QLabel
    _last_reviewed: Row | None
    store: GoldSetStore | None  # the section's (a property of Section)
    ctx: UiContext

    def refresh(self) -> None:  # provided by the section
        raise NotImplementedError

    def go_to_claim(self, claim_id: int) -> None:  # provided by the section
        raise NotImplementedError

    def current_claim(self) -> Row | None:  # provided by the section
        raise NotImplementedError

    def _hint(self, text: str) -> None:  # provided by the section
        raise NotImplementedError

    def _init_sample(self) -> None:
        self.sample_judge = None
        self.sample_level = "claims"
        self.sample_ids = set()
        self._last_reviewed = None
        self.sample_note = QLabel()
        self.sample_note.setWordWrap(True)
        self.sample_note.hide()
        self.commands["verify.sample_queue"].toggled.connect(self.set_sample_mode)
        self.commands["verify.draw_sample"].triggered.connect(self.draw_sample)

    def draw_sample(self) -> None:
        """The "Draw a review sample…" dialog, then the sample's queue: here (Q) for claims
        and answers, in Judge (its Q) for relevance."""
        from rag_annotator.ui.verify.draw_sample import draw_with_dialog

        parent = self if isinstance(self, QWidget) else None
        drawn = draw_with_dialog(self.ctx, parent) if parent is not None else None
        if drawn is None:
            return
        judge, level = drawn
        if level == "relevance":
            window = parent.window() if parent is not None else None
            sections = getattr(window, "sections", [])
            judging = next((s for s in sections if hasattr(s, "open_sample_queue")), None)
            show = getattr(window, "show_section", None)
            if judging is not None and callable(show):
                show(sections.index(judging))
                judging.open_sample_queue(judge)
            return
        self.open_sample(judge, level)

    def claim_queue_rows(self) -> list[Row]:
        """The claims the section walks: the sample's in review mode, else every claim."""
        store = self.store
        if store is None:
            return []
        if self.sample_judge is not None:
            rows = (store.sample_answer_queue(self.sample_judge)
                    if self.sample_level == "answers"
                    else store.sample_claim_queue(self.sample_judge))
            if rows:
                self.sample_ids = {int(r["id"]) for r in rows}
                return rows
            self.sample_judge = None  # the sample is gone (undone, redrawn elsewhere)
            self._check_action(False)
        self.sample_ids = set()
        return store.claim_queue()

    def _check_action(self, on: bool) -> None:
        action = self.commands["verify.sample_queue"]
        if action.isChecked() != on:
            action.blockSignals(True)
            action.setChecked(on)
            action.blockSignals(False)

    def _choose_sample(self, samples: list[tuple[str, str]]) -> tuple[str, str] | None:
        if len(samples) == 1:
            return samples[0]
        names = [f"{judge} · {_level(level)}" for judge, level in samples]
        parent = self if isinstance(self, QWidget) else None
        name, ok = QInputDialog.getItem(
            parent, translate("SampleReview", "Review a judge's sample"),
            translate("SampleReview", "Sample:"), names, 0, False)
        return samples[names.index(name)] if ok else None

    def set_sample_mode(self, on: bool) -> None:
        """Walk the claims of a judge's sample (on) or every claim (off)."""
        store = self.store
        judge = None
        if on and store is not None:
            samples = [(str(r["judge"]), str(r["level"])) for r in store.review_samples()
                       if r["level"] in ("claims", "answers")]
            if not samples:
                self._hint(translate(
                    "SampleReview", "No review sample of a judge's claims in this file: draw one "
                    "with rag-annotator sample FILE --judge NAME --level claims --size N."))
            else:
                chosen = self._choose_sample(samples)
                if chosen is not None:
                    judge, self.sample_level = chosen
        self.open_sample(judge, self.sample_level)

    def open_sample(self, judge: str | None, level: str) -> None:
        """Walk ``judge``'s sample at ``level`` (claims, answers); None: every claim."""
        self.sample_judge, self.sample_level = judge, level
        self._last_reviewed = None
        self._check_action(judge is not None)
        self.refresh()
        first = next((q for q in self.queue if q["verdict"] is None), None)
        if judge is not None and first is not None:
            self.go_to_claim(int(first["id"]))
        self.show_sample_status()

    def sample_blind(self, claim: Row) -> bool:
        """Whether the judges' verdicts on this claim must stay hidden: a sampled claim no
        human has given a verdict yet."""
        if int(claim["id"]) not in self.sample_ids:
            return False
        if claim["verdict"] is None:
            return True
        # answers: the claims' verdicts by the judge make its answer verdict
        review = (self.context or {}).get("review") if self.sample_level == "answers" else None
        return self.sample_level == "answers" and (review is None
                                                   or review.get("validated") is None)

    def sample_reviewed(self, claim: Row | None) -> None:
        """A verdict was just given to ``claim`` (its row before moving on)."""
        if claim is not None and int(claim["id"]) in self.sample_ids:
            self._last_reviewed = claim

    def _judge_verdict(self, claim: Row) -> str:
        for name, verdict, raw in claim.get("judges", []):
            if name == self.sample_judge:
                return labels.verdict(verdict) if verdict else str(raw)
        return "—"

    def show_sample_status(self) -> None:
        """The line under the header: progress, and the verdicts of the claim just reviewed
        (or of the current one once reviewed)."""
        if self.sample_judge is None:
            self.sample_note.hide()
            return
        total = len(self.queue)
        text = (translate("SampleReview",
                          "Review sample of judge %1: %2 of %3 claims reviewed. The "
                          "judge's verdict stays hidden until you give yours.")
                .replace("%1", self.sample_judge).replace("%2", str(total - self._unverified))
                .replace("%3", str(total)))
        if self.sample_level == "answers" and self.store is not None:
            done, answers = self.store.sample_answers_reviewed(self.sample_judge)
            text = (translate("SampleReview",
                              "Review sample of judge %1 (answers): %2 of %3 answers "
                              "validated or not (R, Space), %4 of %5 of their claims "
                              "verified. The judge's verdicts stay hidden until you decide.")
                    .replace("%1", self.sample_judge).replace("%2", str(done))
                    .replace("%3", str(answers)).replace("%4", str(total - self._unverified))
                    .replace("%5", str(total)))
        current = self.current_claim()
        shown = current if current is not None and int(current["id"]) in self.sample_ids \
            and current["verdict"] is not None else self._last_reviewed
        if shown is not None and shown.get("verdict") is not None \
                and not self.sample_blind(shown):
            text += " " + (translate("SampleReview", "Claim %1: you said %2; the judge said %3.")
                           .replace("%1", f"{shown['position']}")
                           .replace("%2", labels.verdict(shown["verdict"]))
                           .replace("%3", self._judge_verdict(shown)))
        self.sample_note.setText(text)
        self.sample_note.show()
