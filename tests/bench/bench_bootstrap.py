"""The bootstrap of the means' intervals at the issue's scale: 10,000 cases x 8 measures x
10,000 resamples (issue 16: goal < 2 s), with scipy.stats.bootstrap on the same data as the
peer figure in the same run.

Data (not timed): 8 columns of 10,000 per-case values in [0, 1] (binary, uniform and skewed
columns, as retrieval measures are), every value computable, so the 8 measures share one
draw, as in a report where every case has a relevant document.  A second timing leaves 10 %
of the cases out of 3 measures (not computable there: 2 draws), the usual shape of RR/AP/R@k.

Timed, best of ``--repeat``:

* ``ours``: ``metrics.intervals.bootstrap_means`` over the 8 columns;
* ``scipy``: ``scipy.stats.bootstrap(method="percentile")`` over the same 8 columns, one call
  per column (``vectorized`` mean, ``batch`` left to scipy).

Prints seconds and the ratio; asserts nothing (timings depend on the machine).
Usage: ``python tests/bench/bench_bootstrap.py [--cases 10000] [--resamples 10000]
[--repeat 3] [--no-scipy]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rag_annotator.metrics.intervals import bootstrap_means

MEASURES = 8


def columns(cases: int, holes: bool, seed: int = 3) -> dict[str, list[float | None]]:
    rng = np.random.default_rng(seed)
    out: dict[str, list[float | None]] = {}
    for j in range(MEASURES):
        kind = j % 3
        values = ((rng.random(cases) < 0.4).astype(float) if kind == 0
                  else rng.random(cases) if kind == 1 else rng.beta(0.4, 1.5, cases))
        column: list[float | None] = [float(v) for v in values]
        if holes and j >= MEASURES - 3:
            column = [None if i % 10 == 0 else v for i, v in enumerate(column)]
        out[f"m{j}"] = column
    return out


def best(repeat: int, action: object) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-scipy", action="store_true")
    ns = parser.parse_args()
    full = columns(ns.cases, holes=False)
    holed = columns(ns.cases, holes=True)
    ours = best(ns.repeat, lambda: bootstrap_means(full, ns.resamples, seed=1))
    ours_holes = best(ns.repeat, lambda: bootstrap_means(holed, ns.resamples, seed=1))
    print(f"ours   {ns.cases} cases x {MEASURES} measures x {ns.resamples} resamples: "
          f"{ours:.2f} s (goal < 2 s); with 3 measures not computable on 10 % of cases: "
          f"{ours_holes:.2f} s")
    if ns.no_scipy:
        return
    from scipy import stats

    arrays = [np.array(c, dtype=float) for c in full.values()]

    def peer() -> None:
        for a in arrays:
            stats.bootstrap((a,), np.mean, n_resamples=ns.resamples, method="percentile",
                            random_state=1)

    theirs = best(1, peer)
    print(f"scipy.stats.bootstrap (percentile) on the same data: {theirs:.2f} s; "
          f"ours / scipy = {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
