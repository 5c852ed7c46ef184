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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rag_annotator.errors import InvalidValue

Pair = tuple[int, int]
#: Fewest pairs between a control pair and its repeat, when the queue is long enough.
CONTROL_GAP = 10
#: Highest share of control pairs (each one is extra work for the assessor).
MAX_CONTROL = 0.5




@dataclass(frozen=True)
class Queue:
    """One assessor's queue: ``pairs`` in order (position = index + 1) and the positions of
    the control repeats.  Lists, not an object per slot: a 1,000,000-pair pool at k = 2
    makes 2,100,000 slots."""

    pairs: list[Pair]
    controls: frozenset[int]

    def slots(self) -> Iterator[tuple[int, int, int, bool]]:
        """(position, case id, document id, is_control) in order."""
        controls = self.controls
        for position, (case_id, document_id) in enumerate(self.pairs, start=1):
            yield position, case_id, document_id, position in controls
#: Pairs dealt under one permutation of the assessors (``n`` times this many pairs).
CHUNK_BLOCKS = 64
#: Fewest permutations a plan draws when the pool allows (pairwise agreement needs overlap).
MIN_PERMUTATIONS = 200


def check_plan(assessors: Sequence[str], per_pair: int, control: float) -> None:
    """Refuse a plan that cannot be met, with what to change."""
    if len(set(assessors)) != len(assessors):
        raise InvalidValue("--assessors: a name appears twice; give each assessor once.")
    if not assessors:
        raise InvalidValue("--assessors: name at least one assessor.")
    if isinstance(per_pair, bool) or not isinstance(per_pair, int) or per_pair < 1:
        raise InvalidValue("--per-pair: {per_pair!r} is not a whole number of at least 1.",
                           per_pair=per_pair)
    if per_pair > len(assessors):
        raise InvalidValue("--per-pair {per_pair} needs at least {per_pair} assessors, and "
                           "{n_assessors} were named; name more or lower --per-pair.",
                           per_pair=per_pair, n_assessors=len(assessors))
    if not 0 <= control <= MAX_CONTROL:
        raise InvalidValue("--control: {control!r} is not a share from 0 to {max_control} "
                           "(e.g. 0.05 for 5 %).", control=control, max_control=MAX_CONTROL)


def plan(pairs: Sequence[Pair], assessors: Sequence[str], per_pair: int, control: float,
         seed: int, tick: Callable[[], None] | None = None) -> dict[str, Queue]:
    """Each assessor's queue, in order (see the module's rules).  ``tick`` is called every
    few chunks: the caller's cancel check raises from it.

    Dealing works on chunks of up to ``n × CHUNK_BLOCKS`` shuffled pairs with one fresh
    permutation ``p`` of the assessors each: the pairs at offsets ``≡ r (mod n)`` go to
    ``p[r], p[r+1], … p[r+k-1]`` — list slices, so a million pairs cost milliseconds.
    """
    check_plan(assessors, per_pair, control)
    rng = random.Random(seed)
    order = list(pairs)
    rng.shuffle(order)
    n = len(assessors)
    shares: list[list[Pair]] = [[] for _ in range(n)]
    slots = list(range(n))
    # at least ~MIN_PERMUTATIONS permutations, so every two assessors share pairs
    size = n * max(1, min(CHUNK_BLOCKS, len(order) // (n * MIN_PERMUTATIONS)))
    for number, start in enumerate(range(0, len(order), size)):
        if tick is not None and number % 64 == 0:
            tick()
        rng.shuffle(slots)
        chunk = order[start:start + size]
        # a partial last chunk starts its residues at a random offset, so the extra pairs
        # fall on random assessors rather than always the first ones of the permutation
        shift = 0 if len(chunk) == size else rng.randrange(n)
        for r in range(n):
            part = chunk[r::n]
            for j in range(per_pair):
                shares[slots[(r + shift + j) % n]].extend(part)
    return {name: _queue(share, control, rng) for name, share in zip(assessors, shares)}


def _queue(share: list[Pair], control: float, rng: random.Random) -> Queue:
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
    out: list[Pair] = []
    controls: set[int] = set()
    done = 0
    for j in sorted(repeats):  # slices: no Python step per pair
        out.extend(share[done:j + 1])
        for pair in repeats[j]:
            out.append(pair)
            controls.add(len(out))
        done = j + 1
    out.extend(share[done:])
    return Queue(out, frozenset(controls))
