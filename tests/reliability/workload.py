"""A deterministic judging-and-verifying session shared by the crash tests.

:func:`build_template` makes a small gold set (cases, documents, one run with an answer per
case and a few claims each).  :func:`step` applies edit number ``seq`` through the real domain
operations: judging (``set_judgment``), verifying (``set_claim_verdict``, ``add_claim`` at the
top of an answer — a multi-row operation that renumbers every claim below it —,
``set_answer_review``), editing a case and reviewing an agent's trajectory
(``review_trajectory``).  Every step changes something, so edit ``seq`` is
exactly one operation row, and the state after edits 1..m does not depend on who ran them
(timestamps aside): a child process killed at any point must leave the file in the state of a
reference run after exactly ``m`` or ``m + 1`` edits, where ``m`` is the last one it reported.
"""

from __future__ import annotations

import hashlib
import json
import os
from contextlib import closing
from pathlib import Path

from rag_annotator.domain import agent_ops, judging_ops
from rag_annotator.domain import operations as ops
from rag_annotator.domain.agent_ops import TrajectoryInput
from rag_annotator.domain.clock import utc_now
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import ENTITY_TABLES, TIMESTAMP_COLUMNS, dump, ro_connect

N_CASES = 8
N_DOCS = 40
CLAIMS_PER_ANSWER = 3
N_BASE_CLAIMS = N_CASES * CLAIMS_PER_ANSWER
ASSESSOR = "crashtest"
VERDICTS = ("supported", "not_supported", "contradicted", None)
OUTCOMES = ("answered", "abstained", "escalated")
KINDS = ("set_judgment", "set_claim_verdict", "add_claim", "set_answer_review", "edit_case",
         "review_trajectory")
#: Tables whose rows carry history after-images keyed by id (checked by history_matches).
EDITED_TABLES = ("judgments", "claims", "answer_reviews", "cases", "trajectory_reviews")
#: What the digest compares: every entity table, the agent ones included.
DIGEST_TABLES = (*ENTITY_TABLES, "trajectories", "trajectory_steps", "trajectory_reviews")


def long_mode() -> bool:
    """RAG_ANNOTATOR_LONG=1: the nightly sizes."""
    return os.environ.get("RAG_ANNOTATOR_LONG") == "1"


def build_template(path: Path) -> int:
    """Create the starting file; return its number of operations."""
    with GoldSetStore.create(path, assessor="prep") as store:
        now = utc_now()
        with store.operation("bulk", "documents") as op:
            op.insert_many("documents", (
                {"key": f"D{i:03d}", "title": f"Doc {i}", "text": f"texte {i} " * 30,
                 "content_hash": f"h{i}", "created_at": now, "updated_at": now}
                for i in range(1, N_DOCS + 1)))
        for i in range(1, N_CASES + 1):
            ops.create_case(store, key=f"Q{i}", question=f"Question {i} ?")
        ops.create_run(store, name="R1", model="m")
        with store.operation("bulk", "answers") as op:
            for case in range(1, N_CASES + 1):
                op.insert("answers", {"run_id": 1, "case_id": case,
                                      "text": f"Réponse {case}. Elle dit oui. Elle dit non."})
        for case in range(1, N_CASES + 1):  # answer id == case id
            for k in range(CLAIMS_PER_ANSWER):
                ops.add_claim(store, case, f"affirmation {case}.{k}")
        # agent cases A1..A8 (ids N_CASES+1…) with one trajectory each (trajectory id == i);
        # no expectation, so any mark is the reviewer's own and needs no reason
        for i in range(1, N_CASES + 1):
            ops.create_case(store, key=f"A{i}", kind="agent", question=f"Demande {i}")
        agent_ops.import_trajectories(store, "AG", [
            TrajectoryInput(case=f"A{i}", steps=[("verifier_identite", {"n": i}, "ok")])
            for i in range(1, N_CASES + 1)])
        return len(store.operation_ids())


def step(store: GoldSetStore, seq: int) -> str:
    """Apply edit ``seq`` (1, 2, …); return the operation's kind."""
    kind = KINDS[seq % len(KINDS)]
    case = 1 + seq % N_CASES
    if kind == "set_judgment":
        judging_ops.set_judgment(store, case, 1 + seq % N_DOCS, seq % 2, note=f"s{seq}")
    elif kind == "set_claim_verdict":
        ops.set_claim_verdict(store, 1 + seq % N_BASE_CLAIMS,
                              VERDICTS[(seq // len(KINDS)) % len(VERDICTS)],
                              rationale=f"r{seq}")
    elif kind == "add_claim":
        ops.add_claim(store, case, f"affirmation ajoutée {seq}", position=1)
    elif kind == "set_answer_review":
        ops.set_answer_review(store, 1, case, outcome=OUTCOMES[seq % len(OUTCOMES)],
                              validated=seq % 2 == 0, note=f"n{seq}")
    elif kind == "edit_case":
        ops.edit_case(store, case, notes=f"edit {seq}")
    else:  # the note differs at every step: the operation always changes a row
        agent_ops.review_trajectory(store, case, path_acceptable=seq % 4 != 0,
                                    task_success=None if seq % 3 == 0 else seq % 2 == 0,
                                    note=f"t{seq}")
    return kind


def digest(path: Path) -> str:
    """A hash of every entity row, timestamps left out (they differ between runs)."""
    data = dump(path, DIGEST_TABLES, drop=TIMESTAMP_COLUMNS)
    return hashlib.sha256(repr(data).encode()).hexdigest()


class Reference:
    """The states after edits 0..m of an uninterrupted run, computed on demand."""

    def __init__(self, template: Path, folder: Path) -> None:
        self.path = folder / "reference.goldset"
        self.path.write_bytes(template.read_bytes())
        self.store = GoldSetStore.open(self.path, assessor=ASSESSOR)
        self.digests = [digest(self.path)]

    def state(self, m: int) -> str:
        while len(self.digests) <= m:
            step(self.store, len(self.digests))
            self.digests.append(digest(self.path))
        return self.digests[m]

    def close(self) -> None:
        self.store.close()


def history_problems(path: Path) -> list[str]:
    """Rows whose values differ from the after-image their history last recorded, and
    operations without history or history without its operation (all-or-nothing)."""
    problems = []
    with closing(ro_connect(path)) as conn:
        last = {(t, k): n for t, k, n in conn.execute(
            "SELECT table_name, row_key, new FROM history ORDER BY id")}
        for table in EDITED_TABLES:
            cur = conn.execute(f"SELECT * FROM {table}")
            cols = [d[0] for d in cur.description]
            for values in cur.fetchall():
                row = dict(zip(cols, values))
                image = last.get((table, json.dumps({"id": row["id"]})))
                if image is None:
                    problems.append(f"{table} {row['id']} has no history")
                elif json.loads(image) != row:
                    problems.append(f"{table} {row['id']} differs from its history")
        orphans = conn.execute(
            "SELECT count(*) FROM operations o WHERE NOT EXISTS "
            "(SELECT 1 FROM history h WHERE h.operation_id = o.id)").fetchone()[0]
        if orphans:
            problems.append(f"{orphans} operations without history")
        widows = conn.execute(
            "SELECT count(*) FROM history h WHERE NOT EXISTS "
            "(SELECT 1 FROM operations o WHERE o.id = h.operation_id)").fetchone()[0]
        if widows:
            problems.append(f"{widows} history rows without their operation")
    return problems
