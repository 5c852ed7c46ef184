"""``rag-annotator rights``: the rights matrix from the command line (seed 003, "droits").

``rights FILE`` lists the test identities with their groups and the exposures of every run;
``rights FILE --identity I --remove-group G`` replays that change on every stored ranking,
context and citation ("what if": nothing is written) and ``--apply`` then makes it, as one
operation the app can undo.  An unknown identity or group is one line on stderr (exit 2),
and nothing is changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rag_annotator.errors import InvalidValue
from rag_annotator.storage.store import GoldSetStore


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``rights`` command."""
    cmd = sub.add_parser(
        "rights", help="test identities, exposures, and a replayed rights change",
        description="Without options: the test identities (name, groups) and the "
                    "out-of-scope exposures of every run (a forbidden document retrieved, "
                    "passed to the model, or cited). With --identity I --remove-group G: "
                    "replay that change on every stored ranking, context and citation "
                    "without running any system, list the answers it would expose and the "
                    "figures that would change (before -> after); --apply then makes the "
                    "change (one undoable operation).")
    cmd.add_argument("file", help="the .goldset file")
    cmd.add_argument("--identity", metavar="I", help="the test identity to change")
    cmd.add_argument("--remove-group", metavar="G", help="the group to take from it")
    cmd.add_argument("--apply", action="store_true", help="make the change for real")
    cmd.add_argument("--depth", type=int, default=10, metavar="K",
                     help="the top K retrieved of an answered case count as the context "
                          "passed to the model (default: 10)")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")


def _cmd_rights(ns: argparse.Namespace) -> int:
    from rag_annotator.domain.rights import remove_group
    from rag_annotator.reports.rights_figures import exposure_of, load_state
    from rag_annotator.reports.rights_replay import replay_state

    if ns.depth < 1:
        raise InvalidValue("--depth: {depth} is below 1; give a whole number >= 1.", depth=ns.depth)
    if (ns.identity is None) != (ns.remove_group is None):
        raise InvalidValue("--identity and --remove-group go together (e.g. --identity "
                           "manager --remove-group managers).")
    if ns.apply and ns.identity is None:
        raise InvalidValue("--apply needs a change: give --identity I --remove-group G.")
    if ns.identity is None:
        with GoldSetStore.open(ns.file, read_only=True) as store:
            state = load_state(store)
        summary = exposure_of(state, ns.depth)
        if ns.json:
            _print({"identities": [{"name": i.name, "groups": list(i.groups)}
                                   for i in state.identities.items],
                    "exposure": summary.to_json()})
        else:
            _print_summary(state.identities, summary.per_identity(), summary.per_run())
        return 0
    with GoldSetStore.open(ns.file, read_only=not ns.apply, lock=ns.apply) as store:
        state = load_state(store)
        try:
            change = remove_group(state.identities, ns.identity, ns.remove_group)
        except InvalidValue as error:
            raise InvalidValue("{file}: {error}", file=ns.file, error=error) from None
        result = replay_state(state, change, ns.depth)
        if ns.apply:
            from rag_annotator.domain.rights_ops import apply_rights_change

            apply_rights_change(store, change,
                                f"{ns.identity} − {ns.remove_group}")
    if ns.json:
        _print({**result.to_json(), "applied": bool(ns.apply)})
        return 0
    _print_replay(result, ns)
    return 0


def _print(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2 if sys.stdout.isatty() else None))


def _print_summary(identities: Any, per_identity: dict[str, Any],
                   per_run: dict[str, Any]) -> None:
    lines = ["identities:"]
    for name, row in per_identity.items():
        declared = "" if identities.get(name) is not None else " (a role, not declared)"
        lines.append(f"  {name}{declared}: groups {', '.join(row['groups']) or 'none'}; "
                     f"exposures retrieved {row['retrieved']['count']}, context "
                     f"{row['context']['count']}, cited {row['cited']['count']} over "
                     f"{len(row['cases'])} case(s)")
    lines.append("runs:")
    for run, row in per_run.items():
        lines.append(f"  {run}: {row['total']} exposure(s) (retrieved {row['retrieved']}, "
                     f"context {row['context']}, cited {row['cited']}) in "
                     f"{len(row['cases'])} case(s)")
    print("\n".join(lines))


def _print_replay(result: Any, ns: argparse.Namespace) -> None:
    answers = result.answers()
    runs = {run for run, _case in answers}
    lines = [f"what if identity {ns.identity} loses group {ns.remove_group}: "
             f"{len(result.new)} new exposure(s) in {len(answers)} answer(s) of "
             f"{len(runs)} run(s)"]
    for (run, case), events in answers.items():
        detail = "; ".join(f"{e.stage} {e.document}" for e in events)
        lines.append(f"  {run}  {case}  ({events[0].identity}): {detail}")
    figures = result.figures()
    if figures:
        lines.append("figures that change (before -> after):")
        lines += [f"  {f.scope} {f.name} {f.measure}: {f.before} -> {f.after}"
                  for f in figures]
    lines.append("applied (undo it in the app's history)" if ns.apply else
                 "not applied: add --apply to make the change")
    print("\n".join(lines))


HANDLERS = {"rights": _cmd_rights}
