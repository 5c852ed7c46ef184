"""A team on the sample: a master file and one assignment file per assessor (the core's
``hand_out``), and judging inside an assignment file as the keyboard does (``judge_assigned``
with seconds; ``cannot_judge_assigned``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rag_annotator.domain.team_ops import cannot_judge_assigned, judge_assigned
from rag_annotator.import_export.sample import create_sample
from rag_annotator.import_export.team_files import hand_out
from rag_annotator.storage.store import GoldSetStore

Label = Callable[[int, dict[str, object]], int | None]

#: The experts of the claims and trajectories campaigns' tests, and the verdicts they give.
ITEM_EXPERTS = ["alice", "bruno", "chloé"]
VERDICTS = ("supported", "not_supported", "contradicted")


def make_team(tmp_path: Path, names: Sequence[str] = ("ana", "bruno", "chloe"), *,
              per_pair: int = 2, control: float = 0.05, seed: int = 7
              ) -> tuple[Path, dict[str, Path]]:
    """(master path, assessor → assignment file) in ``tmp_path/team``."""
    master = tmp_path / "master.goldset"
    with create_sample(master, assessor="lead") as store:
        report = hand_out(store, list(names), per_pair, tmp_path / "team", control=control,
                          seed=seed)
    return master, dict(report.files)


def judge_file(path: Path, label: Label, *, seconds: Callable[[int], float] = float,
               limit: int | None = None, cant: dict[int, str] | None = None) -> int:
    """Judge the slots of one assignment file in order: ``label(position, row)`` gives the
    grade (None: leave it), ``seconds(position)`` the active time, ``cant`` {position:
    reason} marks can't-judge instead.  Returns how many slots were written."""
    cant = cant or {}
    written = 0
    with GoldSetStore.open(path, assessor="someone") as store:
        for row in store.assignment_queue():
            position = int(row["position"])
            if limit is not None and written >= limit:
                break
            if position in cant:
                cannot_judge_assigned(store, row["id"], cant[position])
                written += 1
                continue
            grade = label(position, row)
            if grade is None:
                continue
            judge_assigned(store, row["id"], grade, seconds(position))
            written += 1
    return written
