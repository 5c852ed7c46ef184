"""Timing of the strict policy on one case with 1,000 unjudged documents (DESIGN section 5).

Enumeration would need 2**1000 gradings (4**1000 on a 0-3 scale); the bounds are reasoned out
in O(n) per measure (O(n * grades) per Dinkelbach step for the best graded nDCG), so a case
like this must answer well under a second.  Prints the median of a few runs per scenario and
measure; asserts nothing (timings depend on the machine).  Usage:
``python tests/bench/bench_strict.py [--runs 5]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rag_annotator.metrics import QueryInput, evaluate_query

MEASURES = ("P@10", "P@1000", "R@10", "R@1000", "RR", "RR@10", "nDCG@10", "nDCG@1000", "nDCG",
            "AP", "AP@100", "Success@10", "Judged@10", "Judged@1000")


def scenarios() -> dict[str, QueryInput]:
    """1,000 ranked unjudged documents, alone or mixed with judged ones, binary and graded."""
    rng = random.Random(1234)
    only = [f"u{i:04d}" for i in range(1000)]
    out = {"binary, 1000 ranked, all unjudged": QueryInput(only, dict.fromkeys(only))}
    for max_grade in (1, 3):
        ranking = [f"d{i:04d}" for i in range(1500)]
        rng.shuffle(ranking)
        labels: dict[str, int | None] = {}
        unjudged = set(rng.sample(ranking[:1200], 1000))  # 1000 unjudged among the ranked
        for doc in ranking[:1200]:
            labels[doc] = None if doc in unjudged else rng.randint(0, max_grade)
        for i in range(300):  # judged and unjudged documents no run retrieved
            labels[f"pool{i:03d}"] = None if i % 3 == 0 else rng.randint(0, max_grade)
        name = f"{'binary' if max_grade == 1 else 'graded 0-3'}, 1500 ranked, 1100 unjudged"
        out[name] = QueryInput(ranking, labels, max_grade)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for title, query in scenarios().items():
        unjudged = sum(1 for g in query.labels.values() if g is None)
        print(f"\n{title}  (ranking {len(query.ranking)}, universe {len(query.labels)}, "
              f"unjudged {unjudged}, max_grade {query.max_grade})")
        totals = []
        for _ in range(args.runs):
            start = time.perf_counter()
            evaluate_query(query, MEASURES, "strict")
            totals.append(time.perf_counter() - start)
        for measure in MEASURES:
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                reading = evaluate_query(query, [measure], "strict")[measure]
                times.append(time.perf_counter() - start)
            shown = (f"{reading.value:.4f}" if reading.value is not None else
                     f"[{reading.low:.4f}, {reading.high:.4f}]" if reading.low is not None
                     else "not defined")
            print(f"  {measure:<12} {statistics.median(times) * 1000:8.2f} ms   {shown}"
                  f"{'  (undefined for some)' if reading.undefined_for_some else ''}")
        print(f"  {'all at once':<12} {statistics.median(totals) * 1000:8.2f} ms")


if __name__ == "__main__":
    main()
