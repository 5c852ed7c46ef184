"""``assign`` and ``collect``: judging as a team through assignment files (DESIGN section 6).

``assign`` creates a campaign in FILE (one undoable operation) and writes one self-contained
assignment file per assessor; ``collect`` brings assignment files back, one undoable
operation per file.  A refused file prints one ``error:`` line and the command exits with 2
after collecting the others.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rag_annotator.cli.progress import Progress
from rag_annotator.errors import InvalidValue
from rag_annotator.messages import P_, Message, Plural, render_any
from rag_annotator.storage.store import GoldSetStore

EXIT_ERROR = 2


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``assign`` and ``collect``."""
    assign = sub.add_parser(
        "assign", help="hand the pool out to a team, one assignment file per expert",
        description="Create a campaign in FILE: every pair of the pool (the runs' top "
                    "documents and the expected sources) goes to --per-pair distinct "
                    "assessors, each assessor gets about the same number, in a seeded "
                    "random order of their own (ranks never shown), with a --control share "
                    "shown again, blind, later in the same queue. Writes DIR/<assessor>.goldset "
                    "for each (never overwriting one). One undoable operation in FILE.")
    assign.add_argument("file", help="the master .goldset file")
    assign.add_argument("--assessors", metavar="A,B,C", required=True,
                        help="comma-separated names of the assessors")
    assign.add_argument("--per-pair", type=int, default=2, metavar="K",
                        help="distinct assessors per pair (default: 2)")
    assign.add_argument("--control", type=float, default=0.0, metavar="SHARE",
                        help="share of each queue repeated blind later, e.g. 0.05 (default 0)")
    assign.add_argument("--seed", type=int, metavar="N",
                        help="seed of the order (default: drawn, and stored in the campaign)")
    assign.add_argument("--runs", metavar="LIST",
                        help="comma-separated runs whose documents make the pool (default: "
                             "the file's pool setting)")
    assign.add_argument("--depth", type=int, metavar="K",
                        help="top K documents of each run (default: the pool setting)")
    assign.add_argument("--items", choices=("pairs", "claims", "trajectories"),
                        default="pairs",
                        help="what to hand out: judgment pairs (default), the claims of the "
                             "runs' answers to verify, or their trajectories to review")
    assign.add_argument("--out", metavar="DIR", required=True,
                        help="folder of the assignment files (created if missing)")
    collect = sub.add_parser(
        "collect", help="bring assignment files back (idempotent)",
        description="Collect assignment files into FILE, one undoable operation per file: "
                    "the expert's judgments with their seconds, control repeats and can't-"
                    "judge reasons. Collecting a file twice adds nothing. A file of another "
                    "campaign or master, or not a gold-set file, is refused (FILE untouched). "
                    "Edits an expert made to cases or documents are reported as conflicts, "
                    "never applied. Disputes go to the adjudication queue.")
    collect.add_argument("file", help="the master .goldset file")
    collect.add_argument("sources", nargs="+", metavar="SOURCE",
                         help="assignment files, or folders searched for *.goldset")


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise InvalidValue("--assessors: an empty name between commas; give names like "
                           "Alice,Bob,Chloé.")
    return names


def _cmd_assign(ns: argparse.Namespace) -> int:
    from rag_annotator.import_export.team_files import hand_out

    runs = None if ns.runs is None else [r.strip() for r in ns.runs.split(",") if r.strip()]
    if ns.depth is not None and ns.depth < 1:
        raise InvalidValue("--depth: {depth} is below 1; give a whole number >= 1.",
                           depth=ns.depth)
    with GoldSetStore.open(ns.file, lock=True) as store, Progress("assign", "files") as bar:
        bar.store = store  # the test hook waits for the campaign's transaction
        report = hand_out(store, _names(ns.assessors), ns.per_pair, Path(ns.out),
                          control=ns.control, seed=ns.seed, runs=runs, depth=ns.depth,
                          items=ns.items, cancel=bar.poll, progress=bar.report)
    singular, plural = {"pairs": P_("{n} pair to judge", "{n} pairs to judge"),
                        "claims": P_("{n} claim to verify", "{n} claims to verify"),
                        "trajectories": P_("{n} trajectory to review",
                                           "{n} trajectories to review")}[ns.items]
    for name, path in report.files.items():
        print(f"{path}: {name}, " + Plural(singular, plural, report.slots[name]).render())
    print(f"{ns.file}: {render_any(report.summary())}")
    return 0


def _cmd_collect(ns: argparse.Namespace) -> int:
    from rag_annotator.import_export.long_lists import few_lines
    from rag_annotator.import_export.team_files import collect

    with GoldSetStore.open(ns.file, lock=True) as store, Progress("collect", "steps") as bar:
        # polled between files; the files are brought in as one transaction (each file its
        # own operation): Ctrl+C leaves the master as it was
        bar.store = store
        report = collect(store, ns.sources, cancel=bar.poll, progress=bar.report)
    if report.master_skipped:
        print(render_any(Message("{file}: skipped: this is the master itself (it collects, "
                                 "it is not collected); give the experts' assignment files "
                                 "or their folder.", file=ns.file)))
    for result in report.files:
        if result.refused is not None:
            print(f"error: {render_any(result.refused)}", file=sys.stderr)
            continue
        for line in few_lines([Message("conflict: {line}", line=c) for c in result.conflicts]
                              + [Message("skipped {line}", line=s) for s in result.skipped]):
            print(f"warning: {result.path}: {line}", file=sys.stderr)
        print(render_any(result.summary()))
    refused = len(report.refused)
    print(f"{ns.file}: " + Message(
        "{collected}, {refused}; {disputes} in the adjudication queue",
        collected=Plural("{n} file collected", "{n} files collected",
                         len(report.files) - refused),
        refused=Plural("{n} refused", "{n} refused", refused),
        disputes=Plural("{n} disputed pair", "{n} disputed pairs", report.disputes)).render())
    return EXIT_ERROR if report.refused else 0


HANDLERS: dict[str, Any] = {"assign": _cmd_assign, "collect": _cmd_collect}
