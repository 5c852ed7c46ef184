"""The Judge section's blindness to an automatic relevance judge on its review sample
(issue 22): on a (case, document) pair drawn in a relevance sample, the judge's label — and
the effective label, which it takes part in — stay off the screen, even with B, until the
human has labelled the pair.  A mixin of
:class:`~rag_annotator.ui.judge.section.JudgeSection` (kept apart so it stays short)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rag_annotator.storage.store import GoldSetStore

Row = dict[str, Any]


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
