"""Hypothesis strategies: one case of one run, small enough to reason about, varied enough to
hit the corners (empty rankings, nothing relevant, documents outside the universe, cutoffs
beyond the ranking, every grade scale)."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from rag_annotator.metrics import QueryInput

CUTOFFS = (1, 2, 3, 5, 10)


@dataclass(frozen=True)
class Case:
    """A generated case: the input plus the cutoff its measures use."""

    query: QueryInput
    k: int

    @property
    def names(self) -> list[str]:
        """Every measure with a value that depends on relevance, at this case's cutoff."""
        k = self.k
        return [f"P@{k}", f"R@{k}", "RR", f"RR@{k}", f"nDCG@{k}", "nDCG", "AP", f"AP@{k}",
                f"Success@{k}"]


@st.composite
def cases(draw: st.DrawFn, *, max_grade: int | None = None, max_universe: int = 12,
          max_unjudged: int | None = None, unjudged: bool = True) -> Case:
    """A case whose universe has at most ``max_universe`` documents, some unjudged, and whose
    ranking mixes universe documents with up to three documents outside it."""
    top = draw(st.sampled_from((1, 2, 3))) if max_grade is None else max_grade
    cap = max_unjudged if max_unjudged is not None else {1: 8, 2: 5, 3: 4}.get(top, 3)
    label = st.integers(0, top) | st.none() if unjudged else st.integers(0, top)
    grades = draw(st.lists(label, max_size=max_universe))
    labels: dict[str, int | None] = {}
    open_count = 0
    for i, grade in enumerate(grades):
        if grade is None:
            if open_count >= cap:
                grade = 0
            else:
                open_count += 1
        labels[f"d{i:02d}"] = grade
    outside = [f"x{i}" for i in range(draw(st.integers(0, 3)))]
    pool = draw(st.permutations([*labels, *outside]))
    # Mostly the whole pool (rankings are usually longer than the cutoff), sometimes cut.
    ranking = pool[: draw(st.just(len(pool)) | st.integers(0, len(pool)))]
    return Case(QueryInput(ranking, labels, top), draw(st.sampled_from(CUTOFFS)))
