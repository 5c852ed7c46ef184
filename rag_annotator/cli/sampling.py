"""``rag-annotator sample``: draw a blind, stratified human review sample of an automatic
judge's labels (issue 22), headless.  The sample is stored in the file (one per judge and
level, a new draw replaces the old) and becomes the review queue in Verify (claims, answers)
or Judge (relevance); ``metrics --json`` then measures the judge on it (``judges``)."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from rag_annotator.domain.review_sample import (
    DEFAULT_SAMPLE_SEED,
    LEVELS,
    draw_review_sample,
    proposed_size,
)
from rag_annotator.errors import KnownError
from rag_annotator.messages import P_, Message, Plural
from rag_annotator.storage.store import GoldSetStore


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``sample`` command."""
    cmd = sub.add_parser(
        "sample", help="draw a blind, stratified human review sample of a judge",
        description="Draw a seeded random sample of an automatic judge's labels, stratified "
                    "by the judge's label and the case family (proportional allocation), "
                    "for humans to review blind to the judge's verdict. Humans' earlier "
                    "verdicts on sampled items count. A new draw for the same judge and "
                    "level replaces the previous sample (undoable).")
    cmd.add_argument("file", help="the .goldset file")
    cmd.add_argument("--judge", required=True, metavar="NAME",
                     help="the automatic judge (an assessor of kind judge)")
    cmd.add_argument("--level", required=True, choices=LEVELS,
                     help="claims (claim verdicts), answers (validated or not), relevance "
                          "((case, document) labels of a judge imported as qrels)")
    cmd.add_argument("--size", type=int, metavar="N", help="how many units to draw")
    cmd.add_argument("--half-width", type=float, metavar="W",
                     help="without --size: propose the size that brings the judge's "
                          "accuracy interval to ±W (e.g. 0.05)")
    cmd.add_argument("--seed", type=int, default=DEFAULT_SAMPLE_SEED, metavar="S",
                     help=f"random seed (default: {DEFAULT_SAMPLE_SEED}); the same seed on "
                          "the same labels draws the same sample")
    cmd.add_argument("--assessor", metavar="NAME", default="",
                     help="who draws it (recorded in the history)")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")


def cmd_sample(ns: argparse.Namespace) -> int:
    """Draw and store the sample; print its size and strata."""
    if ns.size is None and ns.half_width is None:
        raise KnownError("give the sample's size (--size N) or the interval half-width to "
                         "reach (--half-width 0.05).", path=ns.file)
    with GoldSetStore.open(ns.file, assessor=ns.assessor, lock=True) as store:
        units = store.judged_units(ns.judge, ns.level)
        try:
            proposed = (proposed_size(units, ns.half_width) if ns.half_width is not None
                        else None)
            _changes, drawn = draw_review_sample(store, ns.judge, ns.level, units,
                                                 ns.size, ns.seed, ns.half_width)
        except KnownError as error:
            if error.path is not None:
                raise
            raise KnownError("{error}", path=ns.file, error=error) from None
    strata = Counter(d.stratum for d in drawn)
    result: dict[str, Any] = {
        "judge": ns.judge, "level": ns.level, "seed": ns.seed, "population": len(units),
        "size": len(drawn), "proposed_size": proposed,
        "strata": {h: {"drawn": n, "of": next(d.stratum_size for d in drawn
                                              if d.stratum == h)}
                   for h, n in sorted(strata.items())}}
    if ns.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    drawn_from = Plural(*_DRAWN[ns.level], len(drawn), file=ns.file, judge=ns.judge,
                        units=len(units), seed=ns.seed).render()
    proposal = "" if proposed is None else Message(
        "; size proposed for ±{half_width}", half_width=ns.half_width).render()
    print(drawn_from + proposal)
    for h, row in result["strata"].items():  # a table: strata and counts
        print(f"  {h:<40} {row['drawn']:>5} / {row['of']}")
    return 0


HANDLERS = {"sample": cmd_sample}


#: "sample of 40 claims of judge 'gpt' drawn from 300 (seed 1)", per level
_DRAWN = {
    "claims": P_("{file}: sample of {n} claim of judge '{judge}' drawn from {units} (seed "
                 "{seed})", "{file}: sample of {n} claims of judge '{judge}' drawn from "
                 "{units} (seed {seed})"),
    "answers": P_("{file}: sample of {n} answer of judge '{judge}' drawn from {units} (seed "
                  "{seed})", "{file}: sample of {n} answers of judge '{judge}' drawn from "
                  "{units} (seed {seed})"),
    "relevance": P_("{file}: sample of {n} relevance judgment of judge '{judge}' drawn from "
                    "{units} (seed {seed})", "{file}: sample of {n} relevance judgments of "
                    "judge '{judge}' drawn from {units} (seed {seed})"),
}
