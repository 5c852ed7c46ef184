"""Timing of ``metrics --next`` on an official-size run: 1,000-deep rankings, ~50,000
unjudged pairs, AP among the measures (issue 18, point 9: it took 86-92 s).

Shaped like a TREC Deep Learning run judged by a shallow pool: 50 topics, 1,000 documents
ranked per topic, 10-30 of them judged on a 0-3 scale (most near the top), the rest
unjudged, plus judged documents of the pool that this run did not retrieve.  Times the pure
ranking of suggestions (:func:`~rag_annotator.metrics.judge_next.next_to_judge`), which is
what ``metrics --next`` adds to a plain ``metrics``.  Prints the median of a few runs;
asserts nothing (timings depend on the machine).  Usage:
``python tests/bench/bench_next.py [--runs 3] [--topics 50] [--depth 1000]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rag_annotator.metrics import QueryInput
from rag_annotator.metrics.judge_next import next_to_judge
from rag_annotator.metrics.retrieval import DEFAULT_MEASURES


def run_queries(topics: int, depth: int, seed: int = 18) -> dict[str, QueryInput]:
    """One run's queries: ``depth`` ranked documents per topic, most of them unjudged."""
    rng = random.Random(seed)
    out: dict[str, QueryInput] = {}
    for t in range(topics):
        ranking = [f"t{t}-d{i:04d}" for i in range(depth)]
        labels: dict[str, int | None] = dict.fromkeys(ranking)
        judged = rng.sample(range(min(depth, 100)), rng.randint(10, 30))
        for i in judged:
            labels[ranking[i]] = rng.choice((0, 0, 1, 2, 3))
        for i in range(rng.randint(5, 40)):  # judged in the pool, not retrieved by this run
            labels[f"t{t}-pool{i}"] = rng.choice((0, 1, 2, 3))
        out[f"q{t}"] = QueryInput(ranking, labels, 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--depth", type=int, default=1000)
    args = parser.parse_args()
    queries = run_queries(args.topics, args.depth)
    unjudged = sum(sum(1 for g in q.labels.values() if g is None) for q in queries.values())
    print(f"{len(queries)} topics x {args.depth} ranked, {unjudged} unjudged pairs, "
          f"measures {','.join(DEFAULT_MEASURES)}")
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        found = next_to_judge(queries, DEFAULT_MEASURES, "bench")
        times.append(time.perf_counter() - start)
    print(f"next_to_judge: median {statistics.median(times):.2f} s over {args.runs} runs "
          f"({len(found)} suggestions; first {found[0] if found else None})")


if __name__ == "__main__":
    main()
