"""The ``metrics`` options of issue 16 (intervals, drift), kept apart from the dispatcher:
``--level``, ``--resamples``, ``--seed``, ``--target-half-width`` for every figure's
interval, and ``--drift [--baseline RUN]`` for the drift table of every run (then ``--run``
is not needed).  ``cli/__init__.py`` adds the options (:func:`add_metric_options`), passes
:func:`interval_options` to ``FigureOptions`` and hands ``--drift`` to :func:`cmd_drift`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from rag_annotator.errors import InvalidValue
from rag_annotator.metrics.intervals import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    DEFAULT_TARGET_HALF_WIDTH,
)
from rag_annotator.storage.store import GoldSetStore


def add_metric_options(met: argparse.ArgumentParser) -> None:
    """The interval and drift options of ``metrics``."""
    met.add_argument("--level", type=float, default=DEFAULT_LEVEL, metavar="L",
                     help="level of every interval, between 0 and 1 (default: 0.95); "
                          "JSON: X_ci: [low, high] beside every proportion and mean X")
    met.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, metavar="N",
                     help="bootstrap resamples of the means' intervals, and sign flips of "
                          "the paired randomization test with --compare (default: 10000)")
    met.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="N",
                     help="seed of the bootstrap and the randomization test (the same seed "
                          "gives the same ranges)")
    met.add_argument("--target-half-width", type=float, default=DEFAULT_TARGET_HALF_WIDTH,
                     metavar="W", help="how many more cases each family needs to bring an "
                     "interval's half-width under W (default: 0.10, i.e. ±10 points; JSON: "
                     "\"enough\")")
    met.add_argument("--drift", action="store_true",
                     help="the drift table: every run in the order made, with its version "
                          "fields, headline figures per family with intervals, changes from "
                          "the previous run and the baseline, significant regressions and "
                          "the cases that flipped (no --run needed)")
    met.add_argument("--baseline", metavar="RUN",
                     help="with --drift: the run changes are measured from (default: the "
                          "first run)")


def interval_options(ns: argparse.Namespace) -> dict[str, Any]:
    """``FigureOptions`` keyword arguments of the interval options, checked (InvalidValue
    naming the option and what to give)."""
    if not 0.0 < ns.level < 1.0 or math.isnan(ns.level):
        raise InvalidValue("--level: {level} is not between 0 and 1; give e.g. 0.95.",
                           level=ns.level)
    if ns.resamples < 1:
        raise InvalidValue("--resamples: {resamples} is below 1; give a whole number "
                           ">= 1, e.g. 10000.", resamples=ns.resamples)
    target = ns.target_half_width
    if not 0.0 < target < 1.0 or math.isnan(target):
        raise InvalidValue("--target-half-width: {target} is not between 0 and 1; give "
                           "e.g. 0.1 for ±10 points.", target=target)
    if ns.baseline is not None and not ns.drift:
        raise InvalidValue("--baseline: only used with --drift.")
    return {"level": ns.level, "resamples": ns.resamples, "seed": ns.seed,
            "target_half_width": target}


def check_run_given(ns: argparse.Namespace) -> None:
    """``--run`` is needed unless ``--drift`` (and not with it)."""
    if ns.drift:
        for option, value in (("--run", ns.run), ("--compare", ns.compare),
                              ("--next", ns.next or None)):
            if value is not None:
                raise InvalidValue("{option}: not used with --drift (the drift table "
                                   "covers every run).", option=option)
    elif ns.run is None:
        raise InvalidValue("--run NAME is required (or --drift for every run).")


def cmd_drift(ns: argparse.Namespace, options: Any) -> int:
    """``metrics FILE --drift [--baseline RUN] [--json]``."""
    from rag_annotator.reports.drift import build_drift
    from rag_annotator.reports.drift_text import drift_text

    with GoldSetStore.open(ns.file, read_only=True) as store:
        if ns.baseline is not None:
            runs = [str(r["name"]) for r in store.runs_summary()]
            if ns.baseline not in runs:
                raise InvalidValue("--baseline: no run '{baseline}' in {file}; runs: "
                                   "{value}.",
                                   baseline=ns.baseline, file=ns.file,
                                   value=', '.join(runs) or 'none')
        table = build_drift(store, ns.baseline, options)
    if ns.json:
        print(json.dumps(table.to_json(), ensure_ascii=False, allow_nan=False,
                         indent=2 if sys.stdout.isatty() else None))
        return 0
    print("\n".join(drift_text(table)))
    return 0
