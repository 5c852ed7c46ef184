"""A seeded, stratified random sample of an automatic judge's labels for humans to review.

The population is every unit the judge labelled at one level (claims, answers, or (case,
document) relevance pairs).  Strata are (judge's label, case family): each stratum ``h``
of ``N_h`` units gets ``n_h`` draws in proportion to its size (largest remainders, ties by
stratum name, so the sizes add up to ``n`` exactly), drawn without replacement with Python's
``random.Random(seed)`` over the units sorted by id; the review order is shuffled by the same
generator so the queue does not walk one stratum after another (a run of the same judge
label would prime the reviewer).  Each item keeps its inclusion probability ``n_h / N_h``.

The size is the user's, or proposed for a target half-width ``W`` of the judge's accuracy
interval: ``n0 = z^2 p (1 - p) / W^2`` with the finite-population correction
``n = n0 / (1 + (n0 - 1) / N)``; ``p`` is the accuracy seen on units humans already labelled
(when at least 20 are), else 0.5, the widest.

The draw is stored by :func:`draw_review_sample`: one operation (undoable) replacing the
judge's earlier sample at that level.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store
from rag_annotator.errors import InvalidValue, NotFound
from rag_annotator.metrics.judge_sample import CLASSES

LEVELS = ("claims", "answers", "relevance")
LEVEL_CLASSES = CLASSES
DEFAULT_SAMPLE_SEED = 22
#: Human labels needed before their accuracy replaces the worst case 0.5 in the planning.
MIN_PILOT = 20


@dataclass(frozen=True)
class Drawn:
    """One unit of the sample."""

    unit_id: int
    document_id: int | None
    family: str
    judge_label: str
    stratum: str
    stratum_size: int
    stratum_drawn: int

    @property
    def weight(self) -> float:
        """Inclusion probability n_h / N_h."""
        return self.stratum_drawn / self.stratum_size


def stratum_of(judge_label: str, family: str) -> str:
    """The stratum name: ``label/family``."""
    return f"{judge_label}/{family}"


def allocate(sizes: Mapping[str, int], n: int) -> dict[str, int]:
    """Proportional allocation of ``n`` draws over strata of ``sizes`` (largest remainders)."""
    total = sum(sizes.values())
    if n < 0 or n > total:
        raise InvalidValue("a sample of {n} cannot be drawn from {total} units; give a size "
                           "between 1 and {total}.", n=n, total=total)
    exact = {h: n * size / total for h, size in sizes.items()} if total else {}
    counts = {h: math.floor(x) for h, x in exact.items()}
    left = n - sum(counts.values())
    order = sorted(exact, key=lambda h: (-(exact[h] - counts[h]), h))
    for h in order[:left]:
        counts[h] += 1
    return counts


def draw(units: Sequence[Mapping[str, Any]], size: int, seed: int) -> list[Drawn]:
    """Draw ``size`` of ``units`` (rows with ``unit_id``, ``document_id``, ``family``,
    ``judge``), stratified and proportional, in a shuffled review order."""
    strata: dict[str, list[Mapping[str, Any]]] = {}
    for unit in sorted(units, key=lambda u: (u["unit_id"], u["document_id"] or 0)):
        strata.setdefault(stratum_of(unit["judge"], unit["family"]), []).append(unit)
    counts = allocate({h: len(rows) for h, rows in strata.items()}, size)
    rng = random.Random(seed)
    drawn: list[Drawn] = []
    for h in sorted(strata):
        rows = strata[h]
        for unit in rng.sample(rows, counts[h]):
            drawn.append(Drawn(int(unit["unit_id"]), unit["document_id"], unit["family"],
                               unit["judge"], h, len(rows), counts[h]))
    rng.shuffle(drawn)
    return drawn


def proposed_size(units: Sequence[Mapping[str, Any]], half_width: float,
                  level: float = 0.95) -> int:
    """The sample size for a ``half_width`` interval on the judge's accuracy."""
    from rag_annotator.metrics.intervals import z_value

    if not 0 < half_width < 1:
        raise InvalidValue("the half-width must be between 0 and 1 (got {half_width}); "
                           "e.g. 0.05 for ±5 points.", half_width=half_width)
    population = len(units)
    labelled = [u for u in units if u.get("human") is not None]
    p = 0.5
    if len(labelled) >= MIN_PILOT:
        p = sum(u["human"] == u["judge"] for u in labelled) / len(labelled)
        p = min(max(p, 0.05), 0.95)  # never plan on a perfect judge
    n0 = z_value(level) ** 2 * p * (1 - p) / half_width ** 2
    if not population:
        return 0
    return min(population, math.ceil(n0 / (1 + (n0 - 1) / population)))


def draw_review_sample(store: Store, judge: str, level: str,
                       units: Sequence[Mapping[str, Any]], size: int | None, seed: int,
                       half_width: float | None = None) -> tuple[Changes, list[Drawn]]:
    """Draw and store the sample of ``judge`` at ``level`` from its ``units``
    (``store.judged_units``), replacing an earlier one; size from ``half_width`` when
    ``size`` is None."""
    if level not in LEVELS:
        raise InvalidValue("unknown level {level!r}; use claims, answers or relevance.",
                           level=level)
    if not units:
        raise NotFound("judge '{judge}' labelled no {level} in this gold set; import its "
                       "verdicts first (rag-annotator import FILE ragchecker SOURCE --run RUN).",
                       judge=judge, level=level)
    if size is None:
        if half_width is None:
            raise InvalidValue("give the sample's size (--size N) or the half-width to reach "
                               "(--half-width 0.05).")
        size = proposed_size(units, half_width)
    if size < 1:
        raise InvalidValue("the sample's size must be at least 1 (got {size}).", size=size)
    drawn = draw(units, size, seed)
    with store.operation("draw_review_sample", f"{judge} · {level} · {size}") as op:
        judges = op.select("assessors", name=judge)
        if not judges or (judges[0].get("kind") != "judge" and level != "relevance"):
            raise NotFound("no automatic judge named '{judge}' in this gold set.", judge=judge)
        judge_id = judges[0]["id"]
        if judges[0].get("kind") != "judge":
            # relevance labels of an automatic judge come in as qrels under a plain
            # assessor: sampling them declares it a judge, so its labels no longer count
            # as a human's (undone with the draw)
            op.update("assessors", {"id": judge_id}, {"kind": "judge"})
        for old in op.select("review_samples", judge_id=judge_id, level=level):
            op.delete_where("review_sample_items", sample_id=old["id"])
            op.delete("review_samples", {"id": old["id"]})
        sample = op.insert("review_samples", {
            "judge_id": judge_id, "level": level, "seed": seed, "size": size,
            "population": len(units), "half_width": half_width, "created_at": utc_now(),
            "created_by": store.assessor or ""})
        op.insert_many("review_sample_items", (
            {"sample_id": sample["id"], "position": i, "unit_id": d.unit_id,
             "document_id": d.document_id, "stratum": d.stratum,
             "judge_label": d.judge_label, "family": d.family,
             "stratum_size": d.stratum_size, "stratum_drawn": d.stratum_drawn,
             "weight": d.weight} for i, d in enumerate(drawn)))
    return op.changes(), drawn
