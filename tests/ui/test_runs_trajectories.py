"""Runs section: an agent's trajectories come in through *Import a Run…* (both shapes),
show as a count in the runs table, and go with one undo; a bad log names its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.storage.store import GoldSetStore
from rag_annotator.ui.main_window import MainWindow
from rag_annotator.ui.sections.runs import (
    RUN_FORMATS,
    RunImportDialog,
    RunsSection,
    guess_run_format,
)
from tests.helpers import rows
from tests.ui.driving import open_window

pytestmark = pytest.mark.gui


@pytest.fixture
def agent_window(qtbot, goldset_path: Path, english: None) -> MainWindow:  # type: ignore[no-untyped-def]
    with GoldSetStore.create(goldset_path, assessor="alice") as store:
        for key in ("A01", "A02"):
            ops.create_case(store, key=key, kind="agent", question="Je veux changer d'offre",
                            forbidden_tools="supprimer_compte", max_steps=6,
                            tool_order="verifier_identite < modifier_offre")
    return open_window(qtbot, goldset_path)


def _runs(window: MainWindow) -> RunsSection:
    window.show_section(2)
    section = window.sections[2]
    assert isinstance(section, RunsSection)
    return section


def _counts(section: RunsSection) -> dict[str, object]:
    return {str(r["name"]): r["trajectories"] for r in section.model.rows}


def test_the_dialog_offers_both_trajectory_formats(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = RunImportDialog()
    qtbot.addWidget(dialog)
    codes = [dialog.formats.itemData(i) for i in range(dialog.formats.count())]
    assert codes == list(RUN_FORMATS)
    assert {"trajectories", "openai-trajectories"} <= set(codes)


def test_import_trajectories_then_undo(qtbot, agent_window: MainWindow, tmp_path: Path,
                                       goldset_path: Path) -> None:  # type: ignore[no-untyped-def]
    section = _runs(agent_window)
    source = tmp_path / "agent-v1.jsonl"
    source.write_text(json.dumps({"case": "A01", "steps": [
        {"tool": "verifier_identite", "arguments": {"client_id": "C-42"}, "result": "ok"},
        {"tool": "modifier_offre", "result": "ok"}]}) + "\n" + json.dumps(
        {"case": "A02", "steps": []}) + "\n", encoding="utf-8")
    job = section.import_run("trajectories", source)
    assert job is not None and job.wait_done()
    assert job.changes is not None and job.changes.operation_id
    qtbot.waitUntil(lambda: _counts(section).get("agent-v1") == 2, timeout=3000)
    (row,) = [r for r in section.model.rows if r["name"] == "agent-v1"]
    assert row["cases"] == 2  # the cases it has trajectories for
    assert rows(goldset_path, "SELECT count(*) FROM trajectory_steps") == [(2,)]
    agent_window.undo.undo()
    qtbot.waitUntil(lambda: "agent-v1" not in _counts(section), timeout=3000)
    assert rows(goldset_path, "SELECT count(*) FROM trajectories") == [(0,)]


def test_a_bad_chat_log_names_its_line_and_changes_nothing(
        qtbot, agent_window: MainWindow, tmp_path: Path, goldset_path: Path,
        modals) -> None:  # type: ignore[no-untyped-def]
    section = _runs(agent_window)
    source = tmp_path / "log.jsonl"
    call = {"id": "c1", "type": "function",
            "function": {"name": "verifier_identite", "arguments": "{client_id: C-42}"}}
    source.write_text(json.dumps({"case": "A01", "messages": []}) + "\n" + json.dumps(
        {"case": "A02", "messages": [{"role": "assistant", "tool_calls": [call]}]}) + "\n",
        encoding="utf-8")
    modals.expect()
    job = section.import_run("openai-trajectories", source, "v2")
    assert job is not None and job.wait_done() and job.changes is None
    qtbot.waitUntil(lambda: not modals.pending, timeout=3000)
    assert "log.jsonl:2:" in modals.texts[0] and "arguments" in modals.texts[0]
    assert rows(goldset_path, "SELECT count(*) FROM runs") == [(0,)]


@pytest.mark.parametrize("text,expected", [
    ('{"case": "A01", "steps": []}\n', "trajectories"),
    ('\n{"case": "A01", "messages": [{"role": "user"}], "steps_note": 1}\n',
     "openai-trajectories"),
    ('[\n  {"metadata": {"case": "A01"}, "messages": []}\n]\n', "openai-trajectories"),
    ('{"user_input": "q", "retrieved_contexts": []}\n', "ragas"),
    ('{"case": "Q1", "retrieved": ["D1"]}\n', "jsonl-run"),
    ("Q1 Q0 D4 1 2.5 splade\n", "trec-run"),
    ("hello\n", None),
    ('{"case": "A01"}\n', None),
])
def test_the_chosen_file_preselects_its_format(tmp_path: Path, text: str,
                                               expected: str | None) -> None:
    path = tmp_path / "file"
    path.write_text(text, encoding="utf-8")
    assert guess_run_format(path) == expected
    assert guess_run_format(tmp_path / "missing") is None


def test_deleting_an_agent_run_says_its_trajectories_go_too(
        qtbot, agent_window: MainWindow, tmp_path: Path, goldset_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    section = _runs(agent_window)
    source = tmp_path / "v1.jsonl"
    source.write_text('{"case": "A01", "steps": [{"tool": "verifier_identite"}]}\n',
                      encoding="utf-8")
    job = section.import_run("trajectories", source)
    assert job is not None and job.wait_done() and job.changes is not None
    qtbot.waitUntil(lambda: _counts(section).get("v1") == 1, timeout=3000)
    asked: list[str] = []

    def question(_parent: object, _title: str, text: str) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    section.table.selectRow(list(_counts(section)).index("v1"))
    section.delete_current()
    assert "Its 1 agent trajector" in asked[0]  # plural form: from the .qm files
    assert rows(goldset_path, "SELECT count(*) FROM trajectories") == [(0,)]
    agent_window.undo.undo()
    assert rows(goldset_path, "SELECT count(*) FROM trajectory_steps") == [(1,)]
