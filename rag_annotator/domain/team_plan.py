"""Who judges which pair, in what order: the pure planning half of a team campaign.

No store, no SQL: pairs in, one queue per assessor out, so the balance and the order can be
tested on their own and the campaign operation only stores what this returns.

* **k distinct assessors per pair, same load for everyone.**  Pairs are shuffled, then dealt
  in blocks of ``n`` (the number of assessors): each block draws a fresh random permutation
  ``p`` of the assessors and gives its i-th pair ``p[i], p[i+1], … p[i+k-1]`` (modulo ``n``).
  Inside a whole block every assessor gets exactly ``k`` pairs, and the ``k`` of a pair are
  distinct because ``k <= n``; the last, partial block leaves a difference of at most ``k``.
  Fresh permutations make every two assessors share pairs (pairwise agreement needs that):
  a fixed rotation would pair the same neighbours forever.
* **Order.**  Each queue is shuffled with the campaign's seed, so a run's rank cannot anchor
  anyone, and two assessors do not meet the pairs in the same order.
* **Control pairs.**  A share of each queue is shown again, blind, later in the same queue:
  picked among the first half (so a later slot exists), re-inserted at a random position
  after the original, at least :data:`CONTROL_GAP` pairs later when the queue allows it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag_annotator.errors import InvalidValue

Pair = tuple[int, int]
#: Fewest pairs between a control pair and its repeat, when the queue is long enough.
CONTROL_GAP = 10
#: Highest share of control pairs (each one is extra work for the assessor).
MAX_CONTROL = 0.5


@dataclass(frozen=True)
class QueueItem:
    """One slot of an assessor's queue (``position`` counts from 1)."""

    position: int
    case_id: int
    document_id: int
    is_control: bool


def check_plan(assessors: Sequence[str], per_pair: int, control: float) -> None:
    """Refuse a plan that cannot be met, with what to change."""
    if len(set(assessors)) != len(assessors):
        raise InvalidValue("--assessors: a name appears twice; give each assessor once.")
    if not assessors:
        raise InvalidValue("--assessors: name at least one assessor.")
    if isinstance(per_pair, bool) or not isinstance(per_pair, int) or per_pair < 1:
        raise InvalidValue(f"--per-pair: {per_pair!r} is not a whole number of at least 1.")
    if per_pair > len(assessors):
        raise InvalidValue(f"--per-pair {per_pair} needs at least {per_pair} assessors, and "
                           f"{len(assessors)} were named; name more or lower --per-pair.")
    if not 0 <= control <= MAX_CONTROL:
        raise InvalidValue(f"--control: {control!r} is not a share from 0 to {MAX_CONTROL} "
                           "(e.g. 0.05 for 5 %).")


def plan(pairs: Sequence[Pair], assessors: Sequence[str], per_pair: int, control: float,
         seed: int, tick: Callable[[], None] | None = None) -> dict[str, list[QueueItem]]:
    """Each assessor's queue, in order (see the module's rules).  ``tick`` is called every
    few thousand blocks: the caller's cancel check raises from it."""
    check_plan(assessors, per_pair, control)
    rng = random.Random(seed)
    order = list(pairs)
    rng.shuffle(order)
    n = len(assessors)
    shares: list[list[Pair]] = [[] for _ in range(n)]
    slots = list(range(n))
    for start in range(0, len(order), n):
        if tick is not None and start % 65_536 == 0:
            tick()
        rng.shuffle(slots)
        block = order[start:start + n]
        # the partial last block starts at a random offset, so the extra pairs fall on
        # random assessors rather than always the first ones of the permutation
        shift = 0 if len(block) == n else rng.randrange(n)
        for i, pair in enumerate(block):
            for j in range(per_pair):
                shares[slots[(i + shift + j) % n]].append(pair)
    return {name: _queue(share, control, rng) for name, share in zip(assessors, shares)}


def _queue(share: list[Pair], control: float, rng: random.Random) -> list[QueueItem]:
    """One assessor's pairs shuffled, with the control repeats inserted later."""
    rng.shuffle(share)
    count = round(len(share) * control)
    half = len(share) // 2
    picked = sorted(rng.sample(range(half), min(count, half))) if count and half else []
    # the repeat of slot i goes after slot j (i < j), j drawn from what is left of the queue
    repeats: dict[int, list[Pair]] = {}
    for i in picked:
        low = min(i + CONTROL_GAP, len(share) - 1)
        repeats.setdefault(rng.randint(low, len(share) - 1), []).append(share[i])
    out: list[QueueItem] = []
    for j, pair in enumerate(share):
        out.append(QueueItem(len(out) + 1, pair[0], pair[1], False))
        for repeat in repeats.get(j, ()):
            out.append(QueueItem(len(out) + 1, repeat[0], repeat[1], True))
    return out
