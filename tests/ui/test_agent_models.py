"""The Agents section's table models (review list, timeline, checks, final state) pass Qt's
model tester, like the shell's models (``test_models.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_annotator.domain.agent_checks import evaluate_row
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.agents.widgets import (
    ChecksModel,
    StateModel,
    StepsModel,
    TrajectoriesModel,
)
from tests.ui.agent_data import RUN, build_agents

pytestmark = pytest.mark.gui

# Qt's own QAbstractItemModelTester (C++), as in test_models.py (not force_py=True).


@pytest.fixture
def agents(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = GoldSetStore.open(build_agents(tmp_path / "agents.goldset"), assessor="alice")
    yield store
    store.close()


def test_review_list_passes_the_model_tester(qtmodeltester, agents: GoldSetStore) -> None:
    model = TrajectoriesModel()
    model.queue_ids = [int(q["id"]) for q in agents.trajectory_queue(RUN)]
    model.set_store(agents)
    assert model.rowCount() == len(model.queue_ids) == 3
    assert model.index(0, 1).data() == "A01"
    qtmodeltester.check(model)
    model.set_store(None)
    assert model.rowCount() == 0
    qtmodeltester.check(model)


def test_timeline_checks_and_state_pass_the_model_tester(qtmodeltester,
                                                         agents: GoldSetStore) -> None:
    for queued in agents.trajectory_queue(RUN):
        detail = agents.trajectory_detail(int(queued["id"]))
        assert detail is not None
        evaluation = evaluate_row(detail)
        steps, checks, state = StepsModel(), ChecksModel(), StateModel()
        steps.set_steps(detail["steps"], evaluation)
        checks.set_checks(evaluation.checks)
        state.set_state(evaluation.state)
        assert steps.rowCount() == len(detail["steps"]) > 0 and checks.rowCount() > 0
        for model in (steps, checks, state):
            qtmodeltester.check(model)
