"""``check-structured``: check the structured answers again (issue 17), headless.

The same operation as Ctrl+Shift+V in the Verify section (undoable in the app's history):
every answer of a case with an output contract — of one run with ``--run`` — is parsed,
validated against the case's JSON Schema and compared field by field; the command prints
how many answers were checked and the outcomes per decisive field.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from rag_annotator.domain.structured import OUTCOMES
from rag_annotator.domain.structured_ops import check_structured
from rag_annotator.messages import Plural
from rag_annotator.storage.store import GoldSetStore


def add_parsers(sub: Any) -> None:
    """The command's parser."""
    check = sub.add_parser(
        "check-structured", help="check the structured answers against their output "
                                 "contracts again (parse, JSON Schema, decisive fields)")
    check.add_argument("file", type=Path)
    check.add_argument("--run", help="only this run's answers")


def _cmd_check_structured(ns: argparse.Namespace) -> int:
    with GoldSetStore.open(ns.file, lock=True) as store:
        run_id = int(store.by_key("runs", ns.run)["id"]) if ns.run else None
        check_structured(store, run_id=run_id)
        where = "WHERE r.name = ?" if ns.run else ""
        rows = store.query(
            "SELECT o.outcome, count(*) AS n FROM field_outcomes o "
            "JOIN answers a ON a.id = o.answer_id JOIN runs r ON r.id = a.run_id "
            f"{where} GROUP BY o.outcome", (ns.run,) if ns.run else ())
        answers = store.query(
            "SELECT count(*) AS n FROM structured_checks s JOIN answers a "
            f"ON a.id = s.answer_id JOIN runs r ON r.id = a.run_id {where}",
            (ns.run,) if ns.run else ())[0]["n"]
    counts = Counter({r["outcome"]: int(r["n"]) for r in rows})
    print(Plural("{file}: {n} structured answer checked; decisive fields: {counts}",
                 "{file}: {n} structured answers checked; decisive fields: {counts}",
                 answers, file=ns.file,
                 counts=", ".join(f"{o.replace('_', ' ')} {counts[o]}"
                                  for o in OUTCOMES)).render())
    return 0


HANDLERS = {"check-structured": _cmd_check_structured}
