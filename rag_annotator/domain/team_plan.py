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

import json
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from rag_annotator.errors import InvalidValue

Pair = tuple[int, int]
#: Fewest pairs between a control pair and its repeat, when the queue is long enough.
CONTROL_GAP = 10
#: Highest share of control pairs (each one is extra work for the assessor).
MAX_CONTROL = 0.5


@dataclass(frozen=True, eq=False)
class Queue:
    """One assessor's queue as arrays (position = index + 1): ``first`` / ``second`` (a
    pair's case and document ids; an item's id rides as ``(id, 0)``) and ``control`` (the
    slot is a blind repeat).  Arrays, not an object per slot: a 1,000,000-pair pool at
    k = 2 makes 2,100,000 slots, planned and packed in well under a second."""

    first: np.ndarray
    second: np.ndarray
    control: np.ndarray

    @property
    def pairs(self) -> list[Pair]:
        return list(zip(self.first.tolist(), self.second.tolist()))

    @property
    def controls(self) -> frozenset[int]:
        return frozenset((np.flatnonzero(self.control) + 1).tolist())

    def __len__(self) -> int:
        return int(self.first.size)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Queue) and all(
            np.array_equal(a, b) for a, b in ((self.first, other.first),
                                              (self.second, other.second),
                                              (self.control, other.control)))

    __hash__ = None  # type: ignore[assignment]

    def slots(self) -> Iterator[tuple[int, int, int, bool]]:
        """(position, case id, document id, is_control) in order."""
        for position, (first, second, control) in enumerate(zip(
                self.first.tolist(), self.second.tolist(), self.control.tolist()), start=1):
            yield position, first, second, bool(control)


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


def plan(pairs: Sequence[Pair] | np.ndarray, assessors: Sequence[str], per_pair: int,
         control: float, seed: int, tick: Callable[[], None] | None = None) -> dict[str, Queue]:
    """Each assessor's queue, in order (see the module's rules).  ``tick`` is called once
    per assessor: the caller's cancel check raises from it.

    Dealing works on chunks of up to ``n × CHUNK_BLOCKS`` shuffled pairs with one fresh
    permutation ``p`` of the assessors each: the pair at offset ``o ≡ r (mod n)`` of a chunk
    goes to ``p[r], p[r+1], … p[r+k-1]``, computed for every pair at once with numpy (seeded
    with ``seed``: the same seed gives the same plan).
    """
    check_plan(assessors, per_pair, control)
    rng = np.random.default_rng(seed)
    given = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    order = given[rng.permutation(len(given))]
    n = len(assessors)
    # at least ~MIN_PERMUTATIONS permutations, so every two assessors share pairs
    size = n * max(1, min(CHUNK_BLOCKS, len(order) // (n * MIN_PERMUTATIONS)))
    chunks = -(-len(order) // size)
    perms = np.argsort(rng.random((max(chunks, 1), n)), axis=1)
    # a partial last chunk starts its residues at a random offset, so the extra pairs fall
    # on random assessors rather than always the first ones of the permutation
    shift = np.zeros(max(chunks, 1), dtype=np.int64)
    if len(order) % size:
        shift[-1] = rng.integers(n)
    index = np.arange(len(order))
    chunk = index // size
    residue = (index % size) % n + shift[chunk]
    owners = np.stack([perms[chunk, (residue + j) % n] for j in range(per_pair)])
    out: dict[str, Queue] = {}
    for number, name in enumerate(assessors):
        if tick is not None:
            tick()
        share = order[(owners == number).any(axis=0)]
        out[name] = _queue(share, control, rng)
    return out


def _queue(share: np.ndarray, control: float, rng: np.random.Generator) -> Queue:
    """One assessor's pairs shuffled, with the control repeats inserted later: the repeat
    of slot ``i`` goes right after slot ``j``, ``j`` drawn from ``i + CONTROL_GAP`` (or the
    last slot) to the end; several repeats after one slot keep their originals' order."""
    share = share[rng.permutation(len(share))]
    length = len(share)
    count = round(length * control)
    half = length // 2
    picked = (np.sort(rng.choice(half, min(count, half), replace=False))
              if count and half else np.zeros(0, dtype=np.int64))
    low = np.minimum(picked + CONTROL_GAP, length - 1)
    after = rng.integers(low, length) if picked.size else picked
    # originals sort at 2 * t, repeats at 2 * j + 1 (stable: picked order among equals)
    keys = np.concatenate([np.arange(length) * 2, after * 2 + 1])
    sequence = np.argsort(keys, kind="stable")
    rows = np.concatenate([share, share[picked]])[sequence]
    is_control = np.concatenate([np.zeros(length, dtype=bool),
                                 np.ones(picked.size, dtype=bool)])[sequence]
    return Queue(rows[:, 0].copy(), rows[:, 1].copy(), is_control)


def unique_sorted(values: np.ndarray) -> np.ndarray:
    """``values`` sorted without repeats: ``np.unique`` by a sort (numpy 2's hash-based
    ``unique`` took seconds on the 2,100,000 ids of a campaign)."""
    ordered = np.sort(values)
    if ordered.size == 0:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def unpack_pool(packed: np.ndarray) -> np.ndarray:
    """Packed pairs (``(case_id << 32) + document_id``) as an ``(n, 2)`` array of ids, what
    :func:`plan` takes as well as a list of pairs."""
    return np.stack([packed >> 32, packed & 0xFFFFFFFF], axis=1)


def pack(queue: Queue, items: str = "pairs") -> str:
    """A queue as stored in ``queues.slots``: a JSON array of integers in order, a pair as
    ``(case_id << 32) + document_id`` (negated for a control repeat), a claim or a
    trajectory (``items``) as its id."""
    if items == "pairs":
        values = (queue.first << 32) + queue.second
        values = np.where(queue.control, -values, values)
    else:
        values = queue.first
    return json.dumps(values.tolist(), separators=(",", ":"))


def unpack(text: str) -> np.ndarray:
    """A JSON array of integers (``queues.slots``, a pool read as ``json_group_array``) as an
    int64 array, parsed by numpy's C reader: ~3x faster than ``json.loads`` on the 210,000
    slots of a queue, read ~20 times by one hand-out and collect of ten files.  Anything
    that is not a plain array of integers goes through ``json`` (which says what is wrong)."""
    body = text.strip()
    inner = body[1:-1]
    if body[:1] == "[" and body[-1:] == "]" and "." not in inner and "e" not in inner.lower():
        if not inner.strip():
            return np.zeros(0, dtype=np.int64)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                values = np.fromstring(inner, dtype=np.int64, sep=",")
            except (ValueError, DeprecationWarning):
                values = None
        if values is not None and values.size == inner.count(",") + 1:
            return values
    return np.asarray(json.loads(text), dtype=np.int64)


def unpack_slot(value: int, items: str = "pairs") -> tuple[int | None, int | None, bool]:
    """One packed slot as (case or item id, document id or None, is_control)."""
    if items != "pairs":
        return value, None, False
    magnitude = abs(value)
    return magnitude >> 32, magnitude & 0xFFFFFFFF, value < 0
