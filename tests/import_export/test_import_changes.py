"""Every importer returns the Changes of its one operation (issue 14, item 4), and a
cancelled import leaves the file as it was."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from pathlib import Path

import pytest

from rag_annotator.import_export import registry
from rag_annotator.import_export.files import Cancelled
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump


@pytest.mark.parametrize("name", sorted(registry.IMPORTS))
def test_every_importer_report_carries_changes(name: str) -> None:
    function = inspect.unwrap(registry.importer(name))
    report_type = typing.get_type_hints(function)["return"]
    fields = {f.name: f for f in dataclasses.fields(report_type)}
    assert "changes" in fields, f"{name}: {report_type.__name__} has no 'changes'"
    assert fields["changes"].default is None


def _run(tmp_path: Path, lines: int = 2) -> Path:
    path = tmp_path / "run.txt"
    path.write_text("".join(f"Q{i % 7} Q0 D{i} {i // 7 + 1} {1000 - i}.0 r\n"
                            for i in range(lines)), encoding="utf-8")
    return path


def test_a_run_import_returns_its_operation(store: GoldSetStore, tmp_path: Path) -> None:
    report = registry.importer("trec-run")(store, _run(tmp_path), registry.Options())
    assert report.changes is not None
    assert report.changes.operation_id == store.newest_operation_id()
    assert report.changes.reshapes("retrieved", "runs", "cases", "documents")


def test_qrels_name_their_pairs(store: GoldSetStore, tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("Q1 0 D1 1\nQ1 0 D2 0\n", encoding="utf-8")
    changes = registry.importer("qrels")(store, qrels, registry.Options()).changes
    assert changes is not None
    ids = {row["key"]: row["id"] for row in store.query("SELECT id, key FROM cases "
                                                        "UNION ALL SELECT id, key FROM documents")}
    assert changes.pairs_touched() == {(ids["Q1"], ids["D1"]), (ids["Q1"], ids["D2"])}


@pytest.mark.parametrize("after", [0, 1, 3])
def test_a_cancelled_run_import_changes_nothing(store: GoldSetStore, goldset_path: Path,
                                                tmp_path: Path, after: int) -> None:
    """Cancel while parsing (0) or while storing: the file is as it was."""
    run = _run(tmp_path, 100_000)
    before = full_dump(goldset_path)
    polls = iter(range(1_000))
    options = registry.Options(cancel=lambda: next(polls) >= after)
    with pytest.raises(Cancelled):
        registry.importer("trec-run")(store, run, options)
    assert full_dump(goldset_path) == before


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_cancelled_gold_set_import_changes_nothing(store: GoldSetStore, goldset_path: Path,
                                                     tmp_path: Path, fmt: str) -> None:
    from rag_annotator.import_export.sample import create_sample

    sample = tmp_path / "sample.goldset"
    create_sample(sample, assessor="Claire").close()
    exported = tmp_path / ("sample.json" if fmt == "json" else "folder")
    with GoldSetStore.open(sample, read_only=True) as source:
        registry.exporter(fmt)(source, exported, registry.Options())
    before = full_dump(goldset_path)
    polls = iter(range(1_000))
    options = registry.Options(cancel=lambda: next(polls) >= 3)  # a few tables in
    with pytest.raises(Cancelled):
        registry.importer(fmt)(store, exported, options)
    assert full_dump(goldset_path) == before
    report = registry.importer(fmt)(store, exported, registry.Options())
    assert report.changes is not None and report.changes.every_pair


def _sources(tmp_path: Path, sample: Path) -> dict[str, tuple[Path, registry.Options]]:
    """A real input of each format that once ignored Cancel, made from the sample."""
    import json

    from tests.import_export.judge_files import RUN, write_ragchecker

    with GoldSetStore.open(sample, read_only=True) as source:
        registry.exporter("beir")(source, tmp_path / "beir", registry.Options())
        registry.exporter("deepeval")(source, tmp_path / "goldens.json", registry.Options())
    with GoldSetStore.open(sample, assessor="Claire") as store:
        write_ragchecker(store, tmp_path / "ragchecker.json")
    steps = [{"tool": "verifier_identite", "arguments": {}, "result": "ok"}]
    lines = [{"case": case, "steps": steps, "final_state": {}} for case in ("A01", "A02")]
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines),
                                      encoding="utf-8")
    chat = [{"case": "A01", "messages": [{"role": "user", "content": "Bonjour"},
                                         {"role": "assistant", "content": "C'est fait."}]}]
    (tmp_path / "chat.jsonl").write_text(json.dumps(chat[0]) + "\n", encoding="utf-8")
    return {"beir": (tmp_path / "beir", registry.Options()),
            "deepeval": (tmp_path / "goldens.json", registry.Options()),
            "ragchecker": (tmp_path / "ragchecker.json", registry.Options(run=RUN)),
            "trajectories": (tmp_path / "t.jsonl", registry.Options(run="agent-new")),
            "openai-trajectories": (tmp_path / "chat.jsonl", registry.Options(run="chat-new"))}


@pytest.mark.parametrize("fmt", ["beir", "deepeval", "ragchecker", "trajectories",
                                 "openai-trajectories"])
def test_the_other_imports_stop_on_cancel_too(tmp_path: Path, fmt: str) -> None:
    """BEIR, DeepEval goldens, judge verdicts and trajectories poll Cancel inside their one
    operation (they ran to the end before): cancelled, the file is as it was; not cancelled,
    the same input imports (so the cancel is what stopped it)."""
    from rag_annotator.import_export.sample import create_sample

    sample = tmp_path / "sample.goldset"
    create_sample(sample, assessor="Claire").close()
    source, options = _sources(tmp_path, sample)[fmt]
    target = sample  # trajectories and verdicts need the sample's cases and claims
    if fmt in ("beir", "deepeval"):  # new cases and documents: into an empty file
        target = tmp_path / "empty.goldset"
        GoldSetStore.create(target).close()
    before = full_dump(target)
    with GoldSetStore.open(target, assessor="Marc") as store, pytest.raises(Cancelled):
        registry.importer(fmt)(store, source, dataclasses.replace(
            options, cancel=lambda: True))
    assert full_dump(target) == before
    with GoldSetStore.open(target, assessor="Marc") as store:
        report = registry.importer(fmt)(store, source, options)
    assert report.changes is not None and not report.changes.empty
