"""How the Verify section follows a change without reading and repainting everything (issue 19).

A verdict key is one write; what it changed is in its ``Changes``: the claims it touched.  When
those are claims of the answer on screen (a verdict, a rationale, their undo), the section
reads just those claims again and updates their rows in place — the claims table, the queue,
the answers list and the highlighted answer — instead of reading the whole answer (eight
queries) and resetting every table.  Anything else (evidence, citations, a review, claims
added or removed, another answer's claims) takes the full path.

Moving to another answer reads only that one; the answer a verdict key will most likely go
to next (the one holding the next unverified claim) is read AND prepared (its case pane
rendered to HTML, its review rows built) once the current one is painted
(``ui/after_paint.py``), so the key that reaches it only swaps prepared content in.  Within
a key (:meth:`begin_key` … :meth:`end_key`) what the verdict changed on the answer shown (its
case pane, the claim's fields, the answer text) is rendered once at the end, and not at all
when the key moved to another answer meanwhile.

The first show does not wait for the whole queue either: it shows the first unverified
claim (one index walk) and reads the queue and the answers list on a worker thread
(``loading.py``); whatever needs them earlier waits for them (:meth:`ensure_queue`).

A mixin of :class:`~rag_annotator.ui.verify.section.VerifySection`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QTableView

from rag_annotator.domain.changes import Changes
from rag_annotator.errors import NotFound
from rag_annotator.ui.after_paint import AfterPaint
from rag_annotator.ui.models import RowsModel
from rag_annotator.ui.verify.loading import QueueLoader
from rag_annotator.ui.verify.outcomes import outcomes_html
from rag_annotator.ui.verify.widgets import case_html, review_items

if TYPE_CHECKING:
    from rag_annotator.storage.store import GoldSetStore

Row = dict[str, Any]
VERIFY_TABLES = ("answers", "claims", "evidence", "citations", "answer_reviews",
                 "judge_verdicts", "retrieved", "documents", "cases", "runs", "assessors",
                 "output_contracts", "decisive_fields", "structured_checks", "field_outcomes",
                 "review_samples", "review_sample_items")


@dataclass
class Prepared:
    """One answer read and made ready to show: what an answer switch would otherwise build
    inside the key."""

    answer_id: int
    context: Row                   # store.answer_context
    structured: Row | None         # store.structured_answer
    case_html: str = ""            # the case pane (case and outcomes)
    review: list[Row] = field(default_factory=list)  # the review list's rows


def prepare(answer_id: int, context: Row, structured: Row | None) -> Prepared:
    """The case pane's HTML and the review rows of an answer read."""
    return Prepared(answer_id, context, structured,
                    case_html(context) + outcomes_html(context), review_items(context))


class LiveUpdates:
    """Row-wise updates, the prefetched next answer and the once-per-key answer render."""

    _queue: list[Row]
    _queue_index: dict[int, int]
    _unverified: int
    context: Row | None
    claims: RowsModel
    claims_table: QTableView
    answers: RowsModel
    active: bool
    store: GoldSetStore | None  # the section's (a property of Section)

    def _init_live(self) -> None:
        self._answer_rows: dict[int, int] = {}   # answer id → its row in the answers list
        self._prefetched: Prepared | None = None  # the next answer, read and prepared
        self._prefetch_for: int | None = None    # the answer shown when it was asked for
        self._prefetch_pending = False
        self._after_paint: AfterPaint | None = None  # runs the prefetch once painted
        self._batching = 0                       # >0: a key is running; render at its end
        self._answer_text_due = False
        # (answer, the claim fields too) a verdict changed, rendered at the key's end
        self._claims_due: tuple[int, frozenset[int]] | None = None
        self._answer_order: list[int] = []       # every answer id, in verification order
        self._loader = QueueLoader(self if isinstance(self, QObject) else None)
        self._loader.ready.connect(self._on_loaded)

    if TYPE_CHECKING:  # provided by the section and its other mixins (not stubs here:
        # this mixin comes first in the MRO and would hide them)
        def schedule_refresh(self) -> None:
            raise NotImplementedError

        def answer_id(self) -> int | None:
            raise NotImplementedError

        def claim_id(self) -> int | None:
            raise NotImplementedError

        def _reload_answer(self, keep_claim: int | None, keep_row: int = -1) -> None:
            raise NotImplementedError

        def claim_queue_rows(self) -> list[Row]:
            raise NotImplementedError

        def _on_claim(self, *_args: object, keep_context: bool = False) -> None:
            raise NotImplementedError

        def _show_header(self) -> None:
            raise NotImplementedError

        def _render_answer_text(self) -> None:
            raise NotImplementedError

        def _show_case(self) -> None:
            raise NotImplementedError

        def show_answer(self, answer_id: int | None, claim_id: int | None = None) -> None:
            raise NotImplementedError

        def _show_empty(self, has_answers: bool) -> None:
            raise NotImplementedError

    # -- changes -------------------------------------------------------------------------------
    def cares(self, changes: Changes) -> bool:
        return changes.touches(*VERIFY_TABLES)

    def apply_changes(self, changes: Changes) -> None:
        if not self.cares(changes):
            return
        self.ensure_queue()
        if not self._keeps_prefetch(changes):
            self._prefetched = None
        if (not self.active or changes.reshapes("answers", "claims", "runs", "cases",
                                                "review_samples")
                or "*" in changes.rows):  # hidden: read it all again when shown
            self.schedule_refresh()
            return
        if self._update_claim_rows(changes):
            return
        # evidence, citations, reviews...: re-read this answer only
        self._reload_answer(keep_claim=self.claim_id())
        if changes.touches("claims"):
            verdicts = {c["id"]: c["verdict"] for c in self.claims.rows}
            if not changes.ids("claims") <= verdicts.keys():
                self._set_queue(self.claim_queue_rows())
            else:
                self._queue_verdicts(verdicts, changes.ids("claims"))
            self._update_overview()
        self._show_header()

    def _only_claims(self, changes: Changes) -> frozenset[int] | None:
        """The claims ``changes`` touched when it touched nothing else of what the section
        shows (a new assessor aside: the first verdict of a session records its name);
        else None."""
        other = set(changes.rows) - {"claims", "assessors"}
        if other & set(VERIFY_TABLES) or set(changes.rows.get("assessors", {})) - {"insert"}:
            return None
        touched = changes.claims_touched()
        if touched is None or not changes.touches("claims"):
            return None
        return frozenset(int(i) for i in changes.ids("claims")) | touched

    def _keeps_prefetch(self, changes: Changes) -> bool:
        """Whether the prefetched answer is still what the file holds after ``changes``."""
        touched = self._only_claims(changes)
        if touched is None or self._prefetched is None:
            return touched is not None or not changes.touches(*VERIFY_TABLES)
        return not touched & {int(c["id"]) for c in self._prefetched.context["claims"]}

    def _update_claim_rows(self, changes: Changes) -> bool:
        """Claims of the answer shown changed (verdict, rationale): read those claims and
        update their rows in place; False when the change is not only that."""
        store, context, touched = self.store, self.context, self._only_claims(changes)
        if store is None or context is None or touched is None:
            return False
        place = {int(c["id"]): i for i, c in enumerate(context["claims"])}
        if not touched <= place.keys():
            return False
        fresh = store.claims_detail(int(context["id"]), only=sorted(touched), links=False)
        if len(fresh) != len(touched):
            return False  # a claim left the answer meanwhile: read it all
        for row in fresh:
            i = place[int(row["id"])]
            old = context["claims"][i]  # evidence and judges: untouched (no such table)
            row["evidence"], row["judges"] = old["evidence"], old["judges"]
            context["claims"][i] = row
            self.claims.update_row(i, row)
        self._queue_verdicts({int(r["id"]): r["verdict"] for r in fresh}, touched)
        self._update_overview()
        if self._batching:  # the key may move on to another answer: render at its end
            self._claims_due = (int(context["id"]), touched)
        else:
            self._show_changed_claims(touched)
        return True

    def _show_changed_claims(self, touched: frozenset[int]) -> None:
        self._show_case()  # its outcomes follow the verdicts
        current = self.claim_id()
        if current is not None and current in touched:
            self._on_claim(keep_context=True)  # rationale and claim fields, answer, header
        else:
            self._show_answer_text()
            self._show_header()

    def claim_shown(self) -> None:
        """The claim's fields were just filled (``_on_claim``): a render left for the key's
        end need not fill them again."""
        if self._claims_due is not None:
            self._claims_due = (self._claims_due[0], frozenset())

    def answer_filled(self) -> None:
        """The whole answer was just shown: nothing is left for the key's end but its
        answer text."""
        self._claims_due = None

    # -- the queue and the answers list ----------------------------------------------------------
    def _open_first(self, store: GoldSetStore) -> None:
        """First show: the first unverified claim now, the queue and the answers list from
        the worker (``loading.py``) — Ctrl+5 does not wait for 100,000 claims to be sorted."""
        first = store.first_unverified_claim()
        answer = int(first["answer_id"]) if first is not None else store.first_answer_id()
        self._unverified = store.unverified_claims()
        self._loader.start(store.path)
        self._show_empty(answer is not None)
        self.show_answer(answer, None if first is None else int(first["id"]))

    @property
    def answer_order(self) -> list[int]:
        """Every answer id in verification order (once the background read is in)."""
        self.ensure_queue()
        return self._answer_order

    @answer_order.setter
    def answer_order(self, order: list[int]) -> None:
        self._answer_order = order

    @property
    def queue_pending(self) -> bool:
        """The queue is still being read in the background."""
        return self._loader.pending

    def _on_loaded(self, generation: int) -> None:
        if generation == self._loader.generation:
            self.ensure_queue()

    def ensure_queue(self) -> None:
        """Install the queue and the answers list read in the background, waiting for them
        if they are not there yet (a key pressed right after Ctrl+5)."""
        if not self._loader.pending:
            return
        loaded = self._loader.take()
        if loaded is not None:
            self._set_queue(loaded[0])
            self._install_overview(loaded[1])
            self._show_header()
            if self.context is not None:  # its prefetch waited for the queue
                self.prefetch_after(int(self.context["id"]), painted=not self._batching)

    def _install_overview(self, overview: list[Row]) -> None:
        self._set_overview(overview)
        self.answer_order = [int(r["id"]) for r in overview]
        self._show_empty(bool(self.answer_order))

    @property
    def queue(self) -> list[Row]:
        """Every claim in verification order (``id``, ``answer_id``, ``verdict``), or the
        sample's; waits for the background read if it is still running."""
        self.ensure_queue()
        return self._queue

    @queue.setter
    def queue(self, queue: list[Row]) -> None:
        self._queue = queue

    def _set_queue(self, queue: list[Row]) -> None:
        self.queue = queue
        self._queue_index = {int(q["id"]): i for i, q in enumerate(queue)}
        self._unverified = sum(1 for q in queue if q["verdict"] is None)

    def _queue_verdicts(self, verdicts: dict[int, Any], changed: frozenset[int | str]) -> None:
        for claim_id in changed:
            index = self._queue_index.get(int(claim_id))
            if index is not None:
                item = self.queue[index]
                new = verdicts[int(claim_id)]
                self._unverified += (new is None) - (item["verdict"] is None)
                item["verdict"] = new

    def _set_overview(self, overview: list[Row]) -> None:
        self.answers.set_rows(overview)
        self._answer_rows = {int(r["id"]): i for i, r in enumerate(overview)}

    def _update_overview(self) -> None:
        """The answers list's counts of the answer shown, from its claims just read."""
        answer = self.answer_id()
        i = self._answer_rows.get(answer) if answer is not None else None
        row = self.answers.row_at(i) if i is not None else None
        if row is not None and i is not None:
            claims = self.context["claims"] if self.context else []
            self.answers.update_row(i, {**row, "claims": len(claims), "verified": sum(
                1 for c in claims if c["verdict"] is not None)})

    # -- reading answers -----------------------------------------------------------------------
    def read_answer(self, answer_id: int) -> Prepared:
        """One answer read and prepared: the prefetched one if it is that (raises NotFound
        if it is gone)."""
        store = self.store
        assert store is not None
        ready, self._prefetched = self._prefetched, None
        if ready is not None and ready.answer_id == answer_id:
            return ready
        return prepare(answer_id, store.answer_context(answer_id),
                       store.structured_answer(answer_id))

    def prefetch_after(self, answer_id: int, painted: bool = False) -> None:
        """Once the answer is painted, read and prepare the answer holding the next
        unverified claim after ``answer_id``'s claims (``ui/after_paint.py``: a timer
        would let the reading delay the very paint it means to spare).  ``painted``: it
        is on screen already (no key is running), read at once when the loop is back."""
        self._prefetch_for = answer_id
        self._prefetch_pending = True
        if painted:
            QTimer.singleShot(0, self, self._prefetch_due)  # type: ignore[call-overload]
            return
        if self._after_paint is None:
            self._after_paint = AfterPaint(self.claims_table.viewport(), self._prefetch_due)
        self._after_paint.arm()

    @property
    def prefetch_pending(self) -> bool:
        """The next answer is to be read once this one is painted, and was not yet."""
        return self._prefetch_pending

    def _prefetch_due(self) -> None:
        self._prefetch_pending = False
        if self._prefetch_for is not None:
            self._prefetch(self._prefetch_for)

    def _prefetch(self, answer_id: int) -> None:
        store, context = self.store, self.context
        if store is None or context is None or int(context["id"]) != answer_id \
                or self.queue_pending:
            return  # moved on meanwhile, or the queue is still being read
        ids = [int(c["id"]) for c in context["claims"]]
        places = [self._queue_index[i] for i in ids if i in self._queue_index]
        total = len(self.queue)
        if not places or not self._unverified:
            return
        start = max(places)
        nxt = next((self.queue[(start + k) % total] for k in range(1, total)
                    if self.queue[(start + k) % total]["verdict"] is None
                    and self.queue[(start + k) % total]["answer_id"] != answer_id), None)
        if nxt is None:
            return
        target = int(nxt["answer_id"])
        if self._prefetched is not None and self._prefetched.answer_id == target:
            return
        try:
            self._prefetched = prepare(target, store.answer_context(target),
                                       store.structured_answer(target))
        except NotFound:
            self._prefetched = None

    # -- the answer text, once per key ---------------------------------------------------------
    def _show_answer_text(self) -> None:
        if self._batching:
            self._answer_text_due = True
            return
        self._render_answer_text()

    def begin_key(self) -> None:
        """A key's work starts: the answer text waits for :meth:`end_key`."""
        self._batching += 1

    def end_key(self) -> None:
        """The key's work is done: render what its steps left (the changed claims of the
        answer still shown, the answer text)."""
        self._batching -= 1
        if self._batching:
            return
        due, self._claims_due = self._claims_due, None
        if due is not None and due[0] == self.answer_id():
            self._show_changed_claims(due[1])
        if self._answer_text_due:
            self._answer_text_due = False
            self._render_answer_text()
