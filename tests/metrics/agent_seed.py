"""Seed 000's support agent entered in a gold set, for the agent tests (metrics, CLI, exports,
dashboard): :func:`build_agents`.

It enters seed 000's case — ``supprimer_compte`` forbidden, at most 6 steps,
``verifier_identite`` before ``modifier_offre`` — four times in family *ordinary*, plus one
*sensitive* case with no expected state, one retired case, and one trajectory each in run
``agent-v1``:

====  ==========================================================  =======  ====  ===========
case  steps                                                        success  path  tok/sec/cost
====  ==========================================================  =======  ====  ===========
A01   verifier_identite, modifier_offre, creer_ticket              yes      yes   900/4/0.02
A02   verifier_identite, supprimer_compte (2), modifier_offre, …   yes      no    1200/6/0.03
A03   modifier_offre (1), verifier_identite, creer_ticket          yes      no    -/5/0.01
A04   verifier_identite, modifier_offre, creer_ticket; wrong state no       yes   700/-/-
S05   chercher (no expected state)                                 ?        yes   100/1/0.005
R06   retired: left out                                            yes      yes
====  ==========================================================  =======  ====  ===========

A03's case also has a token budget its trajectory gives no figure for (unknown).
"""

from __future__ import annotations

from typing import Any

from rag_annotator.domain import agent_ops
from rag_annotator.domain import operations as ops
from rag_annotator.domain.agent_ops import TrajectoryInput
from rag_annotator.storage.store import GoldSetStore

RUN = "agent-v1"
SEED: dict[str, Any] = {
    "kind": "agent", "question": "Je veux changer d'offre",
    "expected_state": "ticket.category = changement_offre", "family": "ordinary",
    "forbidden_tools": "supprimer_compte", "max_steps": 6,
    "tool_order": "verifier_identite < modifier_offre"}
GOOD = {"ticket": {"category": "changement_offre"}}
CLEAN = ["verifier_identite", "modifier_offre", "creer_ticket"]
TRAJECTORIES: list[tuple[str, list[str], Any, Any, Any, Any]] = [
    ("A01", CLEAN, GOOD, 900, 4.0, 0.02),
    ("A02", ["verifier_identite", "supprimer_compte", "modifier_offre", "creer_ticket"],
     GOOD, 1200, 6.0, 0.03),
    ("A03", ["modifier_offre", "verifier_identite", "creer_ticket"], GOOD, None, 5.0, 0.01),
    ("A04", CLEAN, {"ticket": {"category": "resiliation"}}, 700, None, None),
    ("S05", ["chercher"], None, 100, 1.0, 0.005),
    ("R06", CLEAN, GOOD, 10, 1.0, 1.0),
]


def build_agents(store: GoldSetStore, run: str = RUN) -> dict[str, int]:
    """Seed 000's cases and one trajectory each in ``run``; returns case key → trajectory id."""
    for key in ("A01", "A02", "A04"):
        ops.create_case(store, key=key, **SEED)
    ops.create_case(store, key="A03", **SEED, max_tokens=1000)
    ops.create_case(store, key="S05", kind="agent", family="sensitive",
                    question="Recherche", forbidden_tools="supprimer_compte")
    ops.create_case(store, key="R06", **{**SEED, "status": "retired"})
    items = [TrajectoryInput(case=key, steps=[(t, {"client": "C-42"}, "ok") for t in tools],
                             final_state=state, tokens=tokens, seconds=seconds, cost=cost,
                             line=i)
             for i, (key, tools, state, tokens, seconds, cost) in enumerate(TRAJECTORIES, 1)]
    agent_ops.import_trajectories(store, run, items)
    return {row["case_key"]: row["id"] for row in store.trajectory_queue(run)}
